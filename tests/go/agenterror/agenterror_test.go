// Tests of the generated package, written by hand. The expected values come
// from the contract as the loader resolves it (an independent path from the
// emitter) and, for the catch-all rule, from the seed's own wording.
package agenterror_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/internal/contract"
)

func loadContract(t testing.TB) *contract.Contract {
	t.Helper()
	c, err := contract.LoadFile("../../../contract/kinds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// slogLevels are the log/slog levels the generated Lookup answers for the
// contract's log levels, written out here rather than taken from gengo.
var slogLevels = map[contract.LogLevel]slog.Level{
	contract.LogDebug: slog.LevelDebug, contract.LogInfo: slog.LevelInfo,
	contract.LogWarn: slog.LevelWarn, contract.LogError: slog.LevelError,
}

func TestEveryKindLooksUpAsDeclared(t *testing.T) {
	c := loadContract(t)
	kinds := agenterror.Kinds()
	if len(kinds) != len(c.Kinds) {
		t.Fatalf("Kinds() has %d kinds, the contract %d", len(kinds), len(c.Kinds))
	}
	for i, k := range c.Kinds {
		if string(kinds[i]) != k.Name {
			t.Errorf("Kinds()[%d] = %q, want %q (contract order)", i, kinds[i], k.Name)
		}
		got := agenterror.Lookup(agenterror.Kind(k.Name))
		want := agenterror.Classification{
			Kind:          agenterror.Kind(k.Name),
			Known:         true,
			Group:         agenterror.Group(k.Group.Name),
			Origin:        agenterror.Origin(k.Origin.Name),
			Action:        agenterror.RecoveryAction(k.Recovery.Action.Name),
			SameArguments: agenterror.SameArguments(k.Recovery.SameArguments.Name),
			Guidance:      k.Recovery.Guidance,
			SideEffects:   agenterror.SideEffects(k.SideEffects.Name),
			HTTPStatus:    k.HTTP,
			GRPCCode:      k.GRPC.Number,
			GRPCStatus:    k.GRPC.Name,
			LogLevel:      slogLevels[k.Log],
			Breaker:       k.Breaker,
			Retryable:     k.Retryable(),
			Description:   k.Description,
			Reason:        k.Reason,
			Startup:       k.Startup,
			Number:        -1, // the reference contract numbers no kind
		}
		if got != want {
			t.Errorf("Lookup(%q) =\n%+v\nwant\n%+v", k.Name, got, want)
		}
		if !agenterror.Kind(k.Name).IsKnown() || !got.Origin.IsKnown() || !got.Action.IsKnown() ||
			!got.SameArguments.IsKnown() || !got.SideEffects.IsKnown() || !got.Group.IsKnown() {
			t.Errorf("%s: a value of its classification is not IsKnown", k.Name)
		}
	}
}

// The catch-all rule of the seed: runtime / unknown side effects /
// inspect_and_escalate / discouraged / 500.
func TestUnknownKindFallsBack(t *testing.T) {
	for _, kind := range []agenterror.Kind{"brand_new_kind", "", "FORBIDDEN", "code_mode_timeout"} {
		got := agenterror.Lookup(kind)
		if got.Known || kind.IsKnown() {
			t.Errorf("%q: Known = true", kind)
		}
		if got.Kind != kind {
			t.Errorf("%q: Kind = %q, want it kept", kind, got.Kind)
		}
		if got.Origin != "runtime" || got.SideEffects != "unknown" || got.Action != "inspect_and_escalate" ||
			got.SameArguments != "discouraged" || got.HTTPStatus != 500 || got.LogLevel != slog.LevelError || got.Retryable || got.Breaker {
			t.Errorf("%q: fallback classification = %+v", kind, got)
		}
		if got.Guidance == "" {
			t.Errorf("%q: fallback has no guidance", kind)
		}
	}
	if fb := agenterror.Fallback(); fb.Known || fb.HTTPStatus != 500 {
		t.Errorf("Fallback() = %+v", fb)
	}
	e := agenterror.New("from_the_future", "something new")
	if e.Origin != "runtime" || e.Recovery.Action != "inspect_and_escalate" || e.HTTPStatus() != 500 || e.IsRetryable() {
		t.Errorf("New with an unknown kind = %+v", e)
	}
}

func TestConstructors(t *testing.T) {
	c := loadContract(t)
	for _, k := range c.Kinds {
		e := agenterror.New(agenterror.Kind(k.Name), "msg")
		if e.ContractVersion != c.Version || e.Kind != agenterror.Kind(k.Name) || e.Message != "msg" ||
			string(e.Origin) != k.Origin.Name || string(e.SideEffects) != k.SideEffects.Name ||
			string(e.Recovery.Action) != k.Recovery.Action.Name || string(e.Recovery.SameArguments) != k.Recovery.SameArguments.Name ||
			e.Recovery.Guidance != k.Recovery.Guidance || e.Recovery.RetryAfterMs != nil {
			t.Errorf("New(%s) = %+v", k.Name, e)
		}
	}

	f := agenterror.NewForbidden("missing scope", []string{"admin", "write"})
	if f.Kind != agenterror.KindForbidden || !reflect.DeepEqual(f.RequiredScopes, []string{"admin", "write"}) || f.Origin != agenterror.OriginPolicy {
		t.Errorf("NewForbidden = %+v", f)
	}
	u := agenterror.NewUnknownAction("no such action", nil).WithHint("list")
	if u.ValidChoices == nil || len(u.ValidChoices) != 0 || u.Hint != "list" {
		t.Errorf("NewUnknownAction = %+v", u)
	}
	// A required list is on the wire even when empty.
	if b, _ := json.Marshal(u); !strings.Contains(string(b), `"valid_choices":[]`) {
		t.Errorf("required list missing from %s", b)
	}
	r := agenterror.NewRateLimited("slow down").WithRetryAfter(1500 * time.Microsecond).WithTool("search").WithUpstream("github")
	if *r.Recovery.RetryAfterMs != 2 || r.Tool != "search" || r.Upstream != "github" {
		t.Errorf("chained setters = %+v", r)
	}
	// A negative hint is refused: the envelope keeps the hint it had.
	if z := agenterror.NewTimeout("t").WithRetryAfter(-time.Second); z.Recovery.RetryAfterMs != nil {
		t.Errorf("negative retry-after set a hint of %d, want none", *z.Recovery.RetryAfterMs)
	}
	if z := agenterror.NewTimeout("t").WithRetryAfter(time.Second).WithRetryAfter(-1); *z.Recovery.RetryAfterMs != 1000 {
		t.Errorf("negative retry-after replaced the hint: %d, want 1000", *z.Recovery.RetryAfterMs)
	}
	// Clamped to RetryMaxHint; the longest Duration does not overflow.
	for _, d := range []time.Duration{agenterror.RetryMaxHint, agenterror.RetryMaxHint + 1, 1<<63 - 1} {
		if z := agenterror.NewTimeout("t").WithRetryAfter(d); *z.Recovery.RetryAfterMs != int64(agenterror.RetryMaxHint/time.Millisecond) {
			t.Errorf("WithRetryAfter(%d) = %d ms, want RetryMaxHint", d, *z.Recovery.RetryAfterMs)
		}
	}
	g := agenterror.NewInternalError("boom").WithGuidance("page the on-call").WithSideEffects(agenterror.SideEffectsNoneExpected)
	if g.Recovery.Guidance != "page the on-call" || g.SideEffects != agenterror.SideEffectsNoneExpected {
		t.Errorf("WithGuidance/WithSideEffects = %+v", g)
	}
}

func TestSurfaceFacts(t *testing.T) {
	tests := []struct {
		e         *agenterror.Envelope
		status    int
		level     slog.Level
		breaker   bool
		retryable bool
	}{
		{agenterror.NewRateLimited("r"), 429, slog.LevelWarn, false, true},
		{agenterror.NewForbidden("f", nil), 403, slog.LevelWarn, false, false},
		{agenterror.NewTimeout("t"), 504, slog.LevelWarn, true, true},
		{agenterror.NewDNSError("d"), 502, slog.LevelWarn, true, true},
		{agenterror.NewToolError("tool failed"), 502, slog.LevelWarn, false, false},
		{agenterror.NewInternalError("i"), 500, slog.LevelError, false, false},
		{agenterror.New("unheard_of", "u"), 500, slog.LevelError, false, false},
	}
	for _, tt := range tests {
		if got := tt.e.HTTPStatus(); got != tt.status {
			t.Errorf("%s: HTTPStatus = %d, want %d", tt.e.Kind, got, tt.status)
		}
		if got := tt.e.LogLevel(); got != tt.level {
			t.Errorf("%s: LogLevel = %v, want %v", tt.e.Kind, got, tt.level)
		}
		if got := tt.e.CountsTowardBreaker(); got != tt.breaker {
			t.Errorf("%s: CountsTowardBreaker = %v, want %v", tt.e.Kind, got, tt.breaker)
		}
		if got := tt.e.IsRetryable(); got != tt.retryable {
			t.Errorf("%s: IsRetryable = %v, want %v", tt.e.Kind, got, tt.retryable)
		}
	}
	// IsRetryable reads the envelope's own advice, not only the table.
	e := agenterror.NewValidationFailed("v")
	e.Recovery.Action, e.Recovery.SameArguments = agenterror.RecoveryActionRetryLater, agenterror.SameArgumentsSafe
	if !e.IsRetryable() {
		t.Error("retry_later + safe is not retryable")
	}
}

func TestErrorsAs(t *testing.T) {
	var err error = fmt.Errorf("calling tool: %w", agenterror.NewNotFound("no such file").WithResource("/tmp/x"))
	var env *agenterror.Envelope
	if !errors.As(err, &env) {
		t.Fatal("errors.As did not find the envelope")
	}
	if env.Kind != agenterror.KindNotFound || env.Resource != "/tmp/x" {
		t.Errorf("found %+v", env)
	}
	if got := env.Error(); got != "not_found: no such file" {
		t.Errorf("Error() = %q", got)
	}
	var nilEnv *agenterror.Envelope
	if nilEnv.Error() == "" {
		t.Error("a nil envelope's Error() is empty")
	}
}

func full() *agenterror.Envelope {
	return agenterror.NewUnknownAction("unknown action \"frob\"\n\t<b>&</b> \u2028 ☃ \x01", []string{"list", "get"}).
		WithHint("list").WithRetryAfter(250*time.Millisecond).
		WithService("svc").WithAction("frob").WithTool("tool").WithUpstream("up").WithCommand("cmd").
		WithPrompt("p").WithResource("r").WithCause("c").WithOriginalKind("orig").
		WithSafety(map[string]any{"confirm": true}).WithEvidence(map[string]any{"n": json.Number("12345678901234567890")}).
		WithExtra("trace_id", json.RawMessage(`"abc"`))
}

func TestJSONRoundTrip(t *testing.T) {
	in := full()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	// The append encoder must agree with encoding/json on what it wrote.
	var generic map[string]any
	if err := json.Unmarshal(b, &generic); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, b)
	}
	if generic["message"] != in.Message {
		t.Errorf("message = %q, want %q", generic["message"], in.Message)
	}
	var out agenterror.Envelope
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	b2, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(b2) {
		t.Errorf("round trip changed the JSON:\n%s\n%s", b, b2)
	}
	if out.Message != in.Message || out.Hint != "list" || *out.Recovery.RetryAfterMs != 250 || out.Service != "svc" ||
		!reflect.DeepEqual(out.ValidChoices, in.ValidChoices) || string(out.Extra["trace_id"].(json.RawMessage)) != `"abc"` {
		t.Errorf("decoded = %+v", out)
	}
	// Large numbers in free-form objects survive exactly.
	if !strings.Contains(string(b2), "12345678901234567890") {
		t.Errorf("number lost precision: %s", b2)
	}
	// Marshalling a value (not a pointer) uses the same encoder.
	b3, _ := json.Marshal(*in)
	if string(b3) != string(b) {
		t.Errorf("value and pointer marshal differently")
	}
}

