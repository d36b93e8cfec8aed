package gentest

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genvectors"
)

// The specifications these checks hold generated code to — the classifiers
// and NextStep, evaluated on the model — live in internal/genvectors, which
// also computes the conformance vectors from them, so there is one
// specification for every language.

// Classifier calls one generated classifier: status, failure and text in,
// the Classified fields out.
type Classifier func(status int, failure, text string) (kind string, breaker bool, rule int)

// CheckClassifiers exercises every rule of every classifier of the contract
// — with an input built to meet it, and near misses around it — plus
// statuses and failures no rule names, which must fall to the default
// (genvectors.ClassifierInputs), against genvectors.Classify.
func CheckClassifiers(t *testing.T, contractPath string, classifiers map[string]Classifier) {
	t.Helper()
	c := Load(t, contractPath)
	if c.Inbound == nil {
		t.Fatalf("%s declares no inbound classification", contractPath)
	}
	for _, cl := range c.Inbound.Classifiers {
		fn := classifiers[cl.Name]
		if fn == nil {
			t.Fatalf("no generated classifier passed for %s", cl.Name)
		}
		// The input built for a rule must reach a rule (it or an earlier one
		// claiming the same input), never the default.
		for _, r := range cl.Rules {
			if genvectors.Classify(cl, genvectors.RuleInput(r)).Rule == 0 {
				t.Errorf("%s: the input built for rule %v reaches the default", cl.Name, r.Pos)
			}
		}
		hitDefault := false
		for _, in := range genvectors.ClassifierInputs(cl) {
			want := genvectors.Classify(cl, in)
			gk, gb, gr := fn(in.Status, in.Failure, in.Text)
			if got := (genvectors.Classified{Kind: gk, Breaker: gb, Rule: gr}); got != want {
				t.Errorf("%s(%+v) = %s breaker=%v rule %d, want %s breaker=%v rule %d", cl.Name, in, gk, gb, gr, want.Kind, want.Breaker, want.Rule)
			}
			hitDefault = hitDefault || want.Rule == 0
		}
		if !hitDefault {
			t.Errorf("%s: no input reached the default", cl.Name)
		}
	}
}

// NextStepFunc calls the generated NextStep on an envelope built by New.
type NextStepFunc func(envelope any, attempt int) any

// CheckNextStep checks the generated NextStep against the decision table of
// docs/agents.md (genvectors.Decide) for every combination of recovery
// action, same_arguments and side_effects value of the contract, for
// envelopes with and without a retry hint, and for the attempt limit.
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
						d := genvectors.Decide(c, a.Name, s.Name, se.Name, hint, nil, nil, attempt)
						want, wantExhausted := string(d.Step), d.Exhausted
						wantMin, wantMax := time.Duration(d.DelayMinMs)*time.Millisecond, time.Duration(d.DelayMaxMs)*time.Millisecond
						got := fmt.Sprint(step, min, max, check, exhausted)
						if w := fmt.Sprint(want, wantMin, wantMax, d.CheckStateFirst, wantExhausted); got != w {
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
