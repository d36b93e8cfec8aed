package agenterror_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// The size limit of the direct decoders (issue 28, docs/conformance.md: "What every
// decoder accepts"): a document longer than the limit is a syntax error
// with path "", found before it is read; DecodeOptions sets another limit,
// or none.

const (
	smallEnvelope = `{"contract_version":1,"kind":"rate_limited","message":"m","origin":"budget",` +
		`"recovery":{"action":"retry_later","same_arguments":"conditional","guidance":"g"},"side_effects":"none_expected"}`
	smallAIP193 = `{"error":{"code":8,"message":"m","status":"RESOURCE_EXHAUSTED"}}`
)

// padded is doc with whitespace after its first byte, to n bytes.
func padded(doc string, n int) []byte {
	return []byte(doc[:1] + strings.Repeat(" ", n-len(doc)) + doc[1:])
}

// wantTooLong checks that err is the size limit's error for limit.
func wantTooLong(t *testing.T, what string, err error, limit int) {
	t.Helper()
	var de *agenterror.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("%s: got %v, want a *DecodeError", what, err)
	}
	want := "is longer than the limit of " + itoa(limit) + " bytes"
	if de.Path != "" || de.Category != agenterror.DecodeSyntax || de.Problem != want {
		t.Errorf("%s: got path %q, category %q, problem %q; want \"\", syntax, %q", what, de.Path, de.Category, de.Problem, want)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestDecodeSizeLimit(t *testing.T) {
	if agenterror.MaxDocumentBytes != 1<<20 {
		t.Fatalf("MaxDocumentBytes = %d, want 1 MiB (the same in every package)", agenterror.MaxDocumentBytes)
	}
	at, over := padded(smallEnvelope, agenterror.MaxDocumentBytes), padded(smallEnvelope, agenterror.MaxDocumentBytes+1)
	var e agenterror.Envelope
	if err := e.UnmarshalJSON(at); err != nil {
		t.Fatalf("a document of MaxDocumentBytes: %v", err)
	}
	wantTooLong(t, "UnmarshalJSON", e.UnmarshalJSON(over), agenterror.MaxDocumentBytes)
	wantTooLong(t, "json.Unmarshal", json.Unmarshal(over, new(agenterror.Envelope)), agenterror.MaxDocumentBytes)
	if _, err := agenterror.FromAIP193(padded(smallAIP193, agenterror.MaxDocumentBytes)); err != nil {
		t.Fatalf("an AIP-193 document of MaxDocumentBytes: %v", err)
	}
	_, err := agenterror.FromAIP193(padded(smallAIP193, agenterror.MaxDocumentBytes+1))
	wantTooLong(t, "FromAIP193", err, agenterror.MaxDocumentBytes)

	// The CLI reader refuses such a line in either form.
	_, err = agenterror.ReadCLI(over)
	wantTooLong(t, "ReadCLI", err, agenterror.MaxDocumentBytes)
	_, err = agenterror.ReadCLI(padded(`{"ok":false,"command":"c","error":`+smallEnvelope+`}`, agenterror.MaxDocumentBytes+1))
	wantTooLong(t, "ReadCLI, wrapped", err, agenterror.MaxDocumentBytes)

	// Another limit, lower or none.
	low := agenterror.DecodeOptions{MaxBytes: 300}
	if env, err := low.Unmarshal(padded(smallEnvelope, 300)); err != nil || env.Kind != "rate_limited" {
		t.Fatalf("300 bytes within a limit of 300: %v, %v", env, err)
	}
	_, err = low.Unmarshal(padded(smallEnvelope, 301))
	wantTooLong(t, "DecodeOptions{MaxBytes: 300}.Unmarshal", err, 300)
	_, err = low.FromAIP193(padded(smallAIP193, 301))
	wantTooLong(t, "DecodeOptions{MaxBytes: 300}.FromAIP193", err, 300)
	none := agenterror.DecodeOptions{MaxBytes: -1}
	if env, err := none.Unmarshal(over); err != nil || env.Kind != "rate_limited" {
		t.Fatalf("no limit: %v, %v", env, err)
	}
	if env, err := none.FromAIP193(padded(smallAIP193, agenterror.MaxDocumentBytes+1)); err != nil || env.Kind != "rate_limited" {
		t.Fatalf("no limit, AIP-193: %v, %v", env, err)
	}
	// The limit comes first: an over-long document that is not JSON either
	// is refused for its length.
	_, err = low.Unmarshal([]byte(strings.Repeat("{", 301)))
	wantTooLong(t, "not JSON", err, 300)
}
