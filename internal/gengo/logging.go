package gengo

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// logging emits Envelope.LogValue: the structured-log form of
// contract.LogMembers as slog attributes, the members the TypeScript and
// Python packages' helpers write from their LOG table. The text helpers
// (boundLogText, logJSON, logExtra) are the runtime's logging.go.
func (g *gen) logging(f *jen.File) {
	c := g.c
	e := jen.Id("e")
	bound := func(v jen.Code) jen.Code { return jen.Id("boundLogText").Call(v) }
	text := func(name string, v *jen.Statement, sanitized bool) jen.Code {
		if sanitized {
			v = jen.Id("Sanitize").Call(v)
		}
		return jen.Qual("log/slog", "String").Call(jen.Lit(name), bound(v))
	}
	add := func(to string, attr jen.Code) jen.Code {
		return jen.Id(to).Op("=").Append(jen.Id(to), attr)
	}
	body := []jen.Code{
		jen.If(e.Clone().Op("==").Nil()).Block(jen.Return(jen.Qual("log/slog", "Value").Values())),
		jen.Id("attrs").Op(":=").Make(jen.Index().Qual("log/slog", "Attr"), jen.Lit(0), jen.Lit(len(contract.LogMembers))),
	}
	str := func(v jen.Code) *jen.Statement { return jen.String().Call(v) }
	for _, m := range contract.LogMembers {
		name := string(m)
		switch m {
		case contract.LogKind:
			body = append(body, add("attrs", text(name, str(e.Clone().Dot("Kind")), false)))
		case contract.LogMessage:
			body = append(body, add("attrs", text(name, e.Clone().Dot("Message"), c.Sanitize.Sanitizes("message"))))
		case contract.LogOrigin:
			body = append(body, add("attrs", text(name, str(e.Clone().Dot("Origin")), false)))
		case contract.LogAction:
			body = append(body, add("attrs", text(name, str(e.Clone().Dot("Recovery").Dot("Action")), false)))
		case contract.LogSameArguments:
			body = append(body, add("attrs", text(name, str(e.Clone().Dot("Recovery").Dot("SameArguments")), false)))
		case contract.LogSideEffects:
			body = append(body, add("attrs", text(name, str(e.Clone().Dot("SideEffects")), false)))
		case contract.LogRetryable:
			body = append(body, add("attrs", jen.Qual("log/slog", "Bool").Call(jen.Lit(name), e.Clone().Dot("IsRetryable").Call())))
		case contract.LogHTTPStatus:
			body = append(body, add("attrs", jen.Qual("log/slog", "Int").Call(jen.Lit(name), e.Clone().Dot("HTTPStatus").Call())))
		case contract.LogRetryAfterMs:
			body = append(body, jen.If(jen.Id("ms").Op(":=").Add(e.Clone()).Dot("Recovery").Dot("RetryAfterMs"), jen.Id("ms").Op("!=").Nil()).Block(
				add("attrs", jen.Qual("log/slog", "Int64").Call(jen.Lit(name), jen.Op("*").Id("ms")))))
		case contract.LogFields:
			body = append(body, jen.Var().Id("fields").Index().Qual("log/slog", "Attr"))
			for _, lf := range g.lo.Leaves {
				if lf.Source != contract.SourceField {
					continue
				}
				body = append(body, g.logField(lf.Field))
			}
			body = append(body, jen.If(jen.Len(jen.Id("fields")).Op(">").Lit(0)).Block(
				add("attrs", jen.Qual("log/slog", "Attr").Values(jen.Dict{jen.Id("Key"): jen.Lit(name), jen.Id("Value"): jen.Qual("log/slog", "GroupValue").Call(jen.Id("fields").Op("..."))}))))
		case contract.LogExtra:
			body = append(body, jen.If(jen.List(jen.Id("s"), jen.Id("ok")).Op(":=").Id("logExtra").Call(e.Clone().Dot("Extra")), jen.Id("ok")).Block(
				add("attrs", jen.Qual("log/slog", "String").Call(jen.Lit(name), jen.Id("s")))))
		default:
			panic("gengo: unhandled log member " + name)
		}
	}
	body = append(body, jen.Return(jen.Qual("log/slog", "GroupValue").Call(jen.Id("attrs").Op("..."))))

	sanitized := "the message"
	if !c.Sanitize.Sanitizes("message") {
		sanitized = "nothing of the message (this contract does not sanitize it)"
	}
	docf(f,
		"LogValue makes the envelope a slog.LogValuer: slog.Warn(\"tool call failed\", \"error\", e) logs its structured-log form, the members the TypeScript package's logFields and the Python package's log_fields write: kind, message, origin, action, same_arguments, side_effects, retryable, http_status, retry_after_ms (only with a retry hint), fields (a group of the context and kind-specific fields the envelope carries on the wire, in wire order, under their contract names: text as it is, integers, numbers and booleans as they are, arrays and objects as their compact JSON text) and extra (the compact JSON text of the Extra entries, sorted by key).",
		fmt.Sprintf("It never leaks what the contract sanitizes: it sanitizes %s and each field sanitize.fields lists, however the envelope was built or received, and extra always; in extra and in a listed array or object field each string, member names included, is sanitized before the value becomes JSON text, and the text again after. Every text is bounded: at most %d bytes of UTF-8, cut at a character boundary and ended with %q, so no log line grows with what an upstream sends. A nil envelope logs as an empty value.", sanitized, contract.LogMaxBytes, contract.LogEllipsis),
	)
	f.Func().Params(recv()).Id("LogValue").Params().Qual("log/slog", "Value").Block(body...)
	f.Line()
	f.Var().Id("_").Qual("log/slog", "LogValuer").Op("=").Parens(jen.Op("*").Id("Envelope")).Parens(jen.Nil())
}

