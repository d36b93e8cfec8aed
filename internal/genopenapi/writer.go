package genopenapi

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// The document's YAML is written by writeDocument, not by yaml.v3's
// encoder, for the size of it: yaml.v3's emitter keeps every event of a
// document in a queue that it never shortens, so writing a 10,000-kind
// contract's examples allocated about 1 GB, two thirds of the emitter's
// cost. writeDocument writes the block layout yaml.v3 writes with an indent
// of two (mappings key per line, sequences "- " at the key's indent plus
// two, a mapping in a sequence item opening on the dash's line, empty
// collections as {} and []), and the scalars whose style it can decide
// exactly: single-line printable text, plain where yaml.v3's analysis
// allows it and single-quoted where it does not, the double-quoted strings
// str marks for YAML 1.1 readers, and JSON's numbers, booleans and null.
// Any other entry (a multi-line description, a non-printable character, a
// text a YAML 1.2 reader would resolve to something else, a long key) is
// written by yaml.v3 itself, nested at the same indent: its output there
// depends on nothing but the indent, since the encoder wraps no lines.
// TestWriterMatchesYAMLv3 holds every document and a corpus of awkward
// texts to yaml.v3's bytes; FuzzWriter looks for more.
//
// A placeholder node (values.node) stands for a value that the writer
// writes straight from Go values (writer.anyValue), with the rules it
// applies to nodes, as if it were valueNode's tree: the examples, most of
// the document, then cost no node each. yaml.v3 gets the nodes
// (values.materialize) wherever it writes an entry holding one.
func writeDocument(header string, doc *yaml.Node, vals *values) ([]byte, error) {
	w := &writer{vals: vals}
	est := len(header) + vals.size(doc, 0)
	w.b.Grow(est + est/16 + 1<<12)
	w.b.WriteString(header)
	if doc.Kind != yaml.MappingNode || len(doc.Content) == 0 || !w.mapping(doc, 0, false) {
		return encode(header, vals.materialize(doc))
	}
	return append(bytes.TrimRight(w.b.Bytes(), "\n"), '\n'), nil
}

type writer struct {
	b    bytes.Buffer
	vals *values
	// quoted caches yaml.v3's rendering of the entries it writes for the
	// writer, by indent and text: the same reference and description recur
	// in every response.
	quoted map[fallbackKey][]byte
}

type fallbackKey struct {
	indent         int
	keyStyle       yaml.Style
	valueStyle     yaml.Style
	key, value     string
	keyTag, valTag string
}

// mapping writes the entries of m at indent; inline writes the first one
// on the current line (after a sequence item's dash). It reports false when
// an entry could be written neither way.
func (w *writer) mapping(m *yaml.Node, indent int, inline bool) bool {
	if !plainNode(m) {
		return false
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		start := w.b.Len()
		pad := indent
		if inline && i == 0 {
			pad = 0
		}
		if !w.entry(k, v, indent, pad) {
			w.b.Truncate(start)
			if !w.fallback(k, v, indent, pad) {
				return false
			}
		}
	}
	return true
}

// entry writes one key and its value, the key at indent (pad spaces of it
// on this line).
func (w *writer) entry(k, v *yaml.Node, indent, pad int) bool {
	key, ok := scalarText(k, true)
	if !ok {
		return false
	}
	w.spaces(pad)
	w.b.WriteString(key)
	w.b.WriteByte(':')
	return w.value(v, indent)
}

// value writes what follows a key's colon or an item's dash.
func (w *writer) value(v *yaml.Node, indent int) bool {
	switch v.Kind {
	case valueKind:
		return w.anyValue(w.vals.at(v), indent)
	case yaml.ScalarNode:
		text, ok := scalarText(v, false)
		if !ok {
			return false
		}
		w.b.WriteByte(' ')
		w.b.WriteString(text)
		w.b.WriteByte('\n')
		return true
	case yaml.MappingNode, yaml.SequenceNode:
		if len(v.Content) == 0 {
			if v.Style != yaml.FlowStyle || !plainNode(v) {
				return false
			}
			if v.Kind == yaml.MappingNode {
				w.b.WriteString(" {}\n")
			} else {
				w.b.WriteString(" []\n")
			}
			return true
		}
		if v.Style != 0 {
			return false
		}
		w.b.WriteByte('\n')
		if v.Kind == yaml.MappingNode {
			return w.mapping(v, indent+2, false)
		}
		return w.sequence(v, indent+2)
	}
	return false
}

