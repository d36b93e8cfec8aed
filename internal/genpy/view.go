package genpy

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/naming"
)

// view is what the templates read. Strings are raw: templates quote them
// with py (a string literal) or doc (comment text). Data tables are
// prebuilt Python expressions.
type view struct {
	Header   string // the first line of every generated file
	Marker   string
	C        *contract.Contract
	MaxDepth int    // contract.MaxDepth, the nesting limit every decoder shares
	Package  string // the import name: agent_error
	Dist     string // the distribution name: agent-error
	Version  string // the package version derived from the contract version
	Contract string
	// ContractVersion is the wire version as a Python literal: 1 or "0.1".
	ContractVersion string
	VersionType     string // int or str

	Kinds         []kindView
	Origins       []valueView
	Actions       []valueView
	SameArguments []valueView
	SideEffects   []valueView
	Groups        []valueView

	ContextFields []fieldView
	KindFields    []fieldView
	ObjectTypes   []objectType
	Received      []fieldView

	Classifications string
	Fallback        string
	Layout          string
	Fields          string
	Inbound         string
	Retry           string
	ActionSteps     string
	RetrySame       string
	MayHaveRun      string
	Upgrades        string
	ExitCodes       string

	// The HTTP reader: the short form it promotes (None without one) and
	// the promotion mark, the kinds of statuses only one kind has, the
	// prefix of a kind named after a status.
	ShortForm                         string
	PromotedMember, PromotedShortForm string
	HTTPKinds                         string
	SyntheticPrefix                   string

	Classifiers     []classifierView
	HasInbound      bool
	HasToolResult   bool
	FirstClassifier string

	BaseError   string
	GroupErrors []errorClass
	KindErrors  []errorClass

	ProblemTypeBase string
	DefaultExitCode int
	Description     string

	// The sanitizer policy as Python literals; Secrets lists the
	// contract's secret shapes with their names and descriptions.
	SanitizeMaxLength        int
	SanitizeTruncationMarker string
	SanitizeMarkers          string
	SanitizeSecrets          []secretView
	SanitizedFields          string
	// SanitizePaths (True or False) and SanitizeCredentialNames (a tuple):
	// whether home directories and credential paths are redacted, and the
	// names that make a credential path.
	SanitizePaths           string
	SanitizeCredentialNames string
	// WithFieldsExample is the attribute the README sets with with_fields:
	// the first sanitized context or kind-specific field, else guidance.
	WithFieldsExample string
	// RequiredContext are the context fields the layout requires: every
	// constructor takes them after the message.
	RequiredContext []paramView
	// FillsGuidance is false when constructors leave the guidance empty.
	FillsGuidance bool
}

type secretView struct {
	Name, Doc, Shape string
}

