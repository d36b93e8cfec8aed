package contract

import (
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// This file reads yaml.Node trees. The contract is decoded node by node rather
// than into structs so every value keeps its position, duplicate keys stay
// visible, and one run can report every problem instead of the first.

func posOf(n *yaml.Node) Pos {
	if n == nil {
		return Pos{Line: 1, Col: 1}
	}
	return Pos{Line: n.Line, Col: n.Column}
}

// pos is n's position, naming n's file when an import brought n in.
func (l *loader) pos(n *yaml.Node) Pos {
	p := posOf(n)
	if l.files != nil {
		p.File = l.files[n]
	}
	return p
}

// at is a node standing for p, for reporting at a position the model kept:
// it stays in p's file.
func (l *loader) at(p Pos) *yaml.Node {
	n := &yaml.Node{Line: p.Line, Column: p.Col}
	if p.File != "" {
		l.inFile(n, p.File)
	}
	return n
}

// fileOf names the file n was read from.
func (l *loader) fileOf(n *yaml.Node) string {
	if f := l.files[n]; f != "" {
		return f
	}
	return l.file
}

// inFile records that n was read from file, which is not the loaded
// contract's own.
func (l *loader) inFile(n *yaml.Node, file string) {
	if l.files == nil {
		l.files = map[*yaml.Node]string{}
	}
	l.files[n] = file
}

// where names p for a message about another entry: "line 12" in the same
// file as the problem at n, the file too in another.
func (l *loader) where(n *yaml.Node, p Pos) string {
	file := p.File
	if file == "" {
		file = l.file
	}
	if file == l.fileOf(n) {
		return fmt.Sprintf("line %d", p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Col)
}

func (l *loader) errorf(n *yaml.Node, format string, args ...any) {
	l.problems = append(l.problems, Problem{File: l.fileOf(n), Pos: posOf(n), Message: fmt.Sprintf(format, args...)})
}

// deref follows YAML aliases so anchors work like the values they name.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "nothing"
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		case "!!int":
			return "the integer " + n.Value
		case "!!bool":
			return "the boolean " + n.Value
		case "!!float":
			return "the number " + n.Value
		}
		return n.Value
	}
	return "an unsupported YAML value"
}

// mapping is one YAML mapping being read. It records which keys were read so
// done can report the rest as unknown, with a spelling suggestion.
type mapping struct {
	l    *loader
	node *yaml.Node // the mapping node itself
	at   *yaml.Node // where to report a missing key: the owning key, or the mapping
	what string     // prefix for messages, e.g. `kind "forbidden": `
	keys []*yaml.Node
	vals []*yaml.Node
	// index finds a key of a large mapping (a section listing thousands of
	// kinds); nil for the small ones, which a scan searches faster than a map
	// is built.
	index map[string]int
	// missed are the required keys found missing, reported by done unless
	// an unknown key is a misspelling of one of them: then the single
	// "unknown key ... did you mean" problem says everything.
	missed []missedKey
	// merge is set when the mapping used an unsupported merge key (<<); its
	// missing keys are then not reported, as they were likely meant to
	// come from the merge.
	merge bool
	// in are the mappings of fields and field definitions that hold this
	// one, outermost first: properties that an alias makes one of them
	// would be read without end.
	in []*yaml.Node
}

type missedKey struct {
	key     string
	problem Problem
}

// asMapping returns n as a mapping, or reports what it is instead and returns
// nil. at is the node that names n (its key), used for "missing" messages.
func (l *loader) asMapping(n, at *yaml.Node, what, name string) *mapping {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		target := n
		if target == nil || (target.Kind == yaml.ScalarNode && target.Tag == "!!null") {
			target = at
		}
		subject := what + name
		if name == "" {
			subject = strings.TrimSuffix(what, ": ")
		}
		l.errorf(target, "%s must be a mapping, found %s", subject, describeNode(orEmpty(n)))
		return nil
	}
	if at == nil {
		at = n
	}
	m := &mapping{l: l, node: n, at: at, what: what}
	if len(n.Content)/2 > smallMapping {
		m.index = make(map[string]int, len(n.Content)/2)
	}
	m.keys = make([]*yaml.Node, 0, len(n.Content)/2)
	m.vals = make([]*yaml.Node, 0, len(n.Content)/2)
	where := what
	if where == "" && name != "" && at != n {
		where = name + ": " // a top-level section
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			l.errorf(k, "%skeys must be plain names, found %s", where, describeNode(k))
			continue
		}
		if k.ShortTag() == "!!merge" {
			l.errorf(k, "%smerge keys (<<) are not supported; write the keys out, or alias a whole value (e.g. recovery: *name)", where)
			m.merge = true
			continue
		}
		if first := m.find(k.Value); first >= 0 {
			l.errorf(k, "%sduplicate key %q (first at line %d); a key may appear only once, so remove or rename one", where, k.Value, m.keys[first].Line)
			continue
		}
		if m.index != nil {
			m.index[k.Value] = len(m.keys)
		}
		m.keys = append(m.keys, k)
		m.vals = append(m.vals, v)
	}
	return m
}

// smallMapping is the size up to which a mapping has no index.
const smallMapping = 16

// find returns the position of key among the mapping's keys, or -1.
func (m *mapping) find(key string) int {
	if m.index != nil {
		if i, ok := m.index[key]; ok {
			return i
		}
		return -1
	}
	for i, k := range m.keys {
		if k.Value == key {
			return i
		}
	}
	return -1
}

