package contract

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"sync"

	"gopkg.in/yaml.v3"
)

// A large contract is mostly its kinds section, and yaml.v3 parses on one
// core. splitParse parses the kinds section in pieces side by side, each
// piece a run of whole kinds, and joins their nodes into the tree the whole
// document parses to: the same nodes, values, tags, styles, lines and
// columns (the comments yaml.v3 attaches, which the loader never reads, may
// differ at the seams). It says no, and parse reads the document in one
// piece, whenever the text is not plain enough to be sure of that; every
// problem in the YAML is then reported by that one parse, as before.
//
// Why the pieces parse as the whole does: a piece starts at a line that
// holds nothing but a key indented like the first kind, and ends where the
// next piece or the section starts. At such a line the parser of the whole
// document is either between two kinds, in block context (with a kind's
// block scalars and plain scalars ended, since the line is indented less
// than their text must be), or inside a quoted scalar or a flow collection
// that an earlier line opened. In the first case it reads the piece's
// tokens exactly as a parser that starts there; in the second, the piece
// that opened the scalar or collection ends inside it and fails, and so
// does the split. A line in a piece indented less than the kinds ends the
// piece's root in the piece and the kinds mapping in the whole: both fail.
// The rest of the document, with the kinds' lines left blank, parses to
// the same tree with an empty kinds value, which the pieces' mapping
// replaces. What the pieces cannot see is refused before: an alias to an
// anchor outside its piece fails in the piece; a directive (%TAG), a second
// document, a line break other than LF and a line long enough for the
// parser's depth limit to depend on the one level the piece lacks are not
// split at all; an alias after the kinds to a name the kinds anchor would
// find another anchor, or none, in the rest: that is not joined either.
// TestSplitParseIsTheParse, TestSplitParseOnAwkwardYAML and FuzzSplitParse
// compare the two parses.

// splitMin is the size from which a contract's kinds are parsed in pieces:
// below it, starting the goroutines costs more than they save.
var splitMin = 256 << 10

// maxSplitLine is the longest line a split document may have: yaml.v3
// stops at 10,000 levels of indentation, and a piece has one level less
// than the whole document, so no line may come near it.
const maxSplitLine = 8192

// splitPlan is where the kinds section of a document is cut.
type splitPlan struct {
	head   []byte // the document with the kinds' lines left empty
	kindsL int    // the line of the kinds: key
	indent int    // the column of the kinds' keys, 0-based
	pieces []piece
	// For a loader: the document, the problems text finds in each piece,
	// and where the kinds: key is among the root's.
	data     []byte
	l        *loader
	problems []Problems
	kindsAt  int
}

// piece is a run of whole kinds: its text and the line it starts at.
type piece struct {
	text []byte
	line int
}