type valueView struct {
	Name, Const, Doc string
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

type classifierView struct {
	Name, Func, Doc string
	Index           int
}

type errorClass struct {
	Class, Parent, Name, Doc string
}

// classNames are the class names a class named from the contract must not
// take: the package's own types and imports, Python's builtins (its
// exceptions above all) and the keywords written with a capital (None).
func classNames() map[string]bool {
	taken := map[string]bool{}
	for _, class := range []naming.Class{naming.Package, naming.Builtin, naming.Keyword} {
		for _, name := range naming.Reserved(naming.Python, class) {
			taken[name] = true
		}
	}
	return taken
}

func newView(c *contract.Contract) (*view, error) {
	v := &view{
		Header:          "# " + marker.Text,
		MaxDepth:        contract.MaxDepth,
		Marker:          marker.Text,
		C:               c,
		Package:         c.Packages.Python,
		Dist:            c.Packages.PythonDist,
		Version:         pyVersion(c.VersionLabel()),
		Contract:        c.Name,
		Description:     c.Description,
		ProblemTypeBase: c.Surfaces.ProblemTypeBase,
		DefaultExitCode: c.Surfaces.CLI.DefaultExitCode,
	}
	if c.VersionIsText() {
		v.ContractVersion, v.VersionType = pyLit(c.VersionText), "str"
	} else {
		v.ContractVersion, v.VersionType = strconv.Itoa(c.Version), "int"
	}
	p := c.Sanitize
	v.SanitizeMaxLength, v.SanitizeTruncationMarker = p.MaxLength, pyLit(p.TruncationMarker)
	v.SanitizeMarkers, v.SanitizedFields = pyLit(p.Markers), pyLit(p.Fields)
	v.SanitizePaths, v.SanitizeCredentialNames = pyLit(p.Paths), pyLit(p.AllCredentialNames())
	for _, sec := range p.Secrets {
		prefixes := make([]any, len(sec.Prefixes))
		for i, pre := range sec.Prefixes {
			prefixes[i] = pre
		}
		v.SanitizeSecrets = append(v.SanitizeSecrets, secretView{Name: sec.Name, Doc: sec.Description,
			Shape: pyLit([]any{prefixes, string(sec.Chars), sec.MinLength})})
	}
	v.WithFieldsExample = "guidance"
	for _, name := range p.Fields {
		if f := c.EnvelopeField(name); f != nil {
			v.WithFieldsExample = f.Idents.PythonLocal
			break
		}
	}
	vals := func(in []*contract.Value) []valueView {
		out := make([]valueView, len(in))
		for i, x := range in {
			out[i] = valueView{Name: x.Name, Const: x.Idents.PythonConst, Doc: x.Description}
		}
		return out
	}
	v.Origins, v.Actions, v.SameArguments = vals(contract.Values(c.Origins)), vals(contract.Values(c.Actions)), vals(contract.Values(c.SameArguments))
	v.SideEffects, v.Groups = vals(contract.Values(c.SideEffects)), vals(contract.Values(c.Groups))

	// Class names: the exceptions first, then the object types.
	taken := classNames()
	var err error
	if v.BaseError, v.GroupErrors, v.KindErrors, err = errorClasses(c, taken); err != nil {
		return nil, err
	}
	objNames := map[*contract.Field]string{}
	if v.ObjectTypes, err = objectTypes(c, taken, objNames); err != nil {
		return nil, err
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
	for _, f := range c.RequiredContext {
		v.RequiredContext = append(v.RequiredContext, paramView{Name: f.Idents.PythonLocal, Type: "str", Value: f.Idents.PythonLocal})
	}
	for _, lf := range c.Layout.Leaves {
		if !lf.Source.Derived() {
			continue
		}
		typ := "Optional[bool]"
		if lf.Source == contract.SourceGroup {
			typ = "Optional[str]"
		}
		v.Received = append(v.Received, fieldView{Attr: lf.Idents.PythonLocal, Type: typ,
			Doc: fmt.Sprintf("%q on the wire, derived from %s.", lf.Path, lf.Source)})
	}

	funcNames := map[string]bool{}
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

	v.Classifications = classificationTable(c)
	v.Fallback = pyLit(classificationOf(&c.Fallback.Classification, nil, c))
	v.Layout = pyLit(layoutObject(c.Layout.Root))
	v.Fields = pyLit(fieldSpecs(c, objNames))
	v.Retry = pyLit(pyCall{Func: "RetryPolicy", Args: orderedMap{{"initial_ms", c.Retry.InitialMs}, {"max_ms", c.Retry.MaxMs},
		{"multiplier", c.Retry.Multiplier}, {"jitter", c.Retry.Jitter}, {"max_attempts", c.Retry.MaxAttempts}, {"max_hint_ms", c.Retry.MaxHintMs}}})
	steps, upgrades, exits := orderedMap{}, orderedMap{}, orderedMap{}
	retrySame, mayHaveRun := []any{}, []any{}
	for _, a := range c.Actions {
		steps = append(steps, kv{a.Name, string(a.Step)})
	}
	for _, s := range c.SameArguments {
		if s.Retry {
			retrySame = append(retrySame, s.Name)
		}
		if s.UpgradeTo != nil {
			upgrades = append(upgrades, kv{s.Name, s.UpgradeTo.Name})
		}
	}
	for _, s := range c.SideEffects {
		if s.MayHaveRun {
			mayHaveRun = append(mayHaveRun, s.Name)
		}
	}
	for _, o := range c.Origins {
		if code, ok := c.Surfaces.CLI.ExitCodes[o]; ok {
			exits = append(exits, kv{o.Name, code})
		}
	}
	v.ActionSteps, v.Upgrades, v.ExitCodes = pyLit(steps), pyLit(upgrades), pyLit(exits)
	v.RetrySame, v.MayHaveRun = pyLit(frozenset(retrySame)), pyLit(frozenset(mayHaveRun))

	v.ShortForm, v.HTTPKinds, v.SyntheticPrefix = shortForm(c), httpKinds(c), c.SyntheticKindPrefix()
	v.PromotedMember, v.PromotedShortForm = contract.PromotedMember, contract.PromotedShortForm

	v.Inbound = "None"
	if in := c.Inbound; in != nil {
		v.HasInbound = true
		v.HasToolResult = in.ToolResult != nil
		v.FirstClassifier = in.Classifiers[0].Name
		v.Inbound = pyLit(inbound(in))
		for i, cl := range in.Classifiers {
			fn := strings.TrimSuffix("classify_"+cl.Idents.PythonLocal, "_")
			if naming.Is(naming.Python, naming.Package, fn) || funcNames[fn] { // the loader has reported it
				return nil, fmt.Errorf("genpy: classifier %q: its function %s would take the name of a function the package already exports; rename the classifier", cl.Name, fn)
			}
			funcNames[fn] = true
			v.Classifiers = append(v.Classifiers, classifierView{Name: cl.Name, Func: fn, Doc: cl.Description, Index: i})
		}
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
	for _, k := range c.Kinds {
		t := k.Idents.TSType
		name, ok := pick(taken, errorName(t), t+"KindError")
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

// pyVersion turns a contract version into a PEP 440 version: 1 -> 1.0.0,
// "0.1" -> 0.1.0. A version that is not one to three dot-separated numbers
// becomes a local version of 0.0.0 so pip still accepts it.
func pyVersion(label string) string {
	if v, ok := contract.ReleaseVersion(label); ok {
		return v
	}
	clean := strings.Trim(regexp.MustCompile(`[^0-9A-Za-z]+`).ReplaceAllString(label, "."), ".")
	if clean == "" {
		clean = "unversioned"
	}
	return "0.0.0+" + strings.ToLower(clean)
}

// scalarType is the Python type of one value of type t.
func scalarType(t contract.FieldType) string {
	switch t {
	case contract.TypeString:
		return "str"
	case contract.TypeInteger:
		return "int"
	case contract.TypeNumber:
		return "float"
	case contract.TypeBoolean:
		return "bool"
	case contract.TypeObject:
		return "Mapping[str, Any]"
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

// kv and orderedMap render as a Python dict in insertion order.
type kv struct {
	K string
	V any
}

type orderedMap []kv

// frozenset renders as a Python frozenset of its values.
type frozenset []any

// pyCall renders as a call of a name the module defines: f(args...).
type pyCall struct {
	Func string
	Args orderedMap // keyword arguments
}

// pyName renders as a bare name.
type pyName string

// pyLit renders a value as a Python expression, indented for data tables.
func pyLit(v any) string {
	var b strings.Builder
	writeLit(&b, v, "")
	return b.String()
}

func writeLit(b *strings.Builder, v any, indent string) {
	switch v := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if v {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int:
		b.WriteString(strconv.Itoa(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			panic("genpy: not a finite number")
		}
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		b.WriteString(s)
	case string:
		var scratch [128]byte
		b.Write(strconv.AppendQuoteToASCII(scratch[:0], v))
	case pyName:
		b.WriteString(string(v))
	case []string:
		list := make([]any, len(v))
		for i, s := range v {
			list[i] = s
		}
		writeLit(b, list, indent)
	case []any:
		writeSeq(b, "(", ")", v, indent, true)
	case frozenset:
		if len(v) == 0 {
			b.WriteString("frozenset()")
			return
		}
		b.WriteString("frozenset(")
		writeSeq(b, "{", "}", v, indent, false)
		b.WriteString(")")
	case orderedMap:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		inner := indent + "    "
		b.WriteString("{\n")
		for _, e := range v {
			b.WriteString(inner)
			b.WriteString(strconv.QuoteToASCII(e.K))
			b.WriteString(": ")
			writeLit(b, e.V, inner)
			b.WriteString(",\n")
		}
		b.WriteString(indent + "}")
	case pyCall:
		inner := indent + "    "
		b.WriteString(v.Func + "(\n")
		for _, e := range v.Args {
			b.WriteString(inner + e.K + "=")
			writeLit(b, e.V, inner)
			b.WriteString(",\n")
		}
		b.WriteString(indent + ")")
	default:
		panic(fmt.Sprintf("genpy: cannot render %T", v))
	}
}

// writeSeq renders a tuple (trailing comma for one element) or a set.
func writeSeq(b *strings.Builder, open, close string, v []any, indent string, tuple bool) {
	if len(v) == 0 {
		b.WriteString(open + close)
		return
	}
	b.WriteString(open)
	for i, x := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		writeLit(b, x, indent)
	}
	if tuple && len(v) == 1 {
		b.WriteString(",")
	}
	b.WriteString(close)
}

func classificationOf(cl *contract.Classification, k *contract.Kind, c *contract.Contract) pyCall {
	kind, group, desc, startup, number := "", "", "", false, -1
	if k != nil {
		kind, group, desc, startup = k.Name, k.Group.Name, k.Description, k.Startup
		if c.Numbered {
			number = k.Number
		}
	}
	return pyCall{Func: "Classification", Args: orderedMap{
		{"kind", kind}, {"known", k != nil}, {"group", group}, {"origin", cl.Origin.Name},
		{"action", cl.Recovery.Action.Name}, {"same_arguments", cl.Recovery.SameArguments.Name},
		{"guidance", cl.Recovery.Guidance}, {"side_effects", cl.SideEffects.Name}, {"http_status", cl.HTTP},
		{"log_level", string(cl.Log)}, {"breaker", cl.Breaker}, {"retryable", cl.Retryable()},
		{"description", desc}, {"startup", startup}, {"number", number},
	}}
}

func classificationTable(c *contract.Contract) string {
	m := orderedMap{}
	for _, k := range c.Kinds {
		m = append(m, kv{k.Name, classificationOf(&k.Classification, k, c)})
	}
	return pyLit(m)
}

// layoutObject is the wire layout as the runtime reads it: dicts with the
// same members as the TypeScript package's LAYOUT, in snake_case.
func layoutObject(o *contract.Object) orderedMap {
	owned, members := []any{}, []any{}
	for _, m := range o.Members {
		owned = append(owned, m.Name())
		if m.Object != nil {
			members = append(members, orderedMap{{"object", layoutObject(m.Object)}})
			continue
		}
		lf := m.Leaf
		for _, a := range lf.Aliases {
			owned = append(owned, a)
		}
		aliases := []any{}
		for _, a := range lf.Aliases {
			aliases = append(aliases, a)
		}
		l := orderedMap{{"name", lf.Name}, {"path", lf.Path}, {"source", string(lf.Source)}, {"optional", lf.Optional}, {"aliases", aliases}}
		switch {
		case lf.Source.Derived():
			l = append(l, kv{"received", lf.Idents.PythonLocal})
		case lf.Source == contract.SourceField:
			l = append(l, kv{"field", lf.Field.Idents.PythonLocal}, kv{"required", lf.RequiredContext})
		case lf.Source == contract.SourceConst:
			l = append(l, kv{"value", constValue(lf.Const)}, kv{"want", "the constant " + constJSON(lf.Const)})
		}
		members = append(members, orderedMap{{"leaf", l}})
	}
	return orderedMap{{"name", o.Name}, {"path", o.Path}, {"required", o.Required || o.Path == ""}, {"owned", frozenset(owned)}, {"members", members}}
}

func constValue(v any) any {
	switch v := v.(type) {
	case int64:
		return int(v)
	}
	return v
}

func constJSON(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// specOf describes a context or kind-specific field (or a property of an
// object field) for the codec.
func specOf(f *contract.Field, objNames map[*contract.Field]string) orderedMap {
	props := []any{}
	for _, p := range f.Properties {
		props = append(props, specOf(p, objNames))
	}
	var cls any
	if n := objNames[f]; n != "" {
		cls = n
	}
	return orderedMap{{"member", f.Idents.PythonLocal}, {"name", f.Name}, {"type", string(f.Type)}, {"items", string(f.Items)},
		{"required", f.Required}, {"properties", props}, {"cls", cls}}
}

// fieldSpecs maps each field's Envelope attribute to its spec.
func fieldSpecs(c *contract.Contract, objNames map[*contract.Field]string) orderedMap {
	m := orderedMap{}
	for _, f := range c.EnvelopeFields {
		s := specOf(f, objNames)
		s[4] = kv{"required", false} // a context or kind-specific field is optional on the wire
		m = append(m, kv{f.Idents.PythonLocal, s})
	}
	return m
}

func inbound(in *contract.Inbound) orderedMap {
	var tool any
	if in.ToolResult != nil {
		tool = in.ToolResult.Name
	}
	classifiers := []any{}
	for _, cl := range in.Classifiers {
		rules := []any{}
		for _, r := range cl.Rules {
			statuses, failures, text := []any{}, []any{}, []any{}
			for _, s := range r.Statuses {
				statuses = append(statuses, []any{s.From, s.To})
			}
			for _, f := range r.Failures {
				failures = append(failures, string(f))
			}
			for _, t := range r.Text {
				text = append(text, t)
			}
			rules = append(rules, orderedMap{{"statuses", statuses}, {"failures", failures}, {"any_failure", r.AnyFailure},
				{"text", text}, {"kind", r.Kind.Name}, {"breaker", r.Breaker}})
		}
		classifiers = append(classifiers, orderedMap{{"name", cl.Name}, {"rules", rules}, {"default", cl.Default.Name}, {"default_breaker", cl.Default.Breaker}})
	}
	return orderedMap{{"tool_result", tool}, {"classifiers", classifiers}}
}

var funcs = template.FuncMap{
	"py":     pyLit,
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

// shortForm is the SHORT_FORM table (contract.ShortForm), with the Envelope
// attributes of the required fields a promoted envelope carries empty, by
// kind; None when the reader accepts no short form.
func shortForm(c *contract.Contract) string {
	sf := c.ShortForm()
	if sf == nil {
		return "None"
	}
	empty := orderedMap{}
	for _, e := range sf.Empty {
		attrs := orderedMap{}
		for _, f := range e.Fields {
			attrs = append(attrs, kv{f.Idents.PythonLocal, string(f.Type)})
		}
		empty = append(empty, kv{e.Kind.Name, attrs})
	}
	return pyLit(orderedMap{
		{"kind_member", sf.KindMember},
		{"message_member", sf.MessageMember},
		{"kind_pattern", sf.KindPattern},
		{"max_kind_bytes", contract.ShortFormMaxKind},
		{"empty_fields", empty},
	})
}

// httpKinds maps each status exactly one kind has to that kind
// (contract.HTTPKinds), keyed by the status as a string, in status order.
func httpKinds(c *contract.Contract) string {
	m := orderedMap{}
	for _, k := range c.HTTPKinds {
		m = append(m, kv{strconv.Itoa(k.HTTP), k.Name})
	}
	return pyLit(m)
}
