package agenterror

import (
	"testing"
	"unicode/utf8"
)

// TestSanitizeRemovedRanges: the ranges the quick pass's tables are built
// from are the code points sanitizeRemovedRune deletes from U+0080 on.
func TestSanitizeRemovedRanges(t *testing.T) {
	in := func(r rune) bool {
		for _, rg := range sanitizeRemovedRanges {
			if rg[0] <= r && r <= rg[1] {
				return true
			}
		}
		return false
	}
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if in(r) != sanitizeRemovedRune(r) {
			t.Fatalf("U+%04X: in sanitizeRemovedRanges %v, sanitizeRemovedRune %v", r, in(r), sanitizeRemovedRune(r))
		}
	}
}

// TestSanitizeQuietLeads: sanitizeQuietLeads holds a lead byte and a
// second byte exactly when every character starting with them (whatever
// continuation bytes follow) is well-formed and kept by step 1.
func TestSanitizeQuietLeads(t *testing.T) {
	for c := 0xC0; c < 0x100; c++ {
		for d := 0x80; d < 0xC0; d++ {
			quiet := sanitizeQuietLeads[c]&(1<<(d&63)) != 0
			all := true
			for e := 0x80; e < 0xC0; e++ {
				for f := 0x80; f < 0xC0; f++ {
					r, size, ok := sanitizeDecode(string([]byte{byte(c), byte(d), byte(e), byte(f)}))
					good := ok && !sanitizeRemovedRune(r)
					all = all && good
					if size <= 3 {
						break
					}
				}
			}
			if quiet != all {
				t.Errorf("%02X %02X: in sanitizeQuietLeads %v, but every character starting so is kept: %v", c, d, quiet, all)
			}
		}
	}
}
