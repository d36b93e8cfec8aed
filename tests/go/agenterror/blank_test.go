package agenterror_test

import (
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/internal/contract"
)

// TestBlankIsTheContractsRule holds the generated blank (runtime/go/_src/produce.go) to
// contract.Blank, from which the vectors' expectations are computed, on
// every code point: the two copies exist because generated code cannot
// import errgen, and must not drift. The generated package is a module that
// cannot import errgen either, so the rule is observed from outside: a
// constructor replaces a message exactly when it is blank (NewTrusted, so
// that sanitizing does not change the message first).
func TestBlankIsTheContractsRule(t *testing.T) {
	kind := agenterror.Kinds()[0]
	replaced := func(message string) bool {
		return agenterror.NewTrusted(kind, message).Message != message
	}
	for r := rune(0); r <= 0x10FFFF; r++ {
		s := string(r)
		want := contract.Blank(s)
		if replaced(s) != want || replaced("x"+s) || replaced(s+s) != want {
			t.Errorf("U+%04X: replaced %t (doubled %t, after x %t), contract.Blank %t", r, replaced(s), replaced(s+s), replaced("x"+s), want)
		}
	}
}
