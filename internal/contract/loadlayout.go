package contract

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// leafSpec is one entry of layout.fields as written, before fields are placed.
type leafSpec struct {
	path     string
	source   Source
	field    string // for SourceField: the field's name
	konst    any
	optional bool
	// optionalAt is where optional: true is written.
	optionalAt *yaml.Node
	// required is set by required: true, which only a context field's entry
	// may carry; requiredAt is where it is written.
	required   bool
	requiredAt *yaml.Node
	aliases    []string
	pos        Pos
}

// layoutSpec is the layout section as written.
type layoutSpec struct {
	leaves                 []leafSpec
	contextAt, kindFieldAt string
	contextPos, kindPos    Pos
	pos                    Pos
	declared               bool
	// fieldsPos is where layout.fields is written. incomplete is set when
	// it is missing or an entry could not be read: what the layout meant
	// to put on the wire is then unknown, so it is not checked.
	fieldsPos  Pos
	incomplete bool
}

// defaultLayout is labby's agent-error v1 envelope: flat, with the advice
// nested under recovery.
func defaultLayout() *layoutSpec {
	p := Pos{Line: 1, Col: 1}
	return &layoutSpec{pos: p, contextPos: p, kindPos: p, leaves: []leafSpec{
		{path: "contract_version", source: SourceVersion, pos: p},
		{path: ShortFormKindMember, source: SourceKind, pos: p},
		{path: ShortFormMessageMember, source: SourceMessage, pos: p},
		{path: "origin", source: SourceOrigin, pos: p},
		{path: "recovery.action", source: SourceAction, pos: p},
		{path: "recovery.same_arguments", source: SourceSameArguments, pos: p},
		{path: "recovery.guidance", source: SourceGuidance, pos: p},
		{path: "recovery.retry_after_ms", source: SourceRetryAfterMs, optional: true, aliases: []string{"retryAfterMs"}, pos: p},
		{path: "side_effects", source: SourceSideEffects, pos: p},
	}}
}

func sourceNames() []string {
	out := make([]string, len(Sources))
	for i, s := range Sources {
		out[i] = string(s)
	}
	return out
}

// readLayout reads the layout section, or returns the default layout.
func (l *loader) readLayout(c *Contract, sec *mapping, key *yaml.Node) *layoutSpec {
	if sec == nil {
		return defaultLayout()
	}
	spec := &layoutSpec{declared: true, pos: l.pos(key), contextPos: l.pos(key), kindPos: l.pos(key)}
	sec.what = "layout: "
	fk, fv := sec.get("fields")
	spec.fieldsPos = l.pos(fk)
	if fk == nil {
		sec.missing("fields")
		spec.incomplete = true
	} else if fm := l.asMapping(fv, fk, "layout: ", "fields"); fm == nil {
		spec.incomplete = true
	} else {
		fm.what = "layout: fields: "
		fieldNames := map[string]bool{}
		for _, f := range c.ContextFields {
			fieldNames[f.Name] = true
		}
		for _, k := range c.Kinds {
			for _, f := range k.Fields {
				fieldNames[f.Name] = true
			}
		}
		fm.each(func(k, v *yaml.Node) {
			if ls, ok := l.leafSpec(k, v, fieldNames); ok {
				spec.leaves = append(spec.leaves, ls)
			} else {
				spec.incomplete = true
			}
		})
	}
	for _, at := range []struct {
		key string
		dst *string
		pos *Pos
	}{{"context", &spec.contextAt, &spec.contextPos}, {"kind_fields", &spec.kindFieldAt, &spec.kindPos}} {
		k, v := sec.get(at.key)
		if k == nil {
			continue
		}
		*at.pos = l.pos(k)
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			continue // empty means the top level
		}
		s, n := sec.str(at.key, false)
		if n != nil && s != "" && !validPath(s) {
			l.errorf(n, "layout: %s: %q is not a path of member names joined by dots (e.g. error.details)", at.key, s)
			continue
		}
		*at.dst = s
	}
	sec.done("fields", "context", "kind_fields")
	return spec
}

