package contract

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Load parses and validates a contract. file is the name used in positions.
// On any problem it returns a nil contract and Problems listing all of them.
// A contract that imports others needs LoadWith.
func Load(file string, data []byte) (*Contract, error) {
	return LoadWith(file, data, nil)
}

// LoadWith is Load for a contract whose imports r resolves (the files they
// name are loaded first, and problems in them are reported in them).
func LoadWith(file string, data []byte, r Resolver) (*Contract, error) {
	s := &session{r: r, done: map[string]*loaded{}}
	root := &ImportFile{Path: file, Name: file, Data: data}
	if _, ok := r.(*Files); ok {
		root.Key = realPath(file)
	}
	out := s.load(root)
	if out.c == nil {
		ps := dedupe(out.problems)
		ps.sortFor(file)
		return nil, ps
	}
	return out.c, nil
}

func newLoader(file string) *loader {
	return &loader{file: file, broken: map[string]bool{}, numbered: map[*Kind]*yaml.Node{},
		ruleItems: map[*Rule]*ruleItems{}, brokenClassifiers: map[string]bool{}}
}

type loader struct {
	file     string
	problems Problems
	// declared holds, per section, every name declared there, including
	// names whose definition is broken; broken marks sections that are
	// missing or unreadable. A reference into either was already reported
	// where the declaration is, so it is not reported again as unknown.
	declared map[string]map[string]bool
	broken   map[string]bool
	// numbered maps kinds that carry a number to the number's node.
	numbered map[*Kind]*yaml.Node
	// ruleItems are the nodes of each classifier rule's conditions, and
	// brokenClassifiers the classifiers with a problem of their own: the
	// agreement check reports at the condition a disagreement comes from,
	// and evaluates only classifiers that loaded whole.
	ruleItems         map[*Rule]*ruleItems
	brokenClassifiers map[string]bool
	// files names the file of every node an import brought in (imports.go);
	// nil when the contract imports nothing. A node not in it is the
	// contract's own.
	files map[*yaml.Node]string
	// imported are the contracts imported, by file, for naming them;
	// bases are the directly imported contracts, loaded.
	imported map[string]*Import
	bases    []*Contract
	// wire is the first contract imported, nil for none: the wire names
	// that a contract's surfaces default from its name (the problem type
	// base, the ErrorInfo domain) are the base's, as the rest of the wire.
	wire *Contract
	// rawChecked is set when rawText has reported the forbidden characters
	// written directly in the file, leaving text only the escapes.
	rawChecked bool
	// kindsNode is the kinds' mapping when it was parsed in pieces, and
	// kindsText what text found in them, checked where they were parsed.
	kindsNode *yaml.Node
	kindsText Problems
	// kindsReserved are reservedKind's problems for the kinds read side
	// by side, in the order of the contract's kinds.
	kindsReserved []kindReserved
}

// numbers checks that kind numbers are all-or-nothing and unique.
func (l *loader) numbers(c *Contract) {
	if len(l.numbered) == 0 {
		return
	}
	c.Numbered = true
	if l.numbersOverBase(c) {
		return
	}
	byNumber := map[int]*Kind{}
	for _, k := range c.Kinds {
		n, ok := l.numbered[k]
		if !ok {
			l.errorf(l.at(k.Pos), "kind %q: missing number; when one kind has a number, every kind needs one", k.Name)
			continue
		}
		if n == nil {
			continue
		}
		if other, dup := byNumber[k.Number]; dup {
			l.errorf(n, "kind %q: number %d is already kind %q's (%s); numbers must be unique", k.Name, k.Number, other.Name, l.where(n, other.Pos))
			continue
		}
		byNumber[k.Number] = k
	}
}

// numbersOverBase reports the numbers of a contract's own kinds when a
// contract it imports numbers none of its kinds: the base loaded whole, so
// the own numbers are what broke all-or-nothing, not the base's kinds.
func (l *loader) numbersOverBase(c *Contract) bool {
	var bare *Kind
	for _, k := range c.Kinds {
		if _, ok := l.numbered[k]; !ok && k.Pos.File != "" {
			bare = k
			break
		}
	}
	if bare == nil {
		return false
	}
	from := l.owner(l.at(bare.Pos))
	var numbered *Kind
	for _, k := range c.Kinds {
		n, ok := l.numbered[k]
		if !ok || n == nil {
			continue
		}
		if numbered == nil {
			numbered = k
		}
		if k.Pos.File == "" {
			l.errorf(n, "kind %q: number: the imported contract %s numbers none of its kinds (kind %q, %s), and when one kind has a number every kind needs one: remove the number", k.Name, from, bare.Name, l.where(n, bare.Pos))
			numbered = nil
		}
	}
	if imp := l.imported[bare.Pos.File]; numbered != nil && imp != nil {
		// Two imports, one numbered: neither is wrong alone.
		at := l.at(imp.Pos)
		l.errorf(at, "imports: %s numbers its kinds (kind %q, %s) but %s numbers none (kind %q, %s); contracts imported together must agree, as every kind needs a number when one has",
			l.owner(l.at(numbered.Pos)), numbered.Name, l.where(at, numbered.Pos), from, bare.Name, l.where(at, bare.Pos))
	}
	return true
}

