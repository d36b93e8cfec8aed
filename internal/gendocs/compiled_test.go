package gendocs

import (
	"fmt"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/synth"
	"github.com/errgen/errgen/internal/targets"
)

// TestTemplatesCompile holds the compiled pages (render.Compile) to
// text/template's bytes on every contract of the tests and on synthetic
// contracts, page by page.
func TestTemplatesCompile(t *testing.T) {
	cs := gentest.Contracts(t)
	for _, n := range []int{1, 120} {
		cs[fmt.Sprintf("synth %d", n)] = gentest.LoadData(t, synth.Contract(n))
	}
	for p, c := range cs {
		gentest.SameAsTextTemplate(t, p, pageTemplates, newView(c, targets.Defaults(c.Name)))
	}
}