func validPath(p string) bool {
	for _, seg := range strings.Split(p, ".") {
		if !wireNameRe.MatchString(seg) {
			return false
		}
	}
	return true
}

// leafSpec reads one `path: source` entry.
func (l *loader) leafSpec(k, v *yaml.Node, fieldNames map[string]bool) (leafSpec, bool) {
	ls := leafSpec{path: k.Value, pos: l.pos(k)}
	prefix := fmt.Sprintf("layout: field %q: ", k.Value)
	if !validPath(k.Value) {
		l.errorf(k, "%sa wire path is member names joined by dots (e.g. error.code); each name starts with a letter, _ or $", prefix)
		return ls, false
	}
	var name string
	var at *yaml.Node
	switch {
	case v.Kind == yaml.ScalarNode && v.Tag == "!!str":
		name, at = v.Value, v
	case v.Kind == yaml.MappingNode:
		m := l.asMapping(v, k, prefix, "")
		m.what = prefix
		if ck, cv := m.get("const"); ck != nil {
			switch {
			case cv.Kind != yaml.ScalarNode || cv.Tag == "!!null":
				l.errorf(ck, "%sconst must be a string, number or boolean", prefix)
				return ls, false
			default:
				var val any
				if err := cv.Decode(&val); err != nil {
					l.errorf(cv, "%sconst: %v", prefix, err)
					return ls, false
				}
				switch v := val.(type) {
				case time.Time:
					// An unquoted date: YAML 1.2, JSON and editors read
					// it as the string it is written as.
					val = cv.Value
				case float64:
					if math.IsNaN(v) || math.IsInf(v, 0) {
						l.errorf(cv, "%sconst must be a finite number, as JSON has no %s; write a number, or quote it for a string", prefix, cv.Value)
						return ls, false
					}
				}
				ls.source, ls.konst = SourceConst, val
			}
			for _, other := range []string{"from", "optional", "required", "aliases"} {
				if ok, _ := m.get(other); ok != nil {
					l.errorf(ok, "%sa const field takes no %s", prefix, other)
				}
			}
			m.done("const", "from", "optional", "required", "aliases")
			return ls, true
		}
		s, n := m.str("from", true)
		if n == nil {
			m.done("from", "const", "optional", "required", "aliases")
			return ls, false
		}
		name, at = s, n
		ls.optional, ls.optionalAt = m.boolean("optional", false)
		if b, rn := m.boolean("required", false); rn != nil && b {
			ls.required, ls.requiredAt = true, rn
			if ls.optional {
				ok, _ := m.get("optional")
				l.errorf(ok, "%sa field cannot be both optional and required; drop one of them", prefix)
			}
		}
		if ak, av := m.get("aliases"); ak != nil {
			if av.Kind != yaml.SequenceNode {
				l.errorf(ak, "%saliases must be a list of member names", prefix)
			} else {
				for _, a := range av.Content {
					if a.Kind != yaml.ScalarNode || a.Tag != "!!str" || !wireNameRe.MatchString(a.Value) {
						found := describeNode(a)
						if a.Kind == yaml.ScalarNode && a.Tag == "!!str" {
							found = fmt.Sprintf("%q", a.Value)
						}
						l.errorf(a, "%san alias must be a member name (a letter, _ or $, then letters, digits, _, $ or -), found %s", prefix, found)
						continue
					}
					ls.aliases = append(ls.aliases, a.Value)
				}
			}
		}
		m.done("from", "const", "optional", "required", "aliases")
	default:
		l.errorf(v, "%sgive a source (e.g. kind), {from: source, optional: true} or {const: value}, found %s", prefix, describeNode(v))
		return ls, false
	}
	switch {
	case contains(Sources, Source(name)):
		ls.source = Source(name)
		if ls.required {
			// A named source is on the wire in every envelope unless it is
			// optional (the retry hint always is); required is the context
			// fields' way to join them.
			l.errorf(ls.requiredAt, "%srequired is for context fields; %s is not one (a named source is in every envelope unless optional: true), so remove required", prefix, name)
			ls.required = false
		}
	case fieldNames[name]:
		ls.source, ls.field = SourceField, name
	default:
		var candidates []string
		candidates = append(candidates, sourceNames()...)
		for f := range fieldNames {
			candidates = append(candidates, f)
		}
		sortStrings(candidates)
		l.errorf(at, "%sunknown source %q%s; use one of %s, or the name of a context or kind-specific field", prefix, name, suggest(name, candidates), joinPlain(sourceNames()))
		return ls, false
	}
	return ls, true
}

