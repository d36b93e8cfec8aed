package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const compatCases = "../compat/testdata"

func TestCompatUsage(t *testing.T) {
	checkUsage(t, []usageCase{
		{[]string{"compat", "-help"}, ExitOK, "--against"},
		{[]string{"compat", "-contract", reference}, ExitUsage, "--against is required"},
		{[]string{"compat", "--against", reference, "--format", "xml"}, ExitUsage, `unknown format "xml"`},
		{[]string{"compat", "--against", reference, "old.yaml"}, ExitUsage, `unexpected argument "old.yaml"`},
		{[]string{"compat", "--bogus"}, ExitUsage, "flag provided but not defined: -bogus"},
		{[]string{"help"}, ExitOK, "compat"},
	})
}

// Every real contract against itself: nothing to report, exit 0.
func TestCompatRealContractsAgainstThemselves(t *testing.T) {
	paths, _ := filepath.Glob("../../examples/*/kinds.yaml")
	for _, p := range append([]string{reference}, paths...) {
		for _, format := range compatFormats {
			code, stdout, stderr := run("compat", "-contract", p, "--against", p, "--format", format)
			if code != ExitOK || strings.Contains(stdout, "BREAKING") || strings.Contains(stdout, "::") {
				t.Errorf("%s against itself (%s): exit %d\n%s%s", p, format, code, stdout, stderr)
			}
			if format == "text" && !strings.Contains(stdout, "no changes") {
				t.Errorf("%s against itself: %q", p, stdout)
			}
		}
	}
}

func compatCase(name string, format string) (int, string, string) {
	return run("compat", "-contract", filepath.Join(compatCases, name, "kinds.yaml"),
		"--against", filepath.Join("../compat/testdata_previous", name, "kinds.yaml"), "--format", format)
}

func TestCompatExitCodes(t *testing.T) {
	tests := []struct {
		name string
		code int
		want string
	}{
		{"several_breaking", ExitProblems, "breaking changes need a new contract.version"},
		{"additive_only", ExitOK, "0 breaking, 5 additive"},
		{"version_bumped", ExitOK, "contract version 1 -> 2"},
		{"unchanged", ExitOK, "no changes"},
		// A respelled version is the same release, so no new version: the
		// type change it makes blocks.
		{"VERSION_RETYPED", ExitProblems, "contract version 1 -> 1.0, the same release 1.0.0): breaking changes need a new contract.version"},
		{"version_retyped_new_release", ExitOK, "contract version 1 -> 2.0): breaking changes are allowed"},
		{"SANITIZE_FIELD_DROPPED", ExitProblems, "BREAKING SANITIZE_FIELD_DROPPED sanitize.fields.guidance"},
		{"LAYOUT_FIELD_MADE_REQUIRED", ExitProblems, "BREAKING LAYOUT_FIELD_MADE_REQUIRED layout.error.retryable"},
		{"RETRY_POLICY_CHANGED", ExitOK, "0 breaking, 2 additive"},
		{"CLASSIFIER_RULES_REORDERED", ExitOK, "additive CLASSIFIER_RULES_REORDERED"},
	}
	for _, tt := range tests {
		code, stdout, stderr := compatCase(tt.name, "text")
		if code != tt.code || !strings.Contains(stdout, tt.want) {
			t.Errorf("%s: exit %d, want %d with %q\n%s%s", tt.name, code, tt.code, tt.want, stdout, stderr)
		}
	}
	code, stdout, _ := compatCase("several_breaking", "text")
	want, _ := os.ReadFile(filepath.Join(compatCases, "several_breaking", "findings.txt"))
	// The CLI prints the same lines as the golden file, paths as given.
	for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		if strings.HasPrefix(line, "summary: ") {
			continue
		}
		line = strings.Replace(line, "testdata", "../compat/testdata", 1)
		if !strings.Contains(stdout, line+"\n") {
			t.Errorf("exit %d; output lacks %q:\n%s", code, line, stdout)
		}
	}
}

