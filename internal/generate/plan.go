package generate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Op is what reconciling one file with the disk takes.
type Op string

const (
	Create Op = "create" // generated, missing on disk
	Update Op = "update" // generated, different on disk
	Delete Op = "delete" // on disk with errgen's header, no longer generated
)

// Change is one file that differs between the output and the disk.
type Change struct {
	Path string // slash-separated, relative to the root
	Op   Op
	Old  []byte // current content; nil for Create
	New  []byte // wanted content; nil for Delete
}

// Plan compares out with the tree under root. Files without errgen's header
// are never touched, so hand-written files beside generated ones (tests, a
// README) are safe.
func Plan(root string, out *Output) ([]Change, error) {
	var changes []Change
	for _, p := range out.Paths() {
		old, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			changes = append(changes, Change{Path: p, Op: Create, New: out.Files[p]})
		case err != nil:
			return nil, err
		case !bytes.Equal(old, out.Files[p]):
			changes = append(changes, Change{Path: p, Op: Update, Old: old, New: out.Files[p]})
		}
	}
	for _, dir := range out.Dirs {
		base := filepath.Join(root, filepath.FromSlash(dir))
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == base {
					return filepath.SkipDir
				}
				return err
			}
			if !d.Type().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if _, ok := out.Files[rel]; ok {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if IsGenerated(data) {
				changes = append(changes, Change{Path: rel, Op: Delete, Old: data})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return changes, nil
}

// Apply carries out changes under root. Every new content is first written
// to a temporary file beside its target; only when all of them are written
// are they renamed into place, so a failure (a full disk, a read-only
// directory) leaves the tree as it was.
func Apply(root string, changes []Change) error {
	type pending struct{ tmp, dst string }
	var renames []pending
	cleanup := func() {
		for _, r := range renames {
			os.Remove(r.tmp)
		}
	}
	for _, c := range changes {
		if c.Op == Delete {
			continue
		}
		dst := filepath.Join(root, filepath.FromSlash(c.Path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			cleanup()
			return err
		}
		tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".errgen-*")
		if err != nil {
			cleanup()
			return err
		}
		renames = append(renames, pending{tmp.Name(), dst})
		_, werr := tmp.Write(c.New)
		cerr := tmp.Close()
		if werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Chmod(tmp.Name(), 0o644)
		}
		if werr != nil {
			cleanup()
			return fmt.Errorf("write %s: %w", c.Path, werr)
		}
	}
	for _, r := range renames {
		if err := os.Rename(r.tmp, r.dst); err != nil {
			cleanup()
			return err
		}
	}
	for _, c := range changes {
		if c.Op == Delete {
			if err := os.Remove(filepath.Join(root, filepath.FromSlash(c.Path))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// Summary describes changes in one line, e.g. "2 created, 1 updated".
func Summary(changes []Change) string {
	counts := map[Op]int{}
	for _, c := range changes {
		counts[c.Op]++
	}
	var parts []string
	for _, op := range []Op{Create, Update, Delete} {
		if n := counts[op]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %sd", n, op))
		}
	}
	if len(parts) == 0 {
		return "up to date"
	}
	return strings.Join(parts, ", ")
}
