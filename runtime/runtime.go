// Package runtime embeds the runtime of each generated package: the source
// files that are the same for every contract (the layout interpreter, the
// sanitizer, the rule engine of the classifiers, the decision procedure,
// the surfaces). They are real source files, compiled, type-checked and
// unit-tested where they are written (runtime/ts by tests/ts with tsc and
// node --test, runtime/python by tests/python with mypy --strict and
// pytest), instead of templates that only compile once rendered.
// The emitters copy them into each generated package with errgen's header
// line stamped on top; only the code a contract shapes is rendered.
//
// A runtime file reads the contract only through the modules the emitter
// renders (contract.ts and constructors.ts; _contract.py, _envelope.py,
// _constructors.py and _exceptions.py). The test runners (tests/ts/run.mjs,
// tests/python/run.py) copy those of the committed reference package into
// each language's fixture/ directory (git ignores it), so that the runtime
// compiles in place against the modules it ships with: runtime/ts/tsconfig.json merges src/ and fixture/ with rootDirs,
// and errgen_runtime is a namespace package over python/src and
// python/fixture. errgen's own fixed sets (the steps, the transport failures,
// Go's HTTP status texts, the nesting limit) are written out in the files;
// runtime_test.go holds them equal to errgen's definitions.
//
// The directory sits at the repository root, beside templates/, because
// //go:embed cannot reach parent directories.
package runtime

import (
	"embed"
	"io/fs"
)

//go:embed ts/src/*.ts python/src/errgen_runtime/*.py
var files embed.FS

// Lang is the runtime of one language.
type Lang struct {
	dir string
	// blank says whether a blank line follows the header line (TypeScript);
	// a Python module's docstring follows it directly.
	blank bool
}

// TS is the TypeScript runtime: runtime/ts/src/<module>.ts becomes
// src/<module>.ts of the generated package.
var TS = Lang{dir: "ts/src", blank: true}

// Python is the Python runtime: runtime/python/src/errgen_runtime/<module>.py
// becomes <package>/<module>.py of the generated package. Its modules import
// one another and the contract's modules relatively (from ._contract
// import ...), so the text does not depend on the package's name.
var Python = Lang{dir: "python/src/errgen_runtime"}

// Names lists the language's runtime files, sorted.
func (l Lang) Names() []string {
	entries, err := fs.ReadDir(files, l.dir)
	if err != nil {
		panic(err) // the directory is embedded; it cannot be missing
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// Source returns a runtime file as it is written.
func (l Lang) Source(name string) ([]byte, error) {
	return files.ReadFile(l.dir + "/" + name)
}

// Stamped returns a runtime file as it ships: header (one line, in the
// language's comment syntax) on top of the file's text.
func (l Lang) Stamped(name, header string) ([]byte, error) {
	src, err := l.Source(name)
	if err != nil {
		return nil, err
	}
	sep := "\n"
	if l.blank {
		sep = "\n\n"
	}
	out := make([]byte, 0, len(header)+len(sep)+len(src))
	out = append(append(append(out, header...), sep...), src...)
	return out, nil
}
