//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package generate

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
)

// Without flock, the lock is the lock file's existence, which a crashed run
// leaves behind.
const staleHint = "; if no errgen is running, the lock is left over from a crash: remove it"

// tryLock creates the lock file exclusively and removes it on unlock.
func tryLock(path string) (func() error, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, errHeld
		}
		return nil, err
	}
	f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	return func() error {
		err := f.Close()
		if rerr := os.Remove(path); err == nil {
			err = rerr
		}
		return err
	}, nil
}
