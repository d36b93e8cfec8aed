package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
)

// listConfig lists two contracts, a and b; withC adds a third, c.
const listConfig = `version: 1
contracts:
  - name: a
    contract: a/kinds.yaml
    outputs:
      docs: {dir: docs/a}
  - name: b
    contract: b/kinds.yaml
    outputs:
      docs: {dir: docs/b}
`

const withC = listConfig + `  - name: c
    contract: c/kinds.yaml
    outputs:
      docs: {dir: docs/c}
`

// listRepo is a git repository whose folder svc holds listConfig and, in
// its first commit, the old versions of the compat cases additive_only (as
// contract a) and several_breaking (as b). It returns svc.
func listRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	gitIn(t, root, "init", "-q")
	svc := filepath.Join(root, "svc")
	gentest.WriteTree(t, svc, map[string]string{"errgen.yaml": listConfig})
	setCase(t, svc, "a", "../compat/testdata_previous/additive_only")
	setCase(t, svc, "b", "../compat/testdata_previous/several_breaking")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "contracts")
	return svc
}

// setCase writes the kinds.yaml in dir as svc/name/kinds.yaml.
func setCase(t *testing.T, svc, name, dir string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	gentest.WriteTree(t, svc, map[string]string{name + "/kinds.yaml": string(data)})
}

// TestCompatCoversEveryContract (issue 32): with a contracts list,
// --against REV compares each entry's contract with its path at REV and
// reports each under its name; it exits 1 when any of them breaks, and
// only that one is reported breaking.
func TestCompatCoversEveryContract(t *testing.T) {
	svc := listRepo(t)
	cfg := filepath.Join(svc, "errgen.yaml")
	// An additive change in a, b unchanged: exit 0.
	setCase(t, svc, "a", "../compat/testdata/additive_only")
	code, stdout, stderr := run("compat", "-config", cfg, "--against", "HEAD")
	for _, want := range []string{
		"errgen compat a against HEAD:svc/a/kinds.yaml: 0 breaking, 5 additive",
		"errgen compat b against HEAD:svc/b/kinds.yaml: no changes",
	} {
		if !strings.Contains(stdout, want+" ") {
			t.Errorf("additive: output lacks %q:\n%s", want, stdout)
		}
	}
	if code != ExitOK || strings.Contains(stdout, "BREAKING") {
		t.Errorf("additive: exit %d\n%s%s", code, stdout, stderr)
	}

	// A breaking change in b: exit 1, and every breaking finding is b's.
	setCase(t, svc, "b", "../compat/testdata/several_breaking")
	code, stdout, stderr = run("compat", "-config", cfg, "--against", "HEAD")
	if code != ExitProblems || !strings.Contains(stdout, "errgen compat b against HEAD:svc/b/kinds.yaml: 7 breaking, 1 additive") ||
		!strings.Contains(stdout, "errgen compat a against HEAD:svc/a/kinds.yaml: 0 breaking, 5 additive") {
		t.Fatalf("breaking b: exit %d\n%s%s", code, stdout, stderr)
	}
	breaking := regexp.MustCompile(`(?m)^(\S+?):\d+:\d+: BREAKING `).FindAllStringSubmatch(stdout, -1)
	if len(breaking) != 7 {
		t.Errorf("%d breaking findings, want 7:\n%s", len(breaking), stdout)
	}
	for _, m := range breaking {
		if m[1] != filepath.Join(svc, "b", "kinds.yaml") && m[1] != "HEAD:svc/b/kinds.yaml" {
			t.Errorf("a breaking finding in %s:\n%s", m[1], stdout)
		}
	}

	code, stdout, _ = run("compat", "-config", cfg, "--against", "HEAD", "--format", "json")
	var reports []struct {
		Name     string
		New      bool
		Findings []struct{ Breaking bool }
		Summary  struct {
			Against            string
			Breaking, Additive int
			OK                 bool
		}
	}
	if err := json.Unmarshal([]byte(stdout), &reports); err != nil || len(reports) != 2 {
		t.Fatalf("json: exit %d, %v\n%s", code, err, stdout)
	}
	if a, b := reports[0], reports[1]; code != ExitProblems || a.Name != "a" || !a.Summary.OK || a.Summary.Breaking != 0 || a.Summary.Additive != 5 ||
		b.Name != "b" || b.Summary.OK || b.Summary.Breaking != 7 || len(b.Findings) != 8 || b.Summary.Against != "HEAD:svc/b/kinds.yaml" {
		t.Errorf("json: exit %d, %+v", code, reports)
	}

	code, stdout, _ = run("compat", "-config", cfg, "--against", "HEAD", "--format", "github")
	errorsIn := regexp.MustCompile(`(?m)^::error file=([^,]+),`).FindAllStringSubmatch(stdout, -1)
	if code != ExitProblems || len(errorsIn) == 0 || !strings.Contains(stdout, "::warning file="+filepath.Join(svc, "a", "kinds.yaml")+",") {
		t.Errorf("github: exit %d\n%s", code, stdout)
	}
	for _, m := range errorsIn {
		if m[1] != filepath.Join(svc, "b", "kinds.yaml") {
			t.Errorf("github: an error on %s", m[1])
		}
	}
}

