package agento_test

import (
	"testing"

	"github.com/errgen/errgen/examples/agento/gen/go/agento"
	"github.com/errgen/errgen/internal/gentest"
)

func TestClassifiers(t *testing.T) {
	gentest.CheckClassifiers(t, "../../../kinds.yaml", map[string]gentest.Classifier{
		"downstream": func(status int, failure, text string) (string, bool, int) {
			c := agento.ClassifyDownstream(agento.Upstream{Status: status, Failure: agento.Failure(failure), Text: text})
			return string(c.Kind), c.CountsTowardBreaker, c.Rule
		},
	})
}

// AGENTO's documented mapping of downstream failures.
func TestSeedInboundMapping(t *testing.T) {
	for _, tt := range []struct {
		in   agento.Upstream
		want agento.Kind
	}{
		{agento.Upstream{Status: 401}, agento.KindAuthRejected},
		{agento.Upstream{Status: 403}, agento.KindAuthRejected},
		{agento.Upstream{Status: 429}, agento.KindToolRateLimited},
		{agento.Upstream{Status: 404}, agento.KindToolClientError},
		{agento.Upstream{Status: 503}, agento.KindToolServerError},
		{agento.Upstream{Failure: agento.FailureTimeout}, agento.KindToolTimeout},
		{agento.Upstream{Failure: agento.FailureConnectionRefused}, agento.KindToolNetworkError},
		{agento.Upstream{Failure: agento.FailureRedirectBlocked}, agento.KindToolRedirectBlocked},
		// A redirect answered as such, not followed: never a network error.
		{agento.Upstream{Status: 301}, agento.KindToolRedirectBlocked},
		{agento.Upstream{Status: 302}, agento.KindToolRedirectBlocked},
		{agento.Upstream{Status: 307}, agento.KindToolRedirectBlocked},
		{agento.Upstream{Status: 308}, agento.KindToolRedirectBlocked},
	} {
		if got := agento.Classify(tt.in); got.Kind != tt.want {
			t.Errorf("Classify(%+v) = %s, want %s", tt.in, got.Kind, tt.want)
		}
	}
}

func TestNextStep(t *testing.T) {
	gentest.CheckNextStep(t, "../../../kinds.yaml", func(kind, message string) any {
		return agento.New(agento.Kind(kind), message)
	}, func(e any, attempt int) any { return agento.NextStep(e.(*agento.Envelope), attempt) })
}
