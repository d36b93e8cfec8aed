package generate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/errgen/errgen/internal/marker"
)

// LockFile is the lock errgen holds in the output root while it reads and
// writes the tree, so that runs on one tree (two editors' go:generate, a
// watcher and make) take turns. It exists only while a run holds it.
const LockFile = marker.LockFile

// DefaultLockTimeout is how long a run waits for another to finish.
const DefaultLockTimeout = time.Minute

// LockTimeoutError says that another run held the lock for the whole wait.
type LockTimeoutError struct {
	Path   string
	Holder string // what the holder wrote into the lock: its process id
	Waited time.Duration
}

func (e *LockTimeoutError) Error() string {
	holder := ""
	if e.Holder != "" {
		holder = " (process " + e.Holder + ")"
	}
	return fmt.Sprintf("another errgen run%s held %s for %s; try again once it has finished, or wait longer with -lock-timeout%s",
		holder, e.Path, e.Waited, staleHint)
}

// Lock takes the lock of the output root, waiting up to timeout while
// another run holds it; waiting, when not nil, is called once if it has to
// wait. The returned function releases the lock and removes the lock file.
func Lock(root string, timeout time.Duration, waiting func(lockPath, holder string)) (unlock func() error, err error) {
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	path := filepath.Join(root, LockFile)
	start := time.Now()
	told := false
	for attempt := 0; ; attempt++ {
		unlock, err := tryLock(path)
		if !errors.Is(err, errHeld) {
			return unlock, err
		}
		holder := ""
		if data, err := os.ReadFile(path); err == nil {
			holder = strings.TrimSpace(string(data))
		}
		if waited := time.Since(start); waited >= timeout {
			return nil, &LockTimeoutError{Path: path, Holder: holder, Waited: waited.Round(time.Second)}
		}
		if !told && waiting != nil {
			waiting(path, holder)
			told = true
		}
		time.Sleep(backoff(attempt))
	}
}

// errHeld is tryLock's answer when another run holds the lock: Lock waits
// and tries again. tryLock, one per platform, takes the lock at path once
// or says why not, and on success writes the process id into the lock file
// so that a waiting user learns which run holds it.
var errHeld = errors.New("lock held by another run")

// backoff is the pause between attempts: short at first, since a run that
// found the tree up to date holds the lock for milliseconds.
func backoff(attempt int) time.Duration {
	return min(time.Millisecond<<min(attempt, 7), 100*time.Millisecond)
}