// TestCompatListNewContract (issue 32): an entry whose contract the
// revision does not have is reported as new, additive: exit 0.
func TestCompatListNewContract(t *testing.T) {
	svc := listRepo(t)
	cfg := filepath.Join(svc, "errgen.yaml")
	gentest.WriteTree(t, svc, map[string]string{"errgen.yaml": withC})
	setCase(t, svc, "c", "../compat/testdata/additive_only")
	code, stdout, stderr := run("compat", "-config", cfg, "--against", "HEAD")
	if code != ExitOK || !strings.Contains(stdout, "errgen compat c against HEAD:svc/c/kinds.yaml: a new contract, not in that revision: additive\n") ||
		!strings.Contains(stdout, "errgen compat a against HEAD:svc/a/kinds.yaml: no changes") {
		t.Errorf("text: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = run("compat", "-config", cfg, "--against", "HEAD", "--format", "json")
	var reports []struct {
		Name    string
		New     bool
		Summary struct{ OK bool }
	}
	if err := json.Unmarshal([]byte(stdout), &reports); err != nil || len(reports) != 3 || reports[2].Name != "c" || !reports[2].New || !reports[2].Summary.OK || reports[0].New {
		t.Errorf("json: exit %d, %v, %+v\n%s", code, err, reports, stdout)
	}
	code, stdout, _ = run("compat", "-config", cfg, "--against", "HEAD", "--format", "github")
	if code != ExitOK || !strings.Contains(stdout, "::notice file="+filepath.Join(svc, "c", "kinds.yaml")+",title=CONTRACT_ADDED::contracts.c: a new contract") {
		t.Errorf("github: exit %d\n%s", code, stdout)
	}
}

// TestCompatListAgainstIsARevision (issue 32): with a contracts list,
// --against is a git revision only; REV:path, a file or a revision git
// cannot read exits 2, as an old contract that does not validate does.
func TestCompatListAgainstIsARevision(t *testing.T) {
	svc := listRepo(t)
	cfg := filepath.Join(svc, "errgen.yaml")
	for _, tc := range []struct{ against, want string }{
		{"HEAD:svc/a/kinds.yaml", "--against takes a git revision (--against HEAD~1)"},
		{filepath.Join(svc, "a", "kinds.yaml"), "give -contract <file> --against <old>"},
		{"HEAD~5", `contracts.a: "HEAD~5" is not a revision git can read`},
		{"--upload-pack=x", "--against takes a git revision"},
	} {
		code, stdout, stderr := run("compat", "-config", cfg, "--against", tc.against)
		if code != ExitUsage || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("--against %s: exit %d, want 2 and %q\n%s%s", tc.against, code, tc.want, stdout, stderr)
		}
	}
	// An old version that does not validate: named REV:path, exit 2.
	gentest.WriteTree(t, svc, map[string]string{"b/kinds.yaml": "contract: [\n"})
	gitIn(t, filepath.Dir(svc), "commit", "-q", "-a", "-m", "broken b")
	setCase(t, svc, "b", "../compat/testdata_previous/several_breaking")
	code, stdout, stderr := run("compat", "-config", cfg, "--against", "HEAD")
	if code != ExitUsage || !strings.Contains(stderr, "HEAD:svc/b/kinds.yaml:") || stdout != "" {
		t.Errorf("broken old b: exit %d\n%s%s", code, stdout, stderr)
	}
}
