package tsdecl

import (
	"strings"
	"testing"
)

// texts lists the tokens of src as "kind:text".
func texts(t *testing.T, src string) []string {
	t.Helper()
	toks, err := tokenize("t.ts", src)
	if err != nil {
		t.Fatalf("tokenize(%q): %v", src, err)
	}
	var out []string
	for _, tk := range toks {
		out = append(out, kindNames[tk.kind]+":"+src[tk.start:tk.end])
	}
	return out
}

var kindNames = map[kind]string{tIdent: "id", tPrivate: "priv", tNumber: "num", tString: "str", tTemplate: "tpl", tRegex: "re", tPunct: "p"}

func TestTokenize(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		// Strings hold what would otherwise end a statement, open a group
		// or start a comment.
		{`"a;{}//" + 'b\'"/*' ;`, []string{`str:"a;{}//"`, "p:+", `str:'b\'"/*'`, "p:;"}},
		{`"\\" x`, []string{`str:"\\"`, "id:x"}},
		{"'\u2028'", []string{"str:'\u2028'"}}, // a line separator is allowed in a string since ES2019
		// Template literals: substitutions nest, to any depth, with
		// braces, strings and templates of their own.
		{"`a ${ {b: `c ${d + '}'} e` }.b } f` ;", []string{"tpl:`a ${ {b: `c ${d + '}'} e` }.b } f`", "p:;"}},
		{"`\\${not} ${`}`}`", []string{"tpl:`\\${not} ${`}`}`"}},
		{"`$ {x} $`", []string{"tpl:`$ {x} $`"}},
		// Regular expressions, told from division by the token before.
		{`x = /[/"']\/{/g.test(y);`, []string{"id:x", "p:=", `re:/[/"']\/{/g`, "p:.", "id:test", "p:(", "id:y", "p:)", "p:;"}},
		{`a / b / c`, []string{"id:a", "p:/", "id:b", "p:/", "id:c"}},
		{`(a) / 2 / (b)`, []string{"p:(", "id:a", "p:)", "p:/", "num:2", "p:/", "p:(", "id:b", "p:)"}},
		{`f(/a`, []string{"id:f", "p:(", "p:/", "id:a"}}, // no closing slash on the line: division
		{`return /x/;`, []string{"id:return", "re:/x/", "p:;"}},
		{"a[0] / 2", []string{"id:a", "p:[", "num:0", "p:]", "p:/", "num:2"}},
		{`s.replace(/\u{1F600}|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/gu, "")`, []string{"id:s", "p:.", "id:replace", "p:(", `re:/\u{1F600}|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/gu`, "p:,", `str:""`, "p:)"}},
		// Comments hold quotes, backquotes and braces; they are skipped.
		{"a // it's {`\nb /* \"{ */ c", []string{"id:a", "id:b", "id:c"}},
		// Numbers, private names, "=>" and "..." as one token, ">>" as two.
		{"1_000 0x1F .5 1e-7 10n", []string{"num:1_000", "num:0x1F", "num:.5", "num:1e-7", "num:10n"}},
		{"#x => ...y >>= z", []string{"priv:#x", "p:=>", "p:...", "id:y", "p:>", "p:>", "p:=", "id:z"}},
		{"Map<string, Set<number>>", []string{"id:Map", "p:<", "id:string", "p:,", "id:Set", "p:<", "id:number", "p:>", "p:>"}},
		{"é\u00a0ünïcode_$1", []string{"id:é", "id:ünïcode_$1"}},
	}
	for _, tt := range tests {
		if got := texts(t, tt.src); strings.Join(got, " | ") != strings.Join(tt.want, " | ") {
			t.Errorf("tokenize(%q)\n got %q\nwant %q", tt.src, got, tt.want)
		}
	}
}

// A template literal's substitutions keep their tokens, so the names a
// template literal type uses count as references.
func TestTemplateInnerTokens(t *testing.T) {
	toks, inner, err := tokenizeAll("t.ts", "`${Kind}_${`${Deep}`}`")
	if err != nil {
		t.Fatal(err)
	}
	if len(inner[0]) != 2 { // Kind and the nested template, whose own tokens are under its start
		t.Errorf("the template's substitutions hold %d tokens, want 3", len(inner[0]))
	}
	types, _ := refs("type X = `${Kind}_${`${Deep}`}`;")
	if len(toks) != 1 || strings.Join(types, ",") != "type,X,Kind,Deep" {
		t.Errorf("tokens %d, references %q", len(toks), types)
	}
}

func TestTokenizeErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`x = "abc`, `t.ts:1:5: unterminated string literal`},
		{"x = 'a\nb'", `t.ts:1:5: unterminated string literal`},
		{"a\n  `x ${y", `t.ts:2:3: unterminated template literal`},
		{"a\n  `x ${`y` z", `t.ts:2:3: unterminated template literal`},
		{"a\n  `x ${`y ${z", `t.ts:2:8: unterminated template literal`},
		{"`abc", `t.ts:1:1: unterminated template literal`},
		{"a /* b", `t.ts:1:3: unterminated comment`},
		{"a\r\nb\u2028 c ¤", `t.ts:3:4: unexpected character '¤'`},
	} {
		_, err := tokenize("t.ts", tt.src)
		if err == nil || err.Error() != tt.want {
			t.Errorf("tokenize(%q): got %v, want %s", tt.src, err, tt.want)
		}
	}
}
