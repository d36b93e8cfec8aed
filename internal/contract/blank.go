package contract

// Blank reports whether s has nothing a reader could see: it is empty or
// holds only white space and invisible format characters. The generated
// packages apply the same rule (runtime/go/_src/produce.go, the
// TypeScript and Python classification modules) where a producer replaces
// a blank message or guidance; the set is spelled out rather than taken from
// unicode.IsSpace so that Go, TypeScript and Python agree on every string.
func Blank(s string) bool {
	for _, r := range s {
		if !invisible(r) {
			return false
		}
	}
	return true
}

func invisible(r rune) bool {
	switch {
	case r >= 0x09 && r <= 0x0D, r == 0x20, r == 0x85, r == 0xA0, r == 0xAD,
		r == 0x1680, r == 0x180E, r >= 0x2000 && r <= 0x200F, r >= 0x2028 && r <= 0x202F,
		r >= 0x205F && r <= 0x2064, r == 0x3000, r == 0xFEFF:
		return true
	}
	return false
}
