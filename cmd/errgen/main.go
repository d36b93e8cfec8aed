// Command errgen turns one YAML error contract into everything services and
// agents need to speak the same error language. See the README.
package main

import (
	"os"

	"github.com/errgen/errgen/internal/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}
