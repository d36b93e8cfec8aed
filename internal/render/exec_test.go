package render

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"text/template"
)

// The data of TestCompiledMatchesTextTemplate: every kind of value the
// compiled programs treat apart (strings, named strings, Stringers,
// integers, booleans, pointers that may be nil, slices, maps, interfaces,
// methods on values and on pointers, embedded structs).
type (
	named string
	strer int
	fmtd  string // has Format, which fmt.Fprint calls
	leaf  struct{ S string }
	inner struct {
		S, T  string
		N     int
		U     uint8
		F     float64
		B     bool
		Named named
		Str   strer
		Fm    fmtd
		P     *inner
		L     []string
		M     map[string]string
		Any   any
		Leaf  leaf
	}
	outer struct {
		inner
		Items []inner
		Ptrs  []*inner
		Opt   *inner
		Anys  []any
		Arr   [2]string
	}
)

func (s strer) String() string            { return fmt.Sprintf("strer(%d)", int(s)) }
func (f fmtd) Format(s fmt.State, _ rune) { fmt.Fprintf(s, "F(%s)", string(f)) }
func (i *inner) Wrap(s string) string     { return "<" + s + ">" }
func (i inner) Twice() int                { return 2 * i.N }
func (i *inner) Check() (string, error)   { return checked(i.S) }
func (o *outer) Count(xs []inner) int     { return len(xs) }

// quote is a function with an appending form (Appender).
type quote func(string) string

func (quote) AppendString(dst []byte, s string) []byte { return strconv.AppendQuote(dst, s) }

func checked(s string) (string, error) {
	if strings.Contains(s, "!") {
		return "", errors.New("a bang")
	}
	return "ok:" + s, nil
}

var testFuncs = template.FuncMap{
	"up":    strings.ToUpper,
	"q":     quote(strconv.Quote),
	"lit":   func(v any) string { return fmt.Sprintf("%q", v) },
	"leafS": func(l *leaf) string { return "leaf " + l.S },
	"check": checked,
	"boom": func(s string) string {
		if s == "" {
			panic("empty")
		}
		return s
	},
	"pair": func(a string, n int) string { return a + strings.Repeat("+", n%4) },
	"join": func(sep string, xs []string) string { return strings.Join(xs, sep) },
	"incp": func(p *int) int { return *p + 1 },
	"not":  nil, // placeholder, removed below: a set may override a builtin
}

func init() { delete(testFuncs, "not") }

