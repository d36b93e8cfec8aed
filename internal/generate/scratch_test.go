package generate

import (
	"path"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
)

// TestScratchIsNotErrgens: copies of generated files that build tools leave
// in an emitter's directory (setuptools' build/lib and *.egg-info,
// node_modules of a consumer that installed another errgen package) carry
// errgen's header line, yet Plan neither deletes nor reports them; the same
// names outside the owning emitter's scratch, or a scratch name that holds
// generated files, are errgen's as before.
func TestScratchIsNotErrgens(t *testing.T) {
	root := t.TempDir()
	py, ts, md := "# "+marker.Text+"\n", "// "+marker.Text+"\n", "<!-- "+marker.Text+" -->\n"
	out := &Output{
		Files: map[string][]byte{
			"gen/py/pkg/__init__.py":   []byte(py),
			"gen/py/build/__init__.py": []byte(py), // a package whose import name is "build"
			"gen/ts/index.ts":          []byte(ts),
		},
		Dirs: []string{"gen/py", "gen/ts"},
		Scratch: map[string][]string{
			"gen/py": {"build/", "dist/", "*.egg-info/", "__pycache__/", "tmp*/"},
			"gen/ts": {"node_modules/", "*.tgz"},
		},
	}
	disk := map[string]string{
		"gen/py/pkg/__init__.py":                  py,
		"gen/py/build/__init__.py":                py,
		"gen/py/dist/lib/pkg/__init__.py":         py,
		"gen/py/pkg.egg-info/README.md":           md,
		"gen/py/pkg/__pycache__/copy.py":          py,
		"gen/ts/index.ts":                         ts,
		"gen/ts/node_modules/@acme/errs/index.ts": ts,
		"gen/ts/node_modules/.package-lock.json":  "{}\n",
		"gen/py/build/stale.py":                   py, // build/ holds generated files: errgen's
		"gen/py/tmp1/copy.py":                     py,
		"gen/py/tmp.py":                           py, // a file, where the pattern names directories
		"gen/py/pkg/stale.py":                     py,
		"gen/ts/dist/index.ts":                    ts, // dist/ is TypeScript's output, not its scratch
		"gen/ts/node_modules.ts":                  ts,
		"gen/other/node_modules/x/index.ts":       ts, // in no emitter's directory: never errgen's
	}
	gentest.WriteTree(t, root, disk)
	_, got := planOps(t, root, out)
	want := "delete gen/py/build/stale.py,delete gen/py/pkg/stale.py,delete gen/py/tmp.py,delete gen/ts/dist/index.ts,delete gen/ts/node_modules.ts"
	if strings.Join(got, ",") != want {
		t.Errorf("Plan = %v,\nwant %s", got, want)
	}
	// Without the declarations the same tree is all errgen's stale files:
	// what the test shows is the scratch rule, not the header rule.
	out.Scratch = nil
	if changes, _ := planOps(t, root, out); len(changes) != 10 {
		t.Errorf("without scratch patterns, Plan = %d changes, want 10", len(changes))
	}
}

// TestScratchDeclarations: Generate carries each emitter's patterns under
// its directory, and every pattern is one valid path element.
func TestScratchDeclarations(t *testing.T) {
	c := loadReference(t)
	out, err := Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range Emitters {
		if got, want := strings.Join(out.Scratch[e.Dir(targets.Defaults(c.Name))], " "), strings.Join(e.Scratch, " "); got != want {
			t.Errorf("%s: Output.Scratch[%s] = %q, want %q", e.Name, e.Dir(targets.Defaults(c.Name)), got, want)
		}
		for _, p := range e.Scratch {
			name := strings.TrimSuffix(p, "/")
			if _, err := path.Match(name, "x"); err != nil || name == "" || strings.Contains(name, "/") || name == "." || name == ".." {
				t.Errorf("%s: scratch pattern %q is not one path element (%v)", e.Name, p, err)
			}
		}
	}
	for dir, patterns := range map[string][]string{targets.Defaults(c.Name).Dir(targets.Python): {"build/", "*.egg-info/", "__pycache__/"}, targets.Defaults(c.Name).Dir(targets.TypeScript): {"node_modules/"}} {
		for _, p := range patterns {
			if !strings.Contains(" "+strings.Join(out.Scratch[dir], " ")+" ", " "+p+" ") {
				t.Errorf("%s: %s is not declared scratch", dir, p)
			}
		}
	}
	for _, p := range out.Scratch[targets.Defaults(c.Name).Dir(targets.TypeScript)] {
		if strings.TrimSuffix(p, "/") == "dist" {
			t.Errorf("%s: dist/ is the TypeScript package's output, never its scratch", targets.Defaults(c.Name).Dir(targets.TypeScript))
		}
	}
}
