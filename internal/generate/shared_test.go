package generate

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/runtimedata"
	"github.com/errgen/errgen/internal/targets"
	"github.com/invopop/jsonschema"
)

// TestSharedValuesStayUnchanged holds the emitters to what targets.Shared
// asks of them: the values one run's emitters share (the examples, the
// runtime tables, the envelope schemas and their files) are read and never changed, by any emitter, on any
// goroutine. After a run, each is what a fresh build makes.
func TestSharedValuesStayUnchanged(t *testing.T) {
	c := gentest.Load(t, "../../contract/kinds.yaml")
	o := targets.Defaults(c.Name)
	o.Shared = targets.NewShared()
	if _, err := Generate(c, o); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	o.Shared.Each(func(key, v any) {
		switch v := v.(type) {
		case []exampleenv.Example:
			seen["examples"] = true
			if !reflect.DeepEqual(v, exampleenv.All(c)) {
				t.Error("an emitter changed the shared examples")
			}
		case *runtimedata.Tables:
			seen["tables"] = true
			if !reflect.DeepEqual(v, runtimedata.Build(c)) {
				t.Error("an emitter changed the shared runtime tables")
			}
		case *jsonschema.Schema:
			seen["schemas"] = true
			if !reflect.DeepEqual(v, genschema.EnvelopeSchema(c, genschema.Producer)) && !reflect.DeepEqual(v, genschema.EnvelopeSchema(c, genschema.Consumer)) {
				t.Error("an emitter changed a shared envelope schema")
			}
		case []byte:
			seen["files"] = true
			producer, err1 := genschema.Envelope(c, genschema.Producer)
			consumer, err2 := genschema.Envelope(c, genschema.Consumer)
			if err1 != nil || err2 != nil || !bytes.Equal(v, producer) && !bytes.Equal(v, consumer) {
				t.Error("an emitter changed a shared envelope schema's file")
			}
		default:
			t.Errorf("shared %T under %T: not checked here", v, key)
		}
	})
	if len(seen) != 4 {
		t.Errorf("the run shared %v, not the examples, the tables, the schemas and their files", seen)
	}
}
