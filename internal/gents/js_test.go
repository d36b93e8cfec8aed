package gents

import (
	"bytes"
	"path"
	"strconv"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/synth"
	"github.com/errgen/errgen/internal/targets"
	"github.com/errgen/errgen/internal/tscompile"
	"github.com/errgen/errgen/internal/tsdecl"
)

// The JavaScript of the contract's modules, written from the view (js.go),
// is byte for byte what esbuild compiles their TypeScript to, and their
// declarations, made from less than the whole modules (decl.go), are
// tsdecl's of the whole modules: on every test contract (the reference,
// the examples, internal/gengo's, among them one whose every text is hard
// to quote, and testdata/sanitized, whose constructors sanitize required
// fields) and a synthetic one large enough that the tables are left out.
func TestContractModulesMatchCompilation(t *testing.T) {
	contracts := gentest.Contracts(t, "testdata/*/kinds.yaml")
	contracts["synth"] = gentest.LoadData(t, synth.Contract(200))
	withTypes, sanitizes := false, false
	for p, c := range contracts {
		o := targets.Defaults(c.Name)
		v, err := newView(c, o)
		if err != nil {
			t.Fatal(err)
		}
		files, err := Generate(c, o)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, module := range []string{"contract", "constructors"} {
			src := files[path.Join(Dir(o), "src", module+".ts")]
			want, err := tscompile.Esbuild(headerOf(src), module, src)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if got := files[path.Join(Dir(o), "dist", module+".js")]; string(got) != string(want) {
				t.Errorf("%s: dist/%s.js differs from esbuild's compilation:\n%s", p, module, firstDiff(got, want))
			}
			full, err := tsdecl.Emit("src/"+module+".ts", string(src))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := files[path.Join(Dir(o), "dist", module+".d.ts")], []byte(headerOf(src)+"\n"+full); string(got) != string(want) {
				t.Errorf("%s: dist/%s.d.ts differs from the declarations of the whole module:\n%s", p, module, firstDiff(got, want))
			}
		}
		// The short cuts are taken: every contract's constructors are
		// where the template writes them, and a large contract's tables
		// are left out.
		constructors := files[path.Join(Dir(o), "src/constructors.ts")]
		if _, _, decls := constructorRun(v, constructors); decls == nil {
			t.Errorf("%s: the constructors are not found in src/constructors.ts", p)
		}
		withTypes = withTypes || len(v.ConstructorTypes) > 0
		sanitizes = sanitizes || v.SanitizesRequired && len(v.RequiredContext) > 0
		src := files[path.Join(Dir(o), "src/contract.ts")]
		cut := withoutTables(src, v)
		if p == "synth" && (len(cut) > len(src)/2 || !bytes.Contains(cut, []byte("CLASSIFICATIONS: { readonly [K in KnownKind]: Classification & { readonly kind: K } } = deepFreeze(null);"))) {
			t.Errorf("%s: the tables are not left out: %d bytes of %d", p, len(cut), len(src))
		}
	}
	if !withTypes || !sanitizes {
		t.Errorf("no test contract has a constructor that takes an object type of its own (%v) or sanitizes a required field and context (%v)", withTypes, sanitizes)
	}
}

// headerOf is the first line of a generated file.
func headerOf(src []byte) string {
	for i, c := range src {
		if c == '\n' {
			return string(src[:i])
		}
	}
	return string(src)
}

// firstDiff shows the line where got and want first differ.
func firstDiff(got, want []byte) string {
	line, start := 1, 0
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i] != want[i] {
			start = max(start, i-60)
			end := min(i+60, len(got), len(want))
			return "line " + strconv.Itoa(line) + ":\n got " + string(got[start:end]) + "\nwant " + string(want[start:end])
		}
		if got[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return "one is a prefix of the other (lengths " + strconv.Itoa(len(got)) + ", " + strconv.Itoa(len(want)) + ")"
}
