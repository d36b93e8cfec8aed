package gendocs

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/genopenapi"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/targets"
)

// view is what the templates read. Strings are raw; templates escape them
// with md, cell or code where they print them.
type view struct {
	Header string
	C      *contract.Contract
	// Path maps each source (action, guidance, ...) to its wire path, or
	// to "" when the layout leaves it off the wire.
	Path     map[string]string
	Envelope []fieldRow
	Groups   []groupView
	Kinds    []kindView
	HTTP     []statusRow
	Retired  []retiredRow
	Fallback classification
	// AIPDomain and AIPMembers document the google.rpc mapping's
	// ErrorInfo: its domain and metadata keys.
	AIPDomain   string
	AIPMembers  []aipMemberRow
	Unknown     string // example JSON
	UnknownKind string
	Maximal     string // example JSON
	Producer    schemaRef
	Consumer    schemaRef
	// OpenAPI is the OpenAPI document of the error responses; nil when that
	// output is not generated.
	OpenAPI *openapiRef
	Steps   []stepRow
	// Startup is true when some kinds are raised at startup rather than
	// returned as operation results.
	Startup bool
	// Numbered is C.Numbered, for the kinds page to read once per kind.
	Numbered bool
	// GuidanceNote says, on the kinds page, that the guidance shown is
	// advice for readers, where the layout carries guidance only when a
	// producer gives it; empty otherwise.
	GuidanceNote string
	// Upgrades are the same_arguments values relaxed for read-only or
	// idempotent tools.
	Upgrades []upgradeRow
	// Classifiers document the inbound classification; nil without one.
	Classifiers []classifierView
	ToolResult  *kindView
	// CallError documents the call_error section; nil without one.
	CallError *callErrorView
	Failures  []string
	// FirstClassifier is the classifier Classify uses.
	FirstClassifier string
	// Agreements are the notions classifiers must agree on; nil without.
	Agreements []agreementView
	// Reading failed HTTP responses: the short form the readers promote (nil
	// without one), its bound and mark, and the kind a response without an
	// envelope gets without a classifier (for the example, status 502).
	ShortForm                         *contract.ShortForm
	ShortFormMaxKind                  int
	PromotedMember, PromotedShortForm string
	SyntheticKind                     string
	// EchoBody is surfaces.http.echo_body: whether the HTTP readers quote
	// a body without an envelope in the message they build.
	EchoBody bool
	// StatusField is the wire path of surfaces.http.status_field, or "".
	StatusField string
	// Imports are the contracts this one builds on; nil without imports.
	Imports []importRow
}

type agreementView struct {
	Name, Description string
	Sides             []agreementSideView
}

// agreementSideView is one classifier of an agreement; Anchor is its
// heading's on the inbound page.
type agreementSideView struct {
	Classifier, Anchor string
	Kinds              []kindView
}

type upgradeRow struct{ From, To string }

type classifierView struct {
	Name, Description string
	Rules             []ruleRow
	Default           kindView
	DefaultBreaker    bool
}

type ruleRow struct {
	N                     int
	Status, Failure, Text string
	Kind                  kindView
	Breaker               bool
}

type fieldRow struct {
	Name, Type string
	NameCode   string // Name as a code span
	Doc        string // Markdown, already escaped
	Required   string // "yes", "no", or which kinds need it
}

// schemaRef is an envelope schema: its file name, $id and the link to it
// from the docs directory (empty when the schemas output is not generated).
type schemaRef struct{ File, ID, Link string }

// schemaLink is the relative link from the docs directory to a file of the
// schemas output, wherever a generation config put the two.
func schemaLink(o targets.Options, file string) string {
	if o.Dir(targets.Schemas) == "" {
		return ""
	}
	up := strings.Repeat("../", strings.Count(o.Dir(targets.Docs), "/")+1)
	return up + o.Dir(targets.Schemas) + "/" + file
}

// openapiRef is the OpenAPI document: its file name, the link to it from
// the docs directory, and the response each status is under.
type openapiRef struct {
	File, Link string
	Responses  []openapiResponse
	// RetryAfter is set when the responses may declare Retry-After.
	RetryAfter bool
}

