package gents

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/naming"
	"github.com/errgen/errgen/internal/orderedjson"
	"github.com/errgen/errgen/internal/render"
	"github.com/errgen/errgen/internal/runtimedata"
	"github.com/errgen/errgen/internal/targets"
)

// view is what the templates read. Strings are raw: templates quote them
// with js (a string literal) or doc (comment text). Data tables are
// prebuilt TypeScript expressions (JSON, which is valid TypeScript).
type view struct {
	runtimedata.Common
	render.Direct                  // {{.Raw .Classifications}}: the tables written without a copy
	Packages      targets.Packages // the generation settings' names and metadata
	NPM           string
	Version       string // the npm version derived from the contract version
	// RepositoryURL is package.json's repository.url: the config's
	// repository as npm publish would normalize it (git+…, ending in .git),
	// so that it publishes unchanged; empty without one.
	RepositoryURL string
	// ContractVersion is the wire version as a TypeScript literal: 1 or "0.1".
	ContractVersion string
	VersionType     string // number or string

	Kinds         []kindView
	ContextFields []fieldView
	KindFields    []fieldView
	ObjectTypes   []objectType
	// ConstructorTypes are the object types the constructors' parameters
	// name: constructors.ts imports only these (tsc rejects an unused
	// import, as of an optional object field's type).
	ConstructorTypes []string
	Received         []receivedView

	// Unions are the string-literal union types of the closed vocabularies.
	KindUnion, OriginUnion, ActionUnion, SameUnion, SideUnion, GroupUnion string
	// Wire says where each of the envelope's own values is on the wire.
	Wire map[string]string

	// The sanitizer policy's scalars: max_length and the truncation
	// marker as a TypeScript literal, and the contract's secrets as a data
	// table (its other tables are Common's). The algorithm is the
	// runtime's (sanitize.ts), the same for every contract.
	SanitizeMaxLength int
	SanitizeMarker    string
	SanitizeSecrets   string
	// SanitizePaths: whether home directories and credential paths are
	// redacted.
	SanitizePaths bool
	// SanitizesRequired is true when a kind's constructor sanitizes a
	// required field.
	SanitizesRequired bool
	// RequiredContext are the context fields the layout requires: every
	// constructor takes them after the message.
	RequiredContext []paramView
	// FillsGuidance is false when constructors leave the guidance empty.
	FillsGuidance bool
	// MCPErrorSchema is the compact JSON of the schema mcpOutputSchema
	// admits beside a tool's success schema (genschema.MCPErrorSchema).
	MCPErrorSchema string
}

type kindView struct {
	Name, Type, Const, Doc string
	// Lit is the name as a string literal, DocName and DocText the name
	// and the description as doc comment text: computed once, as the
	// templates use them several times for every kind.
	Lit, DocName, DocText string
	Required              []paramView
}

type paramView struct {
	Name, Member, TSType string
	// Sanitized is true when the field is in the contract's sanitize
	// fields, so the constructor sanitizes the argument by default.
	Sanitized bool
}

type fieldView struct {
	Member, Wire, TSType, Doc string
	// Required is set on a context field the layout requires.
	Required bool
}

type objectType struct {
	Name, Doc string
	Members   []memberView
}

type memberView struct {
	Member, TSType, Doc string
	Optional            bool
}

type receivedView struct {
	Member, TSType, Doc string
}

