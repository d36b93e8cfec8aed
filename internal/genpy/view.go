package genpy

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/naming"
	"github.com/errgen/errgen/internal/render"
	"github.com/errgen/errgen/internal/runtimedata"
	"github.com/errgen/errgen/internal/targets"
)

// view is what the templates read. Strings are raw: templates quote them
// with py (a string literal) or doc (comment text). Data tables are
// prebuilt Python expressions.
type view struct {
	runtimedata.Common
	render.Direct                  // {{.Raw .Classifications}}: the tables written without a copy
	Packages      targets.Packages // the generation settings' names and metadata
	Package       string           // the import name: agent_error
	Dist          string           // the distribution name: agent-error
	Version       string           // the package version derived from the contract version
	// ContractVersion is the wire version as a Python literal: 1 or "0.1".
	ContractVersion string
	VersionType     string // int or str

	Kinds         []kindView
	ContextFields []fieldView
	KindFields    []fieldView
	ObjectTypes   []objectType
	Received      []fieldView

	// The HTTP reader's promotion mark: the member it promotes a short
	// form into and the mark it leaves.
	PromotedMember, PromotedShortForm string

	BaseError   string
	GroupErrors []errorClass
	KindErrors  []errorClass

	// The sanitizer policy's scalars as Python literals; Secrets lists the
	// contract's secret shapes with their names and descriptions (its
	// tables are Common's).
	SanitizeMaxLength        int
	SanitizeTruncationMarker string
	SanitizeSecrets          []secretView
	// SanitizePaths (True or False): whether home directories and
	// credential paths are redacted.
	SanitizePaths string
	// WithFieldsExample is the attribute the README sets with with_fields:
	// the first sanitized context or kind-specific field, else guidance.
	WithFieldsExample string
	// RequiredContext are the context fields the layout requires: every
	// constructor takes them after the message.
	RequiredContext []paramView
	// FillsGuidance is false when constructors leave the guidance empty.
	FillsGuidance bool
	// MCPErrorSchema is the compact JSON of the schema mcp_output_schema
	// admits beside a tool's success schema (genschema.MCPErrorSchema).
	MCPErrorSchema string
}

type secretView struct {
	Name, Doc, Shape string
}

type kindView struct {
	Name, Const, Func, Doc string
	Params                 []paramView
}

type paramView struct {
	Name, Type, Value string
}

type fieldView struct {
	Attr, Type, Doc string
}

type objectType struct {
	Name, Doc string
	Members   []memberView
}

type memberView struct {
	Attr, Type, Doc string
	Required        bool
}

type errorClass struct {
	Class, Parent, Name, Doc string
}

// classNames are the class names a class named from the contract must not
// take: the package's own types and imports, Python's builtins (its
// exceptions above all) and the keywords written with a capital (None).
// The map is made with room for n more, the contract's classes.
func classNames(n int) map[string]bool {
	taken := make(map[string]bool, 512+n)
	for _, class := range []naming.Class{naming.Package, naming.Builtin, naming.Keyword} {
		for _, name := range naming.Reserved(naming.Python, class) {
			taken[name] = true
		}
	}
	return taken
}

