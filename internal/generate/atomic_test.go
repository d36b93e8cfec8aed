package generate

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/marker"
)

var errInjected = errors.New("injected failure")

// faultFS is the real filesystem with the n-th mutation (counting from 1)
// failing: only that one, or, with crash, that one and every one after it,
// which is what the disk looks like to the next run after a kill -9 there.
// n <= 0 never fails; count is the number of mutations attempted. Apply
// writes several files at once, so which write is the n-th can vary from
// run to run; the tests check what must hold whichever it is.
type faultFS struct {
	OS
	mu       sync.Mutex
	n, count int
	crash    bool
}

func (f *faultFS) fails() bool {
	fail, _ := f.fault()
	return fail
}

// fault counts a mutation and says whether it fails, and whether it is the
// first that does.
func (f *faultFS) fault() (fail, first bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.count++
	return f.n > 0 && (f.count == f.n || f.crash && f.count > f.n), f.count == f.n
}

func (f *faultFS) WriteFile(name string, data []byte) error {
	if fail, first := f.fault(); fail {
		if first {
			// The write that fails leaves a partial file, as a full disk does.
			if g, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
				g.Write(data[:len(data)/2])
				g.Close()
			}
		}
		return errInjected
	}
	return writeNoSync(name, data)
}

// writeNoSync is OS.WriteFile without the sync, which matters only when the
// power fails: the tests simulate a process dying, and syncing thousands of
// files would only make them slow.
func writeNoSync(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (f *faultFS) Mkdir(name string) error {
	if f.fails() {
		return errInjected
	}
	return f.OS.Mkdir(name)
}

func (f *faultFS) Rename(oldname, newname string) error {
	if f.fails() {
		return errInjected
	}
	return f.OS.Rename(oldname, newname)
}

func (f *faultFS) Remove(name string) error {
	if f.fails() {
		return errInjected
	}
	return f.OS.Remove(name)
}

func (f *faultFS) SyncDir(name string) error {
	if f.fails() {
		return errInjected
	}
	return nil
}

// tree is a directory's content: every file with its content, and every
// empty directory as "dir/".
type tree map[string]string

func readTree(t *testing.T, root string) tree {
	t.Helper()
	m := tree{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if entries, err := os.ReadDir(p); err == nil && len(entries) == 0 && rel != "." {
				m[rel+"/"] = ""
			}
			return nil
		}
		data, err := os.ReadFile(p)
		m[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func (a tree) String() string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}

// same reports whether a and b hold the same files, allowing in a the empty
// directories of old (tidying them away is not part of a run's promise).
func (a tree) same(b tree, old map[string]bool) bool {
	for k, v := range a {
		if w, ok := b[k]; ok && w == v {
			continue
		}
		if strings.HasSuffix(k, "/") && old[k] {
			continue
		}
		return false
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			return false
		}
	}
	return true
}

// dirs lists every directory under root, as "dir/".
func dirs(t *testing.T, root string) map[string]bool {
	m := map[string]bool{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			m[filepath.ToSlash(rel)+"/"] = true
		}
		return err
	})
	return m
}

const hdr = "// " + marker.Text + "\n"

// scenario is an old tree and the output that replaces it, with a change of
// every kind: an update, a taken-over hand-written file, a creation in an
// existing directory and one in directories that do not exist yet, and a
// deletion that empties a directory; an unchanged generated file and a
// hand-written one stay.
var scenario = struct {
	old map[string]string
	out *Output
}{
	old: map[string]string{
		"gen/test/same.go":     hdr + "same\n",
		"gen/test/edit.go":     hdr + "old\n",
		"gen/test/sub/gone.go": hdr + "stale\n",
		"gen/test/mine.go":     "hand-written\n",
		"docs/README.md":       "# Our docs, hand-written\n",
	},
	out: &Output{Files: map[string][]byte{
		"gen/test/same.go":       []byte(hdr + "same\n"),
		"gen/test/edit.go":       []byte(hdr + "new\n"),
		"gen/test/new.go":        []byte(hdr + "created\n"),
		"gen/test/deep/er/x.go":  []byte(hdr + "created deep\n"),
		"docs/README.md":         []byte("<!-- " + marker.Text + " -->\n# Generated docs\n"),
		"docs/reference/kind.md": []byte("<!-- " + marker.Text + " -->\n# A kind\n"),
	}, Dirs: []string{"docs", "gen/test"}},
}

func oldTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	gentest.WriteTree(t, root, scenario.old)
	return root
}

func planned(t *testing.T, root string) []Change {
	t.Helper()
	changes, err := Plan(root, scenario.out)
	if err != nil {
		t.Fatal(err)
	}
	return changes
}

// faultScenario is the old tree (its files and directories), the new tree
// a run makes of it, and how many operations that run takes.
func faultScenario(t *testing.T) (old tree, oldDirs map[string]bool, want tree, counter *faultFS) {
	t.Helper()
	oldRoot := oldTree(t)
	old, oldDirs = readTree(t, oldRoot), dirs(t, oldRoot)
	counter = &faultFS{}
	if err := apply(counter, oldRoot, planned(t, oldRoot), "t1"); err != nil {
		t.Fatal(err)
	}
	return old, oldDirs, readTree(t, oldRoot), counter
}

