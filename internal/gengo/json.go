package gengo

import (
	"encoding/json"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// key renders `,"name":` (or `{"name":` when first) for the append encoder.
// The name goes through encoding/json so any wire name is quoted correctly.
func key(name string, first bool) string {
	q, _ := json.Marshal(name)
	if first {
		return "{" + string(q) + ":"
	}
	return "," + string(q) + ":"
}

func appendLit(s string) jen.Code {
	return jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit(s).Op("..."))
}

func appendStr(expr jen.Code) jen.Code {
	return jen.Id("b").Op("=").Id("appendString").Call(jen.Id("b"), expr)
}

// appendAnyStmt appends a free-form value, returning early on error.
func appendAnyStmt(path string, expr jen.Code) jen.Code {
	return jen.If(
		jen.List(jen.Id("b"), jen.Id("err")).Op("=").Id("appendAny").Call(jen.Id("b"), jen.Lit(path), expr),
		jen.Err().Op("!=").Nil(),
	).Block(jen.Return(jen.Nil(), jen.Err()))
}

// wantOf is the phrase a decode error uses for a field's type.
func wantOf(f *contract.Field) string {
	switch f.Type {
	case contract.TypeString:
		return "a string"
	case contract.TypeInteger:
		return "an integer"
	case contract.TypeNumber:
		return "a number"
	case contract.TypeBoolean:
		return "a boolean"
	case contract.TypeObject:
		return "an object"
	}
	return map[contract.FieldType]string{
		contract.TypeString: "an array of strings", contract.TypeInteger: "an array of integers",
		contract.TypeNumber: "an array of numbers", contract.TypeBoolean: "an array of booleans",
		contract.TypeObject: "an array of objects",
	}[f.Items]
}

// encodeField appends one optional field when it is present.
func encodeField(f *contract.Field) jen.Code {
	v := jen.Id("e").Dot(f.Idents.Go)
	k := key(f.Name, false)
	switch f.Type {
	case contract.TypeString:
		return jen.If(v.Clone().Op("!=").Lit("")).Block(appendLit(k), appendStr(v.Clone()))
	case contract.TypeInteger:
		return jen.If(v.Clone().Op("!=").Nil()).Block(appendLit(k),
			jen.Id("b").Op("=").Qual("strconv", "AppendInt").Call(jen.Id("b"), jen.Op("*").Add(v.Clone()), jen.Lit(10)))
	case contract.TypeBoolean:
		return jen.If(v.Clone().Op("!=").Nil()).Block(appendLit(k),
			jen.Id("b").Op("=").Qual("strconv", "AppendBool").Call(jen.Id("b"), jen.Op("*").Add(v.Clone())))
	case contract.TypeArray:
		if f.Items == contract.TypeString {
			return jen.If(v.Clone().Op("!=").Nil()).Block(appendLit(k),
				jen.Id("b").Op("=").Id("appendStrings").Call(jen.Id("b"), v.Clone()))
		}
	}
	// Numbers (NaN must fail), objects and other arrays go through encoding/json.
	return jen.If(v.Clone().Op("!=").Nil()).Block(appendLit(k), appendAnyStmt(f.Name, v.Clone()))
}

// ownedSwitch emits func name(k string) bool reporting whether k is a wire
// field the contract owns, so Extra can never override it.
func ownedSwitch(f *jen.File, name, doc string, names []string) {
	cases := make([]jen.Code, len(names))
	for i, n := range names {
		cases[i] = jen.Lit(n)
	}
	f.Comment("// " + doc)
	f.Func().Id(name).Params(jen.Id("k").String()).Bool().Block(switchTrue("k", cases)...)
}

