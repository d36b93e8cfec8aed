package agenterror

import (
	"testing"

	"github.com/errgen/errgen/internal/contract"
)

// TestBlankIsTheContractsRule holds the generated blank (produce.go.tmpl) to
// contract.Blank, from which the vectors' expectations are computed, on
// every code point: the two copies exist because generated code cannot
// import errgen, and must not drift.
func TestBlankIsTheContractsRule(t *testing.T) {
	for r := rune(0); r <= 0x10FFFF; r++ {
		s := string(r)
		if blank(s) != contract.Blank(s) || blank("x"+s) || !blank(s+s) && contract.Blank(s) {
			t.Errorf("U+%04X: blank %t, contract.Blank %t", r, blank(s), contract.Blank(s))
		}
	}
}
