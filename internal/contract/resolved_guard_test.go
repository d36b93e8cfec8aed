package contract

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The model's promise is that emitters only print: what the loader resolves
// (resolved.go) is never derived again outside this package. This guard
// reads the source of every package that uses the model, syntactically, and
// reports the shapes those derivations take. It is deliberately narrow:
// each pattern is one that a re-derivation cannot avoid.

const modelImport = "github.com/errgen/errgen/internal/contract"

// rederivation is one finding: where, and which model value to read instead.
type rederivation struct {
	pos  token.Position
	what string
}

// rederivations lists the derivations of resolved values in one file.
func rederivations(fset *token.FileSet, f *ast.File) []rederivation {
	var out []rederivation
	report := func(n ast.Node, format string, args ...any) {
		out = append(out, rederivation{fset.Position(n.Pos()), fmt.Sprintf(format, args...)})
	}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "log/slog" {
			report(imp, "imports log/slog: a log level is a contract.LogLevel; print its name, or Level+Idents().Go for Go's slog constant")
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			// x.Kind.Breaker is a rule's breaker default; x.Origin.<field> a
			// kind's inherited value.
			if inner, ok := n.X.(*ast.SelectorExpr); ok {
				switch {
				case inner.Sel.Name == "Kind" && n.Sel.Name == "Breaker":
					report(n, "reads a rule's kind's breaker: a rule's breaker is resolved in Rule.Breaker")
				case inner.Sel.Name == "Origin" && slices.Contains([]string{"Breaker", "Log", "SideEffects"}, n.Sel.Name):
					report(n, "reads the origin's %s: a kind's is resolved in its Classification", n.Sel.Name)
				}
			}
		case *ast.IndexExpr:
			if sel, ok := n.Index.(*ast.SelectorExpr); ok && sel.Sel.Name == "HTTP" {
				report(n, "indexes by HTTP status: the kinds by status are contract.Statuses, HTTPKinds and HTTPKind")
			}
		case *ast.MapType:
			if key, ok := n.Key.(*ast.Ident); ok && key.Name == "int" && mentions(n.Value, "Kind") {
				report(n, "builds a map from int to kinds: the kinds by status are contract.Statuses, HTTPKinds and HTTPKind")
			}
		case *ast.BasicLit:
			if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && slices.Contains([]string{"http_", "HTTP_", "Http", "http-"}, s) {
				report(n, "spells a synthetic kind prefix: use contract's SyntheticKindPrefix, SyntheticKind or HTTPKind")
			}
		case *ast.BinaryExpr:
			if n.Op == token.ADD && (calls(n.X, "SyntheticKindPrefix") || calls(n.Y, "SyntheticKindPrefix")) {
				report(n, "appends to the synthetic kind prefix: use contract's SyntheticKind(status)")
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Contains" && len(n.Args) == 2 && isSelector(n.Args[0], "Fields") && mentionsSelector(n.Args[0], "Sanitize") {
				report(n, "searches the sanitized fields: ask contract's Sanitize.Sanitizes(field)")
			}
			if fn, ok := n.Fun.(*ast.Ident); ok && fn.Name == "append" && n.Ellipsis.IsValid() {
				if sel, ok := n.Args[len(n.Args)-1].(*ast.SelectorExpr); ok && (sel.Sel.Name == "ContextFields" || sel.Sel.Name == "KindFields") {
					report(n, "concatenates %s: the envelope's fields are contract.EnvelopeFields, a kind's FieldsOf(kind)", sel.Sel.Name)
				}
			}
		}
		return true
	})
	return out
}

// isSelector reports whether e is x.name.
func isSelector(e ast.Expr, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == name
}

// mentionsSelector reports whether e selects name somewhere (c.Sanitize.Fields
// selects Sanitize).
func mentionsSelector(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// mentions reports whether the type expression names name (Kind,
// *contract.Kind, []*Kind, ...).
func mentions(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// calls reports whether e is a call of a method or function named name.
func calls(e ast.Expr, name string) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch fn := c.Fun.(type) {
	case *ast.SelectorExpr:
		return fn.Sel.Name == name
	case *ast.Ident:
		return fn.Name == name
	}
	return false
}

// modelReaders parses the non-test Go files of every package under the
// module's internal/ and cmd/ (this package aside) that imports the model,
// by directory relative to the module root.
func modelReaders(t *testing.T, fset *token.FileSet) map[string][]*ast.File {
	t.Helper()
	root := filepath.Join("..", "..")
	byDir := map[string][]*ast.File{}
	readers := map[string]bool{}
	for _, top := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" || path == filepath.Join(root, "internal", "contract") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			dir, _ := filepath.Rel(root, filepath.Dir(path))
			dir = filepath.ToSlash(dir)
			byDir[dir] = append(byDir[dir], f)
			for _, imp := range f.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); p == modelImport {
					readers[dir] = true
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for dir := range byDir {
		if !readers[dir] {
			delete(byDir, dir)
		}
	}
	return byDir
}

// TestNoRederivationOutsideModel fails when a package reading the model
// derives a resolved value again.
func TestNoRederivationOutsideModel(t *testing.T) {
	fset := token.NewFileSet()
	pkgs := modelReaders(t, fset)
	// The emitters must be among the packages checked, or the guard checks
	// nothing.
	for _, dir := range []string{"internal/gengo", "internal/gents", "internal/genpy", "internal/gendocs", "internal/genvectors", "internal/genschema", "internal/compat"} {
		if len(pkgs[dir]) == 0 {
			t.Errorf("%s was not checked: it no longer imports the model, or moved", dir)
		}
	}
	dirs := make([]string, 0, len(pkgs))
	for dir := range pkgs {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		for _, f := range pkgs[dir] {
			for _, r := range rederivations(fset, f) {
				t.Errorf("%s: %s", r.pos, r.what)
			}
		}
	}
}

// TestRederivationsFound: the guard reports each shape it looks for, so a
// change to it that stops finding one fails here.
func TestRederivationsFound(t *testing.T) {
	const src = `package p

import (
	"log/slog"
	"slices"

	"github.com/errgen/errgen/internal/contract"
)

var _ slog.Level

func f(c *contract.Contract, r *contract.Rule, k *contract.Kind) {
	b := r.Kind.Breaker
	_ = k.Origin.Log
	by := map[int][]*contract.Kind{}
	by[k.HTTP] = nil
	_ = "http_"
	_ = c.SyntheticKindPrefix() + "502"
	_ = append(append([]*contract.Field(nil), c.ContextFields...), c.KindFields...)
	_ = slices.Contains(c.Sanitize.Fields, "message")
	_ = b
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rederivations(fset, f) {
		got = append(got, fmt.Sprintf("%d: %s", r.pos.Line, r.what[:strings.IndexByte(r.what, ':')]))
	}
	want := []string{
		"4: imports log/slog",
		"13: reads a rule's kind's breaker",
		"14: reads the origin's Log",
		"15: builds a map from int to kinds",
		"16: indexes by HTTP status",
		"17: spells a synthetic kind prefix",
		"18: appends to the synthetic kind prefix",
		"19: concatenates KindFields",
		"19: concatenates ContextFields",
		"20: searches the sanitized fields",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
