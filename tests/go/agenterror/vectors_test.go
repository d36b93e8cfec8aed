package agenterror_test

import (
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/internal/gentest"
)

// TestVectors runs the contract's conformance vectors, the file the
// TypeScript and Python packages' tests run too.
func TestVectors(t *testing.T) {
	gentest.CheckVectors(t, "../../../conformance/agent-error.vectors.json", gentest.Package{
		Envelope: agenterror.Envelope{},
		Lookup:   agenterror.Lookup,
		NextStep: agenterror.NextStep,
		ForTool:  agenterror.SameArguments.ForTool,
		Classifiers: map[string]any{
			"model":   agenterror.ClassifyModel,
			"breaker": agenterror.ClassifyBreaker,
		},
		ToolResult: agenterror.ClassifyToolResult,
		Retry: gentest.Retry{Initial: agenterror.RetryInitial, Max: agenterror.RetryMax, Multiplier: agenterror.RetryMultiplier,
			Jitter: agenterror.RetryJitter, MaxAttempts: agenterror.RetryMaxAttempts},
		ReadHTTP:                  agenterror.ReadHTTP,
		ReadCLI:                   agenterror.ReadCLI,
		FromAIP193:                agenterror.FromAIP193,
		FromToolResult:            agenterror.FromToolResult,
		MCPOutputSchema:           agenterror.MCPOutputSchema,
		ReadMCPError:              agenterror.ReadMCPError,
		UpstreamStructuredContent: agenterror.UpstreamStructuredContent,
	})
}
