package render

import (
	"strings"
	"testing"
	"text/template"
)

// tidyStrings is Tidy as it was first written, on strings: the reference
// for the byte version.
func tidyStrings(b []byte, maxBlank int) []byte {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	out := make([]string, 0, len(lines))
	blank := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			blank++
		} else {
			blank = 0
		}
		if blank <= maxBlank {
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

func TestTidy(t *testing.T) {
	for _, in := range []string{"", " \n\t ", "a", "a\n", "\n\na  \t\n\n\n b\t\n \n\nc \r\n\n", "x\n \n\t\n y",
		"\u00a0a\u0085\n", "a\r\n\r\nb", "a\n\n", "  lead\n\n\n", "a\n\n\n\nb\n\n\nc"} {
		for _, max := range []int{1, 2} {
			if got, want := Tidy([]byte(in), max), tidyStrings([]byte(in), max); string(got) != string(want) {
				t.Errorf("Tidy(%q, %d) = %q, want %q", in, max, got, want)
			}
			// In place (FilesSized's large file), where each line is
			// written over what was read.
			b := []byte(in)
			if got, want := tidyInto(b[:0], b, max), tidyStrings([]byte(in), max); string(got) != string(want) {
				t.Errorf("tidyInto in place (%q, %d) = %q, want %q", in, max, got, want)
			}
		}
	}
	if got := string(Tidy([]byte("a\n\n\n\nb"), 2)); got != "a\n\n\nb\n" {
		t.Errorf("two blank lines kept: got %q", got)
	}
}

type directView struct {
	Direct
	Table string
}

// TestDirect holds {{.Raw .Table}} to {{.Table}}: written in its place by
// FilesSized, whichever file is the large one, and printed as usual by a
// template run outside it.
func TestDirect(t *testing.T) {
	tmpl := template.Must(template.New("t").Parse(`{{define "a.tmpl"}}before {{.Raw .Table}} after
{{.Table}}{{end}}{{define "b.tmpl"}}{{.Raw .Table}}{{.Raw .Table}}{{end}}`))
	v := &directView{Table: "[1, 2]"}
	for _, large := range []string{"", "a", "b"} {
		out := map[string][]byte{}
		if err := FilesSized(out, tmpl, v, 1, "d", []string{"a", "b"}, large, 64); err != nil {
			t.Fatal(err)
		}
		if got, want := string(out["d/a"]), "before [1, 2] after\n[1, 2]\n"; got != want {
			t.Errorf("large %q: a = %q, want %q", large, got, want)
		}
		if got, want := string(out["d/b"]), "[1, 2][1, 2]\n"; got != want {
			t.Errorf("large %q: b = %q, want %q", large, got, want)
		}
	}
	var b strings.Builder
	if err := tmpl.ExecuteTemplate(&b, "b.tmpl", v); err != nil || b.String() != "[1, 2][1, 2]" {
		t.Errorf("outside FilesSized: %q, %v", b.String(), err)
	}
}
