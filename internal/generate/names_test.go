package generate

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/naming"
	"github.com/errgen/errgen/internal/targets"
)

// corpus is every contract the repository holds that loads: the reference,
// the examples and the test contracts, so every optional part of the
// templates (inbound, layouts, sanitizer, numbers) is generated at least once.
func corpus(t *testing.T) []*contract.Contract {
	t.Helper()
	var out []*contract.Contract
	for _, f := range gentest.Glob(t, "../../contract/kinds.yaml", "../../examples/*/kinds.yaml",
		"../contract/testdata/valid/*/kinds.yaml", "../gengo/testdata/*/kinds.yaml") {
		c, err := contract.LoadFile(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, c)
	}
	return out
}

// corpusOutput holds the corpus and what Generate makes of each contract,
// computed once for the tests that only read them (TestNoImportCycles,
// TestPackageNamesAreComplete) rather than once in each.
var corpusOutput struct {
	once      sync.Once
	contracts []*contract.Contract
	outputs   []*Output
	err       error
}

// generatedCorpus returns the corpus and each contract's output, in the
// same order; a contract Generate refuses fails the test.
func generatedCorpus(t *testing.T) ([]*contract.Contract, []*Output) {
	t.Helper()
	corpusOutput.once.Do(func() {
		corpusOutput.contracts = corpus(t)
		for _, c := range corpusOutput.contracts {
			out, err := Generate(c, targets.Defaults(c.Name))
			if err != nil {
				corpusOutput.err = fmt.Errorf("%s: %w", c.File, err)
				return
			}
			corpusOutput.outputs = append(corpusOutput.outputs, out)
		}
	})
	if corpusOutput.err != nil {
		t.Fatal(corpusOutput.err)
	}
	if len(corpusOutput.outputs) == 0 {
		t.Fatal("no contract in the corpus")
	}
	return corpusOutput.contracts, corpusOutput.outputs
}

var (
	// Top-level declarations and imported names, by the shape of the
	// generated code (one declaration per line, at column 0).
	tsDecl     = regexp.MustCompile(`(?m)^(?:export )?(?:declare )?(?:async )?(?:function\*?|const|let|var|class|interface|type|enum) +([A-Za-z_$][\w$]*)`)
	tsImport   = regexp.MustCompile(`(?ms)^import (?:type )?\{([^}]*)\} from`)
	tsExport   = regexp.MustCompile(`(?ms)^export (?:type )?\{([^}]*)\}`)
	pyDecl     = regexp.MustCompile(`(?m)^(?:def|class) +([A-Za-z_]\w*)|^([A-Za-z_]\w*) *(?::[^=\n]*)?=`)
	pyImport   = regexp.MustCompile(`(?ms)^from [\w.]+ import (?:\(([^)]*)\)|([^\n]*))`)
	pascalCase = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
)

// declared returns the names the generated package of lang declares at its
// top level (Go: also Envelope's methods), from every file of out.
func declared(t *testing.T, lang naming.Lang, out *Output) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for p, data := range out.Files {
		switch {
		case lang == naming.Go && strings.HasSuffix(p, ".go") && strings.HasPrefix(p, "gen/go/"):
			f, err := parser.ParseFile(token.NewFileSet(), p, data, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					// Envelope's exported methods are the loader's
					// GoEnvelopeMembers; its unexported ones share a
					// namespace with the init... method of each kind.
					if d.Recv == nil || recvName(d) == "Envelope" && !token.IsExported(d.Name.Name) {
						names[d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							names[s.Name.Name] = true
						case *ast.ValueSpec:
							for _, n := range s.Names {
								names[n.Name] = true
							}
						}
					}
				}
			}
		case lang == naming.TypeScript && tsPublic[path.Base(p)] && strings.HasPrefix(p, "gen/ts/"):
			// Contract names land in constructors.ts (new..., classify...)
			// and contract.ts (interfaces), which index.ts re-exports
			// whole: their scopes and the package's exports are one
			// namespace; the other modules' private names are their own.
			for _, m := range tsDecl.FindAllSubmatch(data, -1) {
				names[string(m[1])] = true
			}
			for _, m := range tsExport.FindAllSubmatch(data, -1) {
				for _, n := range strings.Split(string(m[1]), ",") {
					if f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(n), "type ")); len(f) > 0 {
						names[f[len(f)-1]] = true
					}
				}
			}
			for _, m := range tsImport.FindAllSubmatch(data, -1) {
				for _, n := range strings.Split(string(m[1]), ",") {
					if f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(n), "type ")); len(f) > 0 {
						names[f[len(f)-1]] = true // a name "as" another counts as the other
					}
				}
			}
		case lang == naming.Python && strings.HasSuffix(p, ".py") && strings.HasPrefix(p, "gen/python/"):
			for _, m := range pyDecl.FindAllSubmatch(data, -1) {
				names[string(m[1])+string(m[2])] = true
			}
			for _, m := range pyImport.FindAllSubmatch(data, -1) {
				for _, n := range strings.Split(string(m[1])+string(m[2]), ",") {
					n = strings.TrimSpace(strings.SplitN(n, "#", 2)[0])
					if f := strings.Fields(n); len(f) > 0 {
						names[f[len(f)-1]] = true
					}
				}
			}
		}
	}
	return names
}