// TestApplyUnderEveryFault (issue 15, item 5): whichever write, rename,
// removal, directory creation or sync fails, the tree afterwards is the old
// one or (when the failure came after the commit) the new one; a failed run
// leaves no temporary file and no directory it created; what a failure
// after the commit leaves, the next run removes.
func TestApplyUnderEveryFault(t *testing.T) {
	old, oldDirs, want, counter := faultScenario(t)
	if want.same(old, nil) {
		t.Fatal("the scenario changes nothing")
	}
	if counter.count < 20 {
		t.Fatalf("only %d mutations; the scenario should take more", counter.count)
	}
	for n := 1; n <= counter.count; n++ {
		root := oldTree(t)
		err := apply(&faultFS{n: n}, root, planned(t, root), "t1")
		got := readTree(t, root)
		switch {
		case err == nil:
			if !got.same(want, oldDirs) {
				t.Errorf("fault at mutation %d: Apply succeeded, tree = %v, want %v", n, got, want)
			}
		case got.same(old, oldDirs):
			if !strings.Contains(err.Error(), "nothing was changed") {
				t.Errorf("fault at mutation %d: the tree is the old one, but the error says %q", n, err)
			}
		case strings.Contains(err.Error(), "the outputs are generated"):
			// A failure while cleaning up after the commit: the files are
			// the new ones, beside leftovers the next run removes.
			if _, err := recoverRuns(OS{}, root); err != nil {
				t.Fatalf("fault at mutation %d: recovery: %v", n, err)
			}
			if got := readTree(t, root); !got.same(want, oldDirs) {
				t.Errorf("fault at mutation %d (%v): after recovery, tree = %v, want %v", n, err, got, want)
			}
		default:
			t.Errorf("fault at mutation %d (%v): tree = %v, neither the old %v nor the new one", n, err, got, old)
		}
		// Whatever happened, the next run finishes the job.
		if _, err := Write(root, scenario.out, Options{TakeOver: true}); err != nil {
			t.Fatalf("fault at mutation %d: the next Write: %v", n, err)
		}
		if got := readTree(t, root); !got.same(want, oldDirs) {
			t.Errorf("fault at mutation %d: after the next Write, tree = %v, want %v", n, got, want)
		}
	}
}

// TestCrashAtEveryPoint (issue 15, item 5): the process dies at any point of
// a run (every mutation from there on is lost), and the repair the next run
// starts with — itself killed at any point and repaired again — yields the
// whole old tree (or the new one once the run had committed), without a
// temporary file, backup, journal or created directory left over.
func TestCrashAtEveryPoint(t *testing.T) {
	old, oldDirs, want, counter := faultScenario(t)
	for n := 1; n <= counter.count; n++ {
		crashed := func() string {
			root := oldTree(t)
			apply(&faultFS{n: n, crash: true}, root, planned(t, root), "t1")
			return root
		}
		// How many mutations the repair itself takes from this state.
		root := crashed()
		repair := &faultFS{}
		if _, err := recoverRuns(repair, root); err != nil {
			t.Fatalf("crash at mutation %d: recovery: %v", n, err)
		}
		got := readTree(t, root)
		if !got.same(old, oldDirs) && !got.same(want, oldDirs) {
			t.Errorf("crash at mutation %d: after recovery, tree = %v, neither the old nor the new one", n, got)
		}
		for m := 1; m <= repair.count; m++ {
			root := crashed()
			recoverRuns(&faultFS{n: m, crash: true}, root)
			if _, err := recoverRuns(OS{}, root); err != nil {
				t.Fatalf("crash at mutation %d, then in the repair at %d: recovery: %v", n, m, err)
			}
			if again := readTree(t, root); !again.same(got, oldDirs) {
				t.Errorf("crash at mutation %d, then in the repair at %d: tree = %v, want %v", n, m, again, got)
			}
		}
	}
}

// TestApplyFailureLeavesOldTree (issue 15, item 5) needs no fault injection:
// one target cannot be replaced (it is a directory), so the run fails. The
// file before it must not have been replaced, and the directories the run
// needed for a new file must not stay behind.
func TestApplyFailureLeavesOldTree(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("old\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "d"), 0o755)
	os.WriteFile(filepath.Join(root, "d", "x"), []byte("x\n"), 0o644)
	before := readTree(t, root)
	err := Apply(root, []Change{
		{Path: "a.txt", Op: Update, Old: []byte("old\n"), New: []byte("new\n")},
		{Path: "d", Op: Update, New: []byte("new\n")},
		{Path: "new/deep/n.txt", Op: Create, New: []byte("n\n")},
	})
	if err == nil {
		t.Fatal("Apply replaced a directory")
	}
	if got := readTree(t, root); !got.same(before, nil) {
		t.Errorf("after a failed Apply, tree = %v, want %v", got, before)
	}
}
