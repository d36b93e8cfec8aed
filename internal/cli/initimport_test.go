package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/config"
	"github.com/errgen/errgen/internal/contract"
)

// writeBase copies the import cases' base contract to dir/rel.
func writeBase(t *testing.T, dir, rel string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "contract", "testdata", "imports", "base.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// errgen init -import with a base's file: the contract imports it by a
// path relative to itself, pins the base's version, adds a group and a
// kind of its own, and validates, generates and checks from the config
// init wrote; the generated docs list the import.
func TestInitImportByPath(t *testing.T) {
	dir := t.TempDir()
	writeBase(t, dir, "platform/contract/kinds.yaml")
	t.Chdir(dir)
	code, stdout, stderr := run("init", "-import", "platform/contract/kinds.yaml", "-name", "billing-error", "-dir", "services/billing")
	if code != ExitOK || !strings.Contains(stdout, "a contract that imports platform/contract/kinds.yaml") {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	file := filepath.Join("services", "billing", "contract", "kinds.yaml")
	text, _ := os.ReadFile(file)
	for _, want := range []string{
		"# yaml-language-server: $schema=../schemas/contract.schema.json\n",
		"  name: billing-error\n  # The version",
		"  release: 1.0.0\n",
		"imports:\n  - path: ../../../platform/contract/kinds.yaml\n    version: 1\n",
		"groups:\n  billing:\n",
		"kinds:\n  billing_failed:\n    group: billing\n",
		"    origin: validation\n    http: 422\n    recovery:\n      action: revise\n      same_arguments: never\n",
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the contract lacks %q:\n%s", want, text)
		}
	}
	c, err := contract.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Kinds) != 4 || c.Kinds[3].Name != "billing_failed" || c.Kinds[3].From != nil || c.Kinds[0].From == nil {
		t.Errorf("the service's kinds are not the base's three and its own")
	}
	cfg := filepath.Join("services", "billing", config.FileName)
	for _, cmd := range [][]string{{"validate", "-config", cfg}, {"generate", "-config", cfg}, {"check", "-config", cfg}} {
		if code, stdout, stderr := run(cmd...); code != ExitOK {
			t.Fatalf("%v: exit %d\n%s%s", cmd, code, stdout, stderr)
		}
	}
	docs, _ := os.ReadFile(filepath.Join("services", "billing", "docs", "README.md"))
	if !strings.Contains(string(docs), "| platform-error | `1` | `../../../platform/contract/kinds.yaml` | this contract |") {
		t.Errorf("the generated docs do not list the import:\n%.1500s", docs)
	}
}

// A base in another naming, with a text version and numbered kinds: the
// example kind follows the naming and takes the next number, and the
// version is quoted.
func TestInitImportFollowsTheBase(t *testing.T) {
	base, err := filepath.Abs(filepath.Join("..", "..", "examples", "ovstorage", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if code, stdout, stderr := run("init", "-import", base, "-name", "vault-errors", "-dir", dir); code != ExitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	text, _ := os.ReadFile(filepath.Join(dir, "contract", "kinds.yaml"))
	for _, want := range []string{"    version: \"0.1\"\n", "kinds:\n  VaultFailed:\n", "    number: 41\n"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the contract lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(string(text), "release:") {
		t.Errorf("a text version has no release to derive, but the contract writes one")
	}
}

// errgen init -import with a Go module: the go command finds it through
// the go.mod (here a replace directive to the platform's checkout), and
// the contract imports it by module.
func TestInitImportByModule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the go command is needed: ", err)
	}
	dir := t.TempDir()
	writeBase(t, dir, "platform/contract/kinds.yaml")
	os.WriteFile(filepath.Join(dir, "platform", "go.mod"), []byte("module example.com/platform/errors\n\ngo 1.22\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "svc"), 0o755)
	os.WriteFile(filepath.Join(dir, "svc", "go.mod"), []byte("module example.com/svc\n\ngo 1.22\n\nrequire example.com/platform/errors v1.4.0\n\nreplace example.com/platform/errors v1.4.0 => ../platform\n"), 0o644)
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	svc := filepath.Join(dir, "svc")
	code, stdout, stderr := run("init", "-import", "example.com/platform/errors", "-dir", svc)
	if code != ExitOK || !strings.Contains(stdout, "keep example.com/platform/errors in go.mod: go mod tidy drops") {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	text, _ := os.ReadFile(filepath.Join(svc, "contract", "kinds.yaml"))
	for _, want := range []string{"  name: svc-errors\n", "imports:\n  - module: example.com/platform/errors\n    version: 1\n", "go get example.com/platform/errors@VERSION"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the contract lacks %q:\n%s", want, text)
		}
	}
	if code, stdout, stderr := run("validate", "-config", filepath.Join(svc, config.FileName)); code != ExitOK {
		t.Fatalf("validate: exit %d\n%s%s", code, stdout, stderr)
	}
}

// What init -import refuses, writing nothing.
func TestInitImportRefuses(t *testing.T) {
	dir := t.TempDir()
	writeBase(t, dir, "platform/kinds.yaml")
	os.WriteFile(filepath.Join(dir, "broken.yaml"), []byte("contract:\n  name: broken\n"), 0o644)
	t.Chdir(dir)
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-import", "platform/kinds.yaml", "-template", "labby"}, ExitUsage, "-import and -template exclude each other"},
		{[]string{"-import", "platform/kindz.yaml"}, ExitProblems, "-import platform/kindz.yaml: no such file, and not a Go module path"},
		{[]string{"-import", "platform"}, ExitProblems, "-import platform is a directory: name the base's contract file in it"},
		{[]string{"-import", "broken.yaml"}, ExitProblems, "nothing was written: the base broken.yaml does not load:\nbroken.yaml:1:1: contract: missing required key \"naming\""},
	} {
		out := "out"
		code, _, stderr := run(append(append([]string{"init"}, tt.args...), "-dir", out)...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, want %d with %q:\n%s", tt.args, code, tt.code, tt.want, stderr)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: init wrote %s", tt.args, out)
		}
	}
}