func (l *loader) declare(section, name string) {
	if l.declared == nil {
		l.declared = map[string]map[string]bool{}
	}
	if l.declared[section] == nil {
		l.declared[section] = map[string]bool{}
	}
	l.declared[section][name] = true
}

// reported says whether a reference to name in section cannot be resolved
// because of a problem already reported.
func (l *loader) reported(section, name string) bool {
	return l.broken[section] || l.declared[section][name]
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parse returns the document's root mapping, or nil after reporting why there
// is none.
func (l *loader) parse(data []byte) *yaml.Node {
	at := func(line int, msg string) {
		l.problems = append(l.problems, Problem{File: l.file, Pos: Pos{Line: line, Col: 1}, Message: msg})
	}
	if doc, ok := l.splitParse(data); ok {
		// One document, parsed in pieces (splitparse.go): what follows
		// the decoding below, on the same tree.
		return l.aliasesChecked(data, l.rootOf(doc))
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			at(1, "the contract is empty; it needs at least the contract, origins, recovery_actions, same_arguments, side_effects, groups, kinds and fallback sections")
			return nil
		}
		l.syntaxError(data, err)
		return nil
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		at(extra.Line, "the contract must be a single YAML document; remove the second one (after ---)")
	} else if !errors.Is(err, io.EOF) {
		l.syntaxError(data, err)
	}
	return l.aliasesChecked(data, l.rootOf(&doc))
}

// aliasesChecked is root, or nil when its aliases add more than the
// contract may read (checkAliases); only a text holding a '*' can hold an
// alias.
func (l *loader) aliasesChecked(data []byte, root *yaml.Node) *yaml.Node {
	if root == nil || bytes.IndexByte(data, '*') < 0 || l.checkAliases(root) {
		return root
	}
	return nil
}

// rootOf returns the document's root mapping, or nil after reporting why
// there is none.
func (l *loader) rootOf(doc *yaml.Node) *yaml.Node {
	at := func(line int, msg string) {
		l.problems = append(l.problems, Problem{File: l.file, Pos: Pos{Line: line, Col: 1}, Message: msg})
	}
	if len(doc.Content) == 0 {
		at(1, "the contract is empty")
		return nil
	}
	root := deref(doc.Content[0])
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		at(1, "the contract is empty")
		return nil
	}
	if root.Kind != yaml.MappingNode {
		l.errorf(root, "the contract must be a mapping of sections, found %s", describeNode(root))
		return nil
	}
	return root
}

// yamlHints add how to fix the YAML errors contract owners meet most.
var yamlHints = map[string]string{
	"mapping values are not allowed in this context":  `; a value containing ": " must be quoted, or the line is indented wrongly`,
	"found a tab character that violates indentation": "; indent with spaces, never tabs",
	"found character that cannot start any token":     "; indent with spaces, never tabs, and quote values that start with ` or @",
}

// yamlParserErrors are the problems yaml.v3 raises in its parser rather than
// its scanner. It reports their line 0-based (scanner errors are 1-based).
var yamlParserErrors = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}

var unknownAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)

// syntaxError reports a YAML parse error. The parser gives only a line (for
// some errors the line where the enclosing value began); a tab and an
// unknown alias are located exactly so the owner sees what to fix.
func (l *loader) syntaxError(data []byte, err error) {
	msg := err.Error()
	line := 1
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		if yamlParserErrors[msg] {
			line++
		}
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	col := 1
	if m := unknownAnchor.FindStringSubmatch(msg); m != nil {
		if i := bytes.Index(data, []byte("*"+m[1])); i >= 0 {
			line = 1 + bytes.Count(data[:i], []byte("\n"))
			col = 1 + utf8.RuneCount(data[bytes.LastIndexByte(data[:i], '\n')+1:i])
		}
		msg = fmt.Sprintf("the alias *%s names no anchor; define &%s on a value before it", m[1], m[1])
	}
	if strings.Contains(msg, "tab character") || strings.Contains(msg, "cannot start any token") {
		for i, text := range strings.Split(string(data), "\n") {
			if i+1 < line {
				continue
			}
			indent := len(text) - len(strings.TrimLeft(text, " \t"))
			if tab := strings.IndexByte(text[:indent], '\t'); tab >= 0 {
				line, col = i+1, tab+1
				break
			}
		}
	}
	if msg == "found invalid Unicode character escape code" {
		if pos, fix, ok := surrogateEscape(data, line); ok {
			l.problems = append(l.problems, Problem{File: l.file, Pos: pos, Message: "not valid YAML: " + fix})
			return
		}
	}
	// An error at the end of the file may name the line after the last.
	last := bytes.Count(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) + 1
	line = max(min(line, last), 1)
	l.problems = append(l.problems, Problem{File: l.file, Pos: Pos{Line: line, Col: col}, Message: "not valid YAML: " + msg + yamlHints[msg]})
}

