package genvectors

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
)

// HintMs is the retry hint the next_step vectors add to every example.
const HintMs = 1234

// newer is a vocabulary value no contract defines: a value from a newer
// contract version, which decoders keep as it is.
func newer(what string) string { return what + "_from_a_newer_contract" }

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// named is an envelope as a wire object, with its vector's name, and its
// compact JSON when it is an example's (Build writes each example once for
// every section that holds it; nil: written where it is needed).
type named struct {
	name string
	o    object
	env  json.RawMessage
}

// wire is n's compact JSON.
func (n named) wire() (json.RawMessage, error) {
	if n.env != nil {
		return n.env, nil
	}
	return raw(n.o)
}

// wires is each example's compact JSON, for the sections that hold every
// example (envelopes, next steps, surfaces, MCP errors, AIP-193 errors).
func wires(exs []exampleenv.Example) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(exs))
	for i, ex := range exs {
		var err error
		if out[i], err = raw(ex.Value); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// withUnknownMembers is every example envelope, then the last (the one
// with every field) with an unknown member in every object of the layout,
// under the name given, with note as the unknown members' text.
func withUnknownMembers(c *contract.Contract, exs []exampleenv.Example, envs []json.RawMessage, name, note string) []named {
	all := make([]named, 0, len(exs)+3)
	for i, ex := range exs {
		all = append(all, named{ex.Name, fromExample(ex.Value), envs[i]})
	}
	ext := fromExample(exs[len(exs)-1].Value)
	for _, obj := range c.Layout.Objects {
		member := "x_extension"
		for owned(obj, member) {
			member += "_"
		}
		ext = ext.with(joinPath(obj.Path, member), object{{Key: "note", Value: note}, {Key: "n", Value: 2}})
	}
	return append(all, named{name: name, o: ext})
}

// envelopes are the examples of the docs, one with an unknown member in
// every object of the layout, and one with vocabulary values this contract
// does not define: each decodes, and encodes back to the same JSON.
func envelopes(c *contract.Contract, exs []exampleenv.Example, envs []json.RawMessage) ([]EnvelopeVec, error) {
	all := withUnknownMembers(c, exs, envs, "unknown members", "kept as received")
	all = append(all, named{name: fmt.Sprintf("an unknown member nested %d levels deep, as deep as every decoder reads", contract.MaxDepth), o: deepEnvelope(c, exs[len(exs)-1])})
	unknown := fromExample(exs[0].Value)
	changed := false
	for _, s := range []contract.Source{contract.SourceOrigin, contract.SourceAction, contract.SourceSameArguments, contract.SourceSideEffects} {
		if lf := c.Layout.Leaf(s); lf != nil {
			unknown, changed = unknown.with(lf.Path, newer(string(s))), true
		}
	}
	if changed {
		all = append(all, named{name: "vocabulary values from a newer contract", o: unknown})
	}
	// An optional derived flag received false where the kind computes true:
	// it wins, and is written back as received, so a relay does not turn it
	// into the kind's. (A required flag is always written; a producer schema
	// may pin it to the kind's value.)
	for _, s := range []contract.Source{contract.SourceRetryable, contract.SourceMayHaveRun} {
		lf := c.Layout.Leaf(s)
		if lf == nil || !lf.Optional {
			continue
		}
		for _, ex := range exs {
			o := fromExample(ex.Value)
			if v, _ := o.get(lf.Path); v == true {
				all = append(all, named{name: fmt.Sprintf("%s, %s received false against the kind's true", ex.Name, lf.Path), o: o.with(lf.Path, false)})
				break
			}
		}
	}
	out := make([]EnvelopeVec, 0, len(all))
	for _, n := range all {
		env, d, err := wireAndDecoded(c, n)
		if err != nil {
			return nil, err
		}
		out = append(out, EnvelopeVec{Name: n.name, Envelope: env, Kind: d.Kind, Known: d.Known,
			Retryable: d.IsRetryable(c), HTTPStatus: classificationOf(c, d.Kind).HTTP})
	}
	return out, nil
}

// owned reports whether name is a member of the layout object, or an
// alias of one.
func owned(o *contract.Object, name string) bool {
	for _, m := range o.Members {
		if m.Name() == name {
			return true
		}
		if m.Leaf != nil {
			for _, a := range m.Leaf.Aliases {
				if a == name {
					return true
				}
			}
		}
	}
	return false
}

// wrongValue is a value of a JSON type other than the one wanted.
type wrongValue struct {
	value any
	what  string // "a number"
}

// wrongFor lists the wrong values tried for a JSON type.
func wrongFor(t contract.FieldType) []wrongValue {
	switch t {
	case contract.TypeString:
		return []wrongValue{{42, "a number"}}
	case contract.TypeInteger:
		return []wrongValue{{"1", "a string"}, {1.5, "a fraction"}}
	case contract.TypeNumber:
		return []wrongValue{{"0.5", "a string"}}
	case contract.TypeBoolean:
		return []wrongValue{{"true", "a string"}}
	case contract.TypeObject:
		return []wrongValue{{"not an object", "a string"}, {[]any{}, "an array"}}
	}
	return []wrongValue{{"not an array", "a string"}}
}

// leafType is the JSON type a leaf holds.
func leafType(c *contract.Contract, lf *contract.Leaf) contract.FieldType {
	switch lf.Source {
	case contract.SourceVersion:
		if c.VersionIsText() {
			return contract.TypeString
		}
		return contract.TypeInteger
	case contract.SourceRetryAfterMs:
		return contract.TypeInteger
	case contract.SourceRetryable, contract.SourceMayHaveRun:
		return contract.TypeBoolean
	case contract.SourceConst:
		switch lf.Const.(type) {
		case string:
			return contract.TypeString
		case bool:
			return contract.TypeBoolean
		case int:
			return contract.TypeInteger
		}
		return contract.TypeNumber
	case contract.SourceField:
		return lf.Field.Type
	}
	return contract.TypeString
}

// otherConst is a value of the constant's type that differs from it.
func otherConst(v any) any {
	switch v := v.(type) {
	case string:
		return v + "_not"
	case bool:
		return !v
	case int:
		return v + 1
	case float64:
		return v + 1
	}
	panic(fmt.Sprintf("genvectors: constant of type %T", v))
}

// malformed derives documents that must not decode from the richest
// example, each broken in one place, with the path the decoder reports and
// the category of the problem; then texts that are not JSON at all.
func malformed(c *contract.Contract, maximal exampleenv.Example) ([]MalformedVec, error) {
	base := fromExample(maximal.Value)
	var out []MalformedVec
	var err error
	add := func(name string, input any, path, category string) {
		if err != nil {
			return
		}
		var in json.RawMessage
		in, err = raw(input)
		out = append(out, MalformedVec{Name: name, Input: in, Path: path, Category: category})
	}
	for _, lf := range c.Layout.Leaves {
		p := lf.Path
		if lf.Required() {
			add("missing "+p, base.without(p), p, CategoryMissing)
			add(p+": null", base.with(p, nil), p, CategoryType)
		}
		t := leafType(c, lf)
		wrongs, want := wrongFor(t), t.Phrase()
		// Any other value than a layout constant is a rejected value,
		// whatever its type.
		wrongCategory := CategoryType
		if lf.Source == contract.SourceConst {
			cj, _ := json.Marshal(lf.Const)
			want = "the constant " + string(cj)
			wrongCategory = CategoryValue
			add(p+": another value than "+want, base.with(p, otherConst(lf.Const)), p, CategoryValue)
		}
		for _, w := range wrongs {
			add(fmt.Sprintf("%s: %s, not %s", p, w.what, want), base.with(p, w.value), p, wrongCategory)
		}
		switch {
		case lf.Source == contract.SourceKind || lf.RequiredContext:
			// The kind, and a context field the layout requires, are never
			// empty.
			add(p+": empty", base.with(p, ""), p, CategoryValue)
			// Nor is one the readers sanitize when the sanitizer empties it:
			// a prompt-injection marker alone sanitizes to nothing.
			// The kind is sanitized too (issue 28: an upstream can put a
			// token in it).
			if (lf.Source == contract.SourceKind || lf.RequiredContext && sanitizedLeaf(c, lf)) && len(c.Sanitize.Markers) > 0 {
				add(p+": only a prompt-injection marker, which the sanitizer removes", base.with(p, c.Sanitize.Markers[0]), p, CategoryValue)
			}
		case lf.Source == contract.SourceRetryAfterMs:
			add(p+": negative", base.with(p, -1), p, CategoryValue)
			// An alias is read when the first spelling is absent, and checked
			// alike.
			for _, a := range lf.Aliases {
				ap := joinPath(lf.Object.Path, a)
				without := base.without(p)
				add(ap+" (alias of "+p+"): negative", without.with(ap, -1), ap, CategoryValue)
				for _, w := range wrongs {
					add(fmt.Sprintf("%s (alias of %s): %s, not %s", ap, p, w.what, want), without.with(ap, w.value), ap, CategoryType)
				}
			}
		case t == contract.TypeArray:
			items := wrongFor(lf.Field.Items)
			add(fmt.Sprintf("%s: an array holding %s, not %s", p, items[0].what, lf.Field.Items.Phrase()), base.with(p, []any{items[0].value}), p, CategoryType)
		case t == contract.TypeObject && len(lf.Field.Properties) > 0:
			// A typed property of the wrong type is reported at the field.
			for _, prop := range lf.Field.Properties {
				pw := wrongFor(prop.Type)
				val := clone(exampleenv.Sample(lf.Field)).(object).with(prop.Name, pw[0].value)
				add(fmt.Sprintf("%s: member %s %s, not %s", p, prop.Name, pw[0].what, prop.Type.Phrase()), base.with(p, val), p, CategoryType)
			}
		}
	}
	for _, obj := range c.Layout.Objects[1:] {
		p := obj.Path
		if obj.Required {
			add("missing "+p, base.without(p), p, CategoryMissing)
			add(p+": null", base.with(p, nil), p, CategoryType)
		}
		add(p+": a string, not an object", base.with(p, "not an object"), p, CategoryType)
		add(p+": an array, not an object", base.with(p, []any{}), p, CategoryType)
	}
	add("the document: an array, not an object", []any{base}, "", CategoryType)
	add("the document: null", nil, "", CategoryType)
	add("the document: a string, not an object", "not an envelope", "", CategoryType)
	add("the document: a number, not an object", 42, "", CategoryType)
	if err != nil {
		return nil, err
	}
	// Text that is not JSON, cut from the same document.
	doc, err := raw(base)
	if err != nil {
		return nil, err
	}
	for _, s := range []struct{ name, text string }{
		{"not JSON: a truncated document", truncate(string(doc), len(doc)/2)},
		{"not JSON: trailing garbage after the document", string(doc) + " garbage"},
		{"not JSON: two documents", string(doc) + string(doc)},
		{"not JSON: a bare word", "envelope"},
		{"not JSON: an empty input", ""},
		{"not JSON: only white space", " \n\t"},
		{"not JSON: single quotes", strings.ReplaceAll(string(doc), `"`, "'")},
	} {
		text := s.text
		out = append(out, MalformedVec{Name: s.name, Text: &text, Path: "", Category: CategorySyntax})
	}
	lim, err := limits(c, base)
	if err != nil {
		return nil, err
	}
	return append(out, lim...), nil
}

// truncate cuts s to at most n bytes at a code point boundary.
func truncate(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// nextSteps decides, for every attempt up to one past the limit, on every
// kind's example and the unknown kind's, each also without its retry hint
// and with a 1234 ms one where the layout carries retry hints; then on
// envelopes that exercise what a decoder keeps as received: a hint under an
// alias, vocabulary values from a newer contract, and derived flags that
// disagree with the computed ones.
func nextSteps(c *contract.Contract, exs []exampleenv.Example, envs []json.RawMessage) ([]NextStepVec, error) {
	// exs is one example per kind, then the unknown kind's.
	bases := make([]named, 0, len(exs))
	for i, ex := range exs {
		bases = append(bases, named{ex.Name, fromExample(ex.Value), envs[i]})
	}
	unknown := bases[len(bases)-1]

	hint := c.Layout.Leaf(contract.SourceRetryAfterMs)
	all := make([]named, 0, 3*len(bases)+16)
	hinted := fmt.Sprintf(", retry hint %d ms", HintMs)
	for _, b := range bases {
		all = append(all, b)
		if hint == nil {
			continue
		}
		if _, ok := b.o.get(hint.Path); ok {
			all = append(all, named{name: b.name + ", no retry hint", o: b.o.without(hint.Path)})
		}
		all = append(all, named{name: b.name + hinted, o: b.o.with(hint.Path, HintMs)})
	}

	// The first kinds that meet a condition, to vary.
	first := func(ok func(k *contract.Kind) bool) *named {
		for i, k := range c.Kinds {
			if ok(k) {
				return &bases[i]
			}
		}
		return nil
	}
	retryStep := func(k *contract.Kind) bool { return k.Recovery.Action.Step == contract.StepRetry }
	if b := first(retryStep); b != nil && hint != nil {
		for _, a := range hint.Aliases {
			ap := joinPath(hint.Object.Path, a)
			all = append(all, named{name: fmt.Sprintf("%s, retry hint %d ms as %s", b.name, HintMs, ap), o: b.o.without(hint.Path).with(ap, HintMs)})
		}
	}
	// Hints at the edges of the clamp: each saturates at retry.max_hint_ms
	// alike in every language, and none overflows into an immediate retry
	// (2^53-1 ms, the largest hint every decoder reads, times a millisecond
	// overflows Go's time.Duration; a larger hint does not decode at all).
	if b := first(func(k *contract.Kind) bool { return retryStep(k) && k.Retryable() }); b != nil && hint != nil {
		for _, ms := range []int64{0, 1, c.Retry.MaxHintMs, c.Retry.MaxHintMs + 1, contract.MaxSafeInteger} {
			all = append(all, named{name: fmt.Sprintf("%s, retry hint %d ms", b.name, ms), o: b.o.with(hint.Path, ms)})
		}
	}
	if lf := c.Layout.Leaf(contract.SourceAction); lf != nil {
		all = append(all, named{name: bases[0].name + ", " + lf.Path + " from a newer contract", o: bases[0].o.with(lf.Path, newer("action"))})
	}
	if lf := c.Layout.Leaf(contract.SourceSameArguments); lf != nil {
		if b := first(retryStep); b != nil {
			all = append(all, named{name: b.name + ", " + lf.Path + " from a newer contract", o: b.o.with(lf.Path, newer("same_arguments"))})
		}
	}
	if lf := c.Layout.Leaf(contract.SourceSideEffects); lf != nil {
		all = append(all, named{name: bases[0].name + ", " + lf.Path + " from a newer contract", o: bases[0].o.with(lf.Path, newer("side_effects"))})
	}
	// A received derived flag wins over the computed one.
	flip := func(lf *contract.Leaf, b *named, v bool) {
		if b != nil {
			all = append(all, named{name: fmt.Sprintf("%s, %s %v received", b.name, lf.Path, v), o: b.o.with(lf.Path, v)})
		}
	}
	if lf := c.Layout.Leaf(contract.SourceRetryable); lf != nil {
		flip(lf, first(func(k *contract.Kind) bool { return retryStep(k) && k.Retryable() }), false)
		flip(lf, first(func(k *contract.Kind) bool { return retryStep(k) && !k.Retryable() }), true)
		flip(lf, &unknown, !c.Fallback.Retryable())
	}
	if lf := c.Layout.Leaf(contract.SourceMayHaveRun); lf != nil {
		flip(lf, first(func(k *contract.Kind) bool { return !k.SideEffects.MayHaveRun }), true)
		flip(lf, first(func(k *contract.Kind) bool { return k.SideEffects.MayHaveRun }), false)
		flip(lf, &unknown, !c.Fallback.SideEffects.MayHaveRun)
	}

	out := make([]NextStepVec, 0, len(all))
	// The decisions depend on what decode reads and nothing else: worked
	// out, and written, once for each distinct reading, and shared by the
	// vectors (a handful of readings for thousands of kinds).
	type decided struct {
		attempts []AttemptVec
		json     []byte
	}
	memo := map[decisionKey]decided{}
	for _, n := range all {
		env, d, err := wireAndDecoded(c, n)
		if err != nil {
			return nil, err
		}
		key := keyOf(d)
		got, ok := memo[key]
		if !ok {
			for attempt := 1; attempt <= c.Retry.MaxAttempts+1; attempt++ {
				dec := DecideDecoded(c, d, attempt)
				got.attempts = append(got.attempts, AttemptVec{Attempt: attempt, Step: string(dec.Step),
					DelayMinMs: dec.DelayMinMs, DelayMaxMs: dec.DelayMaxMs, CheckStateFirst: dec.CheckStateFirst, Exhausted: dec.Exhausted})
			}
			if got.attempts == nil {
				got.attempts = []AttemptVec{}
			}
			got.json = appendAttempts(nil, got.attempts)
			memo[key] = got
		}
		out = append(out, NextStepVec{Name: n.name, Envelope: env, Attempts: got.attempts, attemptsJSON: got.json})
	}
	return out, nil
}

// decisionKey is what DecideDecoded reads of a decoded envelope.
type decisionKey struct {
	action, sameArguments, sideEffects string
	hinted                             bool
	hint                               int64
	retryable, mayHaveRun              int8 // -1 when not received
}

func keyOf(d Decoded) decisionKey {
	k := decisionKey{action: d.Action, sameArguments: d.SameArguments, sideEffects: d.SideEffects, retryable: -1, mayHaveRun: -1}
	if d.RetryAfterMs != nil {
		k.hinted, k.hint = true, *d.RetryAfterMs
	}
	flag := func(b *bool) int8 {
		switch {
		case b == nil:
			return -1
		case *b:
			return 1
		}
		return 0
	}
	k.retryable, k.mayHaveRun = flag(d.Retryable), flag(d.MayHaveRun)
	return k
}
