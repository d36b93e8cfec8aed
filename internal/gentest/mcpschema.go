package gentest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// mcpSuccessSchema is a tool's success outputSchema as tools write them:
// definitions under $defs, a reference into them and one into its own
// properties (which the widening rebases), nothing beyond its members. The
// TypeScript and Python real-client tests serve the same one.
const mcpSuccessSchema = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",` +
	`"properties":{"items":{"type":"array","items":{"$ref":"#/$defs/item"}},"total":{"type":"integer","minimum":0},"shown":{"$ref":"#/properties/total"}},` +
	`"required":["items","total"],"additionalProperties":false,"$defs":{"item":{"type":"string"}}}`

// checkMCPOutputSchema checks MCPOutputSchema and MCPErrorSchema: the widened
// schema is {"type": "object", "anyOf": [success, MCPErrorSchema()]} with the
// success schema's dialect and definitions at the top; every example
// envelope's ToolResult structuredContent is valid against it (what the
// 1.x TypeScript SDK's client checks), and of success values only those
// the success schema admits are.
func (s *surfaces) checkMCPOutputSchema(t *testing.T) {
	success := []byte(mcpSuccessSchema)
	out := call(t, reflect.ValueOf(s.api.MCPOutputSchema), json.RawMessage(success))
	if err, _ := out[1].Interface().(error); err != nil {
		t.Fatalf("MCPOutputSchema: %v", err)
	}
	widened := out[0].Bytes()
	if string(success) != mcpSuccessSchema {
		t.Fatal("MCPOutputSchema changed its argument")
	}
	var doc map[string]any
	if err := json.Unmarshal(widened, &doc); err != nil {
		t.Fatalf("MCPOutputSchema wrote no JSON object: %v\n%s", err, widened)
	}
	var errorSchema any
	if err := json.Unmarshal(call(t, reflect.ValueOf(s.api.MCPErrorSchema))[0].Bytes(), &errorSchema); err != nil {
		t.Fatalf("MCPErrorSchema: %v", err)
	}
	anyOf, _ := doc["anyOf"].([]any)
	if doc["type"] != "object" || len(anyOf) != 2 || !reflect.DeepEqual(anyOf[1], errorSchema) {
		t.Fatalf("MCPOutputSchema: not {type: object, anyOf: [success, MCPErrorSchema()]}:\n%s", widened)
	}
	if doc["$schema"] != "http://json-schema.org/draft-07/schema#" || doc["$defs"] == nil {
		t.Errorf("MCPOutputSchema: the success schema's $schema and $defs are not at the top:\n%s", widened)
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(widened))
	if err != nil {
		t.Fatal(err)
	}
	comp := jsonschema.NewCompiler()
	if err := comp.AddResource("widened.schema.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	schema, err := comp.Compile("widened.schema.json")
	if err != nil {
		t.Fatalf("MCPOutputSchema: %v\n%s", err, widened)
	}
	valid := func(data []byte) bool {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		return schema.Validate(inst) == nil
	}
	for _, ex := range exampleenv.All(s.c) {
		e := build(t, ex, s.api.New)
		tr := call(t, reflect.ValueOf(e).MethodByName("ToolResult"))[0]
		if sc := tr.FieldByName("StructuredContent").Bytes(); !valid(sc) {
			t.Errorf("%s: the ToolResult's structuredContent is not valid against the widened outputSchema:\n%s", ex.Name, sc)
		}
	}
	if !valid([]byte(`{"items":["a","b"],"total":2,"shown":2}`)) {
		t.Error("a success value is not valid against the widened outputSchema")
	}
	for _, bad := range []string{`{"items":[1],"total":-1}`, `{"items":[],"total":1,"shown":-1}`, `{}`} {
		if valid([]byte(bad)) {
			t.Errorf("%s, which the success schema refuses, is valid against the widened outputSchema", bad)
		}
	}
}

// checkTextToolResult checks TextToolResult: ToolResult without
// structuredContent, which FromToolResult reads from the text.
func (s *surfaces) checkTextToolResult(t *testing.T, e any, want []byte) {
	t.Helper()
	tr := call(t, reflect.ValueOf(e).MethodByName("TextToolResult"))[0]
	raw, err := json.Marshal(tr.Interface())
	if err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(string(want))
	// The contract's _meta key, when it names one, carries the envelope too.
	meta := ""
	if key := s.c.Surfaces.MCP.MetaKey; key != "" {
		k, _ := json.Marshal(key)
		meta = `,"_meta":{` + string(k) + `:` + string(want) + `}`
	}
	if string(raw) != `{"content":[{"type":"text","text":`+string(text)+`}],"isError":true`+meta+`}` {
		t.Errorf("TextToolResult: %s, want the envelope as the one text item (and under the contract's _meta key) and nothing else", raw)
	}
	got, err := try(s.api.FromToolResult, tr.Interface())
	if err != nil {
		t.Fatalf("FromToolResult(TextToolResult()): %v", err)
	}
	same(t, "FromToolResult(TextToolResult())", got, want)
}
