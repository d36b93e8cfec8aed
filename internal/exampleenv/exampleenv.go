// Package exampleenv builds example envelopes from a contract: one per kind,
// one with an unknown kind and one carrying every context field. The docs
// show them, the schema tests validate them, and the generated packages'
// tests reproduce them, so one set of examples ties every output together.
// (The example contracts are the repository's top-level examples/.)
package exampleenv

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/orderedjson"
	"github.com/errgen/errgen/internal/targets"
)

// Example is one envelope.
type Example struct {
	Name  string             // a kind name, or a label such as "unknown kind"
	Kind  *contract.Kind     // nil for the unknown-kind example
	Value orderedjson.Object // the envelope, in wire order
	// Set lists the wire fields the example carries, with their values, in
	// wire order: what a producer sets to build the same envelope.
	Set []Setting
}

// Setting is one wire field of an example.
type Setting struct {
	Leaf  *contract.Leaf
	Value any
}

// KindAndMessage are the kind and the message the example sets: what a
// producer passes to build it.
func (e Example) KindAndMessage() (kind, message string) {
	for _, s := range e.Set {
		switch s.Leaf.Source {
		case contract.SourceKind:
			kind = s.Value.(string)
		case contract.SourceMessage:
			message = s.Value.(string)
		}
	}
	return kind, message
}

// JSON renders the example indented, as the docs show it: the output of
// json.MarshalIndent(e.Value, "", "  "), which escapes <, > and & (the
// encoder compacts the Object's MarshalJSON output with HTML escaping on),
// written by orderedjson; a value of a type that writer does not know takes
// the encoding/json path, so the output is the same either way.
func (e Example) JSON() []byte {
	if b, ok := orderedjson.AppendIndent(make([]byte, 0, 512), e.Value, 0, true); ok {
		return b
	}
	b, err := json.MarshalIndent(e.Value, "", "  ")
	if err != nil {
		panic(err) // the Object holds only JSON-safe values built here
	}
	return b
}

// RetryAfterMs is the retry hint examples of retry kinds carry.
const RetryAfterMs = 1000

// Sample is the example value of a field: deterministic, and of the
// field's type so it validates.
func Sample(f *contract.Field) any {
	if f.Type == contract.TypeArray {
		return []any{sampleOf(f.Items, f.Name, f.Enum)}
	}
	if f.Type == contract.TypeObject && len(f.Properties) > 0 {
		o := orderedjson.Object{}
		for _, p := range f.Properties {
			o = append(o, orderedjson.Member{Key: p.Name, Value: Sample(p)})
		}
		return o
	}
	return sampleOf(f.Type, f.Name, f.Enum)
}

func sampleOf(t contract.FieldType, name string, enum []string) any {
	switch t {
	case contract.TypeString:
		if len(enum) > 0 {
			return enum[0]
		}
		return "example " + strings.ReplaceAll(name, "_", " ")
	case contract.TypeInteger:
		return 1
	case contract.TypeNumber:
		return 0.5
	case contract.TypeBoolean:
		return true
	}
	return orderedjson.Object{{Key: "note", Value: "example " + strings.ReplaceAll(name, "_", " ")}}
}

// values says what an example carries for each leaf; absent leaves are
// left out of the map.
type values map[*contract.Leaf]any

// build assembles the wire tree of the layout from vals: objects in layout
// order, an object left out when it has nothing to carry.
func build(lo *contract.Layout, vals values) (orderedjson.Object, []Setting) {
	// Made at their final sizes (a member per member of the layout object,
	// at most, a setting per value): every kind's example is built so, for
	// the vectors and the docs.
	set := make([]Setting, 0, len(vals))
	var walk func(o *contract.Object) orderedjson.Object
	walk = func(o *contract.Object) orderedjson.Object {
		out := make(orderedjson.Object, 0, len(o.Members))
		for _, m := range o.Members {
			if m.Leaf != nil {
				if v, ok := vals[m.Leaf]; ok {
					out = append(out, orderedjson.Member{Key: m.Leaf.Name, Value: v})
					set = append(set, Setting{m.Leaf, v})
				}
				continue
			}
			if child := walk(m.Object); len(child) > 0 || m.Object.Required {
				out = append(out, orderedjson.Member{Key: m.Object.Name, Value: child})
			}
		}
		return out
	}
	return walk(lo.Root), set
}

