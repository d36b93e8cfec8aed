package errgen_test

import (
	"os"
	"regexp"
	"testing"
)

// TestReadmeNamesNoInternals: the README told Python users the import name
// is `Packages.Python`, a field of errgen's own Go model (issue 15). Users
// read names they can type; the model's Go fields are no such name.
func TestReadmeNamesNoInternals(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	internal := regexp.MustCompile("`(Packages|Idents)\\.[A-Za-z]+`")
	for _, m := range internal.FindAll(data, -1) {
		t.Errorf("README.md names %s, a field of errgen's Go model, not something a user types; say what it is (e.g. the contract name in snake case)", m)
	}
}
