package cli

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gentest"
	"golang.org/x/mod/sumdb/dirhash"
)

// Compat across imports (issue 32): the old contract at a revision is
// loaded with its imports as they were at that revision, and a change in
// the base is reported at the base's position.

// importBase is the platform's base contract the tests change.
func importBase(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../contract/testdata/imports/base.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// serviceContract imports the base with the import entry imp.
func serviceContract(imp string) string {
	return `contract:
  name: billing-error
  description: A service on the platform's base.
imports:
  - ` + imp + `
groups:
  billing:
    title: Billing
    description: Paying.
kinds:
  card_declined:
    group: billing
    description: The card was declined.
    origin: validation
    http: 402
    recovery:
      action: revise
      same_arguments: never
      guidance: Ask for another card.
`
}

// The base changes a kind's same_arguments (line 85 of base.yaml) and, in
// the breaking version, deletes internal_error (line 88).
const (
	baseSameArgs  = "      action: retry_later\n      same_arguments: safe\n"
	baseNewKind   = "  rate_limited:\n    group: network\n    description: Too many requests.\n    origin: upstream\n    http: 429\n    recovery:\n      action: retry_later\n      same_arguments: safe\n      guidance: Retry after the hint.\n"
	baseKindsTail = "  internal_error:\n"
)

func breakingBase(base string) string {
	return strings.Replace(base, baseSameArgs, strings.Replace(baseSameArgs, "safe", "never", 1), 1)
}

func additiveBase(base string) string {
	return strings.Replace(base, baseKindsTail, baseNewKind+baseKindsTail, 1)
}

// An import by path, changed in the working tree since HEAD: the base at
// HEAD is read with git, an added base kind is additive for the service,
// a changed one breaks it, reported in the base's file; the same with a
// contracts list. A base missing at the revision cannot be compared.
func TestCompatImportByPathAtRevision(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: ", err)
	}
	root := t.TempDir()
	base := importBase(t)
	gentest.WriteTree(t, root, map[string]string{
		"platform/kinds.yaml":     base,
		"svc/contract/kinds.yaml": serviceContract("path: ../../platform/kinds.yaml"),
		"errgen.yaml":             "version: 1\ncontracts:\n  - name: billing\n    contract: svc/contract/kinds.yaml\n    outputs:\n      docs: {dir: docs}\n",
	})
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "service on the base")
	svc := filepath.Join(root, "svc", "contract", "kinds.yaml")
	newBase := filepath.Join(root, "platform", "kinds.yaml")

	code, stdout, stderr := run("compat", "-contract", svc, "--against", "HEAD")
	if code != ExitOK || !strings.Contains(stdout, "errgen compat against HEAD:svc/contract/kinds.yaml: no changes") {
		t.Fatalf("unchanged: exit %d\n%s%s", code, stdout, stderr)
	}

	gentest.WriteTree(t, root, map[string]string{"platform/kinds.yaml": additiveBase(base)})
	code, stdout, stderr = run("compat", "-contract", svc, "--against", "HEAD:svc/contract/kinds.yaml")
	if want := newBase + ":87:3: additive KIND_ADDED rate_limited: "; code != ExitOK || !strings.HasPrefix(stdout, want) || !strings.Contains(stdout, "0 breaking, 1 additive") {
		t.Errorf("a new base kind: exit %d, want %d and %q\n%s%s", code, ExitOK, want, stdout, stderr)
	}

	broken := breakingBase(base)
	broken = broken[:strings.Index(broken, baseKindsTail)] + broken[strings.Index(broken, "\nfallback:")+1:]
	gentest.WriteTree(t, root, map[string]string{"platform/kinds.yaml": broken})
	code, stdout, stderr = run("compat", "-contract", svc, "--against", "HEAD")
	for _, want := range []string{
		newBase + ":78:3: BREAKING KIND_SAME_ARGUMENTS_CHANGED timeout: ",
		"HEAD:platform/kinds.yaml:87:3: BREAKING KIND_DELETED internal_error: ",
		"2 breaking, 0 additive (contract version 1 unchanged): breaking changes need a new contract.version",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("a breaking base change: output lacks %q:\n%s%s", want, stdout, stderr)
		}
	}
	if code != ExitProblems {
		t.Errorf("a breaking base change: exit %d, want %d", code, ExitProblems)
	}
	// GitHub annotations attach a change in a base of the checkout to it.
	_, stdout, _ = run("compat", "-contract", svc, "--against", "HEAD", "--format", "github")
	if want := "::error file=" + ghProperty(filepath.ToSlash(newBase)) + ",line=78,col=3,title=KIND_SAME_ARGUMENTS_CHANGED::"; !strings.Contains(stdout, want) {
		t.Errorf("github: lacks %q:\n%s", want, stdout)
	}

	// The contracts list: --against REV, the same findings under the
	// entry's name.
	code, stdout, stderr = run("compat", "-config", filepath.Join(root, "errgen.yaml"), "--against", "HEAD")
	if code != ExitProblems || !strings.Contains(stdout, "HEAD:platform/kinds.yaml:87:3: BREAKING KIND_DELETED internal_error") {
		t.Errorf("contracts list: exit %d\n%s%s", code, stdout, stderr)
	}

	// The service at HEAD imports a file HEAD lacks: exit 2, at the import.
	gitIn(t, root, "rm", "-q", "--cached", "platform/kinds.yaml")
	gitIn(t, root, "commit", "-q", "-m", "the base is no longer committed")
	code, stdout, stderr = run("compat", "-contract", svc, "--against", "HEAD")
	want := "HEAD:svc/contract/kinds.yaml:5:11: imports: cannot import ../../platform/kinds.yaml: no such file at HEAD (HEAD:platform/kinds.yaml)"
	if code != ExitUsage || !strings.Contains(stderr, want) {
		t.Errorf("a base missing at the revision: exit %d, want %d and %q\n%s%s", code, ExitUsage, want, stdout, stderr)
	}

	// An import by module in a repository with no go.mod at the revision.
	gentest.WriteTree(t, root, map[string]string{"svc/contract/kinds.yaml": serviceContract("module: example.com/platform/errors")})
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "imports a module without a go.mod")
	gentest.WriteTree(t, root, map[string]string{"svc/contract/kinds.yaml": serviceContract("path: ../../platform/kinds.yaml")})
	code, stdout, stderr = run("compat", "-contract", svc, "--against", "HEAD")
	want = "HEAD:svc/contract/kinds.yaml:5:13: imports: module example.com/platform/errors: no go.mod at or above svc/contract at HEAD"
	if code != ExitUsage || !strings.Contains(stderr, want) {
		t.Errorf("no go.mod at the revision: exit %d, want %d and %q\n%s%s", code, ExitUsage, want, stdout, stderr)
	}
}

