// Package gengo emits the Go package of a contract: with jennifer the typed
// enums, the classification table, the Envelope error type with
// constructors, and its JSON codec; from templates/go the files that are doc
// comments around the contract's tables and small accessors. The package it
// writes imports only the standard library.
package gengo

import (
	"bytes"
	"fmt"
	"go/format"
	"iter"
	"path"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"text/template"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/render"
	"github.com/errgen/errgen/internal/runtimedata"
	"github.com/errgen/errgen/internal/targets"
	"github.com/errgen/errgen/runtime"
	"github.com/errgen/errgen/templates"
)

// Dir is where the package goes, relative to the output root.
func Dir(o targets.Options) string {
	return o.Dir(targets.Go)
}

// Generate returns the package's files keyed by path relative to the output
// root, with a go.mod when the package is to be a module of its own
// (o.Packages.GoModule). It writes nothing.
func Generate(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	g := newGen(c, o)
	var err error
	if g.mcpErrorSchema, err = genschema.MCPErrorSchema(c); err != nil {
		return nil, fmt.Errorf("gengo: the MCP error schema: %w", err)
	}
	files := []goFile{
		{name: "doc.go", view: g.doc},
		{name: "enums.go", emit: g.enums, spliced: g.enumsSpliced},
		{name: "classification.go", emit: g.classification, spliced: g.classificationSpliced},
		{name: "envelope.go", emit: g.envelope, spliced: g.constructorsSpliced},
		{name: "json.go", emit: g.json},
		{name: "schemas.go", view: g.schemas},
		{name: "nextstep_contract.go", view: g.nextStep},
		{name: "surfaces.go", view: g.surfaces},
		{name: "logging_contract.go", view: g.logging},
		{name: "aip193_contract.go", view: g.aip193},
		{name: "sanitizepolicy.go", view: g.plainView},
	}
	if c.Inbound != nil {
		files = append(files, goFile{name: "inbound_contract.go", view: g.inbound})
	}
	if c.CallError != nil {
		files = append(files, goFile{name: "callerror_contract.go", view: g.callErrorPolicy})
	}
	// The code that does not depend on the contract is the runtime of
	// runtime/go, real Go files; inbound.go and words.go are only needed by
	// the inbound classifiers.
	for _, name := range runtime.Go.Names() {
		if (name != "words.go" && name != "inbound.go" || c.Inbound != nil) && (name != "callerror.go" || c.CallError != nil) {
			files = append(files, goFile{name: name, runtime: true})
		}
	}

	// Each file is rendered and formatted on its own goroutine: the files
	// share nothing but the read-only contract, and formatting the per-kind
	// ones dominates, so a large contract takes about as long as its largest
	// file instead of all of them in a row. Results are kept in table order,
	// so the error reported does not depend on scheduling.
	srcs := make([][]byte, len(files))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, gf := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			srcs[i], errs[i] = g.render(gf)
		}()
	}
	wg.Wait()
	out := make(map[string][]byte, len(files)+3)
	for i, gf := range files {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out[path.Join(Dir(o), gf.name)] = srcs[i]
	}
	schemas, err := schemaFiles(c, o)
	if err != nil {
		return nil, err
	}
	for p, data := range schemas {
		out[p] = data
	}
	if o.Packages.GoModule {
		mod, err := goMod(o)
		if err != nil {
			return nil, err
		}
		out[path.Join(Dir(o), "go.mod")] = mod
	}
	if o.Packages.GoGRPC {
		files, err := grpcFiles(c, o)
		if err != nil {
			return nil, err
		}
		for p, data := range files {
			out[p] = data
		}
	}
	return out, nil
}

// goFile is one file of the package: built with jennifer by emit, rendered
// from templates/go/<name>.tmpl with what view returns, or (runtime) the
// runtime file of that name, stamped.
type goFile struct {
	name    string
	emit    func(*jen.File)
	view    func() any
	runtime bool
	// spliced, when set, returns the parts emit left out as placeholders
	// because they are written pre-formatted (see splice).
	spliced func() []splice
}