func (g *gen) json(f *jen.File) {
	c, w := g.c, g.w
	fields := append(append([]*contract.Field(nil), c.ContextFields...), c.KindFields...)

	top := append([]string(nil), w.Reserved()...)
	for _, fl := range fields {
		top = append(top, fl.Name)
	}
	recovery := append([]string{w.Action, w.SameArguments, w.Guidance, w.RetryAfterMs}, w.RetryAfterMsAliases...)
	ownedSwitch(f, "isEnvelopeField", "isEnvelopeField reports whether k is a top-level field of the contract.", top)
	f.Line()
	ownedSwitch(f, "isRecoveryField", "isRecoveryField reports whether k is a recovery field of the contract, spellings accepted on input included.", recovery)
	f.Line()

	body := []jen.Code{
		jen.Id("b").Op(":=").Make(jen.Index().Byte(), jen.Lit(0), jen.Lit(512)),
		jen.Var().Id("err").Error(),
		appendLit(key(w.ContractVersion, true)),
		jen.Id("b").Op("=").Qual("strconv", "AppendInt").Call(jen.Id("b"), jen.Int64().Call(jen.Id("e").Dot("ContractVersion")), jen.Lit(10)),
		appendLit(key(w.Kind, false)), appendStr(jen.String().Call(jen.Id("e").Dot("Kind"))),
		appendLit(key(w.Message, false)), appendStr(jen.Id("e").Dot("Message")),
		appendLit(key(w.Origin, false)), appendStr(jen.String().Call(jen.Id("e").Dot("Origin"))),
		appendLit(key(w.Recovery, false) + key(w.Action, true)),
		appendStr(jen.String().Call(jen.Id("e").Dot("Recovery").Dot("Action"))),
		appendLit(key(w.SameArguments, false)), appendStr(jen.String().Call(jen.Id("e").Dot("Recovery").Dot("SameArguments"))),
		appendLit(key(w.Guidance, false)), appendStr(jen.Id("e").Dot("Recovery").Dot("Guidance")),
		jen.If(jen.Id("e").Dot("Recovery").Dot("RetryAfterMs").Op("!=").Nil()).Block(
			appendLit(key(w.RetryAfterMs, false)),
			jen.Id("b").Op("=").Qual("strconv", "AppendInt").Call(jen.Id("b"), jen.Op("*").Id("e").Dot("Recovery").Dot("RetryAfterMs"), jen.Lit(10)),
		),
		jen.If(
			jen.List(jen.Id("b"), jen.Id("err")).Op("=").Id("appendExtra").Call(jen.Id("b"), jen.Lit(w.Recovery), jen.Id("e").Dot("Recovery").Dot("Extra"), jen.Id("isRecoveryField")),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Err())),
		appendLit("}" + key(w.SideEffects, false)), appendStr(jen.String().Call(jen.Id("e").Dot("SideEffects"))),
	}
	for _, fl := range fields {
		body = append(body, encodeField(fl))
	}
	body = append(body,
		jen.If(
			jen.List(jen.Id("b"), jen.Id("err")).Op("=").Id("appendExtra").Call(jen.Id("b"), jen.Lit(""), jen.Id("e").Dot("Extra"), jen.Id("isEnvelopeField")),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Append(jen.Id("b"), jen.LitRune('}')), jen.Nil()),
	)
	f.Comment("// MarshalJSON encodes the envelope in the contract's wire format: the contract's")
	f.Comment("// fields in contract order, absent optional fields left out, then Extra entries")
	f.Comment("// sorted by key, skipping any that would override a field of the contract.")
	f.Func().Params(jen.Id("e").Id("Envelope")).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(body...)
	f.Line()

	// take(obj, path, key, required, want, dst)
	asString := func(expr *jen.Statement) jen.Code {
		return jen.Parens(jen.Op("*").String()).Parens(jen.Op("&").Add(expr))
	}
	dec := []jen.Code{
		jen.List(jen.Id("obj"), jen.Err()).Op(":=").Id("decodeObject").Call(jen.Id("data"), jen.Lit("")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Var().Id("out").Id("Envelope"),
		take("", w.ContractVersion, true, "an integer", jen.Op("&").Id("out").Dot("ContractVersion")),
		take("", w.Kind, true, "a string", asString(jen.Id("out").Dot("Kind"))),
		jen.If(jen.Id("out").Dot("Kind").Op("==").Lit("")).Block(
			jen.Return(jen.Op("&").Id("DecodeError").Values(jen.Dict{jen.Id("Path"): jen.Lit(w.Kind), jen.Id("Problem"): jen.Lit("must not be empty")})),
		),
		take("", w.Message, true, "a string", jen.Op("&").Id("out").Dot("Message")),
		take("", w.Origin, true, "a string", asString(jen.Id("out").Dot("Origin"))),
		jen.Var().Id("rawRecovery").Qual("encoding/json", "RawMessage"),
		take("", w.Recovery, true, "an object", jen.Op("&").Id("rawRecovery")),
		jen.List(jen.Id("rec"), jen.Err()).Op(":=").Id("decodeObject").Call(jen.Id("rawRecovery"), jen.Lit(w.Recovery)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Err().Op(":=").Id("out").Dot("Recovery").Dot("decode").Call(jen.Id("rec")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		take("", w.SideEffects, true, "a string", asString(jen.Id("out").Dot("SideEffects"))),
	}
	for _, fl := range fields {
		dec = append(dec, take("", fl.Name, false, wantOf(fl), jen.Op("&").Id("out").Dot(fl.Idents.Go)))
	}
	dec = append(dec,
		jen.Id("out").Dot("Extra").Op("=").Id("rest").Call(jen.Id("obj")),
		jen.Op("*").Id("e").Op("=").Id("out"),
		jen.Return(jen.Nil()),
	)
	f.Comment("// UnmarshalJSON decodes an envelope. A kind, origin or other value this")
	f.Comment("// contract version does not know is kept as it is, fields the contract does")
	f.Comment("// not name go to Extra, and malformed input yields a *DecodeError naming the")
	f.Comment("// offending field. On error the envelope is left unchanged.")
	f.Func().Params(jen.Id("e").Op("*").Id("Envelope")).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(dec...)
	f.Line()

	// Recovery decoding, including the retry hint's fallback spellings.
	rdec := []jen.Code{
		take(w.Recovery, w.Action, true, "a string", asString(jen.Id("r").Dot("Action"))),
		take(w.Recovery, w.SameArguments, true, "a string", asString(jen.Id("r").Dot("SameArguments"))),
		take(w.Recovery, w.Guidance, true, "a string", jen.Op("&").Id("r").Dot("Guidance")),
	}
	// The first spelling present wins; the others are dropped so they do
	// not resurface as Extra entries.
	for _, spelling := range append([]string{w.RetryAfterMs}, w.RetryAfterMsAliases...) {
		rdec = append(rdec, jen.If(jen.Id("r").Dot("RetryAfterMs").Op("==").Nil()).Block(
			take(w.Recovery, spelling, false, "a non-negative integer", jen.Op("&").Id("r").Dot("RetryAfterMs")),
			jen.If(jen.Id("r").Dot("RetryAfterMs").Op("!=").Nil().Op("&&").Op("*").Id("r").Dot("RetryAfterMs").Op("<").Lit(0)).Block(
				jen.Return(jen.Op("&").Id("DecodeError").Values(jen.Dict{jen.Id("Path"): jen.Lit(w.Recovery + "." + spelling), jen.Id("Problem"): jen.Lit("must be a non-negative integer")})),
			),
		))
		rdec = append(rdec, jen.Id("delete").Call(jen.Id("obj"), jen.Lit(spelling)))
	}
	rdec = append(rdec, jen.Id("r").Dot("Extra").Op("=").Id("rest").Call(jen.Id("obj")), jen.Return(jen.Nil()))
	f.Func().Params(jen.Id("r").Op("*").Id("Recovery")).Id("decode").Params(jen.Id("obj").Map(jen.String()).Qual("encoding/json", "RawMessage")).Error().Block(rdec...)
}

// take emits `if _, err := take(obj, path, key, required, want, dst); err != nil { return err }`.
func take(path, key string, required bool, want string, dst jen.Code) jen.Code {
	return jen.If(
		jen.List(jen.Id("_"), jen.Id("err")).Op(":=").Id("take").Call(jen.Id("obj"), jen.Lit(path), jen.Lit(key), jen.Lit(required), jen.Lit(want), dst),
		jen.Err().Op("!=").Nil(),
	).Block(jen.Return(jen.Err()))
}
