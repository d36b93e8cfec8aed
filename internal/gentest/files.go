package gentest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// WriteFile writes data at the slash-separated path p below root, creating
// the directories on the way, or fails the test.
func WriteFile(t testing.TB, root, p string, data []byte) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteTree writes files (slash-separated paths to their text) below root.
func WriteTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, s := range files {
		WriteFile(t, root, p, []byte(s))
	}
}

// GoTool returns the go command for a test that builds with it, and skips
// the test under -short (building takes seconds) or where there is none.
func GoTool(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds with the go tool")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found")
	}
	return goTool
}

// Glob returns the files the patterns match, pattern by pattern, or fails
// the test on a malformed pattern.
func Glob(t testing.TB, patterns ...string) []string {
	t.Helper()
	var out []string
	for _, pattern := range patterns {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	return out
}

// Seed adds every file the patterns match to a fuzz test's seed corpus.
func Seed(f *testing.F, patterns ...string) {
	f.Helper()
	for _, p := range Glob(f, patterns...) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}
