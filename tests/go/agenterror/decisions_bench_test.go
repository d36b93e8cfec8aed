package agenterror_test

import (
	"testing"
	"time"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// The agent's decisions and the inbound classifiers run on every failed
// call: NextStep on each envelope received, a classifier on each upstream
// failure. Issue 31 moved both from emitted switches into runtime files
// that read tables; these benchmarks hold them to the switches' speed
// (benchtable's rows) and to no allocation. Each input is read from a
// variable so that no call folds to a constant.

var sinkDecision agenterror.Decision

func BenchmarkNextStep(b *testing.B) {
	for _, c := range []struct {
		name    string
		e       *agenterror.Envelope
		attempt int
	}{
		// retry_later, conditional: the backoff of the second attempt.
		{"retry_backoff", agenterror.NewRateLimited("slow down"), 2},
		// The same with the upstream's retry hint.
		{"retry_hint", agenterror.NewRateLimited("slow down").WithRetryAfter(1500 * time.Millisecond), 2},
		// The attempts ran out: escalate.
		{"retry_exhausted", agenterror.NewRateLimited("slow down"), 5},
		{"do_not_retry", agenterror.NewForbidden("no scope", []string{"repo"}), 1},
		// The fallback's advice, for a kind of a newer contract.
		{"unknown_kind", agenterror.New("not_a_kind", "from a newer contract"), 1},
	} {
		b.Run("case="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkDecision = agenterror.NextStep(c.e, c.attempt)
			}
		})
	}
}

var sinkClassified agenterror.Classified

func BenchmarkClassify(b *testing.B) {
	for _, c := range []struct {
		name string
		fn   func(agenterror.Upstream) agenterror.Classified
		u    agenterror.Upstream
	}{
		// A reset connection: the model classifier's eighteenth rule.
		{"model/transport_failure", agenterror.ClassifyModel, agenterror.Upstream{Failure: agenterror.FailureConnectionReset}},
		// Its last rule.
		{"model/transport_last_rule", agenterror.ClassifyModel, agenterror.Upstream{Failure: agenterror.FailureMalformedResponse}},
		{"model/http_status", agenterror.ClassifyModel, agenterror.Upstream{Status: 503}},
		// A status with the upstream's text, which the text rules read.
		{"model/http_status_text", agenterror.ClassifyModel, agenterror.Upstream{Status: 500, Text: "internal server error"}},
		{"breaker/transport_failure", agenterror.ClassifyBreaker, agenterror.Upstream{Failure: agenterror.FailureConnectionReset}},
		{"breaker/http_status", agenterror.ClassifyBreaker, agenterror.Upstream{Status: 503}},
	} {
		b.Run("case="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkClassified = c.fn(c.u)
			}
		})
	}
	b.Run("case=tool_result", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkClassified = agenterror.ClassifyToolResult()
		}
	})
}

var (
	sinkStep        agenterror.Step
	sinkBool        bool
	benchActions    = []agenterror.RecoveryAction{agenterror.RecoveryActionRetryLater, agenterror.RecoveryActionDoNotRetry, "from_a_newer_contract"}
	benchSame       = []agenterror.SameArguments{agenterror.SameArgumentsSafe, agenterror.SameArgumentsConditional, agenterror.SameArgumentsNever, "from_a_newer_contract"}
	benchSideEffect = []agenterror.SideEffects{agenterror.SideEffectsNoneExpected, agenterror.SideEffectsPossible, agenterror.SideEffectsUnknown, "from_a_newer_contract"}
)

// BenchmarkDecisionMethods times the enum methods NextStep reads; an
// operation is one call on each value listed above (known ones and one
// from a newer contract).
func BenchmarkDecisionMethods(b *testing.B) {
	b.Run("method=Step", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, a := range benchActions {
				sinkStep = a.Step()
			}
		}
	})
	b.Run("method=IsRetry", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, a := range benchActions {
				sinkBool = a.IsRetry()
			}
		}
	})
	b.Run("method=PermitsRetry", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range benchSame {
				sinkBool = s.PermitsRetry()
			}
		}
	})
	b.Run("method=MayHaveRun", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range benchSideEffect {
				sinkBool = s.MayHaveRun()
			}
		}
	})
}
