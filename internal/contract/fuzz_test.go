package contract_test

import (
	"errors"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gentest"
)

// FuzzLoad feeds the loader arbitrary bytes, seeded with the reference
// contract and every test contract: it must never panic, and every problem
// it reports must carry a usable position.
func FuzzLoad(f *testing.F) {
	gentest.Seed(f, "testdata/*/*/kinds.yaml", "../../contract/kinds.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := contract.Load("kinds.yaml", data)
		if err == nil {
			if c == nil {
				t.Fatal("Load returned neither a contract nor problems")
			}
			return
		}
		if c != nil {
			t.Error("Load returned a contract together with problems")
		}
		var ps contract.Problems
		if !errors.As(err, &ps) {
			t.Fatalf("Load returned %T, want Problems: %v", err, err)
		}
		if len(ps) == 0 {
			t.Fatal("Load returned an empty Problems")
		}
		for _, p := range ps {
			if p.Pos.Line < 1 || p.Pos.Col < 1 {
				t.Errorf("problem without a usable position: %s", p)
			}
			if p.Message == "" {
				t.Errorf("problem without a message: %s", p)
			}
		}
	})
}
