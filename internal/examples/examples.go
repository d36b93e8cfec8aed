// Package examples builds example envelopes from a contract: one per kind,
// one with an unknown kind and one carrying every context field. The docs
// show them, the schema tests validate them, and the generated packages'
// tests reproduce them, so one set of examples ties every output together.
package examples

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/errgen/errgen/internal/contract"
)

// Example is one envelope.
type Example struct {
	Name  string         // a kind name, or a label such as "unknown kind"
	Kind  *contract.Kind // nil for the unknown-kind example
	Value Object         // the envelope, in wire order
}

// JSON renders the example indented, as the docs show it.
func (e Example) JSON() []byte {
	b, err := json.MarshalIndent(e.Value, "", "  ")
	if err != nil {
		panic(err) // Object holds only JSON-safe values built here
	}
	return b
}

// Member is one field of an Object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object that keeps its field order.
type Object []Member

// MarshalJSON writes the members in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// RetryAfterMs is the retry hint examples of retry kinds carry.
const RetryAfterMs = 1000

// Sample is the example value of a field: deterministic, and of the
// field's type so it validates.
func Sample(f *contract.Field) any {
	if f.Type == contract.TypeArray {
		return []any{sampleOf(f.Items, f.Name)}
	}
	return sampleOf(f.Type, f.Name)
}

func sampleOf(t contract.FieldType, name string) any {
	switch t {
	case contract.TypeString:
		return "example " + strings.ReplaceAll(name, "_", " ")
	case contract.TypeInteger:
		return 1
	case contract.TypeNumber:
		return 0.5
	case contract.TypeBoolean:
		return true
	}
	return Object{{Key: "note", Value: "example " + strings.ReplaceAll(name, "_", " ")}}
}

// envelope builds the reserved fields of an envelope of kind name.
func envelope(c *contract.Contract, name, message string, cl *contract.Classification, retry bool) Object {
	w := c.Wire
	rec := Object{
		{w.Action, cl.Recovery.Action.Name},
		{w.SameArguments, cl.Recovery.SameArguments.Name},
		{w.Guidance, cl.Recovery.Guidance},
	}
	if retry {
		rec = append(rec, Member{w.RetryAfterMs, RetryAfterMs})
	}
	return Object{
		{w.ContractVersion, c.Version},
		{w.Kind, name},
		{w.Message, message},
		{w.Origin, cl.Origin.Name},
		{w.Recovery, rec},
		{w.SideEffects, cl.SideEffects.Name},
	}
}

// ForKind is the example of one kind: its classification, a retry hint when
// its action is a retry, and its required fields.
func ForKind(c *contract.Contract, k *contract.Kind) Example {
	o := envelope(c, k.Name, k.Description, &k.Classification, k.Recovery.Action.Step == contract.StepRetry)
	for _, f := range k.RequiredFields() {
		o = append(o, Member{f.Name, Sample(f)})
	}
	return Example{Name: k.Name, Kind: k, Value: o}
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
	return Example{Name: "unknown kind", Value: envelope(c, name, msg, &c.Fallback.Classification, false)}
}

// Maximal is the richest envelope: the first kind with the most
// kind-specific fields, with every one of them, every context field and a
// retry hint.
func Maximal(c *contract.Contract) Example {
	k := c.Kinds[0]
	for _, cand := range c.Kinds {
		if len(cand.Fields) > len(k.Fields) {
			k = cand
		}
	}
	o := envelope(c, k.Name, k.Description, &k.Classification, true)
	for _, f := range c.ContextFields {
		o = append(o, Member{f.Name, Sample(f)})
	}
	for _, f := range k.Fields {
		o = append(o, Member{f.Name, Sample(f)})
	}
	return Example{Name: "every field", Kind: k, Value: o}
}

// All returns one example per kind in contract order, then the unknown-kind
// and maximal examples.
func All(c *contract.Contract) []Example {
	out := make([]Example, 0, len(c.Kinds)+2)
	for _, k := range c.Kinds {
		out = append(out, ForKind(c, k))
	}
	return append(out, Unknown(c), Maximal(c))
}
