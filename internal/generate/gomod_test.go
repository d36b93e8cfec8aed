package generate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/targets"
)

// TestGoModIsOwnedLikeAnyGeneratedFile: the go.mod of a Go package that is a
// module of its own is created, kept, refused when hand-written, and pruned
// when no longer generated, by the header-line rule every generated file
// follows; a hand-written go.mod in the package's directory is never touched
// while errgen generates none.
func TestGoModIsOwnedLikeAnyGeneratedFile(t *testing.T) {
	root := t.TempDir()
	c := loadReference(t)
	opts := targets.Defaults(c.Name)
	goMod := opts.Dir(targets.Go) + "/go.mod"
	full := filepath.Join(root, filepath.FromSlash(goMod))
	generate := func(module bool) *Output {
		t.Helper()
		opts.Packages.GoModule, opts.Packages.GoImportPath = module, "example.com/errors/"+opts.Packages.Go
		out, err := Generate(c, opts)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	plan := func(out *Output) string {
		t.Helper()
		changes, _ := planOps(t, root, out)
		var got []string
		for _, ch := range changes {
			if ch.Path == goMod {
				got = append(got, string(ch.Op))
				if ch.Foreign {
					got = append(got, "foreign")
				}
			}
		}
		return strings.Join(got, " ")
	}

	module := generate(true)
	if _, ok := module.Files[goMod]; !ok {
		t.Fatalf("no %s among the outputs of a package that is a module of its own", goMod)
	}
	if _, ok := generate(false).Files[goMod]; ok {
		t.Fatalf("%s generated for a package that is not a module of its own", goMod)
	}
	if got := plan(module); got != "create" {
		t.Errorf("empty tree: plan for go.mod = %q, want create", got)
	}
	if _, err := Write(root, module, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := plan(module); got != "" {
		t.Errorf("after generate: plan for go.mod = %q, want nothing", got)
	}

	// A hand-written go.mod where errgen generates one is foreign: generate
	// refuses it without -take-over.
	handWritten := []byte("module example.com/errors/" + opts.Packages.Go + "\n\ngo 1.26\n")
	if err := os.WriteFile(full, handWritten, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := plan(module); got != "update foreign" {
		t.Errorf("hand-written go.mod: plan = %q, want update foreign", got)
	}
	var foreign *ForeignError
	if _, err := Write(root, module, Options{}); !errors.As(err, &foreign) || !strings.Contains(err.Error(), goMod) {
		t.Errorf("Write over a hand-written go.mod: err = %v, want a ForeignError naming it", err)
	}
	// ... and while errgen generates none, it is the user's, left alone.
	if got := plan(generate(false)); got != "" {
		t.Errorf("hand-written go.mod, no module configured: plan = %q, want nothing", got)
	}

	// errgen's go.mod, no longer generated, is pruned like any stale file.
	if err := os.WriteFile(full, module.Files[goMod], 0o644); err != nil {
		t.Fatal(err)
	}
	if got := plan(generate(false)); got != "delete" {
		t.Errorf("generated go.mod, no module configured: plan = %q, want delete", got)
	}
}
