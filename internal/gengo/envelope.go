package gengo

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// goType is the Go type of a context or kind-specific field. Scalars other
// than strings are pointers so an absent value stays distinguishable from
// zero; an empty string, nil slice or nil map means absent. An object with
// declared properties is a struct of its own (see objectTypes).
func (g *gen) goType(f *contract.Field) *jen.Statement {
	switch f.Type {
	case contract.TypeInteger, contract.TypeNumber, contract.TypeBoolean:
		return jen.Op("*").Add(elemType(f.Type))
	case contract.TypeArray:
		return jen.Index().Add(elemType(f.Items))
	case contract.TypeObject:
		if len(f.Properties) > 0 {
			return jen.Op("*").Id(g.structName(f))
		}
	}
	return elemType(f.Type)
}

// elemType is the Go type of one value of type t, without optionality.
func elemType(t contract.FieldType) *jen.Statement {
	switch t {
	case contract.TypeString:
		return jen.String()
	case contract.TypeInteger:
		return jen.Int64()
	case contract.TypeNumber:
		return jen.Float64()
	case contract.TypeBoolean:
		return jen.Bool()
	case contract.TypeObject:
		return jen.Map(jen.String()).Any()
	}
	panic("gengo: unhandled type " + t)
}

// packageTypes are the package's own type names, which an object field's
// struct must not take.
var packageTypes = map[string]bool{"Kind": true, "Origin": true, "RecoveryAction": true, "SameArguments": true,
	"SideEffects": true, "Group": true, "Classification": true, "Envelope": true, "Recovery": true,
	"Schema": true, "DecodeError": true, "ToolAnnotations": true, "Upstream": true, "Classified": true,
	"Failure": true, "Step": true, "Decision": true, "ToolResult": true, "ToolContent": true}

// structName names the struct of an object field with properties.
func (g *gen) structName(f *contract.Field) string {
	if packageTypes[f.Idents.Go] {
		return f.Idents.Go + "Fields"
	}
	return f.Idents.Go
}

// objectTypes emits a struct for every object field with properties. It
// uses encoding/json tags: such objects are rare and small, so they are
// encoded through encoding/json rather than the append encoder.
func (g *gen) objectTypes(f *jen.File) {
	seen := map[string]bool{}
	var emit func(fl *contract.Field)
	emit = func(fl *contract.Field) {
		if fl.Type != contract.TypeObject || len(fl.Properties) == 0 || seen[g.structName(fl)] {
			return
		}
		seen[g.structName(fl)] = true
		var members []jen.Code
		for _, p := range fl.Properties {
			members = append(members, fieldDoc(p, p.Name)...)
			typ := g.goType(p)
			tag := p.Name + ",omitempty"
			if p.Required {
				typ = paramType(g, p)
				tag = p.Name
			}
			members = append(members, jen.Id(p.Idents.Go).Add(typ).Tag(map[string]string{"json": tag}))
		}
		docf(f, fmt.Sprintf("%s is the %s field. %s", g.structName(fl), fl.Name, fl.Description))
		f.Type().Id(g.structName(fl)).Struct(members...)
		f.Line()
		for _, p := range fl.Properties {
			emit(p)
		}
	}
	for _, fl := range append(append([]*contract.Field(nil), g.c.ContextFields...), g.c.KindFields...) {
		emit(fl)
	}
}

// versionType is the Go type of the contract version.
func (g *gen) versionType() *jen.Statement {
	if g.c.VersionIsText() {
		return jen.String()
	}
	return jen.Int()
}

// derivedType is the Go type keeping a derived leaf's received value.
func derivedType(lf *contract.Leaf) *jen.Statement {
	if lf.Source == contract.SourceGroup {
		return jen.String()
	}
	return jen.Op("*").Bool()
}

// paramType is how a constructor or With method takes the field: by value.
func paramType(g *gen, f *contract.Field) *jen.Statement {
	if f.Type == contract.TypeArray || f.Type == contract.TypeObject {
		return g.goType(f)
	}
	return elemType(f.Type)
}

// assign stores the parameter p into the envelope field.
func assign(f *contract.Field, p string) jen.Code {
	dst := jen.Id("e").Dot(f.Idents.Go)
	switch f.Type {
	case contract.TypeInteger, contract.TypeNumber, contract.TypeBoolean:
		return dst.Op("=").Op("&").Id(p)
	}
	return dst.Op("=").Id(p)
}

func fieldDoc(f *contract.Field, wire string) []jen.Code {
	return comment(fmt.Sprintf("%s is %q on the wire. %s", f.Idents.Go, wire, f.Description))
}

