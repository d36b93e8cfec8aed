package errgen_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/diff"
	"github.com/errgen/errgen/internal/generate"
)

// TestGeneratedFilesAreCurrent is the drift gate: the committed outputs must
// be exactly what the committed contracts generate — the reference contract
// into the repository root, each example contract into its own folder.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	targets := map[string]string{"contract/kinds.yaml": "."}
	examples, _ := filepath.Glob("examples/*/kinds.yaml")
	if len(examples) == 0 {
		t.Fatal("no example contracts found")
	}
	for _, ex := range examples {
		targets[ex] = filepath.Dir(ex)
	}
	for path, root := range targets {
		c, err := contract.LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out, err := generate.Generate(c)
		if err != nil {
			t.Fatal(err)
		}
		changes, err := generate.Plan(root, out)
		if err != nil {
			t.Fatal(err)
		}
		if len(changes) == 0 {
			continue
		}
		var b strings.Builder
		for _, ch := range changes {
			b.WriteString(diff.Unified(ch.Path, ch.Path, ch.Old, ch.New))
		}
		t.Errorf("%s: stale generated files under %s (%s); run `make generate` and commit the result:\n%s", path, root, generate.Summary(changes), b.String())
	}
}