// splice is a part of a file written the way gofmt prints it instead of
// going through go/format. Only the per-kind lists of a large contract are
// worth it: formatting them was most of the cost of generating thousands of
// kinds. emit puts a placeholder (a statement, spec or element naming one of
// the placeholder identifiers below) where they go, and write produces the
// lines that replace the placeholder's line once the rest is formatted. A
// part that cannot promise gofmt's layout returns unusual, and the whole file
// is formatted after all. TestGofmtClean, TestPlainDocLine and
// TestConstructorSplice hold every splice to gofmt's output.
type splice struct {
	// line is the placeholder's whole line as go/format prints it. Matching
	// a whole line cannot hit the same words inside a string literal or a
	// comment taken from the contract.
	line  string
	write func(b *bytes.Buffer) (unusual bool)
}

// The placeholders of enums.go, classification.go and envelope.go. Every
// identifier those files take from the contract at the level of a
// placeholder starts with an upper-case letter (only parameter names are
// lower case), so none can be a placeholder.
const (
	placeholderTable        = "errgenClassificationRows"
	placeholderKindIndex    = "errgenKindIndexCases"
	placeholderKindNumber   = "errgenKindByNumberCases"
	placeholderKindConsts   = "errgenKindConsts"
	placeholderConstructors = "errgenKindConstructors"
)

// grown yields kinds and, once the first 16 kinds' lines are written to b,
// grows b by what the others will take at the same size and an eighth
// more: the spliced files of 10,000 kinds run to megabytes, and the buffer
// is grown once instead of doubling up to them.
func grown(b *bytes.Buffer, kinds []*contract.Kind) iter.Seq2[int, *contract.Kind] {
	return func(yield func(int, *contract.Kind) bool) {
		const sample = 16
		start := b.Len()
		for i, k := range kinds {
			if i == sample {
				b.Grow((b.Len()-start+i-1)/i*(len(kinds)-i)*9/8 + 4096)
			}
			if !yield(i, k) {
				return
			}
		}
	}
}

// applySplices replaces each splice's placeholder line in the formatted src;
// splices come in the order of their placeholders in the file.
func applySplices(name string, src []byte, splices []splice) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(src))
	unusual := false
	rest := src
	for _, sp := range splices {
		line := []byte("\n" + sp.line + "\n")
		at := bytes.Index(rest, line)
		if at < 0 {
			return nil, fmt.Errorf("gengo: %s lost its placeholder line %q", name, sp.line)
		}
		b.Write(rest[:at+1])
		if sp.write(&b) {
			unusual = true
		}
		rest = rest[at+len(line):]
	}
	b.Write(rest)
	if !unusual {
		return b.Bytes(), nil
	}
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gengo: generated %s does not format: %v\n%s", name, err, numbered(b.Bytes()))
	}
	return out, nil
}

func (g *gen) render(gf goFile) ([]byte, error) {
	if gf.runtime {
		// Written as gofmt prints it, and stamping keeps it so
		// (TestGofmtClean), so it is not formatted again.
		return runtime.Go.StampedPackage(gf.name, "// "+marker.Text, g.o.Packages.Go)
	}
	var buf bytes.Buffer
	if gf.view != nil {
		buf.WriteString("// " + marker.Text + "\n\n")
		if err := goTemplates.ExecuteTemplate(&buf, gf.name+".tmpl", gf.view()); err != nil {
			return nil, fmt.Errorf("gengo: render %s: %w", gf.name, err)
		}
	} else {
		f := jen.NewFile(g.o.Packages.Go)
		f.HeaderComment(marker.Text)
		// jennifer formats on its own, but then a formatting failure loses
		// the source; we format here and report numbered lines instead.
		f.NoFormat = true
		gf.emit(f)
		if err := f.Render(&buf); err != nil {
			return nil, fmt.Errorf("gengo: render %s: %w", gf.name, err)
		}
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gengo: generated %s does not format: %v\n%s", gf.name, err, numbered(buf.Bytes()))
	}
	if gf.spliced != nil {
		return applySplices(gf.name, src, gf.spliced())
	}
	return src, nil
}

