package runtime

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
)

var update = flag.Bool("update", false, "rewrite the fixtures from the reference contract's generated package")

// The runtime files write out errgen's own fixed sets, which the loader and
// the other emitters take from internal/contract and net/http; these tests
// hold the two equal, so adding a step, a transport failure or a status text
// to errgen fails here until the runtime says it too.

func source(t *testing.T, l Lang, name string) string {
	t.Helper()
	b, err := l.Source(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func contains(t *testing.T, file, text, want string) {
	t.Helper()
	if !strings.Contains(text, want) {
		t.Errorf("%s does not contain\n%s", file, want)
	}
}

func TestTSFixedSets(t *testing.T) {
	var steps, failures []string
	for _, s := range contract.Steps {
		steps = append(steps, strconv.Quote(string(s)))
	}
	for _, f := range contract.Failures {
		failures = append(failures, strconv.Quote(string(f)))
	}
	spec := source(t, TS, "spec.ts")
	contains(t, "spec.ts", spec, "export type Step =\n  | "+strings.Join(steps, "\n  | ")+";\n")
	contains(t, "spec.ts", spec, "export const STEPS: readonly Step[] = Object.freeze(["+strings.Join(steps, ", ")+"] as const);\n")
	contains(t, "spec.ts", spec, "export type Failure =\n  | "+strings.Join(failures, "\n  | ")+";\n")
	contains(t, "spec.ts", spec, "export const FAILURES: readonly Failure[] = Object.freeze(["+strings.Join(failures, ", ")+"] as const);\n")

	contains(t, "codec.ts", source(t, TS, "codec.ts"), fmt.Sprintf("\nexport const MAX_DEPTH = %d;\n", contract.MaxDepth))

	var texts []string
	for code := 100; code < 600; code++ {
		if s := http.StatusText(code); s != "" {
			texts = append(texts, fmt.Sprintf("  %q: %q", strconv.Itoa(code), s))
		}
	}
	contains(t, "surfaces.ts", source(t, TS, "surfaces.ts"),
		"const STATUS_TEXT: { readonly [status: string]: string } = Object.freeze({\n"+strings.Join(texts, ",\n")+"\n});\n")
}

func TestPythonFixedSets(t *testing.T) {
	var steps, failures []string
	for _, s := range contract.Steps {
		steps = append(steps, fmt.Sprintf("    %s = %q\n", s.Idents().PythonConst, string(s)))
	}
	for _, f := range contract.Failures {
		failures = append(failures, fmt.Sprintf("    %s = %q\n", f.Idents().PythonConst, string(f)))
	}
	spec := source(t, Python, "_spec.py")
	contains(t, "_spec.py", spec, "class Step(str, Enum):\n    \"\"\"Step is what an agent does next after a failure; every recovery action maps onto one.\"\"\"\n"+strings.Join(steps, "")+"\n\n")
	contains(t, "_spec.py", spec, "class Failure(str, Enum):\n    \"\"\"Failure is a transport failure: the upstream call ended without a response.\"\"\"\n"+strings.Join(failures, "")+"\n\n")

	contains(t, "_codec.py", source(t, Python, "_codec.py"), fmt.Sprintf("\nMAX_DEPTH = %d\n", contract.MaxDepth))

	var texts strings.Builder
	for code := 100; code < 600; code++ {
		if s := http.StatusText(code); s != "" {
			fmt.Fprintf(&texts, "    %d: %q,\n", code, s)
		}
	}
	contains(t, "_http.py", source(t, Python, "_http.py"), "_STATUS_TEXT: Mapping[int, str] = {\n"+texts.String()+"}\n")
}

// TestSanitizerPathLists: the sanitizers carry the key file extensions and
// home prefixes the loader checks a truncation marker against (the
// credential names reach them as policy data instead).
func TestSanitizerPathLists(t *testing.T) {
	for _, f := range []struct {
		l    Lang
		name string
	}{{TS, "sanitize.ts"}, {Python, "_sanitize.py"}} {
		text := source(t, f.l, f.name)
		for _, x := range append(append([]string(nil), contract.KeyFileExtensions...), contract.HomePrefixes...) {
			if !strings.Contains(text, `"`+x+`"`) {
				t.Errorf("%s does not list %q", f.name, x)
			}
		}
	}
}

// TestFixtures: each language's fixture/ holds the reference contract's
// rendered modules as the committed generated package has them (`errgen
// check` holds that package to the contract), so the runtime compiles and is
// tested in place against the modules it ships with. `go test ./runtime
// -update` copies them again after the contract or its templates change.
func TestFixtures(t *testing.T) {
	for _, f := range []struct{ fixture, generated string }{
		{"ts/fixture/contract.ts", "../gen/ts/src/contract.ts"},
		{"ts/fixture/constructors.ts", "../gen/ts/src/constructors.ts"},
		{"python/fixture/errgen_runtime/_contract.py", "../gen/python/agent_error/_contract.py"},
		{"python/fixture/errgen_runtime/_envelope.py", "../gen/python/agent_error/_envelope.py"},
		{"python/fixture/errgen_runtime/_constructors.py", "../gen/python/agent_error/_constructors.py"},
		{"python/fixture/errgen_runtime/_exceptions.py", "../gen/python/agent_error/_exceptions.py"},
	} {
		want, err := os.ReadFile(filepath.FromSlash(f.generated))
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(filepath.FromSlash(f.fixture), want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(filepath.FromSlash(f.fixture))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s: run `go test ./runtime -update`", f.fixture, f.generated)
		}
	}
}

// TestFiles: every runtime file is listed, reads back, and ships with the
// header on top, a blank line after it in TypeScript; the files are tidy as
// the emitters' templates are (no trailing white space, one final newline,
// no runs of blank lines past what the language's tidy keeps), so stamping is
// the only change they undergo.
func TestFiles(t *testing.T) {
	for _, l := range []struct {
		Lang
		header, sep string
	}{
		{TS, "// Code generated by errgen. DO NOT EDIT.", "\n\n"},
		{Python, "# Code generated by errgen. DO NOT EDIT.", "\n"},
	} {
		names := l.Names()
		if len(names) < 9 {
			t.Fatalf("%s: Names() = %v", l.dir, names)
		}
		for _, name := range names {
			checkFile(t, l.Lang, name, l.header, l.sep)
		}
	}
}

func checkFile(t *testing.T, l Lang, name, header, sep string) {
	t.Helper()
	{
		src := source(t, l, name)
		got, err := l.Stamped(name, header)
		if err != nil {
			t.Fatal(err)
		}
		if want := header + sep + src; string(got) != want {
			t.Errorf("%s: stamped %q…", name, got[:min(len(got), 80)])
		}
		if !strings.HasSuffix(src, "\n") || strings.HasSuffix(src, "\n\n") || strings.HasPrefix(src, "\n") {
			t.Errorf("%s does not start with text and end in exactly one newline", name)
		}
		for i, line := range strings.Split(src, "\n") {
			if strings.TrimRight(line, " \t") != line {
				t.Errorf("%s:%d: trailing white space", name, i+1)
			}
		}
		// TypeScript's tidy keeps one blank line, Python's two (PEP 8).
		if run := "\n\n\n"; strings.Contains(src, run) && (l.blank || strings.Contains(src, run+"\n")) {
			t.Errorf("%s has a run of blank lines", name)
		}
	}
}