// membersAt returns the member names the explicit leaves of spec put
// directly in the object at path, in order.
func (spec *layoutSpec) membersAt(path string) []string {
	var out []string
	prefix := path + "."
	if path == "" {
		prefix = ""
	}
	for _, ls := range spec.leaves {
		if !strings.HasPrefix(ls.path, prefix) {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(ls.path, prefix), ".")
		if !contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// placed reports whether layout.fields places the named field explicitly.
func (spec *layoutSpec) placed(name string) bool {
	for _, ls := range spec.leaves {
		if ls.source == SourceField && ls.field == name {
			return true
		}
	}
	return false
}

// buildLayout turns the spec into the wire tree, placing every context and
// kind-specific field that the spec does not place itself. skip holds fields
// already reported as clashing.
func (l *loader) buildLayout(c *Contract, spec *layoutSpec, skip map[*Field]bool) *Layout {
	root := &Object{}
	b := &layoutBuilder{l: l, c: c, spec: spec, root: root,
		lo:      &Layout{Root: root, Default: !spec.declared, Pos: spec.pos},
		objects: map[string]*Object{"": root}, leaves: map[string]*Leaf{}, where: map[string]Pos{}, mapped: map[Source]*Leaf{}}
	b.placeDeclared(skip)
	b.requireKindAndMessage()
	b.placeUnplaced(c.ContextFields, spec.contextAt, skip)
	b.placeUnplaced(c.KindFields, spec.kindFieldAt, skip)
	b.checkDerivedSources()
	b.checkAliases()
	b.collect(root)
	for _, f := range c.ContextFields {
		if b.lo.RequiredLeaf(f) != nil {
			c.RequiredContext = append(c.RequiredContext, f)
		}
	}
	b.checkDerivedGoNames()
	return b.lo
}

// layoutBuilder is the state of buildLayout: the tree so far, indexed.
type layoutBuilder struct {
	l    *loader
	c    *Contract
	spec *layoutSpec
	root *Object
	lo   *Layout
	// objects and leaves by path; where: path -> where it was declared,
	// for messages; mapped: the leaf each source other than const and
	// field is on.
	objects map[string]*Object
	leaves  map[string]*Leaf
	where   map[string]Pos
	mapped  map[Source]*Leaf
}

// node is a YAML node at p, for error messages.

// object returns the object at path, creating it and its parents, for the
// leaf at leafPath; nil (reported) where a leaf is on the way.
func (b *layoutBuilder) object(path, leafPath string, pos Pos) *Object {
	if o, ok := b.objects[path]; ok {
		return o
	}
	parent := b.root
	sofar := ""
	for _, seg := range strings.Split(path, ".") {
		if sofar != "" {
			sofar += "."
		}
		sofar += seg
		if lf, ok := b.leaves[sofar]; ok {
			at := b.l.at(pos)
			b.l.errorf(at, "layout: %q is a field (%s), so it cannot also be an object holding %q; give one of them another path", sofar, b.l.where(at, lf.Pos), leafPath)
			return nil
		}
		o, ok := b.objects[sofar]
		if !ok {
			o = &Object{Name: seg, Path: sofar, Parent: parent}
			b.objects[sofar] = o
			b.where[sofar] = pos
			parent.Members = append(parent.Members, &Member{Object: o})
		}
		parent = o
	}
	return parent
}

// add puts the leaf ls (of field f, nil for other sources) on the tree;
// nil (reported) where its path or its source is taken.
func (b *layoutBuilder) add(ls leafSpec, f *Field) *Leaf {
	parentPath, name := "", ls.path
	if i := strings.LastIndexByte(ls.path, '.'); i >= 0 {
		parentPath, name = ls.path[:i], ls.path[i+1:]
	}
	if prev, ok := b.where[ls.path]; ok {
		at := b.l.at(ls.pos)
		what := "an object"
		if b.leaves[ls.path] != nil {
			what = "a field"
		}
		switch {
		case f != nil && !b.spec.placed(f.Name):
			b.l.errorf(at, "%q lands on %q, which the layout already uses for %s (%s); rename the field or place it with layout.fields", f.Name, ls.path, what, b.l.where(at, prev))
		case b.leaves[ls.path] == nil:
			b.l.errorf(at, "layout: %q is an object holding the field at %s, so it cannot also be a field; give one of them another path", ls.path, b.l.where(at, prev))
		default:
			b.l.errorf(at, "layout: two fields are mapped to %q (the other at %s); give each its own name", ls.path, b.l.where(at, prev))
		}
		return nil
	}
	obj := b.object(parentPath, ls.path, ls.pos)
	if obj == nil {
		return nil
	}
	lf := &Leaf{Name: name, Path: ls.path, Object: obj, Source: ls.source, Field: f, Const: ls.konst,
		Optional: ls.optional, Aliases: ls.aliases, Pos: ls.pos, Idents: identsFor(name)}
	if ls.source != SourceConst && ls.source != SourceField {
		if prev, ok := b.mapped[ls.source]; ok {
			at := b.l.at(ls.pos)
			b.l.errorf(at, "layout: %s is already on the wire at %q (%s); map each source once", ls.source, prev.Path, b.l.where(at, prev.Pos))
			return nil
		}
		b.mapped[ls.source] = lf
	}
	b.leaves[ls.path] = lf
	b.where[ls.path] = ls.pos
	obj.Members = append(obj.Members, &Member{Leaf: lf})
	return lf
}

// placeDeclared adds the leaves layout.fields declares, in order, and
// checks their optional and required flags. Fields in skip are left out.
func (b *layoutBuilder) placeDeclared(skip map[*Field]bool) {
	l, c := b.l, b.c
	fieldsByName := map[string]*Field{}
	for _, f := range c.EnvelopeFields {
		fieldsByName[f.Name] = f
	}
	isContext := map[*Field]bool{}
	for _, f := range c.ContextFields {
		isContext[f] = true
	}
	for _, ls := range b.spec.leaves {
		var f *Field
		if ls.source == SourceField {
			if f = fieldsByName[ls.field]; f == nil || skip[f] {
				continue
			}
		}
		lf := b.add(ls, f)
		// optional: true on a field: an empty list is left out (ovstorage's
		// warnings, "omitted when there are none"). Any other field is left
		// out whenever it is unset already.
		if f != nil && ls.optional && !ls.required && f.Type != TypeArray {
			l.errorf(ls.optionalAt, "layout: field %q: optional: true on a field is for arrays (an empty list is then left out, and the producer schema rejects one); the %s field %q is left out whenever it is unset already, so remove optional", ls.path, f.Type, f.Name)
		}
		if !ls.required {
			continue
		}
		// Required makes the field a constructor parameter and a non-empty
		// string on the wire, so it must be a context field holding text.
		switch {
		case !isContext[f]:
			l.errorf(ls.requiredAt, "layout: field %q: %q is a kind-specific field; a kind requires its own fields with required: true under the kind's fields, so remove required here (it is for context fields)", ls.path, f.Name)
		case f.Type != TypeString:
			l.errorf(ls.requiredAt, "layout: field %q: the context field %q is of type %s; only a string context field can be required (every constructor takes it as a non-empty string)", ls.path, f.Name, f.Type)
		case lf != nil:
			lf.RequiredContext = true
		}
	}
}

// requireKindAndMessage reports a declared layout that puts kind or
// message nowhere. Judged on what is written, so a kind entry that fails
// for another reason is not also reported as missing.
func (b *layoutBuilder) requireKindAndMessage() {
	spec := b.spec
	for _, s := range []Source{SourceKind, SourceMessage} {
		written := false
		for _, ls := range spec.leaves {
			written = written || ls.source == s
		}
		if !written && spec.declared && !spec.incomplete {
			b.l.errorf(b.l.at(spec.fieldsPos), "layout: fields must put %s on the wire (e.g. error.%s: %s)", s, s, s)
		}
	}
}

// placeUnplaced adds each of fs that layout.fields does not place (and
// skip does not hold) under path, by its own name.
func (b *layoutBuilder) placeUnplaced(fs []*Field, path string, skip map[*Field]bool) {
	for _, f := range fs {
		if skip[f] || b.spec.placed(f.Name) {
			continue
		}
		p := f.Name
		if path != "" {
			p = path + "." + f.Name
		}
		b.add(leafSpec{path: p, source: SourceField, field: f.Name, pos: f.Pos}, f)
	}
}

// checkDerivedSources reports a derived field with nothing to derive from.
func (b *layoutBuilder) checkDerivedSources() {
	c := b.c
	if lf := b.mapped[SourceRetryable]; lf != nil {
		retryStep, retryValue := false, false
		for _, a := range c.Actions {
			retryStep = retryStep || a.Step == StepRetry
		}
		for _, s := range c.SameArguments {
			retryValue = retryValue || s.Retry
		}
		if !retryStep || !retryValue {
			b.l.errorf(b.l.at(lf.Pos), "layout: %q derives from retryable, which has no source: it needs a recovery action with step retry and a same_arguments value with retry: true", lf.Path)
		}
	}
	if lf := b.mapped[SourceMayHaveRun]; lf != nil {
		any := false
		for _, s := range c.SideEffects {
			any = any || s.MayHaveRun
		}
		if !any {
			b.l.errorf(b.l.at(lf.Pos), "layout: %q derives from may_have_run, which has no source: every side_effects value says may_have_run: false; leave it out (true) on the values after which work may have run", lf.Path)
		}
	}
}

// checkAliases reports an alias that is also a member of its leaf's
// object: aliases share their object's namespace.
func (b *layoutBuilder) checkAliases() {
	for _, lf := range b.leaves {
		for _, a := range lf.Aliases {
			for _, m := range lf.Object.Members {
				if m.Name() == a {
					b.l.errorf(b.l.at(lf.Pos), "layout: alias %q of %q is also a member of the same object; drop the alias", a, lf.Path)
				}
			}
		}
	}
}

// collect lists o and the objects and leaves below it in the layout, in
// tree order, names each object and marks it required when a leaf below it
// is; it reports whether o is required.
func (b *layoutBuilder) collect(o *Object) bool {
	lo := b.lo
	lo.Objects = append(lo.Objects, o)
	o.Idents = identsFor(map[bool]string{true: "root", false: strings.ReplaceAll(o.Path, ".", "_")}[o.Path == ""])
	for _, m := range o.Members {
		if m.Leaf != nil {
			lo.Leaves = append(lo.Leaves, m.Leaf)
			o.Required = o.Required || m.Leaf.Required()
		} else if b.collect(m.Object) {
			o.Required = true
		}
	}
	return o.Required
}

// checkDerivedGoNames reports a derived field whose Go name lands on
// another member: a derived field keeps its received value in a generated
// field of its own name.
func (b *layoutBuilder) checkDerivedGoNames() {
	goNames := map[string]bool{}
	for _, m := range GoEnvelopeMembers {
		goNames[m] = true
	}
	for _, f := range b.c.EnvelopeFields {
		goNames[f.Idents.Go], goNames["With"+f.Idents.Go] = true, true
	}
	for _, lf := range b.lo.Leaves {
		if lf.Source.Derived() && goNames[lf.Idents.Go] {
			b.l.errorf(b.l.at(lf.Pos), "layout: %q becomes the Go field %s, which the generated Envelope already has; rename the wire field", lf.Path, lf.Idents.Go)
		}
	}
}

func sortStrings(s []string) { sort.Strings(s) }

// DefaultTopLevel returns the top-level member names of the default layout:
// the names a context or kind-specific field cannot take when the contract
// declares no layout.
func DefaultTopLevel() []string { return defaultLayout().membersAt("") }