func (g *gen) envelope(f *jen.File) {
	c := g.c
	g.objectTypes(f)
	docf(f, "Recovery is the advice an envelope carries.")
	f.Type().Id("Recovery").Struct(
		jen.Comment("// Action is "+g.wireDoc(contract.SourceAction)+"."),
		jen.Id("Action").Id("RecoveryAction"),
		jen.Comment("// SameArguments is "+g.wireDoc(contract.SourceSameArguments)+"."),
		jen.Id("SameArguments").Id("SameArguments"),
		jen.Comment("// Guidance is "+g.wireDoc(contract.SourceGuidance)+": free text telling the caller what to do."),
		jen.Id("Guidance").String(),
		jen.Comment("// RetryAfterMs is "+g.wireDoc(contract.SourceRetryAfterMs)+": the minimum wait before a retry,"),
		jen.Comment("// in milliseconds. Nil when the producer gave no hint."),
		jen.Id("RetryAfterMs").Op("*").Int64(),
	)
	f.Line()

	fields := []jen.Code{
		jen.Comment("// ContractVersion is " + g.wireDoc(contract.SourceVersion) + "."),
		jen.Id("ContractVersion").Add(g.versionType()),
		jen.Comment("// Kind is " + g.wireDoc(contract.SourceKind) + ": the stable tag consumers branch on."),
		jen.Id("Kind").Id("Kind"),
		jen.Comment("// Message is " + g.wireDoc(contract.SourceMessage) + ": a diagnosis that is useful on its own."),
		jen.Id("Message").String(),
		jen.Comment("// Origin is " + g.wireDoc(contract.SourceOrigin) + "."),
		jen.Id("Origin").Id("Origin"),
		jen.Id("Recovery").Id("Recovery"),
		jen.Comment("// SideEffects is " + g.wireDoc(contract.SourceSideEffects) + "."),
		jen.Id("SideEffects").Id("SideEffects"),
	}
	if len(c.ContextFields) > 0 {
		fields = append(fields, jen.Line(), jen.Comment("// Optional context."))
		for _, cf := range c.ContextFields {
			fields = append(fields, fieldDoc(cf, g.lo.FieldPath(cf))...)
			fields = append(fields, jen.Id(cf.Idents.Go).Add(g.goType(cf)))
		}
	}
	if len(c.KindFields) > 0 {
		fields = append(fields, jen.Line(), jen.Comment("// Kind-specific fields; each is set only on the kinds that declare it."))
		for _, kf := range c.KindFields {
			fields = append(fields, fieldDoc(kf, g.lo.FieldPath(kf))...)
			fields = append(fields, jen.Id(kf.Idents.Go).Add(g.goType(kf)))
		}
	}
	if d := g.derived(); len(d) > 0 {
		fields = append(fields, jen.Line(),
			jen.Comment("// Derived wire fields as received. The producer computes them from the"),
			jen.Comment("// classification; a decoded envelope keeps what it was sent, which matters"),
			jen.Comment("// for kinds this package does not know. Empty or nil means: compute."))
		for _, lf := range d {
			fields = append(fields, jen.Comment(fmt.Sprintf("// %s is %q on the wire, derived from %s.", lf.Idents.Go, lf.Path, lf.Source)))
			fields = append(fields, jen.Id(lf.Idents.Go).Add(derivedType(lf)))
		}
	}
	fields = append(fields, jen.Line(),
		jen.Comment("// Extra holds fields this contract version does not name: a caller's additions"),
		jen.Comment("// and fields from newer producers, keyed by their path (\"name\" at the top"),
		jen.Comment("// level, \"object.name\" inside a nested object). When marshalling, a field of"),
		jen.Comment("// the contract always wins over an Extra entry of the same name. Decoded"),
		jen.Comment("// values are json.RawMessage."),
		jen.Id("Extra").Map(jen.String()).Any(),
	)
	docf(f, "Envelope is one failure as every surface (MCP, HTTP, CLI) reports it. It implements error; use errors.As to recover it from a wrapped error.")
	f.Type().Id("Envelope").Struct(fields...)
	f.Line()
	f.Var().Id("_").Error().Op("=").Parens(jen.Op("*").Id("Envelope")).Parens(jen.Nil())
	f.Line()

	e := func() *jen.Statement { return jen.Id("e").Op("*").Id("Envelope") }
	f.Comment("// Error returns \"kind: message\".")
	f.Func().Params(e()).Id("Error").Params().String().Block(
		jen.If(jen.Id("e").Op("==").Nil()).Block(jen.Return(jen.Lit("<nil envelope>"))),
		jen.Return(jen.String().Call(jen.Id("e").Dot("Kind")).Op("+").Lit(": ").Op("+").Id("e").Dot("Message")),
	)
	f.Line()
	f.Comment("// Classification returns the contract's classification of the envelope's kind.")
	f.Func().Params(e()).Id("Classification").Params().Id("Classification").Block(
		jen.Return(jen.Id("Lookup").Call(jen.Id("e").Dot("Kind"))),
	)
	f.Line()
	f.Comment("// HTTPStatus returns the status an HTTP surface answers with for this envelope's kind.")
	f.Func().Params(e()).Id("HTTPStatus").Params().Int().Block(
		jen.Return(jen.Id("Lookup").Call(jen.Id("e").Dot("Kind")).Dot("HTTPStatus")),
	)
	f.Line()
	f.Comment("// LogLevel returns the level to log this failure at.")
	f.Func().Params(e()).Id("LogLevel").Params().Qual("log/slog", "Level").Block(
		jen.Return(jen.Id("Lookup").Call(jen.Id("e").Dot("Kind")).Dot("LogLevel")),
	)
	f.Line()
	f.Comment("// CountsTowardBreaker reports whether the failure is a transport failure that")
	f.Comment("// counts toward the upstream's circuit breaker.")
	f.Func().Params(e()).Id("CountsTowardBreaker").Params().Bool().Block(
		jen.Return(jen.Id("Lookup").Call(jen.Id("e").Dot("Kind")).Dot("Breaker")),
	)
	f.Line()
	f.Comment("// IsRetryable reports whether the envelope's own advice permits an automatic")
	f.Comment("// retry of the identical call: a retry action with a same_arguments value that")
	f.Comment("// permits repeating it.")
	var retry []jen.Code
	if lf := g.lo.Leaf(contract.SourceRetryable); lf != nil {
		f.Comment(fmt.Sprintf("// A received %q wins over the computed answer.", lf.Path))
		retry = append(retry, jen.If(jen.Id("e").Dot(lf.Idents.Go).Op("!=").Nil()).Block(jen.Return(jen.Op("*").Id("e").Dot(lf.Idents.Go))))
	}
	retry = append(retry, jen.Return(jen.Id("e").Dot("Recovery").Dot("Action").Dot("IsRetry").Call().Op("&&").Id("e").Dot("Recovery").Dot("SameArguments").Dot("PermitsRetry").Call()))
	f.Func().Params(e()).Id("IsRetryable").Params().Bool().Block(retry...)
	f.Line()
	f.Comment("// WorkMayHaveRun reports whether work may already have run before the failure,")
	f.Comment("// judged from the envelope's side_effects: check state before repeating a write.")
	var run []jen.Code
	if lf := g.lo.Leaf(contract.SourceMayHaveRun); lf != nil {
		f.Comment(fmt.Sprintf("// A received %q wins over the computed answer.", lf.Path))
		run = append(run, jen.If(jen.Id("e").Dot(lf.Idents.Go).Op("!=").Nil()).Block(jen.Return(jen.Op("*").Id("e").Dot(lf.Idents.Go))))
	}
	run = append(run, jen.Return(jen.Id("e").Dot("SideEffects").Dot("MayHaveRun").Call()))
	f.Func().Params(e()).Id("WorkMayHaveRun").Params().Bool().Block(run...)
	if g.hasStartup() {
		f.Line()
		f.Comment("// IsStartupFailure reports whether the kind is raised while starting up or")
		f.Comment("// loading configuration rather than returned as an operation's result.")
		f.Func().Params(e()).Id("IsStartupFailure").Params().Bool().Block(
			jen.Return(jen.Id("Lookup").Call(jen.Id("e").Dot("Kind")).Dot("Startup")),
		)
	}

	// Chainable setters: NewX(...).WithTool("t").WithRetryAfter(d) builds an
	// envelope without option closures or extra allocations.
	f.Line()
	f.Comment("// WithRetryAfter sets the retry hint, rounded up to whole milliseconds so a")
	f.Comment("// caller never retries early. A negative duration counts as zero.")
	f.Func().Params(e()).Id("WithRetryAfter").Params(jen.Id("d").Qual("time", "Duration")).Op("*").Id("Envelope").Block(
		jen.Id("ms").Op(":=").Int64().Call(jen.Parens(jen.Id("d").Op("+").Qual("time", "Millisecond").Op("-").Lit(1)).Op("/").Qual("time", "Millisecond")),
		jen.If(jen.Id("d").Op("<=").Lit(0)).Block(jen.Id("ms").Op("=").Lit(0)),
		jen.Id("e").Dot("Recovery").Dot("RetryAfterMs").Op("=").Op("&").Id("ms"),
		jen.Return(jen.Id("e")),
	)
	f.Line()
	f.Comment("// WithGuidance replaces the contract's default guidance with advice specific to this failure.")
	f.Func().Params(e()).Id("WithGuidance").Params(jen.Id("guidance").String()).Op("*").Id("Envelope").Block(
		jen.Id("e").Dot("Recovery").Dot("Guidance").Op("=").Id("guidance"),
		jen.Return(jen.Id("e")),
	)
	f.Line()
	f.Comment("// WithSideEffects overrides the kind's default side-effect certainty when the")
	f.Comment("// producer knows better (for example, that nothing was sent).")
	f.Func().Params(e()).Id("WithSideEffects").Params(jen.Id("v").Id("SideEffects")).Op("*").Id("Envelope").Block(
		jen.Id("e").Dot("SideEffects").Op("=").Id("v"),
		jen.Return(jen.Id("e")),
	)
	f.Line()
	f.Comment("// WithExtra adds a field the contract does not name. It never overrides a")
	f.Comment("// field of the contract: those win when the envelope is marshalled.")
	f.Func().Params(e()).Id("WithExtra").Params(jen.Id("key").String(), jen.Id("value").Any()).Op("*").Id("Envelope").Block(
		jen.If(jen.Id("e").Dot("Extra").Op("==").Nil()).Block(
			jen.Id("e").Dot("Extra").Op("=").Make(jen.Map(jen.String()).Any()),
		),
		jen.Id("e").Dot("Extra").Index(jen.Id("key")).Op("=").Id("value"),
		jen.Return(jen.Id("e")),
	)
	for _, fl := range append(append([]*contract.Field(nil), c.ContextFields...), c.KindFields...) {
		f.Line()
		f.Commentf("// With%s sets %s.", fl.Idents.Go, fl.Name)
		f.Func().Params(e()).Id("With"+fl.Idents.Go).Params(jen.Id("v").Add(paramType(g, fl))).Op("*").Id("Envelope").Block(
			assign(fl, "v"),
			jen.Return(jen.Id("e")),
		)
	}

	f.Line()
	docf(f, "New returns an envelope of any kind, classified by Lookup: a kind the contract does not list gets the fallback classification. Prefer the per-kind constructors, which also take the kind's required fields.")
	f.Func().Id("New").Params(jen.Id("kind").Id("Kind"), jen.Id("message").String()).Op("*").Id("Envelope").Block(
		jen.Id("c").Op(":=").Id("Lookup").Call(jen.Id("kind")),
		jen.Return(jen.Op("&").Id("Envelope").Values(jen.Dict{
			jen.Id("ContractVersion"): jen.Id("ContractVersion"),
			jen.Id("Kind"):            jen.Id("kind"),
			jen.Id("Message"):         jen.Id("message"),
			jen.Id("Origin"):          jen.Id("c").Dot("Origin"),
			jen.Id("Recovery"): jen.Id("Recovery").Values(jen.Dict{
				jen.Id("Action"):        jen.Id("c").Dot("Action"),
				jen.Id("SameArguments"): jen.Id("c").Dot("SameArguments"),
				jen.Id("Guidance"):      jen.Id("c").Dot("Guidance"),
			}),
			jen.Id("SideEffects"): jen.Id("c").Dot("SideEffects"),
		})),
	)
	for _, k := range c.Kinds {
		f.Line()
		params := []jen.Code{jen.Id("message").String()}
		body := []jen.Code{jen.Id("e").Op(":=").Id("New").Call(jen.Id(kindConst(k)), jen.Id("message"))}
		for _, rf := range k.RequiredFields() {
			p := rf.Idents.GoLocal
			params = append(params, jen.Id(p).Add(paramType(g, rf)))
			if rf.Type == contract.TypeArray || (rf.Type == contract.TypeObject && len(rf.Properties) == 0) {
				// A required collection is present even when empty, so the
				// wire always carries it.
				empty := jen.Add(g.goType(rf)).Values()
				body = append(body, jen.If(jen.Id(p).Op("==").Nil()).Block(jen.Id(p).Op("=").Add(empty)))
			}
			body = append(body, assign(rf, p))
		}
		body = append(body, jen.Return(jen.Id("e")))
		docf(f, fmt.Sprintf("New%s returns a %s envelope. %s", k.Idents.Go, k.Name, k.Description))
		f.Func().Id("New" + k.Idents.Go).Params(params...).Op("*").Id("Envelope").Block(body...)
	}
}
