package gengo

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// The surfaces put an envelope on the wire of HTTP (the envelope itself or
// its RFC 9457 problem document), MCP (a CallToolResult) and a command line
// (one JSON line), and read it back from each. Envelope member names come
// from the layout; the only names written here are the surfaces' own.

// problemMembers are RFC 9457's members of a problem document, in the order
// Problem writes them. An envelope member of the same name gives way.
var problemMembers = contract.ProblemMembers

// jsonSpace is JSON's insignificant white space, the only characters
// ReadCLI trims from a line's ends and FromToolResult from a text item's.
const jsonSpace = " \t\n\r"

// The members of the wrapped CLI form (contract.CLIWrapped), labby's
// {"ok": false, "command": ..., "error": envelope}.
const (
	cliWrapOK      = "ok"
	cliWrapCommand = "command"
	cliWrapError   = "error"
)

// collision is a top-level envelope member whose name is a problem member.
type collision struct {
	name string
	leaf *contract.Leaf // nil for a nested object
}

// problemCollisions lists the layout's top-level members that a problem
// document replaces, in wire order.
func (g *gen) problemCollisions() []collision {
	var out []collision
	for _, m := range g.lo.Root.Members {
		for _, p := range problemMembers {
			if m.Name() == p {
				out = append(out, collision{name: p, leaf: m.Leaf})
			}
		}
	}
	return out
}

// restoreNote says, for the doc comment of Problem, what a reader gets back
// of a member the problem document replaced.
func (g *gen) restoreNote(col collision) string {
	if col.leaf == nil {
		return fmt.Sprintf("the envelope's object %q is left out of the problem document and cannot be read back", col.name)
	}
	what := fmt.Sprintf("the envelope's %q (its %s)", col.name, col.leaf.Source)
	switch col.leaf.Source {
	case contract.SourceConst:
		raw, _ := json.Marshal(col.leaf.Const)
		return fmt.Sprintf("the envelope's %q (the constant %s) gives way to the problem's; ReadHTTP restores the constant", col.name, raw)
	case contract.SourceKind:
		return what + " gives way to the problem's; ReadHTTP restores the kind from the problem type"
	case contract.SourceMessage:
		return what + " gives way to the problem's; ReadHTTP restores the message from detail"
	case contract.SourceVersion:
		return what + " gives way to the problem's; ReadHTTP restores this package's ContractVersion"
	case contract.SourceRetryAfterMs:
		return what + " gives way to the problem's; ReadHTTP reads the Retry-After header instead, in whole seconds"
	case contract.SourceField:
		return fmt.Sprintf("the envelope's field %q gives way to the problem's and is lost: a problem document cannot carry it", col.name)
	}
	return what + " gives way to the problem's; ReadHTTP restores the classification's value for the kind named by the problem type"
}

func (g *gen) surfaces(f *jen.File) {
	g.problemSurface(f)
	g.httpSurface(f)
	g.readHTTP(f)
	g.mcpSurface(f)
	g.cliSurface(f)
}

// pkgErr is an error message prefixed with the package name.
func (g *gen) pkgErr(msg string) string { return g.o.Packages.Go + ": " + msg }

var (
	jsonRaw = func() *jen.Statement { return jen.Qual("encoding/json", "RawMessage") }
	envPtr  = func() *jen.Statement { return jen.Op("*").Id("Envelope") }
	recv    = func() *jen.Statement { return jen.Id("e").Op("*").Id("Envelope") }
)

// ifErrReturn emits `if err != nil { return results... }`.
func ifErrReturn(results ...jen.Code) jen.Code {
	return jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(results...))
}

