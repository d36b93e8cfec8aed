package genopenapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/errgen/errgen/internal/orderedjson"

	"gopkg.in/yaml.v3"
)

// The document is built as a yaml.Node tree rather than from Go maps: a
// mapping node keeps its keys in the order they are added, so the file reads
// in the order a person expects (the OpenAPI specification's order of
// fields, the contract's order of kinds, the wire order of envelopes), and
// the same contract always gives the same bytes.

// object is a YAML mapping being built, key by key.
type object struct{ n *yaml.Node }

func newObject() *object { return &object{&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}} }

// set appends key with its value; a nil value leaves the key out.
func (o *object) set(key string, v *yaml.Node) *object {
	if v != nil {
		o.n.Content = append(o.n.Content, str(key), v)
	}
	return o
}

// node returns the mapping; an empty one is written {}.
func (o *object) node() *yaml.Node {
	if len(o.n.Content) == 0 {
		o.n.Style = yaml.FlowStyle
	}
	return o.n
}

// yaml11Words are the plain scalars that a YAML 1.1 reader (PyYAML, and the
// OpenAPI tools built on one) takes for something other than a string: its
// booleans (no, on, y, ...), null, the merge key and the special floats.
// yaml.v3 writes YAML 1.2, where most of them are strings, and would leave
// them plain: a contract's same_arguments value "no" would be read back as
// false.
var yaml11Words = map[string]bool{}

func init() {
	for _, w := range strings.Fields("y Y yes Yes YES n N no No NO true True TRUE false False FALSE on On ON off Off OFF ~ null Null NULL << = .inf .Inf .INF .nan .NaN .NAN") {
		yaml11Words[w] = true
	}
}

// yaml11 reports whether a YAML 1.1 reader could take s for anything but a
// string: one of yaml11Words, or a text that starts like a number (1:20 is
// sexagesimal there, 2001-12-14 a timestamp), with an optional sign or dot
// before its first digit. A plain function rather than a regular
// expression: it is asked for every string of the document, example texts
// included, and answers from the first two bytes.
func yaml11(s string) bool {
	digit := func(i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }
	if digit(0) || len(s) > 0 && (s[0] == '-' || s[0] == '+' || s[0] == '.') && digit(1) {
		return true
	}
	return len(s) <= 5 && yaml11Words[s]
}

// str is a string scalar, quoted wherever a YAML 1.1 or 1.2 reader could
// take it for anything else.
func str(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: strStyle(s), Value: s}
}

// strStyle is the style str gives s; the writer's value path
// (writer.anyValue) asks it too, so that both paths quote alike.
func strStyle(s string) yaml.Style {
	if yaml11(s) {
		return yaml.DoubleQuotedStyle
	}
	return 0
}

func integer(n int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(n)}
}

// ref is a Reference Object.
func ref(target string) *yaml.Node { return newObject().set("$ref", str(target)).node() }

