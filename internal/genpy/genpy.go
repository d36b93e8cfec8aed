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
	"bytes"
	"fmt"
	"path"
	"text/template"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/runtime"
	"github.com/errgen/errgen/templates"
)

// Dir is where the package goes, relative to the output root.
func Dir(c *contract.Contract) string { return c.Outputs.Python }

// files maps each generated file that depends on the contract to its
// template in templates/python; pkg marks a path inside the importable
// package. The runtime modules, the same for every contract (a test checks
// this), are real Python in runtime/python: each becomes <package>/<name>
// with the header stamped on top.
var files = []struct {
	out, tmpl string
	pkg       bool
}{
	{"pyproject.toml", "pyproject.toml.tmpl", false},
	{"README.md", "README.md.tmpl", false},
	{"__init__.py", "__init__.py.tmpl", true},
	{"py.typed", "py.typed.tmpl", true},
	{"_contract.py", "_contract.py.tmpl", true},
	{"_envelope.py", "_envelope.py.tmpl", true},
	{"_constructors.py", "_constructors.py.tmpl", true},
	{"_exceptions.py", "_exceptions.py.tmpl", true},
}

// RuntimeModules are the package files that do not depend on the contract:
// the runtime's modules and py.typed.
var RuntimeModules = append(runtime.Python.Names(), "py.typed")

var pyTemplates = template.Must(template.New("python").Funcs(funcs).ParseFS(templates.FS, "python/*.tmpl"))

// Generate returns the package's files.
func Generate(c *contract.Contract) (map[string][]byte, error) {
	v, err := newView(c)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	// One buffer for every file: tidy copies each out, and the buffer then
	// only grows to the largest file instead of growing again for each.
	var buf bytes.Buffer
	for _, f := range files {
		buf.Reset()
		if err := pyTemplates.ExecuteTemplate(&buf, f.tmpl, v); err != nil {
			return nil, fmt.Errorf("genpy: %s: %w", f.out, err)
		}
		p := path.Join(Dir(c), f.out)
		if f.pkg {
			p = path.Join(Dir(c), v.Package, f.out)
		}
		out[p] = tidy(buf.Bytes())
	}
	for _, name := range runtime.Python.Names() {
		src, err := runtime.Python.Stamped(name, v.Header)
		if err != nil {
			return nil, fmt.Errorf("genpy: %w", err)
		}
		out[path.Join(Dir(c), v.Package, name)] = src
	}
	return out, nil
}

// tidy drops trailing white space, collapses the runs of blank lines that
// template actions leave behind (keeping the two blank lines PEP 8 puts
// between top-level definitions) and ends the file with exactly one newline.
func tidy(b []byte) []byte {
	rest := bytes.TrimSpace(b)
	out := make([]byte, 0, len(rest)+1)
	blank := 0
	for {
		line, more := rest, false
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest, more = rest[:i], rest[i+1:], true
		}
		line = bytes.TrimRight(line, " \t")
		if len(line) == 0 {
			blank++
		} else {
			blank = 0
		}
		if blank <= 2 {
			out = append(out, line...)
			out = append(out, '\n')
		}
		if !more {
			return out
		}
	}
}
