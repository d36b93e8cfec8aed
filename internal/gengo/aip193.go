package gengo

import (
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
)

// aip193 emits the contract's side of the google.rpc mapping, which the
// runtime's aip193.go reads, printed from runtimedata's tables (as every
// language's is): the ErrorInfo domain, the layout's leaves as the mapping
// reads an envelope back, the values the layout does not carry, the kinds
// by reason, and the constructor a foreign error's kind is built with.
func (g *gen) aip193(f *jen.File) {
	c, t := g.c, g.t
	docf(f, "ErrorInfoDomain is the domain of the google.rpc ErrorInfo every envelope maps to (AIP-193): a reason names a kind of this contract only in this domain.")
	f.Const().Id("ErrorInfoDomain").Op("=").Lit(t.AIPDomain)
	f.Line()

	// A leaf's members as Go's aipLeaf holds them: its zero values left
	// out, src "meta" among them (aipMeta).
	var leaves []jen.Code
	for _, row := range t.AIPLeaves {
		d := jen.Dict{}
		for _, m := range row.(runtimedata.Record).Fields {
			switch src, _ := m.Value.(string); {
			case !m.For(runtimedata.Go) || m.Value == "" || m.Value == false:
			case m.Name != "src":
				d[jen.Id(m.Name)] = jen.Lit(m.Value)
			case src != "meta":
				d[jen.Id("src")] = jen.Id("aip" + strings.ToUpper(src[:1]) + src[1:])
			}
		}
		leaves = append(leaves, jen.Values(d))
	}
	f.Comment("// aipLeaves are the layout's leaves in wire order, each with where the google.rpc mapping takes its value from.")
	f.Var().Id("aipLeaves").Op("=").Index(jen.Lit(len(leaves))).Id("aipLeaf").Values(multilineValues(leaves)...)
	f.Line()

	// The values the layout does not carry, which the runtime's aipOffWire
	// and aipSetOffWire (aipoffwire.go) write and set back.
	var off []jen.Code
	for _, row := range t.AIPOffWire {
		r := row.(runtimedata.Record)
		src := aipOffSources[contract.Source(r.Get("source").(string))]
		off = append(off, jen.Values(jen.Lit(r.Get("key")), jen.Id(src)))
	}
	f.Comment("// aipOffWireValues are the envelope's values its layout does not carry, by metadata key.")
	f.Var().Id("aipOffWireValues").Op("=").Index().Id("aipOff").Values(multilineValues(off)...)
	f.Line()

	f.Comment("// kindByReason returns the kind whose ErrorInfo reason is reason.")
	f.Func().Id("kindByReason").Params(jen.Id("reason").String()).Params(jen.Id("Kind"), jen.Bool()).BlockFunc(func(gr *jen.Group) {
		if len(c.Kinds) > 0 {
			gr.Switch(jen.Id("reason")).BlockFunc(func(sw *jen.Group) {
				for _, e := range t.AIPReasons {
					sw.Case(jen.Lit(e.Key)).Return(jen.Id(kindConst(c.Kind(e.Value.(string)))), jen.True())
				}
			})
		}
		gr.Return(jen.Lit(""), jen.False())
	})
	f.Line()
	args := []jen.Code{jen.Id("kind"), jen.Id("message")}
	for range c.RequiredContext {
		args = append(args, jen.Lit(""))
	}
	f.Comment("// aipNew builds the envelope of a foreign error whose reason names kind; a context field every envelope carries is left empty for the caller to set, as ReadHTTP leaves it.")
	f.Func().Id("aipNew").Params(jen.Id("kind").Id("Kind"), jen.Id("message").String()).Op("*").Id("Envelope").Block(
		jen.Return(jen.Id("New").Call(args...)),
	)
}

// aipOffSources names the runtime's aipOff source of each value a layout
// may leave off the wire.
var aipOffSources = map[contract.Source]string{
	contract.SourceVersion:       "aipOffVersion",
	contract.SourceOrigin:        "aipOffOrigin",
	contract.SourceAction:        "aipOffAction",
	contract.SourceSameArguments: "aipOffSameArguments",
	contract.SourceGuidance:      "aipOffGuidance",
	contract.SourceSideEffects:   "aipOffSideEffects",
}

// multilineValues puts each element of a composite literal on its own line.
func multilineValues(items []jen.Code) []jen.Code {
	out := make([]jen.Code, 0, len(items)+1)
	for _, it := range items {
		out = append(out, jen.Line().Add(it))
	}
	if len(out) > 0 {
		out = append(out, jen.Line())
	}
	return out
}
