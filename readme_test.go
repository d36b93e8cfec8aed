package errgen_test

import (
	"regexp"
	"testing"
)

// TestReadmeNamesNoInternals: the README told Python users the import name
// is `Packages.Python`, a field of errgen's own Go model (issue 15). Users
// read names they can type; the model's Go fields are no such name. The
// language guides moved from the README to docs/ (issue 31), so every page
// is read but the maintainers' (which name the model on purpose).
func TestReadmeNamesNoInternals(t *testing.T) {
	internal := regexp.MustCompile("`(Packages|Idents)\\.[A-Za-z]+`")
	maintainers := map[string]bool{"docs/architecture.md": true, "docs/design.md": true, "docs/testing.md": true}
	for p, page := range markdownPages(t) {
		if maintainers[p] {
			continue
		}
		for _, m := range internal.FindAllString(page, -1) {
			t.Errorf("%s names %s, a field of errgen's Go model, not something a user types; say what it is (e.g. the contract name in snake case)", p, m)
		}
	}
}
