package contract

import (
	"regexp"

	"gopkg.in/yaml.v3"
)

// CallError is the contract's call_error section: a second wire shape
// derived from the envelope, the object a sandbox's rejected tool call
// carries (labby's Code Mode call error), built from a completed MCP tool
// result flagged isError. Nothing in it names a system: the members it
// carries, the kinds it canonicalises, the origins it allows and the caps
// on its evidence are the contract's.
type CallError struct {
	Pos    Pos
	KeyPos map[string]Pos
	// Title and Description document the shape (its JSON Schema's).
	Title       string
	Description string
	// Members are the members the object carries, in wire order, from
	// CallErrorMembers; the required ones (CallErrorRequired) are always
	// among them.
	Members []string
	// Origins are the origins a call error may name; Origin, the origin of
	// inbound.tool_result's kind, is the one every call error built from a
	// completed tool result names, and is among them.
	Origins []*Origin
	Origin  *Origin
	// Canonical maps a kind reported inside a completed result to the kind
	// the call error names instead; the reported kind goes to
	// original_kind.
	Canonical []CanonicalKind
	// ToolSeparator joins the upstream and the tool into the tool member.
	ToolSeparator string
	// DefaultMessage is the message of a result that carries no text.
	DefaultMessage string
	// SafetyHints are the members of safety, each read from a boolean MCP
	// tool annotation; the values are untrusted hints.
	SafetyHints []SafetyHint
	Evidence    CallEvidence
}

// CanonicalKind is one entry of call_error.canonical_kinds.
type CanonicalKind struct {
	From, To *Kind
}

// SafetyHint is one member of a call error's safety object.
type SafetyHint struct {
	Name       string // the member: read_only_hint
	Annotation string // the MCP annotation it is read from: readOnlyHint
}

// CallEvidence are the caps on a call error's evidence.
type CallEvidence struct {
	MaxBlocks   int      // content blocks kept
	MaxText     int      // code points of a text block's text
	MaxResource int      // code points of an embedded resource's text
	Binary      []string // block types reduced to type, MIME type and size
}

// CallErrorMembers are the members a call error may carry, in wire order.
var CallErrorMembers = []string{"contract_version", "kind", "message", "tool", "origin", "recovery", "side_effects", "original_kind", "cause", "safety", "evidence"}

// CallErrorRequired are the members every call error carries.
var CallErrorRequired = []string{"contract_version", "kind", "message", "origin", "recovery", "side_effects"}

// Has reports whether the call error carries member.
func (ce *CallError) Has(member string) bool { return contains(ce.Members, member) }

// CanonicalOf is the kind a call error names for kind (kind itself when it
// is not canonicalised).
func (ce *CallError) CanonicalOf(kind string) (string, bool) {
	for _, ck := range ce.Canonical {
		if ck.From.Name == kind {
			return ck.To.Name, true
		}
	}
	return kind, false
}

// MaxCallBlocks bounds call_error.evidence.max_blocks.
const MaxCallBlocks = 1024

var annotationNameRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// callError reads the call_error section. It needs inbound.tool_result: a
// call error is built from a completed tool result, whose kind and origin
// that names.
func (l *loader) callError(c *Contract, sec *mapping, key *yaml.Node) {
	if sec == nil {
		return
	}
	sec.what = "call_error: "
	ce := &CallError{Pos: l.pos(key), KeyPos: sec.keyPos(), ToolSeparator: "::"}
	ce.Title = c.Name + " call error"
	if t, n := sec.str("title", false); n != nil {
		ce.Title = t
	}
	ce.Description, _ = sec.str("description", true)
	if c.VersionIsText() {
		l.errorf(key, "call_error: the contract's version must be an integer, as a call error carries it as contract_version; found %q", c.VersionText)
	}
	l.callErrorMembers(ce, sec)
	l.callErrorOrigins(c, ce, sec)
	l.callErrorResultOrigin(c, ce, key)
	l.callErrorCanonicalKinds(c, ce, sec)
	if s, n := sec.str("tool_separator", false); n != nil {
		if s == "" || isBlank(s) {
			l.errorf(n, "call_error: tool_separator must not be blank")
		} else {
			ce.ToolSeparator = s
		}
	}
	ce.DefaultMessage, _ = sec.str("default_message", true)
	l.callErrorSafetyHints(ce, sec, key)
	l.callErrorEvidence(ce, sec)
	sec.done("title", "description", "members", "origins", "canonical_kinds", "tool_separator", "default_message", "safety_hints", "evidence")
	c.CallError = ce
}