// logField appends one context or kind-specific field to the log form's
// fields group when the envelope carries it (as the encoder decides).
func (g *gen) logField(fl *contract.Field) jen.Code {
	v := jen.Id("e").Dot(fl.Idents.Go)
	name := fl.Name
	sanitized := g.c.Sanitize.Sanitizes(name)
	add := func(attr jen.Code) jen.Code { return jen.Id("fields").Op("=").Append(jen.Id("fields"), attr) }
	textOf := func(s jen.Code) jen.Code {
		if sanitized {
			s = jen.Id("Sanitize").Call(s)
		}
		return jen.Qual("log/slog", "String").Call(jen.Lit(name), jen.Id("boundLogText").Call(s))
	}
	switch fl.Type {
	case contract.TypeString:
		return jen.If(v.Clone().Op("!=").Lit("")).Block(add(textOf(v.Clone())))
	case contract.TypeInteger:
		return jen.If(v.Clone().Op("!=").Nil()).Block(add(jen.Qual("log/slog", "Int64").Call(jen.Lit(name), jen.Op("*").Add(v.Clone()))))
	case contract.TypeBoolean:
		return jen.If(v.Clone().Op("!=").Nil()).Block(add(jen.Qual("log/slog", "Bool").Call(jen.Lit(name), jen.Op("*").Add(v.Clone()))))
	case contract.TypeNumber:
		return jen.If(v.Clone().Op("!=").Nil().Op("&&").Op("!").Qual("math", "IsNaN").Call(jen.Op("*").Add(v.Clone())).Op("&&").Op("!").Qual("math", "IsInf").Call(jen.Op("*").Add(v.Clone()), jen.Lit(0))).Block(
			add(jen.Qual("log/slog", "Float64").Call(jen.Lit(name), jen.Op("*").Add(v.Clone()))))
	}
	// An array or object: its compact JSON text, whose strings a sanitized
	// field has sanitized one by one before the text whole (logSanitizeJSON).
	jsonText := jen.Qual("log/slog", "String").Call(jen.Lit(name), jen.Id("boundLogText").Call(jen.Id("s")))
	if sanitized {
		jsonText = jen.Qual("log/slog", "String").Call(jen.Lit(name), jen.Id("boundLogText").Call(jen.Id("logSanitizeJSON").Call(jen.Id("s"))))
	}
	// An array the layout marks optional is not on the wire when empty.
	present := v.Clone().Op("!=").Nil()
	if lf := g.c.Layout.FieldLeaf(fl); lf != nil && lf.OmitsEmpty() {
		present = jen.Len(v.Clone()).Op(">").Lit(0)
	}
	return jen.If(present).Block(
		jen.If(jen.List(jen.Id("s"), jen.Id("ok")).Op(":=").Id("logJSON").Call(v.Clone()), jen.Id("ok")).Block(add(jsonText)))
}
