package gents

import (
	"bytes"
	"encoding/json"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
	"github.com/errgen/errgen/internal/tscompile"
)

// Every source module ships compiled: dist/ holds a .js and a .d.ts for
// each src/*.ts and nothing else, each with the header, the same bytes on
// every run (the contract's modules are compiled again; tscompile's tests
// compile the cached runtime modules again). tests/ts checks that they work: the runtime tests run the .js,
// the type-level tests compile against the .d.ts, which must agree with
// tsc's declarations of the sources.
func TestDist(t *testing.T) {
	for p, c := range gentest.Contracts(t) {
		files, err := Generate(c, targets.Defaults(c.Name))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var want, got []string
		for name := range files {
			rel := strings.TrimPrefix(name, Dir(targets.Defaults(c.Name))+"/")
			if module, ok := strings.CutPrefix(rel, "src/"); ok {
				module = strings.TrimSuffix(module, ".ts")
				want = append(want, "dist/"+module+".d.ts", "dist/"+module+".js")
			}
			if strings.HasPrefix(rel, "dist/") {
				got = append(got, rel)
			}
		}
		sort.Strings(want)
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(want, " ") || len(want) == 0 {
			t.Errorf("%s: dist/ holds %v, want %v", p, got, want)
		}
		again, err := Generate(c, targets.Defaults(c.Name))
		if err != nil {
			t.Fatal(err)
		}
		for _, rel := range got {
			name := path.Join(Dir(targets.Defaults(c.Name)), rel)
			data := files[name]
			if !bytes.Equal(data, again[name]) {
				t.Errorf("%s: %s differs between two compilations", p, rel)
			}
			if !bytes.HasPrefix(data, []byte("// "+marker.Text+"\n")) || !bytes.HasSuffix(data, []byte("\n")) || bytes.HasSuffix(data, []byte("\n\n")) {
				t.Errorf("%s: %s does not start with the header line or end with exactly one newline", p, rel)
			}
		}
		// Readable, not minified: the JavaScript keeps the source's
		// names and one statement a line.
		js := string(files[path.Join(Dir(targets.Defaults(c.Name)), "dist/codec.js")])
		for _, want := range []string{"function parseEnvelope(input, opts) {", `import { decodeUtf8 } from "./utf8.js";`, "\nexport {\n"} {
			if !strings.Contains(js, want) {
				t.Errorf("%s: dist/codec.js lacks %q", p, want)
			}
		}
		dts := string(files[path.Join(Dir(targets.Defaults(c.Name)), "dist/codec.d.ts")])
		for _, want := range []string{"export declare function parseEnvelope(input: unknown, opts?: ReadOptions): ParseResult;", "export interface DecodeError {"} {
			if !strings.Contains(dts, want) {
				t.Errorf("%s: dist/codec.d.ts lacks %q", p, want)
			}
		}
	}
}

// The package files point at what ships, and nothing builds inside the
// package: the tsconfig emits nothing (errgen's dist/ is never
// overwritten), enforces isolatedDeclarations (what tsdecl relies on) and
// targets what esbuild compiles for; package.json has no scripts.
func TestPackageFiles(t *testing.T) {
	c := gentest.Load(t, "../gengo/testdata/minimal/kinds.yaml")
	files, err := Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	var tsconfig struct {
		CompilerOptions map[string]any `json:"compilerOptions"`
	}
	if err := json.Unmarshal(files[path.Join(Dir(targets.Defaults(c.Name)), "tsconfig.json")], &tsconfig); err != nil {
		t.Fatal(err)
	}
	opts := tsconfig.CompilerOptions
	if opts["noEmit"] != true || opts["isolatedDeclarations"] != true || opts["outDir"] != nil {
		t.Errorf("tsconfig.json: noEmit %v, isolatedDeclarations %v, outDir %v", opts["noEmit"], opts["isolatedDeclarations"], opts["outDir"])
	}
	if targets := map[any]api.Target{"ES2022": api.ES2022, "ES2023": api.ES2023, "ES2024": api.ES2024}; targets[opts["target"]] != tscompile.Target {
		t.Errorf("tsconfig.json targets %v, esbuild %v", opts["target"], tscompile.Target)
	}
	var pkg struct {
		Main, Types string
		Files       []string
		Exports     map[string]any
		Scripts     map[string]any
	}
	if err := json.Unmarshal(files[path.Join(Dir(targets.Defaults(c.Name)), "package.json")], &pkg); err != nil {
		t.Fatal(err)
	}
	dot, _ := pkg.Exports["."].(map[string]any)
	for _, ref := range []any{pkg.Main, pkg.Types, dot["types"], dot["default"]} {
		s, _ := ref.(string)
		if _, ok := files[path.Join(Dir(targets.Defaults(c.Name)), s)]; !ok || !strings.HasPrefix(s, "./dist/") {
			t.Errorf("package.json points at %v, which is not generated in dist/", ref)
		}
	}
	if len(pkg.Files) != 1 || pkg.Files[0] != "dist" || pkg.Scripts != nil {
		t.Errorf("package.json: files %v, scripts %v", pkg.Files, pkg.Scripts)
	}
}

// A scoped npm name (a generation config may set one) is the package's
// name and what its README imports.
func TestScopedNPMName(t *testing.T) {
	c := gentest.Load(t, "../gengo/testdata/minimal/kinds.yaml")
	opts := targets.Defaults(c.Name)
	opts.Packages.NPM = "@acme/payments-errors"
	files, err := Generate(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Name string }
	if err := json.Unmarshal(files[path.Join(Dir(targets.Defaults(c.Name)), "package.json")], &pkg); err != nil || pkg.Name != "@acme/payments-errors" {
		t.Errorf("package.json name %q (%v)", pkg.Name, err)
	}
	readme := string(files[path.Join(Dir(targets.Defaults(c.Name)), "README.md")])
	if !strings.Contains(readme, "\n# @acme/payments-errors\n") {
		t.Errorf("README.md's title is not the scoped name:\n%s", readme)
	}
	imports := strings.Count(readme, `} from "@acme/payments-errors";`)
	if imports == 0 || imports != strings.Count(readme, "} from \"") {
		t.Errorf("README.md: %d import lines of the scoped name, of %d:\n%s", imports, strings.Count(readme, "} from \""), readme)
	}
}
