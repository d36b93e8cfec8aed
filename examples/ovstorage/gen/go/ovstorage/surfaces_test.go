package ovstorage_test

import (
	"testing"

	"github.com/errgen/errgen/examples/ovstorage/gen/go/ovstorage"
	"github.com/errgen/errgen/internal/gentest"
)

// TestSurfaces puts every example envelope through the HTTP, RFC 9457, MCP
// and CLI surfaces and reads it back (see gentest.CheckSurfaces).
func TestSurfaces(t *testing.T) {
	gentest.CheckSurfaces(t, gentest.SurfaceAPI{
		Contract:       "../../../kinds.yaml",
		ConsumerSchema: ovstorage.ConsumerSchema().JSON,
		New: func(kind, message string) any {
			return ovstorage.New(ovstorage.Kind(kind), message, "")
		},
		ReadHTTP:        ovstorage.ReadHTTP,
		FromToolResult:  ovstorage.FromToolResult,
		MCPOutputSchema: ovstorage.MCPOutputSchema,
		MCPErrorSchema:  ovstorage.MCPErrorSchema,
		ReadCLI:         ovstorage.ReadCLI,
	})
}
