package errgen_test

import (
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/diff"
	"github.com/errgen/errgen/internal/generate"
)

// TestGeneratedFilesAreCurrent is the drift gate: the committed outputs must
// be exactly what the committed contract generates.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	c, err := contract.LoadFile("contract/kinds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, err := generate.Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := generate.Plan(".", out)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) == 0 {
		return
	}
	var b strings.Builder
	for _, ch := range changes {
		b.WriteString(diff.Unified(ch.Path, ch.Path, ch.Old, ch.New))
	}
	t.Errorf("stale generated files (%s); run `make generate` and commit the result:\n%s", generate.Summary(changes), b.String())
}
