package genvectors

import (
	"encoding/json"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/orderedjson"
)

// ReceivedVec is an envelope as an upstream sent it, holding secrets in
// the texts the contract sanitizes (issue 28: a gateway that re-emits what
// it read must not pass an upstream's token on). Every reader returns
// Envelope for it, the secrets redacted: the JSON decoder on Document,
// and ReadHTTP (envelope and problem bodies), the MCP tool result reader,
// ReadCLI and the AIP-193 reader on what the surfaces write for the raw
// envelope. No surface writing Envelope holds any of Secrets. The raw
// decoder (the readers' opt-out) returns Raw, the document as it is.
type ReceivedVec struct {
	Name     string          `json:"name"`
	Document json.RawMessage `json:"document"`
	Envelope json.RawMessage `json:"envelope"`
	Raw      json.RawMessage `json:"raw"`
	Secrets  []string        `json:"secrets"`
}

// AsObject implements orderedjson.Ordered.
func (v ReceivedVec) AsObject() orderedjson.Object {
	secrets := make([]any, len(v.Secrets))
	for i, s := range v.Secrets {
		secrets[i] = s
	}
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "document", Value: v.Document},
		{Key: "envelope", Value: v.Envelope}, {Key: "raw", Value: v.Raw}, {Key: "secrets", Value: secrets}}
}

// The secrets the received vectors carry, and texts holding them with what
// the sanitizer makes of them under errgen's default policy (the sanitizer
// vectors hold the same shapes). A contract whose own policy could act on
// a text otherwise (a marker, a secret prefix or a credential name of its
// own in it, a maximum length below it) gets no vector for it: the vectors
// do not carry the sanitizer.
const (
	receivedBearer = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLWJ5dGVz"
	receivedGitHub = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
)

var (
	receivedMessage = redaction{
		in:  "upstream answered 401 for Bearer " + receivedBearer + ": it echoed " + receivedGitHub + " too",
		out: "upstream answered 401 for Bearer [REDACTED]: it echoed [REDACTED] too",
	}
	// A token split by white space the sanitizer deletes (vertical tab,
	// form feed, U+001C, NEL): read as text, it is sanitized before its
	// white space is collapsed, so it is whole when redacted.
	receivedSplit = redaction{
		in:  "the proxy echoed ghp_a1B2c3D4e5\vF6g7H8i9J0\fk1L2m3N4o5\x1cP6q7\u0085R8 back",
		out: "the proxy echoed [REDACTED] back",
	}
	// An AWS key id that, redacted, straddles the 512th byte of a text read
	// from a response: the text is cut before its [REDACTED].
	receivedAtCut = redaction{
		in:  atCutWords + " AKIAIOSFODNN7EXAMPLE tail",
		out: atCutWords + " [REDACTED] tail",
	}
	// A text past 4*512 bytes whose cut at byte 2048 goes through an AWS
	// key id: what the sanitizer keeps of it (too short to be one) is the
	// run of secret characters that ends the cut text, and goes, with the
	// colon glued to it. Zero-width spaces, which the sanitizer deletes,
	// put the key id at the cut.
	receivedPreCut = redaction{
		in:  strings.Repeat("\u200b", 673) + " the proxy said: AKIAIOSFODNN",
		out: " the proxy said: AKIAIOSFODNN",
	}
	// A GitHub token of lowercase characters: it matches a short form's
	// kind pattern, and the sanitizer redacts it.
	shortFormToken = redaction{
		in:  "ghp_a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8",
		out: "[REDACTED]",
	}
	receivedText = redaction{
		in:  "the upstream echoed " + receivedGitHub + " in its error",
		out: "the upstream echoed [REDACTED] in its error",
	}
)

// atCutWords are 502 bytes of words: a [REDACTED] after them and a space
// spans bytes 503 to 512.
var atCutWords = strings.TrimSpace(strings.Repeat("word ", 100)) + "sss"

// redaction is a text and what the default policy's sanitizer makes of it.
type redaction struct{ in, out string }

// sure reports whether c's policy sanitizes r.in to r.out, as the default
// policy does: nothing of the contract's own is in either text.
func (r redaction) sure(c *contract.Contract) bool {
	p := c.Sanitize
	if len(r.in) > p.MaxLength {
		return false
	}
	// Each text is lowered once, not once for each of the policy's names
	// (the texts run to 2 KiB, the names to dozens).
	in, out := strings.ToLower(r.in), strings.ToLower(r.out)
	clear := func(own []string) bool {
		for _, o := range own {
			if o := strings.ToLower(o); strings.Contains(in, o) || strings.Contains(out, o) {
				return false
			}
		}
		return true
	}
	if !clear(p.Markers) {
		return false
	}
	for _, s := range p.Secrets {
		if !clear(s.Prefixes) {
			return false
		}
	}
	return !p.Paths || clear(p.AllCredentialNames())
}

