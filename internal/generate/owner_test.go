package generate

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
)

// TestHeaderLineRule (issue 15, item 3): the header line decides, not the
// marker somewhere near the top.
func TestHeaderLineRule(t *testing.T) {
	const m = marker.Text
	tests := []struct {
		name, data string
		want       bool
	}{
		{"a.go", "// " + m + "\n\npackage a\n", true},
		{"a.go", "// " + m + "\r\n\r\npackage a\r\n", true}, // a CRLF checkout
		{"a.go", "// Copyright 2026.\n// " + m + "\n\npackage a\n", false},
		{"a.go", "//" + m + "\n", false},
		{"a.go", "// " + m + " Edit the contract.\n", false},
		{"a.go", "# " + m + "\n", false}, // another language's comment
		{"a.ts", "// " + m + "\n", true},
		{"a.d.ts", "// " + m + "\n", true},
		{"a.js", "// " + m + "\n", true},
		{"a.js", "/* " + m + " */\n", false},
		{"a.py", "# " + m + "\n", true},
		{"a.py", "#!/usr/bin/env python3\n# " + m + "\n", false},
		{"a.py", "\ufeff# " + m + "\n", false},
		{"go.mod", "// " + m + "\n\nmodule example.com/errors\n\ngo 1.21\n", true},
		{"go.mod", "module example.com/errors\n\ngo 1.21\n", false}, // a hand-written module file
		{"go.mod", "module example.com/errors // " + m + "\n", false},
		{"pyproject.toml", "# " + m + "\n", true},
		{"py.typed", "# " + m + "\n", true},
		{"README.md", "<!-- " + m + " -->\n# Title\n", true},
		{"CONTRIBUTING.md", "# Contributing\n\nGenerated files start with `<!-- " + m + " -->`.\n", false},
		{"README.md", "# " + m + "\n", false}, // a Markdown heading, not errgen's comment
		{"a.json", "{\n  \"$comment\": \"" + m + " Source: x.\",\n  \"a\": 1\n}\n", true},
		{"a.json", "{\n  \"//\": \"" + m + "\",\n  \"a\": 1\n}\n", true},
		{"a.json", "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"$id\": \"urn:x\",\n  \"$comment\": \"" + m + "\"\n}\n", true},
		{"a.json", "{\n    \"$comment\": \"" + m + "\"\n}\n", true}, // reindented
		{"a.json", "{\n  \"title\": \"x\",\n  \"$comment\": \"" + m + "\"\n}\n", false},
		{"a.json", "{\n  \"description\": \"" + m + "\"\n}\n", false},
		{"a.json", "{\"$comment\": \"" + m + "\"}\n", false},
		{"a.json", "[\n  \"$comment\": \"" + m + "\"\n]\n", false},
		{"a.json", "{\n  \"$schema\": \"x\",\n", false},
		{"a.txt", m + "\n", false}, // no rule for the type: never errgen's
		{"Makefile", "# " + m + "\n", false},
		{"a.go", "", false},
	}
	for _, tt := range tests {
		if got := IsGenerated(tt.name, []byte(tt.data)); got != tt.want {
			t.Errorf("IsGenerated(%s, %q) = %v, want %v", tt.name, tt.data, got, tt.want)
		}
	}
}

