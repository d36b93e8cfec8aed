package compat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
)

// loadWithRelease loads a case's contract with its header's version line
// replaced by header (e.g. "  version: 1\n  release: 1.1.0\n").
func loadWithRelease(t *testing.T, path, header string) *contract.Contract {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "\n  version: ")
	if i < 0 {
		t.Fatalf("%s writes no version line", path)
	}
	end := i + 1 + strings.IndexByte(s[i+1:], '\n') + 1
	c, err := contract.Load(path, []byte(s[:i+1]+header+s[end:]))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c
}

// TestBumps: each case needs the bump its findings' classes need (major
// for breaking, patch for documentation only, minor for other additive
// changes), and the summary names the lowest release that has it.
func TestBumps(t *testing.T) {
	for _, tc := range []struct {
		name, needs, min, forRule string
	}{
		{"unchanged", "no", "1.0.0", ""},
		{"DESCRIPTION_CHANGED", "patch", "1.0.1", "DESCRIPTION_CHANGED internal_error"},
		{"GUIDANCE_CHANGED", "patch", "1.0.1", "GUIDANCE_CHANGED"},
		{"KIND_LOG_CHANGED", "patch", "1.0.1", "KIND_LOG_CHANGED"},
		{"KIND_ADDED", "minor", "1.1.0", "KIND_ADDED"},
		{"CLASSIFIER_RULE_CHANGED", "minor", "1.1.0", "CLASSIFIER_RULE_CHANGED"},
		{"additive_only", "minor", "1.1.0", "ENUM_VALUE_ADDED origins.policy"}, // a minor beats the patches
		{"several_breaking", "major", "2.0.0", ""},
		{"version_bumped", "major", "2.0.0", ""},
	} {
		oldC := loadCase(t, filepath.Join("testdata_previous", tc.name, "kinds.yaml"))
		newC := loadCase(t, filepath.Join("testdata", tc.name, "kinds.yaml"))
		s := Summarize(oldC, newC, Compare(oldC, newC))
		if s.Needs.String() != tc.needs || s.MinRelease != tc.min || !strings.HasPrefix(s.NeedsFor, tc.forRule) {
			t.Errorf("%s: needs %s (%s), min %s; want %s (%s…), %s", tc.name, s.Needs, s.NeedsFor, s.MinRelease, tc.needs, tc.forRule, tc.min)
		}
		// No contract here writes release: nothing fails but a breaking
		// change under the same version, as before releases existed.
		if s.ReleaseChecked || s.Fails() != s.Blocking() {
			t.Errorf("%s: release checked %v, fails %v, blocking %v", tc.name, s.ReleaseChecked, s.Fails(), s.Blocking())
		}
	}
	for _, r := range Rules {
		if b := RuleBump(r.ID); (b == BumpMajor) != r.Breaking || (b == BumpNone) != noRelease[r.ID] {
			t.Errorf("%s: bump %s, breaking %v", r.ID, b, r.Breaking)
		}
	}
}

// TestReleaseCheck: a contract that writes release fails when it is lower
// than the change needs, and says what to write.
func TestReleaseCheck(t *testing.T) {
	oldPath := filepath.Join("testdata_previous", "KIND_ADDED", "kinds.yaml")
	newPath := filepath.Join("testdata", "KIND_ADDED", "kinds.yaml")
	for _, tc := range []struct {
		oldHeader, newHeader string
		fails                bool
		text                 string
	}{
		{"  version: 1\n", "  version: 1\n  release: 1.1.0\n", false,
			"needs a minor release: 1.0.0 -> 1.1.0 or later (KIND_ADDED rate_limited); the contract's release is 1.1.0"},
		{"  version: 1\n  release: 1.4.2\n", "  version: 1\n  release: 1.5.0\n", false,
			"needs a minor release: 1.4.2 -> 1.5.0 or later (KIND_ADDED rate_limited); the contract's release is 1.5.0"},
		{"  version: 1\n  release: 1.4.2\n", "  version: 1\n  release: 1.4.3\n", true,
			"needs a minor release: 1.4.2 -> 1.5.0 or later (KIND_ADDED rate_limited), but the contract's release is 1.4.3: write release: 1.5.0"},
		{"  version: 1\n", "  version: 1\n  release: 1.0.0\n", true,
			"needs a minor release: 1.0.0 -> 1.1.0 or later (KIND_ADDED rate_limited), but the contract's release is 1.0.0: write release: 1.1.0"},
		// The old contract wrote one and the new one dropped it: still checked.
		{"  version: 1\n  release: 1.4.2\n", "  version: 1\n", true,
			"needs a minor release: 1.4.2 -> 1.5.0 or later (KIND_ADDED rate_limited), but the contract's release is 1.0.0: write release: 1.5.0"},
		// Neither writes one: reported, not checked.
		{"  version: 1\n", "  version: 1\n", false,
			"needs a minor release: 1.0.0 -> 1.1.0 or later (KIND_ADDED rate_limited); the contract writes no release, so its packages stay 1.0.0: write release: 1.1.0 (errgen compat then checks it)"},
		// Below 1.0.0 an additive change raises the patch.
		{"  version: \"0.1\"\n", "  version: \"0.1\"\n  release: 0.1.1\n", false,
			"needs a patch release: 0.1.0 -> 0.1.1 or later (KIND_ADDED rate_limited); the contract's release is 0.1.1"},
	} {
		oldC := loadWithRelease(t, oldPath, tc.oldHeader)
		newC := loadWithRelease(t, newPath, tc.newHeader)
		s := Summarize(oldC, newC, Compare(oldC, newC))
		if s.Fails() != tc.fails || s.ReleaseText() != tc.text {
			t.Errorf("%q -> %q: fails %v, %q\nwant %v, %q", tc.oldHeader, tc.newHeader, s.Fails(), s.ReleaseText(), tc.fails, tc.text)
		}
	}
}

func TestNext(t *testing.T) {
	for _, tc := range []struct {
		from string
		bump Bump
		want string
	}{
		{"1.2.3", BumpMajor, "2.0.0"}, {"1.2.3", BumpMinor, "1.3.0"}, {"1.2.3", BumpPatch, "1.2.4"}, {"1.2.3", BumpNone, "1.2.3"},
		{"0.2.3", BumpMajor, "0.3.0"}, {"0.2.3", BumpMinor, "0.2.4"}, {"0.2.3", BumpPatch, "0.2.4"},
	} {
		r, _ := contract.ParseRelease(tc.from)
		if got := Next(r, tc.bump).String(); got != tc.want {
			t.Errorf("Next(%s, %s) = %s, want %s", tc.from, tc.bump, got, tc.want)
		}
	}
}