func newView(c *contract.Contract, o targets.Options) (*view, error) {
	t := runtimedata.Shared(c, o.Shared)
	v := &view{
		Common: runtimedata.NewCommon(c, t, runtimedata.Syntax{
			Comment:        "//",
			Const:          func(id *contract.Idents) string { return id.TSConst },
			ClassifierFunc: func(cl *contract.Classifier) string { return "classify" + cl.Idents.TSType },
			Printer:        runtimedata.TypeScriptPrinter{}, // JSON, which is valid TypeScript
		}),
		Packages: o.Packages,
		NPM:      o.Packages.NPM,
		Version:  npmVersion(c.Release, c.VersionLabel()),
	}
	schema, err := genschema.MCPErrorSchema(c)
	if err != nil {
		return nil, fmt.Errorf("gents: the MCP error schema: %w", err)
	}
	v.MCPErrorSchema = string(schema)
	if r := strings.TrimSuffix(o.Packages.Repository, "/"); r != "" {
		v.RepositoryURL = "git+" + strings.TrimSuffix(r, ".git") + ".git"
	}
	v.Wire = map[string]string{}
	for _, s := range contract.Sources {
		if lf := c.Layout.Leaf(s); lf != nil {
			v.Wire[string(s)] = fmt.Sprintf("%q on the wire", lf.Path)
		} else {
			v.Wire[string(s)] = "Not on the wire in this contract's layout: parsing fills it from the kind's classification"
			if s == contract.SourceVersion {
				v.Wire[string(s)] = "Not on the wire in this contract's layout: parsing fills it with CONTRACT_VERSION"
			}
			if s == contract.SourceRetryAfterMs {
				v.Wire[string(s)] = "Not on the wire in this contract's layout"
			}
		}
	}
	if c.VersionIsText() {
		v.ContractVersion, v.VersionType = jsLit(c.VersionText), "string"
	} else {
		v.ContractVersion, v.VersionType = strconv.Itoa(c.Version), "number"
	}
	origins, actions, sames := contract.Values(c.Origins), contract.Values(c.Actions), contract.Values(c.SameArguments)
	sides, groups, kinds := contract.Values(c.SideEffects), contract.Values(c.Groups), contract.Values(c.Kinds)
	v.KindUnion, v.OriginUnion, v.ActionUnion = union(kinds), union(origins), union(actions)
	v.SameUnion, v.SideUnion, v.GroupUnion = union(sames), union(sides), union(groups)

	objNames := objectNames(c)
	v.ObjectTypes = objectTypes(c, objNames)
	for _, f := range c.ContextFields {
		v.ContextFields = append(v.ContextFields, fieldView{Member: f.Idents.TSLocal, Wire: c.Layout.FieldPath(f), TSType: tsType(f, objNames), Doc: f.Description,
			Required: c.Layout.RequiredLeaf(f) != nil})
	}
	v.FillsGuidance = c.Layout.FillsGuidance()
	for _, f := range c.RequiredContext {
		name := naming.TSParam(f.Idents.TSLocal) // opts, newEnvelope: names the constructors use
		v.RequiredContext = append(v.RequiredContext, paramView{Name: name, Member: f.Idents.TSLocal, TSType: "string",
			Sanitized: c.Sanitize.Sanitizes(f.Name)})
	}
	for _, f := range c.KindFields {
		v.KindFields = append(v.KindFields, fieldView{Member: f.Idents.TSLocal, Wire: c.Layout.FieldPath(f), TSType: tsType(f, objNames), Doc: f.Description})
	}
	for _, d := range runtimedata.DerivedLeaves(c) {
		typ := "boolean"
		if d.Group {
			typ = "string"
		}
		v.Received = append(v.Received, receivedView{Member: d.Leaf.Idents.TSLocal, TSType: typ, Doc: d.Doc})
	}

	for _, k := range c.Kinds {
		if naming.Is(naming.TypeScript, naming.Package, "new"+k.Idents.TSType) { // the loader has reported it
			return nil, fmt.Errorf("gents: kind %q: its constructor new%s would take the name of a function the package already exports; rename the kind", k.Name, k.Idents.TSType)
		}
		kv := kindView{Name: k.Name, Type: k.Idents.TSType, Const: k.Idents.TSConst, Doc: k.Description,
			Lit: jsLit(k.Name), DocName: doc(k.Name), DocText: doc(k.Description)}
		for _, f := range k.RequiredFields() {
			name := naming.TSParam(f.Idents.TSLocal) // opts, newEnvelope: names the constructors use
			kv.Required = append(kv.Required, paramView{Name: name, Member: f.Idents.TSLocal, TSType: tsType(f, objNames),
				Sanitized: c.Sanitize.Sanitizes(f.Name)})
			v.SanitizesRequired = v.SanitizesRequired || c.Sanitize.Sanitizes(f.Name)
			if t := tsType(f, objNames); f.Type == contract.TypeObject && len(f.Properties) > 0 && !slices.Contains(v.ConstructorTypes, t) {
				v.ConstructorTypes = append(v.ConstructorTypes, t)
			}
		}
		v.Kinds = append(v.Kinds, kv)
	}

	p := c.Sanitize
	v.SanitizeMaxLength, v.SanitizeMarker, v.SanitizePaths = p.MaxLength, jsLit(p.TruncationMarker), p.Paths
	v.SanitizeSecrets = runtimedata.TypeScriptPrinter{}.Print(t.SanitizeSecrets)
	for _, cl := range v.Classifiers {
		if naming.Is(naming.TypeScript, naming.Package, cl.Func) { // the loader has reported it
			return nil, fmt.Errorf("gents: classifier %q: its function %s would take the name of a function the package already exports; rename the classifier", cl.Name, cl.Func)
		}
	}
	return v, nil
}

// union is the string-literal union of the values, one per line.
func union(vals []*contract.Value) string {
	if len(vals) == 0 {
		return " never"
	}
	var b strings.Builder
	for _, x := range vals {
		b.WriteString("\n  | " + jsLit(x.Name))
	}
	return b.String()
}

