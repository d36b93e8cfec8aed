package gents

import (
	"strings"
	"testing"
)

// tidyStrings is tidy as it was written on strings, the reference for the
// byte version.
func tidyStrings(b []byte) []byte {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" && len(out) > 0 && out[len(out)-1] == "" {
			continue
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

func TestTidy(t *testing.T) {
	for _, in := range []string{"", " \n\t ", "a", "a\n", "\n\na  \t\n\n\n b\t\n \n\nc \r\n\n", "x\n \n\t\n y",
		"\u00a0a\u0085\n", "a\r\n\r\nb", "a\n\n", "  lead\n\n\n"} {
		if got, want := tidy([]byte(in)), tidyStrings([]byte(in)); string(got) != string(want) {
			t.Errorf("tidy(%q) = %q, want %q", in, got, want)
		}
	}
}

// doc skips the replacer when there is nothing to replace; the result must
// be the replacer's either way.
func TestDocFastPath(t *testing.T) {
	for _, s := range []string{"", "  plain text  ", "a */ b", "a\nb", "a\rb", "a\u2028b", "a\u2029b", "a * / b", "é \xff"} {
		if got, want := doc(s), docReplacer.Replace(strings.TrimSpace(s)); got != want {
			t.Errorf("doc(%q) = %q, want %q", s, got, want)
		}
	}
}
