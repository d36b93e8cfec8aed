package contract

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is one thing wrong with a contract, at a position in its file.
type Problem struct {
	File    string
	Pos     Pos
	Message string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Pos.Line, p.Pos.Col, p.Message)
}

// Problems is every problem found in one run, sorted by position. Owners fix
// all of them in one round instead of one per run.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

func (ps Problems) sort() { ps.sortFor("") }

// sortFor sorts by position: the problems in file (the loaded contract)
// first, then those in the files it imports, by name.
func (ps Problems) sortFor(file string) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.File != b.File {
			if a.File == file || b.File == file {
				return a.File == file
			}
			return a.File < b.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		return a.Message < b.Message
	})
}

// dedupe drops repeats: a file imported along two paths reports its
// problems at each.
func dedupe(ps Problems) Problems {
	seen := make(map[Problem]bool, len(ps))
	out := ps[:0]
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// Suggest is suggest for the other loaders of errgen's YAML files (the
// generation config), so that a typo there gets the same hint.
func Suggest(got string, candidates []string) string { return suggest(got, candidates) }

// suggest returns ` (did you mean "x"?)` when one candidate is close enough to
// be the intended spelling of got, else "".
func suggest(got string, candidates []string) string {
	best := closest(got, candidates)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// closest returns the candidate that is most likely the intended spelling of
// got: the nearest by edit distance when it is close enough, else the only
// candidate that got abbreviates or extends (str -> string, none ->
// none_expected), else "".
func closest(got string, candidates []string) string {
	lower := strings.ToLower(got)
	best, bestDist := "", len(got)/2+2
	for _, c := range candidates {
		if d := distance(lower, strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	if best != "" || len(got) < 3 {
		return best
	}
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if len(lc) >= 3 && (strings.HasPrefix(lc, lower) || strings.HasPrefix(lower, lc)) {
			if best != "" {
				return "" // ambiguous
			}
			best = c
		}
	}
	return best
}

// distance is the Levenshtein edit distance.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// quoteList renders names for a message: "a", "b" or "c".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 0 {
		return "none"
	}
	return JoinOr(q)
}

// JoinOr joins items for a sentence: a; a or b; a, b or c ("" for none).
// Messages and the contract schema's descriptions list alternatives so.
func JoinOr(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