// modProxy writes the base's versions into a file GOPROXY at dir (the
// layout tests/go/cmd/modproxy publishes) and returns go.sum's lines for
// them, by version.
func modProxy(t *testing.T, dir, module string, versions map[string]string) map[string]string {
	t.Helper()
	at := filepath.Join(dir, filepath.FromSlash(module), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	mod := []byte("module " + module + "\n\ngo 1.22\n")
	modHash, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(mod)), nil })
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	var list []string
	for v, kinds := range versions {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for name, data := range map[string][]byte{"go.mod": mod, "contract/kinds.yaml": []byte(kinds)} {
			w, err := zw.Create(module + "@" + v + "/" + name)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(data)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		zipFile := filepath.Join(at, v+".zip")
		gentest.WriteTree(t, at, map[string]string{
			v + ".zip":  buf.String(),
			v + ".mod":  string(mod),
			v + ".info": fmt.Sprintf(`{"Version":%q,"Time":"2026-01-01T00:00:00Z"}`, v),
		})
		h, err := dirhash.HashZip(zipFile, dirhash.Hash1)
		if err != nil {
			t.Fatal(err)
		}
		sums[v] = fmt.Sprintf("%s %s %s\n%s %s/go.mod %s\n", module, v, h, module, v, modHash)
		list = append(list, v)
	}
	gentest.WriteTree(t, at, map[string]string{"list": strings.Join(list, "\n") + "\n"})
	return sums
}

