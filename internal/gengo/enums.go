package gengo

import (
	"bytes"
	"fmt"
	"go/format"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// docView is what templates/go/doc.go.tmpl reads besides the contract:
// the package comment's paragraph on the surfaces (surfacesDoc), and the
// module's directory when the comment names the release to tag.
type docView struct {
	goView
	Surfaces, Dir string
	Release       bool
}

func (g *gen) doc() any {
	// The tag is the one thing of a Go release not in a generated file; say
	// it where go doc shows it.
	return docView{goView: g.view(), Surfaces: g.surfacesDoc(), Dir: Dir(g.o), Release: g.o.Packages.GoModule && g.c.Release != ""}
}

// enumsSpliced writes the Kind constants, one doc comment and one spec per
// kind. gofmt lays each spec out alone (the comment line above it ends any
// column alignment with its neighbours), but it rewrites the comment as a
// doc comment (go/doc/comment), because jennifer starts it in column 1. A
// comment of one plain line comes out as it went in, as nearly every kind's
// does; any other goes through go/format on its own, in the same position.
func (g *gen) enumsSpliced() []splice {
	if len(g.c.Kinds) == 0 {
		return nil
	}
	return []splice{{"\t" + placeholderKindConsts + " = 0", func(b *bytes.Buffer) bool {
		for _, k := range grown(b, g.c.Kinds) {
			lines := commentLines(fmt.Sprintf("%s %s", kindConst(k), k.Description))
			spec := kindConst(k) + " Kind = " + strconv.Quote(k.Name)
			if len(lines) == 1 && plainDocLine(lines[0]) {
				b.WriteString("\t")
				b.WriteString(lines[0])
				b.WriteString("\n\t")
				b.WriteString(spec)
				b.WriteByte('\n')
				continue
			}
			b.Write(formatConstSpec(lines, spec))
		}
		return false
	}}}
}

// plainDocLine reports whether go/doc/comment leaves the comment line alone:
// "// " and then printable ASCII starting with a letter, without the
// brackets of links, anything a URL could start, or the doubled quotes it
// turns into curly ones. TestPlainDocLine holds it to go/format.
func plainDocLine(line string) bool {
	text, ok := strings.CutPrefix(line, "// ")
	if !ok || text == "" || !(text[0] >= 'A' && text[0] <= 'Z' || text[0] >= 'a' && text[0] <= 'z') {
		return false
	}
	for i := 0; i < len(text); i++ {
		if c := text[i]; c < 0x20 || c >= 0x7f || c == '[' || c == ']' {
			return false
		}
	}
	return !strings.Contains(text, "://") && !strings.Contains(text, "``") && !strings.Contains(text, "''")
}

// formatConstSpec formats one commented spec of a const block on its own,
// as go/format would inside the block, and returns its lines.
func formatConstSpec(comment []string, spec string) []byte {
	var src bytes.Buffer
	src.WriteString("package p\n\nconst (\n")
	for _, l := range comment {
		src.WriteString(l)
		src.WriteByte('\n')
	}
	src.WriteString(spec)
	src.WriteString("\n)\n")
	out, err := format.Source(src.Bytes())
	if err != nil {
		// Comment lines and a spec of a name and a quoted string always
		// parse; this would be a bug in this file.
		panic(fmt.Sprintf("gengo: a Kind constant does not format: %v\n%s", err, src.Bytes()))
	}
	const open, closing = "const (\n", ")\n"
	body := out[bytes.Index(out, []byte(open))+len(open):]
	return body[:len(body)-len(closing)]
}

// enumSpec describes one closed vocabulary emitted as a typed string.
type enumSpec struct {
	typeName string
	allName  string // the function listing every value
	doc      string
	values   []*contract.Value
	extra    func(v *contract.Value) []jen.Code // extra comment lines per value
}

func (g *gen) enumSpecs() []enumSpec {
	c := g.c
	vals := func(n int, at func(int) *contract.Value) []*contract.Value {
		out := make([]*contract.Value, n)
		for i := range out {
			out[i] = at(i)
		}
		return out
	}
	return []enumSpec{
		{"Origin", "Origins", "Origin says where a failure arose.", vals(len(c.Origins), func(i int) *contract.Value { return &c.Origins[i].Value }), nil},
		{"RecoveryAction", "RecoveryActions", "RecoveryAction is what the caller should do next.", vals(len(c.Actions), func(i int) *contract.Value { return &c.Actions[i].Value }), nil},
		{"SameArguments", "SameArgumentsValues", "SameArguments says whether repeating the identical call is safe.", vals(len(c.SameArguments), func(i int) *contract.Value { return &c.SameArguments[i].Value }), nil},
		{"SideEffects", "SideEffectsValues", "SideEffects says whether work may already have happened before the failure.", vals(len(c.SideEffects), func(i int) *contract.Value { return &c.SideEffects[i].Value }), nil},
		{"Group", "Groups", "Group is the documentation group a kind belongs to.", vals(len(c.Groups), func(i int) *contract.Value { return &c.Groups[i].Value }), nil},
	}
}

func (g *gen) enums(f *jen.File) {
	c := g.c
	// Kind is open: an envelope from a newer producer may carry a kind this
	// package has never heard of, and that must still decode and classify.
	docf(f, "Kind is the stable, machine-readable tag of a failure. The set is open: a kind this package does not know is still valid, and Lookup classifies it with the contract's fallback.")
	f.Type().Id("Kind").String()
	f.Line()
	// The constants are written pre-formatted (see enumsSpliced).
	if len(c.Kinds) > 0 {
		f.Const().Defs(jen.Id(placeholderKindConsts).Op("=").Lit(0))
	} else {
		f.Const().Defs()
	}
	// IsKnown, String and Kinds are the runtime's (methods.go), as is each
	// vocabulary's String.
	for _, e := range g.enumSpecs() {
		f.Line()
		docf(f, e.doc+" Values outside the constants below come from a newer contract; keep them as they are.")
		f.Type().Id(e.typeName).String()
		f.Line()
		defs := make([]jen.Code, 0, 2*len(e.values))
		cases := make([]jen.Code, 0, len(e.values))
		for _, v := range e.values {
			name := e.typeName + v.Idents.Go
			defs = append(defs, comment(fmt.Sprintf("%s %s", name, v.Description))...)
			defs = append(defs, jen.Id(name).Id(e.typeName).Op("=").Lit(v.Name))
			cases = append(cases, jen.Id(name))
		}
		f.Const().Defs(defs...)
		f.Line()
		recv := "v"
		f.Commentf("// IsKnown reports whether v is one of the contract's %s values.", e.typeName)
		f.Func().Params(jen.Id(recv).Id(e.typeName)).Id("IsKnown").Params().Bool().Block(
			jen.Switch(jen.Id(recv)).Block(jen.Case(cases...).Block(jen.Return(jen.True()))),
			jen.Return(jen.False()),
		)
		f.Line()
		f.Commentf("// %s returns every %s value of the contract, in contract order.", e.allName, e.typeName)
		f.Func().Id(e.allName).Params().Index().Id(e.typeName).Block(
			jen.Return(jen.Index().Id(e.typeName).Values(cases...)),
		)
	}
}

func kindConst(k *contract.Kind) string { return "Kind" + k.Idents.Go }
