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
	"fmt"
	"path"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/render"
	"github.com/errgen/errgen/internal/targets"
	"github.com/errgen/errgen/internal/tscompile"
	"github.com/errgen/errgen/runtime"
	"github.com/errgen/errgen/templates"
)

// Dir is where the package goes, relative to the output root.
func Dir(o targets.Options) string { return o.Dir(targets.TypeScript) }

// files are the generated files that depend on the contract, relative to
// Dir, each rendered from its template in templates/ts (src/contract.ts
// from contract.ts.tmpl): contract.ts and constructors.ts and the package
// files. The other sources are the runtime, real TypeScript in
// runtime/ts/src, the same for every contract (a test checks this): each
// becomes src/<name> with the header stamped on top, and is compiled once
// per process (see internal/tscompile); the rendered sources' dist/ files
// are written from the view instead (js.go, decl.go).
var files = []string{"package.json", "tsconfig.json", "README.md", "src/contract.ts", "src/constructors.ts"}

// tsTemplates are compiled (render.Compile): the same bytes as
// text/template's, without its field lookups by name on every kind.
var tsTemplates = render.ParseFS("ts", funcs, templates.FS, "ts/*.tmpl")

// Generate returns the package's files: the sources, and dist/ compiled
// from them (internal/tscompile).
func Generate(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	v, err := newView(c, o)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	if err := render.FilesSized(out, tsTemplates, v, 1, Dir(o), files, "src/contract.ts", v.contractSize()); err != nil {
		return nil, fmt.Errorf("gents: %w", err)
	}
	if err := render.Runtime(out, runtime.TS, path.Join(Dir(o), "src"), v.Header); err != nil {
		return nil, fmt.Errorf("gents: %w", err)
	}
	// The contract's modules' JavaScript is written from the view (js.go),
	// and their declarations made from less than the whole module (decl.go);
	// only the runtime's modules are compiled, once per process.
	contractTS, constructorsTS := out[path.Join(Dir(o), "src/contract.ts")], out[path.Join(Dir(o), "src/constructors.ts")]
	contractDTS, err := tscompile.Declarations(v.Header, "contract", withoutTables(contractTS, v))
	if err != nil {
		return nil, fmt.Errorf("gents: %w", err)
	}
	constructorsDTS, err := constructorDeclarations(v, constructorsTS)
	if err != nil {
		return nil, fmt.Errorf("gents: %w", err)
	}
	srcs := []tscompile.Source{
		{Name: "contract", JS: contractJS(v, len(contractTS)), DTS: contractDTS},
		{Name: "constructors", JS: constructorsJS(v, len(constructorsTS)), DTS: constructorsDTS},
	}
	for _, name := range runtime.TS.Names() {
		srcs = append(srcs, tscompile.Source{Name: strings.TrimSuffix(name, ".ts"), Text: out[path.Join(Dir(o), "src", name)], Runtime: true})
	}
	dist, err := tscompile.Dist(v.Header, srcs)
	if err != nil {
		return nil, fmt.Errorf("gents: %w", err)
	}
	for rel, b := range dist {
		out[path.Join(Dir(o), rel)] = b
	}
	return out, nil
}

// contractSize foresees the size of src/contract.ts, the largest file the
// templates render, a little over: its tables and, for each kind, its
// description and a few lines naming it.
func (v *view) contractSize() int {
	n := 64 << 10
	for _, table := range []string{v.Classifications, v.Fields, v.HTTPKinds, v.MCPKindErrorCodes, v.AIPReasons, v.Layout} {
		n += len(table)
	}
	for _, k := range v.Kinds {
		n += len(k.Doc) + 4*len(k.Name) + 2*len(k.Const) + 64
	}
	return n
}
