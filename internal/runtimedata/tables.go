package runtimedata

import (
	"encoding/json"
	"strconv"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/targets"
)

// Tables are the runtime description of one contract: each member is one
// table or policy value a generated runtime defines (CLASSIFICATIONS,
// FALLBACK, …), and what its printed form is named after.
type Tables struct {
	// Classifications maps each kind to its Classification; Fallback is the
	// classification of a kind the contract does not know.
	Classifications Map
	Fallback        Record
	// Layout is the wire layout as a tree of objects and leaves; Fields
	// maps each context and kind-specific field's member to its spec.
	Layout Record
	Fields Map
	// Inbound is the classifiers' rules, nil without inbound
	// classification; ShortForm the short form the HTTP reader accepts,
	// nil when it accepts none.
	Inbound, ShortForm Value
	Retry              Record
	// NextStep's tables: each action's step, the same_arguments values
	// that permit a retry and their upgrades, the side_effects values under
	// which work may have run.
	ActionSteps, Upgrades Map
	RetrySame, MayHaveRun Set
	// The surfaces: the one kind of each status only one kind has, and the
	// CLI's exit code of each origin that has one.
	HTTPKinds, ExitCodes Map
	// MCPErrorCodes is the JSON-RPC error code of each origin that has one
	// (surfaces.mcp.error_codes); MCPMetaKey the _meta key of isError tool
	// results, null when the contract names none.
	MCPErrorCodes Map
	MCPMetaKey    Value
	// MCPKindErrorCodes is the JSON-RPC error code of each kind that gives
	// its own (mcp_error_code), ahead of its origin's.
	MCPKindErrorCodes Map
	// The sanitizer policy's tables (its scalars are the model's).
	SanitizeMarkers, SanitizeSecrets, SanitizedFields, SanitizeCredentialNames List
	// Log is the structured-log form every logging helper writes
	// (contract.LogMembers): its members in order and the bound of its texts.
	Log Record
	// CLIForm is how a command line writes an envelope: "envelope" or
	// "wrapped" (contract.CLIForm).
	CLIForm Value
	// EchoBody is whether a message built from a response without an
	// envelope quotes the body's text (contract.HTTPReading.EchoBody).
	EchoBody Value
	// HTTPStatusField is the member of the context field that keeps the
	// status of a response without an envelope; nil without one
	// (contract.HTTPReading.StatusField).
	HTTPStatusField Value
	// The google.rpc mapping's tables (AIP-193; every Classification also
	// carries its gRPC code and status and its kind's reason): the
	// ErrorInfo domain; the layout's leaves in wire order, each with where
	// the mapping takes its value from when it reads an envelope back; the
	// values the layout does not carry, by metadata key; each reason's
	// kind, sorted by reason.
	AIPDomain             Value
	AIPLeaves, AIPOffWire List
	AIPReasons            Map
	// CallError is the contract's call_error section, nil without one.
	CallError Value
}

// Shared is Build(c), built once for the emitters of one run
// (targets.Shared): TypeScript, Python and Rust print the same tables. The
// tables may not be changed.
func Shared(c *contract.Contract, s *targets.Shared) *Tables {
	return targets.Derive(s, tablesKey{c}, func() *Tables { return Build(c) })
}

type tablesKey struct{ c *contract.Contract }

// Build describes the contract's runtime tables.
func Build(c *contract.Contract) *Tables {
	t := &Tables{
		Classifications: Map{},
		Fallback:        classification(&c.Fallback.Classification, nil, c),
		Layout:          layoutObject(c.Layout.Root),
		Fields:          Map{},
		SanitizeMarkers: Strings(c.Sanitize.Markers), SanitizeSecrets: List{}, SanitizedFields: Strings(c.Sanitize.Fields),
		SanitizeCredentialNames: Strings(c.Sanitize.AllCredentialNames()),
		Log:                     logForm(),
	}
	t.surfaces(c)
	t.aip193(c)
	for _, k := range c.Kinds {
		t.Classifications = append(t.Classifications, Entry{k.Name, classification(&k.Classification, k, c)})
	}
	for _, f := range c.EnvelopeFields {
		s := fieldSpec(f)
		s.Fields[4].Value = false // a context or kind-specific field is optional on the wire
		t.Fields = append(t.Fields, Entry{Local{&f.Idents}, s})
	}
	t.decisions(c)
	if ce := c.CallError; ce != nil && c.Inbound != nil && c.Inbound.ToolResult != nil {
		t.CallError = callError(c)
	}
	if sf := c.ShortForm(); sf != nil {
		t.ShortForm = shortForm(sf)
	}
	for _, s := range c.Sanitize.Secrets {
		t.SanitizeSecrets = append(t.SanitizeSecrets, Record{Fields: []Field{{Name: "name", Value: s.Name},
			{Name: "prefixes", Value: Strings(s.Prefixes)}, {Name: "chars", Value: string(s.Chars)}, {Name: "min_length", Value: s.MinLength}}})
	}
	return t
}

