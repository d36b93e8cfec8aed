// Package gengo emits the Go package of a contract with jennifer: typed enums,
// the classification table, the Envelope error type with constructors, and its
// JSON codec. The package it writes imports only the standard library.
package gengo

import (
	"bytes"
	"fmt"
	"go/format"
	"path"
	"strings"

	"text/template"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/templates"
)

// The codec helpers do not depend on the contract, so they are a template:
// plain Go that reads as Go, instead of jennifer calls that spell it out.
var helperTemplates = template.Must(template.ParseFS(templates.FS, "go/*.go.tmpl"))

// Header is the first line of every generated Go file. It matches Go's
// convention (^// Code generated .* DO NOT EDIT\.$) so go/ast.IsGenerated,
// linters and code review tools recognise the file.
const Header = marker.Text

// Dir is where the package of c goes, relative to the output root.
func Dir(c *contract.Contract) string {
	return path.Join("gen", "go", c.Packages.Go)
}

// Generate returns the package's files keyed by path relative to the output
// root. It writes nothing.
func Generate(c *contract.Contract) (map[string][]byte, error) {
	g := &gen{c: c, lo: c.Layout}
	files := map[string]func(*jen.File){
		"doc.go":            g.doc,
		"enums.go":          g.enums,
		"classification.go": g.classification,
		"envelope.go":       g.envelope,
		"json.go":           g.json,
		"schemas.go":        g.schemas,
		"inbound.go":        g.inbound,
		"nextstep.go":       g.nextStep,
		"surfaces.go":       g.surfaces,
		"sanitizepolicy.go": g.sanitizePolicy,
	}
	out := make(map[string][]byte, len(files))
	for name, emit := range files {
		f := jen.NewFile(c.Packages.Go)
		f.HeaderComment(Header)
		// jennifer formats on its own, but then a formatting failure loses
		// the source; we format here and report numbered lines instead.
		f.NoFormat = true
		emit(f)
		var buf bytes.Buffer
		if err := f.Render(&buf); err != nil {
			return nil, fmt.Errorf("gengo: render %s: %w", name, err)
		}
		src, err := format.Source(buf.Bytes())
		if err != nil {
			return nil, fmt.Errorf("gengo: generated %s does not format: %v\n%s", name, err, numbered(buf.Bytes()))
		}
		out[path.Join(Dir(c), name)] = src
	}
	// Contract-independent helpers are templates; words.go is only needed
	// by the inbound classifiers.
	helpers := []string{"codec.go", "sanitize.go"}
	if c.Inbound != nil {
		helpers = append(helpers, "words.go")
	}
	for _, name := range helpers {
		var buf bytes.Buffer
		if err := helperTemplates.ExecuteTemplate(&buf, name+".tmpl", map[string]string{"Header": Header, "Package": c.Packages.Go}); err != nil {
			return nil, fmt.Errorf("gengo: render %s: %w", name, err)
		}
		src, err := format.Source(buf.Bytes())
		if err != nil {
			return nil, fmt.Errorf("gengo: generated %s does not format: %v\n%s", name, err, numbered(buf.Bytes()))
		}
		out[path.Join(Dir(c), name)] = src
	}
	schemas, err := schemaFiles(c)
	if err != nil {
		return nil, err
	}
	for p, data := range schemas {
		out[p] = data
	}
	return out, nil
}

func numbered(src []byte) string {
	var b strings.Builder
	for i, line := range strings.Split(string(src), "\n") {
		fmt.Fprintf(&b, "%5d  %s\n", i+1, line)
	}
	return b.String()
}

type gen struct {
	c  *contract.Contract
	lo *contract.Layout
}

// wireDoc says where a source travels, for doc comments: `"error.code" on
// the wire`, or that the layout leaves it off the wire.
func (g *gen) wireDoc(s contract.Source) string {
	if lf := g.lo.Leaf(s); lf != nil {
		return fmt.Sprintf("%q on the wire", lf.Path)
	}
	return "not on the wire in this contract's layout (decoding fills it from the kind's classification)"
}

// hasStartup reports whether any kind is a startup failure.
func (g *gen) hasStartup() bool {
	for _, k := range g.c.Kinds {
		if k.Startup {
			return true
		}
	}
	return false
}

// derived returns the layout's derived leaves, whose received values the
// Envelope keeps in fields of their own.
func (g *gen) derived() []*contract.Leaf {
	var out []*contract.Leaf
	for _, lf := range g.lo.Leaves {
		if lf.Source.Derived() {
			out = append(out, lf)
		}
	}
	return out
}

// comment renders text as // lines. jennifer would turn a multi-line string
// into a /* */ block, which a "*/" inside a description would break.
func comment(text string) []jen.Code {
	lines := commentLines(text)
	out := make([]jen.Code, len(lines))
	for i, l := range lines {
		out[i] = jen.Comment(l)
	}
	return out
}

// commentLines returns text as "//"-prefixed lines. A string that starts with
// "//" is printed verbatim by jennifer, so a description line starting with
// "/*" cannot open a block comment.
func commentLines(text string) []string {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(strings.ReplaceAll(line, "\r", " "), " \t")
		if line == "" {
			out = append(out, "//")
			continue
		}
		out = append(out, "// "+line)
	}
	return out
}

// docf adds a doc comment made of paragraphs to the file.
func docf(f *jen.File, paragraphs ...string) {
	first := true
	for _, p := range paragraphs {
		if strings.TrimSpace(p) == "" {
			continue
		}
		if !first {
			f.Comment("//")
		}
		first = false
		for _, c := range comment(p) {
			f.Add(c)
		}
	}
}