// npmVersion is the package's version: the contract's release (1.1.0, or
// 1 -> 1.0.0, "0.1" -> 0.1.0 by default). A text version that is not one
// to three dot-separated numbers, without a release, becomes a pre-release
// of 0.0.0 so npm still accepts it.
func npmVersion(release, label string) string {
	if release != "" {
		return release
	}
	if v, ok := contract.ReleaseVersion(label); ok {
		return v
	}
	clean := strings.Trim(regexp.MustCompile(`[^0-9A-Za-z-]+`).ReplaceAllString(label, "-"), "-")
	if clean == "" {
		clean = "unversioned"
	}
	return "0.0.0-" + clean
}

// objectNames names the interface of every object field with properties, by
// the field's TSType (one interface per field name), in the order
// objectTypes lists them: the TSType unless the package or TypeScript
// already has the name, else with a Fields suffix (Kind -> KindFields).
func objectNames(c *contract.Contract) map[string]string {
	taken := map[string]bool{}
	for _, class := range []naming.Class{naming.Package, naming.Builtin} {
		for _, name := range naming.Reserved(naming.TypeScript, class) {
			taken[name] = true
		}
	}
	return c.ObjectTypeNames(func(id *contract.Idents) string { return id.TSType }, taken)
}

// scalarType is the TypeScript type of one value of type t (string enums
// are open: the listed values autocomplete, any string type-checks, as the
// decoder keeps values it does not know).
func scalarType(t contract.FieldType, enum []string) string {
	switch t {
	case contract.TypeString:
		if len(enum) == 0 {
			return "string"
		}
		var alts []string
		for _, e := range enum {
			alts = append(alts, jsLit(e))
		}
		return strings.Join(alts, " | ") + " | (string & {})"
	case contract.TypeInteger, contract.TypeNumber:
		return "number"
	case contract.TypeBoolean:
		return "boolean"
	case contract.TypeObject:
		return "Record<string, unknown>"
	}
	panic("gents: unhandled type " + t)
}

// tsType is the TypeScript type of a field; objNames are objectNames.
func tsType(f *contract.Field, objNames map[string]string) string {
	switch {
	case f.Type == contract.TypeArray:
		elem := scalarType(f.Items, f.Enum)
		if strings.Contains(elem, " ") {
			elem = "(" + elem + ")"
		}
		return elem + "[]"
	case f.Type == contract.TypeObject && len(f.Properties) > 0:
		return objNames[f.Idents.TSType]
	}
	return scalarType(f.Type, f.Enum)
}

// objectTypes lists an interface for every object field with properties,
// nested ones included, each once.
func objectTypes(c *contract.Contract, objNames map[string]string) []objectType {
	var out []objectType
	seen := map[string]bool{}
	var emit func(f *contract.Field)
	emit = func(f *contract.Field) {
		if f.Type != contract.TypeObject || len(f.Properties) == 0 || seen[objNames[f.Idents.TSType]] {
			return
		}
		seen[objNames[f.Idents.TSType]] = true
		ot := objectType{Name: objNames[f.Idents.TSType], Doc: fmt.Sprintf("The %s field. %s", f.Name, f.Description)}
		for _, p := range f.Properties {
			ot.Members = append(ot.Members, memberView{Member: p.Idents.TSLocal, TSType: tsType(p, objNames),
				Doc: fmt.Sprintf("%q on the wire. %s", p.Name, p.Description), Optional: !p.Required})
		}
		out = append(out, ot)
		for _, p := range f.Properties {
			emit(p)
		}
	}
	for _, f := range c.EnvelopeFields {
		emit(f)
	}
	return out
}

// jsLit is s as a JavaScript string literal: JSON without HTML escapes,
// written directly (templates call it for every kind).
func jsLit(s string) string {
	return string(orderedjson.AppendString(nil, s, false))
}

var funcs = template.FuncMap{
	"js":  jsLit,
	"doc": doc,
	"json": func(s string) string {
		return jsLit(s)
	},
}

// doc makes s safe inside a /** */ comment on one line: line terminators
// (JavaScript's include U+2028 and U+2029) become spaces and */ cannot
// close the comment.
func doc(s string) string {
	s = strings.TrimSpace(s)
	// Most text has nothing to replace; the generic replacer would still
	// scan it position by position.
	if strings.IndexAny(s, "\r\n\u2028\u2029") < 0 && !strings.Contains(s, "*/") {
		return s
	}
	return docReplacer.Replace(s)
}

// docReplacer is built once: templates call doc for every kind and field.
var docReplacer = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\u2028", " ", "\u2029", " ", "*/", "*\\/")