// Top-level sections, in the order docs/contract.md documents them.
var sections = []string{"contract", "origins", "recovery_actions", "same_arguments", "side_effects",
	"groups", "context_fields", "kinds", "fallback", "retired", "layout", "inbound", "retry", "surfaces", "sanitize", "call_error"}

func (l *loader) build(root *yaml.Node) *Contract {
	top := l.asMapping(root, nil, "", "the contract")
	c := &Contract{File: l.file}
	section := func(name string, required bool) *mapping {
		k, v := top.get(name)
		if k == nil {
			if required {
				top.missingf(name, root, "missing required section %q", name)
			}
			l.broken[name] = required
			return nil
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			// An empty optional section is the same as none at all.
			if required {
				l.errorf(k, "section %q must not be empty", name)
			}
			l.broken[name] = required
			return nil
		}
		m := l.asMapping(v, k, "", name)
		if m == nil {
			l.broken[name] = true
		} else if len(m.keys) == 0 && required {
			l.errorf(k, "section %q must not be empty", name)
		}
		return m
	}
	defer top.done(sections...)

	if m := section("contract", true); m != nil {
		l.header(c, m)
	}
	sideEffects := l.values(section("side_effects", true), "side_effects", "side_effects value")
	for _, v := range sideEffects {
		se := &SideEffect{Value: *v.value}
		// Safe by default: a value that does not say otherwise means work
		// may have run, so generated code tells agents to check state before
		// repeating a write. Only an explicit may_have_run: false (a value
		// that promises nothing was done) lets an agent skip the check.
		se.MayHaveRun = true
		if b, n := v.m.boolean("may_have_run", false); n != nil {
			se.MayHaveRun = b
		}
		c.SideEffects = append(c.SideEffects, se)
	}
	for _, v := range l.values(section("recovery_actions", true), "recovery_actions", "recovery action") {
		a := &Action{Value: *v.value}
		if s, n := v.m.str("step", true); n != nil {
			if !contains(Steps, Step(s)) {
				l.errorf(n, "%sunknown step %q%s; steps: %s", v.m.what, s, suggest(s, stepNames()), joinPlain(stepNames()))
			}
			a.Step = Step(s)
		}
		v.m.done("description", "step")
		c.Actions = append(c.Actions, a)
	}
	sameArgs := l.values(section("same_arguments", true), "same_arguments", "same_arguments value")
	for _, v := range sameArgs {
		s := &SameArguments{Value: *v.value}
		s.Retry, _ = v.m.boolean("retry", true)
		c.SameArguments = append(c.SameArguments, s)
	}
	// upgrade_to refers to other values of the same section.
	for i, v := range sameArgs {
		c.SameArguments[i].UpgradeTo, _ = refTo(l, v.m, "upgrade_to", false, c.SameArguments, func(s *SameArguments) string { return s.Name }, "same_arguments value", "same_arguments")
		v.m.done("description", "retry", "upgrade_to")
	}
	for _, v := range l.values(section("origins", true), "origins", "origin") {
		o := &Origin{Value: *v.value}
		o.SideEffects, _ = refTo(l, v.m, "side_effects", true, c.SideEffects, func(s *SideEffect) string { return s.Name }, "side_effects value", "side_effects")
		o.Log, _ = l.logLevel(v.m, true)
		o.Breaker, _ = v.m.boolean("breaker", false)
		v.m.done("description", "side_effects", "log", "breaker")
		c.Origins = append(c.Origins, o)
	}
	for _, v := range l.values(section("groups", true), "groups", "group") {
		g := &Group{Value: *v.value}
		g.Title, _ = v.m.str("title", true)
		g.Startup, _ = v.m.boolean("startup", false)
		v.m.done("title", "description", "startup")
		c.Groups = append(c.Groups, g)
	}
	for _, s := range sideEffects {
		s.m.done("description", "may_have_run")
	}
	c.ContextFields = l.fields(section("context_fields", false), "context field", false)
	l.kinds(c, section("kinds", true))
	c.indexKinds()
	c.resolveStatuses()
	if l.bases != nil {
		c.inheritStatuses(l.bases)
	}
	if k, v := top.get("fallback"); k == nil {
		top.missingf("fallback", root, "missing required section %q: say how a kind this contract does not list classifies", "fallback")
	} else if m := l.asMapping(v, k, "fallback: ", ""); m != nil {
		c.Fallback = &Fallback{Pos: l.pos(k)}
		l.classification(c, m, &c.Fallback.Classification)
		l.fallbackSideEffects(m, c.Fallback)
		m.done("origin", "side_effects", "http", "grpc", "log", "breaker", "recovery")
	}
	l.retired(c, section("retired", false))
	lk, _ := top.get("layout")
	spec := l.readLayout(c, section("layout", false), lk)
	skip := l.checkFields(c, spec)
	l.numbers(c)
	c.Layout = l.buildLayout(c, spec, skip)
	ik, _ := top.get("inbound")
	l.inbound(c, section("inbound", false), ik)
	rk, _ := top.get("retry")
	l.retryPolicy(c, section("retry", false), rk)
	l.surfaces(c, section("surfaces", false))
	sk, _ := top.get("sanitize")
	l.sanitize(c, section("sanitize", false), sk)
	cek, _ := top.get("call_error")
	l.callError(c, section("call_error", false), cek)
	l.reservedNames(c)
	l.resolveAIP193(c)
	return c
}