func (g *gen) problemSurface(f *jen.File) {
	c := g.c
	f.Comment("// The HTTP, RFC 9457, MCP and CLI surfaces of the envelope.")
	f.Line()
	docf(f, "ProblemTypeBase prefixes a kind to make its RFC 9457 problem type URI.")
	f.Const().Id("ProblemTypeBase").Op("=").Lit(c.Surfaces.ProblemTypeBase)
	f.Line()
	docf(f, "ProblemType returns the RFC 9457 problem type URI of kind.")
	f.Func().Id("ProblemType").Params(jen.Id("kind").Id("Kind")).String().Block(
		jen.Return(jen.Id("ProblemTypeBase").Op("+").String().Call(jen.Id("kind"))),
	)
	f.Line()
	f.Comment("// The media types of the HTTP surface.")
	f.Const().Defs(
		jen.Id("mediaJSON").Op("=").Lit("application/json"),
		jen.Id("mediaProblem").Op("=").Lit("application/problem+json"),
	)
	f.Line()
	docf(f, "unknownKindTitle is the problem title of a kind this contract version does not define: RFC 9457 wants a title that does not change between occurrences, and the kind's description is unknown.")
	f.Const().Id("unknownKindTitle").Op("=").Lit(contract.UnknownKindTitle)
	f.Line()

	var names []jen.Code
	for _, p := range problemMembers {
		names = append(names, jen.Lit(p))
	}
	f.Comment("// problemMember reports whether name is a member RFC 9457 defines.")
	f.Func().Id("problemMember").Params(jen.Id("name").String()).Bool().Block(switchTrue("name", names)...)
	f.Line()

	doc := []string{
		"Problem renders the envelope as an RFC 9457 problem document: type is ProblemType(e.Kind), title the kind's description (a generic title for a kind this package does not know), status the kind's HTTP status, detail the message and instance the given URI reference (left out when empty). The envelope's own top-level members follow as extension members, in wire order, so a reader gets the envelope back; an envelope member (or top-level Extra entry) named like a problem member gives way to it.",
	}
	cols := g.problemCollisions()
	if len(cols) > 0 {
		var notes []string
		for _, col := range cols {
			notes = append(notes, g.restoreNote(col))
		}
		doc = append(doc, "In this contract's layout "+strings.Join(notes, "; ")+".")
	}
	docf(f, doc...)
	b := jen.Id("b")
	appendB := func(s string) jen.Code { return b.Clone().Op("=").Append(b.Clone(), jen.Lit(s).Op("...")) }
	f.Func().Params(recv()).Id("Problem").Params(jen.Id("instance").String()).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.List(jen.Id("env"), jen.Err()).Op(":=").Id("e").Dot("MarshalJSON").Call(),
		ifErrReturn(jen.Nil(), jen.Err()),
		jen.Id("c").Op(":=").Id("Lookup").Call(jen.Id("e").Dot("Kind")),
		jen.Id("title").Op(":=").Id("c").Dot("Description"),
		jen.If(jen.Op("!").Id("c").Dot("Known")).Block(jen.Id("title").Op("=").Id("unknownKindTitle")),
		b.Clone().Op(":=").Make(jen.Index().Byte(), jen.Lit(0), jen.Len(jen.Id("env")).Op("+").Len(jen.Id("title")).Op("+").Len(jen.Id("e").Dot("Message")).Op("+").Len(jen.Id("instance")).Op("+").Lit(160)),
		appendB(`{"type":`),
		appendStr(jen.Id("ProblemType").Call(jen.Id("e").Dot("Kind"))),
		appendB(`,"title":`),
		appendStr(jen.Id("title")),
		appendB(`,"status":`),
		b.Clone().Op("=").Qual("strconv", "AppendInt").Call(b.Clone(), jen.Int64().Call(jen.Id("c").Dot("HTTPStatus")), jen.Lit(10)),
		appendB(`,"detail":`),
		appendStr(jen.Id("e").Dot("Message")),
		jen.If(jen.Id("instance").Op("!=").Lit("")).Block(
			appendB(`,"instance":`),
			appendStr(jen.Id("instance")),
		),
		jen.Err().Op("=").Id("topMembers").Call(jen.Id("env"), jen.Func().Params(jen.Id("name").String(), jen.Id("raw").Add(jsonRaw())).Block(
			jen.If(jen.Id("problemMember").Call(jen.Id("name"))).Block(jen.Return()),
			b.Clone().Op("=").Append(b.Clone(), jen.LitRune(',')),
			appendStr(jen.Id("name")),
			b.Clone().Op("=").Append(b.Clone(), jen.LitRune(':')),
			b.Clone().Op("=").Append(b.Clone(), jen.Id("raw").Op("...")),
		)),
		ifErrReturn(jen.Nil(), jen.Err()),
		jen.Return(jen.Append(b.Clone(), jen.LitRune('}')), jen.Nil()),
	)
	f.Line()
	docf(f, "topMembers calls fn with each member of the JSON object data, in document order.")
	f.Func().Id("topMembers").Params(jen.Id("data").Index().Byte(), jen.Id("fn").Func().Params(jen.Id("name").String(), jen.Id("raw").Add(jsonRaw()))).Error().Block(
		jen.Id("dec").Op(":=").Qual("encoding/json", "NewDecoder").Call(jen.Qual("bytes", "NewReader").Call(jen.Id("data"))),
		jen.If(
			jen.List(jen.Id("tok"), jen.Err()).Op(":=").Id("dec").Dot("Token").Call(),
			jen.Err().Op("!=").Nil().Op("||").Id("tok").Op("!=").Qual("encoding/json", "Delim").Call(jen.LitRune('{')),
		).Block(jen.Return(jen.Op("&").Id("DecodeError").Values(jen.Dict{jen.Id("Problem"): jen.Lit("must be a JSON object")}))),
		jen.For(jen.Id("dec").Dot("More").Call()).Block(
			jen.List(jen.Id("tok"), jen.Err()).Op(":=").Id("dec").Dot("Token").Call(),
			ifErrReturn(jen.Err()),
			jen.Var().Id("raw").Add(jsonRaw()),
			jen.If(jen.Err().Op(":=").Id("dec").Dot("Decode").Call(jen.Op("&").Id("raw")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.List(jen.Id("name"), jen.Id("_")).Op(":=").Id("tok").Assert(jen.String()),
			jen.Id("fn").Call(jen.Id("name"), jen.Id("raw")),
		),
		jen.Return(jen.Nil()),
	)
	f.Line()
	g.fromProblem(f, cols)
}

// fromProblem emits the reader of a problem document: it drops the problem
// members and restores the envelope members they replaced.
func (g *gen) fromProblem(f *jen.File, cols []collision) {
	obj := jen.Id("obj")
	body := []jen.Code{
		jen.List(obj.Clone(), jen.Err()).Op(":=").Id("decodeObject").Call(jen.Id("data"), jen.Lit("")),
		ifErrReturn(jen.Nil(), jen.Err()),
	}
	needType, needDetail, needClass := false, false, false
	var restore []jen.Code
	set := func(name string, val jen.Code) jen.Code {
		return obj.Clone().Index(jen.Lit(name)).Op("=").Add(val)
	}
	for _, col := range cols {
		lf := col.leaf
		if lf == nil {
			continue // a nested object cannot be rebuilt from a problem document
		}
		str := func(expr jen.Code) jen.Code { return set(col.name, jen.Id("appendString").Call(jen.Nil(), expr)) }
		switch lf.Source {
		case contract.SourceConst:
			raw, _ := json.Marshal(lf.Const)
			restore = append(restore, set(col.name, jsonRaw().Call(jen.Lit(string(raw)))))
		case contract.SourceVersion:
			raw, _ := json.Marshal(g.c.VersionValue())
			restore = append(restore, set(col.name, jsonRaw().Call(jen.Lit(string(raw)))))
		case contract.SourceKind:
			needType = true
			restore = append(restore, jen.If(
				jen.List(jen.Id("k"), jen.Id("ok")).Op(":=").Qual("strings", "CutPrefix").Call(jen.Id("typ"), jen.Id("ProblemTypeBase")),
				jen.Id("ok").Op("&&").Id("k").Op("!=").Lit(""),
			).Block(set(col.name, jen.Id("appendString").Call(jen.Nil(), jen.Id("k")))))
		case contract.SourceMessage:
			needDetail = true
			restore = append(restore, jen.If(jen.Id("detail").Op("!=").Nil()).Block(set(col.name, jen.Id("detail"))))
		case contract.SourceOrigin:
			needClass = true
			restore = append(restore, str(jen.String().Call(jen.Id("c").Dot("Origin"))))
		case contract.SourceAction:
			needClass = true
			restore = append(restore, str(jen.String().Call(jen.Id("c").Dot("Action"))))
		case contract.SourceSameArguments:
			needClass = true
			restore = append(restore, str(jen.String().Call(jen.Id("c").Dot("SameArguments"))))
		case contract.SourceGuidance:
			needClass = true
			restore = append(restore, str(jen.Id("c").Dot("Guidance")))
		case contract.SourceSideEffects:
			needClass = true
			restore = append(restore, str(jen.String().Call(jen.Id("c").Dot("SideEffects"))))
		case contract.SourceGroup:
			if lf.Required() {
				needClass = true
				restore = append(restore, str(jen.String().Call(jen.Id("c").Dot("Group"))))
			}
		case contract.SourceRetryable:
			if lf.Required() {
				needClass = true
				restore = append(restore, set(col.name, jen.Qual("strconv", "AppendBool").Call(jen.Nil(), jen.Id("c").Dot("Retryable"))))
			}
		case contract.SourceMayHaveRun:
			if lf.Required() {
				needClass = true
				restore = append(restore, set(col.name, jen.Qual("strconv", "AppendBool").Call(jen.Nil(), jen.Id("c").Dot("SideEffects").Dot("MayHaveRun").Call())))
			}
		}
	}
	if needType || needClass {
		body = append(body, jen.Var().Id("typ").String(),
			jen.Qual("encoding/json", "Unmarshal").Call(obj.Clone().Index(jen.Lit("type")), jen.Op("&").Id("typ")))
	}
	if needDetail {
		body = append(body, jen.Id("detail").Op(":=").Add(obj.Clone()).Index(jen.Lit("detail")))
	}
	for _, p := range problemMembers {
		body = append(body, jen.Delete(obj.Clone(), jen.Lit(p)))
	}
	if needClass {
		body = append(body, jen.Id("c").Op(":=").Id("Lookup").Call(jen.Id("Kind").Call(jen.Qual("strings", "TrimPrefix").Call(jen.Id("typ"), jen.Id("ProblemTypeBase")))))
	}
	body = append(body, restore...)
	body = append(body,
		jen.List(jen.Id("env"), jen.Err()).Op(":=").Qual("encoding/json", "Marshal").Call(obj.Clone()),
		ifErrReturn(jen.Nil(), jen.Err()),
		jen.Return(jen.Id("decodeEnvelope").Call(jen.Id("env"))),
	)
	doc := "fromProblem reads an envelope back from the problem document Problem renders: the problem members are dropped and the extension members decoded as the envelope."
	if len(restore) > 0 {
		doc += " The envelope members the problem members replaced are restored first (see Problem)."
	}
	docf(f, doc)
	f.Func().Id("fromProblem").Params(jen.Id("data").Index().Byte()).Params(envPtr(), jen.Error()).Block(body...)
	f.Line()
	docf(f, "decodeEnvelope decodes data as an envelope.")
	f.Func().Id("decodeEnvelope").Params(jen.Id("data").Index().Byte()).Params(envPtr(), jen.Error()).Block(
		jen.Var().Id("e").Id("Envelope"),
		jen.If(jen.Err().Op(":=").Id("e").Dot("UnmarshalJSON").Call(jen.Id("data")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Op("&").Id("e"), jen.Nil()),
	)
}

// httpFallbackDoc says what WriteHTTP sends for an envelope that does not
// marshal.
func (g *gen) httpFallbackDoc() string {
	doc := "An envelope that does not marshal (a NaN number, an Extra value encoding/json rejects) is sent without its context, kind-specific and Extra fields rather than not at all."
	if len(g.c.RequiredContext) == 0 {
		return doc
	}
	names := make([]string, len(g.c.RequiredContext))
	for i, rf := range g.c.RequiredContext {
		names[i] = rf.Idents.Go
	}
	return "An envelope that does not marshal (a NaN number, an Extra value encoding/json rejects) is sent without its optional context, kind-specific and Extra fields rather than not at all. " +
		list(names) + " stays: the layout requires it, so an envelope with it empty has no valid wire form, and the response goes out with its status and headers but no body."
}

// safeComment says why the fallback envelope of httpBody marshals.
func (g *gen) safeComment() string {
	if len(g.c.RequiredContext) == 0 {
		return "// Only strings, booleans and integers within MaxSafeInteger (WriteHTTP clamps the retry hint) remain, which always marshal."
	}
	return "// Only strings, booleans and integers within MaxSafeInteger (WriteHTTP clamps the retry hint) remain, which marshal unless a required field is empty."
}

func (g *gen) httpSurface(f *jen.File) {
	f.Line()
	docf(f,
		"WriteHTTP answers an HTTP request with the envelope. The status is e.HTTPStatus(); a retry hint becomes a Retry-After header in whole seconds, rounded up so a client never retries early. The body is the envelope (Content-Type: application/json) unless the request's Accept header ranks application/problem+json above application/json, in which case it is the RFC 9457 rendering of Problem with no instance (Content-Type: application/problem+json). A missing Accept header, */*, a tie and an Accept header naming neither type all get the envelope: an error response is never withheld over content negotiation.",
		g.httpFallbackDoc()+" A negative retry hint is left out; one past MaxSafeInteger (set by hand: the producers clamp hints to RetryMaxHint), which no encoder writes, is sent as MaxSafeInteger, in the Retry-After header and the body alike, as every language's HTTP writer sends it. An envelope without a kind, which no client could read, is answered with a plain-text 500 (http.Error).",
	)
	h := jen.Id("h")
	f.Func().Params(recv()).Id("WriteHTTP").Params(jen.Id("w").Qual("net/http", "ResponseWriter"), jen.Id("r").Op("*").Qual("net/http", "Request")).Block(
		jen.If(jen.Id("e").Dot("Kind").Op("==").Lit("")).Block(
			jen.Qual("net/http", "Error").Call(jen.Id("w"), jen.Lit(g.pkgErr("the error envelope has no kind")), jen.Qual("net/http", "StatusInternalServerError")),
			jen.Return(),
		),
		jen.If(jen.Id("ms").Op(":=").Id("e").Dot("Recovery").Dot("RetryAfterMs"), jen.Id("ms").Op("!=").Nil().Op("&&").Op("*").Id("ms").Op(">").Id("MaxSafeInteger")).Block(
			jen.List(jen.Id("clamped"), jen.Id("most")).Op(":=").List(jen.Op("*").Id("e"), jen.Int64().Call(jen.Id("MaxSafeInteger"))),
			jen.Id("clamped").Dot("Recovery").Dot("RetryAfterMs").Op("=").Op("&").Id("most"),
			jen.Id("e").Op("=").Op("&").Id("clamped"),
		),
		jen.Id("problem").Op(":=").Id("r").Op("!=").Nil().Op("&&").Id("prefersProblem").Call(jen.Id("r").Dot("Header").Dot("Values").Call(jen.Lit("Accept"))),
		h.Clone().Op(":=").Id("w").Dot("Header").Call(),
		jen.If(jen.Id("problem")).Block(
			h.Clone().Dot("Set").Call(jen.Lit("Content-Type"), jen.Id("mediaProblem")),
		).Else().Block(
			h.Clone().Dot("Set").Call(jen.Lit("Content-Type"), jen.Id("mediaJSON")),
		),
		h.Clone().Dot("Add").Call(jen.Lit("Vary"), jen.Lit("Accept")),
		jen.If(jen.Id("ms").Op(":=").Id("e").Dot("Recovery").Dot("RetryAfterMs"), jen.Id("ms").Op("!=").Nil().Op("&&").Op("*").Id("ms").Op(">=").Lit(0)).Block(
			h.Clone().Dot("Set").Call(jen.Lit("Retry-After"), jen.Qual("strconv", "FormatInt").Call(jen.Id("retryAfterSeconds").Call(jen.Op("*").Id("ms")), jen.Lit(10))),
		),
		jen.Id("w").Dot("WriteHeader").Call(jen.Id("e").Dot("HTTPStatus").Call()),
		jen.Id("w").Dot("Write").Call(jen.Id("e").Dot("httpBody").Call(jen.Id("problem"))),
	)
	f.Line()
	docf(f, "retryAfterSeconds converts a retry hint to whole seconds, rounding up.")
	f.Func().Id("retryAfterSeconds").Params(jen.Id("ms").Int64()).Int64().Block(
		jen.If(jen.Id("ms").Op("<=").Lit(0)).Block(jen.Return(jen.Lit(0))),
		jen.Return(jen.Parens(jen.Id("ms").Op("-").Lit(1)).Op("/").Lit(1000).Op("+").Lit(1)),
	)
	f.Line()

	// The fields cleared when an envelope does not marshal: everything that
	// may hold a value encoding/json rejects.
	clearFields := []jen.Code{
		jen.Id("safe").Dot("Extra").Op("=").Nil(),
		jen.If(jen.Id("ms").Op(":=").Id("safe").Dot("Recovery").Dot("RetryAfterMs"), jen.Id("ms").Op("!=").Nil().Op("&&").Op("*").Id("ms").Op("<").Lit(0)).Block(
			jen.Id("safe").Dot("Recovery").Dot("RetryAfterMs").Op("=").Nil(),
		),
	}
	for _, fl := range g.c.EnvelopeFields {
		if g.lo.RequiredLeaf(fl) != nil {
			continue // a string, which always marshals, and the envelope needs it
		}
		zero := jen.Nil()
		if fl.Type == contract.TypeString {
			zero = jen.Lit("")
		}
		clearFields = append(clearFields, jen.Id("safe").Dot(fl.Idents.Go).Op("=").Add(zero))
	}
	body := []jen.Code{
		jen.Id("render").Op(":=").Func().Params(jen.Id("v").Add(envPtr())).Params(jen.Index().Byte(), jen.Error()).Block(
			jen.If(jen.Id("problem")).Block(jen.Return(jen.Id("v").Dot("Problem").Call(jen.Lit("")))),
			jen.Return(jen.Id("v").Dot("MarshalJSON").Call()),
		),
		jen.If(jen.List(jen.Id("b"), jen.Err()).Op(":=").Id("render").Call(jen.Id("e")), jen.Err().Op("==").Nil()).Block(jen.Return(jen.Id("b"))),
		jen.Id("safe").Op(":=").Op("*").Id("e"),
	}
	body = append(body, clearFields...)
	body = append(body,
		jen.Comment(g.safeComment()),
		jen.List(jen.Id("b"), jen.Id("_")).Op(":=").Id("render").Call(jen.Op("&").Id("safe")),
		jen.Return(jen.Id("b")),
	)
	docf(f, "httpBody renders the body WriteHTTP sends.")
	f.Func().Params(recv()).Id("httpBody").Params(jen.Id("problem").Bool()).Index().Byte().Block(body...)
	f.Line()

	docf(f, "prefersProblem reports whether the Accept header values rank application/problem+json above application/json (RFC 9110, section 12.5.1): each takes the quality of the most specific media range that matches it, and on equal quality problem+json wins only when it is matched more specifically (named, against application/* or */*).")
	f.Func().Id("prefersProblem").Params(jen.Id("accept").Index().String()).Bool().Block(
		jen.List(jen.Id("jsonQ"), jen.Id("jsonS")).Op(":=").List(jen.Lit(0.0), jen.Lit(-1)),
		jen.List(jen.Id("problemQ"), jen.Id("problemS")).Op(":=").List(jen.Lit(0.0), jen.Lit(-1)),
		jen.For(jen.List(jen.Id("_"), jen.Id("header")).Op(":=").Range().Id("accept")).Block(
			jen.For(jen.List(jen.Id("_"), jen.Id("item")).Op(":=").Range().Qual("strings", "Split").Call(jen.Id("header"), jen.Lit(","))).Block(
				jen.List(jen.Id("rng"), jen.Id("q"), jen.Id("ok")).Op(":=").Id("mediaRange").Call(jen.Id("item")),
				jen.If(jen.Op("!").Id("ok")).Block(jen.Continue()),
				jen.If(jen.Id("s").Op(":=").Id("rangeSpecificity").Call(jen.Id("rng"), jen.Id("mediaJSON")), jen.Id("s").Op(">").Id("jsonS")).Block(
					jen.List(jen.Id("jsonQ"), jen.Id("jsonS")).Op("=").List(jen.Id("q"), jen.Id("s")),
				),
				jen.If(jen.Id("s").Op(":=").Id("rangeSpecificity").Call(jen.Id("rng"), jen.Id("mediaProblem")), jen.Id("s").Op(">").Id("problemS")).Block(
					jen.List(jen.Id("problemQ"), jen.Id("problemS")).Op("=").List(jen.Id("q"), jen.Id("s")),
				),
			),
		),
		jen.If(jen.Id("problemQ").Op("!=").Id("jsonQ")).Block(jen.Return(jen.Id("problemQ").Op(">").Id("jsonQ"))),
		jen.Return(jen.Id("problemQ").Op(">").Lit(0).Op("&&").Id("problemS").Op(">").Id("jsonS")),
	)
	f.Line()
	docf(f, "mediaRange parses one element of an Accept header into its media range, in lower case, and its quality. ok is false for an empty or malformed element, which is ignored.")
	f.Func().Id("mediaRange").Params(jen.Id("item").String()).Params(jen.Id("rng").String(), jen.Id("q").Float64(), jen.Id("ok").Bool()).Block(
		jen.Id("params").Op(":=").Qual("strings", "Split").Call(jen.Id("item"), jen.Lit(";")),
		jen.Id("rng").Op("=").Qual("strings", "ToLower").Call(jen.Qual("strings", "TrimSpace").Call(jen.Id("params").Index(jen.Lit(0)))),
		jen.If(jen.Id("rng").Op("==").Lit("").Op("||").Qual("strings", "Count").Call(jen.Id("rng"), jen.Lit("/")).Op("!=").Lit(1)).Block(jen.Return(jen.Lit(""), jen.Lit(0), jen.False())),
		jen.Id("q").Op("=").Lit(1.0),
		jen.For(jen.List(jen.Id("_"), jen.Id("p")).Op(":=").Range().Id("params").Index(jen.Lit(1), jen.Empty())).Block(
			jen.List(jen.Id("name"), jen.Id("value"), jen.Id("_")).Op(":=").Qual("strings", "Cut").Call(jen.Id("p"), jen.Lit("=")),
			jen.If(jen.Op("!").Qual("strings", "EqualFold").Call(jen.Qual("strings", "TrimSpace").Call(jen.Id("name")), jen.Lit("q"))).Block(jen.Continue()),
			jen.List(jen.Id("v"), jen.Err()).Op(":=").Qual("strconv", "ParseFloat").Call(jen.Qual("strings", "TrimSpace").Call(jen.Id("value")), jen.Lit(64)),
			jen.If(jen.Err().Op("!=").Nil().Op("||").Op("!").Parens(jen.Id("v").Op(">=").Lit(0).Op("&&").Id("v").Op("<=").Lit(1))).Block(jen.Return(jen.Lit(""), jen.Lit(0), jen.False())),
			jen.Id("q").Op("=").Id("v"),
		),
		jen.Return(jen.Id("rng"), jen.Id("q"), jen.True()),
	)
	f.Line()
	docf(f, "rangeSpecificity is how specifically the media range rng matches mediaType: 2 when it names it, 1 for its type's wildcard (application/*), 0 for */* and -1 when it does not match.")
	f.Func().Id("rangeSpecificity").Params(jen.List(jen.Id("rng"), jen.Id("mediaType")).String()).Int().Block(
		jen.Switch().Block(
			jen.Case(jen.Id("rng").Op("==").Id("mediaType")).Block(jen.Return(jen.Lit(2))),
			jen.Case(jen.Id("rng").Op("==").Lit("*/*")).Block(jen.Return(jen.Lit(0))),
			jen.Case(jen.Qual("strings", "HasSuffix").Call(jen.Id("rng"), jen.Lit("/*")).Op("&&").Qual("strings", "HasPrefix").Call(jen.Id("mediaType"), jen.Id("rng").Index(jen.Empty(), jen.Len(jen.Id("rng")).Op("-").Lit(1)))).Block(jen.Return(jen.Lit(1))),
		),
		jen.Return(jen.Lit(-1)),
	)
}

func (g *gen) readHTTP(f *jen.File) {
	c := g.c
	f.Line()
	docf(f, "maxHTTPBody bounds how much of a response body ReadHTTP reads. An envelope is a few kilobytes, while an error page from a proxy, or a broken or hostile server, can be arbitrarily large or never end: the bound keeps a client's memory and time in check. A longer body is not read as an envelope.")
	f.Const().Id("maxHTTPBody").Op("=").Lit(1).Op("<<").Lit(20)
	f.Line()
	docf(f, "maxHTTPText bounds the body text an envelope built from a response without one quotes in its message (and, with an inbound classifier, gives the classifier).")
	f.Const().Id("maxHTTPText").Op("=").Lit(512)
	f.Line()

	var fallbackDoc string
	if c.Inbound != nil {
		fallbackDoc = fmt.Sprintf("the contract's Classify (the %s classifier) picks the kind from the status and the body's text", c.Inbound.Classifiers[0].Name)
	} else {
		fallbackDoc = fmt.Sprintf("the contract has no inbound classifier, so the kind is the contract's only kind with the response's HTTP status, or else one named after the status (%s), which this package does not know and classifies with the fallback (see httpKind)", c.SyntheticKind(502))
	}
	echoDoc := "\"HTTP <status> <status text>\" followed by the start of the body's text (upstreamMessage)."
	if !c.Surfaces.HTTP.EchoBody {
		echoDoc = "\"HTTP <status> <status text>\" alone: this contract never echoes an upstream body in a message (upstreamMessage)."
	}
	if f := c.Surfaces.HTTP.StatusField; f != nil {
		echoDoc += " Such an envelope keeps the response's status in " + f.Idents.Go + " (surfaces.http.status_field)."
	}
	sf := c.ShortForm()
	shortDoc := ""
	if sf != nil {
		shortDoc = fmt.Sprintf("A JSON body of a failed response (status 300 or more) that is not an envelope but labby's short form, a JSON object whose %q is a string of at most %d bytes matching this contract's kind names and whose %q is a string, yields an envelope that keeps that kind and message: the message sanitized as New sanitizes one (a message left empty or blank becomes \"HTTP <status> <status text>\"), the advice classified from the kind by Lookup (the fallback for a kind this package does not know, never from the status), the kind's required collections empty, and Extra[PromotedMember] set to PromotedShortForm. Any other member of the short form is ignored.", sf.KindMember, contract.ShortFormMaxKind, sf.MessageMember)
	}
	docf(f,
		"ReadHTTP reads the envelope of a failed HTTP response, as WriteHTTP or any producer of this contract writes it. A JSON body (application/json, application/problem+json, another +json type, or no Content-Type and a body that opens an object) that decodes as an envelope, directly or as the problem document Problem renders, is returned as it is, every text in it sanitized as UnmarshalJSON sanitizes it.",
		shortDoc,
		"Any other body — not JSON, JSON past the limits every decoder of the contract shares (MaxDepth, numbers a 64-bit float holds) anywhere in it, not an envelope, empty, or longer than 1 MiB — yields an envelope built from the response instead: "+fallbackDoc+"; the message is "+echoDoc,
		"A Retry-After header (delay seconds or an HTTP date; its first value when it holds a list, see retryAfterValue) fills the retry hint when the body carried none. A response below 300 without an envelope is an error, a *DecodeError of category DecodeMissing as every language reports it: there is no failure to report. ReadHTTP reads at most 1 MiB of the body and does not close it.",
	)
	fromBodyArgs := []jen.Code{jen.Id("resp").Dot("Header").Dot("Get").Call(jen.Lit("Content-Type")), jen.Id("body")}
	fromBodyParams := []jen.Code{jen.Id("contentType").String(), jen.Id("body").Index().Byte()}
	if sf != nil {
		fromBodyArgs = append(fromBodyArgs, jen.Id("resp").Dot("StatusCode"))
		fromBodyParams = append(fromBodyParams, jen.Id("status").Int())
	}
	// surfaces.http.status_field: the envelope built from the response
	// keeps its status (AGENTO's details.status).
	keepStatus := jen.Null()
	if sf := c.Surfaces.HTTP.StatusField; sf != nil {
		keepStatus = jen.Id("status").Op(":=").Int64().Call(jen.Id("resp").Dot("StatusCode")).Line().Id("e").Dot(sf.Idents.Go).Op("=").Op("&").Id("status")
	}
	f.Func().Id("ReadHTTP").Params(jen.Id("resp").Op("*").Qual("net/http", "Response")).Params(envPtr(), jen.Error()).Block(
		jen.If(jen.Id("resp").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit(g.pkgErr("ReadHTTP of a nil response"))))),
		jen.Var().Id("body").Index().Byte(),
		jen.If(jen.Id("resp").Dot("Body").Op("!=").Nil()).Block(
			jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual("io", "ReadAll").Call(jen.Qual("io", "LimitReader").Call(jen.Id("resp").Dot("Body"), jen.Id("maxHTTPBody").Op("+").Lit(1))),
			ifErrReturn(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit(g.pkgErr("reading the response body: %w")), jen.Err())),
			jen.Id("body").Op("=").Id("b"),
		),
		jen.Var().Id("e").Add(envPtr()),
		jen.If(jen.Len(jen.Id("body")).Op("<=").Id("maxHTTPBody")).Block(
			jen.Id("e").Op("=").Id("envelopeFromBody").Call(fromBodyArgs...),
		).Else().Block(
			jen.Id("body").Op("=").Id("body").Index(jen.Empty(), jen.Id("maxHTTPBody")),
		),
		jen.If(jen.Id("e").Op("==").Nil()).Block(
			jen.If(jen.Id("resp").Dot("StatusCode").Op("<").Lit(300)).Block(
				jen.Return(jen.Nil(), jen.Op("&").Id("DecodeError").Values(jen.Dict{
					jen.Id("Problem"):  jen.Lit("HTTP ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("resp").Dot("StatusCode")).Op("+").Lit(" response carries no envelope"),
					jen.Id("Category"): jen.Id("DecodeMissing"),
				})),
			),
			jen.Id("e").Op("=").Id("classifyHTTP").Call(jen.Id("resp").Dot("StatusCode"), jen.Id("body")),
			keepStatus,
		),
		jen.If(jen.Id("e").Dot("Recovery").Dot("RetryAfterMs").Op("==").Nil()).Block(
			jen.If(
				jen.List(jen.Id("ms"), jen.Id("ok")).Op(":=").Id("parseRetryAfter").Call(jen.Id("resp").Dot("Header").Dot("Get").Call(jen.Lit("Retry-After")), jen.Id("resp").Dot("Header").Dot("Get").Call(jen.Lit("Date"))),
				jen.Id("ok"),
			).Block(jen.Id("e").Dot("Recovery").Dot("RetryAfterMs").Op("=").Op("&").Id("ms")),
		),
		jen.Return(jen.Id("e"), jen.Nil()),
	)
	f.Line()
	fromBodyDoc := "envelopeFromBody decodes a response body as an envelope; nil when its media type is not JSON or it is not an envelope. A problem document is read as one first; any other JSON first as the envelope itself, then as a problem document served under another media type."
	notEnvelope := jen.Return(jen.Nil())
	if sf != nil {
		fromBodyDoc += " JSON that is neither is read as labby's short form when the response failed (fromShortForm)."
		notEnvelope = jen.If(jen.Id("status").Op(">=").Lit(300)).Block(jen.Return(jen.Id("fromShortForm").Call(jen.Id("body"), jen.Id("status")))).Line().Return(jen.Nil())
	}
	docf(f, fromBodyDoc)
	f.Func().Id("envelopeFromBody").Params(fromBodyParams...).Add(envPtr()).Block(
		// The first value of a list counts: a comma before any parameter
		// ends the media type, as a client that joins repeated lines
		// (fetch: "text/plain, application/json") leaves the first line.
		jen.If(jen.Id("i").Op(":=").Qual("strings", "IndexAny").Call(jen.Id("contentType"), jen.Lit(",;")), jen.Id("i").Op(">=").Lit(0).Op("&&").Id("contentType").Index(jen.Id("i")).Op("==").LitByte(',')).Block(
			jen.Id("contentType").Op("=").Id("contentType").Index(jen.Empty(), jen.Id("i")),
		),
		jen.List(jen.Id("mt"), jen.Id("_"), jen.Id("_")).Op(":=").Qual("mime", "ParseMediaType").Call(jen.Id("contentType")),
		jen.Id("problem").Op(":=").Id("mt").Op("==").Id("mediaProblem"),
		jen.Id("isJSON").Op(":=").Id("problem").Op("||").Id("mt").Op("==").Id("mediaJSON").Op("||").Qual("strings", "HasSuffix").Call(jen.Id("mt"), jen.Lit("+json")).Op("||").
			Id("mt").Op("==").Lit("").Op("&&").Qual("bytes", "HasPrefix").Call(jen.Qual("bytes", "TrimSpace").Call(jen.Id("body")), jen.Index().Byte().Parens(jen.Lit("{"))),
		jen.If(jen.Op("!").Id("isJSON")).Block(jen.Return(jen.Nil())),
		jen.Id("decoders").Op(":=").Index(jen.Lit(2)).Func().Params(jen.Index().Byte()).Params(envPtr(), jen.Error()).Values(jen.Id("decodeEnvelope"), jen.Id("fromProblem")),
		jen.If(jen.Id("problem")).Block(
			jen.List(jen.Id("decoders").Index(jen.Lit(0)), jen.Id("decoders").Index(jen.Lit(1))).Op("=").List(jen.Id("fromProblem"), jen.Id("decodeEnvelope")),
		),
		jen.For(jen.List(jen.Id("_"), jen.Id("decode")).Op(":=").Range().Id("decoders")).Block(
			jen.If(jen.List(jen.Id("e"), jen.Err()).Op(":=").Id("decode").Call(jen.Id("body")), jen.Err().Op("==").Nil()).Block(jen.Return(jen.Id("e"))),
		),
		notEnvelope,
	)
	f.Line()
	g.shortForm(f, sf)

	message := []jen.Code{
		jen.Id("text").Op(":=").Id("httpText").Call(jen.Id("body")),
		jen.Id("message").Op(":=").Id("upstreamMessage").Call(jen.Id("status"), jen.Id("text")),
	}
	// The response does not say which operation failed: the required
	// context stays empty until the caller, who made the call, sets it.
	newArgs := func(kind jen.Code) []jen.Code {
		args := []jen.Code{kind, jen.Id("message")}
		for range c.RequiredContext {
			args = append(args, jen.Lit(""))
		}
		return args
	}
	leftEmpty := ""
	if len(c.RequiredContext) > 0 {
		names := make([]string, len(c.RequiredContext))
		for i, rf := range c.RequiredContext {
			names[i] = rf.Idents.Go
		}
		leftEmpty = " " + list(names) + " is left empty: the response does not say it, so the caller sets it (With" + names[0] + ") before passing the envelope on."
	}
	if c.Inbound != nil {
		docf(f, "classifyHTTP builds the envelope of a failed response without one: Classify picks the kind from the status and the body's text."+leftEmpty)
		f.Func().Id("classifyHTTP").Params(jen.Id("status").Int(), jen.Id("body").Index().Byte()).Add(envPtr()).Block(append(message,
			jen.Return(jen.Id("New").Call(newArgs(jen.Id("Classify").Call(jen.Id("Upstream").Values(jen.Dict{
				jen.Id("Status"): jen.Id("status"),
				jen.Id("Text"):   jen.Id("text"),
			})).Dot("Kind"))...)),
		)...)
	} else {
		docf(f, "classifyHTTP builds the envelope of a failed response without one; httpKind picks the kind from the status."+leftEmpty)
		f.Func().Id("classifyHTTP").Params(jen.Id("status").Int(), jen.Id("body").Index().Byte()).Add(envPtr()).Block(append(message,
			jen.Return(jen.Id("New").Call(newArgs(jen.Id("httpKind").Call(jen.Id("status")))...)),
		)...)
		f.Line()
		// Only a status that identifies one kind maps to it (HTTPKinds).
		var cases []jen.Code
		for _, k := range c.HTTPKinds {
			cases = append(cases, jen.Case(jen.Lit(k.HTTP)).Block(jen.Return(jen.Id(kindConst(k)))))
		}
		docf(f, fmt.Sprintf("httpKind is the kind of a failed response without an envelope, for a contract without an inbound classifier. A producer of this contract always sends an envelope, so such a response comes from something else on the way (a proxy, a load balancer). The status names a kind only when exactly one kind of the contract has it; where several share it, picking one would put that kind's specific advice on a failure it may not describe. Any other status becomes a kind named after it (%s), which this package does not know: it classifies with the fallback and keeps the status visible.", c.SyntheticKind(502)))
		body := []jen.Code{}
		if len(cases) > 0 {
			body = append(body, jen.Switch(jen.Id("status")).Block(cases...))
		}
		body = append(body, jen.Return(jen.Id("Kind").Call(jen.Lit(c.SyntheticKindPrefix()).Op("+").Qual("strconv", "Itoa").Call(jen.Id("status")))))
		f.Func().Id("httpKind").Params(jen.Id("status").Int()).Id("Kind").Block(body...)
	}
	f.Line()
	if c.Surfaces.HTTP.EchoBody {
		docf(f, "upstreamMessage is the message of an envelope built from a failed response without one (ReadHTTP, FromAIP193 of a foreign status): statusLine(status), then \": \" and text, the start of the body as httpText quotes it, when there is any (surfaces.http.echo_body).")
		f.Func().Id("upstreamMessage").Params(jen.Id("status").Int(), jen.Id("text").String()).String().Block(
			jen.If(jen.Id("text").Op("==").Lit("")).Block(jen.Return(jen.Id("statusLine").Call(jen.Id("status")))),
			jen.Return(jen.Id("statusLine").Call(jen.Id("status")).Op("+").Lit(": ").Op("+").Id("text")),
		)
	} else {
		docf(f, "upstreamMessage is the message of an envelope built from a failed response without one (ReadHTTP, FromAIP193 of a foreign status): statusLine(status) alone. This contract never echoes an upstream body (surfaces.http.echo_body: false): the body's text reaches the inbound classifier, never the message.")
		f.Func().Id("upstreamMessage").Params(jen.Id("status").Int(), jen.Id("_").String()).String().Block(
			jen.Return(jen.Id("statusLine").Call(jen.Id("status"))),
		)
	}
	f.Line()
	docf(f, "statusLine is how a message built from a response starts: \"HTTP <status> <status text>\", or \"HTTP <status>\" for a status without a text.")
	f.Func().Id("statusLine").Params(jen.Id("status").Int()).String().Block(
		jen.Id("s").Op(":=").Lit("HTTP ").Op("+").Qual("strconv", "Itoa").Call(jen.Id("status")),
		jen.If(jen.Id("st").Op(":=").Qual("net/http", "StatusText").Call(jen.Id("status")), jen.Id("st").Op("!=").Lit("")).Block(
			jen.Id("s").Op("+=").Lit(" ").Op("+").Id("st"),
		),
		jen.Return(jen.Id("s")),
	)
	f.Line()
	docf(f, "httpText is the start of a body as one line of sanitized text, at most maxHTTPText bytes, with an ellipsis when cut (sanitizedLine: the body sanitized first, then its white space collapsed and the text cut).")
	f.Func().Id("httpText").Params(jen.Id("body").Index().Byte()).String().Block(
		jen.Return(jen.Id("sanitizedLine").Call(jen.Id("body"), jen.Id("maxHTTPText"))),
	)
	f.Line()
	docf(f, "parseRetryAfter reads a Retry-After header (RFC 9110, section 10.2.3) as milliseconds: its first value (retryAfterValue), delay seconds, or an HTTP date measured from the response's Date header when it has one (so a skewed client clock does not matter) and from now otherwise. A date in the past means no wait; a wait longer than RetryMaxHint is clamped to it.")
	f.Func().Id("parseRetryAfter").Params(jen.List(jen.Id("value"), jen.Id("date")).String()).Params(jen.Int64(), jen.Bool()).Block(
		jen.Id("value").Op("=").Qual("strings", "TrimSpace").Call(jen.Id("retryAfterValue").Call(jen.Id("value"))),
		jen.If(jen.Id("value").Op("==").Lit("")).Block(jen.Return(jen.Lit(0), jen.False())),
		jen.If(jen.List(jen.Id("secs"), jen.Err()).Op(":=").Qual("strconv", "ParseUint").Call(jen.Id("value"), jen.Lit(10), jen.Lit(63)), jen.Err().Op("==").Nil()).Block(
			jen.Return(jen.Min(jen.Int64().Call(jen.Min(jen.Id("secs"), jen.Qual("math", "MaxInt64").Op("/").Lit(1000))).Op("*").Lit(1000), jen.Id("maxHintMs")), jen.True()),
		),
		jen.List(jen.Id("at"), jen.Err()).Op(":=").Qual("net/http", "ParseTime").Call(jen.Id("value")),
		ifErrReturn(jen.Lit(0), jen.False()),
		jen.Id("now").Op(":=").Qual("time", "Now").Call(),
		jen.If(jen.List(jen.Id("d"), jen.Err()).Op(":=").Qual("net/http", "ParseTime").Call(jen.Id("date")), jen.Err().Op("==").Nil()).Block(jen.Id("now").Op("=").Id("d")),
		jen.Return(jen.Min(jen.Max(jen.Id("at").Dot("Sub").Call(jen.Id("now")).Dot("Milliseconds").Call(), jen.Lit(0)), jen.Id("maxHintMs")), jen.True()),
	)
	retryAfterValue(f)
}

