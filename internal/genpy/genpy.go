// Package genpy emits the Python package of a contract: a standard-library
// only, typed (py.typed) package for Python 3.9+: the runtime of
// runtime/python, stamped, and the contract's modules, rendered from the
// templates in templates/python.
//
// Like the TypeScript package, it splits in two. The contract-specific half
// is data plus the classes a contract shapes: the vocabularies as str-valued
// Enums, the classification table, the wire layout as a tree, the classifier
// rules, the retry policy and the sanitizer policy (_contract.py); the frozen
// dataclasses of the envelope (_envelope.py); one constructor per kind and
// the classifiers (_constructors.py); the exception hierarchy
// (_exceptions.py). The other half is a runtime that reads that data — the
// layout interpreter of from_dict / to_dict, the word matcher and rule
// engine, the sanitizer (_sanitize.py), next_step and the MCP helpers — and
// is the same text for every contract. Its decisions mirror the Go and
// TypeScript packages; the conformance vectors prove it.
package genpy

import (
	"fmt"
	"path"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/render"
	"github.com/errgen/errgen/internal/targets"
	"github.com/errgen/errgen/runtime"
	"github.com/errgen/errgen/templates"
)

// Dir is where the package goes, relative to the output root.
func Dir(o targets.Options) string { return o.Dir(targets.Python) }

// files are the generated files that depend on the contract, each
// rendered from its template in templates/python (pyproject.toml from
// pyproject.toml.tmpl); pkgFiles are the ones inside the importable
// package. The runtime modules, the same for every contract (a test checks
// this), are real Python in runtime/python: each becomes <package>/<name>
// with the header stamped on top.
var (
	files    = []string{"pyproject.toml", "README.md"}
	pkgFiles = []string{"__init__.py", "py.typed", "_contract.py", "_envelope.py", "_constructors.py", "_exceptions.py"}
)

// RuntimeModules are the package files that do not depend on the contract:
// the runtime's modules and py.typed.
var RuntimeModules = append(runtime.Python.Names(), "py.typed")

// pyTemplates are compiled (render.Compile): the per-kind loops of
// _contract.py, _constructors.py, __init__.py and _exceptions.py cost
// text/template more than the rest of the emitter on a large contract.
var pyTemplates = render.ParseFS("python", funcs, templates.FS, "python/*.tmpl")

// Generate returns the package's files.
func Generate(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	v, err := newView(c, o)
	if err != nil {
		return nil, err
	}
	out, pkg := map[string][]byte{}, path.Join(Dir(o), v.Package)
	// Two blank lines in a row stay: PEP 8's between top-level definitions.
	if err := render.Files(out, pyTemplates, v, 2, Dir(o), files); err != nil {
		return nil, fmt.Errorf("genpy: %w", err)
	}
	// _contract.py holds the printed tables (the classifications most of
	// it) and a few lists of the kinds, about a fifth more: its buffer
	// starts at that size (9 MB at 10,000 kinds).
	size := 0
	for _, s := range []string{v.Classifications, v.Fields, v.Layout, v.AIPReasons, v.Inbound} {
		size += len(s)
	}
	size += size/4 + 64<<10
	if err := render.FilesSized(out, pyTemplates, v, 2, pkg, pkgFiles, "_contract.py", size); err != nil {
		return nil, fmt.Errorf("genpy: %w", err)
	}
	if err := render.Runtime(out, runtime.Python, pkg, v.Header); err != nil {
		return nil, fmt.Errorf("genpy: %w", err)
	}
	return out, nil
}
