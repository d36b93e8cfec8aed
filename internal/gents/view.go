package gents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/naming"
	"github.com/errgen/errgen/internal/orderedjson"
)

// view is what the templates read. Strings are raw: templates quote them
// with js (a string literal) or doc (comment text). Data tables are
// prebuilt TypeScript expressions (JSON, which is valid TypeScript).
type view struct {
	Header   string // the first line of every .ts file
	Marker   string
	C        *contract.Contract
	MaxDepth int // contract.MaxDepth, the nesting limit every decoder shares
	NPM      string
	Version  string // the npm version derived from the contract version
	Contract string // the contract's name
	// ContractVersion is the wire version as a TypeScript literal: 1 or "0.1".
	ContractVersion string
	VersionType     string // number or string

	Kinds         []kindView
	Origins       []valueView
	Actions       []valueView
	SameArguments []valueView
	SideEffects   []valueView
	Groups        []valueView

	ContextFields []fieldView
	KindFields    []fieldView
	ObjectTypes   []objectType
	// ConstructorTypes are the object types the constructors' parameters
	// name: constructors.ts imports only these (tsc rejects an unused
	// import, as of an optional object field's type).
	ConstructorTypes []string
	Received         []receivedView

	// Data tables as TypeScript expressions.
	Classifications string
	Fallback        string
	Layout          string
	Fields          string
	Inbound         string // "null" without inbound classification
	ShortForm       string // "null" when the contract's readers accept no short form
	Retry           string
	HTTPKinds       string
	ExitCodes       string
	ActionSteps     string
	RetrySame       string // same_arguments values that permit a retry
	MayHaveRun      string // side_effects values under which work may have run
	Upgrades        string

	Classifiers     []classifierView
	HasInbound      bool
	HasToolResult   bool
	FirstClassifier string

	// Unions are the string-literal union types of the closed vocabularies.
	KindUnion, OriginUnion, ActionUnion, SameUnion, SideUnion, GroupUnion string
	// Wire says where each of the envelope's own values is on the wire.
	Wire map[string]string

	SyntheticPrefix string
	ProblemTypeBase string
	DefaultExitCode int
	Description     string

	// The sanitizer policy: max_length, the truncation marker as a
	// TypeScript literal, and the markers, contract secrets and sanitized
	// field names as data tables. The algorithm is the runtime's
	// (sanitize.ts), the same for every contract.
	SanitizeMaxLength int
	SanitizeMarker    string
	SanitizeMarkers   string
	SanitizeSecrets   string
	SanitizedFields   string
	// SanitizePaths and SanitizeCredentialNames: whether home directories
	// and credential paths are redacted, and the names that make a
	// credential path (a JSON array).
	SanitizePaths           bool
	SanitizeCredentialNames string
	// SanitizesRequired is true when a kind's constructor sanitizes a
	// required field.
	SanitizesRequired bool
	// RequiredContext are the context fields the layout requires: every
	// constructor takes them after the message.
	RequiredContext []paramView
	// FillsGuidance is false when constructors leave the guidance empty.
	FillsGuidance bool
}

type valueView struct {
	Name, Const, Doc string
}

