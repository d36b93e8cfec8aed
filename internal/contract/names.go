package contract

import (
	"fmt"
	"strings"

	"github.com/errgen/errgen/internal/naming"
	"github.com/errgen/errgen/internal/targets"
	"gopkg.in/yaml.v3"
)

func identsFor(name string) Idents {
	return naming.All(name) // the words of name split once for all ten forms
}

// applyNaming rewrites name in the naming pattern p, for suggestions.
func applyNaming(p Naming, name string) string {
	words := naming.Words(name)
	switch p {
	case SnakeCase:
		return strings.Join(words, "_")
	case ScreamingSnakeCase:
		return strings.ToUpper(strings.Join(words, "_"))
	case PascalCase:
		return naming.TSType(name)
	case KebabCase:
		return strings.Join(words, "-")
	}
	return name
}

// collide records v in seen and reports the first earlier value that becomes
// the same identifier in some language (the targets' Forms, in order),
// naming the first identifier the two share. Distinct names that print the
// same in generated code would otherwise produce code that does not
// compile, or silently merge two kinds. The message names one identifier,
// not every language's, so that adding a language changes no message of
// the others.
func (l *loader) collide(seen *identities, v *Value, what string) {
	var clash *Value
	var shared string
	form := 0
	for _, t := range targets.All {
		for _, formOf := range t.Forms {
			id := formOf(&v.Idents)
			if other := seen.get(form, id); other != nil && other.Name != v.Name {
				if clash == nil {
					clash, shared = other, id+" in "+string(t.Lang)
				}
				form++
				continue
			}
			seen.set(form, id, v)
			form++
		}
	}
	if clash != nil {
		l.reportClash(v, clash, what, shared)
	}
}

// reportClash reports that v collides with clash, both becoming shared (an
// identifier in a language).
func (l *loader) reportClash(v, clash *Value, what, shared string) {
	at := l.at(v.Pos)
	l.errorf(at, "%s %q collides with %s %q (%s): both become %s; rename one",
		what, v.Name, what, clash.Name, l.where(at, clash.Pos), shared)
}

// identities are the values collide has seen, by the identifier each
// becomes in each of the targets' Forms, in order: a list searched while
// it is short (the fields of a kind), then one map a form (a map keyed by
// a string alone is the runtime's quick kind).
type identities struct {
	few    []identity
	byForm []map[string]*Value
}

type identity struct {
	form int
	id   string
	v    *Value
}

// fewIdentities is how many identities a list holds before they move to
// maps.
const fewIdentities = 64

// newIdentities is an empty identities, made for size values when that is
// not 0.
func newIdentities(size int) *identities {
	if size*formCount() <= fewIdentities {
		return &identities{}
	}
	seen := &identities{byForm: make([]map[string]*Value, formCount())}
	for i := range seen.byForm {
		seen.byForm[i] = make(map[string]*Value, size)
	}
	return seen
}

func (s *identities) get(form int, id string) *Value {
	if s.byForm != nil {
		return s.byForm[form][id]
	}
	for _, i := range s.few {
		if i.form == form && i.id == id {
			return i.v
		}
	}
	return nil
}

func (s *identities) set(form int, id string, v *Value) {
	if s.byForm == nil {
		for i := range s.few {
			if s.few[i].form == form && s.few[i].id == id {
				s.few[i].v = v
				return
			}
		}
		if len(s.few) < fewIdentities {
			s.few = append(s.few, identity{form, id, v})
			return
		}
		s.byForm = make([]map[string]*Value, formCount())
		for i := range s.byForm {
			s.byForm[i] = map[string]*Value{}
		}
		for _, i := range s.few {
			s.byForm[i.form][i.id] = i.v
		}
		s.few = nil
	}
	s.byForm[form][id] = v
}

// formCount is how many Forms the targets have: the identities of a name.
func formCount() int {
	n := 0
	for _, t := range targets.All {
		n += len(t.Forms)
	}
	return n
}

// GoTrustedSuffix makes NewTrusted, the generated Go constructor that does
// not sanitize; a kind whose Go name it is would take that name.
const GoTrustedSuffix = "Trusted"

