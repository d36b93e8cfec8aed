// Command readerdiff writes the differential reader vectors (package
// tests/go/readerdiff): in tests/go, go run ./cmd/readerdiff -vectors FILE
// -seed S -n N -o FILE. make reader-diff runs it for the TypeScript, Python
// and Rust tests; make fuzz runs it with more cases and a new seed. It
// prints the seed and Go's counts, and fails when Go itself accepted an
// envelope it cannot encode or send again.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/tests/go/readerdiff"
)

func main() {
	out := flag.String("o", "", "the file to write (required)")
	vectors := flag.String("vectors", "", "the conformance vectors the seeds come from (required)")
	n := flag.Int("n", 2000, "the number of seeded cases")
	seed := flag.Uint64("seed", 20261207, "the seed; the same seed always gives the same file")
	flag.Parse()
	if *out == "" || *vectors == "" || *n < 1 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: readerdiff -vectors FILE -o FILE [-n CASES] [-seed SEED]")
		os.Exit(2)
	}
	data, err := os.ReadFile(*vectors)
	if err != nil {
		fmt.Fprintln(os.Stderr, "readerdiff:", err)
		os.Exit(1)
	}
	cfg := readerdiff.Config{Seed: *seed, N: *n, Vectors: data}
	cases, err := readerdiff.Generate(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "readerdiff:", err)
		os.Exit(1)
	}
	cases = append(cases, readerdiff.Crafted()...)
	answers := make([]readerdiff.Answer, len(cases))
	broken := 0
	for i, c := range cases {
		answers[i] = readerdiff.Read(c)
		if a := answers[i]; a.EncodeError != "" || a.WriteError != "" || a.IllFormed || a.GRPCError != "" {
			if broken < 5 {
				fmt.Fprintf(os.Stderr, "readerdiff: Go accepted %q but %s%s%s (ill-formed UTF-8: %t)\n", c.Name, a.EncodeError, a.WriteError, a.GRPCError, a.IllFormed)
			}
			broken++
		}
	}
	if err := write(*out, cfg, cases, answers); err != nil {
		fmt.Fprintln(os.Stderr, "readerdiff:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "readerdiff: seed %d, Go: %s; %d accepted but not sent on -> %s\n", cfg.Seed, readerdiff.Count(cases, answers), broken, *out)
	if broken > 0 {
		// The file is written: the other languages still compare with it.
		fmt.Fprintf(os.Stderr, "readerdiff: %d envelopes Go accepted do not encode or send again (JSON, HTTP, AIP-193, gRPC), or encode as ill-formed UTF-8 (go test ./readerdiff in tests/go names them)\n", broken)
	}
}

// write writes the file through a temporary one, so a reader never sees
// half of it.
func write(path string, cfg readerdiff.Config, cases []readerdiff.Case, answers []readerdiff.Answer) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".readerdiff-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	if err := readerdiff.Write(w, cfg, agenterror.ContractName, cases, answers); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