// fromJSON converts a JSON document into YAML nodes, keeping the order of
// every object's members and each number's digits as written.
func fromJSON(data []byte) (*yaml.Node, error) {
	// The JSON encoding/json and orderedjson write is read by hand (the
	// schemas of a large contract are megabytes: json.Decoder's tokens cost
	// more than the rest of their conversion); text the reader is not sure
	// of takes json.Decoder's way, which decides as before.
	r := jsonReader{data: data}
	if n, ok := r.value(0); ok {
		if r.space(); r.i == len(data) {
			return n, nil
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := jsonValue(dec)
	if err != nil {
		return nil, fmt.Errorf("genopenapi: converting JSON to YAML: %w", err)
	}
	return n, nil
}

// jsonReader reads the first JSON value of data into the nodes jsonValue
// makes of it. It declines (ok false) anything it does not read exactly as
// json.Decoder would: a string with an escape, a byte below 0x20 or
// ill-formed UTF-8 in it, a number that is not JSON's, nesting past
// maxJSONDepth, any syntax error.
type jsonReader struct {
	data []byte
	i    int
}

// maxJSONDepth is json.Decoder's nesting limit, which the reader leaves to it.
const maxJSONDepth = 10000

func (r *jsonReader) space() {
	for r.i < len(r.data) {
		switch r.data[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

func (r *jsonReader) value(depth int) (*yaml.Node, bool) {
	r.space()
	if r.i >= len(r.data) || depth > maxJSONDepth {
		return nil, false
	}
	switch c := r.data[r.i]; {
	case c == '{' || c == '[':
		r.i++
		kind, tag, end := yaml.MappingNode, "!!map", byte('}')
		if c == '[' {
			kind, tag, end = yaml.SequenceNode, "!!seq", ']'
		}
		n := &yaml.Node{Kind: kind, Tag: tag}
		r.space()
		if r.i < len(r.data) && r.data[r.i] == end {
			r.i++
			n.Style = yaml.FlowStyle // {} and []
			return n, true
		}
		for {
			if kind == yaml.MappingNode {
				r.space()
				key, ok := r.text()
				if !ok {
					return nil, false
				}
				r.space()
				if r.i >= len(r.data) || r.data[r.i] != ':' {
					return nil, false
				}
				r.i++
				n.Content = append(n.Content, str(key))
			}
			v, ok := r.value(depth + 1)
			if !ok {
				return nil, false
			}
			n.Content = append(n.Content, v)
			r.space()
			if r.i >= len(r.data) {
				return nil, false
			}
			switch r.data[r.i] {
			case ',':
				r.i++
				continue
			case end:
				r.i++
				return n, true
			}
			return nil, false
		}
	case c == '"':
		s, ok := r.text()
		if !ok {
			return nil, false
		}
		return str(s), true
	case c == '-' || c >= '0' && c <= '9':
		start := r.i
		for r.i < len(r.data) && strings.IndexByte("+-.0123456789eE", r.data[r.i]) >= 0 {
			r.i++
		}
		num := string(r.data[start:r.i])
		if !jsonNumber(num) {
			return nil, false
		}
		tag := "!!int"
		if strings.ContainsAny(num, ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: num}, true
	}
	for _, lit := range []struct{ text, tag string }{{"true", "!!bool"}, {"false", "!!bool"}, {"null", "!!null"}} {
		if bytes.HasPrefix(r.data[r.i:], []byte(lit.text)) {
			r.i += len(lit.text)
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: lit.tag, Value: lit.text}, true
		}
	}
	return nil, false
}

// text reads a string: its bytes when it has no escape and is well-formed
// UTF-8, else as json.Unmarshal reads it (the decoder's own unquoting).
func (r *jsonReader) text() (string, bool) {
	if r.i >= len(r.data) || r.data[r.i] != '"' {
		return "", false
	}
	start, plain := r.i+1, true
	for j := start; j < len(r.data); j++ {
		switch c := r.data[j]; {
		case c == '"':
			r.i = j + 1
			if plain && utf8.Valid(r.data[start:j]) {
				return string(r.data[start:j]), true
			}
			var s string
			if json.Unmarshal(r.data[start-1:j+1], &s) != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			plain = false
			j++
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}

// jsonNumber reports whether s is a number in JSON's grammar.
func jsonNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func jsonValue(dec *json.Decoder) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		kind, tag := yaml.MappingNode, "!!map"
		if t == '[' {
			kind, tag = yaml.SequenceNode, "!!seq"
		}
		n := &yaml.Node{Kind: kind, Tag: tag}
		for dec.More() {
			if kind == yaml.MappingNode {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, str(key.(string)))
			}
			v, err := jsonValue(dec)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, v)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		if len(n.Content) == 0 {
			n.Style = yaml.FlowStyle // {} and []
		}
		return n, nil
	case string:
		return str(t), nil
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(t.String(), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: t.String()}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(t)}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

// encode writes the document after the header comment, indented by two
// spaces, ending in exactly one newline.
func encode(header string, doc *yaml.Node) ([]byte, error) {
	out, err := encodeRaw(header, doc)
	if err != nil {
		return nil, err
	}
	return append(bytes.TrimRight(out, "\n"), '\n'), nil
}

// encodeRaw is encode without trimming the end: a block scalar that keeps
// its trailing line breaks ends in blank lines, which only the document's
// end may drop.
func encodeRaw(header string, doc *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(header)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("genopenapi: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("genopenapi: %w", err)
	}
	return buf.Bytes(), nil
}

// keywordOrder is the order in which a schema's keywords are written: what
// it is, then its type and constraints, then its members, then its
// conditions. encoding/json writes jsonschema.Schema in its struct's field
// order (properties first, the description last), which reads poorly in a
// document meant for people. Keywords not listed keep their place after
// these.
var keywordOrder = []string{
	"title", "description", "type", "const", "enum", "format", "pattern", "minLength", "maxLength", "minimum", "maximum",
	"items", "properties", "additionalProperties", "required", "minProperties", "allOf", "if", "then", "else", "oneOf", "anyOf", "not",
}

// tidySchema puts the keywords of the schema n and of every schema inside
// it in keywordOrder. The members of properties are names, not keywords:
// they keep the wire order.
func tidySchema(n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		return
	}
	rank := func(key string) int {
		if i := slices.Index(keywordOrder, key); i >= 0 {
			return i
		}
		return len(keywordOrder)
	}
	pairs := make([][2]*yaml.Node, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		pairs = append(pairs, [2]*yaml.Node{n.Content[i], n.Content[i+1]})
	}
	slices.SortStableFunc(pairs, func(a, b [2]*yaml.Node) int { return rank(a[0].Value) - rank(b[0].Value) })
	n.Content = n.Content[:0]
	for _, p := range pairs {
		n.Content = append(n.Content, p[0], p[1])
		switch v := p[1]; p[0].Value {
		case "properties":
			for i := 1; i < len(v.Content); i += 2 {
				tidySchema(v.Content[i])
			}
		case "allOf", "oneOf", "anyOf":
			for _, s := range v.Content {
				tidySchema(s)
			}
		case "items", "additionalProperties", "if", "then", "else", "not":
			tidySchema(v)
		}
	}
}

// valueNode is fromJSON(orderedjson.Marshal(v)) without the JSON in
// between, for the values example envelopes are made of; ok is false for
// any other, which takes the way through JSON. Every example of a
// 10,000-kind contract went through it twice, a quarter of the document's
// cost.
func valueNode(v any) (*yaml.Node, bool) {
	switch v := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, true
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}, true
	case int:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(v)}, true
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v, 10)}, true
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		tag, text := floatScalar(v)
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: text}, true
	case string:
		// JSON would turn ill-formed UTF-8 into U+FFFD.
		return str(v), utf8.ValidString(v)
	case []string:
		return sequenceNode(v)
	case []any:
		return sequenceNode(v)
	case orderedjson.Ordered:
		return valueNode(v.AsObject())
	case orderedjson.Object:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: make([]*yaml.Node, 0, 2*len(v))}
		for _, m := range v {
			x, ok := valueNode(m.Value)
			if !ok || !utf8.ValidString(m.Key) {
				return nil, false
			}
			n.Content = append(n.Content, str(m.Key), x)
		}
		return flowIfEmpty(n), true
	}
	return nil, false
}

// floatScalar is a finite float's tag and text as valueNode makes them:
// JSON's text (orderedjson.AppendFloat), an integer's tag when it has no
// fraction or exponent.
func floatScalar(v float64) (tag, text string) {
	text = string(orderedjson.AppendFloat(nil, v))
	if strings.ContainsAny(text, ".eE") {
		return "!!float", text
	}
	return "!!int", text
}

// sequenceNode is valueNode of a slice: null when nil, as JSON writes it.
func sequenceNode[E any](v []E) (*yaml.Node, bool) {
	if v == nil {
		return valueNode(nil)
	}
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: make([]*yaml.Node, len(v))}
	for i, x := range v {
		var ok bool
		if n.Content[i], ok = valueNode(x); !ok {
			return nil, false
		}
	}
	return flowIfEmpty(n), true
}

// flowIfEmpty writes an empty collection as {} or [], as fromJSON does.
func flowIfEmpty(n *yaml.Node) *yaml.Node {
	if len(n.Content) == 0 {
		n.Style = yaml.FlowStyle
	}
	return n
}
