package generate

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/errgen/errgen/internal/marker"
)

// FS is the filesystem Apply writes through: the os package in errgen, a
// fault-injecting wrapper in the tests, which fail each mutation in turn
// (and every one after it, as a crash would) and then check the tree.
// Names are paths in the host's syntax.
type FS interface {
	// WriteFile creates name, which must not exist, with data and mode 0644,
	// and flushes it to stable storage before it returns.
	WriteFile(name string, data []byte) error
	Mkdir(name string) error
	Rename(oldname, newname string) error
	Remove(name string) error
	// SyncDir flushes a directory's entries (the renames in it).
	SyncDir(name string) error

	Lstat(name string) (fs.FileInfo, error)
	ReadFile(name string) ([]byte, error)
	ReadDir(name string) ([]fs.DirEntry, error)
}

// OS is the FS of the operating system.
type OS struct{}

func (OS) WriteFile(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		// The mode does not depend on the umask, as with every errgen
		// before: generated files are readable by everyone who builds.
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (OS) Mkdir(name string) error                    { return os.Mkdir(name, 0o755) }
func (OS) Rename(oldname, newname string) error       { return os.Rename(oldname, newname) }
func (OS) Remove(name string) error                   { return os.Remove(name) }
func (OS) Lstat(name string) (fs.FileInfo, error)     { return os.Lstat(name) }
func (OS) ReadFile(name string) ([]byte, error)       { return os.ReadFile(name) }
func (OS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

func (OS) SyncDir(name string) error {
	if runtime.GOOS == "windows" {
		return nil // directories cannot be opened for syncing there; NTFS journals renames
	}
	d, err := os.Open(name)
	if err != nil {
		return err
	}
	err = d.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		err = nil // file systems that cannot sync a directory order its metadata themselves
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// A run's files carry its identity, so that they never collide with a file
// of the tree or of another run, and recovery finds exactly them:
//
//	dir/.name.errgen-<run>.tmp   the new content of dir/name, before its rename
//	dir/.name.errgen-<run>.bak   the old dir/name, until the run commits
//	.errgen-<run>.journal        in the output root: what the run does
//	.errgen-<run>.done           the journal once the run committed
var (
	runFileName = marker.RunFileName
	journalName = marker.JournalName
)

func isRunFile(name string) bool { return runFileName.MatchString(name) }

// newRunID is the process id and a random number, in base 36.
func newRunID() string {
	return strconv.FormatInt(int64(os.Getpid()), 36) + "z" + strconv.FormatUint(rand.Uint64()>>16, 36)
}

// journal is what a run is about to do, written to the output root before it
// changes anything. Recovery decides each file's state from the disk (which
// of the file, its temporary file and its backup exist), so one journal
// serves at every point of the run, and undoing is idempotent.
type journal struct {
	id      string
	dirs    []string // created by the run, parents first
	entries []entry
}

type entry struct {
	op   Op
	path string // slash-separated, relative to the root
}

const journalHead = "errgen journal 1"

func (j *journal) encode() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\nrun %s\n", journalHead, j.id)
	for _, d := range j.dirs {
		fmt.Fprintf(&b, "dir %s\n", strconv.Quote(d))
	}
	for _, e := range j.entries {
		fmt.Fprintf(&b, "%s %s\n", e.op, strconv.Quote(e.path))
	}
	// The last line tells a complete journal from one cut short by a crash
	// (which happened before the run changed anything).
	b.WriteString("end\n")
	return b.Bytes()
}

// parseJournal reads a journal; complete is false when it was cut short.
// Paths that could leave the root are rejected, whatever wrote them.
func parseJournal(id string, data []byte) (j *journal, complete bool, err error) {
	j = &journal{id: id}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		n++
		switch {
		case n == 1:
			if line != journalHead {
				return nil, false, fmt.Errorf("not an errgen journal")
			}
			continue
		case line == "end":
			return j, true, nil
		case strings.HasPrefix(line, "run "):
			continue
		}
		word, quoted, _ := strings.Cut(line, " ")
		p, err := strconv.Unquote(quoted)
		if err != nil || !fs.ValidPath(p) || p == "." {
			return j, false, nil // cut short in the middle of a line
		}
		switch Op(word) {
		case Create, Update, Delete:
			j.entries = append(j.entries, entry{Op(word), p})
		default:
			if word != "dir" {
				return nil, false, fmt.Errorf("line %d: unknown entry %q", n, word)
			}
			j.dirs = append(j.dirs, p)
		}
	}
	return j, false, sc.Err()
}

// runPaths are the host paths of one entry: the file, its temporary file
// and its backup.
func runPaths(root, id, p string) (file, tmp, bak string) {
	file = filepath.Join(root, filepath.FromSlash(p))
	dir, base := filepath.Split(file)
	prefix := filepath.Join(dir, "."+base+".errgen-"+id)
	return file, prefix + ".tmp", prefix + ".bak"
}

func exists(fsys FS, name string) bool {
	_, err := fsys.Lstat(name)
	return err == nil
}

// Apply carries out changes under root so that the tree is either entirely
// the old one or entirely the new one, whatever fails and wherever the
// process dies:
//
//  1. a journal listing every change and every directory to create is
//     written to the root and synced;
//  2. the directories are created, and every new content is written to a
//     temporary file beside its target and synced;
//  3. each replaced or deleted file is renamed to a backup, and each
//     temporary file onto its target; the directories are synced;
//  4. the journal is renamed to .done: the commit point;
//  5. the backups, then the .done file, are removed.
//
// A failure before the commit undoes the run (backups renamed back, new
// files, temporary files and created directories removed); if the undoing
// fails too, or the process dies, the journal stays, and the next Write
// undoes the run before doing anything else (Recover). A failure after the
// commit leaves the new tree and, at worst, backups the next Write removes.
//
// Apply does no locking and decides no ownership: Write does both.
func Apply(root string, changes []Change) error {
	return apply(OS{}, root, changes, newRunID())
}

func apply(fsys FS, root string, changes []Change, id string) error {
	if len(changes) == 0 {
		return nil
	}
	j := &journal{id: id}
	// A link that appeared since the plan must not carry a write or a
	// removal outside the root (links.go).
	links, err := newDirChecker(root)
	if err != nil {
		return err
	}
	for _, c := range changes {
		if err := links.check(path.Dir(c.Path)); err != nil {
			return err
		}
		file, _, _ := runPaths(root, id, c.Path)
		info, err := fsys.Lstat(file)
		switch {
		case c.Op == Create && err == nil:
			return fmt.Errorf("%s: created by someone else since it was planned", c.Path)
		case c.Op == Create && !errors.Is(err, fs.ErrNotExist):
			return err
		case c.Op != Create && err != nil:
			return err
		case c.Op != Create && info.IsDir():
			return fmt.Errorf("%s is a directory, where errgen generates a file", c.Path)
		}
		j.entries = append(j.entries, entry{c.Op, c.Path})
	}
	j.dirs = missingDirs(fsys, root, changes)

	journalPath := filepath.Join(root, ".errgen-"+id+".journal")
	donePath := filepath.Join(root, ".errgen-"+id+".done")
	fail := func(err error) error {
		if rerr := rollback(fsys, root, j, journalPath); rerr != nil {
			return fmt.Errorf("%w; undoing the run failed too (%v), so the outputs are mixed until the next errgen generate, which restores them first", err, rerr)
		}
		return fmt.Errorf("%w; nothing was changed", err)
	}

	if err := fsys.WriteFile(journalPath, j.encode()); err != nil {
		return fail(fmt.Errorf("write the journal: %w", err))
	}
	if err := fsys.SyncDir(root); err != nil {
		return fail(err)
	}
	for _, d := range j.dirs {
		if err := fsys.Mkdir(filepath.Join(root, filepath.FromSlash(d))); err != nil && !errors.Is(err, fs.ErrExist) {
			return fail(err)
		}
	}
	if err := writeTemps(fsys, root, id, changes); err != nil {
		return fail(err)
	}
	touched := map[string]bool{}
	for _, c := range changes {
		file, tmp, bak := runPaths(root, id, c.Path)
		touched[filepath.Dir(file)] = true
		if c.Op != Create {
			if err := fsys.Rename(file, bak); err != nil {
				return fail(err)
			}
		}
		if c.Op != Delete {
			if err := fsys.Rename(tmp, file); err != nil {
				return fail(err)
			}
		}
	}
	dirs := make([]string, 0, len(touched))
	for d := range touched {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	if err := inParallel(dirs, fsys.SyncDir); err != nil {
		return fail(err)
	}
	if err := fsys.Rename(journalPath, donePath); err != nil {
		return fail(err)
	}

	// Committed: the tree is the new one. What remains is cleaning up.
	err = fsys.SyncDir(root)
	if err == nil {
		err = finish(fsys, root, j, donePath)
	}
	if err != nil {
		return fmt.Errorf("the outputs are generated, but cleaning up failed (%w); the next errgen generate finishes it", err)
	}
	removeEmptied(fsys, root, changes)
	return nil
}

// writeTemps writes every new content to its temporary file.
func writeTemps(fsys FS, root, id string, changes []Change) error {
	var writes []Change
	for _, c := range changes {
		if c.Op != Delete {
			writes = append(writes, c)
		}
	}
	return inParallel(writes, func(c Change) error {
		_, tmp, _ := runPaths(root, id, c.Path)
		if err := fsys.WriteFile(tmp, c.New); err != nil {
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
		return nil
	})
}

// inParallel calls f on every item, a few at a time: each write and each
// sync ends waiting for the disk, which serves several at once about as fast
// as one. It returns the error of the first item that failed, in the items'
// order, so that the message does not depend on scheduling.
func inParallel[T any](items []T, f func(T) error) error {
	const parallel = 8
	sem := make(chan struct{}, parallel)
	errs := make([]error, len(items))
	var wg sync.WaitGroup
	for i, item := range items {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = f(item)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// missingDirs are the directories the changes need that do not exist yet,
// parents first.
func missingDirs(fsys FS, root string, changes []Change) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, c := range changes {
		if c.Op == Delete {
			continue
		}
		for d := path.Dir(c.Path); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			if _, err := fsys.Lstat(filepath.Join(root, filepath.FromSlash(d))); errors.Is(err, fs.ErrNotExist) {
				dirs = append(dirs, d)
			}
		}
	}
	sort.Slice(dirs, func(i, j int) bool {
		if a, b := strings.Count(dirs[i], "/"), strings.Count(dirs[j], "/"); a != b {
			return a < b
		}
		return dirs[i] < dirs[j]
	})
	return dirs
}

// rollback undoes a run that did not commit, from whatever state the disk
// is in, and removes its journal when everything was undone.
func rollback(fsys FS, root string, j *journal, journalPath string) error {
	var errs []error
	do := func(err error) {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	for i := len(j.entries) - 1; i >= 0; i-- {
		e := j.entries[i]
		file, tmp, bak := runPaths(root, j.id, e.path)
		switch {
		case e.op != Create && exists(fsys, bak):
			do(fsys.Rename(bak, file))
		case e.op == Create && !exists(fsys, tmp):
			// The new file was renamed into place, unless the run stopped
			// before writing it. Only a file that is errgen's is removed: a
			// file someone else put there since is not this run's.
			if data, err := fsys.ReadFile(file); err == nil && IsGenerated(e.path, data) {
				do(fsys.Remove(file))
			}
		}
		if exists(fsys, tmp) {
			do(fsys.Remove(tmp))
		}
	}
	for i := len(j.dirs) - 1; i >= 0; i-- {
		d := filepath.Join(root, filepath.FromSlash(j.dirs[i]))
		// A directory that holds something else now is no longer only the run's.
		if entries, err := fsys.ReadDir(d); err == nil && len(entries) == 0 {
			do(fsys.Remove(d))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	do(fsys.Remove(journalPath))
	return errors.Join(errs...)
}

// finish removes a committed run's backups, then its .done file.
func finish(fsys FS, root string, j *journal, donePath string) error {
	var errs []error
	for _, e := range j.entries {
		_, tmp, bak := runPaths(root, j.id, e.path)
		for _, name := range []string{bak, tmp} {
			if exists(fsys, name) {
				if err := fsys.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
					errs = append(errs, err)
				}
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if err := fsys.Remove(donePath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// removeEmptied removes the directories that deleting files left empty (a
// package that was renamed, say), up to but not including the root. It is
// tidying, not part of the run's promise: a directory that cannot be
// removed stays, empty, as it would have before.
func removeEmptied(fsys FS, root string, changes []Change) {
	for _, c := range changes {
		if c.Op != Delete {
			continue
		}
		for d := path.Dir(c.Path); d != "."; d = path.Dir(d) {
			full := filepath.Join(root, filepath.FromSlash(d))
			if entries, err := fsys.ReadDir(full); err != nil || len(entries) > 0 || fsys.Remove(full) != nil {
				break
			}
		}
	}
}

// Recover brings root back to a whole tree after runs that were interrupted
// (killed, or failed and could not undo themselves): a run that had not
// committed is undone, a committed one is cleaned up. It must run with the
// lock held (Write does), so that no live run's files are touched. It
// returns one line per run it repaired.
func Recover(root string) ([]string, error) {
	return recoverRuns(OS{}, root)
}

func recoverRuns(fsys FS, root string) ([]string, error) {
	entries, err := fsys.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, e := range entries {
		m := journalName.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		id, name := m[1], filepath.Join(root, e.Name())
		data, err := fsys.ReadFile(name)
		if err != nil {
			return notes, err
		}
		j, complete, err := parseJournal(id, data)
		if err != nil {
			return notes, fmt.Errorf("%s: %w", name, err)
		}
		// Repairing renames and removes files too: never through a link
		// out of the root (links.go).
		links, err := newDirChecker(root)
		if err != nil {
			return notes, err
		}
		for _, e := range j.entries {
			if err := links.check(path.Dir(e.path)); err != nil {
				return notes, fmt.Errorf("repairing after run %s: %w", id, err)
			}
		}
		switch {
		case m[2] == "done":
			err = finish(fsys, root, j, name)
			notes = append(notes, fmt.Sprintf("finished cleaning up after run %s, which had completed", id))
		case !complete:
			// Cut short while being written: the run had changed nothing.
			err = fsys.Remove(name)
			notes = append(notes, fmt.Sprintf("removed the unfinished journal of run %s, which had changed nothing", id))
		default:
			err = rollback(fsys, root, j, name)
			notes = append(notes, fmt.Sprintf("undid run %s, which was interrupted: the outputs are as they were before it", id))
		}
		if err != nil {
			return notes, fmt.Errorf("repairing after run %s: %w", id, err)
		}
	}
	return notes, nil
}

// Interrupted lists the journals of runs that did not finish, for check.
func Interrupted(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if journalName.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	return names, nil
}
