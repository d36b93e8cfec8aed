package generate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/errgen/errgen/internal/marker"
)

// Op is what reconciling one file with the disk takes.
type Op string

const (
	Create Op = "create" // generated, missing on disk
	Update Op = "update" // generated, different on disk
	Delete Op = "delete" // errgen's by its header line, no longer generated
)

// Change is one file that differs between the output and the disk.
type Change struct {
	Path string // slash-separated, relative to the root
	Op   Op
	Old  []byte // current content; nil for Create
	New  []byte // wanted content; nil for Delete
	// Foreign marks an Update of a file that is not errgen's: its header
	// line is not errgen's header (see IsGenerated), or it is not a regular
	// file; or one that is errgen's but names another source (Owner). Write
	// refuses such changes unless told to take the files over.
	Foreign bool
	// Owner is the source another run's file at this path names (relative
	// to the root), when it is not this run's (see source.go).
	Owner string
}

// legacyTemp is the temporary name errgen used before runs had journals
// (".name.errgen-123456"); a crash then could leave such files behind, and
// they are removed like any generated file that is no longer produced.
var legacyTemp = marker.LegacyTemp

// Plan compares out with the tree under root. A file at a generated path
// that is not errgen's, or that names another source than out's, becomes a
// Foreign update; a file that is not at a generated path is removed only
// when it is errgen's by its header line and names out's source (or none), so
// hand-written files beside generated ones (tests, a CONTRIBUTING.md quoting
// the marker) are safe. The temporary files and backups of a run (see
// Apply) are never part of a plan, nor is what build tools write into an
// emitter's directory (its Scratch, see scratch.go). A directory that a
// symbolic link leads outside root fails the plan (a *LinkError, see
// links.go).
func Plan(root string, out *Output) ([]Change, error) {
	var changes []Change
	links, err := newDirChecker(root)
	if err != nil {
		return nil, err
	}
	owned := newOwners(root, out)
	for _, dir := range out.Dirs {
		if err := links.check(dir); err != nil {
			return nil, err
		}
	}
	for _, p := range out.Paths() {
		if err := links.check(path.Dir(p)); err != nil {
			return nil, err
		}
		full := filepath.Join(root, filepath.FromSlash(p))
		info, err := os.Lstat(full)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			changes = append(changes, Change{Path: p, Op: Create, New: out.Files[p]})
			continue
		case err != nil:
			return nil, err
		case info.IsDir():
			return nil, fmt.Errorf("%s is a directory, where errgen generates a file", p)
		}
		old, err := os.ReadFile(full)
		if err != nil && !(errors.Is(err, fs.ErrNotExist) && info.Mode()&fs.ModeSymlink != 0) {
			return nil, err
		}
		if !bytes.Equal(old, out.Files[p]) || !info.Mode().IsRegular() {
			foreign := !info.Mode().IsRegular() || !IsGenerated(p, old)
			owner := ""
			if !foreign {
				owner = owned.other(p, old, true)
			}
			changes = append(changes, Change{Path: p, Op: Update, Old: old, New: out.Files[p], Foreign: foreign || owner != "", Owner: owner})
		}
	}
	// The run's directories, and the ones its last run generated into that
	// it no longer does (manifest.go); a file in two of them (one inside
	// another) is considered once.
	walk, scratch := out.Dirs, out.Scratch
	if prev, prevScratch := previousDirs(root, out, owned); len(prev) > 0 {
		walk = append(slices.Clone(out.Dirs), prev...)
		scratch = maps.Clone(out.Scratch)
		if scratch == nil {
			scratch = map[string][]string{}
		}
		maps.Copy(scratch, prevScratch)
		for _, dir := range prev {
			// A directory that now leads outside the root is no longer
			// one to prune.
			if links.check(dir) != nil {
				walk = slices.DeleteFunc(walk, func(d string) bool { return d == dir })
			}
		}
	}
	pruned := map[string]bool{}
	for _, dir := range walk {
		base := filepath.Join(root, filepath.FromSlash(dir))
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == base {
					return filepath.SkipDir
				}
				return err
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			// Build tools' scratch is theirs (see scratch.go), and a
			// node_modules/ is not worth walking.
			if d.IsDir() {
				if isScratch(scratch, rel, true) && !out.holdsGenerated(rel) {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || isRunFile(d.Name()) || isScratch(scratch, rel, false) {
				return nil
			}
			if _, ok := out.Files[rel]; ok || pruned[rel] {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			owner := rel
			if m := legacyTemp.FindStringSubmatch(d.Name()); m != nil {
				owner = m[1]
			}
			// Only this run's files are pruned: another config's (or
			// contract's) nested in its directory are not (source.go).
			if IsGenerated(owner, data) && owned.other(rel, data, false) == "" {
				pruned[rel] = true
				changes = append(changes, Change{Path: rel, Op: Delete, Old: data})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if c := bareManifest(root, out, owned); c != nil {
		changes = append(changes, *c)
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return changes, nil
}

// Foreign returns the paths of the changes that replace a file that is not
// errgen's.
func Foreign(changes []Change) []string {
	var paths []string
	for _, c := range changes {
		if c.Foreign {
			paths = append(paths, c.Path)
		}
	}
	return paths
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
