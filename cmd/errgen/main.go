// Command errgen turns one YAML error contract into everything services and
// agents need to speak the same error language. See the README.
package main

import (
	"os"
	"runtime/debug"

	"github.com/errgen/errgen/internal/cli"
)

func main() {
	// errgen is a short run that builds every output in memory, writes it and
	// exits, so much of what it allocates stays live to the end and the
	// collector's default pace (a cycle each time the heap doubles) keeps
	// re-marking it. Letting the heap triple between cycles saves about a
	// tenth of the CPU time on a contract of 10,000 kinds for about a quarter
	// more peak memory; the saving is in the collector, so it stays out of
	// generate.Generate, which tests and benchmarks call. A GOGC in the
	// environment still wins.
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(200)
	}
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}