func newView(c *contract.Contract, o targets.Options) (*view, error) {
	// Class names first: the exceptions, then the object types, which the
	// printed tables name.
	taken := classNames(len(c.Groups) + len(c.Kinds) + len(c.EnvelopeFields))
	py := runtimedata.PythonPrinter{Classes: map[*contract.Field]string{}}
	objNames := py.Classes
	base, groupErrors, kindErrors, err := errorClasses(c, taken)
	if err != nil {
		return nil, err
	}
	objTypes, err := objectTypes(c, taken, objNames)
	if err != nil {
		return nil, err
	}
	t := runtimedata.Shared(c, o.Shared)
	v := &view{
		Common: runtimedata.NewCommon(c, t, runtimedata.Syntax{
			Comment: "#",
			Const:   func(id *contract.Idents) string { return id.PythonConst },
			// classify_type_ -> classify_type: no keyword to avoid after the prefix
			ClassifierFunc: func(cl *contract.Classifier) string {
				return strings.TrimSuffix("classify_"+cl.Idents.PythonLocal, "_")
			},
			Printer: py,
		}),
		Packages:    o.Packages,
		Package:     o.Packages.Python,
		Dist:        o.Packages.PythonDist,
		Version:     pyVersion(c.Release, c.VersionLabel()),
		BaseError:   base,
		GroupErrors: groupErrors,
		KindErrors:  kindErrors,
		ObjectTypes: objTypes,
	}
	if c.VersionIsText() {
		v.ContractVersion, v.VersionType = pyLit(c.VersionText), "str"
	} else {
		v.ContractVersion, v.VersionType = strconv.Itoa(c.Version), "int"
	}
	p := c.Sanitize
	v.SanitizeMaxLength, v.SanitizeTruncationMarker, v.SanitizePaths = p.MaxLength, pyLit(p.TruncationMarker), pyLit(p.Paths)
	for i, sec := range p.Secrets {
		// A secret shape is a tuple of the values after its name, which
		// the comment above it gives.
		var shape runtimedata.List
		for _, f := range t.SanitizeSecrets[i].(runtimedata.Record).Fields[1:] {
			shape = append(shape, f.Value)
		}
		v.SanitizeSecrets = append(v.SanitizeSecrets, secretView{Name: sec.Name, Doc: sec.Description, Shape: py.Print(shape)})
	}
	v.WithFieldsExample = "guidance"
	for _, name := range p.Fields {
		if f := c.EnvelopeField(name); f != nil {
			v.WithFieldsExample = f.Idents.PythonLocal
			break
		}
	}

	for _, fs := range []struct {
		in  []*contract.Field
		out *[]fieldView
	}{{c.ContextFields, &v.ContextFields}, {c.KindFields, &v.KindFields}} {
		for _, f := range fs.in {
			// The loader has rejected attributes that clash with Envelope's
			// members, the constructors' keyword arguments or each other.
			doc := fmt.Sprintf("%q on the wire. %s", c.Layout.FieldPath(f), f.Description)
			if c.Layout.RequiredLeaf(f) != nil {
				doc += " The layout requires it: every constructor takes it, and an envelope without it, or with it empty, is not encoded. (None only on an envelope built from a response that carried none, which the caller completes.)"
			}
			*fs.out = append(*fs.out, fieldView{Attr: f.Idents.PythonLocal, Type: pyType(f, objNames, false), Doc: doc})
		}
	}
	v.FillsGuidance = c.Layout.FillsGuidance()
	schema, err := genschema.MCPErrorSchema(c)
	if err != nil {
		return nil, fmt.Errorf("genpy: the MCP error schema: %w", err)
	}
	v.MCPErrorSchema = string(schema)
	for _, f := range c.RequiredContext {
		v.RequiredContext = append(v.RequiredContext, paramView{Name: f.Idents.PythonLocal, Type: "str", Value: f.Idents.PythonLocal})
	}
	for _, d := range runtimedata.DerivedLeaves(c) {
		typ := "Optional[bool]"
		if d.Group {
			typ = "Optional[str]"
		}
		v.Received = append(v.Received, fieldView{Attr: d.Leaf.Idents.PythonLocal, Type: typ, Doc: d.Doc})
	}

	funcNames := make(map[string]bool, len(c.Kinds))
	for _, k := range c.Kinds {
		fn := "new_" + k.Idents.PythonLocal
		fn = strings.TrimSuffix(fn, "_") // new_type_ -> new_type: no keyword to avoid after the prefix
		// The loader has reported a constructor landing on the package's names.
		if naming.Is(naming.Python, naming.Package, fn) || funcNames[fn] {
			return nil, fmt.Errorf("genpy: kind %q: its constructor %s would take the name of a function the package already exports; rename the kind", k.Name, fn)
		}
		funcNames[fn] = true
		kv := kindView{Name: k.Name, Const: k.Idents.PythonConst, Func: fn, Doc: k.Description}
		for _, f := range k.RequiredFields() {
			p := paramView{Name: f.Idents.PythonLocal, Type: pyType(f, objNames, true), Value: f.Idents.PythonLocal}
			if f.Type == contract.TypeArray {
				p.Value = "tuple(" + p.Name + ")"
			}
			if p.Name == "message" {
				return nil, fmt.Errorf("genpy: kind %q: field %q would shadow the constructor's message parameter; rename the field", k.Name, f.Name)
			}
			kv.Params = append(kv.Params, p)
		}
		v.Kinds = append(v.Kinds, kv)
	}
	v.PromotedMember, v.PromotedShortForm = contract.PromotedMember, contract.PromotedShortForm
	for _, cl := range v.Classifiers {
		if naming.Is(naming.Python, naming.Package, cl.Func) || funcNames[cl.Func] { // the loader has reported it
			return nil, fmt.Errorf("genpy: classifier %q: its function %s would take the name of a function the package already exports; rename the classifier", cl.Name, cl.Func)
		}
		funcNames[cl.Func] = true
	}
	return v, nil
}

