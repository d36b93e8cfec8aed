package agenterror_test

import (
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
		ReadHTTP:       agenterror.ReadHTTP,
		FromToolResult: agenterror.FromToolResult,
		ReadCLI:        agenterror.ReadCLI,
	})
}
