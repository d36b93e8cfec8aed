package gentest

import (
	"bytes"
	"sort"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/targets"
)

// GenerateTwice runs an emitter's generate on c (what names it in
// messages) twice and returns the first run's files. It fails the test when
// generate fails, and reports every file the second run writes differently:
// an emitter's output depends on the contract alone.
func GenerateTwice(t testing.TB, what string, generate func(*contract.Contract, targets.Options) (map[string][]byte, error), c *contract.Contract) map[string][]byte {
	t.Helper()
	o := targets.Defaults(c.Name)
	files, err := generate(c, o)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	again, err := generate(c, o)
	if err != nil {
		t.Fatalf("%s, run again: %v", what, err)
	}
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !bytes.Equal(files[name], again[name]) {
			t.Errorf("%s: %s differs between two runs", what, name)
		}
	}
	return files
}