func TestDecodeKeepsUnknownKindAndFields(t *testing.T) {
	doc := `{"contract_version":1,"kind":"quantum_flux","message":"m","origin":"cosmic","recovery":{"action":"pray","same_arguments":"maybe","guidance":"g","new_hint":{"a":1}},"side_effects":"unknown","future_field":[1,2]}`
	var e agenterror.Envelope
	if err := json.Unmarshal([]byte(doc), &e); err != nil {
		t.Fatal(err)
	}
	if e.Kind != "quantum_flux" || e.Kind.IsKnown() || e.Origin != "cosmic" || e.Origin.IsKnown() || e.Recovery.Action != "pray" {
		t.Errorf("decoded = %+v", e)
	}
	if e.HTTPStatus() != 500 {
		t.Errorf("unknown kind HTTPStatus = %d", e.HTTPStatus())
	}
	if string(e.Extra["future_field"].(json.RawMessage)) != "[1,2]" || e.Extra["recovery.new_hint"] == nil {
		t.Errorf("unknown fields not kept: %+v", e)
	}
	b, _ := json.Marshal(e)
	var a, z any
	json.Unmarshal([]byte(doc), &a)
	json.Unmarshal(b, &z)
	if !reflect.DeepEqual(a, z) {
		t.Errorf("re-encoded envelope differs:\n%s\n%s", doc, b)
	}
}

