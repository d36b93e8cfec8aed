package generate

import (
	"reflect"
	"testing"

	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/runtimedata"
	"github.com/errgen/errgen/internal/targets"
)

// TestSharedValuesStayUnchanged holds the emitters to what targets.Shared
// asks of them: the values one run's emitters share (the examples, the
// runtime tables) are read and never changed, by any emitter, on any
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
		default:
			t.Errorf("shared %T under %T: not checked here", v, key)
		}
	})
	if !seen["examples"] || !seen["tables"] {
		t.Errorf("the run shared %v, not both the examples and the tables", seen)
	}
}
