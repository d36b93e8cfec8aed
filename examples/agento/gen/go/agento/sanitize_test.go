package agento_test

import (
	"testing"

	"github.com/errgen/errgen/examples/agento/gen/go/agento"
	"github.com/errgen/errgen/internal/gentest"
)

// TestSanitizerVectors runs the shared, hand-curated sanitizer vectors: the
// contract keeps errgen's default sanitizer policy.
func TestSanitizerVectors(t *testing.T) {
	gentest.CheckSanitizerVectors(t, "../../../../../conformance/sanitizer.vectors.json", agento.SanitizeMaxLength, agento.SanitizeTruncationMarker, agento.SanitizeMax)
}
