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
	"text/template"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/templates"
)

// Marker is errgen's generated-file marker.
const Marker = marker.Text

// Dir is where the package goes, relative to the output root.
func Dir(c *contract.Contract) string { return c.Outputs.TypeScript }

// files maps each generated file, relative to Dir, to its template in
// templates/ts. Only contract.ts and constructors.ts (and the package files)
// depend on the contract; the other sources are the runtime, whose templates
// read nothing but the header and errgen's own fixed sets (steps, transport
// failures, Go's HTTP status texts), so they are the same for every contract
// (a test checks this).
var files = []struct{ out, tmpl string }{
	{"package.json", "package.json.tmpl"},
	{"tsconfig.json", "tsconfig.json.tmpl"},
	{"README.md", "README.md.tmpl"},
	{"src/contract.ts", "contract.ts.tmpl"},
	{"src/constructors.ts", "constructors.ts.tmpl"},
	{"src/freeze.ts", "freeze.ts.tmpl"},
	{"src/spec.ts", "spec.ts.tmpl"},
	{"src/classification.ts", "classification.ts.tmpl"},
	{"src/words.ts", "words.ts.tmpl"},
	{"src/inbound.ts", "inbound.ts.tmpl"},
	{"src/nextstep.ts", "nextstep.ts.tmpl"},
	{"src/codec.ts", "codec.ts.tmpl"},
	{"src/utf8.ts", "utf8.ts.tmpl"},
	{"src/sanitize.ts", "sanitize.ts.tmpl"},
	{"src/surfaces.ts", "surfaces.ts.tmpl"},
	{"src/index.ts", "index.ts.tmpl"},
}

var tsTemplates = template.Must(template.New("ts").Funcs(funcs).ParseFS(templates.FS, "ts/*.tmpl"))

// Generate returns the package's files.
func Generate(c *contract.Contract) (map[string][]byte, error) {
	v, err := newView(c)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, f := range files {
		var buf bytes.Buffer
		if err := tsTemplates.ExecuteTemplate(&buf, f.tmpl, v); err != nil {
			return nil, fmt.Errorf("gents: %s: %w", f.out, err)
		}
		out[path.Join(Dir(c), f.out)] = tidy(buf.Bytes())
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
