package gents

import (
	"strings"
	"testing"
)

// doc skips the replacer when there is nothing to replace; the result must
// be the replacer's either way.
func TestDocFastPath(t *testing.T) {
	for _, s := range []string{"", "  plain text  ", "a */ b", "a\nb", "a\rb", "a\u2028b", "a\u2029b", "a * / b", "é \xff"} {
		if got, want := doc(s), docReplacer.Replace(strings.TrimSpace(s)); got != want {
			t.Errorf("doc(%q) = %q, want %q", s, got, want)
		}
	}
}
