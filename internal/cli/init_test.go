package cli

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/config"
)

// TestInitEveryTemplateValidatesAndGenerates runs errgen init with each
// template in a fresh Go module, then generate and check from the written
// config alone, as a new owner would.
func TestInitEveryTemplateValidatesAndGenerates(t *testing.T) {
	for _, st := range starters {
		t.Run(st.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/pay\n\ngo 1.22\n"), 0o644)
			code, stdout, stderr := run("init", "-template", st.name, "-name", "pay-"+st.name, "-dir", dir)
			if code != ExitOK || !strings.Contains(stdout, "errgen generate") {
				t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
			}
			cfgText, _ := os.ReadFile(filepath.Join(dir, config.FileName))
			pkg := strings.ReplaceAll("pay"+st.name, "-", "")
			if want := "import_path: example.com/pay/gen/go/" + pkg + "\n"; !strings.Contains(string(cfgText), want) {
				t.Errorf("config lacks %q:\n%s", want, cfgText)
			}
			cfg := filepath.Join(dir, config.FileName)
			for _, cmd := range [][]string{{"validate", "-config", cfg}, {"generate", "-config", cfg}, {"check", "-config", cfg}} {
				if code, stdout, stderr := run(cmd...); code != ExitOK {
					t.Fatalf("%v: exit %d\n%s%s", cmd, code, stdout, stderr)
				}
			}
			// Inside a module, init makes the Go package a module of its own.
			gomod, err := os.ReadFile(filepath.Join(dir, "gen", "go", pkg, "go.mod"))
			if err != nil || !strings.Contains(string(gomod), "module example.com/pay/gen/go/"+pkg+"\n") {
				t.Errorf("generated go.mod (%v):\n%s", err, gomod)
			}
			contract, _ := os.ReadFile(filepath.Join(dir, "contract", "kinds.yaml"))
			if !strings.HasPrefix(string(contract), "# yaml-language-server: $schema=../schemas/contract.schema.json\n") ||
				!strings.Contains(string(contract), "  name: pay-"+st.name+"\n") {
				t.Errorf("contract starts:\n%.300s", contract)
			}
			if st.name == "minimal" && strings.Count(string(contract), "\n#") < 20 {
				t.Errorf("the minimal starter should explain itself in comments")
			}
		})
	}
}

func TestInitRefusesToOverwrite(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, config.FileName)
	os.WriteFile(mine, []byte("mine\n"), 0o644)
	code, _, stderr := run("init", "-dir", dir)
	if code != ExitProblems || !strings.Contains(stderr, "nothing was written") || !strings.Contains(stderr, mine) {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if data, _ := os.ReadFile(mine); string(data) != "mine\n" {
		t.Errorf("errgen.yaml was replaced: %q", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "contract")); !os.IsNotExist(err) {
		t.Errorf("the contract was written although init refused: %v", err)
	}
}

func TestInitOutsideAModuleAndDefaults(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Billing Service")
	os.Mkdir(dir, 0o755)
	if code, _, stderr := run("init", "-dir", dir); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	cfg, _ := os.ReadFile(filepath.Join(dir, config.FileName))
	contract, _ := os.ReadFile(filepath.Join(dir, "contract", "kinds.yaml"))
	if !strings.Contains(string(contract), "  name: billing-service-errors\n") {
		t.Errorf("the name does not come from the directory:\n%.600s", contract)
	}
	if strings.Contains(string(cfg), "\n    module: true") || !strings.Contains(string(cfg), "# import_path:") {
		t.Errorf("outside a module the config cannot know the import path:\n%s", cfg)
	}
	if code, _, stderr := run("generate", "-config", filepath.Join(dir, config.FileName)); code != ExitOK {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
}

func TestInitUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"init", "-template", "grpc"}, `unknown template "grpc"; use one of minimal, labby, agento, ovstorage`},
		{[]string{"init", "-name", "Pay Errors"}, `-name "Pay Errors" must be lower-case words`},
		{[]string{"init", "somewhere"}, `unexpected argument "somewhere"`},
	} {
		if code, _, stderr := run(tt.args...); code != ExitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d\n%s", tt.args, code, stderr)
		}
	}
}

