package ovstorage_test

import (
	"testing"

	"github.com/errgen/errgen/examples/ovstorage/gen/go/ovstorage"
	"github.com/errgen/errgen/internal/gentest"
)

// TestVectors runs the contract's conformance vectors, the file the
// TypeScript and Python packages' tests run too.
func TestVectors(t *testing.T) {
	gentest.CheckVectors(t, "../../../conformance/ovstorage.vectors.json", gentest.Package{
		Envelope: ovstorage.Envelope{},
		Lookup:   ovstorage.Lookup,
		NextStep: ovstorage.NextStep,
		ForTool:  ovstorage.SameArguments.ForTool,
		Retry: gentest.Retry{Initial: ovstorage.RetryInitial, Max: ovstorage.RetryMax, Multiplier: ovstorage.RetryMultiplier,
			Jitter: ovstorage.RetryJitter, MaxAttempts: ovstorage.RetryMaxAttempts},
		ReadHTTP:                  ovstorage.ReadHTTP,
		ReadCLI:                   ovstorage.ReadCLI,
		FromAIP193:                ovstorage.FromAIP193,
		FromToolResult:            ovstorage.FromToolResult,
		MCPOutputSchema:           ovstorage.MCPOutputSchema,
		ReadMCPError:              ovstorage.ReadMCPError,
		UpstreamStructuredContent: ovstorage.UpstreamStructuredContent,
	})
}
