package agenterror

import (
	"log/slog"
	"math"
	"slices"
	"testing"
)

// The decisions read the contract's tables; a value the contract does not
// list (a newer producer's) gets the cautious answer.
func TestDecisionTables(t *testing.T) {
	for i, r := range actionSteps {
		a, s := r.action, r.step
		if actionIndex(a) != i {
			t.Errorf("actionIndex(%s) = %d, want %d", a, actionIndex(a), i)
		}
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
		row := sideEffectsAdvice[sideEffectsIndex(v)]
		if row.value != v {
			t.Errorf("sideEffectsIndex(%s) finds %s", v, row.value)
		}
		if want := row.mayHaveRun; v.MayHaveRun() != want {
			t.Errorf("%s.MayHaveRun() = %v", v, !want)
		}
	}
	yes, no := true, false
	for _, v := range SameArgumentsValues() {
		row := sameArgumentsAdvice[sameArgumentsIndex(v)]
		if row.value != v {
			t.Errorf("sameArgumentsIndex(%s) finds %s", v, row.value)
		}
		if want := row.retry; v.PermitsRetry() != want {
			t.Errorf("%s.PermitsRetry() = %v", v, !want)
		}
		up := v
		if row.upgradeTo != "" {
			up = row.upgradeTo
		}
		if got := v.ForTool(ToolAnnotations{IdempotentHint: &yes}); got != up {
			t.Errorf("%s.ForTool(idempotent) = %s, want %s", v, got, up)
		}
		if got := v.ForTool(ToolAnnotations{ReadOnlyHint: &no, IdempotentHint: &no}); got != v {
			t.Errorf("%s.ForTool(neither) = %s, want it kept", v, got)
		}
	}
}

// NextStep's retry needs what IsRetryable answers, for every action and
// same_arguments value of the contract and one of a newer contract's.
func TestNextStepRetryable(t *testing.T) {
	const newer = "from_a_newer_contract"
	for _, a := range append(RecoveryActions(), newer) {
		for _, s := range append(SameArgumentsValues(), newer) {
			e := &Envelope{}
			e.Recovery.Action, e.Recovery.SameArguments = a, s
			d := NextStep(e, 1)
			if retried := d.Step == StepRetry; retried != e.IsRetryable() || d.Exhausted != (a.IsRetry() && !retried) {
				t.Errorf("%s, %s: NextStep %+v, IsRetryable %v", a, s, d, e.IsRetryable())
			}
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
	c.compile()
	for i, f := range knownFailures {
		if failureIndex(f) != i+1 {
			t.Errorf("failureIndex(%s) = %d, want %d", f, failureIndex(f), i+1)
		}
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
		// A failure errgen does not know (a newer caller's) is a failure,
		// but none of those a rule names.
		{Upstream{Failure: "from_a_newer_caller", Text: "reset by peer"}, Classified{"c", false, 3}},
		{Upstream{Failure: "from_a_newer_caller"}, Classified{"z", true, 0}},
	} {
		if got := c.classify(tc.u); got != tc.want {
			t.Errorf("classify(%+v) = %+v, want %+v", tc.u, got, tc.want)
		}
	}
}

// naiveClassify is the rule engine as its doc states it, each rule's
// conditions tested in turn: classify, which looks rules up by status and
// failure, must agree with it.
func naiveClassify(c *inboundClassifier, u Upstream) Classified {
	for i, r := range c.rules {
		if len(r.statuses) > 0 && !slices.ContainsFunc(r.statuses, func(s [2]int) bool { return s[0] <= u.Status && u.Status <= s[1] }) {
			continue
		}
		if r.anyFailure && u.Failure == "" || !r.anyFailure && len(r.failures) > 0 && !slices.Contains(r.failures, u.Failure) {
			continue
		}
		if len(r.text) > 0 && !hasWord(asciiLower(u.Text), r.text...) {
			continue
		}
		return Classified{r.kind, r.breaker, i + 1}
	}
	return Classified{c.default_, c.defaultBreaker, 0}
}

// The contract's classifiers, and one of more than 64 rules (more than one
// word of each bit set), agree with naiveClassify on every status from -1
// to 1000, every failure, none and an unknown one, with and without text
// that a rule reads.
func TestClassifyAgreesWithRules(t *testing.T) {
	wide := inboundClassifier{default_: "z"}
	for i := 0; i < 70; i++ {
		r := inboundRule{kind: Kind(rune('a' + i%26)), breaker: i%2 == 0}
		switch i % 5 {
		case 0:
			r.statuses = [][2]int{{400 + i, 400 + i}, {600 + i, 610 + i}}
		case 1:
			r.failures = []Failure{knownFailures[i%len(knownFailures)]}
		case 2:
			r.anyFailure, r.statuses = true, [][2]int{{500, 500 + i}}
		case 3:
			r.text = []string{"quota"}
		}
		wide.rules = append(wide.rules, r)
	}
	wide.compile()
	classifiers := append([]inboundClassifier{wide}, inboundClassifiers...)
	failures := append([]Failure{"", "from_a_newer_caller"}, knownFailures[:]...)
	for ci := range classifiers {
		c := &classifiers[ci]
		for status := -1; status <= 1000; status++ {
			for _, f := range failures {
				for _, text := range []string{"", "Daily QUOTA: invalid_token, login required"} {
					u := Upstream{Status: status, Failure: f, Text: text}
					if got, want := c.classify(u), naiveClassify(c, u); got != want {
						t.Fatalf("classifier %d: classify(%+v) = %+v, want %+v", ci, u, got, want)
					}
				}
			}
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
