package genopenapi

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/errgen/errgen/internal/orderedjson"

	"gopkg.in/yaml.v3"
)

// The responses' examples are most of a large contract's document: as
// valueNode's trees they were about 150 MB of nodes at 10,000 kinds. They
// now stay the Go values exampleenv made, each standing in the tree as one
// placeholder node that the writer writes from its value (writer.anyValue)
// by the rules it applies to the nodes valueNode would have made.
// TestValuesWriteAsTheirNodes holds the two paths to the same bytes.

// valueKind is the Kind of a placeholder node; yaml.v3 knows no such kind,
// and never sees one (values.materialize).
const valueKind yaml.Kind = 1 << 16

// values holds the values a document's placeholders stand for.
type values struct{ v []any }

// node returns a placeholder for v when valueNode takes v, and else the
// nodes the way through JSON makes.
func (vs *values) node(v any) *yaml.Node {
	if !valueOK(v) {
		return jsonNode(v)
	}
	return vs.placeholder(v)
}

// placeholder is node for a v known to be one valueOK takes.
func (vs *values) placeholder(v any) *yaml.Node {
	vs.v = append(vs.v, v)
	return &yaml.Node{Kind: valueKind, Line: len(vs.v) - 1}
}

// at is the value of the placeholder n.
func (vs *values) at(n *yaml.Node) any { return vs.v[n.Line] }

// materialize returns n with every placeholder in it replaced by its
// value's nodes, copying only the nodes above one.
func (vs *values) materialize(n *yaml.Node) *yaml.Node {
	if vs == nil || n == nil {
		return n
	}
	if n.Kind == valueKind {
		m, ok := valueNode(vs.at(n))
		if !ok {
			panic("genopenapi: a placeholder for a value valueNode declines")
		}
		return m
	}
	var content []*yaml.Node
	for i, c := range n.Content {
		m := vs.materialize(c)
		if m != c && content == nil {
			content = slices.Clone(n.Content)
		}
		if content != nil {
			content[i] = m
		}
	}
	if content == nil {
		return n
	}
	cp := *n
	cp.Content = content
	return &cp
}

// jsonNode is v's nodes: valueNode's, or the way through JSON for a value
// it declines.
func jsonNode(v any) *yaml.Node {
	n, ok := valueNode(v)
	if ok {
		return n
	}
	data, err := orderedjson.Marshal(v)
	if err != nil {
		panic(err) // exampleenv builds only JSON-safe values
	}
	if n, err = fromJSON(data); err != nil {
		panic(err)
	}
	return n
}

// valueOK reports whether valueNode takes v, without making its nodes.
func valueOK(v any) bool {
	// Texts and objects first, most of every example, and the object
	// before the interface case (a dynamic check); Object is no Ordered.
	switch v := v.(type) {
	case string:
		return utf8.ValidString(v)
	case orderedjson.Object:
		for _, m := range v {
			if !utf8.ValidString(m.Key) || !valueOK(m.Value) {
				return false
			}
		}
		return true
	case nil, bool, int, int64:
		return true
	case float64:
		return !math.IsNaN(v) && !math.IsInf(v, 0)
	case []string:
		for _, s := range v {
			if !utf8.ValidString(s) {
				return false
			}
		}
		return true
	case []any:
		for _, x := range v {
			if !valueOK(x) {
				return false
			}
		}
		return true
	case orderedjson.Ordered:
		return valueOK(v.AsObject())
	}
	return false
}

// anyValue is value(valueNode(v), indent) without the nodes; v is one that
// valueOK takes.
func (w *writer) anyValue(v any, indent int) bool {
	switch x := v.(type) {
	case nil:
		w.b.WriteString(" null\n")
		return true
	case bool:
		if x {
			w.b.WriteString(" true\n")
		} else {
			w.b.WriteString(" false\n")
		}
		return true
	case int:
		// strconv's text of an int is always what jsonInt takes.
		w.b.WriteByte(' ')
		w.b.Write(strconv.AppendInt(w.b.AvailableBuffer(), int64(x), 10))
		w.b.WriteByte('\n')
		return true
	case int64:
		w.b.WriteByte(' ')
		w.b.Write(strconv.AppendInt(w.b.AvailableBuffer(), x, 10))
		w.b.WriteByte('\n')
		return true
	case float64:
		tag, text := floatScalar(x)
		return w.anyScalar(tag, 0, text)
	case string:
		return w.anyScalar("!!str", strStyle(x), x)
	case []string:
		return anySequence(w, x, indent)
	case []any:
		return anySequence(w, x, indent)
	case orderedjson.Object: // (before Ordered, a dynamic check; Object is none)
		if len(x) == 0 {
			w.b.WriteString(" {}\n")
			return true
		}
		w.b.WriteByte('\n')
		return w.anyMapping(x, indent+2, false)
	case orderedjson.Ordered:
		return w.anyValue(x.AsObject(), indent)
	}
	return false
}

