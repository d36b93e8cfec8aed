package agenterror_test

import (
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/internal/gentest"
)

const contractPath = "../../../contract/kinds.yaml"

func classifier(fn func(agenterror.Upstream) agenterror.Classified) gentest.Classifier {
	return func(status int, failure, text string) (string, bool, int) {
		c := fn(agenterror.Upstream{Status: status, Failure: agenterror.Failure(failure), Text: text})
		return string(c.Kind), c.CountsTowardBreaker, c.Rule
	}
}

func TestClassifiers(t *testing.T) {
	gentest.CheckClassifiers(t, contractPath, map[string]gentest.Classifier{
		"model":   classifier(agenterror.ClassifyModel),
		"breaker": classifier(agenterror.ClassifyBreaker),
	})
	if agenterror.Classify(agenterror.Upstream{Status: 401}) != agenterror.ClassifyModel(agenterror.Upstream{Status: 401}) {
		t.Error("Classify is not the first classifier")
	}
}

// Seed 000: the two classifiers differ on purpose for authorization-shaped
// failures, and a completed tool error never trips the breaker while
// transport failures do.
func TestSeedClassifierBehaviour(t *testing.T) {
	authShaped := agenterror.Upstream{Failure: agenterror.FailureConnectionReset, Text: "upstream closed: invalid_token"}
	if got := agenterror.ClassifyModel(authShaped); got.Kind != agenterror.KindOauthNeedsReauth {
		t.Errorf("model view of an authorization-shaped failure: %+v", got)
	}
	if got := agenterror.ClassifyBreaker(authShaped); got.Kind != agenterror.KindAuthFailed || !got.CountsTowardBreaker {
		t.Errorf("breaker view of an authorization-shaped failure: %+v", got)
	}
	if got := agenterror.ClassifyToolResult(); got.Kind != agenterror.KindToolError || got.CountsTowardBreaker {
		t.Errorf("tool result: %+v", got)
	}
	for _, f := range []agenterror.Failure{agenterror.FailureTimeout, agenterror.FailureDNS, agenterror.FailureConnectionRefused, agenterror.FailureTLS} {
		if got := agenterror.ClassifyBreaker(agenterror.Upstream{Failure: f}); !got.CountsTowardBreaker {
			t.Errorf("transport failure %s does not count toward the breaker: %+v", f, got)
		}
	}
	if got := agenterror.ClassifyModel(agenterror.Upstream{Status: 500, Text: "oauthentication"}); got.Kind != agenterror.KindServerError {
		t.Errorf("a phrase inside a longer word matched: %+v", got)
	}
}

func TestNextStep(t *testing.T) {
	gentest.CheckNextStep(t, contractPath, func(kind, message string) any {
		return agenterror.New(agenterror.Kind(kind), message)
	}, func(e any, attempt int) any { return agenterror.NextStep(e.(*agenterror.Envelope), attempt) })
}

// labby: a discouraged identical retry becomes conditional for a tool
// annotated read-only or idempotent.
func TestRetrySafetyUpgrade(t *testing.T) {
	yes, no := true, false
	for _, tt := range []struct {
		in   agenterror.SameArguments
		ann  agenterror.ToolAnnotations
		want agenterror.SameArguments
	}{
		{agenterror.SameArgumentsDiscouraged, agenterror.ToolAnnotations{ReadOnlyHint: &yes}, agenterror.SameArgumentsConditional},
		{agenterror.SameArgumentsDiscouraged, agenterror.ToolAnnotations{IdempotentHint: &yes}, agenterror.SameArgumentsConditional},
		{agenterror.SameArgumentsDiscouraged, agenterror.ToolAnnotations{ReadOnlyHint: &no, IdempotentHint: &no}, agenterror.SameArgumentsDiscouraged},
		{agenterror.SameArgumentsDiscouraged, agenterror.ToolAnnotations{}, agenterror.SameArgumentsDiscouraged},
		{agenterror.SameArgumentsNever, agenterror.ToolAnnotations{ReadOnlyHint: &yes}, agenterror.SameArgumentsNever},
		{agenterror.SameArgumentsSafe, agenterror.ToolAnnotations{ReadOnlyHint: &yes}, agenterror.SameArgumentsSafe},
	} {
		if got := tt.in.ForTool(tt.ann); got != tt.want {
			t.Errorf("%s.ForTool(%+v) = %s, want %s", tt.in, tt.ann, got, tt.want)
		}
	}
	e := agenterror.NewInvalidParam("bad").WithToolAnnotations(agenterror.ToolAnnotations{ReadOnlyHint: &yes})
	if e.Recovery.SameArguments != agenterror.SameArgumentsConditional {
		t.Errorf("WithToolAnnotations: %s", e.Recovery.SameArguments)
	}
}
