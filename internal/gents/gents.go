// Package gents emits the TypeScript package of a contract: an npm package
// with no runtime dependencies, rendered from the templates in templates/ts.
//
// The package splits in two. The contract-specific half is data: the types
// (string-literal unions of the closed vocabularies, the Envelope with its
// context and kind-specific fields), the classification table, the wire
// layout as a tree, the classifier rules and the retry policy, plus one
// constructor per kind. The other half is a static runtime that reads that
// data — a layout interpreter for parsing and serializing, the word matcher
// and rule engine of the classifiers, NextStep and the MCP and HTTP
// surfaces — and is the same text for every contract. The decisions mirror
// the Go package exactly; one set of conformance vectors proves both.
package gents

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"sync"
	"text/template"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/templates"
)

// Dir is where the package goes, relative to the output root.
func Dir(c *contract.Contract) string { return c.Outputs.TypeScript }

// files maps each generated file, relative to Dir, to its template in
// templates/ts. Only contract.ts and constructors.ts (and the package files)
// depend on the contract; the other sources are the runtime, whose templates
// read nothing but the header and errgen's own fixed sets (steps, transport
// failures, Go's HTTP status texts), so they are the same for every contract
// (a test checks this).
// perContract marks the sources that differ between contracts: their
// compilation is never cached (see dist.go).
var files = []struct {
	out, tmpl   string
	perContract bool
}{
	{"package.json", "package.json.tmpl", true},
	{"tsconfig.json", "tsconfig.json.tmpl", true},
	{"README.md", "README.md.tmpl", true},
	{"src/contract.ts", "contract.ts.tmpl", true},
	{"src/constructors.ts", "constructors.ts.tmpl", true},
	{"src/freeze.ts", "freeze.ts.tmpl", false},
	{"src/spec.ts", "spec.ts.tmpl", false},
	{"src/classification.ts", "classification.ts.tmpl", false},
	{"src/words.ts", "words.ts.tmpl", false},
	{"src/inbound.ts", "inbound.ts.tmpl", false},
	{"src/nextstep.ts", "nextstep.ts.tmpl", false},
	{"src/codec.ts", "codec.ts.tmpl", false},
	{"src/utf8.ts", "utf8.ts.tmpl", false},
	{"src/sanitize.ts", "sanitize.ts.tmpl", false},
	{"src/surfaces.ts", "surfaces.ts.tmpl", false},
	{"src/index.ts", "index.ts.tmpl", false},
}

var tsTemplates = template.Must(template.New("ts").Funcs(funcs).ParseFS(templates.FS, "ts/*.tmpl"))

// Generate returns the package's files: the sources, and dist/ compiled
// from them (see dist.go).
func Generate(c *contract.Contract) (map[string][]byte, error) {
	v, err := newView(c)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	type module struct {
		name  string
		src   []byte
		cache bool
		js    []byte
		dts   []byte
		err   error
	}
	var modules []*module
	for _, f := range files {
		var buf bytes.Buffer
		if err := tsTemplates.ExecuteTemplate(&buf, f.tmpl, v); err != nil {
			return nil, fmt.Errorf("gents: %s: %w", f.out, err)
		}
		src := tidy(buf.Bytes())
		out[path.Join(Dir(c), f.out)] = src
		if name, ok := strings.CutPrefix(f.out, "src/"); ok {
			modules = append(modules, &module{name: strings.TrimSuffix(name, ".ts"), src: src, cache: !f.perContract})
		}
	}
	// The modules compile independently; the data module and the
	// constructors of a large contract take most of the time, so they
	// compile at the same time.
	var wg sync.WaitGroup
	for _, m := range modules {
		wg.Go(func() { m.js, m.dts, m.err = distFiles(v.Header, m.name, m.src, m.cache) })
	}
	wg.Wait()
	for _, m := range modules {
		if m.err != nil {
			return nil, fmt.Errorf("gents: compiling src/%s.ts: %w", m.name, m.err)
		}
		out[path.Join(Dir(c), "dist", m.name+".js")] = m.js
		out[path.Join(Dir(c), "dist", m.name+".d.ts")] = m.dts
	}
	return out, nil
}

// tidy drops trailing white space, collapses the runs of blank lines that
// template actions leave behind and ends the file with exactly one newline.
// It works on the bytes in one pass (the output is never longer than the
// trimmed input plus the final newline).
func tidy(b []byte) []byte {
	b = bytes.TrimSpace(b)
	out := make([]byte, 0, len(b)+1)
	prevBlank := false
	for first := true; ; first = false {
		line, rest, more := bytes.Cut(b, []byte{'\n'})
		line = bytes.TrimRight(line, " \t")
		blank := len(line) == 0
		if !(blank && prevBlank) {
			if !first {
				out = append(out, '\n')
			}
			out = append(out, line...)
		}
		prevBlank = blank
		if !more {
			break
		}
		b = rest
	}
	return append(out, '\n')
}