// callErrorMembers reads call_error.members: known names, once each, in
// the order of CallErrorMembers, with every required one.
func (l *loader) callErrorMembers(ce *CallError, sec *mapping) {
	if mk, mv := sec.get("members"); mk == nil {
		sec.missingf("members", sec.at, "call_error: missing required key \"members\"; list the members the object carries, e.g. [%s]", joinPlain(CallErrorRequired))
	} else if mv.Kind != yaml.SequenceNode {
		l.errorf(mv, "call_error: members must be a list of member names, found %s", describeNode(mv))
	} else {
		last := -1
		for _, it := range mv.Content {
			it = deref(it)
			if it.Kind != yaml.ScalarNode || it.Tag != "!!str" {
				l.errorf(it, "call_error: members: each item must be a member name, found %s", describeNode(it))
				continue
			}
			at := -1
			for i, m := range CallErrorMembers {
				if m == it.Value {
					at = i
				}
			}
			switch {
			case at < 0:
				l.errorf(it, "call_error: members: unknown member %q%s; use some of %s", it.Value, suggest(it.Value, CallErrorMembers), quoteList(CallErrorMembers))
				continue
			case ce.Has(it.Value):
				l.errorf(it, "call_error: members: %q is listed twice", it.Value)
				continue
			case at < last:
				l.errorf(it, "call_error: members: %q is out of order; list them in the order %s", it.Value, quoteList(CallErrorMembers))
			}
			last = at
			ce.Members = append(ce.Members, it.Value)
		}
		for _, r := range CallErrorRequired {
			if !ce.Has(r) {
				l.errorf(mk, "call_error: members must include %q: every call error carries %s", r, quoteList(CallErrorRequired))
			}
		}
	}
}

// callErrorOrigins reads call_error.origins: origins of the contract, once
// each.
func (l *loader) callErrorOrigins(c *Contract, ce *CallError, sec *mapping) {
	if ok, ov := sec.get("origins"); ok == nil {
		sec.missing("origins")
	} else if ov.Kind != yaml.SequenceNode || len(ov.Content) == 0 {
		l.errorf(ov, "call_error: origins must be a non-empty list of origins, found %s", describeNode(ov))
	} else {
		for _, it := range ov.Content {
			it = deref(it)
			o, found := refToName(c.Origins, it.Value)
			if it.Kind != yaml.ScalarNode || !found {
				names := make([]string, len(c.Origins))
				for i, o := range c.Origins {
					names[i] = o.Name
				}
				l.errorf(it, "call_error: origins: unknown origin %s%s; use one of %s", describeNode(it), suggest(it.Value, names), quoteList(names))
				continue
			}
			if contains(ce.Origins, o) {
				l.errorf(it, "call_error: origins: %q is listed twice", it.Value)
				continue
			}
			ce.Origins = append(ce.Origins, o)
		}
	}
}

// callErrorResultOrigin sets the origin of a call error built from a
// completed result: that of inbound.tool_result's kind, which origins must
// list.
func (l *loader) callErrorResultOrigin(c *Contract, ce *CallError, key *yaml.Node) {
	switch {
	case c.Inbound == nil || c.Inbound.ToolResult == nil:
		l.errorf(key, "call_error: needs inbound.tool_result, the kind of a completed tool result flagged isError, from which a call error takes its kind and origin")
	case c.Inbound.ToolResult.Origin != nil:
		ce.Origin = c.Inbound.ToolResult.Origin
		if len(ce.Origins) > 0 && !contains(ce.Origins, ce.Origin) {
			l.errorf(key, "call_error: origins must include %q, the origin of inbound.tool_result's kind %q, which every call error built from a completed tool result names", ce.Origin.Name, c.Inbound.ToolResult.Name)
		}
	}
}

