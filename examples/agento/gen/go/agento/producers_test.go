package agento_test

import (
	"testing"

	"github.com/errgen/errgen/examples/agento/gen/go/agento"
	"github.com/errgen/errgen/internal/gentest"
)

// TestProducers feeds every constructor adversarial messages, guidance and
// retry hints: what they build must pass the producer schema.
func TestProducers(t *testing.T) {
	gentest.CheckProducers(t, gentest.ProducerAPI{
		Contract:       "../../../kinds.yaml",
		New:            func(kind, message string) any { return agento.New(agento.Kind(kind), message) },
		NewTrusted:     func(kind, message string) any { return agento.NewTrusted(agento.Kind(kind), message) },
		Sanitize:       agento.Sanitize,
		ProducerSchema: agento.ProducerSchema().JSON,
	})
}
