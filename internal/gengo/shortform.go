package gengo

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// shortForm emits the promotion mark every package has (PromotedMember and
// PromotedShortForm, which the runtime's Envelope.PromotedFrom reads, in
// methods.go) and, for a contract whose readers accept labby's short form
// (contract.ShortForm), the contract's side of the runtime's reader of it
// (shortform.go): its members, its kind pattern and the collections a
// promoted envelope's kind sets empty.
func (g *gen) shortForm(f *jen.File, sf *contract.ShortForm) {
	reader := "ReadHTTP"
	if sf == nil {
		reader = "A reader of a contract using labby's envelope (this contract's ReadHTTP never does)"
	}
	f.Comment("// The mark of an envelope a reader promoted from labby's short form.")
	f.Const().Defs(
		jen.Comment(fmt.Sprintf("// PromotedMember is the top-level member %s adds to an envelope it built from labby's short form of an error body, {\"kind\": ..., \"message\": ...}: the advice is then the contract's classification of the kind, not the producer's. No field of a contract can take the name (field names start with a letter), so it travels as an Extra member and survives encoding and decoding.", reader)),
		jen.Id("PromotedMember").Op("=").Lit(contract.PromotedMember),
		jen.Comment("// PromotedShortForm is PromotedMember's value for labby's short form."),
		jen.Id("PromotedShortForm").Op("=").Lit(contract.PromotedShortForm),
	)
	if sf == nil {
		return
	}
	f.Line()
	f.Comment("// shortFormKindMember and shortFormMessageMember are the members of labby's")
	f.Comment("// short form that the runtime's fromShortForm (shortform.go) reads.")
	f.Const().Defs(
		jen.Id("shortFormKindMember").Op("=").Lit(sf.KindMember),
		jen.Id("shortFormMessageMember").Op("=").Lit(sf.MessageMember),
	)
	f.Line()
	docf(f, fmt.Sprintf("shortFormKind matches the names of this contract's kinds. A short form's %q must match it: a body such as a Kubernetes Status ({\"kind\": \"Status\", \"message\": ...}) names no kind of this contract and is classified from the status instead.", sf.KindMember))
	f.Var().Id("shortFormKind").Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(sf.KindPattern))
	f.Line()
	// A kind's required collections are set empty, as its constructor sets
	// them when given none, so that the envelope meets the producer schema.
	var cases []jen.Code
	for _, ef := range sf.Empty {
		var sets []jen.Code
		for _, fl := range ef.Fields {
			sets = append(sets, jen.Id("e").Dot(fl.Idents.Go).Op("=").Add(g.goType(fl)).Values())
		}
		cases = append(cases, jen.Case(jen.Id(kindConst(ef.Kind))).Block(sets...))
	}
	f.Comment("// shortFormEmpty sets the required collections of a promoted envelope's kind")
	f.Comment("// empty, as its constructor sets them when given none, so that the envelope")
	f.Comment("// meets the producer schema.")
	f.Func().Params(envRecv()).Id("shortFormEmpty").Params().BlockFunc(func(gr *jen.Group) {
		if len(cases) > 0 {
			gr.Switch(jen.Id("e").Dot("Kind")).Block(cases...)
		}
	})
}