// GoEnvelopeMembers are the field and method names the Go emitter puts on the
// generated Envelope type besides the per-field ones (Go name and With+Go
// name). A context or kind-specific field whose Go names land on one of these
// would not compile, so validation rejects it with a position. A test of the
// generated package checks this list against the real method set.
var GoEnvelopeMembers = []string{
	"ContractVersion", "Kind", "Message", "Origin", "Recovery", "SideEffects", "Extra",
	"Error", "Is", "Classification", "HTTPStatus", "LogLevel", "CountsTowardBreaker", "IsRetryable", "IsStartupFailure", "WorkMayHaveRun", "WithToolAnnotations", "WriteHTTP", "Problem", "ToolResult", "TextToolResult", "ExitCode", "WriteCLI", "MCPErrorCode", "MCPError", "MCPErrorResponse", "UpstreamToolResult",
	"AppendJSON", "MarshalJSON", "UnmarshalJSON", "UnmarshalJSONRaw", "WithRetryAfter", "WithGuidance", "WithSideEffects", "WithExtra",
	"PromotedFrom", "LogValue", "AIP193", "RPCStatus", "GoString",
}

// PythonEnvelopeMembers are the attribute names the Python emitter puts on
// the generated Envelope besides one per field, and PythonKeywordArguments
// the keyword arguments its constructors and with_fields take besides the
// fields. A field whose Python attribute is one of these could not be set
// or passed, so validation rejects it with a position.
var (
	PythonEnvelopeMembers = []string{"contract_version", "kind", "message", "origin", "recovery", "side_effects",
		"received", "extra", "to_dict", "to_json", "from_dict", "from_json", "classification"}
	PythonKeywordArguments = []string{"trusted", "guidance"}
)

// RustEnvelopeMethods are the methods the Rust emitter puts on the
// generated Envelope besides one setter (with_<field>) per field. A field
// whose setter lands on one of them would not compile, so validation
// rejects it with a position. (A Rust field may share a method's name:
// e.classification and e.classification() do not clash.)
var RustEnvelopeMethods = []string{"with_retry_after", "with_guidance", "with_side_effects", "with_extra",
	"with_tool_annotations", "with_retry_after_ms"}

// RustEnvelopeFields are the fields of the generated Rust Envelope besides
// one per context and kind-specific field.
var RustEnvelopeFields = []string{"contract_version", "kind", "message", "origin", "recovery", "side_effects", "extra"}