func recvName(d *ast.FuncDecl) string {
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// reachable says whether a contract name can become id in lang's generated
// package: through a kind's, a classifier's or a value's prefixed name, or
// as the type an emitter names after a field (any exported Go name, any
// PascalCase TypeScript or Python name).
func reachable(lang naming.Lang, id string) bool {
	prefixed := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if rest, ok := strings.CutPrefix(id, p); ok && rest != "" && (rest[0] >= 'A' && rest[0] <= 'Z' || rest[0] >= '0' && rest[0] <= '9' || strings.HasSuffix(p, "_")) {
				return true
			}
		}
		return false
	}
	switch lang {
	case naming.Go:
		return token.IsExported(id) || prefixed("init", "owned")
	case naming.TypeScript:
		return pascalCase.MatchString(id) || prefixed("new", "classify")
	}
	return pascalCase.MatchString(id) || prefixed("new_", "classify_")
}

// fromContract says whether id is a name the emitters made from one of the
// contract's names (and so is no fixed name of the package).
func fromContract(c *contract.Contract, lang naming.Lang, id string) bool {
	var derived []string
	add := func(prefix string, get func(contract.Idents) string, vs ...*contract.Value) {
		for _, v := range vs {
			derived = append(derived, prefix+get(v.Idents))
		}
	}
	goID := func(i contract.Idents) string { return i.Go }
	tsType := func(i contract.Idents) string { return i.TSType }
	pyLocal := func(i contract.Idents) string { return strings.TrimSuffix(i.PythonLocal, "_") }
	kinds := contract.Values(c.Kinds)
	var classifiers []*contract.Value
	if c.Inbound != nil {
		for _, cl := range c.Inbound.Classifiers {
			classifiers = append(classifiers, &contract.Value{Name: cl.Name, Idents: cl.Idents})
		}
	}
	// Types named after an object field, a group, a kind or the contract
	// (Python's exception classes) carry its TSType or Go name first.
	var typeBases []string
	var fields func([]*contract.Field)
	fields = func(fs []*contract.Field) {
		for _, f := range fs {
			typeBases = append(typeBases, f.Idents.Go, f.Idents.TSType)
			fields(f.Properties)
		}
	}
	fields(c.ContextFields)
	fields(c.KindFields)
	switch lang {
	case naming.Go:
		add("Kind", goID, kinds...)
		add("New", goID, kinds...)
		add("init", goID, kinds...)
		add("Origin", goID, contract.Values(c.Origins)...)
		add("RecoveryAction", goID, contract.Values(c.Actions)...)
		add("SameArguments", goID, contract.Values(c.SameArguments)...)
		add("SideEffects", goID, contract.Values(c.SideEffects)...)
		add("Group", goID, contract.Values(c.Groups)...)
		add("Classify", goID, classifiers...)
		for _, o := range c.Layout.Objects {
			derived = append(derived, "owned"+o.Idents.Go)
		}
		for _, f := range append(append([]*contract.Field(nil), c.ContextFields...), c.KindFields...) {
			derived = append(derived, f.Idents.Go, "With"+f.Idents.Go)
		}
		for _, lf := range c.Layout.Leaves {
			derived = append(derived, lf.Idents.Go)
		}
	case naming.TypeScript:
		add("new", tsType, kinds...)
		add("classify", tsType, classifiers...)
	case naming.Python:
		add("new_", pyLocal, kinds...)
		add("classify_", pyLocal, classifiers...)
		for _, v := range append(contract.Values(c.Groups), kinds...) {
			typeBases = append(typeBases, v.Idents.TSType)
		}
		typeBases = append(typeBases, naming.TSType(c.Name))
	}
	for _, d := range derived {
		if d == id {
			return true
		}
	}
	for _, b := range typeBases {
		if b != "" && strings.HasPrefix(id, b) {
			return true
		}
	}
	return false
}

// TestPackageNamesAreComplete: the loader rejects a kind, classifier or
// value whose generated name would land on a name the generated package
// declares itself, and the emitters keep the types they name after fields
// off those names. Both read the Package rows of internal/naming's table;
// this test generates every test contract and fails for each name the
// generated code declares that a contract name can reach but the table
// lacks (issue 15: a kind named envelope, a classifier named with).
func TestPackageNamesAreComplete(t *testing.T) {
	missing := map[naming.Lang]map[string]bool{}
	cs, outs := generatedCorpus(t)
	for i, c := range cs {
		out := outs[i]
		for _, lang := range []naming.Lang{naming.Go, naming.TypeScript, naming.Python} {
			for id := range declared(t, lang, out) {
				if !reachable(lang, id) || fromContract(c, lang, id) || naming.Is(lang, naming.Package, id) {
					continue
				}
				if missing[lang] == nil {
					missing[lang] = map[string]bool{}
				}
				missing[lang][id] = true
			}
		}
	}
	for lang, ids := range missing {
		var list []string
		for id := range ids {
			list = append(list, id)
		}
		sort.Strings(list)
		t.Errorf("the generated %s package declares names the Package row of internal/naming's table lacks; add them:\n%s", lang, wrap(list))
	}
}

func wrap(words []string) string {
	var b strings.Builder
	line := 0
	for _, w := range words {
		if line+len(w) > 100 {
			b.WriteString("\n")
			line = 0
		} else if line > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}

// tsPublic are the TypeScript modules whose names share the namespace of
// the names made from the contract.
var tsPublic = map[string]bool{"constructors.ts": true, "contract.ts": true, "index.ts": true}
