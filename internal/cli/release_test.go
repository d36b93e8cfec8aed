package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// minimalContract is absolute: releaseOwner changes the working directory.
var minimalContract, _ = filepath.Abs("../contract/testdata/valid/minimal/kinds.yaml")

// releaseOwner writes the minimal contract at version `version` with
// header lines extra after it, and a config generating the Go module (with
// grpcstatus) and the TypeScript, Python and Rust packages, into a temp
// directory it enters.
func releaseOwner(t *testing.T, version, extra, importPath string) {
	t.Helper()
	data, err := os.ReadFile(minimalContract)
	if err != nil {
		t.Fatal(err)
	}
	contract := strings.Replace(string(data), "  version: 1\n", "  version: "+version+"\n"+extra, 1)
	dir := t.TempDir()
	t.Chdir(dir)
	os.MkdirAll("contract", 0o755)
	os.WriteFile(filepath.Join("contract", "kinds.yaml"), []byte(contract), 0o644)
	os.WriteFile("errgen.yaml", []byte(`version: 1
outputs:
  go:
    dir: gen/go/payments
    import_path: `+importPath+`
    module: true
    grpc: true
  typescript:
  python:
  rust:
`), 0o644)
}

// TestReleaseVersionsAgree: a contract at release 2.3.1 gives all four
// packages that version, and the Go module (and grpcstatus's module, its
// requirement and import of it) a /v2 path in the same directory.
func TestReleaseVersionsAgree(t *testing.T) {
	releaseOwner(t, "2", "  release: 2.3.1\n", "example.com/payments/gen/go/payments")
	if code, _, stderr := run("generate"); code != ExitOK {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	read := func(p string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.FromSlash(p))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	var pkg struct{ Version string }
	json.Unmarshal([]byte(read("gen/ts/package.json")), &pkg)
	if pkg.Version != "2.3.1" {
		t.Errorf("package.json version %q, want 2.3.1", pkg.Version)
	}
	for _, f := range []struct{ file, want string }{
		{"gen/python/pyproject.toml", `(?m)^version = "2\.3\.1"$`},
		{"gen/python/demo_error/__init__.py", `(?m)^__version__ = "2\.3\.1"$`},
		{"gen/rust/demo-error/Cargo.toml", `(?m)^version = "2\.3\.1"$`},
		{"gen/go/payments/go.mod", `(?m)^module example\.com/payments/gen/go/payments/v2$`},
		{"gen/go/payments/doc.go", `tag it v2\.3\.1`},
		{"gen/go/payments/grpcstatus/go.mod", `(?m)^module example\.com/payments/gen/go/payments/grpcstatus/v2$`},
		{"gen/go/payments/grpcstatus/go.mod", `(?m)^\texample\.com/payments/gen/go/payments/v2 v2\.3\.1$`},
		{"gen/go/payments/grpcstatus/go.mod", `(?m)^replace example\.com/payments/gen/go/payments/v2 => \.\./$`},
		{"gen/go/payments/grpcstatus/grpcstatus.go", `(?m)^\t(demoerror )?"example\.com/payments/gen/go/payments/v2"$`},
	} {
		if !regexp.MustCompile(f.want).MatchString(read(f.file)) {
			t.Errorf("%s lacks %s:\n%s", f.file, f.want, read(f.file))
		}
	}
	if code, _, stderr := run("check"); code != ExitOK {
		t.Errorf("check: exit %d\n%s", code, stderr)
	}
}

// An import path already ending in the release's /vN is kept; one ending
// in another is an error at import_path.
func TestReleaseImportPathSuffix(t *testing.T) {
	releaseOwner(t, "2", "  release: 2.0.0\n", "example.com/payments/gen/go/payments/v2")
	if code, _, stderr := run("validate"); code != ExitOK {
		t.Fatalf("validate: exit %d\n%s", code, stderr)
	}
	for _, tc := range []struct{ version, extra, path, want string }{
		{"3", "", "example.com/payments/gen/go/payments/v2", `errgen.yaml:5:18: outputs.go.import_path: "example.com/payments/gen/go/payments/v2" ends in /v2, but the contract's release 3.0.0 needs /v3; write example.com/payments/gen/go/payments/v3`},
		{"1", "  release: 1.4.0\n", "example.com/payments/gen/go/payments/v2", `errgen.yaml:5:18: outputs.go.import_path: "example.com/payments/gen/go/payments/v2" ends in /v2, but the contract's release 1.4.0 has major 1: a Go module below v2 has no major suffix; write example.com/payments/gen/go/payments`},
	} {
		releaseOwner(t, tc.version, tc.extra, tc.path)
		if code, _, stderr := run("validate"); code != ExitProblems || !strings.Contains(stderr, tc.want) {
			t.Errorf("version %s, %s: exit %d\n%s\nwant %s", tc.version, tc.path, code, stderr, tc.want)
		}
	}
}

// TestCompatRelease: errgen compat says which release a change needs, and
// fails only when the contract writes a release lower than that.
func TestCompatRelease(t *testing.T) {
	oldData, err1 := os.ReadFile(filepath.Join("../compat/testdata_previous", "KIND_ADDED", "kinds.yaml"))
	newData, err2 := os.ReadFile(filepath.Join(compatCases, "KIND_ADDED", "kinds.yaml"))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	dir := t.TempDir()
	oldPath, newPath := filepath.Join(dir, "old.yaml"), filepath.Join(dir, "kinds.yaml")
	os.WriteFile(oldPath, oldData, 0o644)
	for _, tc := range []struct {
		release string
		code    int
		want    string
	}{
		{"", ExitOK, "\nrelease: needs a minor release: 1.0.0 -> 1.1.0 or later (KIND_ADDED rate_limited); the contract writes no release"},
		{"  release: 1.1.0\n", ExitOK, "kinds.yaml:4:12: release: needs a minor release: 1.0.0 -> 1.1.0 or later (KIND_ADDED rate_limited); the contract's release is 1.1.0\n"},
		{"  release: 1.0.1\n", ExitProblems, "kinds.yaml:4:12: release: needs a minor release: 1.0.0 -> 1.1.0 or later (KIND_ADDED rate_limited), but the contract's release is 1.0.1: write release: 1.1.0\n"},
	} {
		os.WriteFile(newPath, []byte(strings.Replace(string(newData), "  version: 1\n", "  version: 1\n"+tc.release, 1)), 0o644)
		code, stdout, stderr := run("compat", "-contract", newPath, "--against", oldPath)
		if code != tc.code || !strings.Contains(stdout, tc.want) {
			t.Errorf("%q: exit %d\n%s%s\nwant exit %d with %q", tc.release, code, stdout, stderr, tc.code, tc.want)
		}
		code, stdout, _ = run("compat", "-contract", newPath, "--against", oldPath, "--format", "github")
		level := map[int]string{ExitOK: "::notice", ExitProblems: "::error"}[tc.code]
		if code != tc.code || !strings.Contains(stdout, level+" file="+filepath.ToSlash(newPath)) || !strings.Contains(stdout, "title=RELEASE::needs a minor release") {
			t.Errorf("%q github: exit %d\n%s", tc.release, code, stdout)
		}
		code, stdout, _ = run("compat", "-contract", newPath, "--against", oldPath, "--format", "json")
		var out struct{ Summary map[string]any }
		json.Unmarshal([]byte(stdout), &out)
		if code != tc.code || out.Summary["needs"] != "minor" || out.Summary["min_release"] != "1.1.0" || out.Summary["ok"] != (tc.code == ExitOK) {
			t.Errorf("%q json: exit %d\n%s", tc.release, code, stdout)
		}
	}
}
