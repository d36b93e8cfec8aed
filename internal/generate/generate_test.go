package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
)

const reference = "../../contract/kinds.yaml"

func loadReference(tb testing.TB) *contract.Contract {
	tb.Helper()
	c, err := contract.LoadFile(reference)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// planOps plans out against root and returns the changes, and each as
// "<op> <path>".
func planOps(t *testing.T, root string, out *Output) ([]Change, []string) {
	t.Helper()
	changes, err := Plan(root, out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, string(c.Op)+" "+c.Path)
	}
	return changes, got
}

// testOptions generate fixed's emitter into gen/test.
var testOptions = targets.Options{Dirs: map[string]string{"test": "gen/test"}}

func fixed(files map[string][]byte) Emitter {
	return Emitter{
		Name:     "test",
		Key:      "test",
		Generate: func(*contract.Contract, targets.Options) (map[string][]byte, error) { return files, nil },
	}
}

func TestEmitterRules(t *testing.T) {
	c := loadReference(t)
	ok := []byte("// " + marker.Text + "\nx\n")
	tests := []struct {
		name  string
		files map[string][]byte
		want  string
	}{
		{"outside its directory", map[string][]byte{"gen/other/a.go": ok}, "outside its directory"},
		{"escaping with ..", map[string][]byte{"gen/test/../../a.go": ok}, "outside its directory"},
		{"no header", map[string][]byte{"gen/test/a.go": []byte("x\n")}, "lacks the"},
		{"no final newline", map[string][]byte{"gen/test/a.go": []byte("// " + marker.Text)}, "exactly one newline"},
		{"two final newlines", map[string][]byte{"gen/test/a.go": append(ok, '\n')}, "exactly one newline"},
	}
	for _, tt := range tests {
		_, err := run(c, testOptions, []Emitter{fixed(tt.files)})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := run(c, testOptions, []Emitter{fixed(map[string][]byte{"gen/test/a.go": ok}), fixed(map[string][]byte{"gen/test/a.go": ok})}); err == nil || !strings.Contains(err.Error(), "produced twice") {
		t.Errorf("duplicate path: err = %v", err)
	}
	out, err := run(c, testOptions, []Emitter{fixed(map[string][]byte{"gen/test/b.go": ok, "gen/test/a.go": ok})})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(out.Paths(), ","); got != "gen/test/a.go,gen/test/b.go" {
		t.Errorf("Paths() = %s", got)
	}
}

func TestPlanAndApply(t *testing.T) {
	root := t.TempDir()
	header := "// " + marker.Text + "\n"
	out := &Output{Files: map[string][]byte{
		"gen/test/new.go":  []byte(header + "new\n"),
		"gen/test/same.go": []byte(header + "same\n"),
		"gen/test/edit.go": []byte(header + "wanted\n"),
	}, Dirs: []string{"gen/test"}}
	write := func(p, s string) {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(s), 0o644)
	}
	write("gen/test/same.go", header+"same\n")
	write("gen/test/edit.go", header+"old\n")
	write("gen/test/sub/gone.go", header+"stale\n")
	write("gen/test/mine.go", "hand-written\n")
	write("elsewhere/gen.go", header+"not in an emitter's directory\n")

	changes, got := planOps(t, root, out)
	want := "update gen/test/edit.go,create gen/test/new.go,delete gen/test/sub/gone.go"
	if strings.Join(got, ",") != want {
		t.Fatalf("Plan = %v, want %s", got, want)
	}
	if Summary(changes) != "1 created, 1 updated, 1 deleted" {
		t.Errorf("Summary = %q", Summary(changes))
	}
	if err := Apply(root, changes); err != nil {
		t.Fatal(err)
	}
	if again, _ := Plan(root, out); len(again) != 0 {
		t.Errorf("after Apply, Plan = %v", again)
	}
	for p, want := range map[string]string{"gen/test/mine.go": "hand-written\n", "elsewhere/gen.go": header + "not in an emitter's directory\n", "gen/test/edit.go": header + "wanted\n"} {
		if b, _ := os.ReadFile(filepath.Join(root, p)); string(b) != want {
			t.Errorf("%s = %q, want %q", p, b, want)
		}
	}
}

// A failed write must leave the tree as it was. A plain file where a
// directory must be created makes the second write fail after the first
// one's temporary file was written (directory permissions would not do: CI
// runs as root, which ignores them).
func TestApplyIsAllOrNothing(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644)
	os.WriteFile(filepath.Join(root, "blocker"), []byte("a file"), 0o644)
	err := Apply(root, []Change{
		{Path: "a.txt", Op: Update, New: []byte("new\n")},
		{Path: "blocker/b.txt", Op: Create, New: []byte("b\n")},
	})
	if err == nil {
		t.Fatal("Apply succeeded writing under a file")
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "old\n" {
		t.Errorf("a.txt = %q after a failed Apply", b)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestReferenceOutputsAreGenerated(t *testing.T) {
	c := loadReference(t)
	out, err := Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Files) == 0 {
		t.Fatal("no files")
	}
	for p, data := range out.Files {
		if !IsGenerated(p, data) {
			t.Errorf("%s lacks the header", p)
		}
	}
}

// BenchmarkGenerate is the whole main job on the reference contract: load,
// validate and run every emitter.
func BenchmarkGenerate(b *testing.B) {
	data, err := os.ReadFile(reference)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := contract.Load(reference, data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Generate(c, targets.Defaults(c.Name)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck adds the comparison with the committed tree.
func BenchmarkCheck(b *testing.B) {
	c := loadReference(b)
	b.ReportAllocs()
	for b.Loop() {
		out, err := Generate(c, targets.Defaults(c.Name))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Plan("../..", out); err != nil {
			b.Fatal(err)
		}
	}
}
