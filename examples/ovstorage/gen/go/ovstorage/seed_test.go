// Tests of the generated ovstorage package against ovstorage's envelope v0.1
// (seed 003) and its published code table (reference/ovstorage.md).
package ovstorage_test

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/errgen/errgen/examples/ovstorage/gen/go/ovstorage"
	"github.com/errgen/errgen/internal/gentest"
)

// seedEnvelope is the NotFound envelope of ovstorage's error primer.
const seedEnvelope = `{
  "v": "0.1",
  "ok": false,
  "operation": "ovstorage_read",
  "resource": "s3://my-bucket/missing.bin",
  "error": {
    "code": "NotFound",
    "message": "NotFound: object missing at s3://my-bucket/missing.bin",
    "retryable": false,
    "next_action": "Add a matching connection to ovstorage.toml and restart the host."
  }
}`

func TestSeedEnvelopeDecodesClassifiesAndRoundTrips(t *testing.T) {
	var e ovstorage.Envelope
	if err := json.Unmarshal([]byte(seedEnvelope), &e); err != nil {
		t.Fatal(err)
	}
	if e.Kind != ovstorage.KindNotFound || e.Operation != "ovstorage_read" || e.Resource != "s3://my-bucket/missing.bin" || e.ContractVersion != "0.1" {
		t.Errorf("decoded %+v", e)
	}
	if e.IsRetryable() {
		t.Error("NotFound is retryable")
	}
	if e.Recovery.Guidance != "Add a matching connection to ovstorage.toml and restart the host." {
		t.Errorf("next_action not kept: %q", e.Recovery.Guidance)
	}
	got, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	json.Unmarshal([]byte(seedEnvelope), &a)
	json.Unmarshal(got, &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("re-encoded differently:\n%s", got)
	}
	// Without next_action on the wire, none is invented on the way back.
	var bare ovstorage.Envelope
	json.Unmarshal([]byte(`{"v":"0.1","ok":false,"operation":"op","error":{"code":"NotFound","message":"m","retryable":false}}`), &bare)
	if out, _ := json.Marshal(bare); string(out) != `{"v":"0.1","ok":false,"operation":"op","error":{"code":"NotFound","message":"m","retryable":false}}` {
		t.Errorf("re-encoded as %s", out)
	}
}

// A retryable flag received for a code this package does not know wins over
// the fallback's answer.
func TestReceivedRetryableWins(t *testing.T) {
	var e ovstorage.Envelope
	if err := json.Unmarshal([]byte(`{"v":"0.1","ok":false,"operation":"op","error":{"code":"FutureThing","message":"m","retryable":true}}`), &e); err != nil {
		t.Fatal(err)
	}
	if !e.IsRetryable() || e.Kind.IsKnown() {
		t.Errorf("unknown retryable code: IsRetryable %v", e.IsRetryable())
	}
}

// reference is ovstorage's code table: ABI number, HTTP status, retryable.
var reference = map[string]struct {
	number, status int
	retryable      bool
}{
	"NotFound": {0, 404, false}, "NoRoute": {28, 404, false}, "NotConfigured": {30, 404, false},
	"PermissionDenied": {2, 403, false}, "PluginRejected": {39, 403, false},
	"AuthRequired": {34, 401, false}, "AuthExpired": {36, 401, false}, "AuthCancelled": {35, 401, false},
	"CredentialExpired": {32, 401, false}, "CredentialUnavailable": {33, 401, false}, "AuthorizationLeaseExpired": {20, 401, true},
	"InvalidArgument": {7, 400, false}, "AliasChainTooLong": {31, 400, false},
	"AlreadyExists": {1, 409, false}, "Conflict": {4, 409, false}, "DirectoryNotEmpty": {5, 409, false},
	"IncompatibleType": {8, 409, false}, "RouteConflict": {29, 409, false}, "PolicyEpochStale": {19, 409, false},
	"PartialCompletion":  {40, 409, false},
	"Locked":             {9, 423, false},
	"PreconditionFailed": {3, 412, false}, "ObjectModified": {27, 412, false},
	"IntegrityFailure": {14, 422, false}, "ContentMismatch": {37, 422, false}, "ContentChecksumMismatch": {38, 422, false},
	"RedirectExpired": {18, 410, false}, "StagingExpired": {22, 410, false},
	"Unsupported":       {6, 501, false},
	"ResourceExhausted": {13, 429, true}, "CacheLockContention": {24, 429, true},
	"Cancelled": {10, 504, false}, "DeadlineExceeded": {11, 504, true},
	"Transient": {12, 502, true}, "BrokerUnavailable": {16, 502, true},
	"BrokerRequired": {17, 503, false}, "StateRootUnavailable": {25, 503, false}, "NetworkFilesystemRefused": {26, 503, false},
	"Internal": {15, 500, false}, "CacheCorrupt": {21, 500, false}, "CommitAmbiguous": {23, 500, false},
}

