package genvectors

import (
	"math"
	"strings"

	"github.com/errgen/errgen/internal/contract"
)

// This file is the model-side specification of the generated decision code:
// NextStep (the decision table of docs/agents.md) and the inbound
// classifiers. The vectors are computed with it, and internal/gentest checks
// generated Go packages against it.

// Step is the step of a recovery action; an action the contract does not
// define means escalate.
func Step(c *contract.Contract, action string) contract.Step {
	for _, a := range c.Actions {
		if a.Name == action {
			return a.Step
		}
	}
	return contract.StepEscalate
}

// Retryable reports whether an envelope with this advice asks for an
// automatic retry: the action's step is a retry and same_arguments permits
// an identical one (a value the contract does not define does not).
func Retryable(c *contract.Contract, action, sameArguments string) bool {
	if Step(c, action) != contract.StepRetry {
		return false
	}
	for _, s := range c.SameArguments {
		if s.Name == sameArguments {
			return s.Retry
		}
	}
	return false
}

// MayHaveRun reports whether the side_effects value says work may have run.
func MayHaveRun(c *contract.Contract, sideEffects string) bool { return c.MayHaveRun(sideEffects) }

// Decision is what NextStep decides; delays are in whole milliseconds.
type Decision struct {
	Step            contract.Step
	DelayMinMs      int64
	DelayMaxMs      int64
	CheckStateFirst bool
	Exhausted       bool
}

// Decide is the specification of NextStep for an envelope whose advice is
// action, same_arguments and side_effects, with an optional retry hint, after
// attempt number attempt (from 1) failed. retryable and mayHaveRun are the
// derived flags as received on the wire; nil computes them from the advice.
func Decide(c *contract.Contract, action, sameArguments, sideEffects string, retryAfterMs *int64, retryable, mayHaveRun *bool, attempt int) Decision {
	d := Decision{Step: Step(c, action), CheckStateFirst: MayHaveRun(c, sideEffects)}
	if mayHaveRun != nil {
		d.CheckStateFirst = *mayHaveRun
	}
	if retryable != nil && *retryable {
		// A retryable flag received on the wire wins over the advice, as
		// ovstorage's decision tree asks first: retryable true means retry
		// with backoff (an unknown code's fallback advice included).
		d.Step = contract.StepRetry
	}
	if d.Step != contract.StepRetry {
		return d
	}
	ok := Retryable(c, action, sameArguments)
	if retryable != nil {
		ok = *retryable
	}
	r := c.Retry
	if !ok || attempt >= r.MaxAttempts {
		d.Step, d.Exhausted = contract.StepEscalate, true
		return d
	}
	if retryAfterMs != nil {
		// Saturated, never wrapped: a hint beyond the contract's maximum
		// waits the maximum, in every language.
		ms := min(max(*retryAfterMs, 0), r.MaxHintMs)
		d.DelayMinMs, d.DelayMaxMs = ms, ms
		return d
	}
	// float64 and whole milliseconds, as every generated package computes it.
	base := math.Min(float64(r.InitialMs)*math.Pow(r.Multiplier, float64(max(attempt, 1)-1)), float64(r.MaxMs))
	d.DelayMaxMs = int64(math.Floor(base))
	d.DelayMinMs = int64(math.Floor(base * (1 - r.Jitter)))
	return d
}

// DecideDecoded is Decide for a decoded envelope.
func DecideDecoded(c *contract.Contract, e Decoded, attempt int) Decision {
	return Decide(c, e.Action, e.SameArguments, e.SideEffects, e.RetryAfterMs, e.Retryable, e.MayHaveRun, attempt)
}

// Upstream is a classifier's input: the HTTP status (0 for none), the
// transport failure ("" for none) and the upstream's error text.
type Upstream = contract.Upstream

// Classified is a classifier's answer.
type Classified = contract.Classified

// Classify is the specification of a classifier: the first rule whose
// conditions all hold wins, else the default. Text matches whole words,
// ignoring ASCII case. It lives with the model (Classifier.Classify) because
// the loader runs it too, to check the contract's classifier agreements.
func Classify(cl *contract.Classifier, u Upstream) Classified {
	return cl.Classify(u)
}

// RuleInput is the input built to meet a rule: the last status of its
// ranges, its last failure (connection_reset for any failure) and its last
// phrase in upper case inside a sentence. An earlier rule may claim it
// first; it never reaches the default.
func RuleInput(r *contract.Rule) Upstream {
	in := Upstream{}
	if len(r.Statuses) > 0 {
		in.Status = r.Statuses[len(r.Statuses)-1].To
	}
	if r.AnyFailure {
		in.Failure = string(contract.FailureConnectionReset)
	} else if len(r.Failures) > 0 {
		in.Failure = string(r.Failures[len(r.Failures)-1])
	}
	if len(r.Text) > 0 {
		in.Text = "upstream said: " + strings.ToUpper(r.Text[len(r.Text)-1]) + "."
	}
	return in
}

// ClassifierInputs are the inputs a classifier is checked with, without
// repeats: statuses and failures no rule may name (which fall to the
// default unless a rule claims them; among them the redirects 301, 302, 307
// and 308, which a client that does not follow redirects sees as answers),
// then for every rule its own input (RuleInput) and near misses around it —
// the statuses just below and at the start of its first range, and its last
// phrase inside a longer word.
func ClassifierInputs(cl *contract.Classifier) []Upstream {
	inputs := []Upstream{{}, {Status: 200}, {Status: 301}, {Status: 302}, {Status: 307}, {Status: 308}, {Status: 418}, {Status: 451}, {Status: 499}, {Status: 599}, {Status: 600}, {Text: "all fine"}}
	for _, f := range contract.Failures {
		inputs = append(inputs, Upstream{Failure: string(f)})
	}
	for _, r := range cl.Rules {
		in := RuleInput(r)
		if len(r.Statuses) > 0 {
			inputs = append(inputs, Upstream{Status: r.Statuses[0].From - 1}, Upstream{Status: r.Statuses[0].From})
		}
		if len(r.Text) > 0 {
			// A phrase inside a longer word is not a match.
			inputs = append(inputs, Upstream{Status: in.Status, Failure: in.Failure, Text: "x" + r.Text[len(r.Text)-1] + "x"})
		}
		inputs = append(inputs, in)
	}
	seen := map[Upstream]bool{}
	out := inputs[:0]
	for _, in := range inputs {
		if !seen[in] {
			seen[in] = true
			out = append(out, in)
		}
	}
	return out
}

// classify is every classifier's answer for each of its inputs.
func classify(c *contract.Contract) []ClassifyVec {
	out := []ClassifyVec{}
	for _, cl := range c.Inbound.Classifiers {
		for _, in := range ClassifierInputs(cl) {
			got := Classify(cl, in)
			out = append(out, ClassifyVec{Classifier: cl.Name, Status: in.Status, Failure: in.Failure, Text: in.Text,
				Kind: got.Kind, Breaker: got.Breaker, Rule: got.Rule})
		}
	}
	return out
}