// BuildGo describes only the tables the Go package prints (every other
// member is nil): the google.rpc mapping's, the surfaces', NextStep's and
// the retry policy, the inbound classifiers' rules and the log form. Its emitter
// writes the classifications, the layout and the fields as code of its
// own, and would otherwise pay for their description in a large contract.
func BuildGo(c *contract.Contract) *Tables {
	t := &Tables{Log: logForm()}
	t.aip193(c)
	t.decisions(c)
	t.surfaces(c)
	return t
}

// surfaces fills the surfaces' tables.
func (t *Tables) surfaces(c *contract.Contract) {
	t.HTTPKinds, t.ExitCodes, t.MCPErrorCodes, t.MCPKindErrorCodes = Map{}, Map{}, Map{}, Map{}
	t.CLIForm, t.EchoBody = string(c.Surfaces.CLI.Form), c.Surfaces.HTTP.EchoBody
	if c.Surfaces.MCP.MetaKey != "" {
		t.MCPMetaKey = c.Surfaces.MCP.MetaKey
	}
	if f := c.Surfaces.HTTP.StatusField; f != nil {
		t.HTTPStatusField = Local{&f.Idents}
	}
	for _, k := range c.Kinds {
		if k.MCPErrorCode != nil {
			t.MCPKindErrorCodes = append(t.MCPKindErrorCodes, Entry{k.Name, *k.MCPErrorCode})
		}
	}
	for _, k := range c.HTTPKinds {
		t.HTTPKinds = append(t.HTTPKinds, Entry{strconv.Itoa(k.HTTP), k.Name})
	}
	for _, o := range c.Origins {
		if code, ok := c.Surfaces.CLI.ExitCodes[o]; ok {
			t.ExitCodes = append(t.ExitCodes, Entry{o.Name, code})
		}
		if code, ok := c.Surfaces.MCP.ErrorCodes[o]; ok {
			t.MCPErrorCodes = append(t.MCPErrorCodes, Entry{o.Name, code})
		}
	}
}

// decisions fills the tables of the decisions an envelope's reader makes:
// the retry policy, each action's step, the same_arguments values that
// permit a retry and their upgrades, the side_effects values under which
// work may have run, and the inbound classifiers' rules.
func (t *Tables) decisions(c *contract.Contract) {
	t.Retry = Record{Type: "RetryPolicy", Fields: []Field{{Name: "initial_ms", Value: c.Retry.InitialMs},
		{Name: "max_ms", Value: c.Retry.MaxMs}, {Name: "multiplier", Value: c.Retry.Multiplier},
		{Name: "jitter", Value: c.Retry.Jitter}, {Name: "max_attempts", Value: c.Retry.MaxAttempts},
		{Name: "max_hint_ms", Value: c.Retry.MaxHintMs}}, Sorted: true}
	t.ActionSteps, t.Upgrades, t.RetrySame, t.MayHaveRun = Map{}, Map{}, Set{}, Set{}
	for _, a := range c.Actions {
		t.ActionSteps = append(t.ActionSteps, Entry{a.Name, string(a.Step)})
	}
	for _, s := range c.SameArguments {
		if s.Retry {
			t.RetrySame = append(t.RetrySame, s.Name)
		}
		if s.UpgradeTo != nil {
			t.Upgrades = append(t.Upgrades, Entry{s.Name, s.UpgradeTo.Name})
		}
	}
	for _, s := range c.SideEffects {
		if s.MayHaveRun {
			t.MayHaveRun = append(t.MayHaveRun, s.Name)
		}
	}
	if c.Inbound != nil {
		t.Inbound = inbound(c.Inbound)
	}
}

// classification is a kind's classification as the runtime reads it (k nil
// for the fallback's, whose kind and reason are empty: lookup fills them in
// for a kind the contract does not list).
func classification(cl *contract.Classification, k *contract.Kind, c *contract.Contract) Record {
	kind, group, desc, startup, number, reason := "", "", "", false, -1, ""
	if k != nil {
		kind, group, desc, startup, reason = k.Name, k.Group.Name, k.Description, k.Startup, k.Reason
		if c.Numbered {
			number = k.Number
		}
	}
	return Record{Type: "Classification", Fields: []Field{
		{Name: "kind", Value: kind}, {Name: "known", Value: k != nil}, {Name: "group", Value: group},
		{Name: "origin", Value: cl.Origin.Name}, {Name: "action", Value: cl.Recovery.Action.Name},
		{Name: "same_arguments", Value: cl.Recovery.SameArguments.Name}, {Name: "guidance", Value: cl.Recovery.Guidance},
		{Name: "side_effects", Value: cl.SideEffects.Name}, {Name: "http_status", Value: cl.HTTP},
		{Name: "log_level", Value: string(cl.Log)}, {Name: "breaker", Value: cl.Breaker},
		{Name: "retryable", Value: cl.Retryable()}, {Name: "description", Value: desc},
		{Name: "startup", Value: startup}, {Name: "number", Value: number},
		{Name: "grpc_code", Value: cl.GRPC.Number}, {Name: "grpc_status", Value: cl.GRPC.Name}, {Name: "reason", Value: reason},
	}}
}