func stepNames() []string {
	out := make([]string, len(Steps))
	for i, s := range Steps {
		out[i] = string(s)
	}
	return out
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// IsName reports whether s is a valid contract name.
func IsName(s string) bool { return contractNameRe.MatchString(s) }

func (l *loader) header(c *Contract, m *mapping) {
	m.what = "contract: "
	if name, n := m.str("name", true); n != nil {
		if !contractNameRe.MatchString(name) {
			l.errorf(n, "contract: name %q must be lower case words separated by - or _ (e.g. agent-error); it becomes the Go, npm and Python package names", name)
		}
		c.Name = name
	}
	// The version is an integer (labby's contract_version: 1) or, for wire
	// formats that version with text, a string (ovstorage's v: "0.1").
	if vk, vv := m.get("version"); vk != nil && vv.Kind == yaml.ScalarNode && vv.Tag == "!!str" {
		if isBlank(vv.Value) {
			l.errorf(vv, "contract: version must not be blank")
		} else if _, err := strconv.Atoi(vv.Value); err == nil {
			// A quoted integer would put a string on the wire where
			// consumers of an integer version expect a number.
			l.errorf(vv, "contract: version %q is quoted: write version: %s for an integer version, or a version with text in it (e.g. \"%s.0\") for a string one", vv.Value, vv.Value, vv.Value)
		}
		c.VersionText, c.VersionPos = vv.Value, l.pos(vv)
	} else if v, n := m.integer("version", true); n != nil {
		c.VersionPos = l.pos(n)
		if v < 1 {
			l.errorf(n, "contract: version must be a positive integer, found %d", v)
		}
		c.Version = v
	}
	if s, n := m.str("naming", true); n != nil {
		if _, ok := namingRes[Naming(s)]; !ok {
			names := make([]string, len(Namings))
			for i, nm := range Namings {
				names[i] = string(nm)
			}
			l.errorf(n, "contract: unknown naming %q%s; use one of %s", s, suggest(s, names), joinPlain(names))
		} else {
			c.Naming = Naming(s)
		}
	}
	c.Description, _ = m.str("description", false)
	l.release(c, m)
	m.done("name", "version", "release", "naming", "description")
}

// entry is one named member of a vocabulary section, still being read.
type entry struct {
	value *Value
	m     *mapping
}

// values reads a vocabulary section: each key is a value name mapping to an
// object with at least a description. Callers read their extra keys from m.
func (l *loader) values(sec *mapping, section, what string) []entry {
	if sec == nil {
		return nil
	}
	var out []entry
	seen := newIdentities(0)
	sec.each(func(k, v *yaml.Node) {
		l.declare(section, k.Value)
		prefix := fmt.Sprintf("%s %q: ", what, k.Value)
		m := l.asMapping(v, k, prefix, "its definition")
		if m == nil {
			return
		}
		if !valueNameRe.MatchString(k.Value) {
			l.errorf(k, "%sname must start with a letter and use only letters, digits, - and _", prefix)
		}
		val := &Value{Name: k.Value, Pos: l.pos(k), Idents: identsFor(k.Value)}
		val.Description, _ = m.str("description", true)
		l.collide(seen, val, what)
		out = append(out, entry{val, m})
	})
	return out
}

// ref resolves a reference to a declared value, reporting undeclared names.
func refTo[T any](l *loader, m *mapping, key string, required bool, declared []T, name func(T) string, what, section string) (T, bool) {
	return refIn(l, m, key, required, declared, nil, name, what, section)
}

// refIn is refTo finding the name in index (from nameIndex) when it is not
// nil: the kinds refer to groups, which grow with them.
func refIn[T any](l *loader, m *mapping, key string, required bool, declared []T, index map[string]int, name func(T) string, what, section string) (T, bool) {
	var zero T
	s, n := m.str(key, required)
	if n == nil {
		return zero, false
	}
	if index != nil {
		if i, ok := index[s]; ok {
			return declared[i], true
		}
	} else {
		for _, d := range declared {
			if name(d) == s {
				return d, true
			}
		}
	}
	if l.reported(section, s) {
		return zero, false
	}
	// The names are listed only for the problem: a contract of thousands of
	// kinds resolves references for every one of them.
	names := make([]string, len(declared))
	for i, d := range declared {
		names[i] = name(d)
	}
	l.errorf(n, "%sunknown %s %q%s; declare it under %s or use one of %s", m.what, what, s, suggest(s, names), section, quoteList(names))
	return zero, false
}

// nameIndex maps each name of declared to its first position, or is nil
// for a list short enough to search.
func nameIndex[T any](declared []T, name func(T) string) map[string]int {
	if len(declared) <= smallMapping {
		return nil
	}
	index := make(map[string]int, len(declared))
	for i := len(declared) - 1; i >= 0; i-- {
		index[name(declared[i])] = i
	}
	return index
}

func (l *loader) logLevel(m *mapping, required bool) (LogLevel, bool) {
	s, n := m.str("log", required)
	if n == nil {
		return "", false
	}
	if !contains(LogLevels, LogLevel(s)) {
		l.errorf(n, "%sunknown log level %q%s; use debug, info, warn or error", m.what, s, suggest(s, []string{"debug", "info", "warn", "error"}))
		return "", false
	}
	return LogLevel(s), true
}

func (l *loader) fields(sec *mapping, what string, allowRequired bool) []*Field {
	if sec == nil {
		return nil
	}
	var out []*Field
	seen := newIdentities(0)
	sec.each(func(k, v *yaml.Node) {
		prefix := strings.TrimSuffix(sec.what, ": ")
		if prefix != "" {
			prefix += ": "
		}
		prefix += fmt.Sprintf("%s %q: ", what, k.Value)
		m := l.asMapping(v, k, prefix, "its definition")
		if m == nil {
			return
		}
		m.in = append(sec.in[:len(sec.in):len(sec.in)], sec.node)
		if !namingMatch(SnakeCase, k.Value) && !valueNameRe.MatchString(k.Value) {
			l.errorf(k, "%sname must start with a letter and use only letters, digits, - and _", prefix)
		}
		f := &Field{Name: k.Value, Pos: l.pos(k), Idents: identsFor(k.Value)}
		f.Description, _ = m.str("description", true)
		f.Type, f.Items = l.fieldType(m)
		allowed := []string{"type", "items", "description", "enum", "properties"}
		l.fieldDetails(f, m, prefix)
		if allowRequired {
			f.Required, _ = m.boolean("required", false)
			allowed = append(allowed, "required")
		} else if rk, _ := m.get("required"); rk != nil {
			// Whether every envelope carries a context field is a fact of
			// the wire format, so the layout says it where it places the
			// field.
			l.errorf(rk, "%sremove required: whether every envelope carries a %s is the layout's to say, with layout: fields: {%s: {from: %s, required: true}}", prefix, what, k.Value, k.Value)
			allowed = append(allowed, "required")
		}
		m.done(allowed...)
		l.collide(seen, &Value{Name: f.Name, Pos: f.Pos, Idents: f.Idents}, what)
		out = append(out, f)
	})
	return out
}

// fieldDetails reads enum and properties, the keys that refine a type.
func (l *loader) fieldDetails(f *Field, m *mapping, prefix string) {
	if ek, ev := m.get("enum"); ek != nil {
		switch {
		case f.Type != TypeString && !(f.Type == TypeArray && f.Items == TypeString):
			l.errorf(ek, "%senum is only allowed on a string or an array of strings", prefix)
		case ev.Kind != yaml.SequenceNode || len(ev.Content) == 0:
			l.errorf(ek, "%senum must be a non-empty list of strings", prefix)
		default:
			for _, e := range ev.Content {
				switch {
				case e.Kind != yaml.ScalarNode || e.Tag != "!!str":
					hint := ""
					if e.Kind == yaml.ScalarNode && e.Tag != "!!null" {
						hint = fmt.Sprintf(" (quote it: %q)", e.Value)
					}
					l.errorf(e, "%senum values must be strings, found %s%s", prefix, describeNode(e), hint)
				case isBlank(e.Value):
					l.errorf(e, "%senum values must not be blank", prefix)
				case contains(f.Enum, e.Value):
					l.errorf(e, "%senum value %q is listed twice", prefix, e.Value)
				default:
					f.Enum = append(f.Enum, e.Value)
				}
			}
		}
	}
	if pk, pv := m.get("properties"); pk != nil {
		if f.Type != TypeObject {
			l.errorf(pk, "%sproperties are only allowed on an object", prefix)
			return
		}
		// An alias may name a mapping this field is read from (the
		// fields, or a definition, that hold it): reading it as the
		// properties would not end.
		in := append(m.in[:len(m.in):len(m.in)], m.node)
		if contains(in, pv) {
			l.errorf(pk, "%sproperties lead back, through an alias, to a mapping that holds this field, which would contain itself without end; write out what the alias names", prefix)
			return
		}
		if pm := l.asMapping(pv, pk, prefix, "properties"); pm != nil {
			pm.in = in
			pm.what = prefix
			if len(pm.keys) == 0 {
				l.errorf(pk, "%sproperties must not be empty; leave it out for a free-form object", prefix)
			}
			f.Properties = l.fields(pm, "property", true)
		}
	}
}

func typeNames() []string {
	out := make([]string, len(FieldTypes))
	for i, t := range FieldTypes {
		out[i] = string(t)
	}
	return out
}

func (l *loader) fieldType(m *mapping) (FieldType, FieldType) {
	s, n := m.str("type", true)
	if n == nil {
		return "", ""
	}
	t := FieldType(s)
	if !contains(FieldTypes, t) {
		l.errorf(n, "%sunknown type %q%s; use one of %s", m.what, s, suggest(s, typeNames()), joinPlain(typeNames()))
		return "", ""
	}
	ik, _ := m.get("items")
	switch {
	case t == TypeArray && ik == nil:
		l.errorf(m.at, "%san array needs items: the type of its elements (%s)", m.what, joinPlain(typeNames()[:5]))
	case t != TypeArray && ik != nil:
		l.errorf(ik, "%sitems is only allowed when type is array", m.what)
	case t == TypeArray:
		s, n := m.str("items", true)
		if n == nil {
			return t, ""
		}
		it := FieldType(s)
		if it == TypeArray {
			l.errorf(n, "%sitems cannot be array: arrays of arrays are not supported; pick one of %s for the elements", m.what, joinPlain(typeNames()[:5]))
			return t, ""
		}
		if !contains(FieldTypes, it) {
			l.errorf(n, "%sunknown items type %q%s; use one of %s", m.what, s, suggest(s, typeNames()[:5]), joinPlain(typeNames()[:5]))
			return t, ""
		}
		return t, it
	}
	return t, ""
}

func (l *loader) kinds(c *Contract, sec *mapping) {
	if sec == nil {
		return
	}
	groups := nameIndex(c.Groups, groupName)
	if workers := kindWorkers(l, len(sec.keys)); workers > 1 {
		l.kindsSideBySide(c, sec, groups, workers)
		return
	}
	// Pre-sized: every kind has an identity in each form.
	seen := newIdentities(len(sec.keys))
	sec.each(func(k, v *yaml.Node) {
		l.declare("kinds", k.Value)
		if kind := l.kind(c, groups, k, v); kind != nil {
			l.collide(seen, &kind.Value, "kind")
			l.addKind(c, k, kind)
		}
	})
}

// addKind adds a kind read from k, once its name's collisions are reported.
func (l *loader) addKind(c *Contract, k *yaml.Node, kind *Kind) {
	if kind.Idents.Go == GoTrustedSuffix {
		// New+Go name is the kind's constructor; NewTrusted is taken by
		// the constructor that does not sanitize.
		l.errorf(k, "kind %q becomes the Go constructor NewTrusted, which the generated package already defines (it builds an envelope without sanitizing); rename the kind", kind.Name)
	}
	c.Kinds = append(c.Kinds, kind)
}

// kind reads one kind, or returns nil when its definition is not a mapping.
// Whether its name collides with another kind's is the caller's to check.
func (l *loader) kind(c *Contract, groups map[string]int, k, v *yaml.Node) *Kind {
	prefix := fmt.Sprintf("kind %q: ", k.Value)
	m := l.asMapping(v, k, prefix, "its definition")
	if m == nil {
		return nil
	}
	if c.Naming != "" && !namingMatch(c.Naming, k.Value) {
		hint := fmt.Sprintf("e.g. %s", c.Naming.Example())
		if alt := applyNaming(c.Naming, k.Value); namingRes[c.Naming].MatchString(alt) {
			hint = "rename it " + alt
		}
		l.errorf(k, "%sname breaks the contract's naming %s (%s)", prefix, c.Naming, hint)
	}
	kind := &Kind{Value: Value{Name: k.Value, Pos: l.pos(k), Idents: identsFor(k.Value)}, Reason: Reason(k.Value)}
	kind.Description, _ = m.str("description", true)
	kind.Group, _ = refIn(l, m, "group", true, c.Groups, groups, groupName, "group", "groups")
	l.classification(c, m, &kind.Classification)
	if _, n := m.get("mcp_error_code"); n != nil {
		var v int
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&v) != nil {
			l.errorf(n, "%smcp_error_code must be a JSON-RPC error code (an integer, e.g. -32002), found %s", prefix, describeNode(n))
		} else if p := JSONRPCCodeProblem(v); p != "" {
			l.errorf(n, "%smcp_error_code %d %s; use -32602 (invalid params), -32603 (internal error), a server error from -32099 to -32000, or a code outside the reserved range", prefix, v, p)
		} else {
			kind.MCPErrorCode = &v
		}
	}
	if kind.Group != nil {
		kind.Startup = kind.Group.Startup
	}
	if b, n := m.boolean("startup", false); n != nil {
		kind.Startup = b
	}
	if num, n := m.integer("number", false); n != nil {
		if num < 0 {
			l.errorf(n, "%snumber must not be negative; use 0 or more", prefix)
		}
		kind.Number = num
		l.numbered[kind] = n
	} else if nk, _ := m.get("number"); nk != nil {
		// Written but unusable (already reported): not missing, and
		// with no value to compare.
		l.numbered[kind] = nil
	}
	if fk, fv := m.get("fields"); fk != nil {
		if fm := l.asMapping(fv, fk, prefix, "fields"); fm != nil {
			fm.what = prefix
			kind.Fields = l.fields(fm, "field", true)
		}
	}
	m.done("group", "description", "origin", "side_effects", "http", "grpc", "log", "breaker", "recovery", "fields", "startup", "number", "mcp_error_code")
	return kind
}

