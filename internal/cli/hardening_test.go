package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/generate"
	"github.com/errgen/errgen/internal/targets"
)

// TestEmitterPanicIsInternalError replaces one emitter with one that panics,
// as gengo did on a description holding a NUL (issue 15): generate and check
// exit 1 with an internal error that names the emitter and asks for a
// report, instead of crashing with exit 2, and nothing is written.
func TestEmitterPanicIsInternalError(t *testing.T) {
	root := t.TempDir()
	if code, _, stderr := run("generate", "-contract", reference, "-out", root); code != ExitOK {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	before := snapshot(t, root)

	saved := generate.Emitters
	t.Cleanup(func() { generate.Emitters = saved })
	generate.Emitters = append([]generate.Emitter(nil), saved...)
	for i, e := range generate.Emitters {
		if e.Name == "ts" {
			generate.Emitters[i].Generate = func(*contract.Contract, targets.Options) (map[string][]byte, error) {
				var m map[string][]byte
				m["boom"] = nil // a nil-map write, as a real bug would be
				return m, nil
			}
		}
	}
	for _, cmd := range []string{"generate", "check"} {
		code, stdout, stderr := run(cmd, "-contract", reference, "-out", root)
		if code != ExitProblems {
			t.Errorf("%s: exit %d, want %d (1: never the usage code a crash exits with)", cmd, code, ExitProblems)
		}
		for _, want := range []string{reference + ": internal error: the ts emitter failed", "assignment to entry in nil map", "bug in errgen", "report it", "goroutine"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s: stderr lacks %q:\n%s", cmd, want, stderr)
			}
		}
		if stdout != "" {
			t.Errorf("%s: stdout %q", cmd, stdout)
		}
	}
	if !same(before, snapshot(t, root)) {
		t.Error("a run whose emitter panicked changed the output tree")
	}
}

// TestValidateVerboseCountsKinds: validate -v said "1 kinds" (issue 15).
func TestValidateVerboseCountsKinds(t *testing.T) {
	for contract, want := range map[string]string{
		"../contract/testdata/valid/pascal_case/kinds.yaml": "version 1, 1 kind: ok\n",
		"../contract/testdata/valid/minimal/kinds.yaml":     "version 1, 3 kinds: ok\n",
	} {
		code, stdout, stderr := run("validate", "-v", "-contract", contract)
		if code != ExitOK || !strings.HasSuffix(stdout, want) {
			t.Errorf("validate -v %s: exit %d, %q, want it to end in %q\n%s", contract, code, stdout, want, stderr)
		}
	}
}

// TestControlCharacterIsAProblem: a kind description holding a NUL (written
// as the YAML escape \0) passed validate, and generate and check then
// crashed in gengo with exit 2 (issue 15). Every command now reports it at
// its line and column, naming the code point, and writes nothing.
func TestControlCharacterIsAProblem(t *testing.T) {
	data, err := os.ReadFile(reference)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	line, col := 0, 0
	for i, l := range lines {
		if strings.HasPrefix(l, "    description: ") && i > 0 && strings.HasPrefix(lines[i-1], "    group: ") {
			// The first kind's description, quoted with a NUL inside.
			text := strings.TrimPrefix(l, "    description: ")
			lines[i] = `    description: "` + strings.ReplaceAll(text, `"`, `\"`) + `\0"`
			line, col = i+1, len(lines[i])-2
			break
		}
	}
	if line == 0 {
		t.Fatal("no kind description found in the reference contract")
	}
	broken := filepath.Join(t.TempDir(), "kinds.yaml")
	if err := os.WriteFile(broken, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	want := fmt.Sprintf("%s:%d:%d: kinds.", broken, line, col)
	for _, cmd := range [][]string{{"validate"}, {"generate", "-out", root}, {"check", "-out", root}} {
		code, _, stderr := run(append(cmd, "-contract", broken)...)
		if code != ExitProblems || !strings.Contains(stderr, want) || !strings.Contains(stderr, "remove the control character U+0000 (NUL), written \\0") {
			t.Errorf("errgen %s: exit %d, want %d and a problem at %s\n%s", cmd[0], code, ExitProblems, want, stderr)
		}
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("generate wrote %d entries for a rejected contract", len(entries))
	}
}
