package genschema_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/genvectors"
	"github.com/errgen/errgen/internal/marker"
)

// contracts are the contracts whose envelope schemas are exercised.
var contracts = []string{"../../contract/kinds.yaml", "../../examples/agento/kinds.yaml", "../../examples/ovstorage/kinds.yaml",
	"../gengo/testdata/minimal/kinds.yaml", "../gengo/testdata/escaping/kinds.yaml"}

func load(t *testing.T, path string) *contract.Contract {
	t.Helper()
	c := gentest.Load(t, path)
	return c
}

func compile(t *testing.T, name string, data []byte) *jsonschema.Schema {
	t.Helper()
	return gentest.CompileSchema(t, name, data)
}

func envelopeSchemas(t *testing.T, c *contract.Contract) (producer, consumer *jsonschema.Schema) {
	t.Helper()
	for _, role := range []genschema.Role{genschema.Producer, genschema.Consumer} {
		data, err := genschema.Envelope(c, role)
		if err != nil {
			t.Fatal(err)
		}
		s := compile(t, genschema.FileName(c, role), data)
		if role == genschema.Producer {
			producer = s
		} else {
			consumer = s
		}
	}
	return producer, consumer
}

func instance(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func TestExamplesValidateAgainstBothSchemas(t *testing.T) {
	for _, path := range contracts {
		c := load(t, path)
		producer, consumer := envelopeSchemas(t, c)
		for _, ex := range exampleenv.All(c) {
			inst := instance(t, ex.Value)
			if err := consumer.Validate(inst); err != nil {
				t.Errorf("%s: example %q fails the consumer schema: %v", c.Name, ex.Name, err)
			}
			err := producer.Validate(inst)
			if ex.Kind == nil {
				if err == nil {
					t.Errorf("%s: the unknown-kind example passes the producer schema", c.Name)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: example %q fails the producer schema: %v", c.Name, ex.Name, err)
			}
		}
	}
}

// Every envelope the HTTP readers return in the conformance vectors (labby's
// short form promoted, with its mark; responses classified from their
// status) is one the consumer schema accepts; and a promoted one of a kind
// the contract defines meets the producer schema too, so a reader that
// forwards it emits nothing its own producer schema rejects, except for a
// kind with a required field that has no empty value (a string, a number),
// which the short form cannot carry and the reader does not invent. Each
// language's reader is held to exactly these envelopes by the vectors.
func TestHTTPVectorEnvelopesValidate(t *testing.T) {
	for _, path := range contracts {
		c := load(t, path)
		producer, consumer := envelopeSchemas(t, c)
		f, err := genvectors.Build(c)
		if err != nil {
			t.Fatal(err)
		}
		promoted := 0
		for _, v := range f.HTTP {
			if string(v.Envelope) == "null" {
				continue
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(v.Envelope))
			if err != nil {
				t.Fatal(err)
			}
			if err := consumer.Validate(inst); err != nil {
				t.Errorf("%s: %q fails the consumer schema: %v", c.Name, v.Name, err)
			}
			var top map[string]any
			json.Unmarshal(v.Envelope, &top)
			if top[contract.PromotedMember] != nil {
				promoted++
			}
			kind, _ := top["kind"].(string)
			if k := c.Kind(kind); k != nil && top[contract.PromotedMember] != nil && emptiable(k) {
				if err := producer.Validate(inst); err != nil {
					t.Errorf("%s: %q fails the producer schema: %v", c.Name, v.Name, err)
				}
			}
		}
		if (c.ShortForm() != nil) != (promoted > 0) {
			t.Errorf("%s: %d promoted envelopes", c.Name, promoted)
		}
	}
}

// emptiable reports whether every required field of k has an empty value.
func emptiable(k *contract.Kind) bool {
	for _, f := range k.RequiredFields() {
		if !f.HasEmptyValue() {
			return false
		}
	}
	return true
}

// Each layout's schemas accept only its own shape: an envelope of one seed
// system is not an envelope of another.
func TestSchemasRejectOtherLayouts(t *testing.T) {
	layouts := contracts[:3]
	type schemas struct{ producer, consumer *jsonschema.Schema }
	compiled := map[string]schemas{}
	for _, path := range layouts {
		p, c := envelopeSchemas(t, load(t, path))
		compiled[path] = schemas{p, c}
	}
	for _, own := range layouts {
		for _, other := range layouts {
			if own == other {
				continue
			}
			for _, ex := range exampleenv.All(load(t, other)) {
				inst := instance(t, ex.Value)
				if compiled[own].consumer.Validate(inst) == nil || compiled[own].producer.Validate(inst) == nil {
					t.Errorf("%s's schemas accept %s's example %q", own, other, ex.Name)
				}
			}
		}
	}
}

// mutate returns the example with one change applied to a decoded copy.
func mutate(t *testing.T, ex exampleenv.Example, change func(m map[string]any)) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(ex.JSON(), &m); err != nil {
		t.Fatal(err)
	}
	change(m)
	return instance(t, m)
}

func TestSchemasTellProducerAndConsumerApart(t *testing.T) {
	c := load(t, "../../contract/kinds.yaml")
	producer, consumer := envelopeSchemas(t, c)
	forbidden := exampleenv.ForKind(c, c.Kind("forbidden"))
	tests := []struct {
		name               string
		change             func(m map[string]any)
		producerOK, consOK bool
	}{
		{"as generated", func(map[string]any) {}, true, true},
		{"unknown kind", func(m map[string]any) { m["kind"] = "brand_new" }, false, true},
		{"unknown origin", func(m map[string]any) { m["origin"] = "cosmic_rays" }, false, true},
		{"unknown recovery action", func(m map[string]any) { m["recovery"].(map[string]any)["action"] = "pray" }, false, true},
		{"unknown side_effects", func(m map[string]any) { m["side_effects"] = "who_knows" }, false, true},
		{"unknown field", func(m map[string]any) { m["trace_id"] = "abc" }, true, true},
		{"unknown recovery field", func(m map[string]any) { m["recovery"].(map[string]any)["hint"] = 1 }, true, true},
		{"missing recovery.guidance", func(m map[string]any) { delete(m["recovery"].(map[string]any), "guidance") }, false, false},
		{"empty guidance", func(m map[string]any) { m["recovery"].(map[string]any)["guidance"] = "" }, false, false},
		{"missing message", func(m map[string]any) { delete(m, "message") }, false, false},
		{"wrong contract_version", func(m map[string]any) { m["contract_version"] = 2 }, false, false},
		{"missing required kind field", func(m map[string]any) { delete(m, "required_scopes") }, false, true},
		{"kind field of the wrong type", func(m map[string]any) { m["required_scopes"] = "admin" }, false, false},
		{"context field of the wrong type", func(m map[string]any) { m["service"] = 3 }, false, false},
		{"negative retry_after_ms", func(m map[string]any) { m["recovery"].(map[string]any)["retry_after_ms"] = -1 }, false, false},
		{"retryAfterMs spelling", func(m map[string]any) { m["recovery"].(map[string]any)["retryAfterMs"] = 100 }, true, true},
		{"retryAfterMs not an integer", func(m map[string]any) { m["recovery"].(map[string]any)["retryAfterMs"] = "soon" }, true, false},
	}
	for _, tt := range tests {
		inst := mutate(t, forbidden, tt.change)
		if got := producer.Validate(inst) == nil; got != tt.producerOK {
			t.Errorf("%s: producer accepts = %v, want %v", tt.name, got, tt.producerOK)
		}
		if got := consumer.Validate(inst) == nil; got != tt.consOK {
			t.Errorf("%s: consumer accepts = %v, want %v", tt.name, got, tt.consOK)
		}
	}
}

// labby's own published schema is the compatibility test with the running
// system: every example of the reference contract must pass it.
func TestReferenceExamplesPassLabbySchema(t *testing.T) {
	// Vendored with a note on its origin; a missing file fails the test.
	data, err := os.ReadFile("../../tests/testdata/labby/agent-error.schema.json")
	if err != nil {
		t.Fatalf("labby's vendored schema: %v", err)
	}
	labby := compile(t, "labby-agent-error.schema.json", data)
	c := load(t, "../../contract/kinds.yaml")
	for _, ex := range exampleenv.All(c) {
		if err := labby.Validate(instance(t, ex.Value)); err != nil {
			t.Errorf("example %q fails labby's schema: %v", ex.Name, err)
		}
	}
}

func TestSchemaHeaderAndIDs(t *testing.T) {
	c := load(t, "../../contract/kinds.yaml")
	for _, role := range []genschema.Role{genschema.Producer, genschema.Consumer} {
		data, _ := genschema.Envelope(c, role)
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if doc["$id"] != genschema.ID(c, role) || doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $id %v, $schema %v", role, doc["$id"], doc["$schema"])
		}
		if head := string(data[:min(len(data), 512)]); !strings.Contains(head, marker.Text) {
			t.Errorf("%s: header not within the first 512 bytes", role)
		}
		if desc, _ := doc["description"].(string); !strings.Contains(desc, string(map[genschema.Role]genschema.Role{genschema.Producer: genschema.Consumer, genschema.Consumer: genschema.Producer}[role])) {
			t.Errorf("%s: description does not point to the other schema", role)
		}
	}
	if got := filepath.Base(genschema.FileName(c, genschema.Producer)); got != "agent-error.producer.schema.json" {
		t.Errorf("file name %s", got)
	}
}

