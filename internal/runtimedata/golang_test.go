package runtimedata

import (
	"go/format"
	"strings"
	"testing"
)

// TestGoPrinter holds the Go printer to literals that compile as the
// declared types: it formats a file declaring them and the printed values.
func TestGoPrinter(t *testing.T) {
	p := GoPrinter{Member: func(record, member string, v Value) (string, bool) {
		if member == "codes" {
			return GoPrinter{}.Typed("[]int", v), true
		}
		return "", false
	}}
	row := Record{Type: "rule", Row: true, Fields: []Field{{Name: "status_min", Value: 400}, {Name: "kind", Value: "a\u2028b"}}}
	top := Record{Type: "policy", Fields: []Field{
		{Name: "initial_ms", Value: 100},
		{Name: "jitter", Value: 0.5},
		{Name: "skipped", Value: false, Sparse: true},
		{Name: "only_rust", Value: 1, Only: Rust},
		{Name: "codes", Value: List{1, 2}},
		{Name: "first", Value: row},
		{Name: "none", Value: nil},
		{Name: "default", Value: "k"},
	}}
	src := "package x\n\ntype rule struct{ statusMin int; kind string }\n" +
		"type policy struct{ initialMs int; jitter float64; skipped bool; codes []int; first rule; none *int; default_ string }\n" +
		"var a = " + p.Print(top) + "\n" +
		"var b = " + p.Typed("[]rule", List{row, row}) + "\n" +
		"var c = " + p.Typed("map[string][]string", Map{{Key: "k", Value: Strings([]string{"x", "y"})}}) + "\n" +
		"var d = " + p.Typed("map[int]bool", Map{}) + "\n" +
		"var e = " + p.Typed("[]string", Set{"s"}) + "\n"
	if _, err := format.Source([]byte(src)); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	for _, want := range []string{`initialMs: 100,`, `jitter: 0.5,`, `codes: []int{1, 2},`, `first: rule{statusMin: 400, kind: "a\u2028b"},`, `none: nil,`, `default_: "k",`, "[]rule{\n\t{statusMin: 400", `map[string][]string{` + "\n\t\"k\": {\"x\", \"y\"},", `map[int]bool{}`, `[]string{"s"}`} {
		if !strings.Contains(src, want) {
			t.Errorf("missing %q in\n%s", want, src)
		}
	}
	for _, unwanted := range []string{"skipped", "onlyRust"} {
		if strings.Contains(p.Print(top), unwanted) {
			t.Errorf("%q printed:\n%s", unwanted, src)
		}
	}
}
