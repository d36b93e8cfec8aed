package genvectors

import (
	"strings"
	"testing"

	"path/filepath"

	"github.com/errgen/errgen/internal/contract"
)

// sanitizeProofByFragment is sanitizeProof as it was written before proof:
// the text lowered, then searched for each fragment in turn. The one-pass
// reading must answer as it does.
func sanitizeProofByFragment(c *contract.Contract, s string) bool {
	if len(s) > c.Sanitize.MaxLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	lower := strings.ToLower(s)
	hit := func(fragments []string) bool {
		for _, f := range fragments {
			if strings.Contains(lower, strings.ToLower(f)) {
				return true
			}
		}
		return false
	}
	if hit(riskyText) || hit(c.Sanitize.Markers) || hit(contract.BuiltinSecretPrefixes) {
		return false
	}
	for _, p := range c.Sanitize.Secrets {
		if hit(p.Prefixes) {
			return false
		}
	}
	for i := 0; i < len(lower); i++ {
		if lower[i] != ':' && lower[i] != '=' {
			continue
		}
		j := i
		for j > 0 && (lower[j-1] == ' ' || lower[j-1] == '\t') {
			j--
		}
		for n := 0; n < 2 && j > 0 && strings.IndexByte("\"'\\", lower[j-1]) >= 0; n++ {
			j--
		}
		k := j
		for k > 0 && isKeyChar(lower[k-1]) {
			k--
		}
		key := lower[k:j]
		if key == "auth" {
			return false
		}
		for _, r := range riskyKeys {
			if strings.Contains(key, r) {
				return false
			}
		}
	}
	return true
}

// proof answers as the fragment-by-fragment search on texts made of every
// contract's fragments, cut, cased and joined at random, and of the texts
// its vectors check, for every test contract (and again when the contracts
// alternate, so that the cached reading of one is never used for another).
func TestProofMatchesFragmentSearch(t *testing.T) {
	var paths []string
	for _, glob := range []string{"../../contract/kinds.yaml", "../../examples/*/kinds.yaml", "../contract/testdata/valid/*/kinds.yaml"} {
		found, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, found...)
	}
	cs := map[string]*contract.Contract{}
	for _, p := range paths {
		c, err := contract.LoadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cs[p] = c
	}
	if len(cs) < 4 {
		t.Fatalf("only %d contracts", len(cs))
	}
	var pieces []string
	for _, c := range cs {
		pieces = append(pieces, c.Sanitize.Markers...)
		for _, sp := range c.Sanitize.Secrets {
			pieces = append(pieces, sp.Prefixes...)
		}
		for _, k := range c.Kinds {
			pieces = append(pieces, k.Name, k.Description)
		}
	}
	pieces = append(pieces, riskyText...)
	pieces = append(pieces, riskyKeys...)
	pieces = append(pieces, contract.BuiltinSecretPrefixes...)
	pieces = append(pieces, "auth", "Auth", ":", "=", " ", "\t", "\"", "'", "\\", "x", "AUTH", "é", "\x7f", "\x01", "K", "\u212a")
	rnd := uint32(7)
	next := func(n int) int { rnd = rnd*1664525 + 1013904223; return int(rnd>>8) % n }
	texts := []string{"", shortMessage, proxyText, strings.Repeat("a", 300), strings.Repeat("a", 300) + "Bearer"}
	for range 4000 {
		var b strings.Builder
		for range next(6) + 1 {
			p := pieces[next(len(pieces))]
			if len(p) > 1 && next(3) == 0 {
				p = p[next(len(p)):]
			}
			if next(2) == 0 {
				p = strings.ToUpper(p)
			}
			b.WriteString(p)
		}
		texts = append(texts, b.String())
	}
	answers := map[bool]int{}
	for round := range 2 {
		for name, c := range cs {
			for _, s := range texts {
				got, want := sanitizeProof(c, s), sanitizeProofByFragment(c, s)
				if got != want {
					t.Fatalf("%s (round %d): sanitizeProof(%q) = %v, the fragment search %v", name, round, s, got, want)
				}
				answers[got]++
			}
		}
	}
	// Both answers, often: texts that all fail (or all pass) would judge
	// nothing.
	if answers[true] < 1000 || answers[false] < 1000 {
		t.Errorf("answers %v: want both often", answers)
	}
}
