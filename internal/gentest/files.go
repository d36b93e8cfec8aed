package gentest

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"
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

// ScratchDir writes files (slash-separated paths to their contents) into a
// directory named after name and a hash of every path and content, under
// the user's cache directory (errgen-go-scratch), and returns it; a
// directory of that name already there is the same files and is used as it
// is. A test that builds generated Go code writes it here rather than into
// t.TempDir: the go tool's build cache keys a compile by the package's
// directory as well as its files (without -trimpath), so in a directory new
// each run the same code compiles and vets anew every time, while here a
// run whose generated code has not changed reuses them, as it does for
// every package of the repository. The go commands themselves still run
// (a test binary or program is still linked and run). The directory is
// written under a temporary name and renamed into place, so that runs side
// by side never see half of it; directories of name unused for a day are
// removed.
func ScratchDir(t testing.TB, name string, files map[string][]byte) string {
	t.Helper()
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	base = filepath.Join(base, "errgen-go-scratch")
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		fmt.Fprintf(h, "%d %s %d\n", len(p), p, len(files[p]))
		h.Write(files[p])
	}
	dir := filepath.Join(base, fmt.Sprintf("%s-%x", name, h.Sum(nil)[:12]))
	now := time.Now()
	if _, err := os.Stat(dir); err != nil {
		tmp, err := os.MkdirTemp(base, name+".tmp-")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			WriteFile(t, tmp, p, files[p])
		}
		if err := os.Rename(tmp, dir); err != nil {
			// Another run has put the same files there first.
			os.RemoveAll(tmp)
			if _, serr := os.Stat(dir); serr != nil {
				t.Fatal(err)
			}
		}
	}
	// The directory's time says when it was last used.
	os.Chtimes(dir, now, now)
	old, _ := filepath.Glob(filepath.Join(base, name+"[-.]*"))
	for _, o := range old {
		if fi, err := os.Stat(o); err == nil && o != dir && now.Sub(fi.ModTime()) > 24*time.Hour {
			os.RemoveAll(o)
		}
	}
	return dir
}
