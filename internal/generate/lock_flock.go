//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package generate

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// The kernel releases a flock when its holder dies, however it dies, so a
// crash never leaves the tree locked.
const staleHint = ""

// tryLock uses flock(2) on the lock file. The holder removes the file when
// it is done, so a waiter may lock a file that is no longer there: after
// locking, it checks that the path still names the file it locked, and
// starts over otherwise. That keeps the tree free of a lock file between
// runs without ever letting two runs hold the lock at once.
func tryLock(path string) (func() error, error) {
	for {
		// Never through a link: the lock file is truncated and written.
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link, where errgen keeps its lock file; remove it", path)
		}
		if err != nil {
			return nil, err
		}
		err = flock(f)
		if err == nil {
			if same(f, path) {
				f.Truncate(0)
				f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
				return func() error {
					err := os.Remove(path)
					if cerr := f.Close(); err == nil {
						err = cerr
					}
					return err
				}, nil
			}
			f.Close()
			continue
		}
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errHeld
		}
		return nil, &os.PathError{Op: "lock", Path: path, Err: err}
	}
}

func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			return err
		}
	}
}

// same reports whether path still names the file f.
func same(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}
