// Package diff renders line-based unified diffs, so that callers can show
// how generated output differs from what is already on disk without
// depending on an external diff tool.
package diff

import (
	"bytes"
	"strconv"
	"strings"
)

// contextLines matches the default of `diff -u`, so output looks familiar
// and can be fed to patch(1).
const contextLines = 3

// Unified returns a unified diff (like `diff -u`, 3 lines of context) turning old into new,
// with headers "--- a/<oldName>" and "+++ b/<newName>". It returns "" when old == new.
func Unified(oldName, newName string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	a := splitLines(string(old))
	b := splitLines(string(new))
	edits := lineEdits(a, b)

	var sb strings.Builder
	sb.WriteString("--- a/" + oldName + "\n")
	sb.WriteString("+++ b/" + newName + "\n")
	writeHunks(&sb, a, b, edits)
	return sb.String()
}

// splitLines keeps each line's terminating newline so that a final line
// without one compares unequal to the same text with one, which is how GNU
// diff decides to report "\ No newline at end of file".
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// edit replaces old[a0:a1] with new[b0:b1]; the lines between consecutive
// edits are equal in both files.
type edit struct {
	a0, a1, b0, b1 int
}

// lineEdits computes a minimal line edit script from a to b.
func lineEdits(a, b []string) []edit {
	// Interning turns every later comparison into an integer compare, which
	// is what keeps the O(ND) search cheap on long lines.
	ids := make(map[string]int32, len(a))
	intern := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	x, y := intern(a), intern(b)

	// The common prefix and suffix are the bulk of a typical regenerated
	// file; dropping them up front means the search and its buffers are
	// sized by the changed region only.
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	x, y = x[pre:len(x)-suf], y[pre:len(y)-suf]

	cx, cy := markChanges(x, y, len(ids))

	var edits []edit
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		if i < len(x) && j < len(y) && !cx[i] && !cy[j] {
			i, j = i+1, j+1
			continue
		}
		i0, j0 := i, j
		for i < len(x) && cx[i] {
			i++
		}
		for j < len(y) && cy[j] {
			j++
		}
		if i == i0 && j == j0 {
			// Unchanged lines must pair up one to one; anything else is a
			// bug in the search and would otherwise loop forever.
			panic("diff: inconsistent change marks")
		}
		edits = append(edits, edit{i0 + pre, i + pre, j0 + pre, j + pre})
	}
	return edits
}

// markChanges reports, for each element of x and y, whether it is outside a
// longest common subsequence. nids bounds the interned values.
func markChanges(x, y []int32, nids int) (cx, cy []bool) {
	cx = make([]bool, len(x))
	cy = make([]bool, len(y))

	// A line that never occurs in the other file cannot be part of any
	// common subsequence, so removing it keeps the result minimal while
	// making wholesale rewrites (where D approaches N) nearly linear.
	inX := make([]bool, nids)
	inY := make([]bool, nids)
	for _, v := range x {
		inX[v] = true
	}
	for _, v := range y {
		inY[v] = true
	}
	keep := func(s []int32, other []bool, changed []bool) (vals []int32, idx []int) {
		for i, v := range s {
			if other[v] {
				vals = append(vals, v)
				idx = append(idx, i)
			} else {
				changed[i] = true
			}
		}
		return vals, idx
	}
	xr, xIdx := keep(x, inY, cx)
	yr, yIdx := keep(y, inX, cy)

	m := myers{
		x:   xr,
		y:   yr,
		cx:  make([]bool, len(xr)),
		cy:  make([]bool, len(yr)),
		off: len(yr) + 1,
	}
	// Diagonals k = x-y span [-len(y), len(x)], plus one sentinel each side.
	m.fd = make([]int, len(xr)+len(yr)+3)
	m.bd = make([]int, len(xr)+len(yr)+3)
	m.compare(0, len(xr), 0, len(yr))

	for i, c := range m.cx {
		if c {
			cx[xIdx[i]] = true
		}
	}
	for i, c := range m.cy {
		if c {
			cy[yIdx[i]] = true
		}
	}
	return cx, cy
}

// myers is the linear-space divide-and-conquer variant of Myers' O(ND)
// algorithm (as in GNU diff's diffseq.h). The linear-space form is used so
// that memory stays O(N+M) even when D is large.
type myers struct {
	x, y   []int32
	cx, cy []bool
	fd, bd []int // furthest-reaching x per diagonal, indexed by k+off
	off    int
}