type openapiResponse struct {
	Status     int
	Name, Text string
}

// newOpenAPIRef describes c's OpenAPI document, or is nil without one.
func newOpenAPIRef(c *contract.Contract, o targets.Options) *openapiRef {
	if o.Dir(targets.OpenAPI) == "" {
		return nil
	}
	file := genopenapi.FileName(c)
	up := strings.Repeat("../", strings.Count(o.Dir(targets.Docs), "/")+1)
	ref := &openapiRef{File: file, Link: up + o.Dir(targets.OpenAPI) + "/" + file, RetryAfter: genopenapi.HasRetryAfter(c)}
	statuses := []int{c.Fallback.HTTP}
	for _, s := range c.Statuses {
		if s.Status != c.Fallback.HTTP {
			statuses = append(statuses, s.Status)
		}
	}
	slices.Sort(statuses)
	for _, s := range statuses {
		ref.Responses = append(ref.Responses, openapiResponse{Status: s, Name: genopenapi.StatusName(s), Text: http.StatusText(s)})
	}
	return ref
}

type classification struct {
	Origin, SideEffects, Action, SameArguments, Guidance string
	GRPC                                                 string
	HTTP                                                 int
	Log                                                  string
	Breaker, Retryable                                   bool
}

// kindView is one kind as the pages show it. Unlike the rest of the view its
// text comes escaped (MD fields are Markdown prose, Code fields code spans):
// the kinds page shows every kind twice and the HTTP page once more, and on a
// contract of thousands of kinds a template function call per value cost
// more than everything else on the pages. Its fields are its own, not an
// embedded classification, because text/template looks a field up by name
// on every access and an embedded struct makes each lookup a search.
type kindView struct {
	Name, Anchor                             string
	NameMD, NameCode, DescriptionMD, GroupMD string
	OriginCode, ActionCode                   string
	SameArgumentsCode, SideEffectsCode       string
	GuidanceMD                               string
	HTTP                                     int
	GRPC, Reason                             string
	Log                                      string
	Breaker, Retryable                       bool
	Number                                   int
	Startup                                  bool
	// FromMD says which import the kind comes from (From's Markdown), or
	// is empty for the contract's own.
	FromMD  string
	Fields  []fieldRow
	Example string
}

// aipMemberRow is one ErrorInfo metadata key and what its value is.
type aipMemberRow struct {
	Key, What string
}

type groupView struct {
	Title, Description string
	From               *contract.Import
	Kinds              []*kindView
}

type statusRow struct {
	Status int
	Text   string
	Kinds  []*kindView
}

type retiredRow struct {
	Name, Reason       string
	ReplacedBy, Anchor string
	From               *contract.Import
}

// stepRow documents what an agent does for one step, with the contract's
// actions that map to it.
type stepRow struct {
	Step    string
	Actions []string
	Do      string
}

func classify(cl *contract.Classification) classification {
	return classification{
		Origin: cl.Origin.Name, SideEffects: cl.SideEffects.Name,
		Action: cl.Recovery.Action.Name, SameArguments: cl.Recovery.SameArguments.Name,
		Guidance: cl.Recovery.Guidance, HTTP: cl.HTTP, Log: string(cl.Log),
		Breaker: cl.Breaker, Retryable: cl.Retryable(), GRPC: cl.GRPC.Name,
	}
}

func typeName(f *contract.Field) string {
	if f.Type == contract.TypeArray {
		return "array of " + string(f.Items)
	}
	return string(f.Type)
}

