// Tests of the generated AGENTO package against AGENTO's own envelope, as
// its documentation shows it (seed 002).
package agento_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/errgen/errgen/examples/agento/gen/go/agento"
	"github.com/errgen/errgen/internal/gentest"
)

// seedResult is the AUTH_REJECTED error result of AGENTO's documentation.
const seedResult = `{
  "status": "error",
  "error": {
    "code": "AUTH_REJECTED",
    "category": "AUTH",
    "message": "Upstream API rejected the request.",
    "details": {
      "status": 401
    }
  }
}`

func TestSeedEnvelopeDecodesClassifiesAndRoundTrips(t *testing.T) {
	var e agento.Envelope
	if err := json.Unmarshal([]byte(seedResult), &e); err != nil {
		t.Fatal(err)
	}
	if e.Kind != agento.KindAuthRejected || e.Message != "Upstream API rejected the request." {
		t.Errorf("decoded %+v", e)
	}
	if e.Status == nil || *e.Status != 401 {
		t.Errorf("details.status = %v, want 401", e.Status)
	}
	if e.Category != "AUTH" || e.Classification().Group != agento.GroupAuth {
		t.Errorf("category %q, group %q", e.Category, e.Classification().Group)
	}
	if e.IsRetryable() {
		t.Error("AUTH_REJECTED is retryable")
	}
	if e.WorkMayHaveRun() {
		t.Error("AUTH_REJECTED says work may have run")
	}
	if e.IsStartupFailure() {
		t.Error("AUTH_REJECTED is a startup failure")
	}
	// What the layout does not carry comes from the classification.
	c := agento.Lookup(agento.KindAuthRejected)
	if e.Origin != c.Origin || e.Recovery.Action != c.Action || e.SideEffects != c.SideEffects {
		t.Errorf("unmapped values not filled from the classification: %+v", e)
	}
	got, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	json.Unmarshal([]byte(seedResult), &a)
	json.Unmarshal(got, &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("re-encoded differently:\n%s", got)
	}
}

func TestLocallyBuiltEnvelopesHaveAGENTOsShape(t *testing.T) {
	got, err := json.Marshal(agento.NewToolExecutionUncertain("The booking POST may have been delivered."))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(got, &m)
	errObj, _ := m["error"].(map[string]any)
	details, _ := errObj["details"].(map[string]any)
	if m["status"] != "error" || errObj["code"] != "TOOL_EXECUTION_UNCERTAIN" || errObj["category"] != "TOOL" || details["executionMayHaveOccurred"] != true {
		t.Errorf("envelope %s", got)
	}
	if len(m) != 2 {
		t.Errorf("top level has more than status and error: %s", got)
	}
}

func TestConfigCodesAreStartupFailures(t *testing.T) {
	for _, k := range agento.Kinds() {
		c := agento.Lookup(k)
		if want := c.Group == agento.GroupConfig; c.Startup != want {
			t.Errorf("%s: Startup = %v, want %v", k, c.Startup, want)
		}
	}
}

func TestDecodeRejectsAnotherShape(t *testing.T) {
	for _, doc := range []string{
		`{"status":"ok","error":{"code":"AUTH_REJECTED","category":"AUTH","message":"m"}}`,
		`{"error":{"code":"AUTH_REJECTED","category":"AUTH","message":"m"}}`,
		`{"contract_version":1,"kind":"forbidden","message":"m"}`,
	} {
		var e agento.Envelope
		if err := json.Unmarshal([]byte(doc), &e); err == nil {
			t.Errorf("%s decoded", doc)
		}
	}
}

// Every example the docs show and the schemas accept is exactly what the
// package produces for the same failure.
func TestGoEnvelopesMatchExamples(t *testing.T) {
	gentest.MatchExamples(t, "../../../kinds.yaml", func(kind, message string) any {
		return agento.New(agento.Kind(kind), message)
	})
}