// retryAfterValue emits the function that takes the first value of a
// Retry-After field holding a list.
func retryAfterValue(f *jen.File) {
	f.Line()
	docf(f, "retryAfterValue is the first value of a Retry-After field, which holds a list when a response repeats the header and a client joins the lines with commas (fetch does; http.Header.Get takes the first line): the text before the first comma, or before the second when the text before the first is ASCII letters only, the day name of an HTTP date (\"Wed, 21 Oct 2015 07:28:00 GMT\" holds one comma). Every language reads the field so, and only that value: one that does not parse is no hint.")
	f.Func().Id("retryAfterValue").Params(jen.Id("v").String()).String().Block(
		jen.Id("i").Op(":=").Qual("strings", "IndexByte").Call(jen.Id("v"), jen.LitRune(',')),
		jen.If(jen.Id("i").Op("<").Lit(0)).Block(jen.Return(jen.Id("v"))),
		jen.If(jen.Id("day").Op(":=").Qual("strings", "Trim").Call(jen.Id("v").Index(jen.Empty(), jen.Id("i")), jen.Lit(" \t")), jen.Id("day").Op("!=").Lit("").Op("&&").Qual("strings", "Trim").Call(jen.Id("day"), jen.Lit("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")).Op("==").Lit("")).Block(
			jen.If(jen.Id("j").Op(":=").Qual("strings", "IndexByte").Call(jen.Id("v").Index(jen.Id("i").Op("+").Lit(1), jen.Empty()), jen.LitRune(',')), jen.Id("j").Op(">=").Lit(0)).Block(
				jen.Return(jen.Id("v").Index(jen.Empty(), jen.Id("i").Op("+").Lit(1).Op("+").Id("j"))),
			),
			jen.Return(jen.Id("v")),
		),
		jen.Return(jen.Id("v").Index(jen.Empty(), jen.Id("i"))),
	)
}

