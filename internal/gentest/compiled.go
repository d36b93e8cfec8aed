package gentest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/render"
	"github.com/errgen/errgen/internal/synth"
)

// SameAsTextTemplate renders every template of ts with data by its
// compiled program alone and by text/template, and fails unless the
// program compiles, completes (never handing over to text/template) and
// writes the same bytes.
func SameAsTextTemplate(t testing.TB, what string, ts *render.Templates, data any) {
	t.Helper()
	n := 0
	for _, tmpl := range ts.Reference().Templates() {
		if tmpl.Tree == nil || tmpl.Root == nil {
			continue
		}
		n++
		name := tmpl.Name()
		var fast, slow bytes.Buffer
		if err := ts.Compiled(&fast, name, data); err != nil {
			t.Errorf("%s: %s: %v", what, name, err)
			continue
		}
		if err := ts.Reference().ExecuteTemplate(&slow, name, data); err != nil {
			t.Errorf("%s: %s: text/template: %v", what, name, err)
			continue
		}
		if !bytes.Equal(fast.Bytes(), slow.Bytes()) {
			a, b := fast.Bytes(), slow.Bytes()
			i := 0
			for i < len(a) && i < len(b) && a[i] == b[i] {
				i++
			}
			t.Errorf("%s: %s: the compiled program writes %d bytes, text/template %d; they part at byte %d: %q against %q",
				what, name, len(a), len(b), i, a[i:min(len(a), i+80)], b[i:min(len(b), i+80)])
		}
	}
	if n == 0 {
		t.Errorf("%s: no templates", what)
	}
	t.Logf("%s: %d templates", what, n)
}

// TemplateContracts are the contracts the emitters' TestTemplatesCompile
// render with: every contract of the tests (the examples' too, billing's
// with its imports) and synthetic ones of 1 and 120 kinds.
func TemplateContracts(t testing.TB) map[string]*contract.Contract {
	cs := Contracts(t, "../../examples/*/contract/kinds.yaml")
	for _, n := range []int{1, 120} {
		cs[fmt.Sprintf("synth %d", n)] = LoadData(t, synth.Contract(n))
	}
	return cs
}