func TestUnescapeHTML(t *testing.T) {
	c := load(t, "../gengo/testdata/escaping/kinds.yaml")
	data, _ := genschema.Envelope(c, genschema.Consumer)
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not JSON after unescaping: %v", err)
	}
	if !strings.Contains(string(data), "<!-- -->") {
		t.Error("< and > still escaped")
	}
	if !strings.Contains(doc["description"].(string), `backslash \ newline`) {
		t.Errorf("description changed: %q", doc["description"])
	}
}

// The producer schema pins retryable to each kind's classification, over
// every kind of every contract whose layout carries it (ovstorage's NotFound
// with retryable: true does not validate); the consumer schema takes either.
func TestProducerSchemaPinsRetryablePerKind(t *testing.T) {
	pinned := 0
	for _, path := range contracts {
		c := load(t, path)
		lf := c.Layout.Leaf(contract.SourceRetryable)
		if lf == nil {
			continue
		}
		producer, consumer := envelopeSchemas(t, c)
		for _, ex := range exampleenv.All(c) {
			if ex.Kind == nil {
				continue
			}
			flipped := mutate(t, ex, func(m map[string]any) {
				obj := m
				for _, seg := range strings.Split(lf.Path, ".")[:strings.Count(lf.Path, ".")] {
					obj = obj[seg].(map[string]any)
				}
				obj[lf.Name] = !ex.Kind.Retryable()
			})
			if producer.Validate(flipped) == nil {
				t.Errorf("%s: %s with retryable %t passes the producer schema", c.Name, ex.Kind.Name, !ex.Kind.Retryable())
			}
			if err := consumer.Validate(flipped); err != nil {
				t.Errorf("%s: %s with retryable %t fails the consumer schema: %v", c.Name, ex.Kind.Name, !ex.Kind.Retryable(), err)
			}
			pinned++
		}
	}
	if pinned == 0 {
		t.Error("no contract's layout carries retryable: the test checks nothing")
	}
}
