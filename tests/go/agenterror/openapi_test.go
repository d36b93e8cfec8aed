package agenterror_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// TestOpenAPIExamplesAreWhatGoWrites holds the committed OpenAPI document's
// examples to the generated package: each response's application/json
// example must be the envelope as MarshalJSON writes it, and its
// application/problem+json example the document Problem("") writes for
// that envelope, member for member in the same order. genopenapi builds the
// examples from the model, never from this package, so the two could drift
// apart without this test.
func TestOpenAPIExamplesAreWhatGoWrites(t *testing.T) {
	data, err := os.ReadFile("../../../openapi/agent-error.errors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	responses := member(member(doc.Content[0], "components"), "responses")
	if responses == nil {
		t.Fatal("no components.responses in the document")
	}
	checked := 0
	for i := 0; i+1 < len(responses.Content); i += 2 {
		name, resp := responses.Content[i].Value, responses.Content[i+1]
		content := member(resp, "content")
		envs := member(member(content, "application/json"), "examples")
		problems := member(member(content, "application/problem+json"), "examples")
		if envs == nil || problems == nil {
			t.Errorf("%s: no application/json or application/problem+json examples", name)
			continue
		}
		for j := 0; j+1 < len(envs.Content); j += 2 {
			ex := envs.Content[j].Value
			where := fmt.Sprintf("%s, example %s", name, ex)
			envJSON := toJSON(t, member(envs.Content[j+1], "value"))
			var e agenterror.Envelope
			if err := e.UnmarshalJSON(envJSON); err != nil {
				t.Errorf("%s: the envelope example does not decode: %v\n%s", where, err, envJSON)
				continue
			}
			wrote, err := e.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			sameTokens(t, where+" (application/json)", envJSON, wrote)
			problem := member(member(problems, ex), "value")
			if problem == nil {
				t.Errorf("%s: no application/problem+json example of that name", where)
				continue
			}
			wroteProblem, err := e.Problem("")
			if err != nil {
				t.Fatal(err)
			}
			sameTokens(t, where+" (application/problem+json)", toJSON(t, problem), wroteProblem)
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no example was checked")
	}
}

// member is the value of key in a YAML mapping, or nil.
func member(m *yaml.Node, key string) *yaml.Node {
	if m == nil {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// toJSON writes a YAML value as JSON, keeping its members in their order.
func toJSON(t *testing.T, n *yaml.Node) []byte {
	t.Helper()
	var b bytes.Buffer
	var write func(n *yaml.Node)
	write = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.MappingNode:
			b.WriteByte('{')
			for i := 0; i+1 < len(n.Content); i += 2 {
				if i > 0 {
					b.WriteByte(',')
				}
				k, _ := json.Marshal(n.Content[i].Value)
				b.Write(k)
				b.WriteByte(':')
				write(n.Content[i+1])
			}
			b.WriteByte('}')
		case yaml.SequenceNode:
			b.WriteByte('[')
			for i, c := range n.Content {
				if i > 0 {
					b.WriteByte(',')
				}
				write(c)
			}
			b.WriteByte(']')
		case yaml.ScalarNode:
			switch n.Tag {
			case "!!bool":
				b.WriteString(n.Value)
			case "!!int", "!!float":
				// As written, which JSON reads alike when it is a JSON number.
				if _, err := strconv.ParseFloat(n.Value, 64); err != nil {
					t.Fatalf("line %d: %s %q is not a JSON number", n.Line, n.Tag, n.Value)
				}
				b.WriteString(n.Value)
			case "!!null":
				b.WriteString("null")
			default:
				s, _ := json.Marshal(n.Value)
				b.Write(s)
			}
		default:
			t.Fatalf("line %d: YAML node kind %v in an example", n.Line, n.Kind)
		}
	}
	write(n)
	return b.Bytes()
}

// sameTokens compares two JSON texts token by token: the same members in
// the same order with the same values, whatever either escapes.
func sameTokens(t *testing.T, where string, want, got []byte) {
	t.Helper()
	dw, dg := json.NewDecoder(bytes.NewReader(want)), json.NewDecoder(bytes.NewReader(got))
	dw.UseNumber()
	dg.UseNumber()
	for {
		tw, errw := dw.Token()
		tg, errg := dg.Token()
		if errors.Is(errw, io.EOF) && errors.Is(errg, io.EOF) {
			return
		}
		if errw != nil || errg != nil || tw != tg {
			t.Errorf("%s: the document's example and Go's differ at %v / %v (%v, %v)\nexample: %s\nGo:      %s", where, tw, tg, errw, errg, want, got)
			return
		}
	}
}
