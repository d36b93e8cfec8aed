package agenterror_test

import (
	"errors"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/internal/gentest"
)

// TestSurfaces puts every example envelope through the HTTP, RFC 9457, MCP
// and CLI surfaces and reads it back (see gentest.CheckSurfaces).
func TestSurfaces(t *testing.T) {
	gentest.CheckSurfaces(t, gentest.SurfaceAPI{
		Contract:       "../../../contract/kinds.yaml",
		ConsumerSchema: agenterror.ConsumerSchema().JSON,
		New: func(kind, message string) any {
			return agenterror.New(agenterror.Kind(kind), message)
		},
		ReadHTTP:        agenterror.ReadHTTP,
		FromToolResult:  agenterror.FromToolResult,
		MCPOutputSchema: agenterror.MCPOutputSchema,
		MCPErrorSchema:  agenterror.MCPErrorSchema,
		ReadCLI:         agenterror.ReadCLI,
	})
}

// TestFromToolResultNothingToDecode: a tool result with no structuredContent
// and no text item is a *DecodeError of category DecodeMissing, as the
// TypeScript, Python and Rust readers report it (issue 28's reader
// differential found a plain error in Go).
func TestFromToolResultNothingToDecode(t *testing.T) {
	for _, r := range []agenterror.ToolResult{{}, {IsError: true}, {Content: []agenterror.ToolContent{{Type: "image"}}}} {
		_, err := agenterror.FromToolResult(r)
		var de *agenterror.DecodeError
		if !errors.As(err, &de) || de.Category != agenterror.DecodeMissing {
			t.Errorf("FromToolResult(%+v) = %v, want a DecodeError of category missing", r, err)
		}
	}
}
