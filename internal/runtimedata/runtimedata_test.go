package runtimedata

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/orderedjson"
)

func contracts(t *testing.T) map[string]*contract.Contract { return gentest.Contracts(t) }

// asJSON is v as the encoding/json tree TypeScriptPrinter claims to write:
// ordered objects, camelCase record members, sparse members left out when
// zero, Python's members never.
func asJSON(v Value) any {
	switch v := v.(type) {
	case Local:
		return v.Idents.TSLocal
	case List, Set:
		items := reflect.ValueOf(v)
		out := make([]any, items.Len())
		for i := range out {
			out[i] = asJSON(items.Index(i).Interface())
		}
		return out
	case Map:
		o := orderedjson.Object{}
		for _, e := range v {
			o = append(o, orderedjson.Member{Key: asJSON(e.Key).(string), Value: asJSON(e.Value)})
		}
		return o
	case Record:
		o := orderedjson.Object{}
		for _, f := range v.Fields {
			if f.For(TypeScript) && !(f.Sparse && zero(f.Value)) {
				o = append(o, orderedjson.Member{Key: camel(f.Name), Value: asJSON(f.Value)})
			}
		}
		if v.Sorted {
			slices.SortFunc(o, func(x, y orderedjson.Member) int { return strings.Compare(x.Key, y.Key) })
		}
		return o
	}
	return v
}

// The TypeScript printer writes the bytes itself; they must be what
// json.Indent makes of encoding/json's output for the same tree, for
// every table of every contract.
func TestTypeScriptIsIndentedJSON(t *testing.T) {
	for p, c := range contracts(t) {
		tables := reflect.ValueOf(*Build(c))
		for i := range tables.NumField() {
			v := tables.Field(i).Interface()
			raw, err := orderedjson.Marshal(asJSON(v))
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := json.Indent(&want, raw, "", "  "); err != nil {
				t.Fatal(err)
			}
			if got := (TypeScriptPrinter{}).Print(v); got != want.String() {
				t.Errorf("%s: %s:\ngot  %s\nwant %s", p, tables.Type().Field(i).Name, got, want.String())
			}
		}
	}
}

// row is a table row as the AIP-193 leaves are: members some languages
// read and others do not, zero values TypeScript leaves out.
var row = Record{Type: "Leaf", Row: true, Fields: []Field{{Name: "path", Value: "p"}, {Name: "key", Value: "", Sparse: true},
	{Name: "text", Value: false, Sparse: true}, {Name: "raw", Value: "", Only: TypeScript | Rust}, {Name: "const", Value: nil, Only: Python}}}

func TestPythonPrinter(t *testing.T) {
	idents := &contract.Idents{TSLocal: "retryAfter", PythonLocal: "retry_after"}
	obj := &contract.Field{Name: "o"}
	py := PythonPrinter{Classes: map[*contract.Field]string{obj: "Obj"}}
	for _, tc := range []struct {
		v    Value
		want string
	}{
		{nil, "None"}, {true, "True"}, {2.0, "2.0"}, {0.25, "0.25"}, {int64(7), "7"},
		{"é\"", `"\u00e9\""`},
		{List{}, "()"}, {List{"a"}, `("a",)`}, {List{1, List{2, 3}}, "(1, (2, 3))"},
		{Set{}, "frozenset()"}, {Set{"a", "b"}, `frozenset({"a", "b"})`},
		{Map{}, "{}"}, {Map{{Local{idents}, 1}}, "{\n    \"retry_after\": 1,\n}"},
		{Class{obj}, `"Obj"`}, {Class{&contract.Field{}}, "None"},
		{Record{Type: "P", Sorted: true, Fields: []Field{{Name: "b_c", Value: Map{{"k", List{}}}}, {Name: "a", Value: false, Sparse: true}}},
			"P(\n    b_c={\n        \"k\": (),\n    },\n    a=False,\n)"},
		{Record{Fields: []Field{{Name: "ts", Value: 1, Only: TypeScript}, {Name: "py", Value: 2, Only: Python}}}, "{\n    \"py\": 2,\n}"},
		{List{row}, `(("p", "", False, None),)`},
	} {
		if got := py.Print(tc.v); got != tc.want {
			t.Errorf("Print(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestCamel(t *testing.T) {
	for in, want := range map[string]string{"kind": "kind", "same_arguments": "sameArguments", "max_hint_ms": "maxHintMs", "a__b": "aB"} {
		if got := camel(in); got != want {
			t.Errorf("camel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRustLiterals(t *testing.T) {
	const s = "a\"b\\c\n\u00e9\x7f\xff~"
	if got, want := RustString(s), `"a\"b\\c\u{a}\u{e9}\u{7f}\u{fffd}~"`; got != want {
		t.Errorf("RustString = %s, want %s", got, want)
	}
	if got, want := RustByteString(s), `b"a\"b\\c\x0a\xc3\xa9\x7f\xff~"`; got != want {
		t.Errorf("RustByteString = %s, want %s", got, want)
	}
}

func TestRustPrinterRowsAndPaths(t *testing.T) {
	p := RustPrinter{Paths: map[string]string{"Leaf": "crate::m::Leaf"}, Member: func(record, member string, v Value) (string, bool) {
		if member == "key" {
			return "Key::None", true
		}
		return "", false
	}}
	if got, want := p.Print(row), `crate::m::Leaf { path: "p", key: Key::None, text: false, raw: "" }`; got != want {
		t.Errorf("row: got %s, want %s", got, want)
	}
	rec := Record{Type: "R", Fields: []Field{{Name: "a", Value: List{1}}, {Name: "py", Value: 2, Only: Python}}}
	if got, want := p.Print(Map{{"k", rec}}), "&[\n    (\"k\", R {\n        a: &[1],\n    }),\n]"; got != want {
		t.Errorf("record: got %q, want %q", got, want)
	}
	if got, want := (TypeScriptPrinter{}).Print(row), "{\n  \"path\": \"p\",\n  \"raw\": \"\"\n}"; got != want {
		t.Errorf("TypeScript row: got %q, want %q", got, want)
	}
}

// The Go package prints its tables from BuildGo: they must be Build's.
func TestBuildGoIsBuilds(t *testing.T) {
	for p, c := range contracts(t) {
		all, g := Build(c), BuildGo(c)
		pick := func(t *Tables) []Value {
			return []Value{t.AIPDomain, t.AIPLeaves, t.AIPOffWire, t.AIPReasons, t.Retry, t.ActionSteps, t.Upgrades,
				t.RetrySame, t.MayHaveRun, t.Inbound, t.Log}
		}
		if !reflect.DeepEqual(pick(all), pick(g)) || len(g.AIPLeaves) == 0 {
			t.Errorf("%s: BuildGo differs from Build", p)
		}
	}
}

// Python's printer writes a plain ASCII string without strconv: every
// string, plain or not, must still be strconv.QuoteToASCII's.
func TestPythonStringsQuoteAsStrconv(t *testing.T) {
	for _, s := range []string{"", "plain text", "a \"quoted\" \\ path", "tab\there", "\x7f", "\x1f", "é", "\u2028", "\xff", "~ !"} {
		if got, want := (PythonPrinter{}).Print(s), strconv.QuoteToASCII(s); got != want {
			t.Errorf("%q: printed %s, want %s", s, got, want)
		}
	}
}
