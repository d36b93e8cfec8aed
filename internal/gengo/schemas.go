package gengo

import (
	"fmt"
	"path"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/targets"
)

// schemaFiles returns the envelope schemas as files of the Go package, so
// //go:embed can reach them: a consumer's `go get` brings only this
// directory, and a server can publish the schema it was built with.
func schemaFiles(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, role := range []genschema.Role{genschema.Producer, genschema.Consumer} {
		data, err := genschema.Envelope(c, role)
		if err != nil {
			return nil, fmt.Errorf("gengo: %s schema: %w", role, err)
		}
		out[path.Join(Dir(o), genschema.FileName(c, role))] = data
	}
	return out, nil
}

// schemas emits the schema files' embedding and $ids, which the runtime's
// ProducerSchema and ConsumerSchema (schema.go) return, and the compact
// schema of MCPErrorSchema.
func (g *gen) schemas(f *jen.File) {
	c := g.c
	f.Anon("embed")
	for _, s := range []struct {
		role genschema.Role
		name string
	}{{genschema.Producer, "Producer"}, {genschema.Consumer, "Consumer"}} {
		f.Line()
		f.Comment("//go:embed " + genschema.FileName(c, s.role))
		f.Var().Id("schema" + s.name).String()
		f.Line()
		f.Commentf("// %sSchemaID is the $id of %s.", s.name, genschema.FileName(c, s.role))
		f.Const().Id(s.name + "SchemaID").Op("=").Lit(genschema.ID(c, s.role))
	}
	f.Line()
	f.Comment("// mcpErrorSchemaJSON is what MCPErrorSchema returns: the consumer schema without its descriptions.")
	f.Const().Id("mcpErrorSchemaJSON").Op("=").Lit(string(g.mcpErrorSchema))
}