// pascal is a class name built from any name: agent-error -> AgentError.
func pascal(name string) string {
	var b strings.Builder
	for _, w := range regexp.MustCompile(`[^A-Za-z0-9]+`).Split(name, -1) {
		if w == "" {
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	s := b.String()
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		s = "X" + s
	}
	return s
}

// errorName appends Error to a class name unless it already ends so.
func errorName(base string) string {
	if strings.HasSuffix(base, "Error") {
		return base
	}
	return base + "Error"
}

// pick returns the first candidate not yet taken and takes it; when every
// one is taken, the last with a number appended (TimeoutKindError2), so a
// contract the loader accepted always gets its classes.
func pick(taken map[string]bool, candidates ...string) (string, bool) {
	for _, c := range candidates {
		if !taken[c] {
			taken[c] = true
			return c, true
		}
	}
	last := candidates[len(candidates)-1]
	name := naming.FreeName(last, "", func(s string) bool { return taken[s] })
	taken[name] = true
	return name, true
}

// errorClasses names the exception hierarchy. The names are resolved in a
// fixed order so they are deterministic: the base class (<Contract>Error, or
// <Contract>ContractError when that is taken), then one class per group in
// contract order (<Group>Error, else <Group>GroupError), then one per kind
// in contract order (<Kind>Error, else <Kind>KindError). Groups come before
// kinds because they are the buckets callers catch; a name that is still
// taken is an error asking to rename.
func errorClasses(c *contract.Contract, taken map[string]bool) (string, []errorClass, []errorClass, error) {
	cname := pascal(c.Name)
	base, ok := pick(taken, errorName(cname), cname+"ContractError")
	if !ok {
		return "", nil, nil, fmt.Errorf("genpy: contract %q: no free name for its exception class", c.Name)
	}
	var groups, kinds []errorClass
	byGroup := map[*contract.Group]string{}
	for _, g := range c.Groups {
		t := g.Idents.TSType
		name, ok := pick(taken, errorName(t), t+"GroupError")
		if !ok {
			return "", nil, nil, fmt.Errorf("genpy: group %q: no free name for its exception class (tried %s and %sGroupError); rename the group", g.Name, errorName(t), t)
		}
		byGroup[g] = name
		groups = append(groups, errorClass{Class: name, Parent: base, Name: g.Name, Doc: g.Description})
	}
	kinds = make([]errorClass, 0, len(c.Kinds))
	for _, k := range c.Kinds {
		t := k.Idents.TSType
		// pick(taken, errorName(t), t+"KindError"), without making the
		// second name for the kinds (nearly all) that take the first.
		name, ok := errorName(t), true
		if taken[name] {
			name, ok = pick(taken, t+"KindError")
		} else {
			taken[name] = true
		}
		if !ok {
			return "", nil, nil, fmt.Errorf("genpy: kind %q: no free name for its exception class (tried %s and %sKindError); rename the kind", k.Name, errorName(t), t)
		}
		parent := base
		if k.Group != nil && byGroup[k.Group] != "" {
			parent = byGroup[k.Group]
		}
		kinds = append(kinds, errorClass{Class: name, Parent: parent, Name: k.Name, Doc: k.Description})
	}
	return base, groups, kinds, nil
}

// pyVersion is the package's PEP 440 version: the contract's release
// (1.1.0, or 1 -> 1.0.0, "0.1" -> 0.1.0 by default). A text version that is
// not one to three dot-separated numbers, without a release, becomes a
// local version of 0.0.0 so pip still accepts it.
func pyVersion(release, label string) string {
	if release != "" {
		return release
	}
	if v, ok := contract.ReleaseVersion(label); ok {
		return v
	}
	clean := strings.Trim(regexp.MustCompile(`[^0-9A-Za-z]+`).ReplaceAllString(label, "."), ".")
	if clean == "" {
		clean = "unversioned"
	}
	return "0.0.0+" + strings.ToLower(clean)
}

// scalarTypes are the Python types of one value of each type.
var scalarTypes = map[contract.FieldType]string{
	contract.TypeString: "str", contract.TypeInteger: "int", contract.TypeNumber: "float",
	contract.TypeBoolean: "bool", contract.TypeObject: "Mapping[str, Any]",
}

// scalarType is the Python type of one value of type t.
func scalarType(t contract.FieldType) string {
	if s, ok := scalarTypes[t]; ok {
		return s
	}
	panic("genpy: unhandled type " + t)
}

// pyType is the Python type of a field; optional wraps it in Optional
// unless required is set.
func pyType(f *contract.Field, objNames map[*contract.Field]string, required bool) string {
	var t string
	switch {
	case f.Type == contract.TypeArray:
		t = "Sequence[" + scalarType(f.Items) + "]"
	case f.Type == contract.TypeObject && len(f.Properties) > 0:
		t = objNames[f]
	default:
		t = scalarType(f.Type)
	}
	if required {
		return t
	}
	return "Optional[" + t + "]"
}

// objectTypes lists a frozen dataclass for every object field with
// properties, nested ones first so a class is defined before it is used.
func objectTypes(c *contract.Contract, taken map[string]bool, names map[*contract.Field]string) ([]objectType, error) {
	var out []objectType
	byName := map[string]bool{}
	var emit func(f *contract.Field) error
	emit = func(f *contract.Field) error {
		if f.Type != contract.TypeObject || len(f.Properties) == 0 {
			return nil
		}
		t := f.Idents.TSType
		if byName[t] || byName[t+"Fields"] {
			// Declared once already (a field name has one type).
			if byName[t] {
				names[f] = t
			} else {
				names[f] = t + "Fields"
			}
			return nil
		}
		for _, p := range f.Properties {
			if err := emit(p); err != nil {
				return err
			}
		}
		name, ok := pick(taken, t, t+"Fields")
		if !ok {
			return fmt.Errorf("genpy: field %q: no free name for its class; rename the field", f.Name)
		}
		byName[name] = true
		names[f] = name
		ot := objectType{Name: name, Doc: fmt.Sprintf("The %s field. %s", f.Name, f.Description)}
		var req, opt []memberView
		for _, p := range f.Properties {
			// A required scalar is always set (decoding fills its zero value, as
			// Go's decoder does); a required array or object may be None.
			scalar := p.Type != contract.TypeArray && p.Type != contract.TypeObject
			m := memberView{Attr: p.Idents.PythonLocal, Type: pyType(p, names, p.Required && scalar), Doc: fmt.Sprintf("%q on the wire. %s", p.Name, p.Description), Required: p.Required}
			if p.Required {
				req = append(req, m)
			} else {
				opt = append(opt, m)
			}
		}
		ot.Members = append(req, opt...)
		out = append(out, ot)
		return nil
	}
	for _, f := range c.EnvelopeFields {
		if err := emit(f); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// pyLit is a string or bool as a Python literal.
func pyLit(v any) string { return runtimedata.PythonPrinter{}.Print(v) }

// pyStr is pyLit of a string, the templates' py: a string the printer
// writes without an escape is quoted here in one allocation, and the
// compiled templates (render.Compile) call it without boxing the string.
func pyStr(s string) string {
	if !plainString(s) {
		return pyLit(s)
	}
	return "\"" + s + "\""
}

// plainString reports whether the printer writes s between quotes as it is.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// quoter is py: pyStr for text/template, and for the compiled templates
// also an appender (render.Appender) that writes a plain string's literal
// straight into the file.
type quoter func(string) string

// AppendString appends pyStr(s) to dst.
func (quoter) AppendString(dst []byte, s string) []byte {
	if !plainString(s) {
		return append(dst, pyLit(s)...)
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

var funcs = template.FuncMap{
	"py":     quoter(pyStr),
	"doc":    doc,
	"docstr": docstr,
	"join": func(sep string, xs []string) string {
		return strings.Join(xs, sep)
	},
	"sorted": func(xs []string) []string {
		out := append([]string(nil), xs...)
		sort.Strings(out)
		return out
	},
}

// docstr is doc for the inside of a """docstring""": a backslash would
// start an escape sequence (an invalid one warns, and will be an error)
// and a quote could end the string, so both are escaped.
func docstr(s string) string {
	return docstrEscaper.Replace(doc(s))
}

// docstrEscaper is built once: docstr runs for every kind and field, and
// building a Replacer costs more than using it.
var docstrEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// printableASCII reports whether s is only printable ASCII characters.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// doc makes s safe as the text of one Python comment line: line breaks and
// other control characters (and U+2028, U+2029) become spaces.
func doc(s string) string {
	s = strings.TrimSpace(s)
	if printableASCII(s) {
		return s // as most text is: nothing to replace
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' || r == '\u0085' {
			r = ' '
		}
		b.WriteRune(r)
	}
	return b.String()
}
