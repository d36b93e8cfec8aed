// Package gents emits the TypeScript package of a contract: an npm package
// with no runtime dependencies: the runtime of runtime/ts, stamped, and the
// contract's modules, rendered from the templates in templates/ts.
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
	"github.com/errgen/errgen/runtime"
	"github.com/errgen/errgen/templates"
)

// Dir is where the package goes, relative to the output root.
func Dir(c *contract.Contract) string { return c.Outputs.TypeScript }

// files maps each generated file that depends on the contract, relative to
// Dir, to its template in templates/ts: contract.ts and constructors.ts and
// the package files. The other sources are the runtime, real TypeScript in
// runtime/ts/src, the same for every contract (a test checks this): each
// becomes src/<name> with the header stamped on top. Only the rendered
// sources' compilation is never cached (see dist.go).
var files = []struct{ out, tmpl string }{
	{"package.json", "package.json.tmpl"},
	{"tsconfig.json", "tsconfig.json.tmpl"},
	{"README.md", "README.md.tmpl"},
	{"src/contract.ts", "contract.ts.tmpl"},
	{"src/constructors.ts", "constructors.ts.tmpl"},
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
			modules = append(modules, &module{name: strings.TrimSuffix(name, ".ts"), src: src})
		}
	}
	for _, name := range runtime.TS.Names() {
		src, err := runtime.TS.Stamped(name, v.Header)
		if err != nil {
			return nil, fmt.Errorf("gents: %w", err)
		}
		out[path.Join(Dir(c), "src", name)] = src
		modules = append(modules, &module{name: strings.TrimSuffix(name, ".ts"), src: src, cache: true})
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
