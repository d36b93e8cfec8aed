package sanitizediff_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/tests/go/sanitizediff"
)

func config(seed uint64, n int) sanitizediff.Config {
	return sanitizediff.Config{Seed: seed, N: n, MaxLength: agenterror.SanitizeMaxLength,
		Marker: agenterror.SanitizeTruncationMarker, SanitizeMax: agenterror.SanitizeMax}
}

func write(t *testing.T, cfg sanitizediff.Config) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := sanitizediff.Write(&b, cfg, sanitizediff.Generate(cfg)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDeterministic: a seed always gives the same file, another seed
// another one.
func TestDeterministic(t *testing.T) {
	a, b := write(t, config(7, 500)), write(t, config(7, 500))
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with seed 7 wrote different files")
	}
	if bytes.Equal(a, write(t, config(8, 500))) {
		t.Fatal("seeds 7 and 8 wrote the same file")
	}
}

// TestCoverage: the default run holds every ingredient, some cases with
// their own max_length (about a tenth), and some beyond the window.
func TestCoverage(t *testing.T) {
	cases := sanitizediff.Generate(config(20261130, 3000))
	count := map[string]int{}
	withMax := 0
	for _, c := range cases {
		for _, in := range c.Ingredients {
			if !slices.Contains(sanitizediff.Ingredients, in) {
				t.Errorf("case %q: ingredient %q is not in the list", c.Name, in)
			}
			count[in]++
		}
		if c.MaxLength != 0 {
			withMax++
			if c.MaxLength < 64 || c.MaxLength > 300 {
				t.Errorf("case %q: max_length %d outside 64..300", c.Name, c.MaxLength)
			}
		}
	}
	for _, in := range sanitizediff.Ingredients {
		if count[in] == 0 {
			t.Errorf("no case has the ingredient %q", in)
		}
	}
	if withMax < len(cases)/20 || withMax > len(cases)/5 {
		t.Errorf("%d of %d cases carry max_length, want about a tenth", withMax, len(cases))
	}
}

// TestFileRoundTrip writes a run, reads it back as the TypeScript and
// Python tests' Go counterpart does (gentest's reader), and checks that
// Go reads each input as the generator meant, that the outputs are Go's
// and that each output is a fixpoint within its maximum: a regression of
// the Go sanitizer on these inputs fails here.
func TestFileRoundTrip(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	cfg := config(20261130, n)
	cases := sanitizediff.Generate(cfg)
	var b bytes.Buffer
	if err := sanitizediff.Write(&b, cfg, cases); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "diff.vectors.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	f := gentest.ReadSanitizerVectors(t, path)
	if len(f.Cases) != len(cases) {
		t.Fatalf("read %d cases, wrote %d", len(f.Cases), len(cases))
	}
	surrogates := 0
	for i, got := range f.Cases {
		want := cases[i]
		if got.Name != want.Name || got.Input.Value != want.Input || got.Output.Value != want.Output || got.MaxLength != want.MaxLength {
			t.Fatalf("case %d reads back as %q %+q -> %+q (max %d), generated %q %+q -> %+q (max %d)", i,
				got.Name, got.Input.Value, got.Output.Value, got.MaxLength, want.Name, want.Input, want.Output, want.MaxLength)
		}
		if slices.Contains(want.Ingredients, "surrogate") {
			surrogates++
		}
	}
	if surrogates == 0 || !strings.Contains(b.String(), `\ud`) {
		t.Error("no lone surrogate escape in the file")
	}
	gentest.CheckSanitizerVectors(t, path, agenterror.SanitizeMaxLength, agenterror.SanitizeTruncationMarker, agenterror.SanitizeMax)
	for _, c := range cases {
		max := cfg.MaxLength
		if c.MaxLength != 0 {
			max = c.MaxLength
		}
		if !utf8.ValidString(c.Output) || utf8.RuneCountInString(c.Output) > max {
			t.Errorf("case %q: output %+q is invalid or longer than %d", c.Name, c.Output, max)
		}
	}
}

