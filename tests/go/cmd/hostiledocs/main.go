// Command hostiledocs writes the hostile documents of the decoders' memory
// benchmark (package hostile) to a directory, one file per shape
// (<shape>.json), for the TypeScript, Python and Rust benchmarks to decode
// the bytes the Go benchmark decodes.
//
//	go run ./cmd/hostiledocs -size 67108864 -o build/hostile
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/errgen/errgen/tests/go/hostile"
)

func main() {
	size := flag.Int("size", 64<<20, "the size of each document in bytes (about)")
	out := flag.String("o", "build/hostile", "the directory to write <shape>.json to")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i, s := range hostile.Shapes {
		if err := os.WriteFile(filepath.Join(*out, s.Name+".json"), hostile.Build(i, *size), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
