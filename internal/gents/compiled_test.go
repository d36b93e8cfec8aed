package gents

import (
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/targets"
)

// TestTemplatesCompile holds the compiled templates (render.Compile) to
// text/template's bytes on every contract of the tests and on synthetic
// contracts, template by template.
func TestTemplatesCompile(t *testing.T) {
	cs := gentest.TemplateContracts(t)
	for p, c := range cs {
		v, err := newView(c, targets.Defaults(c.Name))
		if err != nil {
			t.Fatal(err)
		}
		gentest.SameAsTextTemplate(t, p, tsTemplates, v)
	}
}
