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

	// The values the layout does not carry: written from the envelope and
	// set back as they are.
	e := jen.Id("e")
	var off []offWire
	for _, row := range t.AIPOffWire {
		r := row.(runtimedata.Record)
		key := r.Get("key").(string)
		switch contract.Source(r.Get("source").(string)) {
		case contract.SourceVersion:
			if c.VersionIsText() {
				off = append(off, offWire{key, e.Clone().Dot("ContractVersion"), func(v jen.Code) []jen.Code {
					return []jen.Code{e.Clone().Dot("ContractVersion").Op("=").Add(v)}
				}})
			} else {
				off = append(off, offWire{key, jen.Qual("strconv", "Itoa").Call(e.Clone().Dot("ContractVersion")), func(v jen.Code) []jen.Code {
					return []jen.Code{
						jen.List(jen.Id("n"), jen.Err()).Op(":=").Qual("strconv", "Atoi").Call(v),
						jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.False())),
						e.Clone().Dot("ContractVersion").Op("=").Id("n"),
					}
				}})
			}
		case contract.SourceOrigin:
			off = append(off, enumOff(key, e.Clone().Dot("Origin"), "Origin"))
		case contract.SourceAction:
			off = append(off, enumOff(key, e.Clone().Dot("Recovery").Dot("Action"), "RecoveryAction"))
		case contract.SourceSameArguments:
			off = append(off, enumOff(key, e.Clone().Dot("Recovery").Dot("SameArguments"), "SameArguments"))
		case contract.SourceSideEffects:
			off = append(off, enumOff(key, e.Clone().Dot("SideEffects"), "SideEffects"))
		case contract.SourceGuidance:
			off = append(off, offWire{key, e.Clone().Dot("Recovery").Dot("Guidance"), func(v jen.Code) []jen.Code {
				// Read from an upstream, it is sanitized as the decoder
				// sanitizes guidance on the wire.
				v = jen.Id("Sanitize").Call(v)
				return []jen.Code{e.Clone().Dot("Recovery").Dot("Guidance").Op("=").Add(v)}
			}})
		}
	}
	f.Comment("// aipOffWire adds to meta the envelope's values its layout does not carry (an empty guidance is left out).")
	f.Func().Params(jen.Id("e").Op("*").Id("Envelope")).Id("aipOffWire").Params(jen.Id("meta").Map(jen.String()).String()).BlockFunc(func(gr *jen.Group) {
		for _, o := range off {
			if o.key == contract.MetaGuidance {
				gr.If(o.get.Clone().Op("!=").Lit("")).Block(jen.Id("meta").Index(jen.Lit(o.key)).Op("=").Add(o.get))
				continue
			}
			gr.Id("meta").Index(jen.Lit(o.key)).Op("=").Add(o.get)
		}
	})
	f.Line()
	f.Comment("// aipSetOffWire sets the values the layout does not carry from meta, where it has them; false when one does not read.")
	f.Func().Params(jen.Id("e").Op("*").Id("Envelope")).Id("aipSetOffWire").Params(jen.Id("meta").Map(jen.String()).String()).Bool().BlockFunc(func(gr *jen.Group) {
		for _, o := range off {
			gr.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Id("meta").Index(jen.Lit(o.key)), jen.Id("ok")).Block(o.set(jen.Id("v"))...)
		}
		gr.Return(jen.True())
	})
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

// offWire is a value the layout does not carry: its metadata key, its
// value as text, and the statements setting it from text v.
type offWire struct {
	key string
	get *jen.Statement
	set func(v jen.Code) []jen.Code
}

// enumOff is an off-wire value of one of the contract's vocabularies.
func enumOff(key string, field *jen.Statement, typ string) offWire {
	return offWire{key, jen.String().Call(field.Clone()), func(v jen.Code) []jen.Code {
		return []jen.Code{field.Clone().Op("=").Id(typ).Call(jen.Id("Sanitize").Call(v))}
	}}
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
