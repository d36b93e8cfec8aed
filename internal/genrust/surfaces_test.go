package genrust

import (
	"regexp"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
)

// matchName is surfaces.rs's NamePattern::matches over nameClasses' parts.
func matchName(first, rest string, seps []byte, s string) bool {
	in := func(c byte, class string) bool {
		for _, r := range byteRanges(class) {
			if r[0] <= c && c <= r[1] {
				return true
			}
		}
		return false
	}
	if s == "" || !in(s[0], first) {
		return false
	}
	afterSep := false
	for i := 1; i < len(s); i++ {
		switch {
		case in(s[i], rest):
			afterSep = false
		case strings.IndexByte(string(seps), s[i]) >= 0 && !afterSep:
			afterSep = true
		default:
			return false
		}
	}
	return !afterSep
}

// Every kind pattern errgen knows reads into NamePattern's parts, and the
// parts accept exactly what the regular expression does, over every string
// of up to five characters from an alphabet that crosses each class's edges.
func TestNamePatterns(t *testing.T) {
	patterns := []string{contract.ValueNamePattern}
	for _, n := range contract.Namings {
		patterns = append(patterns, n.Pattern())
	}
	const alphabet = "aAzZ09_-.`{@["
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		first, rest, seps := nameClasses(p)
		if !strings.Contains(namePattern(p), "NamePattern {") {
			t.Fatalf("%s: %s", p, namePattern(p))
		}
		var walk func(s string)
		walk = func(s string) {
			if got, want := matchName(first, rest, seps, s), re.MatchString(s); got != want {
				t.Errorf("%s: %q: NamePattern %t, regexp %t", p, s, got, want)
			}
			if len(s) < 5 {
				for i := 0; i < len(alphabet); i++ {
					walk(s + alphabet[i:i+1])
				}
			}
		}
		walk("")
	}
}
