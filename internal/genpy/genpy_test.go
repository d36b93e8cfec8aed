package genpy

import (
	"bytes"
	"github.com/errgen/errgen/internal/synth"
	"path"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
)

// The Python package is type-checked and tested by tests/python (make
// test-python); these tests check what can be checked without Python.

func TestPyVersion(t *testing.T) {
	for in, want := range map[string]string{"1": "1.0.0", "0.1": "0.1.0", "2.3.4": "2.3.4", "v2": "0.0.0+v2", "..": "0.0.0+unversioned"} {
		if got := pyVersion("", in); got != want {
			t.Errorf("pyVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGenerate(t *testing.T) {
	runtime := map[string][]byte{}
	for p, c := range gentest.Contracts(t) {
		files := gentest.GenerateTwice(t, p, Generate, c)
		for name, data := range files {
			if !strings.HasPrefix(string(data), "# "+marker.Text) && !strings.HasPrefix(string(data), "<!-- "+marker.Text) {
				t.Errorf("%s: %s does not start with the marker", p, name)
			}
			if strings.HasSuffix(name, ".py") && strings.ContainsAny(string(data), "\u2028\u2029\x00") {
				t.Errorf("%s: %s holds a character Python source should not", p, name)
			}
		}
		for _, m := range RuntimeModules {
			data := files[path.Join(Dir(targets.Defaults(c.Name)), targets.Defaults(c.Name).Packages.Python, m)]
			if data == nil {
				t.Fatalf("%s: no %s", p, m)
			}
			if prev, ok := runtime[m]; ok && !bytes.Equal(prev, data) {
				t.Errorf("%s: runtime module %s depends on the contract", p, m)
			}
			runtime[m] = data
		}
	}
}

func TestErrorClassNames(t *testing.T) {
	c := gentest.Load(t, "../../examples/ovstorage/kinds.yaml")
	v, err := newView(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range v.GroupErrors {
		got["group "+e.Name] = e.Class + "(" + e.Parent + ")"
	}
	for _, e := range v.KindErrors {
		got["kind "+e.Name] = e.Class + "(" + e.Parent + ")"
	}
	for name, want := range map[string]string{
		"group NotFound":        "NotFoundError(OvstorageError)",        // groups take the plain name first
		"kind NotFound":         "NotFoundKindError(NotFoundError)",     // so the kind of the same name yields
		"group Permission":      "PermissionGroupError(OvstorageError)", // PermissionError is a Python builtin
		"kind PermissionDenied": "PermissionDeniedError(PermissionGroupError)",
	} {
		if got[name] != want {
			t.Errorf("%s: got %s, want %s", name, got[name], want)
		}
	}
	if v.BaseError != "OvstorageError" {
		t.Errorf("base class %s", v.BaseError)
	}
}

func TestSanitizePolicy(t *testing.T) {
	c := gentest.Load(t, "../gengo/testdata/escaping/kinds.yaml")
	files, err := Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	data := string(files[path.Join(Dir(targets.Defaults(c.Name)), targets.Defaults(c.Name).Packages.Python, "_contract.py")])
	for _, want := range []string{
		`SANITIZE_MAX_LENGTH = 100`,
		`SANITIZE_TRUNCATION_MARKER = " \u2026\"cut\"\\"`,
		`SANITIZE_MARKERS: Tuple[str, ...] = ("<\"quoted\">", "back\\slash", "*/", "` + "`tick`" + `")`,
		`    (("esc_", "ESC-"), "token", 8),`,
		`SANITIZED_FIELDS: Tuple[str, ...] = ("message",)`,
	} {
		if !strings.Contains(data, want) {
			t.Errorf("_contract.py lacks %s", want)
		}
	}
}

// TestDistAndImportNames sets a distribution name and an import name that
// differ (as a generation config may) and checks that pyproject.toml builds
// the one under the other with flit_core: project.name is the distribution,
// [tool.flit.module] the import name, whose folder holds the package and
// py.typed, and nothing of setuptools (which writes build/ and *.egg-info
// into the source folder) is left.
func TestDistAndImportNames(t *testing.T) {
	c := gentest.Load(t, "../../contract/kinds.yaml")
	opts := targets.Defaults(c.Name)
	opts.Packages.PythonDist = "acme-payments-errors"
	opts.Packages.Python = "acme_payments_errors"
	opts.Dirs[targets.Python] = "clients/py"
	files, err := Generate(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"clients/py/pyproject.toml", "clients/py/README.md", "clients/py/acme_payments_errors/__init__.py", "clients/py/acme_payments_errors/py.typed"} {
		if files[p] == nil {
			t.Errorf("no %s", p)
		}
	}
	for p := range files {
		if strings.Contains(p, "agent_error") || strings.Contains(p, "agent-error") {
			t.Errorf("%s is named after the contract, not the configured names", p)
		}
	}
	tables := tomlTables(string(files["clients/py/pyproject.toml"]))
	for _, want := range []struct{ table, key, value string }{
		{"build-system", "requires", `["flit_core>=3.12,<5"]`},
		{"build-system", "build-backend", `"flit_core.buildapi"`},
		{"project", "name", `"acme-payments-errors"`},
		{"project", "readme", `"README.md"`},
		{"tool.flit.module", "name", `"acme_payments_errors"`},
	} {
		if got := tables[want.table][want.key]; got != want.value {
			t.Errorf("[%s] %s = %s, want %s", want.table, want.key, got, want.value)
		}
	}
	for table := range tables {
		if strings.HasPrefix(table, "tool.setuptools") {
			t.Errorf("pyproject.toml still has [%s]", table)
		}
	}
	if readme := string(files["clients/py/README.md"]); !strings.Contains(readme, "# acme-payments-errors\n") || !strings.Contains(readme, "import acme_payments_errors") {
		t.Errorf("README.md names neither the distribution nor the import name:\n%s", readme)
	}
}

// tomlTables reads the one-line "key = value" pairs of each [table] of the
// pyproject.toml errgen writes (no multi-line values but its classifiers,
// which it skips).
func tomlTables(text string) map[string]map[string]string {
	tables := map[string]map[string]string{"": {}}
	table := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") && !strings.Contains(line, "="):
			table = strings.Trim(line, "[]")
			tables[table] = map[string]string{}
		default:
			if k, v, ok := strings.Cut(line, " = "); ok {
				tables[table][k] = v
			}
		}
	}
	return tables
}

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
		gentest.SameAsTextTemplate(t, p, pyTemplates, v)
	}
}

