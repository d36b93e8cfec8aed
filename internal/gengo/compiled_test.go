package gengo

import (
	"bytes"
	"testing"

	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/targets"
)

// TestTemplatesCompile holds templates/go's compiled programs
// (render.ParseFS) to text/template's bytes, each template with the view
// Generate gives it, on every test contract and on synthetic ones. The
// templates of fallsBack use what the executor leaves to text/template
// (an assignment, a method of an any-typed table value) and run there;
// every other must complete on its own, since falling back is correct but
// slow.
func TestTemplatesCompile(t *testing.T) {
	fallsBack := map[string]bool{"aip193_contract.go": true, "logging_contract.go": true, "inbound_contract.go": true, "callerror_contract.go": true}
	cs := gentest.TemplateContracts(t)
	for p, c := range cs {
		g := newGen(c, targets.Defaults(c.Name))
		var err error
		if g.mcpErrorSchema, err = genschema.MCPErrorSchema(c); err != nil {
			t.Fatal(err)
		}
		views := map[string]func() any{"doc.go": g.doc, "schemas.go": g.schemas, "nextstep_contract.go": g.nextStep,
			"surfaces.go": g.surfaces, "logging_contract.go": g.logging, "aip193_contract.go": g.aip193, "sanitizepolicy.go": g.plainView}
		if c.Inbound != nil {
			views["inbound_contract.go"] = g.inbound
		}
		if c.CallError != nil {
			views["callerror_contract.go"] = g.callErrorPolicy
		}
		for name, view := range views {
			v := view()
			var fast, slow bytes.Buffer
			if err := goTemplates.Compiled(&fast, name+".tmpl", v); err != nil {
				if !fallsBack[name] {
					t.Errorf("%s: %s: %v", p, name, err)
				}
				continue
			} else if fallsBack[name] {
				t.Errorf("%s: %s compiles now: take it out of fallsBack", p, name)
			}
			if err := goTemplates.Reference().ExecuteTemplate(&slow, name+".tmpl", v); err != nil {
				t.Fatalf("%s: %s: text/template: %v", p, name, err)
			}
			if !bytes.Equal(fast.Bytes(), slow.Bytes()) {
				t.Errorf("%s: %s: the compiled program and text/template differ", p, name)
			}
		}
	}
}