// mapGet returns the key and value of key in the mapping node m, reporting
// nothing: for a look at a tree before (or without) reading it as a mapping.
func mapGet(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], deref(m.Content[i+1])
		}
	}
	return nil, nil
}

func orEmpty(n *yaml.Node) *yaml.Node {
	if n == nil {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
	}
	return n
}

// done reports every key outside allowed, and the required keys found
// missing. Every mapping that can miss a key must end with done.
func (m *mapping) done(allowed ...string) {
	// It runs for every kind: a scan of the dozen allowed keys, and no map
	// unless a key is unknown.
	var meant map[string]bool
	for _, k := range m.keys {
		if !contains(allowed, k.Value) {
			if meant == nil {
				meant = map[string]bool{}
			}
			sorted := append([]string(nil), allowed...)
			sort.Strings(sorted)
			m.l.errorf(k, "%sunknown key %q%s; allowed keys: %s", m.what, k.Value, suggest(k.Value, allowed), joinPlain(sorted))
			meant[closest(k.Value, allowed)] = true
		}
	}
	for _, mk := range m.missed {
		if !meant[mk.key] && !m.merge {
			m.l.problems = append(m.l.problems, mk.problem)
		}
	}
	m.missed = nil
}

func joinPlain(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// get returns the key and value nodes for key, or nils.
func (m *mapping) get(key string) (*yaml.Node, *yaml.Node) {
	i := m.find(key)
	if i < 0 {
		return nil, nil
	}
	return m.keys[i], deref(m.vals[i])
}

func (m *mapping) missing(key string) {
	m.missingf(key, m.at, "%smissing required key %q", m.what, key)
}

// missingf records that the required key is missing; done reports it.
func (m *mapping) missingf(key string, at *yaml.Node, format string, args ...any) {
	m.missed = append(m.missed, missedKey{key, Problem{File: m.l.fileOf(at), Pos: posOf(at), Message: fmt.Sprintf(format, args...)}})
}

// scalar returns the value node of key when it is a non-null scalar with the
// wanted tag; it reports a wrong type and returns nil.
func (m *mapping) scalar(key string, required bool, tag, want string) *yaml.Node {
	k, v := m.get(key)
	if k == nil {
		if required {
			m.missing(key)
		}
		return nil
	}
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		if required {
			m.l.errorf(k, "%s%s must not be empty", m.what, key)
		} else {
			m.l.errorf(k, "%s%s is empty; give %s or remove the key", m.what, key, want)
		}
		return nil
	}
	if v.Kind != yaml.ScalarNode || v.Tag != tag {
		hint := ""
		switch {
		case v.Kind != yaml.ScalarNode:
		case tag == "!!str":
			hint = " (quote it)"
		case v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 &&
			(&yaml.Node{Kind: yaml.ScalarNode, Value: v.Value}).ShortTag() == tag:
			hint = " (remove the quotes)"
		case tag == "!!bool" && v.Style == 0 && yaml11Bools[strings.ToLower(v.Value)] != "":
			hint = fmt.Sprintf(" (YAML 1.2 reads an unquoted %s as a string; write %s)", v.Value, yaml11Bools[strings.ToLower(v.Value)])
		}
		m.l.errorf(v, "%s%s must be %s, found %s%s", m.what, key, want, describeNode(v), hint)
		return nil
	}
	return v
}

// yaml11Bools are the YAML 1.1 spellings of booleans that YAML 1.2 (and so
// the contract) reads as plain strings.
var yaml11Bools = map[string]string{"yes": "true", "no": "false", "on": "true", "off": "false", "y": "true", "n": "false"}

// str reads a string value. A required string must also be non-blank.
func (m *mapping) str(key string, required bool) (string, *yaml.Node) {
	v := m.scalar(key, required, "!!str", "a string")
	if v == nil {
		return "", nil
	}
	if required && isBlank(v.Value) {
		m.l.errorf(v, "%s%s must not be blank", m.what, key)
	}
	return v.Value, v
}

func isBlank(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
			return false
		}
	}
	return true
}

func (m *mapping) integer(key string, required bool) (int, *yaml.Node) {
	v := m.scalar(key, required, "!!int", "an integer")
	if v == nil {
		return 0, nil
	}
	var n int
	if err := v.Decode(&n); err != nil {
		m.l.errorf(v, "%s%s: %q is not a usable integer", m.what, key, v.Value)
		return 0, nil
	}
	return n, v
}

func (m *mapping) boolean(key string, required bool) (bool, *yaml.Node) {
	v := m.scalar(key, required, "!!bool", "true or false")
	if v == nil {
		return false, nil
	}
	var b bool
	if err := v.Decode(&b); err != nil {
		m.l.errorf(v, "%s%s must be true or false, found %q", m.what, key, v.Value)
		return false, nil
	}
	return b, v
}

// keyPos is where each key of the mapping is written, for reports that
// point at one setting of a section (errgen compat).
func (m *mapping) keyPos() map[string]Pos {
	out := make(map[string]Pos, len(m.keys))
	for _, k := range m.keys {
		if _, dup := out[k.Value]; !dup {
			out[k.Value] = m.l.pos(k)
		}
	}
	return out
}

// entries iterates the key/value pairs of a named section, in file order.
func (m *mapping) each(fn func(k, v *yaml.Node)) {
	for i, k := range m.keys {
		fn(k, deref(m.vals[i]))
	}
}