// An import by module, upgraded in go.mod since HEAD (go get
// platform@v1.1.0, uncommitted): the old contract takes the base at the
// version HEAD's go.mod requires, fetched with go mod download, and the
// breaking change is reported in the new version's file. A module the old
// go.mod does not require cannot be compared.
func TestCompatImportByModuleUpgraded(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: ", err)
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the go command is needed: ", err)
	}
	const module = "example.com/platform/errors"
	tmp := t.TempDir()
	base := importBase(t)
	sums := modProxy(t, filepath.Join(tmp, "proxy"), module, map[string]string{"v1.0.0": base, "v1.1.0": breakingBase(base)})
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(filepath.Join(tmp, "proxy")))
	t.Setenv("GOMODCACHE", filepath.Join(tmp, "modcache"))
	t.Setenv("GOFLAGS", "-modcacherw")
	t.Setenv("GONOSUMDB", "example.com")
	t.Setenv("GOWORK", "off")
	t.Setenv("GOTOOLCHAIN", "local")

	repo := filepath.Join(tmp, "svc")
	goMod := func(v string) string {
		return "module example.com/svc\n\ngo 1.22\n\nrequire " + module + " " + v + "\n"
	}
	gentest.WriteTree(t, repo, map[string]string{
		"go.mod":              goMod("v1.0.0"),
		"go.sum":              sums["v1.0.0"],
		"contract/kinds.yaml": serviceContract("module: " + module),
	})
	gitIn(t, repo, "init", "-q")
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "service on platform v1.0.0")
	svc := filepath.Join(repo, "contract", "kinds.yaml")

	gentest.WriteTree(t, repo, map[string]string{"go.mod": goMod("v1.1.0"), "go.sum": sums["v1.0.0"] + sums["v1.1.0"]})
	code, stdout, stderr := run("compat", "-contract", svc, "--against", "HEAD")
	for _, want := range []string{
		svc + ":5:5: additive IMPORT_CHANGED imports.platform-error: contract platform-error is now imported from " + module + "@v1.1.0/contract/kinds.yaml (version 1) instead of " + module + "@v1.0.0/contract/kinds.yaml (version 1)",
		module + "@v1.1.0/contract/kinds.yaml:78:3: BREAKING KIND_SAME_ARGUMENTS_CHANGED timeout: ",
		"1 breaking, 1 additive (contract version 1 unchanged): breaking changes need a new contract.version",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s%s", want, stdout, stderr)
		}
	}
	if code != ExitProblems {
		t.Errorf("exit %d, want %d", code, ExitProblems)
	}
	// The module's file is outside the checkout: GitHub gets the import
	// entry, and the position in the message.
	_, stdout, _ = run("compat", "-contract", svc, "--against", "HEAD", "--format", "github")
	if want := "::error file=" + ghProperty(filepath.ToSlash(svc)) + ",line=5,col=5,title=KIND_SAME_ARGUMENTS_CHANGED::timeout: kind \"timeout\" changed its same_arguments from safe to never (at " + module + "@v1.1.0/contract/kinds.yaml:78:3)"; !strings.Contains(stdout, want) {
		t.Errorf("github: lacks %q:\n%s", want, stdout)
	}

	// A go.sum at the revision that disagrees with the download: exit 2.
	good := sums["v1.0.0"] + sums["v1.1.0"]
	gitIn(t, repo, "commit", "-q", "-am", "platform v1.1.0")
	gentest.WriteTree(t, repo, map[string]string{"go.sum": sums["v1.0.0"] + strings.Replace(sums["v1.1.0"], " h1:", " h1:x", 1)})
	gitIn(t, repo, "commit", "-q", "-am", "a go.sum that lies")
	gentest.WriteTree(t, repo, map[string]string{"go.sum": good})
	code, stdout, stderr = run("compat", "-contract", svc, "--against", "HEAD")
	if want := module + "@v1.1.0 does not match the go.sum at HEAD"; code != ExitUsage || !strings.Contains(stderr, want) {
		t.Errorf("a go.sum that lies: exit %d, want %d and %q\n%s%s", code, ExitUsage, want, stdout, stderr)
	}
	if code, stdout, stderr = run("compat", "-contract", svc, "--against", "HEAD~1"); code != ExitOK || !strings.Contains(stdout, "no changes") {
		t.Errorf("against the upgrade's commit: exit %d\n%s%s", code, stdout, stderr)
	}

	// The service's first commit imports a module its go.mod does not
	// require: it cannot be read as it was.
	gentest.WriteTree(t, repo, map[string]string{"contract/kinds.yaml": serviceContract("module: example.com/platform/other")})
	gitIn(t, repo, "commit", "-q", "-am", "imports what go.mod lacks")
	gentest.WriteTree(t, repo, map[string]string{"contract/kinds.yaml": serviceContract("module: " + module)})
	code, stdout, stderr = run("compat", "-contract", svc, "--against", "HEAD")
	want := "HEAD:contract/kinds.yaml:5:13: imports: module example.com/platform/other is not required by the go.mod at HEAD (HEAD:go.mod)"
	if code != ExitUsage || !strings.Contains(stderr, want) {
		t.Errorf("a module HEAD's go.mod does not require: exit %d, want %d and %q\n%s%s", code, ExitUsage, want, stdout, stderr)
	}
}