func (g *gen) mcpSurface(f *jen.File) {
	f.Line()
	metaKey := g.c.Surfaces.MCP.MetaKey
	metaDoc := " The contract names no _meta key (surfaces.mcp.meta_key): Meta stays empty."
	if metaKey != "" {
		metaDoc = fmt.Sprintf(" Meta holds the envelope under the contract's _meta key, %q (surfaces.mcp.meta_key).", metaKey)
	}
	docf(f, "mcpMetaKey is the _meta key under which an isError tool result carries the envelope too; empty when the contract names none.")
	f.Const().Id("mcpMetaKey").Op("=").Lit(metaKey)
	f.Line()
	docf(f, "ToolResult is an MCP CallToolResult reporting a failure: the envelope as text content, for hosts that read only content, and as structured content."+metaDoc)
	f.Type().Id("ToolResult").Struct(
		jen.Id("Content").Index().Id("ToolContent").Tag(map[string]string{"json": "content"}),
		jen.Id("StructuredContent").Add(jsonRaw()).Tag(map[string]string{"json": "structuredContent,omitempty"}),
		jen.Id("IsError").Bool().Tag(map[string]string{"json": "isError"}),
		jen.Id("Meta").Map(jen.String()).Add(jsonRaw()).Tag(map[string]string{"json": "_meta,omitempty"}),
	)
	f.Line()
	docf(f, "ToolContent is one content item of a ToolResult.")
	f.Type().Id("ToolContent").Struct(
		jen.Id("Type").String().Tag(map[string]string{"json": "type"}),
		jen.Id("Text").String().Tag(map[string]string{"json": "text"}),
	)
	f.Line()
	docf(f, "ToolResult returns the envelope as the result of a failed MCP tool call: isError true, the envelope's JSON as the one text content item and as structuredContent.")
	f.Func().Params(recv()).Id("ToolResult").Params().Params(jen.Id("ToolResult"), jen.Error()).Block(
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Id("e").Dot("MarshalJSON").Call(),
		ifErrReturn(jen.Id("ToolResult").Values(), jen.Err()),
		jen.Return(jen.Id("ToolResult").Values(jen.Dict{
			jen.Id("Content"):           jen.Index().Id("ToolContent").Values(jen.Values(jen.Dict{jen.Id("Type"): jen.Lit("text"), jen.Id("Text"): jen.String().Call(jen.Id("b"))})),
			jen.Id("StructuredContent"): jen.Id("b"),
			jen.Id("IsError"):           jen.True(),
			jen.Id("Meta"):              jen.Id("mcpMeta").Call(jen.Id("b")),
		}), jen.Nil()),
	)
	f.Line()
	docf(f, "TextToolResult is ToolResult without structuredContent: the envelope's JSON as the one text content item only. A client that checks an error result's structuredContent against the tool's outputSchema (the 1.x TypeScript SDK's) accepts it whatever the schema; FromToolResult reads it from the text.")
	f.Func().Params(recv()).Id("TextToolResult").Params().Params(jen.Id("ToolResult"), jen.Error()).Block(
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Id("e").Dot("MarshalJSON").Call(),
		ifErrReturn(jen.Id("ToolResult").Values(), jen.Err()),
		jen.Return(jen.Id("ToolResult").Values(jen.Dict{
			jen.Id("Content"): jen.Index().Id("ToolContent").Values(jen.Values(jen.Dict{jen.Id("Type"): jen.Lit("text"), jen.Id("Text"): jen.String().Call(jen.Id("b"))})),
			jen.Id("IsError"): jen.True(),
			jen.Id("Meta"):    jen.Id("mcpMeta").Call(jen.Id("b")),
		}), jen.Nil()),
	)
	f.Line()
	docf(f, "FromToolResult reads the envelope of an MCP tool result: its structuredContent when that is an envelope (or keeps an upstream's own beside it, as UpstreamToolResult writes it: the envelope is its error member), else the first text content item that is (trimmed of JSON's white space only, as ReadCLI trims a line). It does not look at isError. The envelope is sanitized as UnmarshalJSON sanitizes one. The error, when no envelope is found, wraps the first decoding problem.")
	f.Func().Id("FromToolResult").Params(jen.Id("r").Id("ToolResult")).Params(envPtr(), jen.Error()).Block(
		jen.Var().Id("first").Error(),
		jen.If(jen.Id("s").Op(":=").Qual("bytes", "TrimSpace").Call(jen.Id("r").Dot("StructuredContent")), jen.Len(jen.Id("s")).Op(">").Lit(0).Op("&&").String().Call(jen.Id("s")).Op("!=").Lit("null")).Block(
			jen.If(jen.List(jen.Id("env"), jen.Id("_"), jen.Id("ok")).Op(":=").Id("upstreamWrapped").Call(jen.Id("s")), jen.Id("ok")).Block(jen.Id("s").Op("=").Id("env")),
			jen.List(jen.Id("e"), jen.Err()).Op(":=").Id("decodeEnvelope").Call(jen.Id("s")),
			jen.If(jen.Err().Op("==").Nil()).Block(jen.Return(jen.Id("e"), jen.Nil())),
			jen.Id("first").Op("=").Err(),
		),
		jen.For(jen.List(jen.Id("_"), jen.Id("c")).Op(":=").Range().Id("r").Dot("Content")).Block(
			jen.If(jen.Id("c").Dot("Type").Op("!=").Lit("text")).Block(jen.Continue()),
			jen.List(jen.Id("e"), jen.Err()).Op(":=").Id("decodeEnvelope").Call(jen.Index().Byte().Parens(jen.Qual("strings", "Trim").Call(jen.Id("c").Dot("Text"), jen.Lit(jsonSpace)))),
			jen.If(jen.Err().Op("==").Nil()).Block(jen.Return(jen.Id("e"), jen.Nil())),
			jen.If(jen.Id("first").Op("==").Nil()).Block(jen.Id("first").Op("=").Err()),
		),
		jen.If(jen.Id("first").Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit(g.pkgErr("tool result carries no envelope: %w")), jen.Id("first"))),
		),
		// Nothing to decode is a DecodeError (DecodeMissing), as every
		// language's reader reports it.
		jen.Return(jen.Nil(), jen.Op("&").Id("DecodeError").Values(jen.Dict{jen.Id("Problem"): jen.Lit("tool result carries no envelope"), jen.Id("Category"): jen.Id("DecodeMissing")})),
	)
}

