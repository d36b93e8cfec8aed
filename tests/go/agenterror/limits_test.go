package agenterror_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// The limits every decoder of the contract shares (docs/conformance.md: "What every
// decoder accepts"); the conformance vectors check the decoders at their
// edges, these tests the Go encoder's side and the messages.

// nest returns n arrays nested in one another.
func nest(n int) any {
	var v any = []any{}
	for i := 1; i < n; i++ {
		v = []any{v}
	}
	return v
}

func TestEncodeRefusesWhatNoDecoderReads(t *testing.T) {
	e := agenterror.NewInternalError("boom")
	// The root is the first level: an Extra entry there may nest 127 more.
	e.Extra = map[string]any{"x": nest(agenterror.MaxDepth - 1)}
	data, err := e.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back agenterror.Envelope
	if err := back.UnmarshalJSON(data); err != nil {
		t.Fatalf("what the encoder wrote does not decode: %v", err)
	}
	for name, extra := range map[string]map[string]any{
		"one level too deep":          {"x": nest(agenterror.MaxDepth)},
		"far too deep":                {"x": nest(5000)},
		"too deep once placed":        {"recovery.x": nest(agenterror.MaxDepth - 1)},
		"a number past a float":       {"x": json.Number("1e999")},
		"raw text past a float":       {"x": json.RawMessage(`[1e999]`)},
		"raw text nested past limits": {"x": json.RawMessage(strings.Repeat("[", 200) + strings.Repeat("]", 200))},
	} {
		e.Extra = extra
		if _, err := e.MarshalJSON(); err == nil {
			t.Errorf("%s: encoded", name)
		} else if !strings.Contains(err.Error(), "cannot marshal") {
			t.Errorf("%s: %v", name, err)
		}
	}
	e.Extra = nil
	for _, ms := range []int64{agenterror.MaxSafeInteger + 1, 1<<63 - 1} {
		e.Recovery.RetryAfterMs = &ms
		var ee *agenterror.EncodeError
		if _, err := e.MarshalJSON(); !errors.As(err, &ee) || ee.Field != "Recovery.RetryAfterMs" {
			t.Errorf("hint %d: %v", ms, err)
		}
	}
	ms := int64(agenterror.MaxSafeInteger)
	e.Recovery.RetryAfterMs = &ms
	if _, err := e.MarshalJSON(); err != nil {
		t.Errorf("hint 2^53-1: %v", err)
	}
}

// TestDecodeLimitMessages: a document past a limit is a syntax error for
// the document, saying which limit and where; a syntax error elsewhere in
// the document wins, as it does in the decoders that parse first.
func TestDecodeLimitMessages(t *testing.T) {
	doc := `{"contract_version":1,"kind":"k","message":"m","origin":"o","recovery":{"action":"a","same_arguments":"s","guidance":"g"},"side_effects":"s","x":`
	for _, tt := range []struct{ tail, problem string }{
		{strings.Repeat("[", 128) + strings.Repeat("]", 128) + "}", "nests arrays and objects more than 128 levels deep at offset 272"},
		{"1e999}", "holds a number past the range of a 64-bit float at offset 145"},
		{"-" + strings.Repeat("9", 309) + "}", "holds a number past the range of a 64-bit float at offset 145"},
		{"[1e999,}", "is not valid JSON"},
	} {
		var e agenterror.Envelope
		err := e.UnmarshalJSON([]byte(doc + tt.tail))
		var de *agenterror.DecodeError
		if !errors.As(err, &de) || de.Path != "" || de.Category != agenterror.DecodeSyntax || !strings.HasPrefix(de.Problem, tt.problem) {
			t.Errorf("%.40s…: %v, want a syntax error %q", tt.tail, err, tt.problem)
		}
	}
}

// TestLoneSurrogateEscapesAreNotSentOn: a member the contract does not name
// is kept as the raw JSON it was read as, and one set by hand as a
// json.RawMessage is written as it is; a \u escape of a lone surrogate in
// either is written as \ufffd, as every decoder of the contract reads it
// (issue 28, item 9: every output is valid UTF-8 and reads back as it
// decodes), while a pair stays a pair and an escaped backslash before "u"
// stays text.
func TestLoneSurrogateEscapesAreNotSentOn(t *testing.T) {
	const in = `{"contract_version":1,"kind":"not_found","message":"m","origin":"discovery","recovery":{"action":"rediscover","same_arguments":"never","guidance":"g"},"side_effects":"none_expected",` +
		`"x":"a\ud800b","y":["\udc00\ud800",{"z":"\ud83d\ude00"}],"w":"\\ud800"}`
	const want = `"w":"\\ud800","x":"a\ufffdb","y":["\ufffd\ufffd",{"z":"\ud83d\ude00"}]}`
	var e agenterror.Envelope
	if err := e.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	b, err := e.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(b), want) {
		t.Errorf("decoded and encoded again:\n%s\nwant it to end with\n%s", b, want)
	}
	e.Extra = map[string]any{"x": json.RawMessage(`"\udfff"`)}
	if b, err = e.MarshalJSON(); err != nil || !strings.HasSuffix(string(b), `"x":"\ufffd"}`) {
		t.Errorf("a json.RawMessage set by hand: %s, %v", b, err)
	}
}
