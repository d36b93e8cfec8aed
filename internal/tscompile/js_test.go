package tscompile

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/orderedjson"
)

// awkward are texts that take every branch of esbuild's string printer:
// each quote outnumbering the others, "${", control characters with and
// without an escape of their own, a NUL before a digit, "</script" in both
// cases, the line and paragraph separators, a byte order mark, DEL,
// characters beyond the BMP and ill-formed UTF-8.
var awkward = []string{
	"", "plain text", `say "hi"`, `it's`, `"a" 'b'`, `"a" "b" 'c'`, "`x` \"y\" \"z\" 'w'",
	"\"q\" \"q\" 'a' 'b' `c` `d`", "\"\" '' ${x}", "\"\"\" ''' ${a} ${b} ${c}", `\back\slash`, "tab\there",
	"line\nbreak", "\"\"\"\n'" + "`", "cr\rlf", "nul\x00end", "nul\x007", "bell\x07", "\b\f\v\x1b\x01\x1f\x7f",
	"</script>", "</SCRIPT", "<\\/script", "a</scrip", "</", "x<//script", "\u2028\u2029", "\ufeffbom",
	"Grüße 日本語 🚀", "bad \xff byte", "trunc \xe2\x82", "$", "${", "$$", "`", "``${", "…[truncated]", "__proto__", "constructor",
}

// numbers are JSON numbers as Go's encoder writes them, around each of
// esbuild's simplifications.
var numbers = []string{
	"0", "7", "-1", "999", "1000", "1024", "-1000", "30000", "86400000", "100", "120", "0.5", "-0.5", "0.001",
	"0.0001", "0.012", "1.5", "12.5", "123.456", "1e+21", "1.5e+300", "1e-7", "1.25e-7", "123456789012",
	"5e-324", "1.7976931348623157e+308", "-0", "12000000", "1200", "1.2e+22", "0.1", "9007199254740993",
}

// compileValue is esbuild's JavaScript for `export const x = <expr>;`,
// without the header line and the export clause.
func compileValue(t testing.TB, expr string) string {
	t.Helper()
	js, _, err := compile("// h", "value", []byte("export const x: unknown = "+expr+";\n"))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	out, ok := strings.CutPrefix(string(js), "// h\nconst x = ")
	if !ok {
		t.Fatalf("unexpected output %q", js)
	}
	out, ok = strings.CutSuffix(out, ";\nexport {\n  x\n};\n")
	if !ok {
		t.Fatalf("unexpected output %q", js)
	}
	return out
}

// AppendString, AppendNumber and AppendJSON (its keys, which are never
// backticked, included) print what esbuild prints for the same literal.
func TestJSLiteralsMatchEsbuild(t *testing.T) {
	var keys, values []string
	for _, s := range awkward {
		lit := string(orderedjson.AppendString(nil, s, false))
		if got, want := string(AppendString(nil, s)), compileValue(t, lit); got != want {
			t.Errorf("AppendString(%q) = %q, esbuild %q", s, got, want)
		}
		keys = append(keys, "  "+lit+": "+lit)
		values = append(values, "  "+lit)
	}
	for _, n := range numbers {
		if got, want := string(AppendNumber(nil, n)), compileValue(t, n); got != want {
			t.Errorf("AppendNumber(%s) = %s, esbuild %s", n, got, want)
		}
		values = append(values, "  "+n)
	}
	// A table as internal/runtimedata's TypeScript printer writes one:
	// every text as a key and a value, every number, nested.
	table := "{\n" + strings.Join(keys, ",\n") + ",\n  \"list\": [\n  " + strings.Join(values, ",\n  ") + ",\n    true,\n    null,\n    {},\n    []\n  ]\n}"
	var parsed any
	if err := json.Unmarshal([]byte(table), &parsed); err != nil {
		t.Fatalf("the table is not JSON (%v):\n%s", err, table)
	}
	if got, want := string(AppendJSON(nil, table)), compileValue(t, table); got != want {
		t.Errorf("AppendJSON differs from esbuild:\n got %q\nwant %q", got, want)
	}
	for _, s := range awkward {
		key := "{\n  " + string(orderedjson.AppendString(nil, s, false)) + ": 1\n}"
		if got, want := string(AppendJSON(nil, key)), compileValue(t, key); got != want {
			t.Errorf("key %q: AppendJSON %q, esbuild %q", s, got, want)
		}
	}
}

// FuzzJSLiterals holds AppendString, AppendJSON and AppendNumber to
// esbuild's printing on any text and any number (make fuzz).
func FuzzJSLiterals(f *testing.F) {
	for i, s := range awkward {
		f.Add(s, float64(i)*1000.5)
	}
	for _, n := range numbers {
		var v float64
		if err := json.Unmarshal([]byte(n), &v); err == nil {
			f.Add("", v)
		}
	}
	f.Fuzz(func(t *testing.T, s string, v float64) {
		lit := string(orderedjson.AppendString(nil, s, false))
		if got, want := string(AppendString(nil, s)), compileValue(t, lit); got != want {
			t.Errorf("AppendString(%q) = %q, esbuild %q", s, got, want)
		}
		num, err := json.Marshal(v)
		if err != nil {
			return // NaN and the infinities have no JSON
		}
		table := "{\n  " + lit + ": [\n    " + lit + ",\n    " + string(num) + "\n  ]\n}"
		if got, want := string(AppendJSON(nil, table)), compileValue(t, table); got != want {
			t.Errorf("AppendJSON(%q) = %q, esbuild %q", table, got, want)
		}
	})
}