func (m *myers) compare(xoff, xlim, yoff, ylim int) {
	// split relies on the ends being trimmed: it never explores the zero-
	// cost snake, and trimming also guarantees each half is strictly
	// smaller, so the recursion terminates.
	for xoff < xlim && yoff < ylim && m.x[xoff] == m.y[yoff] {
		xoff, yoff = xoff+1, yoff+1
	}
	for xoff < xlim && yoff < ylim && m.x[xlim-1] == m.y[ylim-1] {
		xlim, ylim = xlim-1, ylim-1
	}
	switch {
	case xoff == xlim:
		for ; yoff < ylim; yoff++ {
			m.cy[yoff] = true
		}
	case yoff == ylim:
		for ; xoff < xlim; xoff++ {
			m.cx[xoff] = true
		}
	default:
		xmid, ymid := m.split(xoff, xlim, yoff, ylim)
		m.compare(xoff, xmid, yoff, ymid)
		m.compare(xmid, xlim, ymid, ylim)
	}
}

// split finds a point on an optimal path by running the forward and
// backward searches until they meet. Diagonals outside the box are never
// entered, so no out-of-range point can fake an overlap.
func (m *myers) split(xoff, xlim, yoff, ylim int) (xmid, ymid int) {
	fd, bd, o := m.fd, m.bd, m.off
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax := fmid, fmid
	bmin, bmax := bmid, bmid
	// Whether the searches meet after a forward or a backward step depends
	// on the parity of the distance between their start diagonals.
	odd := (fmid-bmid)&1 != 0

	fd[fmid+o] = xoff
	bd[bmid+o] = xlim
	for {
		// Grow the forward frontier by one edit; at the box edge the range
		// shrinks instead so that parity is preserved.
		if fmin > dmin {
			fmin--
			fd[fmin-1+o] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[fmax+1+o] = -1
		} else {
			fmax--
		}
		for k := fmax; k >= fmin; k -= 2 {
			lo, hi := fd[k-1+o], fd[k+1+o]
			x := lo + 1
			if lo < hi {
				x = hi
			}
			y := x - k
			for x < xlim && y < ylim && m.x[x] == m.y[y] {
				x, y = x+1, y+1
			}
			fd[k+o] = x
			if odd && bmin <= k && k <= bmax && bd[k+o] <= x {
				return x, y
			}
		}

		if bmin > dmin {
			bmin--
			bd[bmin-1+o] = int(^uint(0) >> 1)
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[bmax+1+o] = int(^uint(0) >> 1)
		} else {
			bmax--
		}
		for k := bmax; k >= bmin; k -= 2 {
			lo, hi := bd[k-1+o], bd[k+1+o]
			x := hi - 1
			if lo < hi {
				x = lo
			}
			y := x - k
			for x > xoff && y > yoff && m.x[x-1] == m.y[y-1] {
				x, y = x-1, y-1
			}
			bd[k+o] = x
			if !odd && fmin <= k && k <= fmax && x <= fd[k+o] {
				return x, y
			}
		}
	}
}

// writeHunks groups edits whose context would touch or overlap into one
// hunk, as GNU diff does (a gap of up to 2*contextLines equal lines).
func writeHunks(sb *strings.Builder, a, b []string, edits []edit) {
	for i := 0; i < len(edits); {
		j := i
		for j+1 < len(edits) && edits[j+1].a0-edits[j].a1 <= 2*contextLines {
			j++
		}
		first, last := edits[i], edits[j]
		aStart := max(first.a0-contextLines, 0)
		aEnd := min(last.a1+contextLines, len(a))
		// The context around a hunk is equal in both files, so the new-side
		// range is the old-side one shifted by the edits' offsets.
		bStart := first.b0 - (first.a0 - aStart)
		bEnd := last.b1 + (aEnd - last.a1)

		sb.WriteString("@@ -" + hunkRange(aStart, aEnd-aStart) +
			" +" + hunkRange(bStart, bEnd-bStart) + " @@\n")
		pos := aStart
		for _, e := range edits[i : j+1] {
			for ; pos < e.a0; pos++ {
				writeLine(sb, ' ', a[pos])
			}
			for k := e.a0; k < e.a1; k++ {
				writeLine(sb, '-', a[k])
			}
			for k := e.b0; k < e.b1; k++ {
				writeLine(sb, '+', b[k])
			}
			pos = e.a1
		}
		for ; pos < aEnd; pos++ {
			writeLine(sb, ' ', a[pos])
		}
		i = j + 1
	}
}

// hunkRange formats a 0-based start and a count in GNU's style: an empty
// range names the line before it, and a count of one is left implicit.
func hunkRange(start, count int) string {
	switch count {
	case 0:
		return strconv.Itoa(start) + ",0"
	case 1:
		return strconv.Itoa(start + 1)
	default:
		return strconv.Itoa(start+1) + "," + strconv.Itoa(count)
	}
}

func writeLine(sb *strings.Builder, prefix byte, line string) {
	sb.WriteByte(prefix)
	sb.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		// Without the marker a reader could not tell the missing newline
		// apart from the one the diff format itself needs.
		sb.WriteString("\n\\ No newline at end of file\n")
	}
}
