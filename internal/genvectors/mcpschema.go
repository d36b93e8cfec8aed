package genvectors

import (
	"encoding/json"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genschema"
)

// MCPOutputSchemaVec is a tool's success outputSchema and what every
// package's widening (Go's MCPOutputSchema, TypeScript's mcpOutputSchema,
// Python's and Rust's mcp_output_schema) makes of it, compared as a JSON
// value: {"type": "object", "anyOf": [success, the MCP error schema]}, the
// success schema's $schema, $id, $defs and definitions at the top, its
// other local references ("#", "#/properties/…") rebased into anyOf/0, and
// a "$ref" inside const, enum, default or examples left as it is.
type MCPOutputSchemaVec struct {
	Name    string          `json:"name"`
	Success json.RawMessage `json:"success"`
	Widened json.RawMessage `json:"widened"`
}

// mcpOutputSchemas are the widening's vectors.
func mcpOutputSchemas(c *contract.Contract) ([]MCPOutputSchemaVec, error) {
	errorSchema, err := genschema.MCPErrorSchema(c)
	if err != nil {
		return nil, err
	}
	cases := []struct{ name, success string }{
		{"definitions and references", `{"$schema":"http://json-schema.org/draft-07/schema#","$id":"urn:example:tool-output","type":"object",` +
			`"properties":{"items":{"type":"array","items":{"$ref":"#/$defs/item"}},"count":{"$ref":"#/definitions/count"},"shown":{"$ref":"#/properties/count"},"again":{"$ref":"#"},` +
			`"fixed":{"const":{"$ref":"#/properties/items"},"enum":[{"$ref":"#"}],"default":{"$ref":"#"},"examples":[{"$ref":"#/properties/items"}]}},` +
			`"required":["items"],"additionalProperties":false,"$defs":{"item":{"type":"string"}},"definitions":{"count":{"type":"integer","minimum":0}}}`},
		{"no definitions", `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`},
		{"a property named $ref", `{"type":"object","properties":{"$ref":{"type":"string"},"link":{"$ref":"#/properties/$ref"}}}`},
		{"references into its own anyOf", `{"type":"object","anyOf":[{"required":["a"]},{"$ref":"#/anyOf/0"}]}`},
	}
	var out []MCPOutputSchemaVec
	for _, tc := range cases {
		var branch map[string]any
		if err := json.Unmarshal([]byte(tc.success), &branch); err != nil {
			return nil, err
		}
		widened := map[string]any{}
		for _, name := range []string{"$schema", "$id", "$defs", "definitions"} {
			if v, ok := branch[name]; ok {
				widened[name] = v
				delete(branch, name)
			}
		}
		widened["type"] = "object"
		widened["anyOf"] = []any{rebase(branch), json.RawMessage(errorSchema)}
		data, err := json.Marshal(widened)
		if err != nil {
			return nil, err
		}
		out = append(out, MCPOutputSchemaVec{Name: tc.name, Success: json.RawMessage(tc.success), Widened: data})
	}
	return out, nil
}

// rebase rewrites the local references of a schema moved to anyOf/0, but
// those into the definitions, which stay at the top.
func rebase(v any) any {
	switch x := v.(type) {
	case []any:
		for i := range x {
			x[i] = rebase(x[i])
		}
	case map[string]any:
		for k, e := range x {
			s, isString := e.(string)
			switch {
			case k == "$ref" && isString:
				if s == "#" || strings.HasPrefix(s, "#/") && !strings.HasPrefix(s, "#/$defs/") && !strings.HasPrefix(s, "#/definitions/") {
					x[k] = "#/anyOf/0" + s[1:]
				}
			case k == "const" || k == "enum" || k == "default" || k == "examples":
			default:
				x[k] = rebase(e)
			}
		}
	}
	return v
}