// TestConfigDiscoveryAndFlags: errgen.yaml in the working directory is
// used when no -contract or -out is given; -config with either is a usage
// error; a broken config stops with positions and writes nothing.
func TestConfigDiscoveryAndFlags(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := run("init", "-dir", dir, "-name", "shop-errors"); code != ExitOK {
		t.Fatal(stderr)
	}
	t.Chdir(dir)
	if code, _, stderr := run("generate"); code != ExitOK {
		t.Fatalf("generate from errgen.yaml: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "gen", "go", "shoperrors", "envelope.go")); err != nil {
		t.Fatalf("the config's outputs were not written: %v", err)
	}
	if code, _, stderr := run("generate", "-config", config.FileName, "-out", "."); code != ExitUsage || !strings.Contains(stderr, "leave out -contract and -out") {
		t.Errorf("-config with -out: exit %d\n%s", code, stderr)
	}

	// A user's file in a chosen directory stops the run. Leaving the
	// TypeScript output out stops generating it and removes its files, which
	// name this config (issue 29; TestRenamedAndDroppedOutputsAreRemoved).
	os.WriteFile(config.FileName, []byte("version: 1\noutputs:\n  go:\n  docs: {dir: handbook}\n"), 0o644)
	os.Mkdir("handbook", 0o755)
	os.WriteFile(filepath.Join("handbook", "kinds.md"), []byte("# My notes\n"), 0o644)
	code, _, stderr := run("generate")
	if code != ExitProblems || !strings.Contains(stderr, "handbook/kinds.md") || !strings.Contains(stderr, "-take-over") {
		t.Fatalf("a user's file at a generated path: exit %d\n%s", code, stderr)
	}
	if data, _ := os.ReadFile(filepath.Join("handbook", "kinds.md")); string(data) != "# My notes\n" {
		t.Fatalf("the user's file was replaced")
	}
	os.Remove(filepath.Join("handbook", "kinds.md"))
	if code, _, stderr := run("generate"); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join("gen", "ts", "package.json")); !os.IsNotExist(err) {
		t.Errorf("gen/ts was left behind although the config no longer selects it: %v", err)
	}
	if _, err := os.Stat(filepath.Join("handbook", "kinds.md")); err != nil {
		t.Errorf("docs were not written to the chosen directory: %v", err)
	}
	code, _, stderr = run("check")
	if code != ExitOK {
		t.Errorf("check: exit %d\n%s", code, stderr)
	}

	os.WriteFile(config.FileName, []byte("version: 1\noutputs:\n  go: {package: func}\n"), 0o644)
	code, _, stderr = run("check")
	if code != ExitProblems || !strings.Contains(stderr, "errgen.yaml:3:17: outputs.go.package: \"func\" is a Go keyword") {
		t.Errorf("broken config: exit %d\n%s", code, stderr)
	}
}

func TestCheckNamesTheConfigInItsFix(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := run("init", "-dir", dir); code != ExitOK {
		t.Fatal(stderr)
	}
	cfg := filepath.Join(dir, config.FileName)
	code, _, stderr := run("check", "-config", cfg)
	if code != ExitProblems || !strings.Contains(stderr, "\n  errgen generate -config "+cfg+"\n") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

func TestVersion(t *testing.T) {
	defer func(f func() (*debug.BuildInfo, bool)) { readBuildInfo = f }(readBuildInfo)
	for _, tt := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "(devel)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, true, "v1.4.0"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}, true,
			"(devel) revision 0123456789ab with local changes"},
	} {
		readBuildInfo = func() (*debug.BuildInfo, bool) { return tt.info, tt.ok }
		if got := Version(); got != tt.want {
			t.Errorf("Version() = %q, want %q", got, tt.want)
		}
	}
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		if code, stdout, _ := run(args...); code != ExitOK || !strings.HasPrefix(stdout, "errgen ") {
			t.Errorf("%v: exit %d %q", args, code, stdout)
		}
	}
	if code, _, _ := run("version", "extra"); code != ExitUsage {
		t.Errorf("version extra: exit %d", code)
	}
}

