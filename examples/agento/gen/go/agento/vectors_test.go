package agento_test

import (
	"testing"

	"github.com/errgen/errgen/examples/agento/gen/go/agento"
	"github.com/errgen/errgen/internal/gentest"
)

// TestVectors runs the contract's conformance vectors, the file the
// TypeScript and Python packages' tests run too.
func TestVectors(t *testing.T) {
	gentest.CheckVectors(t, "../../../conformance/agento.vectors.json", gentest.Package{
		Envelope: agento.Envelope{},
		Lookup:   agento.Lookup,
		NextStep: agento.NextStep,
		ForTool:  agento.SameArguments.ForTool,
		Classifiers: map[string]any{
			"downstream": agento.ClassifyDownstream,
		},
		Retry: gentest.Retry{Initial: agento.RetryInitial, Max: agento.RetryMax, Multiplier: agento.RetryMultiplier,
			Jitter: agento.RetryJitter, MaxAttempts: agento.RetryMaxAttempts},
		ReadHTTP:                  agento.ReadHTTP,
		ReadCLI:                   agento.ReadCLI,
		FromAIP193:                agento.FromAIP193,
		FromToolResult:            agento.FromToolResult,
		MCPOutputSchema:           agento.MCPOutputSchema,
		ReadMCPError:              agento.ReadMCPError,
		UpstreamStructuredContent: agento.UpstreamStructuredContent,
	})
}