// aip193 fills the google.rpc mapping's tables: the domain, the kinds by
// reason, each leaf of the layout with where the mapping takes its value
// from when it reads an envelope back (src "meta": the metadata entry under
// key, its text itself when text is set, else its compact JSON; "kind",
// "message", "retry"; or "const": the constant, which Python's runtime
// compares as a value and the others as its JSON, raw), and the values the
// layout does not carry (key, and the model's source of the value).
func (t *Tables) aip193(c *contract.Contract) {
	t.AIPDomain, t.AIPReasons = c.AIP193.Domain, Map{}
	for _, k := range c.ReasonKinds() {
		t.AIPReasons = append(t.AIPReasons, Entry{k.Reason, k.Name})
	}
	keys := map[*contract.Leaf]*contract.MetaMember{}
	t.AIPOffWire = List{}
	for _, m := range c.AIP193.Members {
		if m.Leaf != nil {
			keys[m.Leaf] = m
			continue
		}
		t.AIPOffWire = append(t.AIPOffWire, Record{Type: "AipOffWire", Row: true, Fields: []Field{{Name: "key", Value: m.Key}, {Name: "source", Value: string(m.Source)}}})
	}
	t.AIPLeaves = List{}
	for _, lf := range c.Layout.Leaves {
		src, key, text, raw, value := "meta", "", false, "", Value(nil)
		switch lf.Source {
		case contract.SourceKind:
			src = "kind"
		case contract.SourceMessage:
			src = "message"
		case contract.SourceRetryAfterMs:
			src = "retry"
		case contract.SourceConst:
			j, err := json.Marshal(lf.Const)
			if err != nil {
				panic("runtimedata: a layout constant that is not JSON: " + err.Error())
			}
			src, raw, value = "const", string(j), lf.Const
		default:
			// Every other leaf is a metadata member (the loader made one).
			m := keys[lf]
			key, text = m.Key, m.Text
		}
		t.AIPLeaves = append(t.AIPLeaves, Record{Type: "AipLeaf", Row: true, Fields: []Field{{Name: "path", Value: lf.Path}, {Name: "src", Value: src},
			{Name: "key", Value: key, Sparse: true}, {Name: "text", Value: text, Sparse: true},
			{Name: "raw", Value: raw, Sparse: true, Only: TypeScript | Rust | Go}, {Name: "const", Value: value, Only: Python}}})
	}
}

// layoutObject is the wire layout as the runtime's layout interpreter
// reads it: an object's members are {leaf: …} or {object: …}; owned lists
// the member names (aliases included) the object's own layout claims.
func layoutObject(o *contract.Object) Record {
	owned, members := Set{}, List{}
	for _, m := range o.Members {
		owned = append(owned, m.Name())
		if m.Object != nil {
			members = append(members, Record{Fields: []Field{{Name: "object", Value: layoutObject(m.Object)}}})
			continue
		}
		lf := m.Leaf
		for _, a := range lf.Aliases {
			owned = append(owned, a)
		}
		l := []Field{{Name: "name", Value: lf.Name}, {Name: "path", Value: lf.Path}, {Name: "source", Value: string(lf.Source)},
			{Name: "optional", Value: lf.Optional, Sparse: true},
			{Name: "required", Value: lf.RequiredContext, Sparse: true, Only: TypeScript},
			{Name: "aliases", Value: Strings(lf.Aliases), Sparse: true}}
		switch {
		case lf.Source.Derived():
			// received names the Envelope member keeping a derived value.
			l = append(l, Field{Name: "received", Value: Local{&lf.Idents}})
		case lf.Source == contract.SourceField:
			l = append(l, Field{Name: "field", Value: Local{&lf.Field.Idents}},
				Field{Name: "required", Value: lf.RequiredContext, Only: Python})
		case lf.Source == contract.SourceConst:
			// want is how a decode error states the constant, as Go's decoder does.
			raw, _ := json.Marshal(lf.Const)
			l = append(l, Field{Name: "value", Value: lf.Const}, Field{Name: "want", Value: "the constant " + string(raw)})
		}
		members = append(members, Record{Fields: []Field{{Name: "leaf", Value: Record{Fields: l}}}})
	}
	return Record{Fields: []Field{{Name: "name", Value: o.Name}, {Name: "path", Value: o.Path},
		{Name: "required", Value: o.Required || o.Path == ""}, {Name: "owned", Value: owned}, {Name: "members", Value: members}}}
}