// sequence writes the items of s at indent.
func (w *writer) sequence(s *yaml.Node, indent int) bool {
	if !plainNode(s) {
		return false
	}
	for _, item := range s.Content {
		if item.Kind == valueKind {
			if !w.anyItem(w.vals.at(item), indent) {
				return false
			}
			continue
		}
		w.spaces(indent)
		w.b.WriteByte('-')
		if item.Kind == yaml.MappingNode && len(item.Content) > 0 && item.Style == 0 {
			w.b.WriteByte(' ')
			if !w.mapping(item, indent+2, true) {
				return false
			}
			continue
		}
		if item.Kind == yaml.SequenceNode && len(item.Content) > 0 {
			return false // "- - x": left to yaml.v3 with the entry around it
		}
		if !w.value(item, indent) {
			return false
		}
	}
	return true
}

func (w *writer) spaces(n int) {
	for n > len(blanks) {
		w.b.WriteString(blanks)
		n -= len(blanks)
	}
	w.b.WriteString(blanks[:n])
}

// blanks are the spaces an indent is cut from (a run of them, not a byte at
// a time: the examples' lines of a large document are indented by eight to
// sixteen).
const blanks = "                                                                "

// fallback writes the entry k: v with yaml.v3, nested in mappings so that
// its key sits at indent, and keeps the entry's own lines (the first
// without its indent when pad is 0).
func (w *writer) fallback(k, v *yaml.Node, indent, pad int) bool {
	fk := fallbackKey{indent: indent}
	// The key holds the scalars' texts, tags and styles, not their comments
	// or anchors: an entry with those is not cached.
	cacheable := k.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode && plainNode(k) && plainNode(v)
	if cacheable {
		fk = fallbackKey{indent: indent, keyStyle: k.Style, valueStyle: v.Style, key: k.Value, value: v.Value, keyTag: k.Tag, valTag: v.Tag}
	}
	out, ok := w.quoted[fk]
	if !ok || !cacheable {
		doc := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{w.vals.materialize(k), w.vals.materialize(v)}}
		for range indent / 2 {
			doc = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: "a"}, doc}}
		}
		var err error
		if out, err = encodeRaw("", doc); err != nil {
			return false // writeDocument hands the whole document to encode, which reports it
		}
		for range indent / 2 {
			out = out[bytes.IndexByte(out, '\n')+1:]
		}
		if cacheable {
			if w.quoted == nil {
				w.quoted = map[fallbackKey][]byte{}
			}
			w.quoted[fk] = out
		}
	}
	w.b.Write(out[indent-pad:])
	return true
}

// plainNode reports whether n carries nothing the writer does not write:
// comments, anchors, aliases, an explicit tag style, or a collection's tag
// other than its implicit one (yaml.v3 writes "key: !custom").
func plainNode(n *yaml.Node) bool {
	switch {
	case n.Kind == yaml.MappingNode && n.Tag != "" && n.Tag != "!!map",
		n.Kind == yaml.SequenceNode && n.Tag != "" && n.Tag != "!!seq":
		return false
	}
	return n.HeadComment == "" && n.LineComment == "" && n.FootComment == "" && n.Anchor == "" && n.Alias == nil && n.Style&yaml.TaggedStyle == 0
}

// scalarText is a scalar as yaml.v3 writes it as a mapping's key or value,
// when the writer can tell; ok false leaves it to yaml.v3.
func scalarText(n *yaml.Node, key bool) (string, bool) {
	if n.Kind != yaml.ScalarNode || !plainNode(n) {
		return "", false
	}
	q, ok := scalarQuoting(n.Tag, n.Style, n.Value, key)
	if !ok || q == quoteNone {
		return n.Value, ok
	}
	return string(appendQuoted(nil, q, n.Value)), true
}

// quoting is how the writer writes a scalar's text: as it is, in double
// quotes (escaping " and \), or in single quotes (doubling ').
type quoting uint8

const (
	quoteNone quoting = iota
	quoteDouble
	quoteSingle
)