// stepAdvice is what the agent-facing page says for each step. It is the
// specification the generated decision code (NextStep) implements.
var stepAdvice = map[contract.Step]string{
	contract.StepRetry:           "Wait, then repeat the call: at least `retry_after_ms` when the envelope carries it, otherwise exponential backoff with jitter. Only when `same_arguments` permits an identical retry and attempts remain; otherwise escalate.",
	contract.StepRevise:          "Change the arguments as the message and guidance say, then call again. Never repeat the identical call unless `same_arguments` permits it.",
	contract.StepReauthenticate:  "Obtain fresh credentials or complete the authorization flow the guidance names, then call again once.",
	contract.StepConfirm:         "Show the user what the call will do, get explicit approval, then repeat it with the confirmation.",
	contract.StepRediscover:      "List what exists now (actions, tools, upstreams, resources), choose again, then call with the new choice.",
	contract.StepReduceWork:      "Ask for less: fewer items, a smaller payload, a narrower scope; or wait for the budget to reset.",
	contract.StepStartDependency: "Start or reconnect the dependency the guidance names, then call again.",
	contract.StepEscalate:        "Stop retrying. Hand the message, kind and context to an operator or the user.",
	contract.StepStop:            "Report the failure and do not repeat the call.",
}

func newView(c *contract.Contract, o targets.Options) *view {
	lo := c.Layout
	v := &view{Header: Header, C: c, Fallback: classify(&c.Fallback.Classification), Path: map[string]string{}, Numbered: c.Numbered}
	v.ShortForm, v.ShortFormMaxKind = c.ShortForm(), contract.ShortFormMaxKind
	v.PromotedMember, v.PromotedShortForm = contract.PromotedMember, contract.PromotedShortForm
	v.SyntheticKind = c.SyntheticKind(502)
	v.EchoBody = c.Surfaces.HTTP.EchoBody
	if f := c.Surfaces.HTTP.StatusField; f != nil {
		v.StatusField = c.Layout.FieldPath(f)
	}
	for _, r := range []struct {
		ref  *schemaRef
		role genschema.Role
	}{{&v.Producer, genschema.Producer}, {&v.Consumer, genschema.Consumer}} {
		file := genschema.FileName(c, r.role)
		*r.ref = schemaRef{file, genschema.ID(c, r.role), schemaLink(o, file)}
	}
	v.OpenAPI = newOpenAPIRef(c, o)
	for _, s := range contract.Sources {
		if lf := lo.Leaf(s); lf != nil {
			v.Path[string(s)] = lf.Path
		} else {
			v.Path[string(s)] = ""
		}
	}

	if !lo.FillsGuidance() {
		v.GuidanceNote = "Each kind's guidance below is the contract's advice for people and agents reading this page. Envelopes do not repeat it: " +
			Code(lo.Leaf(contract.SourceGuidance).Path) + " is present only when the producer gives advice specific to the failure, and the generated constructors never fill it in."
	}
	v.Imports = importRows(c)
	v.Envelope = envelopeRows(c)
	// One example per kind, then the unknown kind's and the maximal one
	// (exampleenv.All), shared with the other emitters of the run.
	exs := exampleenv.Shared(c, o.Shared)
	byKind := v.addKinds(c, exs)
	v.AIPDomain = c.AIP193.Domain
	v.AIPMembers = aipMemberRows(c)
	v.HTTP = statusRows(c, v.Kinds, byKind)
	v.Retired = retiredRows(c)
	for _, sa := range c.SameArguments {
		if sa.UpgradeTo != nil {
			v.Upgrades = append(v.Upgrades, upgradeRow{sa.Name, sa.UpgradeTo.Name})
		}
	}
	for _, f := range contract.Failures {
		v.Failures = append(v.Failures, string(f))
	}
	if in := c.Inbound; in != nil {
		v.addInbound(c, o, in)
	}
	v.Unknown = string(exs[len(c.Kinds)].JSON())
	v.UnknownKind = exampleenv.UnknownKindName(c)
	v.Maximal = string(exs[len(c.Kinds)+1].JSON())
	v.Steps = stepRows(c)
	return v
}

