package marker

import (
	"regexp"
	"testing"
)

// TestWorkingComponentPattern holds the schema's pattern to WorkingFile: a
// path matches exactly when one of its components is a working-file name.
func TestWorkingComponentPattern(t *testing.T) {
	re := regexp.MustCompile(WorkingComponentPattern)
	names := []string{LockFile, ".errgen-abc12.journal", ".errgen-7.done", ".v.errgen-1z2.tmp", ".x.errgen-9.bak",
		".o.errgen-123", "errgen.lock", ".errgen.lock.d", "x.errgen-1.tmp", ".errgen-A.done", "docs", ".errgen", ".a.errgen-.tmp"}
	for _, name := range names {
		want := WorkingFile(name) != ""
		for _, path := range []string{name, "gen/" + name, name + "/x", "a/" + name + "/b"} {
			if got := re.MatchString(path); got != want {
				t.Errorf("%q: pattern matches %v, WorkingFile(%q) = %q", path, got, name, WorkingFile(name))
			}
		}
	}
}
