package contract

import (
	"runtime"
	"sync"

	"gopkg.in/yaml.v3"
)

// parallelKinds is the number of kinds from which the kinds are read side
// by side: below it, starting the goroutines costs more than they save.
var parallelKinds = 512

// kindWorkers is how many goroutines read n kinds: one under parallelKinds,
// on one core, or when the contract imports others (the loader then records
// the file of the nodes it makes for positions, a map the readers would
// share).
func kindWorkers(l *loader, n int) int {
	if n < parallelKinds || l.files != nil {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), n/(parallelKinds/2))
}

// kindsSideBySide reads the kinds in contiguous runs, one goroutine each,
// each into a loader of its own (its problems and kind numbers; what it
// reads of the contract so far is not changed while the kinds are read).
// Then, in file order, every kind's problems join the loader's and the
// kind is added as the serial loop adds it: the problems, their positions
// and their order are the serial loop's.
func (l *loader) kindsSideBySide(c *Contract, sec *mapping, groups map[string]int, workers int, add func(*yaml.Node, *Kind)) {
	// Declared before any is read: only references to other sections
	// are resolved while reading a kind.
	for _, k := range sec.keys {
		l.declare("kinds", k.Value)
	}
	type run struct {
		l     *loader
		kinds []*Kind
		ends  []int // after each kind, how many problems its loader has
		panic any
	}
	runs := make([]run, workers)
	var wg sync.WaitGroup
	for w := range runs {
		from, to := w*len(sec.keys)/workers, (w+1)*len(sec.keys)/workers
		sub := *l
		sub.problems = nil
		sub.numbered = map[*Kind]*yaml.Node{}
		r := &runs[w]
		r.l = &sub
		r.kinds = make([]*Kind, 0, to-from)
		r.ends = make([]int, 0, to-from)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				// Raised again on the caller's goroutine, where Load
				// turns it into a problem.
				r.panic = recover()
			}()
			for i := from; i < to; i++ {
				r.kinds = append(r.kinds, r.l.kind(c, groups, sec.keys[i], deref(sec.vals[i])))
				r.ends = append(r.ends, len(r.l.problems))
			}
		}()
	}
	wg.Wait()
	for w := range runs {
		if p := runs[w].panic; p != nil {
			panic(p)
		}
	}
	i := 0
	for _, r := range runs {
		start := 0
		for j, kind := range r.kinds {
			l.problems = append(l.problems, r.l.problems[start:r.ends[j]]...)
			start = r.ends[j]
			add(sec.keys[i], kind)
			i++
		}
		for kind, n := range r.l.numbered {
			l.numbered[kind] = n
		}
	}
}