// checkFields validates context and kind-specific fields against the envelope
// and each other, and builds the union of kind-specific fields.
func (l *loader) checkFields(c *Contract, spec *layoutSpec) map[*Field]bool {
	at := func(f *Field) *yaml.Node { return l.at(f.Pos) }
	skip := map[*Field]bool{}
	// A field the layout does not place itself lands beside the layout's own
	// members at its section's path; those names are taken.
	members := map[string][]string{} // membersAt, by path: asked for every field
	reservedFor := func(f *Field, path string) []string {
		if spec.placed(f.Name) {
			return nil
		}
		at, ok := members[path]
		if !ok {
			at = spec.membersAt(path)
			members[path] = at
		}
		return at
	}
	goMembers := map[string]bool{}
	for _, m := range GoEnvelopeMembers {
		goMembers[m] = true
	}
	checkPython := func(f *Field, what string) {
		switch a := f.Idents.PythonLocal; {
		case contains(PythonEnvelopeMembers, a):
			l.errorf(at(f), "%s %q becomes the Python attribute %s, which the generated Envelope already defines; rename the field", what, f.Name, a)
		case contains(PythonKeywordArguments, a):
			l.errorf(at(f), "%s %q becomes the Python attribute %s, which is a keyword argument of the constructors and with_fields; rename the field", what, f.Name, a)
		case naming.Is(naming.Python, naming.Local, a):
			// Fields are the constructors' and with_fields' keyword
			// arguments, part of the API: no escape, a rename.
			l.errorf(at(f), "%s %q becomes the Python parameter %s, which would shadow the name the generated constructors use in their bodies; rename the field", what, f.Name, a)
		}
	}
	checkRust := func(f *Field, what string) {
		setter := "with_" + strings.TrimSuffix(f.Idents.RustLocal, "_")
		switch {
		case contains(RustEnvelopeFields, f.Idents.RustLocal):
			l.errorf(at(f), "%s %q becomes the Rust field %s, which the generated Envelope already defines; rename the field", what, f.Name, f.Idents.RustLocal)
		case contains(RustEnvelopeMethods, setter):
			l.errorf(at(f), "%s %q gets the Rust setter %s, which the generated Envelope already defines; rename the field", what, f.Name, setter)
		}
	}
	// Every envelope field shares one namespace per language.
	seen := map[string]*Value{}
	goOwner := map[string]*Field{}
	checkGo := func(f *Field, what string) {
		for _, member := range []string{f.Idents.Go, "With" + f.Idents.Go} {
			if goMembers[member] {
				l.errorf(at(f), "%s %q becomes the Go member %s, which the generated Envelope already defines; rename the field", what, f.Name, member)
				return
			}
			if owner, ok := goOwner[member]; ok && owner.Name != f.Name {
				// Two fields with one Go name are reported by collide
				// below; only a field landing on another's With method
				// is reported here.
				if owner.Idents.Go != f.Idents.Go {
					l.errorf(at(f), "%s %q becomes the Go member %s, which field %q already produces; rename the field", what, f.Name, member, owner.Name)
				}
				return
			}
		}
		goOwner[f.Idents.Go] = f
		goOwner["With"+f.Idents.Go] = f
	}
	for _, f := range c.ContextFields {
		if contains(reservedFor(f, spec.contextAt), f.Name) {
			l.errorf(at(f), "context field %q clashes with the envelope's own field %q; rename it", f.Name, f.Name)
			skip[f] = true
			continue
		}
		checkGo(f, "context field")
		checkPython(f, "context field")
		checkRust(f, "context field")
		seen["ctx:"+f.Name] = &Value{Name: f.Name, Pos: f.Pos}
	}
	union := map[string]*Field{}
	for _, k := range c.Kinds {
		what := ""
		if len(k.Fields) > 0 {
			what = fmt.Sprintf("kind %q: field", k.Name)
		}
		for _, f := range k.Fields {
			switch {
			case contains(reservedFor(f, spec.kindFieldAt), f.Name):
				skip[f] = true
				l.errorf(at(f), "%s %q clashes with the envelope's own field %q; rename it", what, f.Name, f.Name)
				continue
			case seen["ctx:"+f.Name] != nil:
				l.errorf(at(f), "%s %q clashes with the context field %q (%s); rename it or use the context field", what, f.Name, f.Name, l.where(at(f), seen["ctx:"+f.Name].Pos))
				continue
			}
			if first, ok := union[f.Name]; ok {
				// The same field on several kinds is one envelope field, so
				// it must mean the same thing everywhere.
				if !sameShape(first, f) {
					l.errorf(at(f), "%s %q is %s here but %s at %s; a field shared by kinds must have one type", what, f.Name, typeString(f), typeString(first), l.where(at(f), first.Pos))
				}
				continue
			}
			checkGo(f, what)
			checkPython(f, what)
			checkRust(f, what)
			union[f.Name] = f
			c.KindFields = append(c.KindFields, f)
		}
	}
	// Context and kind-specific fields together must stay distinct in every
	// language once converted.
	c.EnvelopeFields = append(append([]*Field(nil), c.ContextFields...), c.KindFields...)
	all := newIdentities(0)
	for _, f := range c.EnvelopeFields {
		l.collide(all, &Value{Name: f.Name, Pos: f.Pos, Idents: f.Idents}, "field")
	}
	return skip
}

// sameShape reports whether two field declarations describe the same value.
func sameShape(a, b *Field) bool {
	if a.Type != b.Type || a.Items != b.Items || len(a.Enum) != len(b.Enum) || len(a.Properties) != len(b.Properties) {
		return false
	}
	for i := range a.Enum {
		if a.Enum[i] != b.Enum[i] {
			return false
		}
	}
	for i := range a.Properties {
		pa, pb := a.Properties[i], b.Properties[i]
		if pa.Name != pb.Name || pa.Required != pb.Required || !sameShape(pa, pb) {
			return false
		}
	}
	return true
}

func typeString(f *Field) string {
	s := string(f.Type)
	if f.Type == TypeArray {
		s = "an array of " + string(f.Items)
	}
	if len(f.Enum) > 0 {
		s += " (enum " + strings.Join(f.Enum, ", ") + ")"
	}
	if len(f.Properties) > 0 {
		names := make([]string, len(f.Properties))
		for i, p := range f.Properties {
			names[i] = p.Name
		}
		s += " with properties " + strings.Join(names, ", ")
	}
	return s
}
