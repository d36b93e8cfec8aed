package config

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/targets"
)

// loadReference loads the repository's contract, whose name (agent-error)
// gives every default below.
func loadReference(t *testing.T) *contract.Contract {
	t.Helper()
	// contract.LoadFile rather than gentest.Load: gentest imports the
	// vectors, which import the schema emitter, which imports this package.
	c, err := contract.LoadFile(filepath.Join("..", "..", "contract", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNoOutputsSectionKeepsEveryDefault(t *testing.T) {
	cfg, err := Load("errgen.yaml", []byte("version: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Contract != DefaultContract {
		t.Errorf("contract = %q, want %q", cfg.Contract, DefaultContract)
	}
	c := loadReference(t)
	want := targets.Defaults(c.Name)
	o, err := cfg.Options(c)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(o.Dirs, want.Dirs) || o.Dir(targets.Go) != "gen/go/agenterror" {
		t.Errorf("outputs = %+v, want the defaults %+v", o.Dirs, want.Dirs)
	}
}

func TestApplySelectsRenamesAndPlaces(t *testing.T) {
	text := `version: 1
contract: errors/kinds.yaml
outputs:
  go:
    package: payerrors
    import_path: example.com/pay/gen/go/payerrors
    module: true
  typescript:
    name: "@acme/pay-errors"
    dir: web/errors
  python:
    distribution: acme-pay-errors
    package: acme_pay_errors
  docs:
`
	cfg, err := Load(filepath.Join("repo", "errgen.yaml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join("repo", "errors", "kinds.yaml"); cfg.Contract != want || cfg.Root != "repo" {
		t.Errorf("contract %q root %q, want %q and repo: paths are relative to the config", cfg.Contract, cfg.Root, want)
	}
	c := loadReference(t)
	o, err := cfg.Options(c)
	if err != nil {
		t.Fatal(err)
	}
	wantPkgs := targets.Packages{Go: "payerrors", NPM: "@acme/pay-errors", Python: "acme_pay_errors", PythonDist: "acme-pay-errors",
		Crate: "agent-error", GoImportPath: "example.com/pay/gen/go/payerrors", GoModule: true}
	if o.Packages != wantPkgs {
		t.Errorf("packages = %+v\nwant %+v", o.Packages, wantPkgs)
	}
	// The Go directory follows the configured package name; schemas and
	// conformance are not selected, so not generated.
	wantOuts := map[string]string{targets.Go: "gen/go/payerrors", targets.TypeScript: "web/errors", targets.Python: "gen/python", targets.Docs: "docs"}
	if !maps.Equal(o.Dirs, wantOuts) {
		t.Errorf("outputs = %+v\nwant %+v", o.Dirs, wantOuts)
	}
}

func TestApplyRejectsADefaultMeetingAChosenDirectory(t *testing.T) {
	cfg, err := Load("errgen.yaml", []byte("version: 1\noutputs:\n  docs: {dir: gen/ts}\n  typescript:\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = cfg.Options(loadReference(t))
	var ps contract.Problems
	if !errors.As(err, &ps) || len(ps) != 1 || !strings.HasPrefix(ps[0].String(), "errgen.yaml:3:3: outputs.docs: its directory gen/ts is also the typescript output's") {
		t.Fatalf("err = %v", err)
	}
}

// TestProblems holds every rejected config to its problems, positions
// included: each case's file is testdata/<name>.yaml, its expected output
// the lines after "# want:" comments in it.
func TestProblems(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	if len(files) < 5 {
		t.Fatalf("only %d cases in testdata", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, line := range strings.Split(string(data), "\n") {
				if w, ok := strings.CutPrefix(strings.TrimSpace(line), "# want: "); ok {
					// {outputs} is every output's key: a new target
					// rewrites no expected message.
					w = strings.ReplaceAll(w, "{outputs}", strings.Join(targets.Keys(), ", "))
					want = append(want, "errgen.yaml:"+w)
				}
			}
			_, err = Load("errgen.yaml", data)
			if len(want) == 0 {
				if err != nil {
					t.Fatalf("valid case rejected: %v", err)
				}
				return
			}
			var ps contract.Problems
			if !errors.As(err, &ps) {
				t.Fatalf("err = %v, want problems", err)
			}
			got := strings.Split(ps.Error(), "\n")
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestParserPanicsAndSyntaxErrorsHavePositions(t *testing.T) {
	for _, text := range []string{"version: [1\n", "\x00", "- a\n- b\n", ""} {
		_, err := Load("errgen.yaml", []byte(text))
		var ps contract.Problems
		if !errors.As(err, &ps) || len(ps) == 0 || ps[0].Pos.Line < 1 {
			t.Errorf("%q: err = %v, want a positioned problem", text, err)
		}
	}
}

// TestOptInTarget (issue 31): a target that is not on by default is left
// out without an outputs section, and generated at its default directory
// when the config names it.
func TestOptInTarget(t *testing.T) {
	saved := targets.All
	t.Cleanup(func() { targets.All = saved })
	targets.All = append(append([]*targets.Target(nil), saved...),
		&targets.Target{Key: "toy", Dir: func(p targets.Packages) string { return "gen/toy/" + p.Go }})
	c := loadReference(t)
	for _, tc := range []struct{ text, want string }{
		{"version: 1\n", ""},
		{"version: 1\noutputs:\n  go:\n", ""},
		{"version: 1\noutputs:\n  toy:\n", "gen/toy/agenterror"},
		{"version: 1\noutputs:\n  toy: {dir: elsewhere}\n", "elsewhere"},
	} {
		cfg, err := Load("errgen.yaml", []byte(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		o, err := cfg.Options(c)
		if err != nil {
			t.Fatal(err)
		}
		if got := o.Dir("toy"); got != tc.want {
			t.Errorf("%q: the toy output's directory is %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestContractsList (issue 32): a contracts list loads one entry per
// contract, each with its own name, contract, metadata and outputs; the
// single form has itself as its one entry.
func TestContractsList(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "contracts_ok.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(filepath.Join("r", "errgen.yaml"), data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range cfg.Entries() {
		var outs []string
		for _, k := range targets.Keys() {
			if o := e.Outputs[k]; o != nil {
				outs = append(outs, k+"="+o.Dir)
			}
		}
		got = append(got, fmt.Sprintf("%s@%d:%d ", e.Name, e.NamePos.Line, e.NamePos.Col)+filepath.ToSlash(e.Contract)+" "+e.License+" "+strings.Join(outs, ","))
	}
	want := "platform@4:11 r/platform/kinds.yaml MIT go=,docs=docs|payments@10:11 r/payments/kinds.yaml  docs=docs/payments"
	if strings.Join(got, "|") != want {
		t.Errorf("entries = %s, want %s", strings.Join(got, "|"), want)
	}
	single, err := Load("errgen.yaml", []byte("version: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if es := single.Entries(); len(es) != 1 || es[0] != single || single.Prefix() != "" {
		t.Errorf("the single form's entries = %v", es)
	}
}