func TestCompatJSON(t *testing.T) {
	code, stdout, stderr := compatCase("several_breaking", "json")
	var out struct {
		Findings []struct {
			Rule     string
			Breaking bool
			Subject  string
			File     string
			Line     int
			Col      int
		}
		Summary struct {
			Breaking, Additive int
			OK                 bool
			VersionChanged     bool `json:"version_changed"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("exit %d, not JSON: %v\n%s%s", code, err, stdout, stderr)
	}
	if code != ExitProblems || out.Summary.OK || out.Summary.Breaking != 7 || out.Summary.Additive != 1 || len(out.Findings) != 8 {
		t.Errorf("exit %d, %+v", code, out)
	}
	if f := out.Findings[0]; f.Rule != "FIELD_RETYPED" || !f.Breaking || f.Subject != "invalid_param.param" || f.Line == 0 || !strings.HasSuffix(f.File, "kinds.yaml") {
		t.Errorf("first finding: %+v", f)
	}
	code, stdout, _ = compatCase("unchanged", "json")
	if code != ExitOK || !strings.Contains(stdout, `"findings": []`) || !strings.Contains(stdout, `"ok": true`) {
		t.Errorf("unchanged: exit %d\n%s", code, stdout)
	}
}

func TestCompatGitHub(t *testing.T) {
	code, stdout, _ := compatCase("several_breaking", "github")
	newFile := filepath.Join(compatCases, "several_breaking", "kinds.yaml")
	for _, want := range []string{
		"::error file=" + newFile + ",line=73,col=7,title=FIELD_RETYPED::invalid_param.param: field \"param\" changed type from string to integer\n",
		"::warning file=" + newFile + ",line=86,col=3,title=KIND_ADDED::rate_limited: ",
		// A deletion is located in the old file: attached to the new one.
		"::error file=" + newFile + ",title=KIND_DELETED::internal_error: kind \"internal_error\" was deleted; ",
		"(was at ../compat/testdata_previous/several_breaking/kinds.yaml:86:3)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if code != ExitProblems {
		t.Errorf("exit %d", code)
	}
	_, stdout, _ = compatCase("DESCRIPTION_CHANGED", "github")
	if !strings.HasPrefix(stdout, "::notice ") {
		t.Errorf("a description change is a notice:\n%s", stdout)
	}
	_, stdout, _ = compatCase("RETIRED_REPLACEMENT_CHANGED", "github")
	if !strings.HasPrefix(stdout, "::notice ") {
		t.Errorf("replaced_by only changes the docs, a notice:\n%s", stdout)
	}
	// Behaviour changes are warnings, as other additive changes are.
	_, stdout, _ = compatCase("CLASSIFIER_DEFAULT_CHANGED", "github")
	if !strings.HasPrefix(stdout, "::warning ") {
		t.Errorf("a classifier's new default is a warning:\n%s", stdout)
	}
	if got := ghData("50%\r\nnext"); got != "50%25%0D%0Anext" {
		t.Errorf("ghData: %q", got)
	}
	if got := ghProperty("HEAD:a,b"); got != "HEAD%3Aa%2Cb" {
		t.Errorf("ghProperty: %q", got)
	}
}

func TestCompatInvalidOld(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "old.yaml")
	os.WriteFile(bad, []byte("contract: [\n"), 0o644)
	code, _, stderr := run("compat", "-contract", reference, "--against", bad)
	if code != ExitUsage || !strings.Contains(stderr, bad+":") {
		t.Errorf("invalid old contract: exit %d\n%s", code, stderr)
	}
	code, _, stderr = run("compat", "-contract", reference, "--against", filepath.Join(t.TempDir(), "missing.yaml"))
	if code != ExitUsage || !strings.Contains(stderr, "no such file") || !strings.Contains(stderr, "REV:path") {
		t.Errorf("missing old contract: exit %d\n%s", code, stderr)
	}
}

// gitRepo makes a repository in a temporary directory holding kinds.yaml at
// its root, with the contents of the given cases' old versions committed in
// order.
func gitRepo(t *testing.T, commits ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) { t.Helper(); gitIn(t, dir, args...) }
	git("init", "-q")
	for _, src := range commits {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "kinds.yaml"), data, 0o644)
		git("add", "kinds.yaml")
		git("commit", "-q", "-m", "contract")
	}
	return dir
}

// gitIn runs git in dir with no user or system configuration.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestCompatAgainstGitRevision(t *testing.T) {
	old := "../compat/testdata_previous/several_breaking/kinds.yaml"
	dir := gitRepo(t, old)
	contractPath := filepath.Join(dir, "kinds.yaml")
	// Unchanged working tree: nothing to report.
	if code, stdout, stderr := run("compat", "-contract", contractPath, "--against", "HEAD:kinds.yaml"); code != ExitOK || !strings.Contains(stdout, "no changes") {
		t.Fatalf("unchanged: exit %d\n%s%s", code, stdout, stderr)
	}
	// Change the working tree (no commit): breaking, positions in the
	// old version named REV:path.
	data, _ := os.ReadFile(filepath.Join(compatCases, "several_breaking", "kinds.yaml"))
	os.WriteFile(contractPath, data, 0o644)
	code, stdout, stderr := run("compat", "-contract", contractPath, "--against", "HEAD:kinds.yaml")
	for _, want := range []string{
		contractPath + ":77:3: BREAKING KIND_HTTP_STATUS_CHANGED timeout: ",
		"HEAD:kinds.yaml:86:3: BREAKING KIND_DELETED internal_error: ",
		"errgen compat against HEAD:kinds.yaml: 7 breaking, 1 additive",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if code != ExitProblems {
		t.Errorf("exit %d\n%s", code, stderr)
	}

	for _, tt := range []struct{ spec, want string }{
		{"HEAD~5:kinds.yaml", "HEAD~5"},
		{"HEAD:nope.yaml", "nope.yaml"},
		{"no-such-branch:kinds.yaml", "no-such-branch"},
	} {
		code, _, stderr := run("compat", "-contract", contractPath, "--against", tt.spec)
		if code != ExitUsage || !strings.Contains(stderr, "cannot read "+tt.spec+" with git show") || !strings.Contains(stderr, tt.want) {
			t.Errorf("--against %s: exit %d\n%s", tt.spec, code, stderr)
		}
	}

	// Without git on PATH, a clear message.
	t.Setenv("PATH", t.TempDir())
	code, _, stderr = run("compat", "-contract", contractPath, "--against", "HEAD:kinds.yaml")
	if code != ExitUsage || !strings.Contains(stderr, "needs git") {
		t.Errorf("without git: exit %d\n%s", code, stderr)
	}
}

// The old version from a git revision run from another directory: git runs
// where the new contract is, so the path is relative to its repository.
func TestCompatGitFromElsewhere(t *testing.T) {
	dir := gitRepo(t, "../compat/testdata_previous/version_bumped/kinds.yaml", "../compat/testdata/version_bumped/kinds.yaml")
	code, stdout, stderr := run("compat", "-contract", filepath.Join(dir, "kinds.yaml"), "--against", "HEAD~1:kinds.yaml")
	if code != ExitOK || !strings.Contains(stdout, "contract version 1 -> 2") || !strings.Contains(stdout, "HEAD~1:kinds.yaml:86:3: BREAKING KIND_DELETED") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestCompatExitsTwoWhenItCannotCompare: exit 1 means a breaking change
// without a new contract.version, and nothing else (issue 29: a failed git
// read exited 1 too, so CI reported a breaking change); a comparison that
// cannot be made (a file or revision that cannot be read, a contract or
// config that does not validate) exits 2, as a usage error does.
func TestCompatExitsTwoWhenItCannotCompare(t *testing.T) {
	dir := gitRepo(t, "../compat/testdata_previous/several_breaking/kinds.yaml")
	contractPath := filepath.Join(dir, "kinds.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("contract: [\n"), 0o644)
	cfg := filepath.Join(dir, "errgen.yaml")
	os.WriteFile(cfg, []byte("version: 1\ncontract: kinds.yaml\noutputs:\n  go: {package: func}\n"), 0o644)
	for _, args := range [][]string{
		{"-contract", contractPath, "--against", "origin/main:kinds.yaml"},           // no such branch
		{"-contract", contractPath, "--against", "HEAD:gone.yaml"},                   // no such path
		{"-contract", contractPath, "--against", filepath.Join(dir, "missing.yaml")}, // no such file
		{"-contract", filepath.Join(dir, "missing.yaml"), "--against", "HEAD:kinds.yaml"},
		{"-contract", bad, "--against", "HEAD:kinds.yaml"},
		{"-contract", contractPath, "--against", bad},
		{"-config", cfg, "--against", "HEAD:kinds.yaml"},
	} {
		if code, stdout, stderr := run(append([]string{"compat"}, args...)...); code != ExitUsage || stderr == "" {
			t.Errorf("compat %v: exit %d, want %d\n%s%s", args, code, ExitUsage, stdout, stderr)
		}
	}
	if code, stdout, _ := run("compat", "-help"); code != ExitOK || !strings.Contains(stdout, "Exit codes: 0 ") || strings.Contains(stdout, "origin/main") {
		t.Errorf("compat -help: exit %d\n%s", code, stdout)
	}
}
