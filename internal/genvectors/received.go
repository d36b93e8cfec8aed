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
	receivedText = redaction{
		in:  "the upstream echoed " + receivedGitHub + " in its error",
		out: "the upstream echoed [REDACTED] in its error",
	}
)

// redaction is a text and what the default policy's sanitizer makes of it.
type redaction struct{ in, out string }

// holds reports whether s holds sub, ASCII case ignored.
func holds(s, sub string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(sub)) }

// sure reports whether c's policy sanitizes r.in to r.out, as the default
// policy does: nothing of the contract's own is in either text.
func (r redaction) sure(c *contract.Contract) bool {
	p := c.Sanitize
	if len(r.in) > p.MaxLength {
		return false
	}
	var own []string
	own = append(own, p.Markers...)
	for _, s := range p.Secrets {
		own = append(own, s.Prefixes...)
	}
	if p.Paths {
		own = append(own, p.AllCredentialNames()...)
	}
	for _, o := range own {
		if holds(r.in, o) || holds(r.out, o) {
			return false
		}
	}
	return true
}

// received builds the received vectors from the richest example: its
// message and every other text the contract sanitizes that the layout
// carries as a string (guidance, string fields) hold secrets.
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
		case !sanitizedLeaf(c, lf):
		case lf.Source == contract.SourceMessage:
			put(lf.Path, receivedMessage, receivedBearer, receivedGitHub)
		default:
			put(lf.Path, receivedText, receivedGitHub)
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
	return []ReceivedVec{{Name: "secrets in every text the contract sanitizes", Document: d, Envelope: w, Raw: d, Secrets: secrets}}, nil
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

// receivable returns the examples with every text a reader sanitizes
// replaced where the contract's policy might change it (sanitizeProof):
// every reader sanitizes what the contract sanitizes, and the vectors do
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
		o := fromExample(ex.Value)
		var set []exampleenv.Setting
		for j, s := range ex.Set {
			text, ok := s.Value.(string)
			if !ok || !sanitizedLeaf(c, s.Leaf) || sanitizeProof(c, text) {
				continue
			}
			if set == nil {
				set = append([]exampleenv.Setting(nil), ex.Set...)
			}
			set[j].Value = safe
			o = o.with(s.Leaf.Path, safe)
		}
		if set != nil {
			ex.Value, ex.Set = orderedjson.Object(o), set
		}
		out[i] = ex
	}
	return out
}

// sanitizedLeaf reports whether every reader sanitizes the text of leaf lf:
// the message, guidance or a string field the contract sanitizes.
func sanitizedLeaf(c *contract.Contract, lf *contract.Leaf) bool {
	switch lf.Source {
	case contract.SourceMessage:
		return c.Sanitize.Sanitizes("message")
	case contract.SourceGuidance:
		return c.Sanitize.Sanitizes("guidance")
	case contract.SourceField:
		return lf.Field.Type == contract.TypeString && c.Sanitize.Sanitizes(lf.Field.Name)
	}
	return false
}