// planSplit finds where to cut data's kinds section into at most parts
// pieces, or says no.
func planSplit(data []byte, parts int) (*splitPlan, bool) {
	if parts < 2 {
		return nil, false
	}
	text := bytes.TrimPrefix(data, []byte("\ufeff"))
	if bytes.IndexByte(data, '\r') >= 0 || bytes.Contains(data, []byte("\u0085")) ||
		bytes.Contains(data, []byte("\u2028")) || bytes.Contains(data, []byte("\u2029")) {
		return nil, false // a line break yaml.v3 counts that LF does not
	}
	for _, mark := range []string{"%", "---", "..."} {
		// A directive, or a document's start or end.
		if bytes.HasPrefix(text, []byte(mark)) || bytes.Contains(data, []byte("\n"+mark)) {
			return nil, false
		}
	}
	p := &splitPlan{kindsL: -1, indent: -1}
	const (
		before = iota // the kinds: key not found yet
		gap           // after it, before the first kind
		body          // among the kinds
		after         // past them
	)
	state := before
	var bodyStart, bodyEnd, bodyLine, endLine int
	var cuts []int // the offsets of the lines the pieces start at
	var cutLines []int
	var next, step int // the next cut is looked for from next, step after the last
	line := 1
	for off := 0; off < len(data); line++ {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		if end-off > maxSplitLine {
			return nil, false
		}
		l := data[off:end]
		switch state {
		case before:
			if rest, ok := bytes.CutPrefix(l, []byte("kinds:")); ok && blankOrComment(rest, true) {
				state, p.kindsL = gap, line
			}
		case gap:
			if blankOrComment(l, false) {
				break
			}
			n := indentOf(l)
			if n == 0 || n == len(l) || !keyStart(l[n]) {
				return nil, false
			}
			state, p.indent, bodyStart, bodyLine = body, n, off, line
			cuts, cutLines = append(cuts, off), append(cutLines, line)
			step = (len(data) - off) / parts
			next = off + step
		case body:
			if len(l) > 0 && l[0] == '\t' {
				return nil, false
			}
			if len(l) > 0 && l[0] != ' ' && l[0] != '#' {
				if !keyStart(l[0]) {
					return nil, false
				}
				state, bodyEnd, endLine = after, off, line
				break
			}
			if off >= next && len(cuts) < parts && len(l) > p.indent && indentOf(l) == p.indent && keyStart(l[p.indent]) {
				cuts, cutLines = append(cuts, off), append(cutLines, line)
				next = off + step
			}
		}
		off = end + 1
	}
	switch state {
	case before, gap:
		return nil, false
	case body:
		bodyEnd, endLine = len(data), line
	}
	if len(cuts) < 2 {
		return nil, false
	}
	for i, at := range cuts {
		to := bodyEnd
		if i+1 < len(cuts) {
			to = cuts[i+1]
		}
		p.pieces = append(p.pieces, piece{text: data[at:to], line: cutLines[i]})
	}
	// The head: the kinds' lines left empty, so every line after them keeps
	// its number.
	p.head = make([]byte, 0, bodyStart+(endLine-bodyLine)+len(data)-bodyEnd)
	p.head = append(p.head, data[:bodyStart]...)
	for range endLine - bodyLine {
		p.head = append(p.head, '\n')
	}
	p.head = append(p.head, data[bodyEnd:]...)
	return p, true
}

// blankOrComment reports whether l holds only spaces, or spaces and then a
// comment; after a key's colon the spaces must come before the comment.
func blankOrComment(l []byte, afterColon bool) bool {
	n := indentOf(l)
	if n == len(l) {
		return true
	}
	return l[n] == '#' && (n > 0 || !afterColon)
}

// indentOf is how many spaces l starts with.
func indentOf(l []byte) int {
	n := 0
	for n < len(l) && l[n] == ' ' {
		n++
	}
	return n
}

// keyStart reports whether a line whose text starts with c may be cut
// before: a plain key starts so.
func keyStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// splitParse parses data in pieces (see above), returning the document node
// the whole parses to, or false when the text is not split, or a piece
// fails or is not what the whole would give: parse then reads it whole.
// Each piece's text is checked (text.go) where it is parsed; the loader
// keeps their problems for the kinds' node, which its walk then skips.
func (l *loader) splitParse(data []byte) (*yaml.Node, bool) {
	procs := runtime.GOMAXPROCS(0)
	if len(data) < splitMin || procs < 2 {
		return nil, false
	}
	p, ok := planSplit(data, 2*procs)
	if !ok {
		return nil, false
	}
	p.data, p.l = data, l
	doc, ok := p.parse()
	if ok {
		l.kindsNode = doc.Content[0].Content[p.kindsAt+1]
		for _, ps := range p.problems {
			l.kindsText = append(l.kindsText, ps...)
		}
	}
	return doc, ok
}

