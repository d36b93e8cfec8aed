package agenterror_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/gengo"
)

const modulePath = "github.com/errgen/errgen/gen/go/agenterror"

// TestModuleHasNoDependencies: the generated package, as a consumer's module
// graph sees it, is its module and nothing else (no jennifer, yaml or
// jsonschema, which only the generator needs), its go.mod requires nothing
// and asks for the Go version gengo writes, and go vet is clean at that
// version. It runs the go tool offline in gen/go/agenterror, so it also shows
// that the module needs no download.
func TestModuleHasNoDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found")
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goTool, args...)
		cmd.Dir = "../../../gen/go/agenterror"
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	if got := strings.TrimSpace(run("list", "-m", "all")); got != modulePath {
		t.Errorf("go list -m all lists:\n%s\nwant only %s", got, modulePath)
	}
	// go mod graph also prints the go directive's requirement of a Go
	// version and toolchain (go@1.21, toolchain@go1.21): those are no modules.
	for _, edge := range strings.Split(strings.TrimSpace(run("mod", "graph")), "\n") {
		if _, to, _ := strings.Cut(edge, " "); edge != "" && !strings.HasPrefix(to, "go@") && !strings.HasPrefix(to, "toolchain@") {
			t.Errorf("go mod graph: %s", edge)
		}
	}
	var mod struct {
		Module  struct{ Path string }
		Go      string
		Require []any
	}
	if err := json.Unmarshal([]byte(run("mod", "edit", "-json")), &mod); err != nil {
		t.Fatal(err)
	}
	if mod.Module.Path != modulePath || mod.Go != gengo.GoVersion || len(mod.Require) != 0 {
		t.Errorf("go.mod: module %q, go %q, %d requires; want module %q, go %q (gengo.GoVersion), none",
			mod.Module.Path, mod.Go, len(mod.Require), modulePath, gengo.GoVersion)
	}
	run("vet", "./...")
}
