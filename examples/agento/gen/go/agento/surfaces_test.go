package agento_test

import (
	"testing"

	"github.com/errgen/errgen/examples/agento/gen/go/agento"
	"github.com/errgen/errgen/internal/gentest"
)

// TestSurfaces puts every example envelope through the HTTP, RFC 9457, MCP
// and CLI surfaces and reads it back (see gentest.CheckSurfaces).
func TestSurfaces(t *testing.T) {
	gentest.CheckSurfaces(t, gentest.SurfaceAPI{
		Contract:       "../../../kinds.yaml",
		ConsumerSchema: agento.ConsumerSchema().JSON,
		New: func(kind, message string) any {
			return agento.New(agento.Kind(kind), message)
		},
		ReadHTTP:        agento.ReadHTTP,
		FromToolResult:  agento.FromToolResult,
		MCPOutputSchema: agento.MCPOutputSchema,
		MCPErrorSchema:  agento.MCPErrorSchema,
		ReadCLI:         agento.ReadCLI,
	})
}