func TestEveryCodeMatchesTheReferenceTable(t *testing.T) {
	kinds := ovstorage.Kinds()
	if len(kinds) != len(reference) || len(reference) != 41 {
		t.Fatalf("%d kinds, %d in the reference table", len(kinds), len(reference))
	}
	var fiveHundreds []ovstorage.Kind
	for _, k := range kinds {
		want, ok := reference[string(k)]
		if !ok {
			t.Errorf("%s is not an ovstorage code", k)
			continue
		}
		c := ovstorage.Lookup(k)
		if c.HTTPStatus != want.status || c.Retryable != want.retryable || c.Number != want.number {
			t.Errorf("%s: HTTP %d retryable %v number %d; want %d %v %d", k, c.HTTPStatus, c.Retryable, c.Number, want.status, want.retryable, want.number)
		}
		if got, ok := ovstorage.KindByNumber(want.number); !ok || got != k {
			t.Errorf("KindByNumber(%d) = %s, %v", want.number, got, ok)
		}
		if c.HTTPStatus == 500 {
			fiveHundreds = append(fiveHundreds, k)
		}
		// The retryable flag on the wire is the classification's.
		var m map[string]any
		b, _ := json.Marshal(ovstorage.New(k, "m", "ovstorage_read"))
		json.Unmarshal(b, &m)
		if m["error"].(map[string]any)["retryable"] != want.retryable {
			t.Errorf("%s: wire retryable %v", k, m["error"].(map[string]any)["retryable"])
		}
	}
	if !reflect.DeepEqual(fiveHundreds, []ovstorage.Kind{ovstorage.KindInternal, ovstorage.KindCacheCorrupt, ovstorage.KindCommitAmbiguous}) {
		t.Errorf("codes mapping to 500: %v", fiveHundreds)
	}
}

func TestPartialCompletionCarriesItsDetail(t *testing.T) {
	e := ovstorage.NewPartialCompletion("copied data, metadata failed", "ovstorage_copy", &ovstorage.Partial{
		Completed: "object_data", Failed: "user_metadata", FailedOutcome: "not_applied", Rollback: "destroys_requested_work",
	})
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var back ovstorage.Envelope
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Partial == nil || *back.Partial != *e.Partial || back.HTTPStatus() != 409 {
		t.Errorf("round trip: %s -> %+v", b, back.Partial)
	}
}

// Every example the docs show and the schemas accept is exactly what the
// package produces for the same failure.
func TestGoEnvelopesMatchExamples(t *testing.T) {
	gentest.MatchExamples(t, "../../../kinds.yaml", func(kind, message string) any {
		return ovstorage.New(ovstorage.Kind(kind), message, "")
	})
}

// operation is a required member of envelope v0.1: every constructor takes
// it, an envelope without it (or with it empty) neither encodes nor decodes,
// and what refuses it names the path.
func TestOperationIsRequired(t *testing.T) {
	for _, e := range []*ovstorage.Envelope{
		ovstorage.NewNotFound("gone", "ovstorage_read"),
		ovstorage.New(ovstorage.KindLocked, "held", "ovstorage_write"),
		ovstorage.NewTrusted(ovstorage.KindInternal, "bug", "ovstorage_doctor"),
		ovstorage.NewPartialCompletion("half", "ovstorage_copy", &ovstorage.Partial{Completed: "object_data", Failed: "user_metadata", FailedOutcome: "unknown", Rollback: "restores_prior_state"}),
	} {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("%s: %v", e.Kind, err)
		}
		var m map[string]any
		json.Unmarshal(b, &m)
		if m["operation"] != e.Operation || e.Operation == "" {
			t.Errorf("%s: operation on the wire %v, set %q", e.Kind, m["operation"], e.Operation)
		}
	}

	// An empty operation, from a constructor or a setter, does not encode.
	for name, e := range map[string]*ovstorage.Envelope{
		"constructor": ovstorage.NewNotFound("gone", ""),
		"New":         ovstorage.New(ovstorage.KindNotFound, "gone", ""),
		"setter":      ovstorage.NewNotFound("gone", "ovstorage_read").WithOperation(""),
	} {
		if b, err := json.Marshal(e); err == nil || !strings.Contains(err.Error(), "operation") {
			t.Errorf("%s: encoded %s, %v; want an error naming operation", name, b, err)
		}
		buf := []byte("kept")
		if out, err := e.AppendJSON(buf); err == nil || string(out) != "kept" {
			t.Errorf("%s: AppendJSON = %q, %v; want dst unchanged and an error", name, out, err)
		}
		if _, err := e.ToolResult(); err == nil {
			t.Errorf("%s: ToolResult without an operation succeeded", name)
		}
		// WriteHTTP still answers with the status, but sends no body it
		// cannot make valid.
		rec := httptest.NewRecorder()
		e.WriteHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		if rec.Code != 404 || rec.Body.Len() != 0 {
			t.Errorf("%s: WriteHTTP %d %q, want 404 and no body", name, rec.Code, rec.Body.String())
		}
	}
	// The HTTP fallback drops optional context that does not encode, and
	// keeps operation.
	bad := ovstorage.NewNotFound("gone", "ovstorage_read").WithExtra("x", math.NaN()).WithResource("s3://b/k")
	rec := httptest.NewRecorder()
	bad.WriteHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if got := rec.Body.String(); got != `{"v":"0.1","ok":false,"operation":"ovstorage_read","error":{"code":"NotFound","message":"gone","retryable":false}}` {
		t.Errorf("fallback body %s", got)
	}

	// Decoding: missing is a missing error, empty a value error, both at
	// the path "operation".
	for doc, want := range map[string]ovstorage.DecodeErrorCategory{
		`{"v":"0.1","ok":false,"error":{"code":"NotFound","message":"m","retryable":false}}`:                  ovstorage.DecodeMissing,
		`{"v":"0.1","ok":false,"operation":null,"error":{"code":"NotFound","message":"m","retryable":false}}`: ovstorage.DecodeType,
		`{"v":"0.1","ok":false,"operation":"","error":{"code":"NotFound","message":"m","retryable":false}}`:   ovstorage.DecodeValue,
		`{"v":"0.1","ok":false,"operation":42,"error":{"code":"NotFound","message":"m","retryable":false}}`:   ovstorage.DecodeType,
		`{"v":"0.1","ok":false,"error":{"code":"NotFound","message":"m","retryable":false},"operation":"op"}`: "",
	} {
		var e ovstorage.Envelope
		err := json.Unmarshal([]byte(doc), &e)
		var de *ovstorage.DecodeError
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", doc, err)
		case want != "" && (!errors.As(err, &de) || de.Path != "operation" || de.Category != want):
			t.Errorf("%s: %v, want a %s error at operation", doc, err, want)
		}
	}
}

