//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLockIsNotFollowed (issue 28, item 11): a symbolic link where errgen
// keeps its lock is refused, not followed: the lock file is truncated and
// written, so following it would overwrite whatever it points to.
func TestLockIsNotFollowed(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	target := filepath.Join(elsewhere, "precious")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(root, LockFile)); err != nil {
		t.Fatal(err)
	}
	unlock, err := Lock(root, 0, nil)
	if err == nil {
		unlock()
	}
	if err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("Lock = %v, want it refused", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "keep me\n" {
		t.Errorf("the link's target now holds %q", data)
	}
}
