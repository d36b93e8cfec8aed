package gengo

import (
	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// logging emits logging_contract.go: the log form's table and what the
// contract shapes of it, which the runtime's Envelope.LogValue reads
// (runtime/go/_src/logging.go): whether the message is sanitized, and the
// fields group, one helper call per context or kind-specific field in wire
// order (a Go envelope keeps each field in a struct field of its own).
func (g *gen) logging(f *jen.File) {
	table(f, "logForm", "logFormSpec", g.t.Log,
		"logForm is the structured-log form LogValue writes: its members in order, and the bound of its texts and what ends a text cut there.")
	f.Line()
	f.Comment("// logSanitizesMessage is whether LogValue sanitizes the message (sanitize.fields lists it).")
	f.Const().Id("logSanitizesMessage").Op("=").Lit(g.c.Sanitize.Sanitizes("message"))
	f.Line()
	body := []jen.Code{jen.Var().Id("fields").Index().Qual("log/slog", "Attr")}
	for _, lf := range g.lo.Leaves {
		if lf.Source == contract.SourceField {
			body = append(body, jen.Id("fields").Op("=").Add(g.logField(lf.Field)))
		}
	}
	docf(f, "logFields is the log form's fields group: the context and kind-specific fields the envelope carries on the wire, in wire order, under their contract names.")
	f.Func().Params(jen.Id("e").Op("*").Id("Envelope")).Id("logFields").Params().Index().Qual("log/slog", "Attr").Block(
		append(body, jen.Return(jen.Id("fields")))...)
}

// logField is the call of the runtime's helper that appends the field to
// the group when the envelope carries it (as the encoder decides).
func (g *gen) logField(fl *contract.Field) jen.Code {
	v := jen.Id("e").Dot(fl.Idents.Go)
	args := []jen.Code{jen.Id("fields"), jen.Lit(fl.Name), v}
	sanitized := g.c.Sanitize.Sanitizes(fl.Name)
	switch fl.Type {
	case contract.TypeString:
		return jen.Id("logText").Call(append(args, jen.Lit(sanitized), jen.False())...)
	case contract.TypeInteger:
		return jen.Id("logInt").Call(args...)
	case contract.TypeBoolean:
		return jen.Id("logBool").Call(args...)
	case contract.TypeNumber:
		return jen.Id("logNumber").Call(args...)
	}
	// An array the layout marks optional is not on the wire when empty.
	present := jen.Id("e").Dot(fl.Idents.Go).Op("!=").Nil()
	if lf := g.lo.FieldLeaf(fl); lf != nil && lf.OmitsEmpty() {
		present = jen.Len(jen.Id("e").Dot(fl.Idents.Go)).Op(">").Lit(0)
	}
	return jen.Id("logValueJSON").Call(append(args, present, jen.Lit(sanitized))...)
}
