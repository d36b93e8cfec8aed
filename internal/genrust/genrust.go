// Package genrust emits the Rust crate of a contract: serde and serde_json
// its only dependencies, edition 2021. Like the TypeScript and Python
// packages it splits in two: the contract-independent runtime of
// runtime/rust/src (the JSON reader and writer, the layout codec, the
// sanitizer, the rule engine, the decision procedure), stamped, and the
// contract's modules, printed here: src/contract.rs (the open enums, the
// classification table and lookup, the layout, the classifier and
// sanitizer tables, printed with internal/runtimedata's Rust printer) and
// src/envelope.rs (the Envelope, its constructors and setters, and the glue
// through which the runtime reads and writes its fields), plus lib.rs;
// Cargo.toml and README.md are rendered from templates/rust (view.go).
//
// The crate's module tree is fixed (lib.rs declares every module), so a
// surfaces.rs runtime file (MCP tool results, HTTP, CLI) is one more module
// declared there and one more file in runtime/rust/src.
package genrust

import (
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
	"text/template"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/render"
	"github.com/errgen/errgen/internal/runtimedata"
	"github.com/errgen/errgen/internal/targets"
	"github.com/errgen/errgen/runtime"
	"github.com/errgen/errgen/templates"
)

// Dir is where the crate goes, relative to the output root.
func Dir(o targets.Options) string { return o.Dir(targets.Rust) }

// Scratch is what Cargo writes into the crate's directory: target/.
var Scratch = []string{"target/"}

// RuntimeModules are the runtime's modules, which lib.rs declares.
var RuntimeModules = func() []string {
	var out []string
	for _, n := range runtime.Rust.Names() {
		out = append(out, strings.TrimSuffix(n, ".rs"))
	}
	return out
}()

// Header is the first line of every generated Rust file.
var Header = "// " + marker.Text

// files are the crate's files rendered from templates/rust (README.md
// from README.md.tmpl); the modules under src/ are printed (files.go) or
// the runtime's.
var files = []string{"Cargo.toml", "README.md"}

var rustTemplates = template.Must(template.New("rust").Funcs(template.FuncMap{
	"toml": strconv.Quote, // a TOML basic string, for the names and text Cargo.toml holds
}).ParseFS(templates.FS, "rust/*.tmpl"))

// Generate returns the crate's files.
func Generate(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	g, err := newGen(c, o)
	if err != nil {
		return nil, fmt.Errorf("genrust: %w", err)
	}
	dir := Dir(o)
	out := map[string][]byte{
		path.Join(dir, "src/lib.rs"):      []byte(g.lib()),
		path.Join(dir, "src/contract.rs"): g.contract(),
		path.Join(dir, "src/envelope.rs"): g.envelope(),
	}
	// At most one blank line in a row: Markdown and TOML want no more.
	if err := render.Files(out, rustTemplates, g.view(), 1, dir, files); err != nil {
		return nil, fmt.Errorf("genrust: %w", err)
	}
	if err := render.Runtime(out, runtime.Rust, path.Join(dir, "src"), Header); err != nil {
		return nil, fmt.Errorf("genrust: %w", err)
	}
	if c.Inbound == nil {
		// As Go's words.go: only the inbound classifiers need the rule engine.
		delete(out, path.Join(dir, "src/inbound.rs"))
		delete(out, path.Join(dir, "src/words.rs"))
	}
	return out, nil
}

type gen struct {
	// mcpErrorSchema is the compact JSON of the schema mcp_output_schema
	// admits beside a tool's success schema (genschema.MCPErrorSchema).
	mcpErrorSchema []byte
	c              *contract.Contract
	o              targets.Options
	t              *runtimedata.Tables
	p              runtimedata.RustPrinter
	libName        string // the library name: agent_error
	slots          map[*contract.Field]int
	// received maps each derived leaf to its slot.
	received map[*contract.Leaf]int
	structs  map[*contract.Field]string
	order    []*contract.Field // object fields with properties, nested first
	fields   []slot
	// variants maps each vocabulary's values to their Rust enum variants,
	// by the classification member that holds them (group, origin, …): the
	// table rows look them up per kind, and groups grow with the kinds.
	variants map[string]map[string]string
}

// slot is one field of the envelope the runtime reads and writes by index:
// a context or kind-specific field, or a derived value as received.
type slot struct {
	name, typ string
	spec      string // the FieldSpec literal
	text      bool   // a String
	flag      bool   // an Option<bool> of a derived flag
}