func groupName(g *Group) string { return g.Name }

// classification reads origin, side_effects, http, log, breaker and recovery,
// applying the origin's defaults to what the mapping leaves out.
func (l *loader) classification(c *Contract, m *mapping, cl *Classification) {
	cl.Origin, _ = refTo(l, m, "origin", true, c.Origins, func(o *Origin) string { return o.Name }, "origin", "origins")
	if sk, _ := m.get("side_effects"); sk != nil {
		cl.SideEffects, _ = refTo(l, m, "side_effects", true, c.SideEffects, func(s *SideEffect) string { return s.Name }, "side_effects value", "side_effects")
	} else if cl.Origin != nil {
		cl.SideEffects = cl.Origin.SideEffects
	}
	if status, n := m.integer("http", true); n != nil {
		if status < 400 || status > 599 {
			l.errorf(n, "%shttp status %d is not an error status; use 400-599", m.what, status)
		}
		cl.HTTP = status
	}
	l.grpcCode(c, m, cl)
	if lvl, ok := l.logLevel(m, false); ok {
		cl.Log = lvl
	} else if cl.Origin != nil {
		cl.Log = cl.Origin.Log
	}
	if b, n := m.boolean("breaker", false); n != nil {
		cl.Breaker = b
	} else if cl.Origin != nil {
		cl.Breaker = cl.Origin.Breaker
	}
	rk, rv := m.get("recovery")
	if rk == nil {
		m.missing("recovery")
		return
	}
	what := m.what + "recovery: "
	r := l.asMapping(rv, rk, what, "")
	if r == nil {
		return
	}
	r.what = what
	cl.Recovery.Action, _ = refTo(l, r, "action", true, c.Actions, func(a *Action) string { return a.Name }, "recovery action", "recovery_actions")
	cl.Recovery.SameArguments, _ = refTo(l, r, "same_arguments", true, c.SameArguments, func(s *SameArguments) string { return s.Name }, "same_arguments value", "same_arguments")
	cl.Recovery.Guidance, _ = r.str("guidance", true)
	r.done("action", "same_arguments", "guidance")
}

