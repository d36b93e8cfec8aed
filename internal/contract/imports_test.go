package contract

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportProblems loads every testdata/imports/<case>/kinds.yaml and
// compares its problems with the case's stderr.txt, as TestInvalidContracts
// does: every class of import violation (a redefined base entry, a section
// only the base may write, a name clash with the base or between two
// imports, an import cycle, a missing, unreadable or broken import, a
// version mismatch, a module the go.mod does not pin), each reported in the
// file that made it. A case's go.json, when present, stands for the go
// command (TestImportByModule runs the real one).
func TestImportProblems(t *testing.T) {
	dir := filepath.Join("testdata", "imports")
	for _, name := range caseDirs(t, dir) {
		t.Run(name, func(t *testing.T) {
			t.Chdir(filepath.Join(dir, name))
			r := NewFiles("kinds.yaml")
			r.Go = fakeGo(t)
			data, err := ReadFile("kinds.yaml")
			if err != nil {
				t.Fatal(err)
			}
			c, err := LoadWith("kinds.yaml", data, r)
			var ps Problems
			if c != nil || !errors.As(err, &ps) || len(ps) == 0 {
				t.Fatalf("LoadWith = %v, %v; want Problems", c, err)
			}
			for _, p := range ps {
				if p.Pos.Line < 1 || p.Pos.Col < 1 {
					t.Errorf("problem without a usable position: %s", p)
				}
				if _, err := os.Stat(p.File); err != nil && !strings.Contains(p.File, "@") {
					t.Errorf("problem names %s, which is no file: %s", p.File, p)
				}
			}
			got := err.Error() + "\n"
			if *update {
				if err := os.WriteFile("stderr.txt", []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile("stderr.txt")
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("problems differ from stderr.txt (run go test -update to accept)\n--- want:\n%s--- got:\n%s", want, got)
			}
		})
	}
}

// fakeGo answers go list -m and go mod download from the case's go.json:
// module path -> {dir, version, replace, err}. Without go.json any module
// is not a dependency.
func fakeGo(t *testing.T) func(string, ...string) ([]byte, error) {
	type mod struct {
		Dir, Version, Err string
		// DownloadErr is what go mod download -json reports in its JSON
		// (exiting 1, standard error empty) for a module it cannot fetch.
		DownloadErr string
		Replace     bool
	}
	mods := map[string]mod{}
	if data, err := os.ReadFile("go.json"); err == nil {
		if err := json.Unmarshal(data, &mods); err != nil {
			t.Fatalf("go.json: %v", err)
		}
	}
	return func(dir string, args ...string) ([]byte, error) {
		module := strings.SplitN(args[len(args)-1], "@", 2)[0]
		m, ok := mods[module]
		switch {
		case !ok:
			return nil, fmt.Errorf("go: module %s: not a known dependency", module)
		case m.Err != "":
			return nil, errors.New(m.Err)
		}
		abs, _ := filepath.Abs(m.Dir)
		out := map[string]any{"Path": module, "Version": m.Version}
		if args[0] == "mod" && m.DownloadErr != "" {
			out["Error"] = m.DownloadErr
			data, _ := json.Marshal(out)
			return data, errors.New("exit status 1")
		}
		if m.Replace {
			out["Replace"] = map[string]any{"Path": m.Dir, "Dir": abs}
		} else if args[0] == "mod" {
			out["Dir"] = abs
		}
		return json.Marshal(out)
	}
}

// A service that imports the base by path and adds a kind, a group and an
// origin: it has everything of the base and its own, each value knows
// where it comes from, and problems in its own entries name its file.
func TestImportAddsToTheBase(t *testing.T) {
	dir, base := t.TempDir(), testBase(t)
	write(t, filepath.Join(dir, "platform", "kinds.yaml"), base)
	svc := `contract:
  name: billing-error
  description: Billing's errors.
imports:
  - path: ../platform/kinds.yaml
    version: 1
origins:
  payments:
    description: The payment provider.
    side_effects: possible
    log: warn
groups:
  billing:
    title: Billing
    description: Paying.
kinds:
  card_declined:
    group: billing
    description: The card was declined.
    origin: payments
    http: 402
    recovery:
      action: revise
      same_arguments: never
      guidance: Ask for another card.
`
	path := filepath.Join(dir, "billing", "kinds.yaml")
	write(t, path, svc)
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "billing-error" || c.VersionLabel() != "1" || c.Naming != "snake_case" {
		t.Errorf("header: %s version %s naming %s; want billing-error, the base's 1 and snake_case", c.Name, c.VersionLabel(), c.Naming)
	}
	var names []string
	for _, k := range c.Kinds {
		from := "own"
		if k.From != nil {
			from = k.From.Name
		}
		names = append(names, k.Name+"<"+from)
	}
	want := "invalid_param<platform-error timeout<platform-error internal_error<platform-error card_declined<own"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("kinds:\n got %s\nwant %s", got, want)
	}
	if len(c.Imports) != 1 || c.Imports[0].Label() != "../platform/kinds.yaml" || !c.Imports[0].Direct {
		t.Errorf("imports: %+v", c.Imports)
	}
	if p := c.Kind("timeout").Pos; p.File != filepath.Join(dir, "platform", "kinds.yaml") || p.Line == 0 {
		t.Errorf("a base kind's position %+v does not name the base file", p)
	}
	if p := c.Kind("card_declined").Pos; p.File != "" {
		t.Errorf("an own kind's position names %q; want the contract's own (empty)", p.File)
	}
	if c.Origins[len(c.Origins)-1].Name != "payments" || c.Groups[len(c.Groups)-1].Name != "billing" {
		t.Error("the service's origin and group do not follow the base's")
	}
	// The service's own mistakes stay in its file, even next to the base's.
	bad := strings.Replace(svc, "origin: payments", "origin: paymnets", 1)
	write(t, path, bad)
	_, err = LoadFile(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":20:13: kind \"card_declined\": unknown origin \"paymnets\" (did you mean \"payments\"?)") {
		t.Errorf("an own typo: %v", err)
	}
}

