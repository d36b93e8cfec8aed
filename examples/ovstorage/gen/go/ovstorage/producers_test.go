package ovstorage_test

import (
	"testing"

	"github.com/errgen/errgen/examples/ovstorage/gen/go/ovstorage"
	"github.com/errgen/errgen/internal/gentest"
)

// TestProducers feeds every constructor adversarial messages, guidance and
// retry hints: what they build must pass the producer schema.
func TestProducers(t *testing.T) {
	gentest.CheckProducers(t, gentest.ProducerAPI{
		Contract: "../../../kinds.yaml",
		// The operation the layout requires comes from each kind's example,
		// through WithOperation.
		New:            func(kind, message string) any { return ovstorage.New(ovstorage.Kind(kind), message, "") },
		NewTrusted:     func(kind, message string) any { return ovstorage.NewTrusted(ovstorage.Kind(kind), message, "") },
		Sanitize:       ovstorage.Sanitize,
		ProducerSchema: ovstorage.ProducerSchema().JSON,
	})
}
