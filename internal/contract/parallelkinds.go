package contract

import (
	"runtime"
	"sync"

	"github.com/errgen/errgen/internal/naming"
	"github.com/errgen/errgen/internal/targets"
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
	if n < parallelKinds || l.files != nil || runtime.GOMAXPROCS(0) < 2 {
		return 1
	}
	// Two runs a core: a run that waits for its core leaves the others
	// less to wait for.
	return min(2*runtime.GOMAXPROCS(0), n/(parallelKinds/2))
}

// kindsSideBySide reads the kinds in contiguous runs, one goroutine each,
// each into a loader of its own (its problems and kind numbers; what it
// reads of the contract so far is not changed while the kinds are read).
// Then the collisions of their names are found, each form's on one
// goroutine. Last, in file order, every kind's problems join the loader's
// and the kind is added as the serial loop adds it: the problems, their
// positions and their order are the serial loop's.
func (l *loader) kindsSideBySide(c *Contract, sec *mapping, groups map[string]int, workers int) {
	// Declared before any is read: only references to other sections
	// are resolved while reading a kind.
	for _, k := range sec.keys {
		l.declare("kinds", k.Value)
	}
	type run struct {
		l        *loader
		kinds    []*Kind
		ends     []int // after each kind, how many problems its loader has
		reserved []kindReserved
	}
	runs := make([]run, workers)
	for w := range runs {
		sub := *l
		sub.problems = nil
		sub.numbered = map[*Kind]*yaml.Node{}
		runs[w].l = &sub
	}
	sideBySide(workers, func(w int) {
		r := &runs[w]
		from, to := w*len(sec.keys)/workers, (w+1)*len(sec.keys)/workers
		r.kinds = make([]*Kind, 0, to-from)
		r.ends = make([]int, 0, to-from)
		// reservedNames' check of each kind's names, done here and
		// reported there.
		rl := &loader{file: l.file}
		for i := from; i < to; i++ {
			kind := r.l.kind(c, groups, sec.keys[i], deref(sec.vals[i]))
			r.kinds = append(r.kinds, kind)
			r.ends = append(r.ends, len(r.l.problems))
			if kind != nil {
				rl.reservedKind(kind)
				r.reserved = append(r.reserved, kindReserved{kind, rl.problems})
				rl.problems = nil
			}
		}
	})
	read := make([]*Value, 0, len(sec.keys))
	for _, r := range runs {
		for _, kind := range r.kinds {
			if kind != nil {
				read = append(read, &kind.Value)
			}
		}
	}
	clashes := clashesOf(read, workers)
	i, n := 0, 0
	for _, r := range runs {
		start := 0
		for j, kind := range r.kinds {
			l.problems = append(l.problems, r.l.problems[start:r.ends[j]]...)
			start = r.ends[j]
			if kind != nil {
				if cl, ok := clashes[n]; ok {
					l.reportClash(&kind.Value, cl.other, "kind", cl.shared)
				}
				l.addKind(c, sec.keys[i], kind)
				n++
			}
			i++
		}
		for kind, num := range r.l.numbered {
			l.numbered[kind] = num
		}
		l.kindsReserved = append(l.kindsReserved, r.reserved...)
	}
}

// clash is the first form in which a value becomes another's identifier.
type clash struct {
	form   int
	other  *Value
	shared string
}

// clashesOf finds what collide reports for each of values, added one by
// one in order to one identities, by position among values. The forms are
// independent, so each is checked on one of workers goroutines.
func clashesOf(values []*Value, workers int) map[int]clash {
	type form struct {
		of   func(*naming.Forms) string
		lang string
	}
	var forms []form
	for _, t := range targets.All {
		for _, of := range t.Forms {
			forms = append(forms, form{of, string(t.Lang)})
		}
	}
	type found struct {
		at int
		clash
	}
	per := make([][]found, workers)
	sideBySide(workers, func(w int) {
		for f := w; f < len(forms); f += workers {
			seen := make(map[string]*Value, len(values))
			for i, v := range values {
				id := forms[f].of(&v.Idents)
				if other, ok := seen[id]; ok && other.Name != v.Name {
					per[w] = append(per[w], found{i, clash{f, other, id + " in " + forms[f].lang}})
					continue
				}
				seen[id] = v
			}
		}
	})
	out := map[int]clash{}
	for _, fs := range per {
		for _, f := range fs {
			if first, ok := out[f.at]; !ok || f.form < first.form {
				out[f.at] = f.clash
			}
		}
	}
	return out
}

// sideBySide runs work(0) … work(n-1) on goroutines of their own and waits
// for them; a panic in one is raised again on the caller's goroutine,
// where Load turns it into a problem.
func sideBySide(n int, work func(w int)) {
	panics := make([]any, n)
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[w] = recover() }()
			work(w)
		}()
	}
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}
