package readerdiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// node is a JSON value that keeps its members in document order, so that a
// seed input serializes back as it was and a mutation changes only what it
// means to. A leaf holds its JSON text as it will be written (raw), which
// may be text no JSON encoder would write: an ill-formed UTF-8 byte, a lone
// surrogate escape, a number past the limits.
type node struct {
	kind    nodeKind
	members []member // object
	items   []*node  // array
	raw     []byte   // string, number, literal
}

type nodeKind int

const (
	nodeObject nodeKind = iota
	nodeArray
	nodeLeaf
)

type member struct {
	key []byte // the key's JSON text, quotes included
	val *node
}

// parseTree reads valid JSON into a tree; an error for anything else.
func parseTree(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("readerdiff: text after the value")
	}
	return n, nil
}

func parseNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	return nodeFrom(dec, tok)
}

func nodeFrom(dec *json.Decoder, tok json.Token) (*node, error) {
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &node{kind: nodeObject}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseNode(dec)
				if err != nil {
					return nil, err
				}
				n.members = append(n.members, member{key: quote(k.(string)), val: v})
			}
			_, err := dec.Token()
			return n, err
		case '[':
			n := &node{kind: nodeArray}
			for dec.More() {
				v, err := parseNode(dec)
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, v)
			}
			_, err := dec.Token()
			return n, err
		}
		return nil, errors.New("readerdiff: unexpected delimiter")
	case string:
		return leaf(quote(t)), nil
	case json.Number:
		return leaf([]byte(t)), nil
	case bool:
		return leaf([]byte(strconv.FormatBool(t))), nil
	case nil:
		return leaf([]byte("null")), nil
	}
	return nil, errors.New("readerdiff: unexpected token")
}

func leaf(raw []byte) *node { return &node{kind: nodeLeaf, raw: raw} }

// str is a string leaf holding s.
func str(s string) *node { return leaf(quote(s)) }

// quote writes s as a JSON string as Go's encoder does, without HTML
// escaping.
func quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// unquote reads a string leaf; ok is false for any other leaf, or one a
// mutation made unreadable.
func (n *node) unquote() (string, bool) {
	if n.kind != nodeLeaf || len(n.raw) == 0 || n.raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(n.raw, &s) != nil || !utf8.Valid(n.raw) {
		return "", false
	}
	return s, true
}

func (n *node) clone() *node {
	c := &node{kind: n.kind, raw: n.raw}
	for _, m := range n.members {
		c.members = append(c.members, member{key: m.key, val: m.val.clone()})
	}
	for _, it := range n.items {
		c.items = append(c.items, it.clone())
	}
	return c
}

func (n *node) bytes() []byte { return n.appendTo(nil) }

func (n *node) appendTo(b []byte) []byte {
	switch n.kind {
	case nodeObject:
		b = append(b, '{')
		for i, m := range n.members {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, m.key...)
			b = append(b, ':')
			b = m.val.appendTo(b)
		}
		return append(b, '}')
	case nodeArray:
		b = append(b, '[')
		for i, it := range n.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.appendTo(b)
		}
		return append(b, ']')
	}
	return append(b, n.raw...)
}

// get returns the value of the object member key (its last occurrence).
func (n *node) get(key string) *node {
	if n == nil || n.kind != nodeObject {
		return nil
	}
	q := quote(key)
	for i := len(n.members) - 1; i >= 0; i-- {
		if bytes.Equal(n.members[i].key, q) {
			return n.members[i].val
		}
	}
	return nil
}

// spot is a place in a tree: a node, its depth (the document's own value
// at depth 1) and how to replace it.
type spot struct {
	n     *node
	depth int
	set   func(*node)
}

// spots lists every node of the tree rooted at *root.
func spots(root **node) []spot {
	var out []spot
	var walk func(n *node, depth int, set func(*node))
	walk = func(n *node, depth int, set func(*node)) {
		out = append(out, spot{n: n, depth: depth, set: set})
		for i := range n.members {
			m := &n.members[i]
			walk(m.val, depth+1, func(v *node) { m.val = v })
		}
		for i := range n.items {
			i := i
			walk(n.items[i], depth+1, func(v *node) { n.items[i] = v })
		}
	}
	walk(*root, 1, func(v *node) { *root = v })
	return out
}

// repeatsMember reports whether an object anywhere in the tree holds a
// member name twice.
func (n *node) repeatsMember() bool {
	seen := map[string]bool{}
	for _, m := range n.members {
		if seen[string(m.key)] || m.val.repeatsMember() {
			return true
		}
		seen[string(m.key)] = true
	}
	for _, it := range n.items {
		if it.repeatsMember() {
			return true
		}
	}
	return false
}
