package gendocs

import "testing"

// TestTidyInPlace holds tidyInto over the page's own bytes (kinds.md's, in
// Generate) to tidy's copy: blank lines collapsed outside fences and kept in
// them, trailing white space dropped, one newline at the end.
func TestTidyInPlace(t *testing.T) {
	for _, in := range []string{"", " \n\t ", "a", "a\n", "\n\na  \t\n\n\n b\t\n \n\nc \n\n", "x\n \n\t\n y",
		"# T\n\n\n```json\n{\n\n\n}\n```\n\n\nend  ", "```\n\n\n", "a\n\n\n\nb\n\n\nc"} {
		want := string(tidy([]byte(in)))
		b := []byte(in)
		if got := string(tidyInto(b[:0], b)); got != want {
			t.Errorf("tidyInto in place (%q) = %q, want %q", in, got, want)
		}
	}
}