// next_action is "optional, never invented": no constructor fills it from
// the contract's guidance, so an envelope carries it only when the producer
// gives it. The decisions do not depend on it.
func TestNextActionNeverInvented(t *testing.T) {
	for _, k := range ovstorage.Kinds() {
		e := ovstorage.New(k, "m", "ovstorage_read")
		if e.Recovery.Guidance != "" {
			t.Errorf("%s: guidance %q invented", k, e.Recovery.Guidance)
		}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "next_action") {
			t.Errorf("%s: %s", k, b)
		}
		// The contract's guidance stays available to a producer who wants
		// to send it, and is sent as given.
		advised := ovstorage.New(k, "m", "ovstorage_read").WithGuidance(ovstorage.Lookup(k).Guidance)
		var m map[string]map[string]any
		b, _ = json.Marshal(advised)
		json.Unmarshal(b, &m)
		if m["error"]["next_action"] != ovstorage.Lookup(k).Guidance {
			t.Errorf("%s: WithGuidance sent %v", k, m["error"]["next_action"])
		}
		for attempt := 1; attempt <= 6; attempt++ {
			if a, b := ovstorage.NextStep(e, attempt), ovstorage.NextStep(advised, attempt); a != b {
				t.Errorf("%s attempt %d: NextStep %+v without guidance, %+v with", k, attempt, a, b)
			}
		}
	}
	if e := ovstorage.NewPartialCompletion("half", "ovstorage_copy", nil); e.Recovery.Guidance != "" {
		t.Errorf("PartialCompletion: guidance %q invented", e.Recovery.Guidance)
	}
}

// warnings is omitted when there are none: an empty list is left out as an
// unset one is, and the producer schema refuses "warnings": [] while the
// consumer schema still reads it.
func TestEmptyWarningsOmitted(t *testing.T) {
	e := ovstorage.New(ovstorage.KindNotFound, "NotFound: object missing", "ovstorage_read").WithWarnings([]string{})
	out, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "warnings") {
		t.Errorf("an empty warnings list is on the wire: %s", out)
	}
	with, _ := json.Marshal(e.WithWarnings([]string{"slow backend"}))
	if !strings.Contains(string(with), `"warnings":["slow backend"]`) {
		t.Errorf("a warning is not on the wire: %s", with)
	}
	var doc any
	if err := json.Unmarshal([]byte(`{"v":"0.1","ok":false,"operation":"op","warnings":[],"error":{"code":"NotFound","message":"m","retryable":false}}`), &doc); err != nil {
		t.Fatal(err)
	}
	if gentest.CompileSchema(t, "producer.json", ovstorage.ProducerSchema().JSON).Validate(doc) == nil {
		t.Error("the producer schema accepts an empty warnings list")
	}
	if err := gentest.CompileSchema(t, "consumer.json", ovstorage.ConsumerSchema().JSON).Validate(doc); err != nil {
		t.Errorf("the consumer schema rejects an empty warnings list: %v", err)
	}
}
