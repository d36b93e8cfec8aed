package generate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
)

// TestHandWrittenFilesSurvive: the hand-written files that live in
// directories errgen owns carry no generated marker, so reconciling the
// reference outputs with the repository never deletes or rewrites them.
func TestHandWrittenFilesSurvive(t *testing.T) {
	handWritten := []string{
		"conformance/sanitizer.vectors.json",
		"docs/architecture.md",
		"docs/sanitizer.md",
	}
	for _, p := range handWritten {
		data, err := os.ReadFile(filepath.Join("../..", p))
		if err != nil {
			t.Fatal(err)
		}
		if IsGenerated(p, data) {
			t.Errorf("%s carries errgen's header line (%q), so errgen would prune it", p, marker.Text)
		}
	}
	c := loadReference(t)
	out, err := Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	changes, err := Plan("../..", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		for _, p := range handWritten {
			if c.Path == p {
				t.Errorf("errgen would %s the hand-written %s", c.Op, p)
			}
		}
	}
}