func TestConfigNamingAMissingContract(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, config.FileName)
	os.WriteFile(cfg, []byte("version: 1\ncontract: errors/kinds.yaml\n"), 0o644)
	code, _, stderr := run("validate", "-config", cfg)
	if code != ExitProblems || !strings.Contains(stderr, cfg+":2:11: contract: "+filepath.Join(dir, "errors", "kinds.yaml")+" does not exist") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

// TestInitCreatesItsDirectory: init -dir services/payments creates the
// directory and its parents (issue 29: it failed unless they existed), and
// its hints name the command as the module runs it: go tool errgen in a
// module that takes errgen as a tool, with compat against HEAD~1 (a fresh
// repository's branch need not be main) at the contract's path from the
// repository's root.
func TestInitCreatesItsDirectory(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	os.Mkdir(".git", 0o755)
	os.WriteFile("go.mod", []byte("module example.com/shop\n\ngo 1.24\n\ntool (\n\texample.com/other\n\tgithub.com/errgen/errgen/cmd/errgen\n)\n"), 0o644)
	code, stdout, stderr := run("init", "-dir", filepath.Join("services", "payments"))
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join("services", "payments", "contract", "kinds.yaml")); err != nil {
		t.Error(err)
	}
	dir := filepath.Join("services", "payments")
	for _, want := range []string{
		"  cd " + dir + " && go tool errgen generate ",
		"  in CI:             cd " + dir + " && go tool errgen check && go tool errgen compat --against HEAD~1:services/payments/contract/kinds.yaml\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("init's hints lack %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "origin/main") {
		t.Errorf("init's hints assume a branch named main:\n%s", stdout)
	}
	// check's fix names the same command.
	t.Chdir(dir)
	os.WriteFile(config.FileName, []byte("version: 1\noutputs:\n  docs:\n"), 0o644)
	if code, _, stderr := run("check"); code != ExitProblems || !strings.Contains(stderr, "\n  go tool errgen generate\n") {
		t.Errorf("check: exit %d\n%s", code, stderr)
	}

	// Outside a module that takes errgen as a tool, the command is errgen;
	// a file where the directory should be is still an error.
	other := t.TempDir()
	t.Chdir(other)
	code, stdout, stderr = run("init", "-dir", filepath.Join("a", "b"))
	if code != ExitOK || !strings.Contains(stdout, "  cd "+filepath.Join("a", "b")+" && errgen generate ") || strings.Contains(stdout, "go tool errgen check") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	os.WriteFile("file", nil, 0o644)
	if code, _, stderr := run("init", "-dir", "file"); code != ExitProblems || !strings.Contains(stderr, "file is not a directory") {
		t.Errorf("init -dir file: exit %d\n%s", code, stderr)
	}
}

// TestConfigKeyTypoSuggests (issue 29): a misspelt key of errgen.yaml gets
// the did-you-mean hint a misspelt contract key gets, at its line and
// column.
func TestConfigKeyTypoSuggests(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), config.FileName)
	os.WriteFile(cfg, []byte("version: 1\ncontarct: contract/kinds.yaml\noutputs:\n  pyhton:\n  go: {modul: true}\n"), 0o644)
	code, stdout, stderr := run("validate", "-config", cfg)
	for _, want := range []string{
		cfg + `:2:1: config: unknown key "contarct" (did you mean "contract"?); the keys are `,
		cfg + `:4:3: outputs: unknown key "pyhton" (did you mean "python"?); the keys are `,
		cfg + `:5:8: outputs.go: unknown key "modul" (did you mean "module"?); the keys are `,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	if code != ExitProblems || stdout != "" {
		t.Errorf("exit %d, stdout %q\n%s", code, stdout, stderr)
	}
}
