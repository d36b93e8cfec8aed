// Command protojsonaip193 writes the AIP-193 answers protojson writes
// (package tests/go/protoaip) for every contract of the repository: in
// tests/go, go run ./cmd/protojsonaip193 -repo DIR -o FILE. make
// protojson-aip193 runs it for the TypeScript, Python and Rust tests, whose
// AIP-193 readers must read each answer back into its envelope.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/errgen/errgen/tests/go/protoaip"
)

func main() {
	out := flag.String("o", "", "the file to write (required)")
	repo := flag.String("repo", "../..", "the repository whose contracts to read")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: protojsonaip193 [-repo DIR] -o FILE")
		os.Exit(2)
	}
	if err := run(*repo, *out); err != nil {
		fmt.Fprintln(os.Stderr, "protojsonaip193:", err)
		os.Exit(1)
	}
}

func run(repo, out string) error {
	cs, err := protoaip.Load(repo)
	if err != nil {
		return err
	}
	f, err := protoaip.Build(cs)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	// Through a temporary file, so a reader never sees half of it.
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}
