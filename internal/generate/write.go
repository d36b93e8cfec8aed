package generate

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"syscall"
	"time"
)

// Options are Write's and Inspect's.
type Options struct {
	// TakeOver lets Write replace files at generated paths that are not
	// errgen's (errgen generate -take-over).
	TakeOver bool
	// LockTimeout is how long to wait for another run on the same root;
	// zero means DefaultLockTimeout.
	LockTimeout time.Duration
	// Waiting, when not nil, is called once when another run holds the lock.
	Waiting func(lockPath, holder string)

	fs FS // the tests' fault-injecting filesystem; nil is OS
}

func (o Options) fsys() FS {
	if o.fs == nil {
		return OS{}
	}
	return o.fs
}

// ForeignError is Write refusing to replace files that are not errgen's,
// or that another config or contract generated.
type ForeignError struct {
	Paths []string
	// Owners holds, by path, the source named by a file that another config
	// or contract generated (see source.go).
	Owners map[string]string
}

func (e *ForeignError) Error() string {
	var ps []string
	for _, p := range e.Paths {
		if o := e.Owners[p]; o != "" {
			p += " (generated from " + o + ")"
		}
		ps = append(ps, p)
	}
	return fmt.Sprintf("%d file%s at generated paths %s not errgen's (the header line is not errgen's) or not this run's (it names another source): %s",
		len(e.Paths), plural(len(e.Paths)), map[bool]string{true: "is", false: "are"}[len(e.Paths) == 1], strings.Join(ps, ", "))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Result is what Write did.
type Result struct {
	Changes  []Change // applied, or refused when the error is a ForeignError
	Repaired []string // interrupted runs repaired first, one line each
}

// Write makes the tree under root match out, as errgen generate does:
// with the root's lock held, it repairs what interrupted runs left (see
// Recover), plans, refuses to replace files that are not errgen's unless
// opt.TakeOver, and applies the plan atomically (see Apply).
func Write(root string, out *Output, opt Options) (*Result, error) {
	return WriteAll(root, []*Output{out}, opt)
}

// WriteAll is Write for the parts of a config that generates several
// contracts (issue 32): every part is planned first, then the plans are
// applied as one run, all or nothing.
func WriteAll(root string, outs []*Output, opt Options) (*Result, error) {
	unlock, err := Lock(root, opt.LockTimeout, opt.Waiting)
	if err != nil {
		return nil, err
	}
	defer unlock()
	fsys := opt.fsys()
	res := &Result{}
	if res.Repaired, err = recoverRuns(fsys, root); err != nil {
		return res, err
	}
	if res.Changes, err = planAll(root, outs); err != nil {
		return res, err
	}
	if foreign := Foreign(res.Changes); len(foreign) > 0 && !opt.TakeOver {
		owners := map[string]string{}
		for _, c := range res.Changes {
			if c.Owner != "" {
				owners[c.Path] = c.Owner
			}
		}
		return res, &ForeignError{Paths: foreign, Owners: owners}
	}
	return res, apply(fsys, root, res.Changes, newRunID())
}

// Inspect is errgen check's view of the tree: the plan, and the journals of
// interrupted runs, which leave the tree mixed until a Write repairs it. It
// holds the lock while it reads, so that it never sees a run half done;
// when the root is read-only (a CI checkout, say), no run can be writing
// there, and it reads without it.
func Inspect(root string, out *Output, opt Options) (changes []Change, interrupted []string, err error) {
	return InspectAll(root, []*Output{out}, opt)
}

// InspectAll is Inspect for the parts of a config that generates several
// contracts: the plans of every part, as WriteAll would apply them.
func InspectAll(root string, outs []*Output, opt Options) (changes []Change, interrupted []string, err error) {
	unlock, err := Lock(root, opt.LockTimeout, opt.Waiting)
	switch {
	case err == nil:
		defer unlock()
	case errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS):
	default:
		return nil, nil, err
	}
	if interrupted, err = Interrupted(root); err != nil {
		return nil, nil, err
	}
	changes, err = planAll(root, outs)
	return changes, interrupted, err
}

// planAll plans every output and merges the plans into one. Each part
// prunes only its own files, so two plans meet at one path only where a
// file of errgen before sources were named (every part's) lies in two
// parts' directories, or a part takes over a path another part of the
// run no longer generates: a write wins over a removal, and a removal is
// made once.
func planAll(root string, outs []*Output) ([]Change, error) {
	if len(outs) == 1 {
		return Plan(root, outs[0])
	}
	byPath := map[string]int{}
	var changes []Change
	for _, out := range outs {
		plan, err := Plan(root, out)
		if err != nil {
			return nil, err
		}
		for _, c := range plan {
			i, seen := byPath[c.Path]
			switch {
			case !seen:
				byPath[c.Path] = len(changes)
				changes = append(changes, c)
			case changes[i].Op == Delete && c.Op != Delete:
				changes[i] = c
			}
		}
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return changes, nil
}