// anyScalar writes a scalar value as value does its node.
func (w *writer) anyScalar(tag string, style yaml.Style, text string) bool {
	q, ok := scalarQuoting(tag, style, text, false)
	if !ok {
		return false
	}
	w.b.WriteByte(' ')
	w.b.Write(appendQuoted(w.b.AvailableBuffer(), q, text))
	w.b.WriteByte('\n')
	return true
}

// anySequence is value of a sequence's node: null when nil, [] when empty.
func anySequence[E any](w *writer, items []E, indent int) bool {
	switch {
	case items == nil:
		w.b.WriteString(" null\n")
		return true
	case len(items) == 0:
		w.b.WriteString(" []\n")
		return true
	}
	w.b.WriteByte('\n')
	indent += 2
	for _, item := range items {
		if !w.anyItem(item, indent) {
			return false
		}
	}
	return true
}

// anyItem writes one item of a sequence at indent, as sequence does its
// node.
func (w *writer) anyItem(item any, indent int) bool {
	w.spaces(indent)
	w.b.WriteByte('-')
	obj, isObject := asObject(item)
	if isObject && len(obj) > 0 {
		w.b.WriteByte(' ')
		return w.anyMapping(obj, indent+2, true)
	}
	switch x := item.(type) {
	case []string:
		if len(x) > 0 {
			return false // "- - x": left to yaml.v3 with the entry around it
		}
	case []any:
		if len(x) > 0 {
			return false
		}
	}
	return w.anyValue(item, indent)
}

// asObject is the object v is, as valueNode reads it.
func asObject(v any) (orderedjson.Object, bool) {
	switch x := v.(type) {
	case nil, bool, int, int64, float64, string, []string, []any:
		return nil, false
	case orderedjson.Ordered:
		return x.AsObject(), true
	case orderedjson.Object:
		return x, true
	}
	return nil, false
}

// anyMapping is mapping of an object's node: an entry the writer cannot
// write goes to yaml.v3 as the nodes valueNode makes of it.
func (w *writer) anyMapping(obj orderedjson.Object, indent int, inline bool) bool {
	for i, m := range obj {
		start := w.b.Len()
		pad := indent
		if inline && i == 0 {
			pad = 0
		}
		if !w.anyEntry(m.Key, m.Value, indent, pad) {
			w.b.Truncate(start)
			if !w.fallback(str(m.Key), jsonNode(m.Value), indent, pad) {
				return false
			}
		}
	}
	return true
}

// anyEntry is entry of a member's nodes.
func (w *writer) anyEntry(key string, v any, indent, pad int) bool {
	q, ok := scalarQuoting("!!str", strStyle(key), key, true)
	if !ok {
		return false
	}
	w.spaces(pad)
	w.b.Write(appendQuoted(w.b.AvailableBuffer(), q, key))
	w.b.WriteByte(':')
	return w.anyValue(v, indent)
}

// size estimates the bytes the writer writes for n's entries at indent:
// writeDocument grows its buffer once to it instead of doubling up to a
// document of megabytes.
func (vs *values) size(n *yaml.Node, indent int) int {
	switch n.Kind {
	case valueKind:
		return anySize(vs.at(n), indent)
	case yaml.MappingNode:
		total := 0
		for i := 0; i+1 < len(n.Content); i += 2 {
			total += indent + len(n.Content[i].Value) + 1 + vs.size(n.Content[i+1], indent+2)
		}
		return total
	case yaml.SequenceNode:
		total := 0
		for _, item := range n.Content {
			total += indent + 2 + vs.size(item, indent+2)
		}
		return total
	}
	return len(n.Value) + 4
}

// anySize is size of valueNode(v)'s nodes.
func anySize(v any, indent int) int {
	switch v := v.(type) {
	case string:
		return len(v) + 4
	case []string:
		total := 0
		for _, s := range v {
			total += indent + 2 + len(s) + 4
		}
		return total + 6
	case []any:
		total := 0
		for _, x := range v {
			total += indent + 2 + anySize(x, indent+2)
		}
		return total + 6
	case orderedjson.Object: // (before Ordered, as in valueOK)
		total := 4
		for _, m := range v {
			total += indent + len(m.Key) + 1 + anySize(m.Value, indent+2)
		}
		return total
	case orderedjson.Ordered:
		return anySize(v.AsObject(), indent)
	}
	return 8 // a number, a boolean, null
}
