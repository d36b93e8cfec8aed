package gentest

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/errgen/errgen/internal/contract"
)

// Classifier calls one generated classifier: status, failure and text in,
// the Classified fields out.
type Classifier func(status int, failure, text string) (kind string, breaker bool, rule int)

// expectClassified is the specification of a classifier, evaluated on the
// model: the first rule whose conditions all hold wins, else the default.
func expectClassified(cl *contract.Classifier, status int, failure, text string) (string, bool, int) {
	lower := []byte(text)
	for i, c := range lower {
		if c >= 'A' && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	for i, r := range cl.Rules {
		if matches(r, status, failure, string(lower)) {
			b := r.Kind.Breaker
			if r.Breaker != nil {
				b = *r.Breaker
			}
			return r.Kind.Name, b, i + 1
		}
	}
	return cl.Default.Name, cl.Default.Breaker, 0
}

func matches(r *contract.Rule, status int, failure, lower string) bool {
	if len(r.Statuses) > 0 {
		ok := false
		for _, s := range r.Statuses {
			ok = ok || (status >= s.From && status <= s.To)
		}
		if !ok {
			return false
		}
	}
	if r.AnyFailure && failure == "" {
		return false
	}
	if len(r.Failures) > 0 {
		ok := false
		for _, f := range r.Failures {
			ok = ok || string(f) == failure
		}
		if !ok {
			return false
		}
	}
	if len(r.Text) > 0 {
		ok := false
		for _, w := range r.Text {
			ok = ok || wordIn(lower, w)
		}
		if !ok {
			return false
		}
	}
	return true
}

func wordIn(lower, w string) bool {
	word := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' }
	for i := 0; i+len(w) <= len(lower); i++ {
		if lower[i:i+len(w)] == w && (i == 0 || !word(lower[i-1])) && (i+len(w) == len(lower) || !word(lower[i+len(w)])) {
			return true
		}
	}
	return false
}

// CheckClassifiers exercises every rule of every classifier of the contract
// — with an input built to meet it, and near misses around it — plus
// statuses and failures no rule names, which must fall to the default.
func CheckClassifiers(t *testing.T, contractPath string, classifiers map[string]Classifier) {
	t.Helper()
	c := Load(t, contractPath)
	if c.Inbound == nil {
		t.Fatalf("%s declares no inbound classification", contractPath)
	}
	type input struct {
		status        int
		failure, text string
	}
	for _, cl := range c.Inbound.Classifiers {
		fn := classifiers[cl.Name]
		if fn == nil {
			t.Fatalf("no generated classifier passed for %s", cl.Name)
		}
		inputs := []input{{}, {status: 200}, {status: 302}, {status: 418}, {status: 451}, {status: 499}, {status: 599}, {status: 600}, {text: "all fine"}}
		for _, f := range contract.Failures {
			inputs = append(inputs, input{failure: string(f)})
		}
		for _, r := range cl.Rules {
			in := input{}
			if len(r.Statuses) > 0 {
				in.status = r.Statuses[len(r.Statuses)-1].To
				inputs = append(inputs, input{status: r.Statuses[0].From - 1}, input{status: r.Statuses[0].From})
			}
			if r.AnyFailure {
				in.failure = string(contract.FailureConnectionReset)
			} else if len(r.Failures) > 0 {
				in.failure = string(r.Failures[len(r.Failures)-1])
			}
			if len(r.Text) > 0 {
				w := r.Text[len(r.Text)-1]
				in.text = "upstream said: " + strings.ToUpper(w) + "."
				// A phrase inside a longer word is not a match.
				inputs = append(inputs, input{status: in.status, failure: in.failure, text: "x" + w + "x"})
			}
			inputs = append(inputs, in)
			// The rule's own input must reach it unless an earlier rule
			// claims the same input.
			if _, _, rule := expectClassified(cl, in.status, in.failure, in.text); rule == 0 {
				t.Errorf("%s: the input built for rule %v reaches the default", cl.Name, r.Pos)
			}
		}
		hitDefault := false
		for _, in := range inputs {
			wk, wb, wr := expectClassified(cl, in.status, in.failure, in.text)
			gk, gb, gr := fn(in.status, in.failure, in.text)
			if gk != wk || gb != wb || gr != wr {
				t.Errorf("%s(%+v) = %s breaker=%v rule %d, want %s breaker=%v rule %d", cl.Name, in, gk, gb, gr, wk, wb, wr)
			}
			hitDefault = hitDefault || wr == 0
		}
		if !hitDefault {
			t.Errorf("%s: no input reached the default", cl.Name)
		}
	}
}

// NextStepFunc calls the generated NextStep on an envelope built by New.
type NextStepFunc func(envelope any, attempt int) any

// CheckNextStep checks the generated NextStep against the decision table of
// docs/agents.md for every recovery action of the contract, for envelopes
// with and without a retry hint, and for the attempt limit.
func CheckNextStep(t *testing.T, contractPath string, newEnvelope func(kind, message string) any, nextStep NextStepFunc) {
	t.Helper()
	c := Load(t, contractPath)
	r := c.Retry
	decide := func(e any, attempt int) (step string, min, max time.Duration, check, exhausted bool) {
		d := reflect.ValueOf(nextStep(e, attempt))
		return d.FieldByName("Step").String(), time.Duration(d.FieldByName("DelayMin").Int()), time.Duration(d.FieldByName("DelayMax").Int()),
			d.FieldByName("CheckStateFirst").Bool(), d.FieldByName("Exhausted").Bool()
	}
	set := func(e any, action, same string, retryAfter *int64, sideEffects string) {
		v := reflect.ValueOf(e).Elem()
		rec := v.FieldByName("Recovery")
		rec.FieldByName("Action").SetString(action)
		rec.FieldByName("SameArguments").SetString(same)
		rec.FieldByName("RetryAfterMs").Set(reflect.ValueOf(retryAfter))
		v.FieldByName("SideEffects").SetString(sideEffects)
	}
	kind := c.Kinds[0].Name
	for _, a := range c.Actions {
		for _, s := range c.SameArguments {
			for _, se := range c.SideEffects {
				for attempt := 1; attempt <= r.MaxAttempts+1; attempt++ {
					for _, hint := range []*int64{nil, ptr(1234)} {
						e := newEnvelope(kind, "m")
						set(e, a.Name, s.Name, hint, se.Name)
						step, min, max, check, exhausted := decide(e, attempt)
						want := string(a.Step)
						var wantMin, wantMax time.Duration
						wantExhausted := false
						if a.Step == contract.StepRetry {
							switch {
							case !s.Retry || attempt >= r.MaxAttempts:
								want, wantExhausted = string(contract.StepEscalate), true
							case hint != nil:
								wantMin, wantMax = time.Duration(*hint)*time.Millisecond, time.Duration(*hint)*time.Millisecond
							default:
								base := math.Min(float64(r.InitialMs)*math.Pow(r.Multiplier, float64(attempt-1)), float64(r.MaxMs))
								wantMax = time.Duration(math.Floor(base)) * time.Millisecond
								wantMin = time.Duration(math.Floor(base*(1-r.Jitter))) * time.Millisecond
							}
						}
						got := fmt.Sprint(step, min, max, check, exhausted)
						if w := fmt.Sprint(want, wantMin, wantMax, se.MayHaveRun, wantExhausted); got != w {
							t.Errorf("NextStep(action %s, same_arguments %s, side_effects %s, hint %v, attempt %d) = %s, want %s",
								a.Name, s.Name, se.Name, hint != nil, attempt, got, w)
						}
					}
				}
			}
		}
	}
	// An action this contract version does not know means escalate.
	e := newEnvelope(kind, "m")
	set(e, "an_action_from_the_future", c.SameArguments[0].Name, nil, c.SideEffects[0].Name)
	if step, _, _, _, _ := decide(e, 1); step != string(contract.StepEscalate) {
		t.Errorf("unknown action: step %s, want escalate", step)
	}
}

func ptr(v int64) *int64 { return &v }
