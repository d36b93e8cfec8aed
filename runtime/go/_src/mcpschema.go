package agenterror

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// MCPErrorSchema returns, as a new slice each call, the schema
// MCPOutputSchema admits beside a tool's success schema: the consumer
// schema of this contract's envelope (any kind, open vocabularies, unknown
// members allowed) without its descriptions, with no $ref.
func MCPErrorSchema() json.RawMessage { return json.RawMessage(mcpErrorSchemaJSON) }

// schemaRootMembers are the members of a success schema that stay at the top
// of the widened schema, in this order: its dialect, base URI and
// definitions.
var schemaRootMembers = []string{"$schema", "$id", "$defs", "definitions"}

// MCPOutputSchema widens a tool's success outputSchema to "the success shape
// or this contract's envelope": {"type": "object", "anyOf": [success,
// MCPErrorSchema()]}, for the tool's advertised outputSchema, so that a
// client that checks an error result's structuredContent against it (the
// 1.x TypeScript SDK's Client.callTool) accepts ToolResult's results. The
// success branch keeps every constraint (its members in the order
// encoding/json writes a map's); its $schema, $id, $defs and definitions
// move to the top, and its other local references ("#",
// "#/properties/…") are rewritten to point into the branch. success must
// be a JSON object.
func MCPOutputSchema(success json.RawMessage) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(success))
	dec.UseNumber()
	var branch map[string]any
	if err := dec.Decode(&branch); err != nil || branch == nil || dec.More() {
		return nil, errors.New("agenterror: MCPOutputSchema: the success schema is not a JSON object")
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for _, name := range schemaRootMembers {
		v, ok := branch[name]
		if !ok {
			continue
		}
		delete(branch, name)
		if err := appendMember(&b, name, v); err != nil {
			return nil, err
		}
		b.WriteByte(',')
	}
	b.WriteString(`"type":"object","anyOf":[`)
	inner, err := json.Marshal(rebaseRefs(branch))
	if err != nil {
		return nil, errors.New("agenterror: MCPOutputSchema: " + err.Error())
	}
	b.Write(inner)
	b.WriteByte(',')
	b.WriteString(mcpErrorSchemaJSON)
	b.WriteString("]}")
	return b.Bytes(), nil
}

func appendMember(b *bytes.Buffer, name string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return errors.New("agenterror: MCPOutputSchema: " + err.Error())
	}
	key, _ := json.Marshal(name)
	b.Write(key)
	b.WriteByte(':')
	b.Write(data)
	return nil
}

// rebaseRefs rewrites the local references of a success schema moved to
// anyOf/0, but those into its definitions, which stay at the top. The values
// of const, enum, default and examples are data, not schemas: a "$ref" in
// them is left as it is.
func rebaseRefs(v any) any {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			x[i] = rebaseRefs(e)
		}
	case map[string]any:
		for k, e := range x {
			switch k {
			case "$ref":
				if s, ok := e.(string); ok && (s == "#" || strings.HasPrefix(s, "#/") && !strings.HasPrefix(s, "#/$defs/") && !strings.HasPrefix(s, "#/definitions/")) {
					x[k] = "#/anyOf/0" + s[1:]
				} else {
					x[k] = rebaseRefs(e)
				}
			case "const", "enum", "default", "examples":
			default:
				x[k] = rebaseRefs(e)
			}
		}
	}
	return v
}
