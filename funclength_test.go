package errgen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
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

// maxGengoLines bounds internal/gengo's hand-written, non-test Go (issue
// 31): the Go emitter prints what the contract shapes (types, enums,
// constructors, the classification table, the encoder and the tables the
// runtime reads); logic the same for every contract belongs in runtime/go,
// and doc-and-table files in templates/go. Growing past the bound is the
// sign that something contract-independent is being emitted again.
const maxGengoLines = 2600

func TestGengoStaysContractShaped(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("internal", "gengo", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += strings.Count(string(data), "\n")
	}
	if lines >= maxGengoLines {
		t.Errorf("internal/gengo has %d lines of non-test Go, at or over %d: move contract-independent code to runtime/go (a real file the runtime's tests cover) or doc-and-table output to templates/go", lines, maxGengoLines)
	}
}