// received builds the received vectors from the richest example: its
// message and every other text the layout carries (guidance, every string
// field, an element of every array of strings, the strings of every
// free-form object, listed in sanitize.fields or not) hold secrets, and so
// do two extra members, one a string, one nesting it in an array in an
// object.
func received(c *contract.Contract, maximal exampleenv.Example) ([]ReceivedVec, error) {
	doc, want := fromExample(maximal.Value), fromExample(maximal.Value)
	var secrets []string
	put := func(path string, r redaction, holding ...string) {
		if !r.sure(c) {
			return
		}
		doc, want = doc.with(path, r.in), want.with(path, r.out)
		for _, s := range holding {
			if !contains(secrets, s) {
				secrets = append(secrets, s)
			}
		}
	}
	for _, lf := range c.Layout.Leaves {
		switch {
		case lf.Source == contract.SourceField && lf.Field.Type == contract.TypeArray && lf.Field.Items == contract.TypeString && receivedText.sure(c):
			// An array of strings, element by element.
			doc, want = doc.with(lf.Path, []any{"clean", receivedText.in}), want.with(lf.Path, []any{"clean", receivedText.out})
			secrets = appendNew(secrets, receivedGitHub)
		case lf.Source == contract.SourceField && lf.Field.Type == contract.TypeObject && len(lf.Field.Properties) == 0 && receivedText.sure(c):
			// A free-form object's strings, however deep; keys kept.
			doc = doc.with(lf.Path, object{{Key: "note", Value: receivedText.in}, {Key: "list", Value: []any{1, receivedText.in}}})
			want = want.with(lf.Path, object{{Key: "note", Value: receivedText.out}, {Key: "list", Value: []any{1, receivedText.out}}})
			secrets = appendNew(secrets, receivedGitHub)
		case !sanitizedLeaf(c, lf):
		case lf.Source == contract.SourceMessage:
			put(lf.Path, receivedMessage, receivedBearer, receivedGitHub)
		default:
			put(lf.Path, receivedText, receivedGitHub)
		}
	}
	// Extra members, flat and nested: their strings are the sender's too.
	if receivedText.sure(c) {
		doc = doc.with("x_received", receivedText.in).with("x_nested", object{{Key: "list", Value: []any{"a", object{{Key: "text", Value: receivedText.in}}}}})
		want = want.with("x_received", receivedText.out).with("x_nested", object{{Key: "list", Value: []any{"a", object{{Key: "text", Value: receivedText.out}}}}})
		if !contains(secrets, receivedGitHub) {
			secrets = append(secrets, receivedGitHub)
		}
	}
	if len(secrets) == 0 {
		return []ReceivedVec{}, nil
	}
	d, err := raw(doc)
	if err != nil {
		return nil, err
	}
	w, err := raw(want)
	if err != nil {
		return nil, err
	}
	out := []ReceivedVec{{Name: "secrets in every text, listed in sanitize.fields or not, and in extra members", Document: d, Envelope: w, Raw: d, Secrets: secrets}}
	if v, ok, err := receivedEnums(c, maximal); err != nil {
		return nil, err
	} else if ok {
		out = append(out, v)
	}
	return out, nil
}

// receivedEnums builds the received vector of an envelope holding secrets
// in its kind and in each enumerated value the layout carries (origin,
// recovery action, same_arguments, side_effects): every reader sanitizes
// them as it does any text, and what derives from the kind derives from
// the sanitized one. ok is false when the contract's policy could act on
// the text otherwise (redaction.sure).
func receivedEnums(c *contract.Contract, maximal exampleenv.Example) (ReceivedVec, bool, error) {
	if !receivedText.sure(c) {
		return ReceivedVec{}, false, nil
	}
	doc, want := fromExample(maximal.Value), fromExample(maximal.Value)
	for _, lf := range c.Layout.Leaves {
		switch lf.Source {
		case contract.SourceKind, contract.SourceOrigin, contract.SourceAction, contract.SourceSameArguments, contract.SourceSideEffects:
			doc, want = doc.with(lf.Path, receivedText.in), want.with(lf.Path, receivedText.out)
		case contract.SourceRetryable, contract.SourceMayHaveRun:
			// Received, so kept: not derived from the unknown values.
			doc, want = doc.with(lf.Path, true), want.with(lf.Path, true)
		}
	}
	d, err := raw(doc)
	if err != nil {
		return ReceivedVec{}, false, err
	}
	w, err := raw(want)
	if err != nil {
		return ReceivedVec{}, false, err
	}
	return ReceivedVec{Name: "secrets in the kind and in every enumerated value", Document: d, Envelope: w, Raw: d, Secrets: []string{receivedGitHub}}, true, nil
}