// TestEveryOutputFollowsTheRule: every file every contract in the
// repository generates, with every target on (those off by default too),
// is errgen's by its header line, so no generated file would ever be
// mistaken for a hand-written one.
func TestEveryOutputFollowsTheRule(t *testing.T) {
	contracts, _ := filepath.Glob("../../examples/*/kinds.yaml")
	contracts = append(contracts, reference)
	exts := map[string]bool{}
	for _, path := range contracts {
		c := gentest.Load(t, path)
		opts := targets.Defaults(c.Name)
		for _, tg := range targets.All {
			opts.Dirs[tg.Key] = tg.Dir(opts.Packages)
		}
		// Once as configured, once with the Go package as a module of its
		// own, which adds its go.mod.
		for _, module := range []bool{opts.Packages.GoModule, true} {
			opts.Packages.GoModule = module
			if module && opts.Packages.GoImportPath == "" {
				opts.Packages.GoImportPath = "example.com/" + opts.Packages.Go
			}
			out, err := Generate(c, opts)
			if err != nil {
				t.Fatal(err)
			}
			for p, data := range out.Files {
				exts[filepath.Ext(p)] = true
				if !IsGenerated(p, data) {
					t.Errorf("%s: %s is not errgen's by its header line", path, p)
				}
				if tg := targetOf(out, p); tg != nil && filepath.Ext(p) != ".json" {
					if _, ok := tg.Headers[filepath.Ext(p)]; !ok {
						t.Errorf("%s: the %s output writes %s, but its target's Headers (internal/targets) have no %s", path, tg.Key, p, filepath.Ext(p))
					}
				}
			}
		}
	}
	for ext := range headerSyntax {
		if !exts[ext] {
			t.Errorf("no output has the extension %s; remove its rule", ext)
		}
	}
}

// TestQuotedMarkerIsNotDeleted (issue 15, item 3): hand-written files in a
// directory errgen owns that quote the marker near their top, but not as
// their header line, are not pruned; a stale generated file beside them is.
func TestQuotedMarkerIsNotDeleted(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"gen/test/CONTRIBUTING.md": "# Contributing\n\nFiles starting with `<!-- " + marker.Text + " -->` are generated; edit the contract.\n",
		"gen/test/notes.go":        "// Copyright 2026 Example.\n// " + marker.Text + "\n\npackage test\n",
		"gen/test/extra.json":      "{\n  \"title\": \"mine\",\n  \"$comment\": \"" + marker.Text + "\"\n}\n",
		"gen/test/stale.go":        "// " + marker.Text + "\n\npackage test\n",
	}
	gentest.WriteTree(t, root, files)
	out := &Output{Files: map[string][]byte{"gen/test/a.go": []byte("// " + marker.Text + "\n")}, Dirs: []string{"gen/test"}}
	_, got := planOps(t, root, out)
	if want := "create gen/test/a.go,delete gen/test/stale.go"; strings.Join(got, ",") != want {
		t.Errorf("Plan = %v, want %s", got, want)
	}
}

// TestOutputBound (issue 15, item 7): a run that generates more than the
// output limit fails before anything is compared or written, naming the
// largest file.
func TestOutputBound(t *testing.T) {
	defer func(n int64) { maxOutput = n }(maxOutput)
	maxOutput = 100
	c := loadReference(t)
	c.Size = 1 // the fixed bound applies
	small := []byte("// " + marker.Text + "\n")
	big := []byte("// " + marker.Text + "\n" + strings.Repeat("x", 80) + "\n")
	if _, err := run(c, testOptions, []Emitter{fixed(map[string][]byte{"gen/test/a.go": small, "gen/test/b.go": small})}); err != nil {
		t.Fatalf("within the bound: %v", err)
	}
	_, err := run(c, testOptions, []Emitter{fixed(map[string][]byte{"gen/test/a.go": small, "gen/test/big.go": big})})
	if err == nil || !strings.Contains(err.Error(), "gen/test/big.go") || !strings.Contains(err.Error(), "limit") {
		t.Errorf("past the bound: err = %v", err)
	}
	// A larger contract may generate OutputPerByte bytes per byte of it.
	c.Size = 200 / OutputPerByte * 2
	if _, err := run(c, testOptions, []Emitter{fixed(map[string][]byte{"gen/test/a.go": small, "gen/test/big.go": big})}); err != nil {
		t.Errorf("within a contract of %d bytes' bound: %v", c.Size, err)
	}
}

// targetOf is the target whose output directory holds p, the innermost.
func targetOf(out *Output, p string) *targets.Target {
	var best *targets.Target
	longest := 0
	for _, e := range Emitters {
		if d := out.Outputs[e.Name]; d != "" && strings.HasPrefix(p, d+"/") && len(d) > longest {
			best, longest = targets.ByKey(e.Key), len(d)
		}
	}
	return best
}
