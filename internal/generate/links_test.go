package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/marker"
)

// TestApplyRefusesALinkThatAppeared (issue 28, item 11): a symbolic link
// out of the tree that appears after the plan stops Apply before it writes
// or removes anything, there or outside; Plan refuses it too.
func TestApplyRefusesALinkThatAppeared(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	gentest.WriteTree(t, elsewhere, map[string]string{"x/stale.go": "// " + marker.Text + "\n"})
	out := &Output{Files: map[string][]byte{"gen/x/a.go": []byte("// " + marker.Text + "\n")}, Dirs: []string{"gen/x"}}
	changes, err := Plan(root, out)
	if err != nil || len(changes) != 1 {
		t.Fatalf("Plan = %v, %v", changes, err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(root, "gen")); err != nil {
		t.Fatal(err)
	}
	if err := Apply(root, changes); err == nil || !strings.Contains(err.Error(), "gen is a symbolic link to "+elsewhere) {
		t.Errorf("Apply = %v, want it refused for the link gen", err)
	}
	if _, err := Plan(root, out); err == nil || !strings.Contains(err.Error(), "gen/x leads outside") {
		t.Errorf("Plan = %v, want it refused", err)
	}
	entries, _ := os.ReadDir(filepath.Join(elsewhere, "x"))
	if len(entries) != 1 {
		t.Errorf("outside the tree: %v", entries)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 1 {
		t.Errorf("the root holds %v, want the link only", entries)
	}
}

// TestRecoverRefusesALink (issue 28, item 11): repairing an interrupted run
// removes and renames files too; a journal whose files lie behind a link out
// of the tree is not repaired through it.
func TestRecoverRefusesALink(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	gentest.WriteTree(t, elsewhere, map[string]string{"x/a.go": "// " + marker.Text + "\n"})
	gentest.WriteTree(t, root, map[string]string{".errgen-1a.journal": "errgen journal 1\nrun 1a\ncreate \"gen/x/a.go\"\nend\n"})
	if err := os.Symlink(elsewhere, filepath.Join(root, "gen")); err != nil {
		t.Fatal(err)
	}
	if _, err := Recover(root); err == nil || !strings.Contains(err.Error(), "gen is a symbolic link to "+elsewhere) {
		t.Errorf("Recover = %v, want it refused for the link gen", err)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "x/a.go")); err != nil {
		t.Errorf("the file outside the tree: %v", err)
	}
}