// fieldSpec describes a context or kind-specific field (or a property of an
// object field) for the codec. Python's names the class it decodes an
// object with properties into.
func fieldSpec(f *contract.Field) Record {
	props := List{}
	for _, p := range f.Properties {
		props = append(props, fieldSpec(p))
	}
	return Record{Fields: []Field{{Name: "member", Value: Local{&f.Idents}}, {Name: "name", Value: f.Name},
		{Name: "type", Value: string(f.Type)}, {Name: "items", Value: string(f.Items), Sparse: true},
		{Name: "required", Value: f.Required, Sparse: true}, {Name: "properties", Value: props, Sparse: true},
		{Name: "cls", Value: Class{f}, Only: Python}}}
}

// inbound is the classifiers' rules for the rule engine.
func inbound(in *contract.Inbound) Record {
	var tool Value
	if in.ToolResult != nil {
		tool = in.ToolResult.Name
	}
	classifiers := List{}
	for _, cl := range in.Classifiers {
		rules := List{}
		for _, r := range cl.Rules {
			statuses, failures := List{}, List{}
			for _, s := range r.Statuses {
				statuses = append(statuses, List{s.From, s.To})
			}
			for _, f := range r.Failures {
				failures = append(failures, string(f))
			}
			rules = append(rules, Record{Fields: []Field{{Name: "statuses", Value: statuses}, {Name: "failures", Value: failures},
				{Name: "any_failure", Value: r.AnyFailure}, {Name: "text", Value: Strings(r.Text)},
				{Name: "kind", Value: r.Kind.Name}, {Name: "breaker", Value: r.Breaker}}})
		}
		classifiers = append(classifiers, Record{Fields: []Field{{Name: "name", Value: cl.Name}, {Name: "rules", Value: rules},
			{Name: "default", Value: cl.Default.Name}, {Name: "default_breaker", Value: cl.Default.Breaker}}})
	}
	return Record{Fields: []Field{{Name: "tool_result", Value: tool}, {Name: "classifiers", Value: classifiers}}}
}

// shortForm is the short form the HTTP reader accepts, with the members of
// the required fields a promoted envelope carries empty, by kind.
func shortForm(sf *contract.ShortForm) Record {
	empty := Map{}
	for _, e := range sf.Empty {
		members := Map{}
		for _, f := range e.Fields {
			members = append(members, Entry{Local{&f.Idents}, string(f.Type)})
		}
		empty = append(empty, Entry{e.Kind.Name, members})
	}
	return Record{Fields: []Field{{Name: "kind_member", Value: sf.KindMember}, {Name: "message_member", Value: sf.MessageMember},
		{Name: "kind_pattern", Value: sf.KindPattern}, {Name: "max_kind_bytes", Value: contract.ShortFormMaxKind},
		{Name: "empty_fields", Value: empty}}}
}

// logForm is the structured-log form of contract.LogMembers.
func logForm() Record {
	members := List{}
	for _, m := range contract.LogMembers {
		members = append(members, string(m))
	}
	return Record{Fields: []Field{{Name: "members", Value: members}, {Name: "max_bytes", Value: contract.LogMaxBytes},
		{Name: "ellipsis", Value: contract.LogEllipsis}}}
}

// callError is the call_error section as the runtimes read it.
func callError(c *contract.Contract) Record {
	ce := c.CallError
	canonical := Map{}
	for _, ck := range ce.Canonical {
		canonical = append(canonical, Entry{ck.From.Name, ck.To.Name})
	}
	hints := List{}
	for _, h := range ce.SafetyHints {
		hints = append(hints, List{h.Name, h.Annotation})
	}
	return Record{Fields: []Field{{Name: "version", Value: c.Version}, {Name: "members", Value: Strings(ce.Members)},
		{Name: "origin", Value: ce.Origin.Name}, {Name: "result_kind", Value: c.Inbound.ToolResult.Name},
		{Name: "canonical", Value: canonical}, {Name: "separator", Value: ce.ToolSeparator}, {Name: "default_message", Value: ce.DefaultMessage},
		{Name: "hints", Value: hints}, {Name: "max_blocks", Value: ce.Evidence.MaxBlocks}, {Name: "max_text", Value: ce.Evidence.MaxText},
		{Name: "max_resource", Value: ce.Evidence.MaxResource}, {Name: "binary", Value: Strings(ce.Evidence.Binary)}}}
}