// A replace directive to a directory inside the repository: at the
// revision, the module's file is read with git from that directory.
func TestCompatImportReplacedInRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: ", err)
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the go command is needed: ", err)
	}
	t.Setenv("GOWORK", "off")
	t.Setenv("GOTOOLCHAIN", "local")
	t.Setenv("GOFLAGS", "-mod=mod")
	const module = "example.com/platform/errors"
	root := t.TempDir()
	base := importBase(t)
	gentest.WriteTree(t, root, map[string]string{
		"platform/go.mod":              "module " + module + "\n\ngo 1.22\n",
		"platform/contract/kinds.yaml": base,
		"svc/go.mod":                   "module example.com/svc\n\ngo 1.22\n\nrequire " + module + " v1.0.0\n\nreplace " + module + " => ../platform\n",
		"svc/contract/kinds.yaml":      serviceContract("module: " + module),
	})
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "service on the platform's directory")
	gentest.WriteTree(t, root, map[string]string{"platform/contract/kinds.yaml": breakingBase(base)})
	svc := filepath.Join(root, "svc", "contract", "kinds.yaml")
	code, stdout, stderr := run("compat", "-contract", svc, "--against", "HEAD")
	if want := filepath.Join(root, "platform", "contract", "kinds.yaml") + ":78:3: BREAKING KIND_SAME_ARGUMENTS_CHANGED timeout: "; code != ExitProblems || !strings.HasPrefix(stdout, want) || strings.Contains(stdout, "IMPORT_CHANGED") {
		t.Errorf("exit %d, want %d and %q\n%s%s", code, ExitProblems, want, stdout, stderr)
	}
	// Run in the service's directory, positions are relative to it, as
	// for an import by path.
	t.Chdir(filepath.Join(root, "svc"))
	code, stdout, stderr = run("compat", "--against", "HEAD")
	if want := "../platform/contract/kinds.yaml:78:3: BREAKING KIND_SAME_ARGUMENTS_CHANGED timeout: "; code != ExitProblems || !strings.HasPrefix(stdout, want) {
		t.Errorf("in the service's directory: exit %d, want %d and %q\n%s%s", code, ExitProblems, want, stdout, stderr)
	}
	// The old contract's base came from git: its deletion is there.
	broken := base[:strings.Index(base, baseKindsTail)] + base[strings.Index(base, "\nfallback:")+1:]
	gentest.WriteTree(t, root, map[string]string{"platform/contract/kinds.yaml": broken})
	code, stdout, stderr = run("compat", "-contract", svc, "--against", "HEAD")
	if want := "HEAD:platform/contract/kinds.yaml:87:3: BREAKING KIND_DELETED internal_error: "; code != ExitProblems || !strings.Contains(stdout, want) {
		t.Errorf("exit %d, want %d and %q\n%s%s", code, ExitProblems, want, stdout, stderr)
	}
}

// A base read from disk at a revision (outside the repository, or a
// module's directory) must be a regular file, as it must for validate: a
// FIFO would block compat until a writer came, a device is never read.
func TestCompatReadsRegularFilesOnly(t *testing.T) {
	_, err := contract.ReadImport(&contract.ImportFile{Path: os.DevNull, Name: os.DevNull}, "../null")
	if want := "cannot import ../null: it is not a regular file; name the contract file"; err == nil || err.Error() != want {
		t.Errorf("a device: %v; want %s", err, want)
	}
	_, err = contract.ReadImport(&contract.ImportFile{Path: t.TempDir(), Name: "dir"}, "../dir")
	if want := "cannot import ../dir: it is a directory; name the contract file in it"; err == nil || err.Error() != want {
		t.Errorf("a directory: %v; want %s", err, want)
	}
}

// An import by path through a symbolic link in the repository: the working
// tree follows it, so the revision does too (git stores the link's target
// as its content), and an unchanged service compares as unchanged.
func TestCompatImportThroughSymlink(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: ", err)
	}
	root := t.TempDir()
	gentest.WriteTree(t, root, map[string]string{
		"platform/kinds.yaml":     importBase(t),
		"svc/contract/kinds.yaml": serviceContract("path: ../../shared/base.yaml"),
	})
	if err := os.MkdirAll(filepath.Join(root, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../platform/kinds.yaml", filepath.Join(root, "shared", "base.yaml")); err != nil {
		t.Fatal(err)
	}
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "service on a linked base")
	svc := filepath.Join(root, "svc", "contract", "kinds.yaml")
	code, stdout, stderr := run("compat", "-contract", svc, "--against", "HEAD")
	if code != ExitOK || !strings.Contains(stdout, "no changes") {
		t.Errorf("a base through a link: exit %d, want %d and no changes\n%s%s", code, ExitOK, stdout, stderr)
	}
}
