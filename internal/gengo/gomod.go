package gengo

import (
	"fmt"

	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
)

// GoVersion is the go directive of a generated go.mod: the oldest Go the
// generated package builds with. Go 1.21 is the first with the min, max and
// clear builtins and the log/slog, slices and maps packages, which the
// package uses (codec, sanitizer, surfaces, Envelope's LogValue); the
// compiler refuses those builtins under "go 1.20". Nothing newer is used: the
// package has no range-over-int or range-over-func loops (1.22, 1.23), no
// omitzero tags (1.24) and no other standard library API past 1.21, which go
// vet's stdversion analyzer checks against this directive (and make
// test-go-floor builds and vets it with that toolchain). Its loops do not
// depend on Go 1.22's per-iteration loop variables either. A higher directive would force every
// consumer's module up to it, since a module's go line is at least the
// highest of its requirements'.
const GoVersion = "1.21"

// goMod returns the go.mod that makes the package a module of its own: no
// require lines, because the package imports only the standard library, so a
// consumer's module graph gains this module and nothing else (no jennifer,
// yaml or jsonschema, which only the generator needs). The header comment is
// the one every generated file starts with, so errgen owns the file like the
// .go files beside it.
func goMod(o targets.Options) ([]byte, error) {
	if o.Packages.GoImportPath == "" {
		return nil, fmt.Errorf("gengo: the Go package is to be a module of its own, but no Go import path names it")
	}
	return fmt.Appendf(nil, "%s\n\nmodule %s\n\ngo %s\n", "// "+marker.Text, o.Packages.GoImportPath, GoVersion), nil
}