func newGen(c *contract.Contract, o targets.Options) (*gen, error) {
	g := &gen{c: c, o: o, t: runtimedata.Shared(c, o.Shared), libName: strings.ReplaceAll(o.Packages.Crate, "-", "_"),
		slots: map[*contract.Field]int{}, received: map[*contract.Leaf]int{}, structs: map[*contract.Field]string{}}
	var err error
	if g.mcpErrorSchema, err = genschema.MCPErrorSchema(c); err != nil {
		return nil, fmt.Errorf("the MCP error schema: %w", err)
	}
	g.p = runtimedata.RustPrinter{Member: g.member, Paths: map[string]string{"AipLeaf": "crate::aip193::AipLeaf"}}
	g.variants = map[string]map[string]string{
		"group": variants("Group", contract.Values(c.Groups)), "origin": variants("Origin", contract.Values(c.Origins)),
		"action": variants("RecoveryAction", contract.Values(c.Actions)), "same_arguments": variants("SameArguments", contract.Values(c.SameArguments)),
		"side_effects": variants("SideEffects", contract.Values(c.SideEffects)),
	}
	taken := map[string]bool{}
	for _, w := range reservedTypes() {
		taken[w] = true
	}
	var visit func(f *contract.Field)
	visit = func(f *contract.Field) {
		if f.Type != contract.TypeObject || len(f.Properties) == 0 {
			return
		}
		if _, ok := g.structs[f]; ok {
			return
		}
		for _, p := range f.Properties {
			visit(p)
		}
		base := f.Idents.RustType
		name := base
		for n := 2; taken[name]; n++ {
			name = base + "Fields"
			if n > 2 {
				name += strconv.Itoa(n - 1)
			}
		}
		taken[name] = true
		g.structs[f] = name
		g.order = append(g.order, f)
	}
	for _, f := range c.EnvelopeFields {
		visit(f)
		g.slots[f] = len(g.fields)
		g.fields = append(g.fields, slot{name: f.Idents.RustLocal, typ: g.rustType(f, false), spec: g.spec(f), text: f.Type == contract.TypeString})
	}
	for _, lf := range c.Layout.Leaves {
		if !lf.Source.Derived() {
			continue
		}
		g.received[lf] = len(g.fields)
		s := slot{name: lf.Idents.RustLocal, typ: "Option<bool>", flag: true,
			spec: fmt.Sprintf("FieldSpec { name: %s, typ: FieldType::Boolean, items: None, required: false, properties: &[] }", runtimedata.RustString(lf.Path))}
		if lf.Source == contract.SourceGroup {
			s = slot{name: lf.Idents.RustLocal, typ: "String", text: true,
				spec: fmt.Sprintf("FieldSpec { name: %s, typ: FieldType::String, items: None, required: false, properties: &[] }", runtimedata.RustString(lf.Path))}
		}
		g.fields = append(g.fields, s)
	}
	return g, nil
}

// reservedTypes are the names a struct named after an object field must
// not take: the crate's own types and Rust's prelude and primitives.
func reservedTypes() []string {
	return append(strings.Fields(`Classification Classified DecodeError DecodeErrorCategory Decision EncodeError Envelope
		Failure Group Kind LogLevel Origin Recovery RecoveryAction RetryPolicy SameArguments SanitizePolicy Sanitizer
		SecretShape SideEffects Step ToolAnnotations Upstream Rule ClassifierSpec Source Const Leaf Member Object
		FieldType FieldSpec Item Wire Version Out Self`), strings.Fields(`bool char str u8 u16 u32 u64 u128 usize i8 i16
		i32 i64 i128 isize f32 f64 Option Some None Result Ok Err String Vec Box ToString ToOwned Clone Copy Send Sync
		Sized Unpin Drop Fn FnMut FnOnce Default Eq PartialEq Ord PartialOrd Iterator IntoIterator DoubleEndedIterator
		ExactSizeIterator Extend Into From TryFrom TryInto FromIterator AsRef AsMut Debug Display Hash Cow BTreeMap Map
		Value Error`)...)
}

// rustTypes names each field type's Rust type (an array's is built from
// its items; an object with properties gets a struct of its own) and its
// variant of the runtime's FieldType.
var rustTypes = map[contract.FieldType]struct{ typ, variant string }{
	contract.TypeString:  {"String", "FieldType::String"},
	contract.TypeInteger: {"i64", "FieldType::Integer"},
	contract.TypeNumber:  {"f64", "FieldType::Number"},
	contract.TypeBoolean: {"bool", "FieldType::Boolean"},
	contract.TypeArray:   {"", "FieldType::Array"},
	contract.TypeObject:  {"Map<String, Value>", "FieldType::Object"},
}