// compiledTemplates cover the subset the programs compile; fallback ones
// use what they hand to text/template.
var compiledTemplates = map[string]string{
	"text":      `plain text only`,
	"fields":    `{{.S}}|{{.N}}|{{.U}}|{{.F}}|{{.B}}|{{.Named}}|{{.Str}}|{{.Leaf}}|{{.Leaf.S}}|{{.L}}|{{.Any}}|{{.Opt}}|{{.Arr}}|{{.Fm}}{{with .Opt}}{{.Fm}}{{end}}`,
	"ptr":       `{{.Opt.S}}/{{.Opt.N}}/{{.P}}`,
	"deep":      `{{with .Opt}}{{.P.P.S}}{{end}}`,
	"if":        `{{if .S}}s{{else if .N}}n{{else if .L}}l{{else}}none{{end}}{{if .Opt}}opt{{end}}{{if .Any}}any{{end}}{{if .M}}m{{end}}`,
	"with":      `{{with .S}}[{{.}}]{{else with .T}}({{.}}){{else}}-{{end}}{{with .Opt}}{{.S}}{{.Twice}}{{end}}{{with $x := .N}}{{$x}}{{.}}{{end}}`,
	"range":     `{{range $i, $e := .Items}}{{if $i}}, {{end}}{{$i}}={{$e.S}}{{.N}}{{$.S}}{{else}}empty{{end}}`,
	"range1":    `{{range $e := .L}}<{{$e}}>{{end}}{{range .Ptrs}}{{.S}};{{end}}{{range .Arr}}{{.}}{{end}}{{range .Opt.L}}{{.}}{{end}}`,
	"break":     `{{range $i, $e := .Items}}{{if eq $e.N 3}}{{break}}{{end}}{{if $e.B}}{{continue}}{{end}}{{$e.S}}{{end}}`,
	"nested":    `{{range .Items}}{{$outer := .}}{{range .L}}{{$outer.S}}:{{.}} {{end}}{{end}}`,
	"vars":      `{{$a := .S}}{{$b := .Items}}{{$a}}{{range $b}}{{$a}}{{.T}}{{end}}{{$a}}`,
	"funcs":     `{{up .S}}{{lit .S}}{{lit .N}}{{lit .Named}}{{leafS .Leaf}}{{pair .S .N}}{{join "," .L}}{{lit "const"}}{{lit 3}}{{lit 2.5}}{{lit true}}{{pair "x" 2}}{{q .S}}{{q "c"}}{{with .T}}{{q .}}{{end}}{{if q .S}}y{{end}}{{up (q .S)}}`,
	"errfunc":   `{{check .S}}`,
	"panic":     `{{boom .T}}`,
	"methods":   `{{.Wrap .S}}{{.Twice}}{{.Check}}{{.Count .Items}}{{with .Opt}}{{.Wrap "in"}}{{end}}`,
	"builtins":  `{{not .S}}{{and .S .T}}{{or .S .T}}{{and .N .B}}{{or .Opt .P}}{{not .Opt}}{{eq .S "a"}}{{eq .N 1 2 3}}{{eq .B true}}{{eq .F 0.5}}`,
	"eqmix":     `{{eq .N .U}}{{eq .S .N}}{{eq .Any "x"}}`,
	"len":       `{{len .L}}{{len .S}}{{len .M}}{{len .Arr}}{{len .Items}}{{if eq (len .L) 1}}one{{end}}`,
	"index":     `{{index .L 0}}{{printf "%v" (index .Items 1)}}`,
	"index2":    `{{index .L 1}}{{index .M "k"}}{{index .Arr 1}}{{index .S 0}}{{(index .Items 0).S}}{{index .Anys 0}}`,
	"print":     `{{print .S .N}}{{printf "%s-%s" .S .T}}{{printf "%d/%q" .N .S}}{{println .B}}{{printf "%s" .Named}}{{printf "x%sy" .S}}{{printf "100%%"}}`,
	"pipes":     `{{up (printf "%s:%s" .S .T)}}{{(index .Items 0).Leaf.S}}{{lit (up .S)}}`,
	"map":       `{{.M.k}}{{.M.other}}`,
	"anys":      `{{range .Anys}}[{{.}}]{{if .}}t{{end}}{{end}}`,
	"dotprint":  `{{.}}`,
	"constants": `{{"str"}}{{1}}{{1.5}}{{true}}{{0x10}}{{'a'}}{{1e3}}`,
	// A variable the then list (or a range's body) declares is not the
	// else list's, on this run or a later one.
	"ifscope":    `{{$x := .S}}{{range .Items}}{{if .B}}{{$x := .T}}{{$x}}{{else}}{{$x}}{{end}};{{end}}`,
	"rangescope": `{{$x := .S}}{{range .Items}}{{range .L}}{{$x := .}}{{else}}{{$x}}{{end}};{{end}}`,
	// A break in a range's else list ends that range only; a continue
	// goes on to the outer one.
	"elsebreak": `{{range .Items}}{{.S}}{{range .L}}{{.}}{{else}}{{break}}x{{end}}{{.T}}|{{end}}after{{range .Items}}{{range .L}}{{else}}{{continue}}{{end}}{{.S}}{{end}}`,
	// A range whose pipeline declares a variable of its own: the else
	// list's $e is the pipeline's value.
	"rangeparen": `{{range $e := ($x := .L)}}{{$e}}{{$x}}{{else}}{{$e}}{{$x}}{{end}}`,
	// eq evaluates every argument, the ones after an equal one too.
	"eqall": `{{eq .N .N .Opt.N}}`,
}

var fallbackTemplates = map[string]string{
	"maprange": `{{range $k, $v := .M}}{{$k}}={{$v}};{{end}}`,
	"chain":    `{{.S | up}}{{.N | printf "%d"}}`,
	"assign":   `{{$x := 1}}{{if .B}}{{$x = 2}}{{end}}{{$x}}`,
	"call":     `{{define "sub"}}[{{.}}]{{end}}{{template "sub" .S}}`,
	"anyfield": `{{range .Anys}}{{.S}}{{end}}`,
	"rangeint": `{{range .N}}{{.}}{{end}}`,
	"badarg":   `{{q .Named}}`,
	// text/template will not take the address of a range's index.
	"indexaddr": `{{range $i, $e := .L}}{{incp $i}}{{end}}`,
	// A variable of the then list is undefined in the else list.
	"undefined": `{{if .B}}{{$y := .S}}{{else}}{{$y}}{{end}}`,
	// A variable declared where and may not evaluate it.
	"anddecl": `{{and .B ($x := .S)}}{{$x}}`,
}