// TestCrafted: the crafted cases are the same in every run, two per
// pattern, at their size; they read back as written (ill-formed patterns as
// {"hex"}), and every output is a fixpoint within its maximum.
func TestCrafted(t *testing.T) {
	// After some random cases, as make sanitize-diff writes them (a vector
	// file holds 150 cases at least).
	cfg := config(1, 150)
	crafted := sanitizediff.Crafted(cfg)
	if len(crafted) != 2*len(sanitizediff.CraftedPatterns) {
		t.Fatalf("%d crafted cases for %d patterns", len(crafted), len(sanitizediff.CraftedPatterns))
	}
	if !slices.EqualFunc(crafted, sanitizediff.Crafted(cfg), func(a, b sanitizediff.Case) bool {
		return a.Name == b.Name && a.Input == b.Input && a.Output == b.Output && a.MaxLength == b.MaxLength
	}) {
		t.Fatal("two runs made different crafted cases")
	}
	cases := append(sanitizediff.Generate(cfg), crafted...)
	var b bytes.Buffer
	if err := sanitizediff.Write(&b, cfg, cases); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "crafted.vectors.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	f := gentest.ReadSanitizerVectors(t, path)
	for i, got := range f.Cases {
		want := cases[i]
		if got.Input.Value != want.Input || got.Output.Value != want.Output || got.MaxLength != want.MaxLength {
			t.Fatalf("case %q does not read back as written", want.Name)
		}
		if n := len(want.Input); i >= cfg.N && (n < 2<<10 || n > 4<<10) {
			t.Errorf("case %q: %d bytes, want 2 to 4 KiB", want.Name, n)
		}
	}
	if !strings.Contains(b.String(), `{"hex": "ff`) {
		t.Error("no ill-formed crafted input written as hex")
	}
	gentest.CheckSanitizerVectors(t, path, agenterror.SanitizeMaxLength, agenterror.SanitizeTruncationMarker, agenterror.SanitizeMax)
}

// TestCraftedInRust: the Rust benchmark crate times the same crafted
// patterns (bench/rust/benches/bench.rs, CRAFTED), in the same order.
func TestCraftedInRust(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "bench", "rust", "benches", "bench.rs"))
	if err != nil {
		t.Fatal(err)
	}
	rest := string(src)
	for _, c := range sanitizediff.CraftedPatterns {
		var lit strings.Builder
		for i := 0; i < len(c.Pattern); i++ {
			switch b := c.Pattern[i]; {
			case b == '\\' || b == '"':
				lit.WriteString(`\` + string(b))
			case b >= 0x80:
				fmt.Fprintf(&lit, `\x%02x`, b)
			default:
				lit.WriteByte(b)
			}
		}
		entry := fmt.Sprintf("(%q, b\"%s\"),", c.Name, lit.String())
		i := strings.Index(rest, entry)
		if i < 0 {
			t.Fatalf("bench/rust/benches/bench.rs has no %s after the patterns before it", entry)
		}
		rest = rest[i+len(entry):]
	}
}

// TestEdge: the cases at the edges are the same in every run, read back as
// written, and every output is a fixpoint within its maximum.
func TestEdge(t *testing.T) {
	cfg := config(1, 150)
	edge := sanitizediff.Edge(cfg)
	if len(edge) != sanitizediff.EdgeCount {
		t.Fatalf("%d edge cases, want %d", len(edge), sanitizediff.EdgeCount)
	}
	if !slices.EqualFunc(edge, sanitizediff.Edge(cfg), func(a, b sanitizediff.Case) bool {
		return a.Name == b.Name && a.Input == b.Input && a.Output == b.Output && a.MaxLength == b.MaxLength
	}) {
		t.Fatal("two runs made different edge cases")
	}
	cut := 0
	for _, c := range edge {
		m := c.MaxLength
		if m == 0 {
			m = cfg.MaxLength
		}
		if utf8.RuneCountInString(c.Input) > 4*m {
			cut++
		}
	}
	if cut < len(edge)/3 {
		t.Errorf("%d of %d edge cases run past the window, want a third or more", cut, len(edge))
	}
	var b bytes.Buffer
	if err := sanitizediff.Write(&b, cfg, edge); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "edge.vectors.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	f := gentest.ReadSanitizerVectors(t, path)
	for i, got := range f.Cases {
		if want := edge[i]; got.Input.Value != want.Input || got.Output.Value != want.Output || got.MaxLength != want.MaxLength {
			t.Fatalf("case %q does not read back as written", want.Name)
		}
	}
	gentest.CheckSanitizerVectors(t, path, agenterror.SanitizeMaxLength, agenterror.SanitizeTruncationMarker, agenterror.SanitizeMax)
}