// callErrorCanonicalKinds reads call_error.canonical_kinds: each kind of
// the contract mapped to another, final one.
func (l *loader) callErrorCanonicalKinds(c *Contract, ce *CallError, sec *mapping) {
	if kk, kv := sec.get("canonical_kinds"); kk != nil {
		if m := l.asMapping(kv, kk, "call_error: ", "canonical_kinds"); m != nil {
			m.what = "call_error: canonical_kinds: "
			m.each(func(k, v *yaml.Node) {
				from := c.Kind(k.Value)
				if from == nil {
					l.errorf(k, "call_error: canonical_kinds: unknown kind %q; each key must be a kind of this contract", k.Value)
				}
				to := l.kindRef(c, m, k.Value, true)
				if from == nil || to == nil {
					return
				}
				if from == to {
					l.errorf(v, "call_error: canonical_kinds: %q maps to itself; remove the entry", k.Value)
					return
				}
				ce.Canonical = append(ce.Canonical, CanonicalKind{From: from, To: to})
			})
			for _, ck := range ce.Canonical {
				for _, o := range ce.Canonical {
					if o.From == ck.To {
						kn, _ := m.get(ck.From.Name)
						l.errorf(kn, "call_error: canonical_kinds: %q maps to %q, which is canonicalised itself; map it to the final kind", ck.From.Name, ck.To.Name)
					}
				}
			}
		}
	}
}

// callErrorSafetyHints reads call_error.safety_hints, which the member
// safety needs.
func (l *loader) callErrorSafetyHints(ce *CallError, sec *mapping, key *yaml.Node) {
	if hk, hv := sec.get("safety_hints"); hk != nil {
		if m := l.asMapping(hv, hk, "call_error: ", "safety_hints"); m != nil {
			m.each(func(k, v *yaml.Node) {
				if !namingRes[SnakeCase].MatchString(k.Value) {
					l.errorf(k, "call_error: safety_hints: member %q must be snake_case", k.Value)
					return
				}
				if v.Kind != yaml.ScalarNode || v.Tag != "!!str" || !annotationNameRe.MatchString(v.Value) {
					l.errorf(v, "call_error: safety_hints: %s must name an MCP tool annotation, e.g. readOnlyHint, found %s", k.Value, describeNode(v))
					return
				}
				ce.SafetyHints = append(ce.SafetyHints, SafetyHint{Name: k.Value, Annotation: v.Value})
			})
		}
	}
	if ce.Has("safety") && len(ce.SafetyHints) == 0 {
		l.errorf(key, "call_error: members include \"safety\", so safety_hints must name at least one hint, e.g. read_only_hint: readOnlyHint")
	}
}

// callErrorEvidence reads call_error.evidence over its defaults.
func (l *loader) callErrorEvidence(ce *CallError, sec *mapping) {
	ce.Evidence = CallEvidence{MaxBlocks: 16, MaxText: 2048, MaxResource: 2048, Binary: []string{"image", "audio"}}
	if ek, ev := sec.get("evidence"); ek != nil {
		if m := l.asMapping(ev, ek, "call_error: ", "evidence"); m != nil {
			m.what = "call_error: evidence: "
			positive := func(name string, dst *int, max int) {
				if v, n := m.integer(name, false); n != nil {
					if v < 1 || v > max {
						l.errorf(n, "call_error: evidence: %s must be from 1 to %d, found %d", name, max, v)
						return
					}
					*dst = v
				}
			}
			positive("max_blocks", &ce.Evidence.MaxBlocks, MaxCallBlocks)
			positive("max_text", &ce.Evidence.MaxText, 1<<20)
			positive("max_resource", &ce.Evidence.MaxResource, 1<<20)
			l.stringList(m, "binary", &ce.Evidence.Binary, "call_error: evidence: binary must be a list of content block types, e.g. [image, audio], found %s", func(it *yaml.Node, seen []string) (string, bool) {
				switch {
				case it.Kind != yaml.ScalarNode || it.Tag != "!!str" || !namingRes[SnakeCase].MatchString(it.Value):
					l.errorf(it, "call_error: evidence: binary: each item must be a content block type, e.g. image, found %s", describeNode(it))
				case contains(seen, it.Value):
					l.errorf(it, "call_error: evidence: binary: %q is listed twice", it.Value)
				case it.Value == "text" || it.Value == "resource" || it.Value == "resource_link":
					l.errorf(it, "call_error: evidence: binary: %q carries text, not binary content", it.Value)
				default:
					return it.Value, true
				}
				return "", false
			})
			m.done("max_blocks", "max_text", "max_resource", "binary")
		}
	}
	if ce.Has("evidence") && ce.Evidence.MaxText < 16 {
		_, n := sec.get("evidence")
		l.errorf(n, "call_error: evidence: max_text must be at least 16 so that the truncation marker fits")
	}
}