func TestReservedFieldsWin(t *testing.T) {
	e := agenterror.NewForbidden("real", []string{"s"}).
		WithExtra("kind", "fake").WithExtra("message", "fake").WithExtra("recovery", "fake").
		WithExtra("contract_version", 99).WithExtra("service", "fake").WithExtra("required_scopes", "fake").
		WithExtra("ok_extra", 1).
		WithExtra("recovery.action", "fake").WithExtra("recovery.retryAfterMs", 5).WithExtra("recovery.note", "kept")
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	rec := m["recovery"].(map[string]any)
	if m["kind"] != "forbidden" || m["message"] != "real" || m["contract_version"] != 1.0 || m["service"] != nil ||
		rec["action"] != "do_not_retry" || rec["retryAfterMs"] != nil || rec["note"] != "kept" || m["ok_extra"] != 1.0 {
		t.Errorf("reserved fields did not win: %s", b)
	}
	if strings.Count(string(b), `"kind"`) != 1 {
		t.Errorf("kind appears twice: %s", b)
	}
}

func TestRetryAfterSpellings(t *testing.T) {
	base := `{"contract_version":1,"kind":"rate_limited","message":"m","origin":"budget","side_effects":"none_expected","recovery":{"action":"retry_later","same_arguments":"conditional","guidance":"g"%s}}`
	for _, tt := range []struct {
		extra string
		want  int64
	}{
		{`,"retry_after_ms":100`, 100},
		{`,"retryAfterMs":200`, 200},
		{`,"retry_after_ms":100,"retryAfterMs":200`, 100},
	} {
		var e agenterror.Envelope
		if err := json.Unmarshal([]byte(fmt.Sprintf(base, tt.extra)), &e); err != nil {
			t.Fatalf("%s: %v", tt.extra, err)
		}
		if e.Recovery.RetryAfterMs == nil || *e.Recovery.RetryAfterMs != tt.want {
			t.Errorf("%s: RetryAfterMs = %v, want %d", tt.extra, e.Recovery.RetryAfterMs, tt.want)
		}
		if len(e.Extra) != 0 {
			t.Errorf("%s: a spelling leaked into Extra: %v", tt.extra, e.Extra)
		}
		if b, _ := json.Marshal(e); !strings.Contains(string(b), fmt.Sprintf(`"retry_after_ms":%d`, tt.want)) || strings.Contains(string(b), "retryAfterMs") {
			t.Errorf("%s: re-encoded as %s", tt.extra, b)
		}
	}
}

