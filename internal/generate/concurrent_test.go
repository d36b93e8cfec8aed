package generate

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
)

// twoOutputs generates the reference contract and a variant of it whose
// first guidance differs, so that runs of the two rewrite files the other
// wrote.
func twoOutputs(t *testing.T) [2]*Output {
	t.Helper()
	data, err := os.ReadFile(reference)
	if err != nil {
		t.Fatal(err)
	}
	variant := bytes.Replace(data, []byte("guidance: Pick one of the actions"), []byte("guidance: Choose one of the actions"), 1)
	if bytes.Equal(variant, data) {
		t.Fatal("the variant is the reference contract")
	}
	var outs [2]*Output
	for i, d := range [][]byte{data, variant} {
		c, err := contract.Load(reference, d)
		if err != nil {
			t.Fatal(err)
		}
		if outs[i], err = Generate(c, targets.Defaults(c.Name)); err != nil {
			t.Fatal(err)
		}
	}
	return outs
}

// leftovers lists what no finished run may leave in the tree: temporary
// files, backups, journals and the lock.
func leftovers(t *testing.T, root string) []string {
	t.Helper()
	var found []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name := d.Name(); isRunFile(name) || journalName.MatchString(name) || name == LockFile || legacyTemp.MatchString(name) {
			found = append(found, p)
		}
		return nil
	})
	return found
}

// TestParallelWrites (issue 15, item 6): four runs at a time on one tree,
// fifty rounds, two of them writing one contract and two another, while
// the tree is damaged between rounds (a file missing, one edited, a stale
// one added). Every run succeeds; afterwards the tree is entirely one of
// the two outputs, with nothing left over.
func TestParallelWrites(t *testing.T) {
	outs := twoOutputs(t)
	root := t.TempDir()
	if _, err := Write(root, outs[0], Options{}); err != nil {
		t.Fatal(err)
	}
	paths := outs[0].Paths()
	for round := range 50 {
		os.Remove(filepath.Join(root, filepath.FromSlash(paths[round%len(paths)])))
		edited := filepath.Join(root, filepath.FromSlash(paths[(round*7+3)%len(paths)]))
		if data, err := os.ReadFile(edited); err == nil {
			os.WriteFile(edited, append(data, "// edited\n"...), 0o644)
		}
		os.WriteFile(filepath.Join(root, "gen", "go", "agenterror", fmt.Sprintf("stale_%d.go", round)), []byte("// "+marker.Text+"\n\npackage agenterror\n"), 0o644)

		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// A faultFS that never fails: the real filesystem without the
				// syncs, which guard against power loss, not against other runs.
				_, errs[i] = Write(root, outs[i%2], Options{fs: &faultFS{}})
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("round %d, run %d: %v", round, i, err)
			}
		}
		var stale [2]string
		for i, out := range outs {
			changes, err := Plan(root, out)
			if err != nil {
				t.Fatal(err)
			}
			stale[i] = Summary(changes)
		}
		if stale[0] != "up to date" && stale[1] != "up to date" {
			t.Fatalf("round %d: the tree is neither output: %s against the first, %s against the second", round, stale[0], stale[1])
		}
		if left := leftovers(t, root); len(left) > 0 {
			t.Fatalf("round %d: left over: %s", round, strings.Join(left, ", "))
		}
	}
}

// TestLockWaitsAndTimesOut: a second Write waits while the lock is held and
// gives up after its timeout with a message naming the lock and its holder.
func TestLockWaitsAndTimesOut(t *testing.T) {
	root := t.TempDir()
	unlock, err := Lock(root, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var told string
	_, err = Write(root, &Output{}, Options{LockTimeout: 50 * time.Millisecond, Waiting: func(path, holder string) { told = path + " " + holder }})
	lockPath := filepath.Join(root, LockFile)
	if want := fmt.Sprintf("%s %d", lockPath, os.Getpid()); told != want {
		t.Errorf("Waiting was told %q, want %q", told, want)
	}
	if err == nil || !strings.Contains(err.Error(), lockPath) || !strings.Contains(err.Error(), "-lock-timeout") {
		t.Errorf("err = %v", err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lockPath); !os.IsNotExist(err) {
		t.Errorf("the lock file stays after unlock: %v", err)
	}
	if _, err := Write(root, &Output{}, Options{LockTimeout: 50 * time.Millisecond}); err != nil {
		t.Errorf("after unlock: %v", err)
	}
}
