package agenterror

import "strings"

// The word matcher of the inbound classifiers. Its rules are deliberately
// simple so the Go, TypeScript and Python classifiers agree on every input:
// only ASCII letters are folded, and a word boundary is any character that
// is not an ASCII letter, digit or underscore.

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// hasWord reports whether lower (already ASCII-lowered) contains any of the
// phrases as a whole word: not preceded or followed by a word character.
func hasWord(lower string, phrases ...string) bool {
	for _, p := range phrases {
		for from := 0; from+len(p) <= len(lower); {
			i := indexFrom(lower, p, from)
			if i < 0 {
				break
			}
			end := i + len(p)
			if (i == 0 || !wordByte(lower[i-1])) && (end == len(lower) || !wordByte(lower[end])) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

func indexFrom(s, sub string, from int) int {
	if i := strings.Index(s[from:], sub); i >= 0 {
		return from + i
	}
	return -1
}
