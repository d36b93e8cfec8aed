package compat

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
)

var update = flag.Bool("update", false, "rewrite testdata/*/findings.txt from the current output")

// The cases that are not named after one rule.
var combined = map[string]func(t *testing.T, fs []Finding, s Summary){
	// Several breaking rules fire at once; the version stayed: blocking.
	"several_breaking": func(t *testing.T, fs []Finding, s Summary) {
		if rules := ruleSet(fs, true); len(rules) < 4 || !s.Blocking() {
			t.Errorf("want at least 4 breaking rules and a blocking summary, got %v, %s", rules, s)
		}
	},
	// Only additive changes: nothing blocks.
	"additive_only": func(t *testing.T, fs []Finding, s Summary) {
		if s.Breaking != 0 || s.Additive < 4 || s.Blocking() {
			t.Errorf("want only additive findings, got %s", s)
		}
	},
	// Breaking changes with a new version: allowed.
	"version_bumped": func(t *testing.T, fs []Finding, s Summary) {
		if s.Breaking == 0 || !s.VersionChanged || s.Blocking() {
			t.Errorf("want breaking findings allowed by the new version, got %s", s)
		}
	},
	// A context field the layout now requires (ovstorage's operation).
	"context_field_made_required": func(t *testing.T, fs []Finding, s Summary) {
		if rules := ruleSet(fs, true); len(rules) != 1 || rules[0] != "LAYOUT_FIELD_MADE_REQUIRED" || !s.Blocking() {
			t.Errorf("want LAYOUT_FIELD_MADE_REQUIRED alone, blocking, got %v, %s", rules, s)
		}
	},
	// An agreement only makes validation stricter: nothing to report.
	"agreement_added": func(t *testing.T, fs []Finding, s Summary) {
		if len(fs) != 0 || s.Blocking() {
			t.Errorf("want no findings, got %v", fs)
		}
	},
	// A new type with a new release: breaking, and allowed like any other
	// breaking change with a new version.
	"version_retyped_new_release": func(t *testing.T, fs []Finding, s Summary) {
		if rules := ruleSet(fs, true); len(rules) != 1 || rules[0] != "VERSION_RETYPED" || !s.VersionChanged || s.Blocking() {
			t.Errorf("want VERSION_RETYPED allowed by the new version, got %v, %s", fs, s)
		}
	},
	// A derived flag that was in every envelope is now left out when false.
	"derived_flag_made_optional": func(t *testing.T, fs []Finding, s Summary) {
		if len(fs) != 1 || fs[0].Rule != "LAYOUT_FIELD_MADE_OPTIONAL" || fs[0].Subject != "layout.error.retryable" || !s.Blocking() {
			t.Errorf("want one blocking LAYOUT_FIELD_MADE_OPTIONAL for error.retryable, got %v, %s", fs, s)
		}
	},
	// A secret pattern renamed and split in two redacts no less: no
	// narrowing; the split's wider half redacts more.
	"secret_pattern_split": func(t *testing.T, fs []Finding, s Summary) {
		if len(fs) != 1 || fs[0].Rule != "SANITIZE_SECRET_WIDENED" || fs[0].Subject != "sanitize.secrets.acme_test_key" || s.Blocking() {
			t.Errorf("want only SANITIZE_SECRET_WIDENED for acme_test_key, got %v, %s", fs, s)
		}
	},
	// Contracts with imports (issue 32): a base's change is the importing
	// contract's, reported where the base makes it (Pos.File), and judged
	// by the importing contract's version, which is the base's.
	"base_kind_changed": func(t *testing.T, fs []Finding, s Summary) {
		if len(fs) != 1 || fs[0].Rule != "KIND_SAME_ARGUMENTS_CHANGED" || fs[0].File != filepath.Join("testdata", "base_kind_changed", "base.yaml") || !s.Blocking() {
			t.Errorf("want one blocking KIND_SAME_ARGUMENTS_CHANGED in the base's file, got %v, %s", fs, s)
		}
	},
	"base_kind_added": func(t *testing.T, fs []Finding, s Summary) {
		if len(fs) != 1 || fs[0].Rule != "KIND_ADDED" || fs[0].File != filepath.Join("testdata", "base_kind_added", "base.yaml") || s.Blocking() || s.Needs != BumpMinor {
			t.Errorf("want one KIND_ADDED in the base's file, needing a minor release, got %v, %s", fs, s)
		}
	},
	// The base's new contract.version is the service's new wire version:
	// its own release (1.3.0, not tied to the version it imports) must
	// become a major.
	"base_version_bumped": func(t *testing.T, fs []Finding, s Summary) {
		if len(fs) != 1 || fs[0].Rule != "IMPORT_CHANGED" || !s.VersionChanged || s.Needs != BumpMajor || s.MinRelease != "2.0.0" || !s.ReleaseTooLow || !s.Fails() {
			t.Errorf("want IMPORT_CHANGED alone and a failing need for release 2.0.0, got %v, %+v", fs, s)
		}
		if want := "needs a major release: 1.2.0 -> 2.0.0 or later (the imported contract.version 1 -> 2), but the contract's release is 1.3.0: write release: 2.0.0"; s.ReleaseText() != want {
			t.Errorf("release text:\n got %s\nwant %s", s.ReleaseText(), want)
		}
	},
	"unchanged": func(t *testing.T, fs []Finding, s Summary) {
		if len(fs) != 0 || s.Blocking() {
			t.Errorf("want no findings, got %v", fs)
		}
	},
}