// appendNew appends s to list unless it holds it.
func appendNew(list []string, s string) []string {
	if contains(list, s) {
		return list
	}
	return append(list, s)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// redactReceived is what every reader returns for the envelope o received:
// each text the contract sanitizes that is one of the received vectors'
// texts redacted. ok is false when the contract's policy could change it
// otherwise (see redaction.sure).
func redactReceived(c *contract.Contract, o object) (object, bool) {
	for _, lf := range c.Layout.Leaves {
		if !sanitizedLeaf(c, lf) {
			continue
		}
		v, _ := o.get(lf.Path)
		for _, r := range []redaction{receivedMessage, receivedText} {
			if v != r.in {
				continue
			}
			if !r.sure(c) {
				return nil, false
			}
			o = o.with(lf.Path, r.out)
		}
	}
	return o, true
}

// receivable returns the examples with every text a reader sanitizes (every
// string of the message, the guidance and every field, however deep)
// replaced where the contract's policy might change it (sanitizeProof):
// every reader sanitizes every text it returns, and the vectors do
// not carry the sanitizer, so an example read back must be one its
// sanitizer keeps. The reference and example contracts' examples are all
// kept; a test contract's texts made to stress escaping are not.
func receivable(c *contract.Contract, exs []exampleenv.Example) []exampleenv.Example {
	safe := ""
	if sanitizeProof(c, "An example message.") {
		safe = "An example message."
	}
	out := make([]exampleenv.Example, len(exs))
	for i, ex := range exs {
		var o object // the example's tree, copied at its first change
		var set []exampleenv.Setting
		for j, s := range ex.Set {
			if !receivedValue(s.Leaf) {
				continue
			}
			v, changed := proofValue(c, s.Value, safe)
			if !changed {
				continue
			}
			if set == nil {
				set = append([]exampleenv.Setting(nil), ex.Set...)
				o = fromExample(ex.Value)
			}
			set[j].Value = v
			o = o.with(s.Leaf.Path, v)
		}
		if set != nil {
			ex.Value, ex.Set = orderedjson.Object(o), set
		}
		out[i] = ex
	}
	return out
}

// receivedValue reports whether every reader sanitizes the strings of leaf
// lf's value: the message, the guidance and every field (a string, an
// array's strings, an object's strings).
func receivedValue(lf *contract.Leaf) bool {
	switch lf.Source {
	case contract.SourceMessage, contract.SourceGuidance, contract.SourceField:
		return true
	}
	return false
}

// proofValue returns v with each string in it that the policy might change
// (sanitizeProof) replaced by safe, however deep, and whether one was.
func proofValue(c *contract.Contract, v any, safe string) (any, bool) {
	switch x := v.(type) {
	case string:
		if sanitizeProof(c, x) {
			return x, false
		}
		return safe, true
	case []any:
		var out []any
		for i, e := range x {
			if w, changed := proofValue(c, e, safe); changed {
				if out == nil {
					out = append([]any(nil), x...)
				}
				out[i] = w
			}
		}
		if out != nil {
			return out, true
		}
	case orderedjson.Object:
		var out orderedjson.Object
		for i, m := range x {
			if w, changed := proofValue(c, m.Value, safe); changed {
				if out == nil {
					out = append(orderedjson.Object(nil), x...)
				}
				out[i].Value = w
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}

// sanitizedLeaf reports whether every reader sanitizes the text of leaf lf
// as a string: the message, the guidance and every string field, whatever
// the contract lists in sanitize.fields (what a reader receives is the
// sender's).
func sanitizedLeaf(c *contract.Contract, lf *contract.Leaf) bool {
	switch lf.Source {
	case contract.SourceMessage, contract.SourceGuidance:
		return true
	case contract.SourceField:
		return lf.Field.Type == contract.TypeString
	}
	return false
}
