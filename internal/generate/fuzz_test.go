package generate

import (
	"errors"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/targets"
)

// FuzzLoad is internal/contract's FuzzLoad with the promise docs/cli.md
// makes on top: what validate accepts, generate generates. Whenever the
// loader accepts the input, every emitter must succeed on it, in memory,
// without a panic (which Generate would turn into an InternalError); when it
// rejects the input, every problem must carry a position. It lives here
// because internal/contract cannot import the emitters. Run it with
//
//	go test ./internal/generate -run '^$' -fuzz '^FuzzLoad$' -fuzztime 5m
//
// and commit what it finds under testdata/fuzz/FuzzLoad with the fix.
func FuzzLoad(f *testing.F) {
	gentest.Seed(f, "../contract/testdata/*/*/kinds.yaml", "../gengo/testdata/*/kinds.yaml",
		"../../contract/kinds.yaml", "../../examples/*/kinds.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := contract.Load("kinds.yaml", data)
		if err != nil {
			var ps contract.Problems
			if !errors.As(err, &ps) || len(ps) == 0 {
				t.Fatalf("Load returned %T without problems: %v", err, err)
			}
			for _, p := range ps {
				if p.Pos.Line < 1 || p.Pos.Col < 1 || p.Message == "" {
					t.Errorf("problem without a position or a message: %s", p)
				}
			}
			return
		}
		if _, err := Generate(c, targets.Defaults(c.Name)); err != nil {
			var internal *InternalError
			if errors.As(err, &internal) {
				t.Fatalf("the loader accepted the contract, and an emitter panicked:\n%v\n%s", err, internal.Stack)
			}
			t.Fatalf("the loader accepted the contract, and generating it failed: %v", err)
		}
	})
}