// alsoFires lists rules a single-rule case cannot avoid triggering besides
// its own.
var alsoFires = map[string][]string{
	// The default problem type base is derived from the contract name.
	"CONTRACT_RENAMED": {"PROBLEM_TYPE_CHANGED"},
}

func ruleSet(fs []Finding, breaking bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range fs {
		if f.Breaking == breaking && !seen[f.Rule] {
			seen[f.Rule] = true
			out = append(out, f.Rule)
		}
	}
	sort.Strings(out)
	return out
}

func loadCase(t *testing.T, path string) *contract.Contract {
	t.Helper()
	c, err := contract.LoadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c
}

func render(fs []Finding, s Summary) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.String() + "\n")
	}
	b.WriteString("summary: " + s.String() + "\n")
	return b.String()
}

// TestCases compares every testdata_previous/<case> (old) with
// testdata/<case> (new), in buf's layout, against testdata/<case>/findings.txt.
func TestCases(t *testing.T) {
	dirs, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		name := d.Name()
		t.Run(name, func(t *testing.T) {
			newC := loadCase(t, filepath.Join("testdata", name, "kinds.yaml"))
			oldC := loadCase(t, filepath.Join("testdata_previous", name, "kinds.yaml"))
			fs := Compare(oldC, newC)
			s := Summarize(oldC, newC, fs)
			got := render(fs, s)
			golden := filepath.Join("testdata", name, "findings.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/compat -update to write it)", err)
			}
			if got != string(want) {
				t.Errorf("findings differ from %s (rerun with -update after checking):\n--- got\n%s--- want\n%s", golden, got, want)
			}
			if got != render(Compare(oldC, newC), s) {
				t.Error("Compare is not deterministic")
			}
			if check, ok := combined[name]; ok {
				check(t, fs, s)
				return
			}
			r, ok := RuleByID(name)
			if !ok {
				t.Fatalf("testdata/%s names no rule; rename it after the rule it tests or add it to combined", name)
			}
			allowed := map[string]bool{name: true}
			for _, id := range alsoFires[name] {
				allowed[id] = true
			}
			fired := false
			for _, f := range fs {
				fired = fired || f.Rule == name
				if !allowed[f.Rule] {
					t.Errorf("unexpected rule besides %s: %s", name, f)
				}
				if f.Breaking != r.Breaking {
					t.Errorf("finding's severity disagrees with its rule: %s", f)
				}
			}
			if !fired {
				t.Errorf("%s did not fire", name)
			}
			if r.Breaking != s.Blocking() {
				t.Errorf("summary %q: blocking should be %t", s, r.Breaking)
			}
		})
	}
}

