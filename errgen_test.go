package errgen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/errgen/errgen/internal/cli"
	"github.com/errgen/errgen/internal/config"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/diff"
	"github.com/errgen/errgen/internal/generate"
	"github.com/errgen/errgen/internal/targets"
)

// TestGeneratedFilesAreCurrent is the drift gate: the committed outputs must
// be exactly what the committed contracts generate — the reference contract
// into the repository root, each example contract into its own folder.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	roots := map[string]string{"contract/kinds.yaml": "."}
	examples, _ := filepath.Glob("examples/*/kinds.yaml")
	if len(examples) == 0 {
		t.Fatal("no example contracts found")
	}
	for _, ex := range examples {
		roots[ex] = filepath.Dir(ex)
	}
	for path, root := range roots {
		c, err := contract.LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// A root with a generation config generates what it says, and its
		// files name the config; the others name their contract.
		source := generate.SourceOf(root, path)
		opts := targets.Defaults(c.Name)
		if cfg, err := config.LoadFile(filepath.Join(root, config.FileName)); err == nil {
			if opts, err = cfg.Options(c); err != nil {
				t.Fatal(err)
			}
			source = generate.SourceOf(cfg.Root, cfg.File)
		} else if !os.IsNotExist(err) {
			t.Fatal(err)
		}
		out, err := generate.Generate(c, opts)
		if err != nil {
			t.Fatal(err)
		}
		out.SetSource(source, "")
		changes, err := generate.Plan(root, out)
		if err != nil {
			t.Fatal(err)
		}
		if len(changes) == 0 {
			continue
		}
		var b strings.Builder
		for _, ch := range changes {
			b.WriteString(diff.Unified(ch.Path, ch.Path, ch.Old, ch.New))
		}
		t.Errorf("%s: stale generated files under %s (%s); run `make generate` and commit the result:\n%s", path, root, generate.Summary(changes), b.String())
	}
}

// TestPreCommitHooksRunRealCommands: every hook in .pre-commit-hooks.yaml
// runs an errgen command that exists and succeeds here, where the hooks
// would run (the repository root, which has errgen.yaml or the default
// contract).
func TestPreCommitHooksRunRealCommands(t *testing.T) {
	data, err := os.ReadFile(".pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID, Entry, Language string
		PassFilenames       *bool `yaml:"pass_filenames"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) < 3 {
		t.Fatalf("%d hooks", len(hooks))
	}
	for _, h := range hooks {
		args := strings.Fields(h.Entry)
		if len(args) < 2 || args[0] != "errgen" || h.Language != "golang" || h.PassFilenames == nil || *h.PassFilenames {
			t.Errorf("%s: entry %q language %q: want `errgen <command>`, golang, pass_filenames: false", h.ID, h.Entry, h.Language)
			continue
		}
		if args[1] == "generate" {
			args = []string{"errgen", "check"} // what generate would change, check reports without writing
		}
		var out, errb bytes.Buffer
		if code := cli.Run(args[1:], &out, &errb); code != cli.ExitOK {
			t.Errorf("%s: %s exits %d\n%s", h.ID, h.Entry, code, errb.String())
		}
	}
}
