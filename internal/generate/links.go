package generate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// errgen writes only inside the output root (the config's directory, or
// -out). The config refuses "../" and absolute paths, but a symbolic link
// on the way (gen -> /elsewhere, or an output directory that is a link)
// would carry the writes, and the pruning, outside. So every directory a
// run writes to, removes from or walks is resolved with the links followed,
// as far as it exists, and must stay inside the root resolved the same way:
// Plan checks the output directories and every generated file's directory,
// and Apply checks again right before it changes anything, in case a link
// appeared since. A link that stays inside the root is followed as the
// operating system would.

// LinkError is a directory that a symbolic link leads outside the root.
type LinkError struct {
	Dir    string // the directory errgen would write to, relative to the root
	Link   string // the link on the way, relative to the root
	Target string // what the link points to, as written
	Leads  string // where it leads, resolved
	Root   string // the root, resolved
}

func (e *LinkError) Error() string {
	leads := ""
	if e.Leads != e.Target {
		leads = " (" + e.Leads + ")"
	}
	return fmt.Sprintf("%s leads outside %s: %s is a symbolic link to %s%s; errgen writes only inside the output root (the config's directory, or -out), so nothing was written or removed: make %s a directory, or point it inside the root",
		e.Dir, e.Root, e.Link, e.Target, leads, e.Link)
}

// CheckDir returns a *LinkError when dir (slash-separated, relative to
// root) leads outside root through a symbolic link, and nil when it stays
// inside or does not exist yet (errgen then creates it as a directory).
func CheckDir(root, dir string) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	realRoot, err = filepath.Abs(realRoot)
	if err != nil {
		return err
	}
	return checkDir(realRoot, root, dir)
}

// checkDir is CheckDir with the root resolved.
func checkDir(realRoot, root, dir string) error {
	cur := realRoot
	walked := ""
	for _, part := range strings.Split(dir, "/") {
		if part == "." || part == "" {
			continue
		}
		walked = path.Join(walked, part)
		next := filepath.Join(cur, part)
		info, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			return nil // created as directories by the run
		case err != nil:
			return err
		case info.Mode()&fs.ModeSymlink == 0:
			cur = next
			continue
		}
		target, err := os.Readlink(next)
		if err != nil {
			return err
		}
		leads := resolveExisting(filepath.Join(cur, target))
		if filepath.IsAbs(target) {
			leads = resolveExisting(target)
		}
		if !within(realRoot, leads) {
			return &LinkError{Dir: dir, Link: walked, Target: target, Leads: leads, Root: rootName(root, realRoot)}
		}
		cur = leads
	}
	return nil
}

// resolveExisting resolves the links of p's longest existing prefix and
// appends the rest.
func resolveExisting(p string) string {
	p = filepath.Clean(p)
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// within reports whether p is root or below it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// rootName is how a message names the root: as given, and resolved when
// that differs.
func rootName(root, realRoot string) string {
	if abs, err := filepath.Abs(root); err == nil && abs == realRoot {
		return realRoot
	}
	return root + " (" + realRoot + ")"
}

// dirChecker checks directories under one root, each once.
type dirChecker struct {
	realRoot, root string
	seen           map[string]bool
}

func newDirChecker(root string) (*dirChecker, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err == nil {
		realRoot, err = filepath.Abs(realRoot)
	}
	if err != nil {
		return nil, err
	}
	return &dirChecker{realRoot: realRoot, root: root, seen: map[string]bool{}}, nil
}

func (d *dirChecker) check(dir string) error {
	if d.seen[dir] {
		return nil
	}
	if err := checkDir(d.realRoot, d.root, dir); err != nil {
		return err
	}
	d.seen[dir] = true
	return nil
}
