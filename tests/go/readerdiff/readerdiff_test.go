package readerdiff_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/errgen/errgen/tests/go/readerdiff"
)

func vectors(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../../../conformance/agent-error.vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func file(t *testing.T, cfg readerdiff.Config) []byte {
	t.Helper()
	cases, err := readerdiff.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	answers := make([]readerdiff.Answer, len(cases))
	for i, c := range cases {
		answers[i] = readerdiff.Read(c)
	}
	var b bytes.Buffer
	if err := readerdiff.Write(&b, cfg, "agent-error", cases, answers); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDeterministic: a seed always gives the same file, another seed
// another one, and the file is JSON.
func TestDeterministic(t *testing.T) {
	v := vectors(t)
	a, b := file(t, readerdiff.Config{Seed: 7, N: 300, Vectors: v}), file(t, readerdiff.Config{Seed: 7, N: 300, Vectors: v})
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with seed 7 wrote different files")
	}
	if bytes.Equal(a, file(t, readerdiff.Config{Seed: 8, N: 300, Vectors: v})) {
		t.Fatal("seeds 7 and 8 wrote the same file")
	}
	if !json.Valid(a) {
		t.Fatal("the file is not JSON")
	}
}

// TestCoverage: make test's run (the Makefile's default seed and count)
// applies every mutation and reaches every reader, with both answers.
func TestCoverage(t *testing.T) {
	cases, err := readerdiff.Generate(readerdiff.Config{Seed: 20261207, N: 2000, Vectors: vectors(t)})
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	answers := make([]readerdiff.Answer, len(cases))
	for i, c := range cases {
		for _, m := range c.Mutations {
			if !slices.Contains(readerdiff.Mutations, m) {
				t.Errorf("case %q: mutation %q is not in the list", c.Name, m)
			}
			count[m]++
		}
		answers[i] = readerdiff.Read(c)
	}
	for _, m := range readerdiff.Mutations {
		if count[m] == 0 {
			t.Errorf("no case has the mutation %q", m)
		}
	}
	n := readerdiff.Count(cases, answers)
	for _, r := range readerdiff.Readers {
		if ar := n.ByReader[r]; ar[0] < 20 || ar[1] < 20 {
			t.Errorf("reader %s: %d accepted and %d rejected, want at least 20 of each", r, ar[0], ar[1])
		}
	}
	t.Logf("seed 20261207: %s", n)
}

// TestSentOn: every envelope the Go readers accept, of the seeded cases and
// of issue 28's crafted ones, encodes again (AppendJSON) as valid UTF-8,
// WriteHTTP sends exactly that encoding, AIP193 encodes it, and it comes
// back whole through the gRPC surface (grpcstatus.Status, proto bytes,
// grpcstatus.FromStatus): a decoded envelope can always be passed on.
func TestSentOn(t *testing.T) {
	cases, err := readerdiff.Generate(readerdiff.Config{Seed: 20261207, N: 2000, Vectors: vectors(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range append(cases, readerdiff.Crafted()...) {
		a := readerdiff.Read(c)
		if a.EncodeError != "" || a.WriteError != "" {
			t.Errorf("%s: accepted, but %s%s\ninput: %.300q", c.Name, a.EncodeError, a.WriteError, c.Input)
		}
		if a.IllFormed {
			t.Errorf("%s: accepted, but AppendJSON writes ill-formed UTF-8\ninput: %.300q", c.Name, c.Input)
		}
		if a.GRPCError != "" {
			t.Errorf("%s: accepted, but through the gRPC surface: %s\ninput: %.300q", c.Name, a.GRPCError, c.Input)
		}
	}
}