// fallbackSideEffects rejects a fallback that promises nothing ran: a kind
// this contract does not know says nothing about what happened, so an agent
// must check state before repeating a write.
func (l *loader) fallbackSideEffects(m *mapping, f *Fallback) {
	se := f.SideEffects
	if se == nil || se.MayHaveRun {
		return
	}
	at, from := m.at, ""
	if k, _ := m.get("side_effects"); k != nil {
		at = k
	} else if k, _ := m.get("origin"); k != nil {
		at, from = k, fmt.Sprintf(" (the default of origin %q)", f.Origin.Name)
	}
	l.errorf(at, "%sside_effects %q%s has may_have_run: false, but a kind this contract does not list tells nothing about what ran; give the fallback a side_effects value after which work may have run", m.what, se.Name, from)
}

func (l *loader) retired(c *Contract, sec *mapping) {
	if sec == nil {
		return
	}
	spelled := spellingsOf(c)
	sec.each(func(k, v *yaml.Node) {
		prefix := fmt.Sprintf("retired kind %q: ", k.Value)
		m := l.asMapping(v, k, prefix, "its definition")
		if m == nil {
			return
		}
		r := &Retired{Name: k.Value, Pos: l.pos(k)}
		if !valueNameRe.MatchString(k.Value) {
			l.errorf(k, "%sname must start with a letter and use only letters, digits, - and _", prefix)
		}
		live := c.Kind(k.Value)
		if live == nil {
			live = spelled.respelled(k.Value)
		}
		switch {
		case live != nil && live.Pos.File != "" && r.Pos.File == "":
			// The live kind is an import's: the retired name is what
			// this contract wrote, and a contract cannot retire what it
			// imports.
			what := fmt.Sprintf("it is kind %q", live.Name)
			if live.Name != k.Value {
				what = fmt.Sprintf("it becomes the same identifier (%s in Go) as kind %q", live.Idents.Go, live.Name)
			}
			l.errorf(k, "%s%s of the imported contract %s (%s), which a contract cannot retire: remove it here", prefix, what, l.owner(l.at(live.Pos)), l.where(k, live.Pos))
		case live != nil && live.Name == k.Value:
			// Reported once, at the live kind: that is the name to change.
			at := l.at(live.Pos)
			l.errorf(at, "kind %q: the name was retired (%s) and may never be reused with a new meaning; choose a new name for this kind", k.Value, l.where(at, r.Pos))
		case live != nil:
			// Another spelling of a retired name generates the same
			// identifiers, so old generated code would meet it again.
			at := l.at(live.Pos)
			l.errorf(at, "kind %q: the name becomes the same identifier (%s in Go) as the retired kind %q (%s), which may never come back; choose a new name for this kind", live.Name, live.Idents.Go, k.Value, l.where(at, r.Pos))
		}
		if name, n := m.str("replaced_by", false); n != nil {
			if r.ReplacedBy = c.Kind(name); r.ReplacedBy == nil && !l.reported("kinds", name) {
				names := make([]string, len(c.Kinds))
				for i, k := range c.Kinds {
					names[i] = k.Name
				}
				l.errorf(n, "%sreplaced_by names %q, which is not a live kind%s", prefix, name, suggest(name, names))
			}
		}
		r.Reason, _ = m.str("reason", true)
		m.done("replaced_by", "reason")
		c.Retired = append(c.Retired, r)
	})
}

