package generate

import (
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	// A relative module of the TypeScript package, in a static import or
	// export (type-only ones too: they tie the modules together for a reader
	// and for tsc) or a dynamic import().
	tsRelative = regexp.MustCompile(`(?:\bfrom|\bimport\(?)\s*"\./([\w.-]+)\.js"`)
	// A relative import of the Python package, at any indentation: an import
	// inside a function ties the modules together as much as one at the top.
	pyFromModule = regexp.MustCompile(`(?m)^[ \t]*from \.(\w+) import`)
	pyFromPkg    = regexp.MustCompile(`(?m)^[ \t]*from \. import \(?([\w, \t]+)`)
)

// TestNoImportCycles fails when a module of a generated TypeScript or Python
// package imports, directly or through others, itself: a cycle makes the
// order modules initialize in matter, and a module in one can be neither
// read nor moved on its own. (Go refuses cycles itself.)
func TestNoImportCycles(t *testing.T) {
	cs, outs := generatedCorpus(t)
	for i, out := range outs {
		c := cs[i]
		graphs := map[string]map[string][]string{}
		for p, data := range out.Files {
			dir, file := path.Split(p)
			var name string
			var deps []string
			switch {
			case strings.HasSuffix(p, ".ts") && !strings.HasSuffix(p, ".d.ts") && path.Base(dir) == "src":
				name = strings.TrimSuffix(file, ".ts")
				for _, m := range tsRelative.FindAllSubmatch(data, -1) {
					deps = append(deps, string(m[1]))
				}
			case strings.HasSuffix(p, ".py"):
				name = strings.TrimSuffix(file, ".py")
				for _, m := range pyFromModule.FindAllSubmatch(data, -1) {
					deps = append(deps, string(m[1]))
				}
				for _, m := range pyFromPkg.FindAllSubmatch(data, -1) {
					for _, n := range strings.Split(string(m[1]), ",") {
						if n = strings.TrimSpace(n); n != "" {
							deps = append(deps, n)
						}
					}
				}
			default:
				continue
			}
			if graphs[dir] == nil {
				graphs[dir] = map[string][]string{}
			}
			graphs[dir][name] = deps
		}
		if len(graphs) < 2 {
			t.Fatalf("%s: found %d generated TypeScript and Python packages, want both", c.File, len(graphs))
		}
		for dir, g := range graphs {
			if cycle := importCycle(g); cycle != nil {
				t.Errorf("%s: %s: import cycle %s", c.File, dir, strings.Join(cycle, " → "))
			}
		}
	}
}

// importCycle returns one cycle of the module graph g (module → the modules
// it imports) as the modules along it, the first repeated at the end, or nil
// when there is none. It visits the modules in sorted order, so which cycle
// it reports does not depend on map order.
func importCycle(g map[string][]string) []string {
	const (
		unseen = iota
		onPath
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(string) []string
	visit = func(m string) []string {
		state[m] = onPath
		stack = append(stack, m)
		deps := append([]string(nil), g[m]...)
		sort.Strings(deps)
		for _, d := range deps {
			switch state[d] {
			case onPath:
				for i, s := range stack {
					if s == d {
						return append(append([]string(nil), stack[i:]...), d)
					}
				}
			case unseen:
				if c := visit(d); c != nil {
					return c
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[m] = done
		return nil
	}
	names := make([]string, 0, len(g))
	for m := range g {
		names = append(names, m)
	}
	sort.Strings(names)
	for _, m := range names {
		if state[m] == unseen {
			if c := visit(m); c != nil {
				return c
			}
		}
	}
	return nil
}

func TestImportCycleFinds(t *testing.T) {
	tests := []struct {
		g    map[string][]string
		want string
	}{
		{map[string][]string{"a": {"b"}, "b": {"c"}, "c": nil}, ""},
		{map[string][]string{"a": {"a"}}, "a a"},
		{map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"a"}}, "a b c a"},
		{map[string][]string{"x": {"a"}, "a": {"b"}, "b": {"a", "z"}}, "a b a"},
		// Python's own modules and packages outside the graph are leaves.
		{map[string][]string{"a": {"b", "json"}, "b": {"typing"}}, ""},
	}
	for _, tt := range tests {
		if got := strings.Join(importCycle(tt.g), " "); got != tt.want {
			t.Errorf("importCycle(%v) = %q, want %q", tt.g, got, tt.want)
		}
	}
}