func (g *gen) cliSurface(f *jen.File) {
	cli := g.c.Surfaces.CLI
	f.Line()
	codes, byCode := g.originsByCode(cli.ExitCodes)
	var body []jen.Code
	if len(codes) > 0 {
		var cases []jen.Code
		for _, code := range codes {
			cases = append(cases, jen.Case(byCode[code]...).Block(jen.Return(jen.Lit(code))))
		}
		body = append(body, jen.Switch(jen.Id("Lookup").Call(jen.Id("e").Dot("Kind")).Dot("Origin")).Block(cases...))
	}
	body = append(body, jen.Return(jen.Lit(cli.DefaultExitCode)))
	doc := fmt.Sprintf("ExitCode is the exit status a command line reports the failure with, by the origin of the kind's classification (a kind this package does not know has the fallback's origin); %d for an origin the contract gives no exit code.", cli.DefaultExitCode)
	if len(codes) == 0 {
		doc = fmt.Sprintf("ExitCode is the exit status a command line reports the failure with: %d, as the contract gives no origin an exit code of its own.", cli.DefaultExitCode)
	}
	docf(f, doc)
	f.Func().Params(recv()).Id("ExitCode").Params().Int().Block(body...)
	f.Line()
	g.mcpErrorCode(f)

	w := jen.Id("w").Qual("io", "Writer")
	if cli.Form == contract.CLIWrapped {
		docf(f, fmt.Sprintf(`WriteCLI writes the failure of command as one JSON line, in this contract's wrapped form: {%q:false,%q:command,%q:envelope}.`, cliWrapOK, cliWrapCommand, cliWrapError))
		appendB := func(s string) jen.Code { return jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit(s).Op("...")) }
		f.Func().Params(recv()).Id("WriteCLI").Params(w, jen.Id("command").String()).Error().Block(
			jen.List(jen.Id("env"), jen.Err()).Op(":=").Id("e").Dot("MarshalJSON").Call(),
			ifErrReturn(jen.Err()),
			jen.Id("b").Op(":=").Make(jen.Index().Byte(), jen.Lit(0), jen.Len(jen.Id("env")).Op("+").Len(jen.Id("command")).Op("+").Lit(48)),
			appendB("{"+quoted(cliWrapOK)+":false,"+quoted(cliWrapCommand)+":"),
			appendStr(jen.Id("command")),
			appendB(","+quoted(cliWrapError)+":"),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.Id("env").Op("...")),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('}'), jen.LitRune('\n')),
			jen.List(jen.Id("_"), jen.Err()).Op("=").Id("w").Dot("Write").Call(jen.Id("b")),
			jen.Return(jen.Err()),
		)
	} else {
		docf(f, "WriteCLI writes the failure as one JSON line: the envelope itself, this contract's CLI form. command is not part of that form and is not written.")
		f.Func().Params(recv()).Id("WriteCLI").Params(w, jen.Id("command").String()).Error().Block(
			jen.List(jen.Id("env"), jen.Err()).Op(":=").Id("e").Dot("MarshalJSON").Call(),
			ifErrReturn(jen.Err()),
			jen.List(jen.Id("_"), jen.Err()).Op("=").Id("w").Dot("Write").Call(jen.Append(jen.Id("env"), jen.LitRune('\n'))),
			jen.Return(jen.Err()),
		)
	}
	f.Line()
	own, other := "decodeEnvelope", "readCLIWrapped"
	form := "the envelope itself"
	if cli.Form == contract.CLIWrapped {
		own, other = other, own
		form = "wrapped"
	}
	docf(f, fmt.Sprintf("ReadCLI reads back a line WriteCLI wrote. It accepts both CLI forms, the envelope itself and the wrapped {%q:false,%q:...,%q:envelope}, trying this contract's own form (%s) first; the error returned is that of this contract's form. Only JSON's white space (space, tab, line feed, carriage return) is trimmed from either end: a line that starts or ends with any other character (a byte order mark, a no-break space, U+0085, U+2028) is not a CLI line, in every language. The whole line is held to the limits every decoder shares, the wrapped form's own object counting as level 0, so that the envelope in it nests as deeply as any. The envelope is sanitized as UnmarshalJSON sanitizes one. A line longer than MaxDocumentBytes is refused before it is read, in either form.", cliWrapOK, cliWrapCommand, cliWrapError, form))
	f.Func().Id("ReadCLI").Params(jen.Id("line").Index().Byte()).Params(envPtr(), jen.Error()).Block(
		jen.Id("line").Op("=").Qual("bytes", "Trim").Call(jen.Id("line"), jen.Lit(jsonSpace)),
		jen.If(jen.Err().Op(":=").Id("checkSize").Call(jen.Id("line"), jen.Id("MaxDocumentBytes")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.List(jen.Id("e"), jen.Err()).Op(":=").Id(own).Call(jen.Id("line")),
		jen.If(jen.Err().Op("==").Nil()).Block(jen.Return(jen.Id("e"), jen.Nil())),
		jen.If(jen.List(jen.Id("e"), jen.Id("err2")).Op(":=").Id(other).Call(jen.Id("line")), jen.Id("err2").Op("==").Nil()).Block(jen.Return(jen.Id("e"), jen.Nil())),
		jen.Return(jen.Nil(), jen.Err()),
	)
	f.Line()
	docf(f, fmt.Sprintf("readCLIWrapped reads the wrapped CLI form {%q:false,%q:...,%q:envelope}.", cliWrapOK, cliWrapCommand, cliWrapError))
	f.Func().Id("readCLIWrapped").Params(jen.Id("line").Index().Byte()).Params(envPtr(), jen.Error()).Block(
		jen.List(jen.Id("obj"), jen.Err()).Op(":=").Id("decodeObjectAt").Call(jen.Id("line"), jen.Lit(""), jen.Lit(-1)),
		ifErrReturn(jen.Nil(), jen.Err()),
		jen.If(jen.List(jen.Id("ok"), jen.Id("present")).Op(":=").Id("obj").Index(jen.Lit(cliWrapOK)), jen.Id("present").Op("&&").Op("!").Qual("bytes", "Equal").Call(jen.Qual("bytes", "TrimSpace").Call(jen.Id("ok")), jen.Index().Byte().Parens(jen.Lit("false")))).Block(
			jen.Return(jen.Nil(), jen.Op("&").Id("DecodeError").Values(jen.Dict{jen.Id("Path"): jen.Lit(cliWrapOK), jen.Id("Problem"): jen.Lit("must be false in a failure line"), jen.Id("Category"): jen.Id("DecodeValue")})),
		),
		jen.List(jen.Id("raw"), jen.Id("present")).Op(":=").Id("obj").Index(jen.Lit(cliWrapError)),
		jen.If(jen.Op("!").Id("present")).Block(
			jen.Return(jen.Nil(), jen.Op("&").Id("DecodeError").Values(jen.Dict{jen.Id("Path"): jen.Lit(cliWrapError), jen.Id("Problem"): jen.Lit("is required in the wrapped CLI form"), jen.Id("Category"): jen.Id("DecodeMissing")})),
		),
		jen.Return(jen.Id("decodeEnvelope").Call(jen.Id("raw"))),
	)
}

// originsByCode groups the origins that codes gives a code (an exit code,
// a JSON-RPC error code) by that code, codes in the contract's order of
// their first origin: the cases of a switch on the origin.
func (g *gen) originsByCode(codes map[*contract.Origin]int) ([]int, map[int][]jen.Code) {
	var order []int
	byCode := map[int][]jen.Code{}
	for _, o := range g.c.Origins {
		code, ok := codes[o]
		if !ok {
			continue
		}
		if _, seen := byCode[code]; !seen {
			order = append(order, code)
		}
		byCode[code] = append(byCode[code], jen.Id("Origin"+o.Idents.Go))
	}
	return order, byCode
}

// mcpErrorCode emits MCPErrorCode: the JSON-RPC error code of the kind's
// protocol error, by its origin, as ExitCode gives the exit code.
func (g *gen) mcpErrorCode(f *jen.File) {
	m := g.c.Surfaces.MCP
	codes, byCode := g.originsByCode(m.ErrorCodes)
	var body []jen.Code
	// The kinds that give their own code come first.
	var kindCodes []int
	byKindCode := map[int][]jen.Code{}
	for _, k := range g.c.Kinds {
		if k.MCPErrorCode == nil {
			continue
		}
		if _, seen := byKindCode[*k.MCPErrorCode]; !seen {
			kindCodes = append(kindCodes, *k.MCPErrorCode)
		}
		byKindCode[*k.MCPErrorCode] = append(byKindCode[*k.MCPErrorCode], jen.Id(kindConst(k)))
	}
	if len(kindCodes) > 0 {
		var cases []jen.Code
		for _, code := range kindCodes {
			cases = append(cases, jen.Case(byKindCode[code]...).Block(jen.Return(jen.Lit(code))))
		}
		body = append(body, jen.Switch(jen.Id("e").Dot("Kind")).Block(cases...))
	}
	if len(codes) > 0 {
		var cases []jen.Code
		for _, code := range codes {
			cases = append(cases, jen.Case(byCode[code]...).Block(jen.Return(jen.Lit(code))))
		}
		body = append(body, jen.Switch(jen.Id("Lookup").Call(jen.Id("e").Dot("Kind")).Dot("Origin")).Block(cases...))
	}
	body = append(body, jen.Return(jen.Lit(m.DefaultErrorCode)))
	doc := fmt.Sprintf("MCPErrorCode is the JSON-RPC error code of the failure as an MCP protocol error (MCPError): the kind's own (mcp_error_code) where it gives one, else by the origin of the kind's classification (a kind this package does not know has the fallback's origin); %d for an origin the contract gives no code (surfaces.mcp).", m.DefaultErrorCode)
	if len(codes) == 0 && len(kindCodes) == 0 {
		doc = fmt.Sprintf("MCPErrorCode is the JSON-RPC error code of the failure as an MCP protocol error (MCPError): %d, as the contract gives no origin or kind a code of its own (surfaces.mcp).", m.DefaultErrorCode)
	}
	docf(f, doc)
	f.Func().Params(recv()).Id("MCPErrorCode").Params().Int().Block(body...)
	f.Line()
}
