package gendocs

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/synth"
	"github.com/errgen/errgen/internal/targets"
)

// TestTemplatesCompile holds the compiled pages (render.Compile) to
// text/template's bytes on every contract of the tests and on synthetic
// contracts, page by page.
func TestTemplatesCompile(t *testing.T) {
	cs := gentest.TemplateContracts(t)
	for p, c := range cs {
		gentest.SameAsTextTemplate(t, p, pageTemplates, newView(c, targets.Defaults(c.Name)))
	}
}

// textRunes and slugRunes are Text and Slug as they were written first,
// rune by rune: the reference for the byte loops.
func textRunes(s string) string {
	s = strings.TrimSpace(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString("<br>")
		case r == '\r':
		case r == '\u2028' || r == '\u2029':
			b.WriteString("<br>")
		case r < 0x20 || r == 0x7f:
			b.WriteRune(' ')
		case strings.ContainsRune(mdSpecial, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return blockStart(b.String())
}

func slugRunes(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 0x7f:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestTextAndSlugMatchRuneLoops compares Text and Slug with their rune
// loops on every ASCII byte, on text with ill-formed UTF-8, line
// separators and capitals, and on random strings of such pieces.
func TestTextAndSlugMatchRuneLoops(t *testing.T) {
	ins := []string{"", "Plain text.", "A|b`c*d_e[f]g<h>i~j$k&l\\m", "x\r\ny", "tab\there\x7f", "\u2028line\u2029", "bad \xff\xfe byte", "\xe2\x80", "Ünïcödé ÀB", "İstanbul", "# head", "1. item", "K\u212a", "a\u0085b"}
	for c := 0; c < 0x80; c++ {
		ins = append(ins, string(rune(c)), "a"+string(rune(c))+"Z")
	}
	pieces := []string{"a", "Z", " ", "\n", "|", "`", "é", "\xff", "\u2028", "İ", "-", "9", "_", "#", "\t", "\\"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		ins = append(ins, b.String())
	}
	for _, s := range ins {
		if got, want := Text(s), textRunes(s); got != want {
			t.Errorf("Text(%q) = %q, want %q", s, got, want)
		}
		if got, want := Slug(s), slugRunes(s); got != want {
			t.Errorf("Slug(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestPagesAllocateLittle bounds the allocations of kinds.md and http.md,
// which show every kind, at 1,000 kinds, to one a kind: their view holds
// every text escaped, and the compiled pages allocate about 0.2 a kind
// (text/template 32, for every field it looks up).
func TestPagesAllocateLittle(t *testing.T) {
	const kinds = 1000
	c := gentest.LoadData(t, synth.Contract(kinds))
	v := newView(c, targets.Defaults(c.Name))
	var buf bytes.Buffer
	total := 0.0
	for _, name := range []string{"kinds.md.tmpl", "http.md.tmpl"} {
		total += testing.AllocsPerRun(2, func() {
			buf.Reset()
			if err := pageTemplates.ExecuteTemplate(&buf, name, v); err != nil {
				t.Fatal(err)
			}
		})
	}
	if perKind := total / kinds; perKind > 1 {
		t.Errorf("kinds.md and http.md allocate %.1f times a kind, more than once", perKind)
	}
}
