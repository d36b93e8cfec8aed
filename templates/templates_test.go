package templates

import (
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
)

// TestSanitizerPathLists: the Go sanitizer template carries the key file
// extensions and home prefixes the loader checks a truncation marker against
// (the credential names reach it as policy data instead). The sanitizers
// of runtime/ are checked by runtime/runtime_test.go.
func TestSanitizerPathLists(t *testing.T) {
	for _, name := range []string{"go/sanitize.go.tmpl"} {
		data, err := FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range append(append([]string(nil), contract.KeyFileExtensions...), contract.HomePrefixes...) {
			if !strings.Contains(string(data), `"`+x+`"`) {
				t.Errorf("%s does not list %q", name, x)
			}
		}
	}
}