// scalarQuoting is how yaml.v3 writes a plain (no comment, anchor or tag
// style) scalar of the tag, style and text as a mapping's key or value, when
// the writer can tell; ok false leaves it to yaml.v3. Both the node path
// (scalarText) and the value path (writer.anyValue) decide by it.
func scalarQuoting(tag string, style yaml.Style, s string, key bool) (quoting, bool) {
	if key && len(s) > 128 {
		return 0, false // yaml.v3 writes a long key of any tag as "? key"
	}
	switch tag {
	case "!!int":
		return quoteNone, style == 0 && jsonInt(s)
	case "!!float":
		return quoteNone, style == 0 && jsonFloat(s)
	case "!!bool":
		return quoteNone, style == 0 && (s == "true" || s == "false")
	case "!!null":
		return quoteNone, style == 0 && s == "null"
	case "!!str":
	default:
		return 0, false
	}
	if s == "" || !singleLine(s) {
		return 0, false
	}
	switch style {
	case yaml.DoubleQuotedStyle:
		return quoteDouble, true
	case 0:
	default:
		return 0, false
	}
	// A plain text that a YAML 1.2 reader resolves to a number, a boolean
	// or null is double-quoted by yaml.v3: those start with a sign, a dot
	// or a digit, or are one of yaml11Words (a superset of yaml.v3's words).
	if c := s[0]; c == '+' || c == '-' || c == '.' || c >= '0' && c <= '9' || len(s) <= 5 && yaml11Words[s] {
		return 0, false
	}
	if plainAllowed(s) {
		return quoteNone, true
	}
	return quoteSingle, true
}

// appendQuoted appends s as scalarQuoting's q writes it.
func appendQuoted(b []byte, q quoting, s string) []byte {
	switch q {
	case quoteDouble:
		b = append(b, '"')
		for i := 0; i < len(s); i++ {
			if s[i] == '"' || s[i] == '\\' {
				b = append(b, '\\')
			}
			b = append(b, s[i])
		}
		return append(b, '"')
	case quoteSingle:
		b = append(b, '\'')
		for i := 0; i < len(s); i++ {
			if s[i] == '\'' {
				b = append(b, '\'')
			}
			b = append(b, s[i])
		}
		return append(b, '\'')
	}
	return append(b, s...)
}

// singleLine reports whether s is one line of characters yaml.v3 writes as
// they are (its is_printable, less the line breaks and tabs): a text the
// writer may quote itself.
func singleLine(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c <= 0x7e {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return false // a control, or DEL
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || r < 0xa0 || r > 0xfffd || r >= 0xd800 && r <= 0xdfff || r == 0xfeff || r == 0x2028 || r == 0x2029 {
			return false
		}
		i += size
	}
	return true
}

// plainAllowed is yaml.v3's analysis of a single-line printable text for a
// plain scalar in block context: no leading or trailing space, no document
// marker, no indicator at its start, no ": " and no " #".
func plainAllowed(s string) bool {
	if s[0] == ' ' || s[len(s)-1] == ' ' || strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		return false
	}
	spaceAfter := func(i int) bool { return i+1 >= len(s) || s[i+1] == ' ' }
	switch s[0] {
	case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '?', ':', '-':
		if spaceAfter(0) {
			return false
		}
	}
	// Each ':' and '#' after the first byte, found by IndexByte (every
	// string of a large document's examples is asked).
	for i := 1; i < len(s); i++ {
		j := strings.IndexByte(s[i:], ':')
		if j < 0 {
			break
		}
		if i += j; spaceAfter(i) {
			return false
		}
	}
	for i := 1; i < len(s); i++ {
		j := strings.IndexByte(s[i:], '#')
		if j < 0 {
			break
		}
		if i += j; s[i-1] == ' ' {
			return false
		}
	}
	return true
}

// jsonInt reports whether s is an integer as JSON writes it that yaml.v3
// resolves to one (within int64).
func jsonInt(s string) bool {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(digits) > 1 && digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
		return false
	}
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// jsonFloat reports whether s is a number as JSON writes it, with a
// fraction or an exponent, that yaml.v3 resolves to a float: its float
// pattern, [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?, holds every
// such number.
func jsonFloat(s string) bool {
	mant, exp, hasExp := strings.Cut(strings.ToLower(strings.TrimPrefix(s, "-")), "e")
	whole, frac, hasFrac := strings.Cut(mant, ".")
	if !hasExp && !hasFrac || !digitsOnly(whole) || hasFrac && !digitsOnly(frac) {
		return false
	}
	if hasExp && !digitsOnly(strings.TrimLeft(exp, "+-")) || len(exp) > 0 && strings.Count(exp, "+")+strings.Count(exp, "-") > 1 {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func digitsOnly(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
