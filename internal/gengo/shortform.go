package gengo

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// shortForm emits the promotion mark every package has (PromotedMember and
// PromotedShortForm, which the runtime's Envelope.PromotedFrom reads, in
// methods.go) and, for a contract whose readers accept labby's short form
// (contract.ShortForm), the reader of it.
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
	docf(f, fmt.Sprintf("maxShortFormKind bounds the kind of a short form, in bytes: this contract's kinds are a few dozen characters, and a longer %q is not one.", sf.KindMember))
	f.Const().Id("maxShortFormKind").Op("=").Lit(contract.ShortFormMaxKind)
	f.Line()
	docf(f, fmt.Sprintf("shortFormKind matches the names of this contract's kinds. A short form's %q must match it: a body such as a Kubernetes Status ({\"kind\": \"Status\", \"message\": ...}) names no kind of this contract and is classified from the status instead.", sf.KindMember))
	f.Var().Id("shortFormKind").Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(sf.KindPattern))
	f.Line()

	message := []jen.Code{
		jen.List(jen.Id("message"), jen.Id("ok")).Op(":=").Id("jsonString").Call(jen.Id("obj").Index(jen.Lit(sf.MessageMember))),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Nil())),
	}
	// Received text: sanitized whatever the contract lists.
	sanitized := "sanitized as every reader sanitizes received text"
	message = append(message, jen.Id("message").Op("=").Id("Sanitize").Call(jen.Id("message")))
	body := []jen.Code{
		jen.List(jen.Id("obj"), jen.Err()).Op(":=").Id("decodeObject").Call(jen.Id("body"), jen.Lit("")),
		ifErrReturn(jen.Nil()),
		jen.List(jen.Id("kind"), jen.Id("ok")).Op(":=").Id("jsonString").Call(jen.Id("obj").Index(jen.Lit(sf.KindMember))),
		jen.If(jen.Op("!").Id("ok").Op("||").Len(jen.Id("kind")).Op(">").Id("maxShortFormKind").Op("||").Op("!").Id("shortFormKind").Dot("MatchString").Call(jen.Id("kind")).Op("||").Id("Sanitize").Call(jen.Id("kind")).Op("!=").Id("kind")).Block(jen.Return(jen.Nil())),
	}
	body = append(body, message...)
	body = append(body,
		jen.Comment("// A message says what happened when every other member is discarded;"),
		jen.Comment("// an empty one says nothing, and the producer schema rejects it."),
		jen.If(jen.Id("blank").Call(jen.Id("message"))).Block(
			jen.Id("message").Op("=").Id("statusLine").Call(jen.Id("status")),
		),
		jen.Id("e").Op(":=").Id("NewTrusted").Call(jen.Id("Kind").Call(jen.Id("kind")), jen.Id("message")),
	)
	if len(sf.Empty) > 0 {
		var cases []jen.Code
		for _, ef := range sf.Empty {
			var sets []jen.Code
			for _, fl := range ef.Fields {
				sets = append(sets, jen.Id("e").Dot(fl.Idents.Go).Op("=").Add(g.goType(fl)).Values())
			}
			cases = append(cases, jen.Case(jen.Id(kindConst(ef.Kind))).Block(sets...))
		}
		body = append(body, jen.Switch(jen.Id("e").Dot("Kind")).Block(cases...))
	}
	body = append(body,
		jen.Id("e").Dot("Extra").Op("=").Map(jen.String()).Any().Values(jen.Dict{jen.Id("PromotedMember"): jen.Id("PromotedShortForm")}),
		jen.Return(jen.Id("e")),
	)
	empty := ""
	if len(sf.Empty) > 0 {
		empty = " The kind's required collections are set empty, as its constructor sets them when given none, so that the envelope meets the producer schema."
	}
	docf(f, fmt.Sprintf("fromShortForm reads labby's short form of an error body, in which SDK and subsystem errors promote their stable kind to the top level: a JSON object whose %[1]q is a string of at most maxShortFormKind bytes matching shortFormKind that the sanitizer keeps as it is (a lowercase token matches the pattern) and whose %[2]q is a string. It returns nil for any other body. The envelope keeps the kind and the message (%[3]s; empty or blank, it becomes statusLine(status)); its advice is Lookup's classification of the kind, the fallback for a kind this package does not know, never one picked from the status; and Extra[PromotedMember] is PromotedShortForm. Every other member of the body is ignored: it is unchecked upstream data, and the short form defines none.%[4]s", sf.KindMember, sf.MessageMember, sanitized, empty))
	f.Func().Id("fromShortForm").Params(jen.Id("body").Index().Byte(), jen.Id("status").Int()).Add(envPtr()).Block(body...)
}