func randText(r *rand.Rand) string {
	pieces := []string{"", "a", "x", "!", "é", "\n", "<b>", "%s", "\"q\"", "\xff", "  ", "k"}
	var b strings.Builder
	for range r.IntN(4) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func randInner(r *rand.Rand, depth int) inner {
	in := inner{
		S: randText(r), T: randText(r), N: r.IntN(5) - 1, U: uint8(r.IntN(3)), F: float64(r.IntN(3)) / 2,
		B: r.IntN(2) == 0, Named: named(randText(r)), Str: strer(r.IntN(3)), Fm: fmtd(randText(r)), Leaf: leaf{randText(r)},
	}
	if depth > 0 && r.IntN(2) == 0 {
		p := randInner(r, depth-1)
		in.P = &p
	}
	for range r.IntN(3) {
		in.L = append(in.L, randText(r))
	}
	if r.IntN(2) == 0 {
		in.M = map[string]string{}
		for range r.IntN(3) {
			in.M[[]string{"k", "other", "z"}[r.IntN(3)]] = randText(r)
		}
	}
	switch r.IntN(4) {
	case 1:
		in.Any = randText(r)
	case 2:
		in.Any = r.IntN(3)
	case 3:
		in.Any = &leaf{randText(r)}
	}
	return in
}

func randOuter(r *rand.Rand) *outer {
	o := &outer{inner: randInner(r, 2), Arr: [2]string{randText(r), randText(r)}}
	for range r.IntN(5) {
		o.Items = append(o.Items, randInner(r, 1))
	}
	for range r.IntN(3) {
		if r.IntN(4) == 0 {
			o.Ptrs = append(o.Ptrs, nil)
			continue
		}
		p := randInner(r, 1)
		o.Ptrs = append(o.Ptrs, &p)
	}
	if r.IntN(3) > 0 {
		p := randInner(r, 2)
		o.Opt = &p
	}
	for range r.IntN(3) {
		o.Anys = append(o.Anys, []any{nil, randText(r), r.IntN(3), leaf{"l"}, &leaf{"p"}, false}[r.IntN(6)])
	}
	return o
}

func parseAll(t *testing.T, srcs map[string]string) *Templates {
	t.Helper()
	root := template.New("root").Funcs(testFuncs)
	for name, src := range srcs {
		template.Must(root.New(name).Parse(src))
	}
	return Compile(root, testFuncs)
}

// TestCompiledMatchesTextTemplate renders templates of every construct the
// compiled programs cover, and some they leave to text/template, on
// hundreds of generated values: the output and the error are
// text/template's, and the programs compile and complete where they
// should.
func TestCompiledMatchesTextTemplate(t *testing.T) {
	all := map[string]string{}
	for n, s := range compiledTemplates {
		all[n] = s
	}
	for n, s := range fallbackTemplates {
		all[n] = s
	}
	ts := parseAll(t, all)
	r := rand.New(rand.NewPCG(33, 1))
	completed := map[string]int{}
	const runs = 400
	for run := range runs {
		data := randOuter(r)
		for name := range all {
			var fast, slow bytes.Buffer
			fast.WriteString("kept|") // what a buffer held before stays
			slow.WriteString("kept|")
			errFast := ts.ExecuteTemplate(&fast, name, data)
			errSlow := ts.Reference().ExecuteTemplate(&slow, name, data)
			if fmt.Sprint(errFast) != fmt.Sprint(errSlow) || !bytes.Equal(fast.Bytes(), slow.Bytes()) {
				t.Fatalf("run %d, %s on %+v:\ncompiled     %q, %v\ntext/template %q, %v", run, name, data, fast.Bytes(), errFast, slow.Bytes(), errSlow)
			}
			var alone bytes.Buffer
			err := ts.Compiled(&alone, name, data)
			if err == nil {
				completed[name]++
				if errSlow != nil {
					t.Fatalf("run %d, %s: the compiled program completed where text/template fails: %v", run, name, errSlow)
				}
			}
			_, isFallback := fallbackTemplates[name]
			if isFallback != errors.Is(err, errNotCompiled) {
				t.Fatalf("%s: compiled: %v", name, err)
			}
		}
	}
	// Each compiled template completes on some data (on all of it where
	// nothing can go wrong) and hands over on the rest; eqmix compares
	// unlike kinds, which the programs leave to text/template.
	for name := range compiledTemplates {
		if completed[name] == 0 && name != "eqmix" {
			t.Errorf("%s never completed compiled", name)
		}
	}
	for _, name := range []string{"text", "fields", "if", "with", "range", "break", "vars", "builtins", "print", "dotprint", "constants", "nested", "ifscope", "rangescope", "elsebreak", "rangeparen"} {
		if completed[name] != runs {
			t.Errorf("%s completed compiled %d times of %d", name, completed[name], runs)
		}
	}
}

// TestCompiledWritesIntoBuffersOnly checks the other writers get
// text/template itself.
func TestCompiledWritesIntoBuffersOnly(t *testing.T) {
	ts := parseAll(t, map[string]string{"a": `{{.S}}`})
	var sb strings.Builder
	if err := ts.ExecuteTemplate(&sb, "a", &outer{inner: inner{S: "x"}}); err != nil || sb.String() != "x" {
		t.Fatalf("%q, %v", sb.String(), err)
	}
	if err := ts.ExecuteTemplate(&sb, "missing", nil); err == nil {
		t.Fatal("no error for a missing template")
	}
}
