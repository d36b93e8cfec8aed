package gengo_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/gengo"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/targets"
)

// TestNoNameDeclaredTwice generates contracts whose names make the Go
// emitter's own names meet (issue 15): object fields named like a function
// of the package (Lookup) or a kind's constant (KindConfigInvalid), and
// layout objects whose paths read alike (a_b.x and a.b.y) or one called
// root (which once named functions of their own; the layout is now a table,
// wireLayout). The package must declare every top-level name once: gofmt
// accepts a name declared twice, the compiler does not.
func TestNoNameDeclaredTwice(t *testing.T) {
	base, err := os.ReadFile("../contract/testdata/valid/layout_everything/kinds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(t *testing.T, data string, old, new string) string {
		t.Helper()
		if !strings.Contains(data, old) {
			t.Fatalf("the base contract lacks %q", old)
		}
		return strings.Replace(data, old, new, 1)
	}
	data := edit(t, string(base), "context_fields:\n", `context_fields:
  lookup:
    type: object
    description: Named like the package's Lookup.
    properties:
      kind_config_invalid: {type: object, description: Named like a kind's constant., properties: {x: {type: string, description: d}}}
`)
	data = edit(t, data, "    ok: {const: false}\n", "    root.ok: {const: false}\n    a_b.x: {const: 1}\n    a.b.y: {const: 2}\n")
	c := gentest.LoadData(t, []byte(data))
	files, err := gengo.Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	where := map[string]string{}
	for p, src := range files {
		if !strings.HasSuffix(p, ".go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		declare := func(name string) {
			if name == "_" || name == "init" {
				return
			}
			if other, ok := where[name]; ok {
				t.Errorf("%s is declared in %s and again in %s", name, other, p)
			}
			where[name] = p
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declare(d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						declare(s.Name.Name)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							declare(n.Name)
						}
					}
				}
			}
		}
	}
	for _, want := range []string{"LookupFields", "KindConfigInvalidFields"} {
		if where[want] == "" {
			t.Errorf("%s is not declared; the names the emitter picks changed", want)
		}
	}
}