// spellings indexes the live kinds by the identifiers a retired name
// could come back as (its Go name, Python constant and TypeScript type),
// each to the first kind that has it: looking every retired name up among
// all the kinds was quadratic, most of the load of 100,000 kinds.
type spellings struct {
	kinds                 []*Kind
	goName, pyConst, tsTy map[string]int
}

func spellingsOf(c *Contract) *spellings {
	s := &spellings{kinds: c.Kinds, goName: make(map[string]int, len(c.Kinds)),
		pyConst: make(map[string]int, len(c.Kinds)), tsTy: make(map[string]int, len(c.Kinds))}
	for i := len(c.Kinds) - 1; i >= 0; i-- {
		ids := c.Kinds[i].Idents
		s.goName[ids.Go], s.pyConst[ids.PythonConst], s.tsTy[ids.TSType] = i, i, i
	}
	return s
}

// respelled returns the first live kind whose identifiers equal one of
// those of the retired name, if any.
func (s *spellings) respelled(retired string) *Kind {
	ids := identsFor(retired)
	first := -1
	for _, at := range []struct {
		m   map[string]int
		key string
	}{{s.goName, ids.Go}, {s.pyConst, ids.PythonConst}, {s.tsTy, ids.TSType}} {
		if i, ok := at.m[at.key]; ok && (first < 0 || i < first) {
			first = i
		}
	}
	if first < 0 {
		return nil
	}
	return s.kinds[first]
}