// An import by module, resolved by the real go command through a go.mod
// whose replace directive points at the platform's checkout: the version
// go.mod requires names the import, and a module the go.mod does not
// require is reported at the import with what to run.
func TestImportByModule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the go command is needed: ", err)
	}
	dir, base := t.TempDir(), testBase(t)
	write(t, filepath.Join(dir, "platform", "go.mod"), "module example.com/platform/errors\n\ngo 1.22\n")
	write(t, filepath.Join(dir, "platform", "contract", "kinds.yaml"), base)
	write(t, filepath.Join(dir, "svc", "go.mod"), "module example.com/svc\n\ngo 1.22\n\nrequire example.com/platform/errors v1.4.0\n\nreplace example.com/platform/errors v1.4.0 => ../platform\n")
	svc := "contract:\n  name: svc-error\nimports:\n  - module: example.com/platform/errors\n"
	path := filepath.Join(dir, "svc", "contract", "kinds.yaml")
	write(t, path, svc)
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	imp := c.Imports[0]
	if imp.Label() != "example.com/platform/errors@v1.4.0/contract/kinds.yaml" || imp.Name != "platform-error" {
		t.Errorf("import %q of %s; want the module at the version go.mod requires", imp.Label(), imp.Name)
	}
	if len(c.Kinds) != 3 || c.Kinds[0].From != imp {
		t.Errorf("the service has %d kinds, the first from %v", len(c.Kinds), c.Kinds[0].From)
	}
	write(t, path, strings.Replace(svc, "example.com/platform/errors", "example.com/platform/other", 1))
	_, err = LoadFile(path)
	want := path + ":4:13: imports: module example.com/platform/other is not required by " + filepath.Join(dir, "svc", "go.mod") +
		": run go get example.com/platform/other@VERSION in its directory, so that go.mod pins the version imported"
	if err == nil || err.Error() != want {
		t.Errorf("a module go.mod does not require:\n got %v\nwant %s", err, want)
	}
}

