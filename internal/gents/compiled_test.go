package gents

import (
	"fmt"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/synth"
	"github.com/errgen/errgen/internal/targets"
)

// TestTemplatesCompile holds the compiled templates (render.Compile) to
// text/template's bytes on every contract of the tests and on synthetic
// contracts, template by template.
func TestTemplatesCompile(t *testing.T) {
	cs := gentest.Contracts(t, "../../examples/*/contract/kinds.yaml") // billing: imports
	for _, n := range []int{1, 120} {
		cs[fmt.Sprintf("synth %d", n)] = gentest.LoadData(t, synth.Contract(n))
	}
	for p, c := range cs {
		v, err := newView(c, targets.Defaults(c.Name))
		if err != nil {
			t.Fatal(err)
		}
		gentest.SameAsTextTemplate(t, p, tsTemplates, v)
	}
}