func TestEveryRuleHasACase(t *testing.T) {
	for _, r := range Rules {
		for _, dir := range []string{"testdata", "testdata_previous"} {
			if _, err := os.Stat(filepath.Join(dir, r.ID, "kinds.yaml")); err != nil {
				t.Errorf("rule %s has no case: %v", r.ID, err)
			}
		}
		if !regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`).MatchString(r.ID) {
			t.Errorf("rule id %q is not SCREAMING_SNAKE_CASE", r.ID)
		}
		if r.Catches == "" || r.Why == "" {
			t.Errorf("rule %s lacks what it catches or why", r.ID)
		}
	}
	if len(ruleByID) != len(Rules) {
		t.Error("rule ids are not unique")
	}
	prev, _ := os.ReadDir("testdata_previous")
	cur, _ := os.ReadDir("testdata")
	if len(prev) != len(cur) {
		t.Errorf("testdata has %d cases, testdata_previous %d: every case needs both", len(cur), len(prev))
	}
}

// realContracts are the repository's own contracts.
func realContracts(t *testing.T) []string {
	paths, _ := filepath.Glob("../../examples/*/kinds.yaml")
	paths = append([]string{"../../contract/kinds.yaml"}, paths...)
	if len(paths) < 2 {
		t.Fatal("no example contracts found")
	}
	return paths
}

func TestRealContractsAgainstThemselves(t *testing.T) {
	for _, p := range realContracts(t) {
		// Two loads, so nothing can pass by comparing pointers.
		a, b := loadCase(t, p), loadCase(t, p)
		if fs := Compare(a, b); len(fs) != 0 {
			t.Errorf("%s against itself: %v", p, fs)
		}
	}
}

// TestDocsTable keeps docs/compat.md's rules table in agreement with Rules:
// every rule has a row with its severity, and every row is a rule.
func TestDocsTable(t *testing.T) {
	data, err := os.ReadFile("../../docs/compat.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([A-Z0-9_]+)` \\| (breaking|additive) \\|")
	documented := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(data), -1) {
		if _, dup := documented[m[1]]; dup {
			t.Errorf("docs/compat.md lists %s twice", m[1])
		}
		documented[m[1]] = m[2]
	}
	for _, r := range Rules {
		want := map[bool]string{true: "breaking", false: "additive"}[r.Breaking]
		switch got, ok := documented[r.ID]; {
		case !ok:
			t.Errorf("docs/compat.md has no row for %s", r.ID)
		case got != want:
			t.Errorf("docs/compat.md says %s is %s; the code says %s", r.ID, got, want)
		}
		delete(documented, r.ID)
	}
	for id := range documented {
		t.Errorf("docs/compat.md documents %s, which is no rule", id)
	}
	if strings.Contains(string(data), "Code generated") {
		t.Error("docs/compat.md is hand-written; it must not carry the generated header")
	}
}

// A version is new when its release number is: respelling one (1, "1.0",
// "1.0.0") announces nothing, so it cannot allow a breaking change.
func TestSameRelease(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"1", "1", true},
		{"1", "1.0", true},
		{"1.0", "1.0.0", true},
		{"0.1", "0.1.0", true},
		{"1", "2", false},
		{"1", "1.1", false},
		{"0.1", "0.2", false},
		{"v1", "1", false}, // irregular labels compare as written
		{"v1", "v1", true},
		{"1.0-beta", "1.0", false},
	}
	for _, tt := range tests {
		if got := sameRelease(tt.a, tt.b); got != tt.same {
			t.Errorf("sameRelease(%q, %q) = %t, want %t", tt.a, tt.b, got, tt.same)
		}
		if got := sameRelease(tt.b, tt.a); got != tt.same {
			t.Errorf("sameRelease(%q, %q) = %t, want %t", tt.b, tt.a, got, tt.same)
		}
	}
}
