package runtime

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
)

// reference is the committed reference package, whose contract-shaped files
// the Go runtime compiles against.
const reference = "../gen/go/agenterror"

// TestGoRuntime compiles, vets and tests the Go runtime where it is written.
// A Go package cannot span two directories, so it assembles one in a
// temporary module: runtime/go/_src's files (its tests too) and every file of
// the reference package that is not a runtime file (the contract-shaped
// files, the schemas they embed, go.mod), as `make generate` last wrote
// them, their generated-file header unmarked so that vet's stdversion check
// holds every file to the go.mod's Go version. The runtime files go in as written, package clause and all, so a
// file that only compiles once stamped fails here.
func TestGoRuntime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with the go command")
	}
	t.Parallel()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the Go runtime: %v", err)
	}
	dir := t.TempDir()
	own := Go.Names()
	entries, err := os.ReadDir(reference)
	if err != nil {
		t.Fatal(err)
	}
	copied := 0
	for _, e := range entries {
		if e.IsDir() || slices.Contains(own, e.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(reference, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(e.Name(), ".go") {
			// go vet's stdversion check skips files marked as generated,
			// and this package promises the Go version of its go.mod
			// (gengo.GoVersion): unmarked, every file is held to it.
			// The header names its source (marker.From) in a committed
			// package; line 1 is the header either way.
			if bytes.HasPrefix(data, []byte("// "+marker.FromPrefix)) || bytes.HasPrefix(data, []byte("// "+marker.Text+"\n")) {
				_, rest, _ := bytes.Cut(data, []byte("\n"))
				data = append([]byte("// (errgen's header, unmarked so that vet checks the Go version)\n"), rest...)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(e.Name(), ".go") {
			copied++
		}
	}
	if copied == 0 {
		t.Fatalf("%s has no contract-shaped Go files", reference)
	}
	runtimeFiles, err := files.ReadDir(Go.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range runtimeFiles {
		data := source(t, Go, e.Name())
		if err := os.WriteFile(filepath.Join(dir, e.Name()), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"vet", "."}, {"test", "-count=1", "."}} {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		// The module stands alone: no workspace, and nothing to download
		// (the package imports only the standard library).
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOPROXY=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s in the assembled module: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// TestGoFixedSets: the nesting limit the Go codec writes out, the log form's
// bound, the problem members, the title of an unknown kind, the layout
// sources a problem member is restored from, the short form's bound and
// mark, the steps and the transport failures are errgen's, and LogValue has
// a case for every member of the log form (one it has none for would be
// left out of every log form without a word).
func TestGoFixedSets(t *testing.T) {
	codec := source(t, Go, "codec.go")
	contains(t, "codec.go", codec, fmt.Sprintf("\nconst MaxDepth = %d\n", contract.MaxDepth))
	contains(t, "codec.go", codec, fmt.Sprintf(`"nests arrays and objects more than %d levels deep"`, contract.MaxDepth))
	http := source(t, Go, "http.go")
	contains(t, "http.go", http, fmt.Sprintf("\nconst unknownKindTitle = %q\n", contract.UnknownKindTitle))
	quoted := make([]string, len(contract.ProblemMembers))
	for i, p := range contract.ProblemMembers {
		quoted[i] = strconv.Quote(p)
	}
	contains(t, "http.go", http, "\nvar problemMembers = [...]string{"+strings.Join(quoted, ", ")+"}\n")
	// restoreProblemMembers knows every source a problem member can be
	// restored from: all but a field and the retry hint.
	for _, s := range contract.Sources {
		if s != contract.SourceRetryAfterMs && s != contract.SourceVersion {
			contains(t, "http.go", http, fmt.Sprintf("\tcase %q", s))
		}
	}
	contains(t, "http.go", http, fmt.Sprintf("case %q, %q:", contract.SourceConst, contract.SourceVersion))
	readHTTP := source(t, Go, "readhttp.go")
	contains(t, "readhttp.go", readHTTP, fmt.Sprintf("\nconst maxShortFormKind = %d\n", contract.ShortFormMaxKind))
	contains(t, "readhttp.go", readHTTP, fmt.Sprintf("\tPromotedMember = %q\n", contract.PromotedMember))
	contains(t, "readhttp.go", readHTTP, fmt.Sprintf("\tPromotedShortForm = %q\n", contract.PromotedShortForm))
	fixedSet(t, "nextstep.go", "Step", contract.Steps)
	fixedSet(t, "inbound.go", "Failure", contract.Failures)
	methods := source(t, Go, "methods.go")
	contains(t, "methods.go", methods, fmt.Sprintf(" at %d bytes cut at a character boundary.", contract.LogMaxBytes))
	logging := source(t, Go, "logging.go")
	for _, m := range contract.LogMembers {
		contains(t, "logging.go", logging, fmt.Sprintf("\t\tcase %q:\n", string(m)))
	}
}

// fixedSet checks that the Go runtime file declares one constant of type
// typ per value of one of errgen's fixed sets, in its order and no other,
// named typ plus the value's Go name.
func fixedSet[V interface {
	~string
	Idents() contract.Idents
}](t *testing.T, file, typ string, values []V) {
	t.Helper()
	var want, got []string
	for _, v := range values {
		want = append(want, fmt.Sprintf("%s%s %s = %q", typ, v.Idents().Go, typ, string(v)))
	}
	decl := regexp.MustCompile(`(?m)^\t(` + typ + `\w*) +(` + typ + ` = ".*")$`)
	for _, m := range decl.FindAllStringSubmatch(source(t, Go, file), -1) {
		got = append(got, m[1]+" "+m[2])
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s declares the %s constants\n%s\nwant\n%s", file, typ, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestGoPackageNamed: a Go runtime file names its package only in its package
// clause and at the start of its error messages, the two places
// StampedPackage renames, and the renamed file is still as gofmt prints it.
func TestGoPackageNamed(t *testing.T) {
	const header = "// Code generated by errgen. DO NOT EDIT."
	for _, name := range Go.Names() {
		src := source(t, Go, name)
		rest := strings.TrimPrefix(src, "package agenterror\n")
		if rest == src {
			t.Errorf("%s does not start with its package clause", name)
		}
		if rest = strings.ReplaceAll(rest, `"agenterror: `, ""); strings.Contains(rest, "agenterror") {
			t.Errorf("%s names its package where StampedPackage does not rename it", name)
		}
		for _, pkg := range []string{"agenterror", "e", "storageerrors"} {
			got, err := Go.StampedPackage(name, header, pkg)
			if err != nil {
				t.Fatal(err)
			}
			if want := header + "\n\npackage " + pkg + "\n"; !bytes.HasPrefix(got, []byte(want)) {
				t.Errorf("%s in %s starts %q", name, pkg, got[:min(len(got), len(want))])
			}
			if pkg != "agenterror" && bytes.Contains(got, []byte("agenterror")) {
				t.Errorf("%s in %s still names agenterror", name, pkg)
			}
			formatted, err := format.Source(got)
			if err != nil {
				t.Fatalf("%s in %s: %v", name, pkg, err)
			}
			if !bytes.Equal(formatted, got) {
				t.Errorf("%s in %s is not as gofmt prints it", name, pkg)
			}
		}
	}
	for _, name := range Go.Names() {
		if strings.HasSuffix(name, "_test.go") {
			t.Errorf("Go.Names() lists the test %s", name)
		}
	}
}
