package agenterror_test

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/internal/gentest"
)

func readSchema(t *testing.T, file string) map[string]any {
	t.Helper()
	data, err := os.ReadFile("../../../schemas/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func strs[T ~string](list []T) []any {
	out := make([]any, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}

// The values the Go package emits are exactly the values the producer
// schema publishes.
func TestSchemaEnumsEqualGoConstants(t *testing.T) {
	doc := readSchema(t, "agent-error.producer.schema.json")
	props := doc["properties"].(map[string]any)
	rec := props["recovery"].(map[string]any)["properties"].(map[string]any)
	enum := func(m map[string]any, key string) []any { return m[key].(map[string]any)["enum"].([]any) }
	for _, tt := range []struct {
		name      string
		published []any
		emitted   []any
	}{
		{"kind", enum(props, "kind"), strs(agenterror.Kinds())},
		{"origin", enum(props, "origin"), strs(agenterror.Origins())},
		{"side_effects", enum(props, "side_effects"), strs(agenterror.SideEffectsValues())},
		{"recovery.action", enum(rec, "action"), strs(agenterror.RecoveryActions())},
		{"recovery.same_arguments", enum(rec, "same_arguments"), strs(agenterror.SameArgumentsValues())},
	} {
		if !reflect.DeepEqual(tt.published, tt.emitted) {
			t.Errorf("%s: schema enum %v\nGo constants %v", tt.name, tt.published, tt.emitted)
		}
	}
	if got := props["contract_version"].(map[string]any)["const"]; got != float64(agenterror.ContractVersion) {
		t.Errorf("contract_version const = %v, Go ContractVersion = %d", got, agenterror.ContractVersion)
	}
}

func TestEmbeddedSchemasArePublishedOnes(t *testing.T) {
	for _, s := range []struct {
		schema agenterror.Schema
		file   string
	}{
		{agenterror.ProducerSchema(), "agent-error.producer.schema.json"},
		{agenterror.ConsumerSchema(), "agent-error.consumer.schema.json"},
	} {
		published, err := os.ReadFile("../../../schemas/" + s.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(s.schema.JSON, published) {
			t.Errorf("embedded %s differs from schemas/%s", s.schema.ID, s.file)
		}
		var doc map[string]any
		json.Unmarshal(s.schema.JSON, &doc)
		if doc["$id"] != s.schema.ID {
			t.Errorf("ID %q, document $id %v", s.schema.ID, doc["$id"])
		}
		// Callers get a copy they may modify freely.
		s.schema.JSON[0] = 'X'
	}
	if agenterror.ProducerSchema().JSON[0] != '{' {
		t.Error("modifying a returned schema changed the embedded one")
	}
}

// Every example the docs show and the schemas accept is exactly what the Go
// package produces for the same failure.
func TestGoEnvelopesMatchExamples(t *testing.T) {
	gentest.MatchExamples(t, "../../../contract/kinds.yaml", func(kind, message string) any {
		return agenterror.New(agenterror.Kind(kind), message)
	})
}

// TestProducers feeds every constructor adversarial messages, guidance and
// retry hints: what they build must pass the producer schema and labby's
// published one (vendored in tests/testdata/labby).
func TestProducers(t *testing.T) {
	labby, err := os.ReadFile("../../../tests/testdata/labby/agent-error.schema.json")
	if err != nil {
		t.Fatalf("labby's vendored schema: %v", err)
	}
	gentest.CheckProducers(t, gentest.ProducerAPI{
		Contract:       "../../../contract/kinds.yaml",
		New:            func(kind, message string) any { return agenterror.New(agenterror.Kind(kind), message) },
		NewTrusted:     func(kind, message string) any { return agenterror.NewTrusted(agenterror.Kind(kind), message) },
		Sanitize:       agenterror.Sanitize,
		ProducerSchema: agenterror.ProducerSchema().JSON,
		Labby:          labby,
	})
}
