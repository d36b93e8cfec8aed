// Package targets describes every output errgen can generate, once
// (targets.go): its key in errgen.yaml, its default directory, the names of
// its package, its language and identifier forms (whose reserved words
// internal/naming holds), the comment syntax of its header line, whether it
// is generated without being asked for, and its lines in the errgen.yaml
// that errgen init writes. The lists the rest of errgen keeps by output (the
// config's keys, the config schema, the header rules, the collision check,
// the reserved-words test, init's errgen.yaml, the emitter table) are
// derived from All; internal/generate binds each target to its emitter (and
// the emitter's scratch patterns), which this package cannot import.
//
// It sits below the model, the emitters and internal/config, which import
// it; it imports only internal/naming. Options, the generation settings
// every emitter receives, are here too.
package targets

import (
	"slices"

	"github.com/errgen/errgen/internal/naming"
)

// Target is one output.
type Target struct {
	// Key is the output's key under errgen.yaml's outputs, and its key in
	// Options.Dirs.
	Key string
	// Name is the output's name in the manifest (errgen.outputs.json) and
	// in messages about its emitter; Key when empty.
	Name string
	// Summary describes the output in the config's JSON Schema.
	Summary string
	// Lang is the target language whose identifiers and reserved words the
	// contract is checked against; empty for an output that is no
	// programming language's package (schemas, docs).
	Lang naming.Lang
	// Forms are the language's identifier forms that must differ between
	// the names of one namespace (the kinds, the fields, the values of one
	// vocabulary): two names that become the same one would not compile,
	// or would merge. The loader reports the first form two names share
	// (in All's order), so a target added at the end changes no message of
	// the others.
	Forms []func(*naming.Forms) string
	// OnByDefault generates the output when errgen.yaml has no outputs
	// section (or there is no errgen.yaml). A new target leaves it false:
	// it is generated only where a config names it.
	OnByDefault bool
	// Dir is the output's default directory, slash-separated and relative
	// to the output root, from the packages' names.
	Dir func(Packages) string
	// Names sets the names of the output's package, derived from the
	// contract's name, in p; nil when the output has no package.
	Names func(contract string, p *Packages)
	// Keys are the settings errgen.yaml accepts for the output besides
	// dir (internal/config reads them).
	Keys []string
	// Headers is the comment syntax of errgen's header line (before and
	// after it) in each type of file the output writes, by extension;
	// .json files follow one rule of their own for every output
	// (internal/generate/owner.go).
	Headers map[string][2]string
	// Init is the output's lines under outputs: in the errgen.yaml that
	// errgen init writes, a text/template fragment: it may use .Packages
	// (the default package names), .Dir.<key> (each output's default
	// directory) and .ImportPath (the Go package's, inside a Go module).
	// An opt-in target's lines are comments.
	Init string
}

// ID is the output's Name, or its Key.
func (t *Target) ID() string {
	if t.Name != "" {
		return t.Name
	}
	return t.Key
}

// Keys of the outputs the rest of errgen refers to by name.
const (
	Go          = "go"
	TypeScript  = "typescript"
	Python      = "python"
	Rust        = "rust"
	Schemas     = "schemas"
	Docs        = "docs"
	Conformance = "conformance"
	OpenAPI     = "openapi"
)

// Keys lists every output's key, in All's order.
func Keys() []string {
	keys := make([]string, len(All))
	for i, t := range All {
		keys[i] = t.Key
	}
	return keys
}

// ByKey is the target with the given key, or nil.
func ByKey(key string) *Target {
	for _, t := range All {
		if t.Key == key {
			return t
		}
	}
	return nil
}

// Langs lists the languages of the targets that are one, each once.
func Langs() []naming.Lang {
	var langs []naming.Lang
	for _, t := range All {
		if t.Lang != "" && !slices.Contains(langs, t.Lang) {
			langs = append(langs, t.Lang)
		}
	}
	return langs
}

// Headers is every output's header syntax by file extension.
func Headers() map[string][2]string {
	out := map[string][2]string{}
	for _, t := range All {
		for ext, syntax := range t.Headers {
			out[ext] = syntax
		}
	}
	return out
}

// Options are the generation settings every emitter receives beside the
// contract: what errgen.yaml says (or the defaults), kept out of the
// contract's model because they belong to one repository, not to the wire
// vocabulary every consumer shares.
type Options struct {
	Packages Packages
	// Dirs holds the directory of every output generated, by Key; an
	// output not in it is not generated.
	Dirs map[string]string
	// Shared, set by generate for one run's emitters, holds what several
	// of them derive from the contract, built once; nil elsewhere.
	Shared *Shared
}

// Dir is the directory of the output with the given key, "" when it is not
// generated.
func (o Options) Dir(key string) string { return o.Dirs[key] }

// DefaultPackages are the package names derived from a contract's name.
func DefaultPackages(contract string) Packages {
	var p Packages
	for _, t := range All {
		if t.Names != nil {
			t.Names(contract, &p)
		}
	}
	return p
}

// Defaults are the options without a config: every target that is on by
// default, at its default directory, named after the contract.
func Defaults(contract string) Options {
	o := Options{Packages: DefaultPackages(contract), Dirs: map[string]string{}}
	for _, t := range All {
		if t.OnByDefault {
			o.Dirs[t.Key] = t.Dir(o.Packages)
		}
	}
	return o
}