// envelopeRows are the envelope table: a row for each object of the layout
// below the top and for each wire field.
func envelopeRows(c *contract.Contract) []fieldRow {
	kindsOf := map[string][]string{}
	for _, k := range c.Kinds {
		for _, f := range k.Fields {
			if f.Required {
				kindsOf[f.Name] = append(kindsOf[f.Name], k.Name)
			}
		}
	}
	var rows []fieldRow
	for _, o := range c.Layout.Objects {
		if o.Path != "" {
			req := "no"
			if o.Required {
				req = "yes"
			}
			rows = append(rows, fieldRow{Name: o.Path, NameCode: Code(o.Path), Type: "object", Doc: "Holds the members below.", Required: req})
		}
		for _, m := range o.Members {
			lf := m.Leaf
			if lf == nil {
				continue
			}
			row := fieldRow{Name: lf.Path, NameCode: Code(lf.Path), Type: leafType(c, lf), Doc: leafDoc(c, lf), Required: "no"}
			if lf.Required() {
				row.Required = "yes"
			}
			if lf.Source == contract.SourceField {
				if ks := kindsOf[lf.Field.Name]; len(ks) > 0 {
					row.Required = "for " + strings.Join(ks, ", ")
				}
			}
			if len(lf.Aliases) > 0 {
				row.Doc += " Consumers also accept " + codes(lf.Aliases) + " as a fallback spelling."
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// addKinds fills the kinds, their groups and Startup, and returns each
// kind's view for the tables that list kinds again.
func (v *view) addKinds(c *contract.Contract, exs []exampleenv.Example) map[*contract.Kind]int {
	// Each slice is made at its final length: a kind's view is a few
	// hundred bytes, and 10,000 kinds appended one by one, to the kinds, a
	// group and the map by kind, copied them over and over.
	v.Kinds = make([]kindView, 0, len(c.Kinds))
	byKind := make(map[*contract.Kind]int, len(c.Kinds))
	inGroup := map[*contract.Group]int{}
	shared := &kindTexts{code: memo{f: Code}, text: memo{f: Text}}
	for i, k := range c.Kinds {
		v.Startup = v.Startup || k.Startup
		byKind[k] = len(v.Kinds)
		v.Kinds = append(v.Kinds, newKindView(k, exs[i], shared))
		inGroup[k.Group]++
	}
	// The groups and the status rows point at the kinds' views rather
	// than copy them.
	byGroup := make(map[*contract.Group][]*kindView, len(inGroup))
	for i, k := range c.Kinds {
		if byGroup[k.Group] == nil {
			byGroup[k.Group] = make([]*kindView, 0, inGroup[k.Group])
		}
		byGroup[k.Group] = append(byGroup[k.Group], &v.Kinds[i])
	}
	for _, g := range c.Groups {
		if len(byGroup[g]) > 0 {
			v.Groups = append(v.Groups, groupView{Title: g.Title, Description: g.Description, From: g.From, Kinds: byGroup[g]})
		}
	}
	return byKind
}

// kindTexts are the code spans and Markdown of the values kinds share
// (origins, actions, groups, fields), made once
// each rather than once a kind.
type kindTexts struct{ code, text memo }

// memo is f of a string, computed once a string.
type memo struct {
	f func(string) string
	m map[string]string
}

func (m *memo) get(s string) string {
	if out, ok := m.m[s]; ok {
		return out
	}
	if m.m == nil {
		m.m = map[string]string{}
	}
	out := m.f(s)
	m.m[s] = out
	return out
}

// newKindView is a kind's section: its classification, fields and example.
func newKindView(k *contract.Kind, ex exampleenv.Example, shared *kindTexts) kindView {
	cl := &k.Classification
	kv := kindView{
		Name: k.Name, Anchor: Slug(k.Name),
		NameMD: Text(k.Name), NameCode: Code(k.Name), DescriptionMD: Text(k.Description), GroupMD: shared.text.get(k.Group.Title),
		OriginCode: shared.code.get(cl.Origin.Name), ActionCode: shared.code.get(cl.Recovery.Action.Name),
		SameArgumentsCode: shared.code.get(cl.Recovery.SameArguments.Name), SideEffectsCode: shared.code.get(cl.SideEffects.Name),
		GuidanceMD: Text(cl.Recovery.Guidance),
		HTTP:       cl.HTTP, Log: string(cl.Log), Breaker: cl.Breaker, Retryable: cl.Retryable(),
		GRPC: cl.GRPC.Name, Reason: k.Reason,
		Number: k.Number, Startup: k.Startup,
		Example: string(ex.JSON()),
		FromMD:  From(k.From),
	}
	for _, f := range k.Fields {
		req := "no"
		if f.Required {
			req = "yes"
		}
		kv.Fields = append(kv.Fields, fieldRow{Name: f.Name, NameCode: shared.code.get(f.Name), Type: typeName(f), Doc: shared.text.get(f.Description), Required: req})
	}
	return kv
}

// From says, as Markdown, which imported contract a value comes from:
// "From platform-error (`example.com/platform/errors/contract/kinds.yaml`)."
// It is empty for the contract's own values, so a contract without
// imports has the pages it always had. The module's version is left out
// here and named once, in the overview's imports table: a base upgrade
// then changes that line and what the base changed, not every value's.
func From(i *contract.Import) string {
	if i == nil {
		return ""
	}
	where := i.Path
	if i.Module != "" {
		where = i.Module + "/" + i.ModuleFile
	}
	return "From " + Text(i.Name) + " (" + Code(where) + ")."
}

// importRow is one contract the documented contract builds on.
type importRow struct {
	NameMD, VersionCode, LabelCode, Via string
}

// importRows list c's imports, direct first, each with what imports it.
func importRows(c *contract.Contract) []importRow {
	var rows []importRow
	for _, i := range c.Imports {
		via := "this contract"
		if !i.Direct {
			via = "through an import"
			// The direct import it comes through shares its entry.
			for _, d := range c.Imports {
				if d.Direct && d.Pos == i.Pos {
					via = "through " + Text(d.Name)
					break
				}
			}
		}
		rows = append(rows, importRow{NameMD: Text(i.Name), VersionCode: Code(i.Version), LabelCode: Code(i.Label()), Via: via})
	}
	return rows
}

// aipMemberRows say what each google.rpc ErrorInfo metadata key holds.
func aipMemberRows(c *contract.Contract) []aipMemberRow {
	var rows []aipMemberRow
	for _, m := range c.AIP193.Members {
		name := string(m.Source)
		if m.Field != nil {
			name = "the field " + Code(m.Field.Name)
		} else {
			name = Code(name)
		}
		what := name + ", as its text"
		if !m.Text {
			what = name + ", as its compact JSON"
		}
		if m.Leaf == nil {
			what += " (not on the wire in this layout: the kind's classification)"
		} else if m.Source.Derived() {
			what += " as the wire carries it"
		}
		rows = append(rows, aipMemberRow{Key: m.Key, What: what})
	}
	return rows
}

// statusRows are the HTTP status table: each status with its kinds.
func statusRows(c *contract.Contract, kinds []kindView, byKind map[*contract.Kind]int) []statusRow {
	var rows []statusRow
	for _, s := range c.Statuses {
		text := http.StatusText(s.Status)
		if text == "" {
			text = "(no standard name)"
		}
		row := statusRow{Status: s.Status, Text: text, Kinds: make([]*kindView, 0, len(s.Kinds))}
		for _, k := range s.Kinds {
			i, ok := byKind[k]
			if !ok { // (every status's kinds are the contract's)
				row.Kinds = append(row.Kinds, &kindView{})
				continue
			}
			row.Kinds = append(row.Kinds, &kinds[i])
		}
		rows = append(rows, row)
	}
	return rows
}

// retiredRows are the retired names with their reasons and replacements.
func retiredRows(c *contract.Contract) []retiredRow {
	var rows []retiredRow
	for _, r := range c.Retired {
		row := retiredRow{Name: r.Name, Reason: r.Reason, From: r.From}
		if r.ReplacedBy != nil {
			row.ReplacedBy, row.Anchor = r.ReplacedBy.Name, Slug(r.ReplacedBy.Name)
		}
		rows = append(rows, row)
	}
	return rows
}

// kindRef is a kind named in another table: its name and its anchor.
func kindRef(k *contract.Kind) kindView {
	return kindView{Name: k.Name, Anchor: Slug(k.Name), NameCode: Code(k.Name)}
}

// addInbound fills the inbound sections: the tool-result kind, the call
// error, the classifiers and the agreements.
func (v *view) addInbound(c *contract.Contract, o targets.Options, in *contract.Inbound) {
	if in.ToolResult != nil {
		tr := kindRef(in.ToolResult)
		v.ToolResult = &tr
	}
	if ce := c.CallError; ce != nil && in.ToolResult != nil {
		v.CallError = newCallErrorView(c, o, ce)
	}
	v.FirstClassifier = in.Classifiers[0].Name
	for _, cl := range in.Classifiers {
		v.Classifiers = append(v.Classifiers, newClassifierView(cl))
	}
	for _, a := range in.Agreements {
		av := agreementView{Name: a.Name, Description: a.Description}
		for _, s := range a.Sides {
			sv := agreementSideView{Classifier: s.Classifier.Name, Anchor: Slug(s.Classifier.Name)}
			for _, k := range s.Kinds {
				sv.Kinds = append(sv.Kinds, kindRef(k))
			}
			av.Sides = append(av.Sides, sv)
		}
		v.Agreements = append(v.Agreements, av)
	}
}

// newCallErrorView is the call error section.
func newCallErrorView(c *contract.Contract, o targets.Options, ce *contract.CallError) *callErrorView {
	cv := &callErrorView{Title: ce.Title, Description: ce.Description, Members: ce.Members, Origin: ce.Origin.Name,
		Separator: ce.ToolSeparator, DefaultMessage: ce.DefaultMessage, Evidence: ce.Evidence,
		SchemaFile: c.Name + ".call-error.schema.json", SchemaLink: schemaLink(o, c.Name+".call-error.schema.json"),
		ID: genschema.CallErrorID(c), Anchor: Slug("Call errors: " + ce.Title)}
	for _, origin := range ce.Origins {
		cv.Origins = append(cv.Origins, origin.Name)
	}
	for _, ck := range ce.Canonical {
		cv.Canonical = append(cv.Canonical, [2]kindView{kindRef(ck.From), kindRef(ck.To)})
	}
	for _, h := range ce.SafetyHints {
		cv.Hints = append(cv.Hints, [2]string{h.Name, h.Annotation})
	}
	return cv
}

// newClassifierView is an inbound classifier with its rules, numbered.
func newClassifierView(cl *contract.Classifier) classifierView {
	cv := classifierView{Name: cl.Name, Description: cl.Description, Default: kindRef(cl.Default), DefaultBreaker: cl.Default.Breaker}
	for i, r := range cl.Rules {
		row := ruleRow{N: i + 1, Kind: kindRef(r.Kind), Breaker: r.Breaker}
		var st []string
		for _, s := range r.Statuses {
			st = append(st, s.Text)
		}
		row.Status = strings.Join(st, ", ")
		var fl []string
		for _, f := range r.Failures {
			fl = append(fl, string(f))
		}
		if r.AnyFailure {
			fl = append(fl, "any")
		}
		row.Failure = strings.Join(fl, ", ")
		row.Text = strings.Join(r.Text, ", ")
		cv.Rules = append(cv.Rules, row)
	}
	return cv
}

// stepRows are the decision steps, each with the recovery actions that
// take it.
func stepRows(c *contract.Contract) []stepRow {
	var rows []stepRow
	for _, s := range contract.Steps {
		row := stepRow{Step: string(s), Do: stepAdvice[s]}
		for _, a := range c.Actions {
			if a.Step == s {
				row.Actions = append(row.Actions, a.Name)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func codes(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = Code(n)
	}
	return strings.Join(out, ", ")
}

// leafType is the JSON type of a wire field, for the envelope table.
func leafType(c *contract.Contract, lf *contract.Leaf) string {
	switch lf.Source {
	case contract.SourceVersion:
		if c.VersionIsText() {
			return "string"
		}
		return "integer"
	case contract.SourceRetryAfterMs:
		return "integer ≥ 0"
	case contract.SourceRetryable, contract.SourceMayHaveRun:
		return "boolean"
	case contract.SourceConst:
		switch lf.Const.(type) {
		case bool:
			return "boolean"
		case string:
			return "string"
		}
		return "number"
	case contract.SourceField:
		return typeName(lf.Field)
	}
	return "string"
}

// sourceDocs explain the wire fields of the envelope's own values, as
// Markdown; optionalDocs replace them where an optional field says more.
var (
	sourceDocs = map[contract.Source]string{
		contract.SourceKind:          "The stable machine-readable tag of the failure. Branch on it, never on the message. The set is open: see [unknown kinds](#unknown-kinds).",
		contract.SourceMessage:       "A diagnosis for people and models that stays useful when every other field is discarded.",
		contract.SourceOrigin:        "Where the failure arose; one of the [origins](#origins).",
		contract.SourceAction:        "What to do next; one of the [recovery actions](#recovery-actions).",
		contract.SourceSameArguments: "Whether repeating the identical call is safe; one of the [same_arguments values](#same-arguments).",
		contract.SourceGuidance:      "Free text for the caller: what exactly to do next.",
		contract.SourceRetryAfterMs:  "The minimum wait before a retry, in milliseconds.",
		contract.SourceSideEffects:   "Whether work may already have happened; one of the [side_effects values](#side-effects).",
		contract.SourceGroup:         "The kind's group; see [kinds](kinds.md).",
		contract.SourceRetryable:     "Whether an automatic retry of the identical call may succeed: a retry action whose same_arguments value permits it.",
		contract.SourceMayHaveRun:    "Whether work may already have run before the failure, from the [side_effects value](#side-effects). If true, check state before repeating a write.",
	}
	optionalDocs = map[contract.Source]string{
		contract.SourceGuidance:   "Free text for the caller: what exactly to do next. Present only when the producer gives advice specific to this failure: it is never filled in from the contract's guidance, so when it is absent, decide from the other fields.",
		contract.SourceRetryable:  "`true` when an automatic retry of the identical call may succeed (a retry action whose same_arguments value permits it); left out otherwise.",
		contract.SourceMayHaveRun: "`true` when work may already have run before the failure (from the [side_effects value](#side-effects)); left out otherwise. Check state before repeating a write.",
	}
)

// leafDoc explains a wire field, as Markdown.
func leafDoc(c *contract.Contract, lf *contract.Leaf) string {
	switch lf.Source {
	case contract.SourceVersion:
		return fmt.Sprintf("The contract version, %s. Additive changes keep it; a semantic change changes it.", Code(c.VersionLabel()))
	case contract.SourceConst:
		raw, _ := json.Marshal(lf.Const)
		return "Always " + Code(string(raw)) + "."
	case contract.SourceField:
		doc := Text(lf.Field.Description)
		if len(lf.Field.Enum) > 0 {
			doc += " One of " + codes(lf.Field.Enum) + "."
		}
		if lf.RequiredContext {
			doc += " Every envelope carries it, never empty: the generated constructors take it, and an envelope without it does not decode."
		}
		return doc
	}
	if doc, ok := optionalDocs[lf.Source]; ok && lf.Optional {
		return doc
	}
	return sourceDocs[lf.Source]
}

// Src renders where the envelope carries a source, as Markdown: the wire
// path in code, or, when the layout leaves it off the wire, where to look.
func (v *view) Src(source string) string {
	if p := v.Path[source]; p != "" {
		return Code(p)
	}
	return "the kind's " + strings.ReplaceAll(source, "_", " ") + " (not on the wire in this layout: look it up by kind in [kinds](kinds.md) or with the generated packages' lookup)"
}

// Label is a source's name for diagrams: its wire path, else the source.
func (v *view) Label(source string) string {
	if p := v.Path[source]; p != "" {
		return p
	}
	return strings.ReplaceAll(source, "_", " ")
}

// callErrorView is the call_error section as the inbound page shows it.
type callErrorView struct {
	Title, Description, Origin, Separator, DefaultMessage, SchemaFile string
	SchemaLink                                                        string // empty when the schemas output is not generated
	ID, Anchor                                                        string // the schema's $id; the section's anchor on the inbound page
	Members, Origins                                                  []string
	Canonical                                                         [][2]kindView
	Hints                                                             [][2]string
	Evidence                                                          contract.CallEvidence
}
