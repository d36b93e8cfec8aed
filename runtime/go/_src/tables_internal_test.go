package agenterror

import (
	"log/slog"
	"math"
	"testing"
)

// The decisions read the contract's tables; a value the contract does not
// list (a newer producer's) gets the cautious answer.
func TestDecisionTables(t *testing.T) {
	for a, s := range actionSteps {
		if got := a.Step(); got != s {
			t.Errorf("%s.Step() = %s, want %s", a, got, s)
		}
		if a.IsRetry() != (s == StepRetry) {
			t.Errorf("%s.IsRetry() = %v with step %s", a, a.IsRetry(), s)
		}
	}
	const newer = "from_a_newer_contract"
	if s := RecoveryAction(newer).Step(); s != StepEscalate {
		t.Errorf("an unknown action's step is %s, want escalate", s)
	}
	if SameArguments(newer).PermitsRetry() {
		t.Error("an unknown same_arguments value permits a retry")
	}
	if !SideEffects(newer).MayHaveRun() {
		t.Error("under an unknown side_effects value work cannot have run")
	}
	for _, v := range SideEffectsValues() {
		want := false
		for _, m := range mayHaveRunSideEffects {
			want = want || m == v
		}
		if v.MayHaveRun() != want {
			t.Errorf("%s.MayHaveRun() = %v", v, !want)
		}
	}
	yes, no := true, false
	for _, v := range SameArgumentsValues() {
		up, ok := sameArgumentsUpgrades[v]
		if !ok {
			up = v
		}
		if got := v.ForTool(ToolAnnotations{IdempotentHint: &yes}); got != up {
			t.Errorf("%s.ForTool(idempotent) = %s, want %s", v, got, up)
		}
		if got := v.ForTool(ToolAnnotations{ReadOnlyHint: &no, IdempotentHint: &no}); got != v {
			t.Errorf("%s.ForTool(neither) = %s, want it kept", v, got)
		}
	}
}

// The rule engine: a rule matches when every condition it states holds;
// the first that matches wins, counting from 1; none gives the default.
func TestClassifierRules(t *testing.T) {
	c := inboundClassifier{
		rules: []inboundRule{
			{statuses: [][2]int{{429, 429}, {500, 503}}, text: []string{"quota"}, kind: "a"},
			{failures: []Failure{FailureDNS, FailureTLS}, kind: "b", breaker: true},
			{anyFailure: true, text: []string{"reset by peer"}, kind: "c"},
			{statuses: [][2]int{{500, 599}}, kind: "d", breaker: true},
		},
		default_: "z", defaultBreaker: true,
	}
	for _, tc := range []struct {
		u    Upstream
		want Classified
	}{
		{Upstream{Status: 429, Text: "Daily QUOTA exceeded"}, Classified{"a", false, 1}},
		{Upstream{Status: 502, Text: "quota"}, Classified{"a", false, 1}},
		{Upstream{Status: 502, Text: "quotas"}, Classified{"d", true, 4}},
		{Upstream{Status: 429}, Classified{"z", true, 0}},
		{Upstream{Failure: FailureTLS}, Classified{"b", true, 2}},
		{Upstream{Failure: FailureTimeout, Text: "Connection RESET BY PEER"}, Classified{"c", false, 3}},
		{Upstream{Text: "reset by peer"}, Classified{"z", true, 0}},
		{Upstream{Status: 599}, Classified{"d", true, 4}},
	} {
		if got := c.classify(tc.u); got != tc.want {
			t.Errorf("classify(%+v) = %+v, want %+v", tc.u, got, tc.want)
		}
	}
}

// The fields group's helpers leave out what the envelope does not carry
// and what JSON cannot; extraJSON is {} and not ok without an entry.
func TestLogHelpers(t *testing.T) {
	nan, one, yes := math.NaN(), int64(1), true
	var attrs []slog.Attr
	attrs = logText(attrs, "empty", "", false, false)
	attrs = logNumber(attrs, "nan", &nan)
	attrs = logInt(attrs, "none", nil)
	attrs = logValueJSON(attrs, "absent", []string{"x"}, false, false)
	attrs = logValueJSON(attrs, "nan", []float64{nan}, true, false)
	if len(attrs) != 0 {
		t.Errorf("appended %v", attrs)
	}
	attrs = logInt(attrs, "n", &one)
	attrs = logBool(attrs, "b", &yes)
	attrs = logValueJSON(attrs, "list", []string{"<a&b>"}, true, false)
	attrs = logText(attrs, "message", "", false, true)
	want := []string{`n=1`, `b=true`, `list=["<a&b>"]`, `message=`}
	for i, a := range attrs {
		if i >= len(want) || a.String() != want[i] {
			t.Errorf("attribute %d is %s, want %v", i, a, want)
		}
	}
	for _, extra := range []map[string]any{nil, {"nan": nan}} {
		if s, ok := extraJSON(extra); ok || s != "{}" {
			t.Errorf("extraJSON(%v) = %q, %v", extra, s, ok)
		}
	}
	if s, ok := extraJSON(map[string]any{"b": 1, "a\u2028": "<x>", "c": nan}); !ok || s != `{"a\u2028":"<x>","b":1}` {
		t.Errorf("extraJSON = %q, %v", s, ok)
	}
}