// goTemplates are the files rendered from templates/go: doc comments around
// the tables, constants and small accessors the contract fills in. Contract
// text reaches them only through doc or commentLines (a comment) and lit (a
// literal), or printed by runtimedata's Go printer.
var goTemplates = render.ParseFS("go", template.FuncMap{
	"doc": docText, "commentLines": func(text string) string { return strings.Join(commentLines(text), "\n") },
	"commentSuffix": commentSuffix, "lit": goLit, "float": goFloat, "stringList": stringList, "join": strings.Join,
	"kindConst": kindConst, "aipSource": aipSource, "aipOffSource": aipOffSource,
	"sanitizeClass": func(c contract.SecretChars) string { return sanitizeClass[c] },
}, templates.FS, "go/*.tmpl")

// goView is the part of every Go template's view: the contract and its
// layout, which the templates read directly.
type goView struct {
	Package string
	C       *contract.Contract
	Layout  *contract.Layout
	g       *gen
}

func (g *gen) view() goView { return goView{Package: g.o.Packages.Go, C: g.c, Layout: g.lo, g: g} }

// plainView is the view of a template that reads nothing but the contract.
func (g *gen) plainView() any { return g.view() }

// GoType is the Go type of the envelope field f.
func (v goView) GoType(f *contract.Field) string { return v.g.goTypeText(f) }

// goFloat is a float64 as jennifer writes it: with a point, so that a
// constant of it is not an integer.
func goFloat(v float64) string {
	s := fmt.Sprintf("%#v", v)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// stringList is the braces of a []string literal of list: on one line, or
// (lines) a string a line, as jennifer writes a list of Line()s.
func stringList(list []string, lines bool) string {
	quoted := make([]string, len(list))
	for i, s := range list {
		quoted[i] = strconv.Quote(s)
	}
	if lines && len(list) > 0 {
		return "{\n\t" + strings.Join(quoted, ",\n\t") + ",\n}"
	}
	return "{" + strings.Join(quoted, ", ") + "}"
}

// goLit is a string (or a value of a string type) or an int as a Go literal.
func goLit(v any) (string, error) {
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.String:
		return strconv.Quote(rv.String()), nil
	case reflect.Int:
		return strconv.Itoa(int(rv.Int())), nil
	}
	return "", fmt.Errorf("lit: %T has no Go literal here", v)
}

func numbered(src []byte) string {
	var b strings.Builder
	for i, line := range strings.Split(string(src), "\n") {
		fmt.Fprintf(&b, "%5d  %s\n", i+1, line)
	}
	return b.String()
}

func newGen(c *contract.Contract, o targets.Options) *gen {
	return &gen{c: c, o: o, lo: c.Layout, structs: structNames(c), t: runtimedata.BuildGo(c)}
}

type gen struct {
	c  *contract.Contract
	o  targets.Options // the generation settings: package names, directories
	lo *contract.Layout
	// mcpErrorSchema is the compact JSON of the schema MCPOutputSchema
	// admits beside a tool's success schema (genschema.MCPErrorSchema).
	mcpErrorSchema []byte
	// structs names the struct of each object field, by its Go name.
	structs map[string]string
	// t is the part of the runtime description the Go package prints
	// (runtimedata.BuildGo): the google.rpc mapping, NextStep's tables, the
	// inbound classifiers' rules and the log form.
	t *runtimedata.Tables
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

// docText is a doc comment made of paragraphs, as docf writes it: the
// lines of each (commentLines) with "//" between them.
func docText(paragraphs ...string) string {
	var lines []string
	for _, p := range paragraphs {
		if strings.TrimSpace(p) == "" {
			continue
		}
		if len(lines) > 0 {
			lines = append(lines, "//")
		}
		lines = append(lines, commentLines(p)...)
	}
	return strings.Join(lines, "\n")
}

// docf adds a doc comment made of paragraphs to the file.
func docf(f *jen.File, paragraphs ...string) {
	if text := docText(paragraphs...); text != "" {
		for _, l := range strings.Split(text, "\n") {
			f.Comment(l)
		}
	}
}
