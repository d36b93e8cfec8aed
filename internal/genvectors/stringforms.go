package genvectors

import (
	"strings"
	"unicode/utf8"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/orderedjson"
)

// StringFormVec is an envelope received as Text (as an upstream sent it)
// and what its string form and its log form write. String is the string
// form every package gives an error (Go's Error() and fmt verbs, TypeScript's
// errorString and its EnvelopeError's message, Python's str() of the
// envelope and of its exception, Rust's Display): "kind: message" on one
// line, the message sanitized as the log form sanitizes it, each text
// bounded as the log form's are. LogMessage is the log form's message and
// LogExtra its extra member (null when it has none).
type StringFormVec struct {
	Name       string  `json:"name"`
	Text       string  `json:"text"`
	String     string  `json:"string"`
	LogMessage string  `json:"log_message"`
	LogExtra   *string `json:"log_extra"`
}

// AsObject implements orderedjson.Ordered.
func (v StringFormVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "text", Value: v.Text}, {Key: "string", Value: v.String},
		{Key: "log_message", Value: v.LogMessage}, {Key: "log_extra", Value: v.LogExtra}}
}

// piece is part of a vector's text: clean text no sanitizer policy changes
// once its controls are gone, or a secret every policy redacts whole.
type piece struct {
	text   string
	secret bool
}

// The secrets of the vectors: a GitHub token (a built-in shape, so every
// policy redacts it), whole and split in two by a C0 control, which the
// sanitizer deletes before it reads the token.
const (
	ghToken      = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	ghTokenSplit = "ghp_a1B2c3D4e5F6g7H8i9\x01J0k1L2m3N4o5P6q7R8"
)

// stringFormVectors are received envelopes whose text tries to get out of
// the string and log forms: a secret, a line feed that forges a second log
// line, controls, text past the log bound, and a secret split by a control
// in members the contract does not name (extra), where JSON escapes the
// control before a sanitizer could delete it. A vector whose clean text a
// policy of this contract might change is left out, as the surfaces leave
// their log form out.
func stringFormVectors(c *contract.Contract, exs []exampleenv.Example) ([]StringFormVec, error) {
	base := fromExample(exs[0].Value)
	baseMessage := leafString(c, base, contract.SourceMessage, "")
	msg, kindLeaf := c.Layout.Leaf(contract.SourceMessage), c.Layout.Leaf(contract.SourceKind)
	if e, err := extraOf(c, base); err != nil || e != "" || msg == nil || kindLeaf == nil {
		return []StringFormVec{}, err // an example with members of its own
	}
	type tc struct {
		name    string
		message []piece
		extra   []orderedjson.Member // members added at the top level
		want    string               // the expected extra text, when extra is set
	}
	long := "a" + strings.Repeat("é", 800)
	cases := []tc{
		{name: "a GitHub token and a line feed forging a second log line",
			message: []piece{{"upstream said ", false}, {ghToken, true}, {"\nlevel=ERROR msg=forged", false}}},
		{name: "a GitHub token split by a control",
			message: []piece{{"upstream said ", false}, {ghTokenSplit, true}, {" and failed", false}}},
		{name: "line breaks, tabs and controls",
			message: []piece{{"one\r\ntwo\tthree\u2028four\u2029five\u0085six\u0007seven\u001b[0m\u007feight", false}}},
		{name: "a message past the log bound", message: []piece{{long, false}}},
		{name: "a GitHub token split by a control in members this contract does not name",
			message: []piece{{baseMessage, false}},
			extra: []orderedjson.Member{
				{Key: "x_extension", Value: object{{Key: "note", Value: "key " + ghTokenSplit}, {Key: "n", Value: 2}}},
				{Key: ghTokenSplit, Value: 1},
			},
			want: `{"[REDACTED]":1,"x_extension":{"note":"key [REDACTED]","n":2}}`},
	}
	sanitized := c.Sanitize.Sanitizes("message")
	out := []StringFormVec{}
	for _, tc := range cases {
		var text, logText strings.Builder
		ok := true
		for _, p := range tc.message {
			clean := deleteControls(p.text)
			switch {
			case p.secret && sanitized:
				if !redactedWhole(c, clean) {
					ok = false
				}
				text.WriteString("[REDACTED]")
				logText.WriteString("[REDACTED]")
			case p.secret:
				text.WriteString(lineOf(p.text))
				logText.WriteString(p.text)
			default:
				if sanitized && !proofBeside(c, lineOf(p.text), "é") {
					ok = false
				}
				text.WriteString(lineOf(p.text))
				if sanitized {
					logText.WriteString(clean)
				} else {
					logText.WriteString(p.text)
				}
			}
		}
		message := ""
		for _, p := range tc.message {
			message += p.text
		}
		if !ok || utf8.RuneCountInString(message) > c.Sanitize.MaxLength {
			continue
		}
		o := base.with(msg.Path, message)
		for _, m := range tc.extra {
			if owned(c.Layout.Root, m.Key) {
				ok = false
			}
			o = append(o, m)
		}
		var logExtra *string
		if tc.extra != nil {
			ok = ok && sanitizeProof(c, strings.ReplaceAll(tc.want, "[REDACTED]", "R"))
			extra := boundText(tc.want)
			logExtra = &extra
		}
		if !ok {
			continue
		}
		env, err := raw(o)
		if err != nil {
			return nil, err
		}
		kind, _ := o.get(kindLeaf.Path)
		kindText, _ := kind.(string)
		out = append(out, StringFormVec{Name: tc.name, Text: string(env),
			String:     boundText(lineOf(kindText)) + ": " + boundText(text.String()),
			LogMessage: boundText(logText.String()), LogExtra: logExtra})
	}
	return out, nil
}

// lineOf is text as the string forms write it before they sanitize it: tab,
// line feed, carriage return, U+2028 and U+2029 become spaces, and every
// other C0 control, DEL and C1 control is deleted.
func lineOf(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029:
			return ' '
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
			return -1
		}
		return r
	}, s)
}

// deleteControls deletes what the sanitizer's first step deletes of the
// controls: C0 but tab, line feed and carriage return, DEL and C1.
func deleteControls(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r >= 0x7f && r <= 0x9f {
			return -1
		}
		return r
	}, s)
}

// proofBeside is sanitizeProof for text that may also hold the non-ASCII
// character r, which no marker of the contract holds.
func proofBeside(c *contract.Contract, s, r string) bool {
	for _, m := range c.Sanitize.Markers {
		if strings.Contains(m, r) {
			return false
		}
	}
	return sanitizeProof(c, strings.ReplaceAll(s, r, "e"))
}

// redactedWhole reports whether every policy of the contract redacts the
// secret s whole where a word starts: a token of the built-in catalogue
// that holds none of the contract's markers (which go before secrets are
// looked for).
func redactedWhole(c *contract.Contract, s string) bool {
	lower := strings.ToLower(s)
	for _, m := range c.Sanitize.Markers {
		if strings.Contains(lower, strings.ToLower(m)) {
			return false
		}
	}
	return strings.HasPrefix(s, "ghp_") && len(s) == len(ghToken)
}