type kindView struct {
	Name, Type, Const, Doc string
	Required               []paramView
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

type classifierView struct {
	Name, Func, Doc string
	Index           int
}

func newView(c *contract.Contract) (*view, error) {
	v := &view{
		Header:          "// " + marker.Text,
		MaxDepth:        contract.MaxDepth,
		Marker:          marker.Text,
		C:               c,
		NPM:             c.Packages.NPM,
		Version:         npmVersion(c.VersionLabel()),
		Contract:        c.Name,
		Description:     c.Description,
		SyntheticPrefix: c.SyntheticKindPrefix(),
		ProblemTypeBase: c.Surfaces.ProblemTypeBase,
		DefaultExitCode: c.Surfaces.CLI.DefaultExitCode,
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
	vals := func(in []*contract.Value) []valueView {
		out := make([]valueView, len(in))
		for i, x := range in {
			out[i] = valueView{Name: x.Name, Const: x.Idents.TSConst, Doc: x.Description}
		}
		return out
	}
	origins, actions, sames := contract.Values(c.Origins), contract.Values(c.Actions), contract.Values(c.SameArguments)
	sides, groups, kinds := contract.Values(c.SideEffects), contract.Values(c.Groups), contract.Values(c.Kinds)
	v.Origins, v.Actions, v.SameArguments, v.SideEffects, v.Groups = vals(origins), vals(actions), vals(sames), vals(sides), vals(groups)
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
			Sanitized: slices.Contains(c.Sanitize.Fields, f.Name)})
	}
	for _, f := range c.KindFields {
		v.KindFields = append(v.KindFields, fieldView{Member: f.Idents.TSLocal, Wire: c.Layout.FieldPath(f), TSType: tsType(f, objNames), Doc: f.Description})
	}
	for _, lf := range c.Layout.Leaves {
		if !lf.Source.Derived() {
			continue
		}
		typ := "boolean"
		if lf.Source == contract.SourceGroup {
			typ = "string"
		}
		v.Received = append(v.Received, receivedView{Member: lf.Idents.TSLocal, TSType: typ,
			Doc: fmt.Sprintf("%q on the wire, derived from %s.", lf.Path, lf.Source)})
	}

	for _, k := range c.Kinds {
		if naming.Is(naming.TypeScript, naming.Package, "new"+k.Idents.TSType) { // the loader has reported it
			return nil, fmt.Errorf("gents: kind %q: its constructor new%s would take the name of a function the package already exports; rename the kind", k.Name, k.Idents.TSType)
		}
		kv := kindView{Name: k.Name, Type: k.Idents.TSType, Const: k.Idents.TSConst, Doc: k.Description}
		for _, f := range k.RequiredFields() {
			name := naming.TSParam(f.Idents.TSLocal) // opts, newEnvelope: names the constructors use
			kv.Required = append(kv.Required, paramView{Name: name, Member: f.Idents.TSLocal, TSType: tsType(f, objNames),
				Sanitized: slices.Contains(c.Sanitize.Fields, f.Name)})
			v.SanitizesRequired = v.SanitizesRequired || slices.Contains(c.Sanitize.Fields, f.Name)
			if t := tsType(f, objNames); f.Type == contract.TypeObject && len(f.Properties) > 0 && !slices.Contains(v.ConstructorTypes, t) {
				v.ConstructorTypes = append(v.ConstructorTypes, t)
			}
		}
		v.Kinds = append(v.Kinds, kv)
	}

	var err error
	if v.Classifications, err = classificationTable(c); err != nil {
		return nil, err
	}
	v.Fallback = mustJSON(classificationOf(&c.Fallback.Classification, nil, c))
	v.Layout = mustJSON(layoutObject(c.Layout.Root))
	v.Fields = mustJSON(fieldSpecs(c))
	v.Retry = mustJSON(map[string]any{"initialMs": c.Retry.InitialMs, "maxMs": c.Retry.MaxMs,
		"multiplier": c.Retry.Multiplier, "jitter": c.Retry.Jitter, "maxAttempts": c.Retry.MaxAttempts, "maxHintMs": c.Retry.MaxHintMs})
	v.HTTPKinds = mustJSON(httpKinds(c))
	v.ExitCodes = mustJSON(exitCodes(c))
	steps := orderedMap{}
	var retrySame, mayHaveRun []string
	upgrades := orderedMap{}
	for _, a := range c.Actions {
		steps = append(steps, kv{Key: a.Name, Value: string(a.Step)})
	}
	for _, s := range c.SameArguments {
		if s.Retry {
			retrySame = append(retrySame, s.Name)
		}
		if s.UpgradeTo != nil {
			upgrades = append(upgrades, kv{Key: s.Name, Value: s.UpgradeTo.Name})
		}
	}
	for _, s := range c.SideEffects {
		if s.MayHaveRun {
			mayHaveRun = append(mayHaveRun, s.Name)
		}
	}
	v.ActionSteps, v.Upgrades = mustJSON(steps), mustJSON(upgrades)
	v.RetrySame, v.MayHaveRun = mustJSON(nonNil(retrySame)), mustJSON(nonNil(mayHaveRun))

	v.sanitizePolicy(c)
	v.ShortForm = shortForm(c)

	v.Inbound = "null"
	if in := c.Inbound; in != nil {
		v.HasInbound = true
		v.HasToolResult = in.ToolResult != nil
		v.FirstClassifier = in.Classifiers[0].Name
		v.Inbound = mustJSON(inbound(in))
		for i, cl := range in.Classifiers {
			fn := "classify" + cl.Idents.TSType
			if naming.Is(naming.TypeScript, naming.Package, fn) { // the loader has reported it
				return nil, fmt.Errorf("gents: classifier %q: its function %s would take the name of a function the package already exports; rename the classifier", cl.Name, fn)
			}
			v.Classifiers = append(v.Classifiers, classifierView{Name: cl.Name, Func: fn, Doc: cl.Description, Index: i})
		}
	}
	return v, nil
}