// Load has no file system: a contract with imports says so instead of
// failing on every reference into the base.
func TestImportNeedsFiles(t *testing.T) {
	_, err := Load("kinds.yaml", []byte("contract:\n  name: a\nimports:\n  - path: base.yaml\n"))
	want := "kinds.yaml:3:1: imports: this contract imports others, which errgen reads only from files: run errgen on the contract file"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// testBase is testdata/imports/base.yaml, the base the tests import.
func testBase(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "imports", "base.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The wire names a contract derives from its name by default, the RFC 9457
// problem type base and the AIP-193 ErrorInfo domain, are the base's in a
// service that imports it: the service cannot write surfaces, and its
// envelopes must read back through the base's packages (a platform reader
// restores a kind only from its own problem type base, and reads an
// ErrorInfo of another domain as foreign). Through two levels of imports
// too.
func TestImportKeepsTheBaseWireNames(t *testing.T) {
	dir, base := t.TempDir(), testBase(t)
	write(t, filepath.Join(dir, "platform", "kinds.yaml"), base)
	write(t, filepath.Join(dir, "mid", "kinds.yaml"), "contract:\n  name: mid-error\nimports:\n  - path: ../platform/kinds.yaml\n")
	write(t, filepath.Join(dir, "svc", "kinds.yaml"), "contract:\n  name: svc-error\nimports:\n  - path: ../mid/kinds.yaml\n")
	p, err := LoadFile(filepath.Join(dir, "platform", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// Empty names on the base would make the comparisons below hold for
	// any service; the base's must be derived from its own name.
	if !strings.Contains(p.Surfaces.ProblemTypeBase, "platform") || !strings.Contains(p.AIP193.Domain, "platform") || !strings.Contains(p.Surfaces.ErrorDomain, "platform") {
		t.Fatalf("the base's problem type base %q, ErrorInfo domain %q and error domain %q do not come from its name",
			p.Surfaces.ProblemTypeBase, p.AIP193.Domain, p.Surfaces.ErrorDomain)
	}
	for _, svc := range []string{"mid", "svc"} {
		c, err := LoadFile(filepath.Join(dir, svc, "kinds.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if c.Surfaces.ProblemTypeBase != p.Surfaces.ProblemTypeBase || c.AIP193.Domain != p.AIP193.Domain || c.Surfaces.ErrorDomain != p.Surfaces.ErrorDomain {
			t.Errorf("%s: problem type base %q, ErrorInfo domain %q; want the base's %q and %q",
				svc, c.Surfaces.ProblemTypeBase, c.AIP193.Domain, p.Surfaces.ProblemTypeBase, p.AIP193.Domain)
		}
	}
}

// An import names a regular file. A device or a FIFO is refused before it
// is opened (a FIFO would block the run until a writer came, /dev/zero
// read 64 MiB), a directory says what to name instead, and one file
// reached through a symbolic link is the same file (imported once, not
// two contracts defining the same names), as a link back to the importer
// is a cycle.
func TestImportReadsRegularFiles(t *testing.T) {
	dir, base := t.TempDir(), testBase(t)
	write(t, filepath.Join(dir, "platform", "kinds.yaml"), base)
	if err := os.Symlink("platform", filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "svc", "kinds.yaml")
	load := func(imports ...string) string {
		t.Helper()
		svc := "contract:\n  name: svc-error\nimports:\n"
		for _, i := range imports {
			svc += "  - path: " + i + "\n"
		}
		write(t, path, svc)
		_, err := LoadFile(path)
		if err == nil {
			return ""
		}
		return err.Error()
	}
	write(t, path, "")
	if err := os.Symlink("kinds.yaml", filepath.Join(dir, "svc", "self.yaml")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(filepath.Join(dir, "svc"), os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		imports []string
		want    string
	}{
		{[]string{rel}, path + ":4:11: imports: cannot import " + rel + ": it is not a regular file; name the contract file"},
		{[]string{"../platform"}, path + ":4:11: imports: cannot import ../platform: it is a directory; name the contract file in it"},
		{[]string{"../platform/kinds.yaml", "../linked/kinds.yaml"}, ""},
		{[]string{"self.yaml"}, path + ":4:11: imports: an import cycle: " + path + " imports " + filepath.Join(dir, "svc", "self.yaml") + "; a contract cannot build on itself, so remove one of these imports"},
	} {
		if got := load(c.imports...); got != c.want {
			t.Errorf("imports %v:\n got %s\nwant %s", c.imports, got, c.want)
		}
	}
}

// panicky is a Resolver that panics, standing for anything unexpected
// while a contract loads.
type panicky struct{}

func (panicky) Resolve(*ImportFile, *ImportSpec) (*ImportFile, error) { panic("unexpected") }

// Whatever panics while a contract loads, the caller gets a positioned
// problem: the recover in load must hand back what it recorded, not nil.
func TestImportLoadRecovers(t *testing.T) {
	_, err := LoadWith("kinds.yaml", []byte("contract:\n  name: a\nimports:\n  - path: base.yaml\n"), panicky{})
	want := "kinds.yaml:1:1: cannot parse the contract: unexpected"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// An import of an import is labelled from the loaded contract's side: a
// path relative to the loaded file (through the direct import's path), or
// inside the direct import's module, never the path as the intermediate
// file wrote it, which names another file from here.
func TestImportLabelsTransitive(t *testing.T) {
	dir, base := t.TempDir(), testBase(t)
	write(t, filepath.Join(dir, "platform", "kinds.yaml"), base)
	write(t, filepath.Join(dir, "lib", "mid", "kinds.yaml"), "contract:\n  name: mid-error\nimports:\n  - path: ../../platform/kinds.yaml\n")
	write(t, filepath.Join(dir, "svc", "kinds.yaml"), "contract:\n  name: svc-error\nimports:\n  - path: ../lib/mid/kinds.yaml\n")
	c, err := LoadFile(filepath.Join(dir, "svc", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, i := range c.Imports {
		got = append(got, i.Label())
	}
	if want := "../lib/mid/kinds.yaml ../platform/kinds.yaml"; strings.Join(got, " ") != want {
		t.Errorf("labels %q; want %q", got, want)
	}
	// A module's contract importing a file of its module by path.
	list := addImports(nil, &Import{Module: "example.com/platform/errors", ModuleVersion: "v1.2.0", ModuleFile: "contract/kinds.yaml", File: "m"},
		[]*Import{{Path: "../shared/base.yaml", File: "s"}})
	if got, want := list[1].Label(), "example.com/platform/errors@v1.2.0/shared/base.yaml"; got != want {
		t.Errorf("inside a module: %q; want %q", got, want)
	}
}

// A replace directive to another module's version (replace platform =>
// fork v1.3.0) imports the fork's file whether or not the fork is in the
// module cache yet: go list -m names the replacement without a directory
// until it is downloaded, and the download must fetch the replacement, not
// the module it replaces.
func TestImportByModuleReplacedByAnotherModule(t *testing.T) {
	dir, base := t.TempDir(), testBase(t)
	write(t, filepath.Join(dir, "platform", "contract", "kinds.yaml"), base)
	write(t, filepath.Join(dir, "fork", "contract", "kinds.yaml"), strings.Replace(base, "name: platform-error", "name: fork-error", 1))
	path := filepath.Join(dir, "svc", "kinds.yaml")
	write(t, path, "contract:\n  name: svc-error\nimports:\n  - module: example.com/platform/errors\n")
	r := NewFiles(path)
	r.Go = func(_ string, args ...string) ([]byte, error) {
		switch strings.Join(args, " ") {
		case "list -m -json example.com/platform/errors":
			return []byte(`{"Path":"example.com/platform/errors","Version":"v1.2.0","Replace":{"Path":"example.com/fork/errors","Version":"v1.3.0"}}`), nil
		case "mod download -json example.com/fork/errors@v1.3.0":
			return json.Marshal(map[string]string{"Path": "example.com/fork/errors", "Version": "v1.3.0", "Dir": filepath.Join(dir, "fork")})
		case "mod download -json example.com/platform/errors@v1.2.0":
			return json.Marshal(map[string]string{"Path": "example.com/platform/errors", "Version": "v1.2.0", "Dir": filepath.Join(dir, "platform")})
		}
		return nil, fmt.Errorf("unexpected go %s", strings.Join(args, " "))
	}
	data, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadWith(path, data, r)
	if err != nil {
		t.Fatal(err)
	}
	if i := c.Imports[0]; i.Name != "fork-error" || i.Label() != "example.com/platform/errors@v1.3.0/contract/kinds.yaml" {
		t.Errorf("imported %s from %s; want fork-error, the replacement, at its version", i.Name, i.Label())
	}
}

// A go.work above the service (a developer's local workspace, usually not
// committed) does not decide what an import by module reads: the go.mod
// does, as for compat at a revision and for CI without the workspace, so
// generated outputs never depend on an uncommitted file.
func TestImportByModuleIgnoresGoWork(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the go command is needed: ", err)
	}
	dir, base := t.TempDir(), testBase(t)
	write(t, filepath.Join(dir, "platform", "go.mod"), "module example.com/platform/errors\n\ngo 1.22\n")
	write(t, filepath.Join(dir, "platform", "contract", "kinds.yaml"), base)
	write(t, filepath.Join(dir, "checkout", "go.mod"), "module example.com/platform/errors\n\ngo 1.22\n")
	write(t, filepath.Join(dir, "checkout", "contract", "kinds.yaml"), strings.Replace(base, "name: platform-error", "name: checkout-error", 1))
	write(t, filepath.Join(dir, "svc", "go.mod"), "module example.com/svc\n\ngo 1.22\n\nrequire example.com/platform/errors v1.4.0\n\nreplace example.com/platform/errors v1.4.0 => ../platform\n")
	write(t, filepath.Join(dir, "go.work"), "go 1.22\n\nuse (\n\t./svc\n\t./checkout\n)\n")
	path := filepath.Join(dir, "svc", "contract", "kinds.yaml")
	write(t, path, "contract:\n  name: svc-error\nimports:\n  - module: example.com/platform/errors\n")
	t.Setenv("GOWORK", "")
	t.Setenv("GOFLAGS", "")
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if i := c.Imports[0]; i.Name != "platform-error" || i.Label() != "example.com/platform/errors@v1.4.0/contract/kinds.yaml" {
		t.Errorf("imported %s from %s; want platform-error, the version go.mod pins", i.Name, i.Label())
	}
}

// A bare HTTP status (a failed response without an envelope) reads as the
// base's kind wherever the base decides it, even when a service kind shares
// the status: the service's packages read a bare 504 as the base's do.
func TestImportKeepsTheBaseReadingOfAStatus(t *testing.T) {
	dir, base := t.TempDir(), testBase(t)
	write(t, filepath.Join(dir, "base.yaml"), base)
	kind := func(name string, status int) string {
		return fmt.Sprintf("  %s:\n    group: network\n    description: d.\n    origin: upstream\n    http: %d\n"+
			"    recovery:\n      action: retry_later\n      same_arguments: safe\n      guidance: g.\n", name, status)
	}
	path := filepath.Join(dir, "svc.yaml")
	write(t, path, "contract:\n  name: svc-error\nimports:\n  - path: base.yaml\nkinds:\n"+
		kind("gateway_slow", 504)+kind("card_declined", 402)+kind("ledger_busy", 409)+kind("ledger_locked", 409))
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for status, want := range map[int]string{504: "timeout", 500: "internal_error", 422: "invalid_param", 402: "card_declined", 409: "http_409"} {
		if got := c.HTTPKind(status); got != want {
			t.Errorf("HTTPKind(%d) = %s, want %s", status, got, want)
		}
	}
}
