// Package generate runs every emitter over a contract and reconciles the
// result with an output tree. Generate is pure; Plan compares with the disk;
// Apply writes, all or nothing; Write does what errgen generate does (lock
// the tree, repair what an interrupted run left, plan, refuse to replace
// files that are not errgen's, apply). Splitting them is what lets `errgen
// check` reuse generation and lets a failed run leave the tree as it was.
package generate

import (
	"bytes"
	"fmt"
	"path"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
)

// MaxOutput and OutputPerByte bound the bytes one run generates: at most
// MaxOutput, or OutputPerByte bytes per byte of the contract when that is
// more. Contracts of ordinary kinds generate 20 to 50 bytes per byte (the
// reference contract 21, internal/synth's 52: 2 GB from the 40 MB of
// 100,000 kinds); far more means that a text repeated into many files is
// absurdly long, and such a run stops before anything is compared or
// written rather than filling the disk.
const (
	MaxOutput     = 256 << 20
	OutputPerByte = 64
)

// maxOutput is MaxOutput, lowered by tests.
var maxOutput int64 = MaxOutput

// outputLimit is the most a run may generate from c.
func outputLimit(c *contract.Contract) int64 {
	return max(maxOutput, OutputPerByte*int64(c.Size))
}

// Output is the result of generation: file contents by slash-separated path
// relative to the output root, and the directories the emitters own.
type Output struct {
	Files map[string][]byte
	Dirs  []string
	// Scratch holds the emitters' Scratch patterns by directory.
	Scratch map[string][]string
	// Outputs holds the directory of every emitter that ran, by its name
	// (the manifest's record, manifest.go).
	Outputs map[string]string
	// Source is the config or contract the files name in their header
	// lines, relative to the output root, and Part the contract of a config
	// that generates several (see SetSource); "" until set.
	Source, Part string
}

// Paths returns the generated paths, sorted.
func (o *Output) Paths() []string {
	paths := make([]string, 0, len(o.Files))
	for p := range o.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// Generate runs every emitter. It writes nothing and fails as a whole when any
// emitter fails or breaks the rules every output follows.
func Generate(c *contract.Contract, o targets.Options) (*Output, error) {
	out, err := run(c, o, Emitters)
	if err != nil {
		return nil, err
	}
	out.Scratch = scratchOf(o, Emitters)
	return out, nil
}

// run runs the emitters concurrently, each on its own goroutine: they only
// read the contract, and the larger ones take comparable time, so a contract
// of thousands of kinds generates in about the time of the slowest emitter
// rather than of all of them. Results are merged in table order, so the
// output and the error reported (the first failing emitter's) do not depend
// on scheduling.
func run(c *contract.Contract, o targets.Options, emitters []Emitter) (*Output, error) {
	type result struct {
		files map[string][]byte
		err   error
	}
	// An output whose directory is empty is not generated (a generation
	// config that leaves it out).
	selected := make([]Emitter, 0, len(emitters))
	for _, e := range emitters {
		if e.Dir(o) != "" {
			selected = append(selected, e)
		}
	}
	emitters = selected
	if o.Shared == nil {
		o.Shared = targets.NewShared()
	}
	results := make([]result, len(emitters))
	// As many workers as the process may run at once take the emitters in
	// table order: with one goroutine an emitter, a large contract had
	// every emitter's views and examples live at once, for the collector to
	// mark on every cycle, and the emitters evicted each other from the
	// caches (at 100,000 kinds 3-7 % more CPU, and more wall time). An
	// emitter waits for nothing another produces: what they share is built
	// by the first that asks (targets.Derive), on its own goroutine. An
	// emitter marked First (the largest output) starts before the rest.
	next := make(chan int, len(emitters))
	for _, first := range []bool{true, false} {
		for i, e := range emitters {
			if e.First == first {
				next <- i
			}
		}
	}
	close(next)
	var wg sync.WaitGroup
	for range min(len(emitters), runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i].files, results[i].err = runEmitter(c, o, emitters[i])
			}
		}()
	}
	wg.Wait()

	n := 0
	for _, r := range results {
		n += len(r.files)
	}
	out := &Output{Files: make(map[string][]byte, n), Outputs: make(map[string]string, len(emitters))}
	for i, e := range emitters {
		dir := e.Dir(o)
		out.Dirs = append(out.Dirs, dir)
		out.Outputs[e.Name] = dir
		files, err := results[i].files, results[i].err
		if ie, ok := err.(*InternalError); ok {
			return nil, ie
		}
		if err != nil {
			return nil, fmt.Errorf("%s emitter: %w", e.Name, err)
		}
		// Checked in path order, so the problem reported first is always the same.
		paths := make([]string, 0, len(files))
		for p := range files {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			data := files[p]
			switch {
			case p != path.Clean(p) || !strings.HasPrefix(p, dir+"/"):
				return nil, fmt.Errorf("%s emitter: %s is outside its directory %s", e.Name, p, dir)
			case out.Files[p] != nil:
				return nil, fmt.Errorf("%s emitter: %s is produced twice", e.Name, p)
			case !IsGenerated(p, data):
				return nil, fmt.Errorf("%s emitter: %s lacks the %q header line (the rules are in internal/generate/owner.go)", e.Name, p, marker.Text)
			case !bytes.HasSuffix(data, []byte("\n")) || bytes.HasSuffix(data, []byte("\n\n")):
				return nil, fmt.Errorf("%s emitter: %s must end in exactly one newline", e.Name, p)
			}
			out.Files[p] = data
		}
	}
	if err := checkSize(out, outputLimit(c)); err != nil {
		return nil, err
	}
	sort.Strings(out.Dirs)
	return out, nil
}

// runEmitter runs e. A panic on an emitter's goroutine would end the
// process with exit code 2 (a usage error's) and a raw stack; what the
// loader accepts every emitter must generate, so a panic is a bug in
// errgen, reported as such by the caller, and nothing is written.
func runEmitter(c *contract.Contract, o targets.Options, e Emitter) (files map[string][]byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			files, err = nil, &InternalError{Emitter: e.Name, File: c.File, Panic: r, Stack: debug.Stack()}
		}
	}()
	return e.Generate(c, o)
}

// InternalError is an emitter's panic, caught at the edge of the pipeline:
// a contract the loader accepted that an emitter cannot generate is a bug in
// errgen, never a problem the contract owner can fix, so the message says
// which emitter failed and asks for a report.
type InternalError struct {
	Emitter string // the emitter's name in Emitters
	File    string // the contract it was generating
	Panic   any    // the value the emitter panicked with
	Stack   []byte // the emitter goroutine's stack, for the report
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("%s: internal error: the %s emitter failed on a contract that validates: %v\n"+
		"This is a bug in errgen, not in the contract; nothing was written. Please report it with the contract and this message.",
		e.File, e.Emitter, e.Panic)
}

// checkSize enforces the output limit, naming the largest file: the text to
// shorten shows most there.
func checkSize(out *Output, limit int64) error {
	var size int64
	largest := ""
	for p, data := range out.Files {
		size += int64(len(data))
		if n, m := len(data), len(out.Files[largest]); largest == "" || n > m || n == m && p < largest {
			largest = p
		}
	}
	if size <= limit {
		return nil
	}
	return fmt.Errorf("the contract generates %d MiB, more than errgen's limit of %d MiB (the largest file, %s, is %d MiB); a description or another text in it is probably far too long",
		size>>20, limit>>20, largest, len(out.Files[largest])>>20)
}
