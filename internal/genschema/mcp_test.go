package genschema_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/gentest"
)

// The MCP error schema is the consumer schema less its file members and its
// descriptions below the top: the same constraints, as a subschema.
func TestMCPErrorSchemaIsTheConsumerSchemaBare(t *testing.T) {
	for path, c := range gentest.Contracts(t) {
		t.Run(path, func(t *testing.T) { checkMCPErrorSchema(t, c) })
	}
}

func checkMCPErrorSchema(t *testing.T, c *contract.Contract) {
	data, err := genschema.MCPErrorSchema(c)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	full, err := genschema.Envelope(c, genschema.Consumer)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal(full, &want); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"$schema", "$id", "$comment"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s kept", k)
		}
		delete(want, k)
	}
	if d, _ := got["description"].(string); !strings.Contains(d, genschema.ID(c, genschema.Consumer)) {
		t.Errorf("top description %q does not name the consumer schema", d)
	}
	var strip func(v any) any
	strip = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, e := range x {
				if k == "description" || k == "title" {
					continue
				}
				if k == "properties" {
					props := map[string]any{}
					for name, p := range e.(map[string]any) {
						props[name] = strip(p)
					}
					out[k] = props
					continue
				}
				out[k] = strip(e)
			}
			return out
		}
		return v
	}
	g, w := strip(got), strip(want)
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("constraints differ:\n got %s\nwant %s", gb, wb)
	}
}
