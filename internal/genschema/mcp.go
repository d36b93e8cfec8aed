package genschema

import (
	"fmt"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/orderedjson"
	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"
)

// MCPErrorSchema is the compact JSON of the schema an MCP tool's widened
// outputSchema admits beside the tool's success schema (the runtimes'
// mcpOutputSchema / mcp_output_schema): the consumer schema of c's
// envelope as a subschema, so without the members that make a schema a
// file of its own ($schema, $id, $comment), and without the descriptions
// below its top, since every tool's advertised schema carries it into a
// model's context. It uses no $ref, so it can sit anywhere in another
// schema.
func MCPErrorSchema(c *contract.Contract) ([]byte, error) {
	s := bare(EnvelopeSchema(c, Consumer))
	s.Version, s.ID, s.Comments = "", "", ""
	s.Title = c.Name + " error envelope"
	s.Description = fmt.Sprintf("The result of a failed call (isError true): the %s contract's envelope, version %s (the consumer schema %s, without its descriptions).",
		c.Name, c.VersionLabel(), ID(c, Consumer))
	return orderedjson.Marshal(s)
}

// bare copies s without the descriptions of it and its subschemas.
func bare(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	out := *s
	out.Description = ""
	if s.Properties != nil {
		p := orderedmap.New[string, *jsonschema.Schema]()
		for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
			p.Set(pair.Key, bare(pair.Value))
		}
		out.Properties = p
	}
	out.Items = bare(s.Items)
	out.AdditionalProperties = bare(s.AdditionalProperties)
	for _, list := range []*[]*jsonschema.Schema{&out.AllOf, &out.AnyOf, &out.OneOf} {
		if *list != nil {
			copied := make([]*jsonschema.Schema, len(*list))
			for i, x := range *list {
				copied[i] = bare(x)
			}
			*list = copied
		}
	}
	out.If, out.Then, out.Else, out.Not = bare(s.If), bare(s.Then), bare(s.Else), bare(s.Not)
	return &out
}