// classified fills the leaves every envelope of a classification carries.
func classified(c *contract.Contract, name, message string, group *contract.Group, cl *contract.Classification, retry bool) values {
	vals := values{}
	for _, lf := range c.Layout.Leaves {
		switch lf.Source {
		case contract.SourceVersion:
			vals[lf] = c.VersionValue()
		case contract.SourceKind:
			vals[lf] = name
		case contract.SourceMessage:
			vals[lf] = message
		case contract.SourceOrigin:
			vals[lf] = cl.Origin.Name
		case contract.SourceAction:
			vals[lf] = cl.Recovery.Action.Name
		case contract.SourceSameArguments:
			vals[lf] = cl.Recovery.SameArguments.Name
		case contract.SourceGuidance:
			// An optional guidance leaf carries only what the producer
			// gives; the constructors leave it empty (Layout.FillsGuidance).
			if !lf.Optional {
				vals[lf] = cl.Recovery.Guidance
			}
		case contract.SourceRetryAfterMs:
			if retry {
				vals[lf] = RetryAfterMs
			}
		case contract.SourceSideEffects:
			vals[lf] = cl.SideEffects.Name
		case contract.SourceGroup:
			g := ""
			if group != nil {
				g = group.Name
			}
			if g != "" || !lf.Optional {
				vals[lf] = g
			}
		case contract.SourceRetryable:
			if cl.Retryable() || !lf.Optional {
				vals[lf] = cl.Retryable()
			}
		case contract.SourceMayHaveRun:
			if cl.SideEffects.MayHaveRun || !lf.Optional {
				vals[lf] = cl.SideEffects.MayHaveRun
			}
		case contract.SourceConst:
			vals[lf] = lf.Const
		case contract.SourceField:
			// A context field the layout requires is in every envelope.
			if lf.RequiredContext {
				vals[lf] = Sample(lf.Field)
			}
		}
	}
	return vals
}

// ForKind is the example of one kind: its classification, a retry hint when
// its action is a retry, and its required fields.
func ForKind(c *contract.Contract, k *contract.Kind) Example {
	vals := classified(c, k.Name, k.Description, k.Group, &k.Classification, k.Recovery.Action.Step == contract.StepRetry)
	for _, f := range k.RequiredFields() {
		if lf := fieldLeaf(c, f); lf != nil {
			vals[lf] = Sample(f)
		}
	}
	o, set := build(c.Layout, vals)
	return Example{Name: k.Name, Kind: k, Value: o, Set: set}
}

// New is the envelope a generated package's New(kind, message) builds, with
// the message as given (New's sanitizing is the caller's to apply): any
// kind, a kind the contract does not define classified with the fallback,
// no fields, and the retry hint when retryAfterMs is not nil and the layout
// carries one. The conformance vectors of the HTTP readers expect it.
func New(c *contract.Contract, kind, message string, retryAfterMs *int64) orderedjson.Object {
	cl, group := &c.Fallback.Classification, (*contract.Group)(nil)
	if k := c.Kind(kind); k != nil {
		cl, group = &k.Classification, k.Group
	}
	vals := classified(c, kind, message, group, cl, false)
	if lf := c.Layout.Leaf(contract.SourceRetryAfterMs); lf != nil && retryAfterMs != nil {
		vals[lf] = *retryAfterMs
	}
	o, _ := build(c.Layout, vals)
	return o
}

// fieldLeaf finds the leaf of a kind's field, which may be a later
// declaration of a field first declared by another kind.
func fieldLeaf(c *contract.Contract, f *contract.Field) *contract.Leaf {
	if lf := c.Layout.FieldLeaf(f); lf != nil {
		return lf
	}
	return c.Layout.FieldLeaf(c.KindField(f.Name))
}

