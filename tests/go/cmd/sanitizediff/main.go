// Command sanitizediff writes the differential sanitizer vectors (package
// tests/go/sanitizediff): in tests/go, go run ./cmd/sanitizediff -seed S -n N
// -o FILE. make sanitize-diff runs it for the TypeScript and Python tests.
// It lives in the tests/go module because it imports the generated package,
// which is a module of its own that errgen's module must not depend on.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/tests/go/sanitizediff"
)

func main() {
	out := flag.String("o", "", "the file to write (required)")
	n := flag.Int("n", 10000, "the number of cases")
	seed := flag.Uint64("seed", 20261130, "the seed; the same seed always gives the same file")
	flag.Parse()
	if *out == "" || *n < 1 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: sanitizediff -o FILE [-n CASES] [-seed SEED]")
		os.Exit(2)
	}
	cfg := sanitizediff.Config{Seed: *seed, N: *n, MaxLength: agenterror.SanitizeMaxLength,
		Marker: agenterror.SanitizeTruncationMarker, SanitizeMax: agenterror.SanitizeMax}
	fmt.Fprintf(os.Stderr, "sanitizediff: seed %d, %d cases, %d crafted and %d at the edges -> %s\n", cfg.Seed, cfg.N, 2*len(sanitizediff.CraftedPatterns), sanitizediff.EdgeCount, *out)
	if err := write(*out, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "sanitizediff:", err)
		os.Exit(1)
	}
}

// write writes the file through a temporary one, so a reader never sees
// half of it.
func write(path string, cfg sanitizediff.Config) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".sanitizediff-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	// The seeded random cases, then the crafted worst cases (the same in
	// every run), then the secrets at the window's and the truncation's
	// edges.
	cases := append(sanitizediff.Generate(cfg), sanitizediff.Crafted(cfg)...)
	cases = append(cases, sanitizediff.Edge(cfg)...)
	if err := sanitizediff.Write(w, cfg, cases); err != nil {
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
