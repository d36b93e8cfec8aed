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

func (g *gen) schemas(f *jen.File) {
	c := g.c
	f.Anon("embed")
	docf(f, "Schema is a JSON Schema (draft 2020-12) of the envelope, as published in the contract's schemas/ directory.")
	f.Type().Id("Schema").Struct(
		jen.Comment("// ID is the schema's $id."),
		jen.Id("ID").String(),
		jen.Comment("// JSON is the schema document; each call returns a fresh copy."),
		jen.Id("JSON").Index().Byte(),
	)
	for _, s := range []struct {
		role genschema.Role
		name string
		doc  string
	}{
		{genschema.Producer, "Producer", "ProducerSchema is the strict schema a service validates its own envelopes against: known kinds only, closed vocabularies, each kind's required fields."},
		{genschema.Consumer, "Consumer", "ConsumerSchema is the forward-compatible schema a client validates received envelopes against: unknown kinds, values and fields are accepted."},
	} {
		v := "schema" + s.name
		f.Line()
		f.Comment("//go:embed " + genschema.FileName(c, s.role))
		f.Var().Id(v).String()
		f.Line()
		f.Commentf("// %sSchemaID is the $id of %s.", s.name, genschema.FileName(c, s.role))
		f.Const().Id(s.name + "SchemaID").Op("=").Lit(genschema.ID(c, s.role))
		f.Line()
		docf(f, s.doc)
		f.Func().Id(s.name + "Schema").Params().Id("Schema").Block(
			jen.Return(jen.Id("Schema").Values(jen.Dict{
				jen.Id("ID"):   jen.Id(s.name + "SchemaID"),
				jen.Id("JSON"): jen.Index().Byte().Call(jen.Id(v)),
			})),
		)
	}
	f.Line()
	f.Comment("// mcpErrorSchemaJSON is what MCPErrorSchema returns: the consumer schema without its descriptions.")
	f.Const().Id("mcpErrorSchemaJSON").Op("=").Lit(string(g.mcpErrorSchema))
}
