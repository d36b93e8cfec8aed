package errgen_test

import (
	"go/version"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/errgen/errgen/internal/gentest"
)

// TestGoDirectiveIsTheOldestGoNeeded: errgen's go line is the oldest Go it
// builds with, and the README's Install section promises that version
// (issue 29: it said 1.24 while go.mod said 1.26, so `go get -tool` raised
// every owner's go line to 1.26). A module's go line is at least the highest
// of its requirements' (the go command raises it otherwise), and errgen's own
// code is held to its go line by the compiler (language features) and by go
// vet's stdversion analyzer (standard library API), which make test runs: so
// the line is the oldest Go errgen needs when it is no higher than its
// dependencies force. make test-go-floor builds and vets with that toolchain
// itself. Should errgen's code one day need newer Go than its dependencies,
// raise the line, say why in the README, and check it here.
func TestGoDirectiveIsTheOldestGoNeeded(t *testing.T) {
	goTool := gentest.GoTool(t)
	data, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil || mod.Go == nil {
		t.Fatalf("go.mod has no go line (%v)", err)
	}
	goLine := mod.Go.Version

	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`With Go (1\.[0-9]+(?:\.[0-9]+)?) or later`).FindSubmatch(readme)
	if m == nil {
		t.Fatal(`README.md's Install section no longer says "With Go 1.N or later"`)
	}
	if string(m[1]) != goLine {
		t.Errorf("README.md says Go %s or later; go.mod's go line is %s", m[1], goLine)
	}

	// Every module of the graph with its go line (the main module first).
	out, err := exec.Command(goTool, "list", "-m", "-f", "{{.Path}} {{.GoVersion}}", "all").Output()
	if err != nil {
		t.Fatalf("go list -m all: %v", err)
	}
	highest, by := "", ""
	for i, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, v, _ := strings.Cut(line, " ")
		if i == 0 || v == "" {
			continue
		}
		if highest == "" || version.Compare("go"+v, "go"+highest) > 0 {
			highest, by = v, path
		}
	}
	if highest == "" {
		t.Fatal("go list -m all lists no dependency with a go line")
	}
	if version.Compare("go"+goLine, "go"+highest) != 0 {
		t.Errorf("go.mod's go line is %s; the highest of its dependencies' is %s (%s): errgen needs no newer Go than that, so lower the line to it (and the README's Install section)", goLine, highest, by)
	}
}
