package errgen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxFuncLines is the most lines a hand-written Go function in internal/
// may have, from its func line to its closing brace (issue 31): a longer
// one is split into steps whose names say what each does.
const maxFuncLines = 120

// longFuncsAllowed are the functions still over maxFuncLines, by
// "file function": none. The test fails when one of them is back under the
// limit, so that its entry goes too.
var longFuncsAllowed = map[string]bool{}

// TestNoLongFunctions fails for every hand-written function in internal/
// (tests included, testdata and generated files not) over maxFuncLines.
func TestNoLongFunctions(t *testing.T) {
	fset := token.NewFileSet()
	var long []string
	err := filepath.WalkDir("internal", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			// Pos is the func keyword's: the doc comment does not count.
			if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > maxFuncLines {
				long = append(long, filepath.ToSlash(path)+" "+fn.Name.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(long)
	found := map[string]bool{}
	for _, l := range long {
		found[l] = true
		if !longFuncsAllowed[l] {
			t.Errorf("%s is over %d lines: split it into named steps", l, maxFuncLines)
		}
	}
	for l := range longFuncsAllowed {
		if !found[l] {
			t.Errorf("%s is no longer over %d lines: remove it from longFuncsAllowed", l, maxFuncLines)
		}
	}
}
