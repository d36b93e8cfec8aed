package gents

import (
	"path"
	"strconv"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/targets"
	"github.com/errgen/errgen/internal/tscompile"
)

// The JavaScript of the contract's modules, written from the view (js.go),
// is byte for byte what esbuild compiles their TypeScript to, on every
// test contract: the reference, the examples, and internal/gengo's, among
// them one whose every text is hard to quote.
func TestJSMatchesEsbuild(t *testing.T) {
	for p, c := range gentest.Contracts(t) {
		o := targets.Defaults(c.Name)
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
		}
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