// TestPyStrIsPyLit holds py's quoting of strings, and its appending, to
// the printer's.
func TestPyStrIsPyLit(t *testing.T) {
	ins := []string{"", "plain", `q"uote`, `back\slash`, "new\nline", "é", "\xff", "\x7f", "~", " ", "\u2028"}
	for c := 0; c < 0x80; c++ {
		ins = append(ins, "a"+string(rune(c)))
	}
	for _, s := range ins {
		if got, want := pyStr(s), pyLit(s); got != want {
			t.Errorf("pyStr(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(quoter(pyStr).AppendString([]byte("x"), s)), "x"+pyLit(s); got != want {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestTemplatesAllocateLittle bounds the allocations of the templates that
// loop over the kinds, at 1,000 kinds, to 12 a kind: about 9 now (the
// quoted names), 61 with text/template, which allocates for every field
// it looks up and every function it calls.
func TestTemplatesAllocateLittle(t *testing.T) {
	const kinds = 1000
	c := gentest.LoadData(t, synth.Contract(kinds))
	v, err := newView(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	total := 0.0
	for _, name := range []string{"_contract.py.tmpl", "_constructors.py.tmpl", "__init__.py.tmpl", "_exceptions.py.tmpl"} {
		total += testing.AllocsPerRun(2, func() {
			buf.Reset()
			if err := pyTemplates.ExecuteTemplate(&buf, name, v); err != nil {
				t.Fatal(err)
			}
		})
	}
	if perKind := total / kinds; perKind > 12 {
		t.Errorf("the per-kind templates allocate %.1f times a kind, more than 12", perKind)
	}
}