// items is an array field's item type; an array without one holds strings.
func items(f *contract.Field) contract.FieldType {
	if f.Items == "" {
		return contract.TypeString
	}
	return f.Items
}

// rustType is a field's Rust type; bare is the type without Option (a
// constructor's parameter, a required property's scalar).
func (g *gen) rustType(f *contract.Field, bare bool) string {
	var t string
	switch {
	case f.Type == contract.TypeString:
		return "String"
	case f.Type == contract.TypeArray:
		t = "Vec<" + rustTypes[items(f)].typ + ">"
	case f.Type == contract.TypeObject && len(f.Properties) > 0:
		t = g.structs[f]
	default:
		t = rustTypes[f.Type].typ
	}
	if bare {
		return t
	}
	return "Option<" + t + ">"
}

func (g *gen) spec(f *contract.Field) string {
	itemType := "None"
	if f.Type == contract.TypeArray {
		itemType = "Some(" + rustTypes[items(f)].variant + ")"
	}
	var props []string
	for _, p := range f.Properties {
		props = append(props, g.spec(p))
	}
	return fmt.Sprintf("FieldSpec { name: %s, typ: %s, items: %s, required: %t, properties: &[%s] }",
		runtimedata.RustString(f.Name), rustTypes[f.Type].variant, itemType, f.Required, strings.Join(props, ", "))
}

// member prints a Classification's members that are typed in Rust.
func (g *gen) member(record, member string, v runtimedata.Value) (string, bool) {
	s, _ := v.(string)
	if record == "AipLeaf" && member == "src" {
		return "crate::aip193::AipSource::" + strings.ToUpper(s[:1]) + s[1:], true
	}
	if record != "Classification" {
		return "", false
	}
	if member == "kind" || member == "reason" {
		// Cow: lookup fills in an unknown kind's own.
		return "Cow::Borrowed(" + runtimedata.RustString(s) + ")", true
	}
	switch member {
	case "group":
		if s == "" {
			return "None", true
		}
		return "Some(" + g.variant(member, s) + ")", true
	case "origin", "action", "same_arguments", "side_effects":
		return g.variant(member, s), true
	case "log_level":
		return "LogLevel::" + strings.ToUpper(s[:1]) + s[1:], true
	}
	return "", false
}

// variants maps each value's name to its variant of the Rust enum.
func variants(enum string, vals []*contract.Value) map[string]string {
	out := make(map[string]string, len(vals))
	for _, v := range vals {
		out[v.Name] = enum + "::" + v.Idents.RustType
	}
	return out
}

func (g *gen) variant(member, name string) string {
	if v, ok := g.variants[member][name]; ok {
		return v
	}
	panic("genrust: no " + member + " " + name)
}

// doc writes text as /// lines (or //! for inner docs) at indent.
func doc(b *bytes.Buffer, indent, mark, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		text = "(No description.)"
	}
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.Map(docRune, line) // unchanged, and not copied, when it has none of them
		// No escape ends in a space, so trimming first trims the same.
		line = strings.TrimRight(line, " ")
		b.WriteString(indent)
		b.WriteString(mark)
		if line != "" {
			b.WriteByte(' ')
			writeDocEscaped(b, line)
		}
		b.WriteByte('\n')
	}
}

// docRune is the space that stands for a character a doc comment's line
// cannot hold (control characters and line terminators).
func docRune(r rune) rune {
	if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' || r == '\u0085' {
		return ' '
	}
	return r
}

// writeDocEscaped writes line as the replacer it replaced wrote it, straight
// into b: Rustdoc reads Markdown, so brackets, angle brackets and the
// other marks stay literal. (The replacer allocated a copy of every line
// with one of them: 7 MB of 10,000 kinds' descriptions.)
func writeDocEscaped(b *bytes.Buffer, line string) {
	start := 0
	for i := 0; i < len(line); i++ {
		var esc string
		switch line[i] {
		case '`':
			esc = "'"
		case '[', ']', '<', '>', '*', '_', '#', '|':
			esc = line[i : i+1]
		default:
			continue
		}
		b.WriteString(line[start:i])
		if esc != "'" {
			b.WriteByte('\\')
		}
		b.WriteString(esc)
		start = i + 1
	}
	b.WriteString(line[start:])
}