func TestDecodeRejectsMalformed(t *testing.T) {
	valid := map[string]any{
		"contract_version": 1, "kind": "forbidden", "message": "m", "origin": "policy", "side_effects": "none_expected",
		"recovery": map[string]any{"action": "do_not_retry", "same_arguments": "never", "guidance": "g"},
	}
	with := func(path string, v any) string {
		m := map[string]any{}
		b, _ := json.Marshal(valid)
		json.Unmarshal(b, &m)
		target, key := m, path
		if strings.HasPrefix(path, "recovery.") {
			target, key = m["recovery"].(map[string]any), strings.TrimPrefix(path, "recovery.")
		}
		if v == nil {
			delete(target, key)
		} else {
			target[key] = v
		}
		out, _ := json.Marshal(m)
		return string(out)
	}
	tests := []struct {
		doc, path, problem string
	}{
		{`{"kind":`, "", "is not valid JSON"},
		{`[1,2]`, "", "must be a JSON object"},
		{`null`, "", "must be a JSON object"},
		{`"text"`, "", "must be a JSON object"},
		{with("kind", nil), "kind", "is required"},
		{with("kind", ""), "kind", "must not be empty"},
		{with("kind", 7), "kind", "must be a string"},
		{with("message", nil), "message", "is required"},
		{with("contract_version", "1"), "contract_version", "must be an integer"},
		{with("contract_version", 1.5), "contract_version", "must be an integer"},
		{with("origin", false), "origin", "must be a string"},
		{with("recovery", "later"), "recovery", "must be a JSON object"},
		{with("recovery", nil), "recovery", "is required"},
		{with("recovery.action", 3), "recovery.action", "must be a string"},
		{with("recovery.guidance", nil), "recovery.guidance", "is required"},
		{with("recovery.retry_after_ms", -1), "recovery.retry_after_ms", "must be an integer from 0 to 9007199254740991"},
		{with("recovery.retry_after_ms", 2.5), "recovery.retry_after_ms", "must be a non-negative integer"},
		{with("side_effects", nil), "side_effects", "is required"},
		{with("service", 5), "service", "must be a string"},
		{with("safety", "x"), "safety", "must be an object"},
		{with("required_scopes", "admin"), "required_scopes", "must be an array of strings"},
	}
	for _, tt := range tests {
		e := agenterror.NewInternalError("untouched")
		// Called directly: json.Unmarshal would reject bad syntax itself
		// before the envelope's decoder ever runs.
		err := e.UnmarshalJSON([]byte(tt.doc))
		var de *agenterror.DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s: err = %v, want a *DecodeError", tt.doc, err)
			continue
		}
		if de.Path != tt.path || !strings.Contains(de.Problem, tt.problem) {
			t.Errorf("%s: got path %q problem %q, want %q %q", tt.doc, de.Path, de.Problem, tt.path, tt.problem)
		}
		if e.Message != "untouched" {
			t.Errorf("%s: a failed decode changed the envelope", tt.doc)
		}
		if !strings.HasPrefix(err.Error(), "agenterror: invalid envelope") {
			t.Errorf("error text %q", err)
		}
	}
}

// GoEnvelopeMembers is how validation knows which field names would clash
// with generated members; it must list every member the emitter generates
// that does not come from a contract field.
func TestGoEnvelopeMembersIsComplete(t *testing.T) {
	c := loadContract(t)
	fromFields := map[string]bool{}
	for _, f := range c.EnvelopeFields {
		fromFields[f.Idents.Go] = true
		fromFields["With"+f.Idents.Go] = true
	}
	listed := map[string]bool{}
	for _, m := range contract.GoEnvelopeMembers {
		listed[m] = true
	}
	typ := reflect.TypeOf(&agenterror.Envelope{})
	for i := 0; i < typ.NumMethod(); i++ {
		if name := typ.Method(i).Name; !fromFields[name] && !listed[name] {
			t.Errorf("method %s is not in contract.GoEnvelopeMembers", name)
		}
	}
	st := typ.Elem()
	for i := 0; i < st.NumField(); i++ {
		if name := st.Field(i).Name; !fromFields[name] && !listed[name] {
			t.Errorf("field %s is not in contract.GoEnvelopeMembers", name)
		}
	}
}