// secretData is a contract secret shape as sanitize.ts reads it (SecretSpec).
type secretData struct {
	Name      string   `json:"name"`
	Prefixes  []string `json:"prefixes"`
	Chars     string   `json:"chars"`
	MinLength int      `json:"minLength"`
}

// sanitizePolicy fills the policy tables of contract.ts.
func (v *view) sanitizePolicy(c *contract.Contract) {
	p := c.Sanitize
	v.SanitizeMaxLength = p.MaxLength
	v.SanitizeMarker = jsLit(p.TruncationMarker)
	v.SanitizeMarkers = mustJSON(nonNil(p.Markers))
	secrets := []secretData{}
	for _, s := range p.Secrets {
		secrets = append(secrets, secretData{Name: s.Name, Prefixes: s.Prefixes, Chars: string(s.Chars), MinLength: s.MinLength})
	}
	v.SanitizeSecrets = mustJSON(secrets)
	v.SanitizedFields = mustJSON(nonNil(p.Fields))
	v.SanitizePaths = p.Paths
	v.SanitizeCredentialNames = mustJSON(nonNil(p.AllCredentialNames()))
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

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// npmVersion turns a contract version into a semantic version: 1 -> 1.0.0,
// "0.1" -> 0.1.0. A version that is not one to three dot-separated numbers
// becomes a pre-release of 0.0.0 so npm still accepts it.
func npmVersion(label string) string {
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
	names := map[string]string{}
	var visit func(f *contract.Field)
	visit = func(f *contract.Field) {
		if f.Type != contract.TypeObject || len(f.Properties) == 0 || names[f.Idents.TSType] != "" {
			return
		}
		name := naming.FreeName(f.Idents.TSType, "Fields", func(s string) bool { return taken[s] })
		taken[name] = true
		names[f.Idents.TSType] = name
		for _, p := range f.Properties {
			visit(p)
		}
	}
	for _, f := range c.EnvelopeFields {
		visit(f)
	}
	return names
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

// kv and orderedMap marshal as a JSON object in insertion order.
// The TypeScript data tables are ordered JSON objects, the same type the
// examples use.
type (
	kv         = orderedjson.Member
	orderedMap = orderedjson.Object
)

// marshal is json.Marshal without HTML escaping.
var marshal = orderedjson.Marshal

// mustJSON renders v as indented JSON for a data table. The values are
// built here from the model, so a failure is a bug.
func mustJSON(v any) string {
	raw, err := marshal(v)
	if err != nil {
		panic("gents: " + err.Error())
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		panic("gents: " + err.Error())
	}
	return b.String()
}

// jsLit is s as a JavaScript string literal: JSON without HTML escapes,
// written directly (templates call it for every kind).
func jsLit(s string) string {
	return string(orderedjson.AppendString(nil, s, false))
}

type classificationData struct {
	Kind          string `json:"kind"`
	Known         bool   `json:"known"`
	Group         string `json:"group"`
	Origin        string `json:"origin"`
	Action        string `json:"action"`
	SameArguments string `json:"sameArguments"`
	Guidance      string `json:"guidance"`
	SideEffects   string `json:"sideEffects"`
	HTTPStatus    int    `json:"httpStatus"`
	LogLevel      string `json:"logLevel"`
	Breaker       bool   `json:"breaker"`
	Retryable     bool   `json:"retryable"`
	Description   string `json:"description"`
	Startup       bool   `json:"startup"`
	Number        int    `json:"number"`
}

func classificationOf(cl *contract.Classification, k *contract.Kind, c *contract.Contract) classificationData {
	d := classificationData{
		Origin: cl.Origin.Name, Action: cl.Recovery.Action.Name, SameArguments: cl.Recovery.SameArguments.Name,
		Guidance: cl.Recovery.Guidance, SideEffects: cl.SideEffects.Name, HTTPStatus: cl.HTTP,
		LogLevel: string(cl.Log), Breaker: cl.Breaker, Retryable: cl.Retryable(), Number: -1,
	}
	if k != nil {
		d.Kind, d.Known, d.Group, d.Description, d.Startup = k.Name, true, k.Group.Name, k.Description, k.Startup
		if c.Numbered {
			d.Number = k.Number
		}
	}
	return d
}

// classificationTable is mustJSON of an orderedMap from each kind's name to
// its classificationData, written directly: it is the one data table that
// grows with the kinds, and reflection plus re-indenting dominated it.
func classificationTable(c *contract.Contract) (string, error) {
	if len(c.Kinds) == 0 {
		return "{}", nil
	}
	b := make([]byte, 0, 4+len(c.Kinds)*(600))
	b = append(b, '{')
	for i, k := range c.Kinds {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n  "...)
		b = orderedjson.AppendString(b, k.Name, false)
		b = append(b, ": "...)
		b = appendClassification(b, classificationOf(&k.Classification, k, c))
	}
	return string(append(b, "\n}"...)), nil
}

// appendClassification writes d as mustJSON does inside the table, at
// depth 1: one member a line, in the struct's field order.
func appendClassification(b []byte, d classificationData) []byte {
	str := func(b []byte, key, v string) []byte {
		b = append(b, key...)
		return orderedjson.AppendString(b, v, false)
	}
	b = str(b, "{\n    \"kind\": ", d.Kind)
	b = append(b, ",\n    \"known\": "...)
	b = strconv.AppendBool(b, d.Known)
	b = str(b, ",\n    \"group\": ", d.Group)
	b = str(b, ",\n    \"origin\": ", d.Origin)
	b = str(b, ",\n    \"action\": ", d.Action)
	b = str(b, ",\n    \"sameArguments\": ", d.SameArguments)
	b = str(b, ",\n    \"guidance\": ", d.Guidance)
	b = str(b, ",\n    \"sideEffects\": ", d.SideEffects)
	b = append(b, ",\n    \"httpStatus\": "...)
	b = strconv.AppendInt(b, int64(d.HTTPStatus), 10)
	b = str(b, ",\n    \"logLevel\": ", d.LogLevel)
	b = append(b, ",\n    \"breaker\": "...)
	b = strconv.AppendBool(b, d.Breaker)
	b = append(b, ",\n    \"retryable\": "...)
	b = strconv.AppendBool(b, d.Retryable)
	b = str(b, ",\n    \"description\": ", d.Description)
	b = append(b, ",\n    \"startup\": "...)
	b = strconv.AppendBool(b, d.Startup)
	b = append(b, ",\n    \"number\": "...)
	b = strconv.AppendInt(b, int64(d.Number), 10)
	return append(b, "\n  }"...)
}

// layoutLeaf and layoutObj are the wire layout as the runtime reads it.
type layoutLeaf struct {
	Name     string   `json:"name"`
	Path     string   `json:"path"`
	Source   string   `json:"source"`
	Optional bool     `json:"optional,omitempty"`
	Required bool     `json:"required,omitempty"`
	Aliases  []string `json:"aliases,omitempty"`
	// Received names the Envelope.received member keeping a derived value.
	Received string `json:"received,omitempty"`
	// Field names the Envelope member of a context or kind-specific field.
	Field string `json:"field,omitempty"`
	// Value and Want are a constant and how a decode error states it.
	Value any    `json:"value,omitempty"`
	Want  string `json:"want,omitempty"`
}

type layoutMember struct {
	Leaf   *layoutLeaf `json:"leaf,omitempty"`
	Object *layoutObj  `json:"object,omitempty"`
}

type layoutObj struct {
	Name     string         `json:"name"`
	Path     string         `json:"path"`
	Required bool           `json:"required"`
	Owned    []string       `json:"owned"`
	Members  []layoutMember `json:"members"`
}

func layoutObject(o *contract.Object) *layoutObj {
	out := &layoutObj{Name: o.Name, Path: o.Path, Required: o.Required || o.Path == "", Owned: []string{}, Members: []layoutMember{}}
	for _, m := range o.Members {
		out.Owned = append(out.Owned, m.Name())
		if m.Object != nil {
			out.Members = append(out.Members, layoutMember{Object: layoutObject(m.Object)})
			continue
		}
		lf := m.Leaf
		out.Owned = append(out.Owned, lf.Aliases...)
		l := &layoutLeaf{Name: lf.Name, Path: lf.Path, Source: string(lf.Source), Optional: lf.Optional, Required: lf.RequiredContext, Aliases: lf.Aliases}
		switch {
		case lf.Source.Derived():
			l.Received = lf.Idents.TSLocal
		case lf.Source == contract.SourceField:
			l.Field = lf.Field.Idents.TSLocal
		case lf.Source == contract.SourceConst:
			raw, _ := json.Marshal(lf.Const)
			l.Value, l.Want = lf.Const, "the constant "+string(raw)
		}
		out.Members = append(out.Members, layoutMember{Leaf: l})
	}
	return out
}

// fieldSpec describes a context or kind-specific field (or a property of an
// object field) for the codec.
type fieldSpec struct {
	Member     string       `json:"member"`
	Name       string       `json:"name"`
	Type       string       `json:"type"`
	Items      string       `json:"items,omitempty"`
	Required   bool         `json:"required,omitempty"`
	Properties []*fieldSpec `json:"properties,omitempty"`
}

func specOf(f *contract.Field) *fieldSpec {
	s := &fieldSpec{Member: f.Idents.TSLocal, Name: f.Name, Type: string(f.Type), Items: string(f.Items), Required: f.Required}
	for _, p := range f.Properties {
		s.Properties = append(s.Properties, specOf(p))
	}
	return s
}

// fieldSpecs maps each field's Envelope member to its spec.
func fieldSpecs(c *contract.Contract) orderedMap {
	m := orderedMap{}
	for _, f := range c.EnvelopeFields {
		s := specOf(f)
		s.Required = false // a context or kind-specific field is optional on the wire
		m = append(m, kv{Key: f.Idents.TSLocal, Value: s})
	}
	return m
}

type ruleData struct {
	Statuses [][2]int `json:"statuses"`
	Failures []string `json:"failures"`
	// AnyFailure matches any transport failure.
	AnyFailure bool     `json:"anyFailure"`
	Text       []string `json:"text"`
	Kind       string   `json:"kind"`
	Breaker    bool     `json:"breaker"`
}

type classifierData struct {
	Name           string     `json:"name"`
	Rules          []ruleData `json:"rules"`
	Default        string     `json:"default"`
	DefaultBreaker bool       `json:"defaultBreaker"`
}

type inboundData struct {
	ToolResult  *string          `json:"toolResult"`
	Classifiers []classifierData `json:"classifiers"`
}

func inbound(in *contract.Inbound) inboundData {
	d := inboundData{}
	if in.ToolResult != nil {
		d.ToolResult = &in.ToolResult.Name
	}
	for _, cl := range in.Classifiers {
		cd := classifierData{Name: cl.Name, Default: cl.Default.Name, DefaultBreaker: cl.Default.Breaker, Rules: []ruleData{}}
		for _, r := range cl.Rules {
			rd := ruleData{Statuses: [][2]int{}, Failures: []string{}, Text: nonNil(r.Text), Kind: r.Kind.Name, Breaker: r.Breaker, AnyFailure: r.AnyFailure}
			for _, s := range r.Statuses {
				rd.Statuses = append(rd.Statuses, [2]int{s.From, s.To})
			}
			for _, f := range r.Failures {
				rd.Failures = append(rd.Failures, string(f))
			}
			cd.Rules = append(cd.Rules, rd)
		}
		d.Classifiers = append(d.Classifiers, cd)
	}
	return d
}

// httpKinds maps each HTTP status exactly one kind has to that kind
// (contract.HTTPKinds), for a failed response without an envelope when
// there is no classifier.
func httpKinds(c *contract.Contract) orderedMap {
	m := orderedMap{}
	for _, k := range c.HTTPKinds {
		m = append(m, kv{Key: strconv.Itoa(k.HTTP), Value: k.Name})
	}
	return m
}

func exitCodes(c *contract.Contract) orderedMap {
	m := orderedMap{}
	for _, o := range c.Origins {
		if code, ok := c.Surfaces.CLI.ExitCodes[o]; ok {
			m = append(m, kv{Key: o.Name, Value: code})
		}
	}
	return m
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

// shortForm is the SHORT_FORM table: the short form the HTTP reader
// accepts (contract.ShortForm), with the members of the required fields a
// promoted envelope carries empty, by kind; null when it accepts none.
func shortForm(c *contract.Contract) string {
	sf := c.ShortForm()
	if sf == nil {
		return "null"
	}
	empty := orderedMap{}
	for _, e := range sf.Empty {
		members := orderedMap{}
		for _, f := range e.Fields {
			members = append(members, kv{Key: f.Idents.TSLocal, Value: string(f.Type)})
		}
		empty = append(empty, kv{Key: e.Kind.Name, Value: members})
	}
	return mustJSON(orderedMap{
		{Key: "kindMember", Value: sf.KindMember},
		{Key: "messageMember", Value: sf.MessageMember},
		{Key: "kindPattern", Value: sf.KindPattern},
		{Key: "maxKindBytes", Value: contract.ShortFormMaxKind},
		{Key: "emptyFields", Value: empty},
	})
}
