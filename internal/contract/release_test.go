package contract

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withHeader is the minimal contract with its version line replaced by
// lines (the header's third line, so a release written after it is on
// line 4, column 12).
func withHeader(t *testing.T, lines string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "valid", "minimal", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if !strings.Contains(s, "\n  version: 1\n") {
		t.Fatal("the minimal contract no longer writes version: 1 on its own line")
	}
	return []byte(strings.Replace(s, "  version: 1\n", lines, 1))
}

func TestRelease(t *testing.T) {
	for _, tc := range []struct {
		header  string
		release string // the loaded Release when it loads
		written bool
	}{
		{"  version: 1\n", "1.0.0", false},
		{"  version: 3\n", "3.0.0", false},
		{"  version: 1\n  release: 1.1.0\n", "1.1.0", true},
		{"  version: 2\n  release: \"2.3.1\"\n", "2.3.1", true},
		{"  version: \"0.1\"\n", "0.1.0", false},
		{"  version: \"0.1\"\n  release: 0.4.2\n", "0.4.2", true},
		{"  version: v1-beta\n", "", false},
		{"  version: v1-beta\n  release: 5.0.0\n", "5.0.0", true},
	} {
		c, err := Load("kinds.yaml", withHeader(t, tc.header))
		if err != nil {
			t.Errorf("%q: %v", tc.header, err)
			continue
		}
		if c.Release != tc.release || c.ReleaseWritten() != tc.written {
			t.Errorf("%q: release %q (written %v), want %q (%v)", tc.header, c.Release, c.ReleaseWritten(), tc.release, tc.written)
		}
		if tc.written && c.ReleasePos != (Pos{Line: 4, Col: 12}) {
			t.Errorf("%q: release at %v, want 4:12", tc.header, c.ReleasePos)
		}
	}
}

func TestReleaseProblems(t *testing.T) {
	for _, tc := range []struct{ header, want string }{
		{"  version: 1\n  release: 2.0.0\n", `kinds.yaml:4:12: contract: release 2.0.0 has major 2, but the version is 1: write release: 1.y.z, or, for a breaking change, bump version to 2 too: a breaking change bumps the wire version`},
		{"  version: 2\n  release: 1.4.0\n", `kinds.yaml:4:12: contract: release 1.4.0 has major 1, but the version is 2: write release: 2.y.z:`},
		{"  version: \"0.1\"\n  release: 1.0.0\n", `kinds.yaml:4:12: contract: release 1.0.0 has major 1, but the version "0.1" has 0: write release: 0.y.z`},
		{"  version: 1\n  release: 1.1\n", `kinds.yaml:4:12: contract: release "1.1" must be a release number MAJOR.MINOR.PATCH (e.g. 1.1.0); write all three parts`},
		{"  version: 1\n  release: 1\n", `kinds.yaml:4:12: contract: release "1" must be a release number MAJOR.MINOR.PATCH (e.g. 1.1.0); write all three parts`},
		{"  version: 1\n  release: v1.1.0\n", `kinds.yaml:4:12: contract: release "v1.1.0" must be a release number MAJOR.MINOR.PATCH (e.g. 1.1.0); write it without the v`},
		{"  version: 1\n  release: 1.1.0-rc.1\n", `kinds.yaml:4:12: contract: release "1.1.0-rc.1" must be a release number MAJOR.MINOR.PATCH (e.g. 1.1.0); a pre-release or build suffix is not accepted`},
		{"  version: 1\n  release: 1.01.0\n", `kinds.yaml:4:12: contract: release "1.01.0" must be a release number MAJOR.MINOR.PATCH (e.g. 1.1.0); a part has a leading zero`},
		{"  version: 1\n  release: 1.99999999999999999999.0\n", `kinds.yaml:4:12: contract: release "1.99999999999999999999.0" must be a release number MAJOR.MINOR.PATCH (e.g. 1.1.0); a part is too large`},
		{"  version: 1\n  release:\n", `kinds.yaml:4:3: contract: release is empty; give a release number MAJOR.MINOR.PATCH (e.g. 1.1.0) or remove the key (the default is the version's: 1.0.0)`},
		{"  version: 1\n  release: [1, 1, 0]\n", `kinds.yaml:4:12: contract: release must be a release number MAJOR.MINOR.PATCH (e.g. 1.1.0), found a list`},
		{"  version: 1\n  relase: 1.1.0\n", `kinds.yaml:4:3: contract: unknown key "relase" (did you mean "release"?)`},
	} {
		_, err := Load("kinds.yaml", withHeader(t, tc.header))
		if err == nil {
			t.Errorf("%q: loaded", tc.header)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q:\n got %s\nwant %s…", tc.header, err, tc.want)
		}
	}
}

func TestReleaseNumber(t *testing.T) {
	a, _ := ParseRelease("1.10.0")
	b, _ := ParseRelease("1.9.3")
	if !b.Less(a) || a.Less(b) || a.Less(a) {
		t.Errorf("1.9.3 < 1.10.0 is %v, 1.10.0 < 1.9.3 is %v", b.Less(a), a.Less(b))
	}
	for in, want := range map[string]string{"1.0.0": "", "0.3.0": "", "2.0.0": "/v2", "17.4.1": "/v17", "x": ""} {
		if got := GoMajorSuffix(in); got != want {
			t.Errorf("GoMajorSuffix(%q) = %q, want %q", in, got, want)
		}
	}
}