// UnknownKindName is a kind name that follows the contract's naming pattern
// but that the contract does not define.
func UnknownKindName(c *contract.Contract) string {
	name := map[contract.Naming]string{
		contract.SnakeCase:          "kind_from_a_newer_contract",
		contract.ScreamingSnakeCase: "KIND_FROM_A_NEWER_CONTRACT",
		contract.PascalCase:         "KindFromANewerContract",
		contract.KebabCase:          "kind-from-a-newer-contract",
	}[c.Naming]
	for c.Kind(name) != nil {
		name += map[bool]string{true: "X", false: "x"}[c.Naming == contract.ScreamingSnakeCase || c.Naming == contract.PascalCase]
	}
	return name
}

// Unknown is an envelope whose kind the contract does not define, classified
// with the fallback as the contract tells producers and consumers to.
func Unknown(c *contract.Contract) Example {
	name := UnknownKindName(c)
	msg := fmt.Sprintf("A failure reported with the kind %s, which this contract version does not define.", name)
	o, set := build(c.Layout, classified(c, name, msg, nil, &c.Fallback.Classification, false))
	return Example{Name: "unknown kind", Value: o, Set: set}
}

// Maximal is the richest envelope: the first kind with the most
// kind-specific fields, with every one of them, every context field, a
// retry hint and, where the layout carries guidance only when the producer
// gives it, the kind's guidance as the producer's.
func Maximal(c *contract.Contract) Example {
	k := c.Kinds[0]
	for _, cand := range c.Kinds {
		if len(cand.Fields) > len(k.Fields) {
			k = cand
		}
	}
	vals := classified(c, k.Name, k.Description, k.Group, &k.Classification, true)
	// Advice the producer gives itself, where the layout carries guidance
	// only then.
	if lf := c.Layout.Leaf(contract.SourceGuidance); lf != nil && lf.Optional {
		vals[lf] = k.Recovery.Guidance
	}
	for _, f := range c.FieldsOf(k) {
		if lf := fieldLeaf(c, f); lf != nil {
			vals[lf] = Sample(f)
		}
	}
	o, set := build(c.Layout, vals)
	return Example{Name: "every field", Kind: k, Value: o, Set: set}
}

// Shared is All(c), built once for the emitters of one run (targets.Shared):
// the vectors, the docs and the OpenAPI document show the same examples.
// Neither the slice nor the values in it may be changed.
func Shared(c *contract.Contract, s *targets.Shared) []Example {
	return targets.Derive(s, allKey{c}, func() []Example { return All(c) })
}

type allKey struct{ c *contract.Contract }

// All returns one example per kind in contract order, then the unknown-kind
// and maximal examples.
func All(c *contract.Contract) []Example {
	out := make([]Example, 0, len(c.Kinds)+2)
	for _, k := range c.Kinds {
		out = append(out, ForKind(c, k))
	}
	return append(out, Unknown(c), Maximal(c))
}

// Problem is the RFC 9457 problem document every HTTP surface renders from
// the example with no instance (Go's Envelope.Problem("")): type, title,
// status and detail, then the envelope's top-level members as extension
// members, in wire order, less those named like a problem member.
func Problem(c *contract.Contract, ex Example) orderedjson.Object {
	cl, title := &c.Fallback.Classification, contract.UnknownKindTitle
	if ex.Kind != nil {
		cl, title = &ex.Kind.Classification, ex.Kind.Description
	}
	kind, message := ex.KindAndMessage()
	out := orderedjson.Object{
		{Key: "type", Value: c.Surfaces.ProblemTypeBase + kind},
		{Key: "title", Value: title},
		{Key: "status", Value: cl.HTTP},
		{Key: "detail", Value: message},
	}
	for _, m := range ex.Value {
		if !slices.Contains(contract.ProblemMembers, m.Key) {
			out = append(out, m)
		}
	}
	return out
}