// parse parses the head and the pieces side by side and joins them.
func (p *splitPlan) parse() (*yaml.Node, bool) {
	roots := make([]*yaml.Node, len(p.pieces))
	anchors := make([][]string, len(p.pieces))
	p.problems = make([]Problems, len(p.pieces))
	var head *yaml.Node
	failed := make([]bool, len(p.pieces)+1)
	var wg sync.WaitGroup
	for i := range len(p.pieces) + 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				// Whatever yaml.v3 does with a piece, the whole document
				// is parsed again on the caller's goroutine.
				if recover() != nil {
					failed[i] = true
				}
			}()
			if i == len(p.pieces) {
				head = decodeOne(p.head)
				failed[i] = head == nil
				return
			}
			roots[i], anchors[i] = p.pieces[i].root(p.indent)
			failed[i] = roots[i] == nil
			if roots[i] != nil && p.l != nil {
				p.problems[i] = p.text(roots[i])
			}
		}()
	}
	wg.Wait()
	for _, f := range failed {
		if f {
			return nil, false
		}
	}
	// An alias after the kinds names the last anchor of its name before
	// it, which may be one of the kinds': the head, without them, would
	// find another or none.
	var named map[string]bool
	for _, as := range anchors {
		for _, a := range as {
			if named == nil {
				named = map[string]bool{}
			}
			named[a] = true
		}
	}
	if named != nil && aliasTo(head, named) {
		return nil, false
	}
	// The head's kinds value must be the empty value of the kinds: key.
	if len(head.Content) != 1 || head.Content[0].Kind != yaml.MappingNode {
		return nil, false
	}
	top := head.Content[0]
	var value *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		if k := top.Content[i]; k.Line == p.kindsL && k.Column == 1 {
			if k.Kind != yaml.ScalarNode || k.Value != "kinds" || k.Tag != "!!str" || k.Style != 0 {
				return nil, false
			}
			value = top.Content[i+1]
			if value.Kind != yaml.ScalarNode || value.Tag != "!!null" || value.Value != "" || value.Style != 0 || value.Anchor != "" {
				return nil, false
			}
			kinds := roots[0]
			n := 0
			for _, r := range roots {
				n += len(r.Content)
			}
			content := make([]*yaml.Node, 0, n)
			for _, r := range roots {
				content = append(content, r.Content...)
			}
			kinds.Content = content
			top.Content[i+1] = kinds
			p.kindsAt = i
			break
		}
	}
	if value == nil {
		return nil, false
	}
	return head, true
}

// root parses the piece alone: a block mapping whose first key is the
// piece's first line, at the kinds' indent. Its nodes get the lines they
// have in the whole document.
// The anchors it defines are returned too.
func (pc piece) root(indent int) (*yaml.Node, []string) {
	doc := decodeOne(pc.text)
	if doc == nil || len(doc.Content) != 1 {
		return nil, nil
	}
	r := doc.Content[0]
	if r.Kind != yaml.MappingNode || r.Style != 0 || r.Tag != "!!map" || r.Anchor != "" || r.Line != 1 || r.Column != indent+1 {
		return nil, nil
	}
	var anchors []string
	shiftLines(r, pc.line-1, &anchors)
	return r, anchors
}

// aliasTo reports whether the tree at n holds an alias to one of names.
func aliasTo(n *yaml.Node, names map[string]bool) bool {
	if n.Kind == yaml.AliasNode && names[n.Value] {
		return true
	}
	for _, c := range n.Content {
		if aliasTo(c, names) {
			return true
		}
	}
	return false
}

// text checks the text of a piece's kinds as the loader's walk does when it
// reaches them, with a loader of its own for the problems.
func (p *splitPlan) text(root *yaml.Node) Problems {
	pl := &loader{file: p.l.file, rawChecked: p.l.rawChecked}
	path := append(make([]string, 0, 16), "kinds")
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		sub := path
		if k.Kind == yaml.ScalarNode {
			sub = append(path, k.Value)
		}
		pl.text(p.data, k, sub)
		pl.text(p.data, v, sub)
	}
	return pl.problems
}

// decodeOne decodes the one document of text, or returns nil when it fails
// or holds another.
func decodeOne(text []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	if dec.Decode(&doc) != nil {
		return nil
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil
	}
	return &doc
}

// shiftLines moves every node of the tree at n down by lines, and adds the
// anchors the tree defines to anchors. An alias's anchor is a node of the
// tree and moves where it is.
func shiftLines(n *yaml.Node, lines int, anchors *[]string) {
	n.Line += lines
	if n.Anchor != "" {
		*anchors = append(*anchors, n.Anchor)
	}
	for _, c := range n.Content {
		shiftLines(c, lines, anchors)
	}
}
