// Package runtime embeds the runtime of each generated package: the source
// files that are the same for every contract (the layout interpreter, the
// sanitizer, the rule engine of the classifiers, the decision procedure,
// the surfaces). They are real source files, compiled, type-checked and
// unit-tested where they are written (runtime/ts by tests/ts with tsc and
// node --test, runtime/python by tests/python with mypy --strict and
// pytest, runtime/go by this package's tests with go vet and go test),
// instead of templates that only compile once rendered.
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
// python/fixture. The Go runtime cannot be compiled on its own either, and a
// Go package cannot span two directories: its files sit in runtime/go/_src,
// which the go command's ./... skips (a leading underscore), and
// TestGoRuntime assembles a temporary module from them and the reference
// package's other files, then vets and tests it there. errgen's own fixed sets (the steps, the transport failures,
// Go's HTTP status texts, the nesting limit) are written out in the files;
// runtime_test.go holds them equal to errgen's definitions.
//
// The directory sits at the repository root, beside templates/, because
// //go:embed cannot reach parent directories.
package runtime

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

//go:embed ts/src/*.ts python/src/errgen_runtime/*.py go/_src/*.go rust/src/*.rs
var files embed.FS

// Lang is the runtime of one language.
type Lang struct {
	dir string
	// blank says whether a blank line follows the header line (TypeScript);
	// a Python module's docstring follows it directly.
	blank bool
	// pkg is the package the files are written in (Go), which
	// StampedPackage renames.
	pkg string
	// own names a file of the directory that is the runtime's own and does
	// not ship (Rust's lib.rs, which declares the runtime's modules and the
	// fixture's for the tests in place).
	own string
	// fsys holds dir; nil for the runtimes embedded here (files). A
	// runtime may embed itself from a package of its own (see Of).
	fsys fs.FS
}

// Of is the runtime whose files are dir of fsys, with a blank line after
// the header line when blank is set: a new language's runtime can embed
// its files from a Go package in its own directory (runtime/<lang>) and
// need no pattern in this one.
func Of(fsys fs.FS, dir string, blank bool) Lang { return Lang{dir: dir, blank: blank, fsys: fsys} }

// fs is the file system holding the runtime's directory.
func (l Lang) fs() fs.FS {
	if l.fsys != nil {
		return l.fsys
	}
	return files
}

// TS is the TypeScript runtime: runtime/ts/src/<module>.ts becomes
// src/<module>.ts of the generated package.
var TS = Lang{dir: "ts/src", blank: true}

// Python is the Python runtime: runtime/python/src/errgen_runtime/<module>.py
// becomes <package>/<module>.py of the generated package. Its modules import
// one another and the contract's modules relatively (from ._contract
// import ...), so the text does not depend on the package's name.
var Python = Lang{dir: "python/src/errgen_runtime"}

// Go is the Go runtime: runtime/go/_src/<file>.go becomes <file>.go of the
// generated package, renamed by StampedPackage. Its files are written in
// package agenterror, the reference package's name, so that they compile
// beside the reference package's contract-shaped files; its _test.go files
// are the runtime's own tests and do not ship. Its inbound.go and words.go
// are only needed by the inbound classifiers, and gengo leaves them out of a
// contract without them.
var Go = Lang{dir: "go/_src", blank: true, pkg: "agenterror"}

// Rust is the Rust runtime: runtime/rust/src/<module>.rs becomes
// src/<module>.rs of the generated crate, whose lib.rs declares it. Its
// modules name one another and the contract's modules by crate path
// (crate::contract, crate::envelope), so the text does not depend on the
// crate's name. runtime/rust/src/lib.rs is the runtime's own crate root for
// its tests in place (with the fixture's modules) and does not ship.
var Rust = Lang{dir: "rust/src", blank: true, own: "lib.rs"}

// Names lists the language's runtime files, sorted; tests are not runtime
// files.
func (l Lang) Names() []string {
	entries, err := fs.ReadDir(l.fs(), l.dir)
	if err != nil {
		panic(err) // the directory is embedded; it cannot be missing
	}
	var out []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), "_test.go") && e.Name() != l.own {
			out = append(out, e.Name())
		}
	}
	return out
}

// Source returns a runtime file as it is written.
func (l Lang) Source(name string) ([]byte, error) {
	return fs.ReadFile(l.fs(), l.dir+"/"+name)
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

// StampedPackage returns a Go runtime file as it ships in package pkg: the
// header line and a blank line on top, the package clause naming pkg, and so
// do the error messages, which start with the package's name as the standard
// library's do ("agenterror: invalid envelope: …" in the reference package).
// Those two are the only places a Go runtime file names its package
// (TestGoPackageNamed holds them to it), and renaming changes no line's
// layout, so the file stays as gofmt prints it.
func (l Lang) StampedPackage(name, header, pkg string) ([]byte, error) {
	src, err := l.Source(name)
	if err != nil {
		return nil, err
	}
	clause := "package " + l.pkg + "\n"
	if l.pkg == "" || !bytes.HasPrefix(src, []byte(clause)) {
		return nil, fmt.Errorf("runtime: %s/%s does not start with %q", l.dir, name, clause)
	}
	src = bytes.ReplaceAll(src[len(clause):], []byte(`"`+l.pkg+`: `), []byte(`"`+pkg+`: `))
	out := make([]byte, 0, len(header)+len(pkg)+len(src)+12)
	out = append(append(append(out, header...), "\n\npackage "...), pkg...)
	out = append(append(out, '\n'), src...)
	return out, nil
}
