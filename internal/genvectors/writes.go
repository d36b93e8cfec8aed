package genvectors

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/orderedjson"
)

// WriteVec is an envelope changed by hand in a way no decoder gives, and
// what every package's writers still write for it. The tests decode
// Envelope, then, when IllFormed, replace each U+FFFD in its text (values
// and member names) with text that is not well-formed in their language (Go:
// the byte 0xFF; TypeScript: the lone surrogate U+D800; Python: the lone
// surrogate U+DC80, as surrogateescape decodes a byte; Rust, whose strings
// cannot hold one, keeps U+FFFD and writes it as the character where the
// others write the escape \ufffd), and, when RetryAfterMs is not null, set
// the retry hint to it (a decimal past MaxSafeInteger). HTTP and Problem
// are what the HTTP writer sends (as in the surfaces section); CLI, the
// command line's line for Command (the tool result's text is HTTP's body),
// and AIP193, the AIP-193 JSON error compared as a JSON value (a metadata
// text may hold U+FFFD itself where the specification writes \ufffd), are
// null when not checked (a writer that may refuse the envelope).
type WriteVec struct {
	Name         string          `json:"name"`
	Envelope     json.RawMessage `json:"envelope"`
	IllFormed    bool            `json:"ill_formed"`
	RetryAfterMs *string         `json:"retry_after_ms"`
	HTTP         HTTPForm        `json:"http"`
	Problem      HTTPForm        `json:"problem"`
	Command      string          `json:"command"`
	CLI          *string         `json:"cli"`
	AIP193       *string         `json:"aip193"`
	// Log is the log form, as in the surfaces section; null when not
	// checked (a text it sanitizes is not one every policy leaves alone).
	Log json.RawMessage `json:"log"`
}

// AsObject implements orderedjson.Ordered.
func (v WriteVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "envelope", Value: v.Envelope},
		{Key: "ill_formed", Value: v.IllFormed}, {Key: "retry_after_ms", Value: nullable(v.RetryAfterMs)},
		{Key: "http", Value: v.HTTP}, {Key: "problem", Value: v.Problem}, {Key: "command", Value: v.Command},
		{Key: "cli", Value: nullable(v.CLI)}, {Key: "aip193", Value: nullable(v.AIP193)}, {Key: "log", Value: v.Log}}
}

// illFormed stands for text that is not well-formed: in the specification
// the byte 0xFF, which every JSON writer writes as the escape \ufffd (as
// encoding/json does) and every text as U+FFFD.
const illFormed = "\xff"

// writeVectors are the writers' answers to envelopes set by hand: text
// that is not well-formed in every writer's output becomes U+FFFD (issue 28,
// item 9), and the HTTP writer sends a retry hint past MaxSafeInteger,
// which no encoder writes, as MaxSafeInteger (item 15).
func writeVectors(c *contract.Contract, exs []exampleenv.Example) ([]WriteVec, error) {
	var out []WriteVec

	// Ill-formed text in the message, the guidance, a member this contract
	// does not name (its value, a list item and a name of its own).
	rich := fromExample(exs[len(exs)-1].Value)
	bad := rich.with(c.Layout.Leaf(contract.SourceMessage).Path, illFormed+"Text from a producer "+illFormed+illFormed+" that is not UTF-8"+illFormed)
	if lf := c.Layout.Leaf(contract.SourceGuidance); lf != nil {
		bad = bad.with(lf.Path, "Retry "+illFormed+" later.")
	}
	member := "x_ill_formed"
	for owned(c.Layout.Root, member) {
		member += "_"
	}
	bad = bad.with(member, object{{Key: "text", Value: "a" + illFormed + "b"}, {Key: "list", Value: []any{illFormed}}, {Key: "name_" + illFormed, Value: 1}})
	good := fixed(bad).(object)
	v, err := writeVec(c, "text that is not well-formed becomes U+FFFD", good, bad)
	if err != nil {
		return nil, err
	}
	v.IllFormed = true
	out = append(out, v)

	// The same in a context field the log form does not sanitize, so that
	// the log form is checked too.
	for _, f := range c.ContextFields {
		lf := c.Layout.FieldLeaf(f)
		if f.Type != contract.TypeString || c.Sanitize.Sanitizes(f.Name) || lf == nil {
			continue
		}
		bad := fromExample(exs[len(exs)-1].Value).with(lf.Path, "Reported by "+illFormed+" the upstream"+illFormed)
		v, err := writeVec(c, "text that is not well-formed in a field the log form does not sanitize", fixed(bad).(object), bad)
		if err != nil {
			return nil, err
		}
		// (Left out where the example's own texts are not ones every
		// sanitizer policy leaves alone: the log form is not checked there.)
		if string(v.Log) != "null" {
			v.IllFormed = true
			out = append(out, v)
		}
		break
	}

	// A retry hint past MaxSafeInteger, set by hand.
	if hint := c.Layout.Leaf(contract.SourceRetryAfterMs); hint != nil {
		base := fromExample(exs[0].Value).without(hint.Path)
		clamped := base.with(hint.Path, int64(contract.MaxSafeInteger))
		v, err := writeVec(c, "a retry hint past MaxSafeInteger is sent as MaxSafeInteger", clamped, clamped)
		if err != nil {
			return nil, err
		}
		if v.Envelope, err = raw(base); err != nil {
			return nil, err
		}
		ms := strconv.FormatInt(contract.MaxSafeInteger+2, 10)
		v.RetryAfterMs = &ms
		v.CLI, v.AIP193, v.Log = nil, nil, json.RawMessage("null")
		out = append(out, v)
	}
	// An empty list in an array field the layout marks optional (ovstorage's
	// warnings, "omitted when there are none"): every writer leaves it out.
	for _, lf := range c.Layout.Leaves {
		if !lf.OmitsEmpty() {
			continue
		}
		base := fromExample(exs[0].Value).without(lf.Path)
		v, err := writeVec(c, "an empty "+lf.Field.Name+" list is left out (layout optional: true)", base, base)
		if err != nil {
			return nil, err
		}
		if v.Envelope, err = raw(base.with(lf.Path, []any{})); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// writeVec is the vector of an envelope whose outputs are those of written
// and whose decoded form is good.
func writeVec(c *contract.Contract, name string, good, written object) (WriteVec, error) {
	in, err := raw(good)
	if err != nil {
		return WriteVec{}, err
	}
	sv, err := surfaceOf(c, named{name: name, o: written}, nil)
	if err != nil {
		return WriteVec{}, err
	}
	back, err := surfaceOf(c, named{name: name, o: good}, nil)
	if err != nil {
		return WriteVec{}, err
	}
	sv.HTTP.Envelope, sv.Problem.Envelope = back.HTTP.Envelope, back.Problem.Envelope
	aip, err := aipText(c, written)
	if err != nil {
		return WriteVec{}, err
	}
	return WriteVec{Name: name, Envelope: in, HTTP: sv.HTTP, Problem: sv.Problem, Command: sv.Command, CLI: &sv.CLI, AIP193: &aip, Log: sv.Log}, nil
}

// fixed is v with illFormed replaced by U+FFFD in every string and member
// name: what a decoder reads back.
func fixed(v any) any {
	switch v := v.(type) {
	case string:
		return strings.ReplaceAll(v, illFormed, "\uFFFD")
	case object:
		out := make(object, len(v))
		for i, m := range v {
			out[i] = orderedjson.Member{Key: fixed(m.Key).(string), Value: fixed(m.Value)}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = fixed(x)
		}
		return out
	}
	return v
}
