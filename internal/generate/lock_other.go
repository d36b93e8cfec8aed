//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package generate

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"
)

// Without flock, the lock is the lock file's existence, which a crashed run
// leaves behind.
const staleHint = "; if no errgen is running, the lock is left over from a crash: remove it"

// lock creates the lock file exclusively and removes it on unlock.
func lock(path string, timeout time.Duration, waiting func(lockPath, holder string)) (func() error, error) {
	start := time.Now()
	told := false
	for attempt := 0; ; attempt++ {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
			return func() error {
				err := f.Close()
				if rerr := os.Remove(path); err == nil {
					err = rerr
				}
				return err
			}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
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
