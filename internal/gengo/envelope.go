package gengo

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/naming"
)

// goType is the Go type of a context or kind-specific field. Scalars other
// than strings are pointers so an absent value stays distinguishable from
// zero; an empty string, nil slice or nil map means absent. An object with
// declared properties is a struct of its own (see objectTypes). Its text
// is goTypeText's: every type a field takes is a builtin or a type of the
// package, so none needs an import.
func (g *gen) goType(f *contract.Field) *jen.Statement { return jen.Id(g.goTypeText(f)) }

// structName names the struct of an object field with properties.
func (g *gen) structName(f *contract.Field) string {
	return g.structs[f.Idents.Go]
}

// structNames names the struct of every object field with properties, by
// the field's Go name (one struct per field name), in the order objectTypes
// emits them: the Go name unless the package already declares it, else
// with a Fields suffix (Kind -> KindFields, Lookup -> LookupFields).
func structNames(c *contract.Contract) map[string]string {
	taken := map[string]bool{}
	for _, name := range naming.Reserved(naming.Go, naming.Package) {
		taken[name] = true
	}
	// The package-level names made from the contract's other names.
	for _, s := range []struct {
		prefix string
		values []*contract.Value
	}{{"Kind", contract.Values(c.Kinds)}, {"New", contract.Values(c.Kinds)}, {"Origin", contract.Values(c.Origins)},
		{"RecoveryAction", contract.Values(c.Actions)}, {"SameArguments", contract.Values(c.SameArguments)},
		{"SideEffects", contract.Values(c.SideEffects)}, {"Group", contract.Values(c.Groups)}} {
		for _, v := range s.values {
			taken[s.prefix+v.Idents.Go] = true
		}
	}
	if c.Inbound != nil {
		for _, cl := range c.Inbound.Classifiers {
			taken["Classify"+cl.Idents.Go] = true
		}
	}
	return c.ObjectTypeNames(func(id *contract.Idents) string { return id.Go }, taken)
}

// objectTypes emits a struct for every object field with properties. It
// uses encoding/json tags: such objects are rare and small, so they are
// encoded through encoding/json rather than the append encoder.
func (g *gen) objectTypes(f *jen.File) {
	g.eachStruct(g.c.EnvelopeFields, func(fl *contract.Field) {
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
	})
}

// eachStruct calls fn for each object field with properties among fields
// and their properties, depth first, once per struct: a field name has one
// struct wherever it stands.
func (g *gen) eachStruct(fields []*contract.Field, fn func(fl *contract.Field)) {
	seen := map[string]bool{}
	var visit func(fl *contract.Field)
	visit = func(fl *contract.Field) {
		if fl.Type != contract.TypeObject || len(fl.Properties) == 0 || seen[g.structName(fl)] {
			return
		}
		seen[g.structName(fl)] = true
		fn(fl)
		for _, p := range fl.Properties {
			visit(p)
		}
	}
	for _, fl := range fields {
		visit(fl)
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
func paramType(g *gen, f *contract.Field) *jen.Statement { return jen.Id(g.paramTypeText(f)) }

// assign stores the parameter p into the envelope field, sanitized when
// the contract lists the field in sanitize.fields (assignText's statement).
func (g *gen) assign(f *contract.Field, p string) jen.Code { return jen.Op(g.assignText(f, p)) }

// sanitized reports whether the contract's sanitize.fields lists the
// envelope value name (message, guidance, or a field).
func (g *gen) sanitized(name string) bool {
	return g.c.Sanitize.Sanitizes(name)
}

// sanitizeExpr sanitizes v, a value of the text field f: a string, the
// strings of an array, or the strings inside an object (a map's values, a
// struct's members), copying rather than modifying the caller's value.
func sanitizeExpr(f *contract.Field, v *jen.Statement) *jen.Statement {
	switch fn, method := sanitizer(f); {
	case fn == "":
		return v
	case method:
		return v.Dot(fn).Call()
	default:
		return jen.Id(fn).Call(v)
	}
}

// sanitizer names what sanitizes a value of the text field f: a function
// of the runtime, or (method) the sanitized method of the field's struct;
// "" for a field without text.
func sanitizer(f *contract.Field) (fn string, method bool) {
	switch {
	case f.Type == contract.TypeString:
		return "Sanitize", false
	case f.Type == contract.TypeArray && f.Items == contract.TypeString:
		return "sanitizeStrings", false
	case f.Type == contract.TypeObject && len(f.Properties) > 0:
		return "sanitized", true
	case f.Type == contract.TypeObject:
		return "sanitizeObject", false
	}
	return "", false
}

// isText reports whether the field holds text to sanitize: a string, an
// array of strings or an object.
func isText(f *contract.Field) bool {
	return f.Type == contract.TypeString || f.Type == contract.TypeObject || f.Type == contract.TypeArray && f.Items == contract.TypeString
}

// sanitizeMethods emits, for each struct of an object field (and each
// struct nested in one), a method returning a copy with its text
// sanitized: the setters of a field the contract sanitizes use it, and the
// decoder uses it on every field it reads.
func (g *gen) sanitizeMethods(f *jen.File) {
	g.eachStruct(g.c.EnvelopeFields, func(fl *contract.Field) {
		name := g.structName(fl)
		body := []jen.Code{
			jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(jen.Nil())),
			jen.Id("c").Op(":=").Op("*").Id("v"),
		}
		for _, p := range fl.Properties {
			if holdsText(p) {
				body = append(body, jen.Id("c").Dot(p.Idents.Go).Op("=").Add(receivedExpr(p, jen.Id("c").Dot(p.Idents.Go))))
			}
		}
		body = append(body, jen.Return(jen.Op("&").Id("c")))
		f.Line()
		f.Comment("// sanitized returns a copy of v with every string in it sanitized.")
		f.Func().Params(jen.Id("v").Op("*").Id(name)).Id("sanitized").Params().Op("*").Id(name).Block(body...)
	})
}

func fieldDoc(f *contract.Field, wire string) []jen.Code {
	return comment(fmt.Sprintf("%s is %q on the wire. %s", f.Idents.Go, wire, f.Description))
}

// envelope emits envelope.go: the Envelope and the methods and
// constructors whose code the contract shapes (the runtime's methods.go
// has the others).
func (g *gen) envelope(f *jen.File) {
	g.objectTypes(f)
	g.envelopeTypes(f)
	g.adviceMethods(f)
	g.setters(f)
	g.sanitizeMethods(f)
	f.Line()
	g.constructors(f)
}

// envelopeTypes emits the Recovery and Envelope structs, each field's doc
// saying where it travels in this contract's layout.
func (g *gen) envelopeTypes(f *jen.File) {
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
	fields = append(fields, g.contractFields()...)
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
}

// contractFields are the Envelope's fields the contract declares: its
// context fields, its kind-specific fields and the derived leaves of its
// layout, each group under a heading.
func (g *gen) contractFields() []jen.Code {
	c := g.c
	var fields []jen.Code
	if len(c.ContextFields) > 0 {
		heading := "// Optional context."
		if len(c.RequiredContext) > 0 {
			heading = "// Context: optional unless the layout requires it (noted below)."
		}
		fields = append(fields, jen.Line(), jen.Comment(heading))
		for _, cf := range c.ContextFields {
			fields = append(fields, fieldDoc(cf, g.lo.FieldPath(cf))...)
			if g.lo.RequiredLeaf(cf) != nil {
				fields = append(fields, jen.Comment("// Required: every envelope carries it, non-empty; the constructors take it, and"),
					jen.Comment("// an envelope whose "+cf.Idents.Go+" is empty does not encode."))
			}
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
	return fields
}

// envRecv is the receiver of the Envelope's methods.
func envRecv() *jen.Statement { return jen.Id("e").Op("*").Id("Envelope") }

// adviceMethods emits the answers that depend on the layout or the
// contract: IsRetryable and WorkMayHaveRun, where a derived leaf the
// layout carries wins over the computed answer, and IsStartupFailure for a
// contract with startup failures. The classification's other answers are
// the runtime's (methods.go).
func (g *gen) adviceMethods(f *jen.File) {
	// derivedMethod declares a method computing a flag the layout may also
	// carry as a derived leaf of source src: a received value wins.
	derivedMethod := func(name string, src contract.Source, computed jen.Code, doc ...string) {
		f.Line()
		for _, d := range doc {
			f.Comment("// " + d)
		}
		var body []jen.Code
		if lf := g.lo.Leaf(src); lf != nil {
			f.Comment(fmt.Sprintf("// A received %q wins over the computed answer.", lf.Path))
			body = append(body, jen.If(jen.Id("e").Dot(lf.Idents.Go).Op("!=").Nil()).Block(jen.Return(jen.Op("*").Id("e").Dot(lf.Idents.Go))))
		}
		f.Func().Params(envRecv()).Id(name).Params().Bool().Block(append(body, jen.Return(computed))...)
	}
	derivedMethod("IsRetryable", contract.SourceRetryable,
		jen.Id("e").Dot("Recovery").Dot("Action").Dot("IsRetry").Call().Op("&&").Id("e").Dot("Recovery").Dot("SameArguments").Dot("PermitsRetry").Call(),
		"IsRetryable reports whether the envelope's own advice permits an automatic",
		"retry of the identical call: a retry action with a same_arguments value that", "permits repeating it.")
	derivedMethod("WorkMayHaveRun", contract.SourceMayHaveRun, jen.Id("e").Dot("SideEffects").Dot("MayHaveRun").Call(),
		"WorkMayHaveRun reports whether work may already have run before the failure,",
		"judged from the envelope's side_effects: check state before repeating a write.")
	if g.hasStartup() {
		f.Line()
		f.Comment("// IsStartupFailure reports whether the kind is raised while starting up or")
		f.Comment("// loading configuration rather than returned as an operation's result.")
		f.Func().Params(envRecv()).Id("IsStartupFailure").Params().Bool().Block(jen.Return(jen.Id("Lookup").Call(jen.Id("e").Dot("Kind")).Dot("Startup")))
	}
}

// setters emits the chainable setters that depend on the contract:
// WithGuidance (whether the layout fills guidance from the contract, and
// whether it is sanitized) and one With method per field. NewX(...).
// WithTool("t").WithRetryAfter(d) builds an envelope without option closures
// or extra allocations; the setters of no contract field are the runtime's.
func (g *gen) setters(f *jen.File) {
	f.Line()
	if g.lo.FillsGuidance() {
		f.Comment("// WithGuidance replaces the contract's default guidance with advice specific")
		f.Comment("// to this failure. Blank guidance (empty, or only white space) brings back the")
		f.Comment("// contract's: an envelope never carries empty advice.")
	} else {
		f.Comment("// WithGuidance sets advice specific to this failure. The layout carries guidance only")
		f.Comment("// when the producer gives it: the constructors leave it empty, never filling in")
		f.Comment("// the contract's, and empty (or blank) guidance is left off the wire.")
	}
	guidance := jen.Id("guidance")
	if g.sanitized("guidance") {
		f.Comment("// The guidance is sanitized (Sanitize); assign e.Recovery.Guidance for trusted text.")
		guidance = jen.Id("Sanitize").Call(jen.Id("guidance"))
	}
	// Blank advice is never emitted: where the layout fills guidance from the
	// contract, the contract's comes back; where it carries only the
	// producer's own, there is none.
	instead := jen.Lit("")
	if g.lo.FillsGuidance() {
		instead = jen.Id("Lookup").Call(jen.Id("e").Dot("Kind")).Dot("Guidance")
	}
	f.Func().Params(envRecv()).Id("WithGuidance").Params(jen.Id("guidance").String()).Op("*").Id("Envelope").Block(
		jen.Id("e").Dot("Recovery").Dot("Guidance").Op("=").Add(guidance),
		jen.If(jen.Id("blank").Call(jen.Id("e").Dot("Recovery").Dot("Guidance"))).Block(
			jen.Id("e").Dot("Recovery").Dot("Guidance").Op("=").Add(instead),
		),
		jen.Return(jen.Id("e")),
	)
	for _, fl := range g.c.EnvelopeFields {
		f.Line()
		f.Commentf("// With%s sets %s.", fl.Idents.Go, fl.Name)
		if g.lo.RequiredLeaf(fl) != nil {
			f.Commentf("// Every envelope carries it: set empty, the envelope does not encode.")
		}
		if g.sanitized(fl.Name) {
			f.Commentf("// The value is sanitized (Sanitize, every string of it; the caller's value is")
			f.Commentf("// not modified); assign e.%s for trusted text.", fl.Idents.Go)
		}
		f.Func().Params(envRecv()).Id("With"+fl.Idents.Go).Params(jen.Id("v").Add(paramType(g, fl))).Op("*").Id("Envelope").Block(
			g.assign(fl, "v"),
			jen.Return(jen.Id("e")),
		)
	}
}

// constructors emits New, NewTrusted and init, and the placeholder of the
// per-kind constructors.
func (g *gen) constructors(f *jen.File) {
	// The constructors are small wrappers that inline, so an envelope that
	// does not escape its caller (built, encoded, dropped) lives on the
	// caller's stack. The work, Lookup and Sanitize included, is done out of
	// line by an init method filling the new envelope in place. (Returning
	// the envelope by value and copying it into the new one instead would
	// cost an escaping envelope a bulk write barrier while the GC runs.)
	newDoc := "New returns an envelope of any kind, classified by Lookup: a kind the contract does not list gets the fallback classification. Prefer the per-kind constructors, which also take the kind's required fields."
	if g.sanitized("message") {
		newDoc += " The message is sanitized (Sanitize), since error text so often comes from upstreams; NewTrusted skips that for text the program wrote itself."
	}
	docf(f, newDoc, g.requiredDoc(), g.guidanceDoc())
	f.Func().Id("New").Params(g.newParams()...).Op("*").Id("Envelope").Block(
		wrapInit("init", g.initArgs(jen.Id("kind"), true)...)...)
	f.Line()
	example := "e.Message = s"
	for _, fl := range g.c.EnvelopeFields {
		if g.sanitized(fl.Name) {
			example = "e." + fl.Idents.Go + " = s"
			break
		}
	}
	docf(f, "NewTrusted is New without sanitizing the message: for text the program wrote itself, never for text that came from an upstream. It is the opt-out of the sanitizing default, with assigning an exported field directly ("+example+"): the constructors and With methods sanitize the values named in SanitizedFields ("+strings.Join(g.c.Sanitize.Fields, ", ")+"), a plain assignment does not. Decoding (UnmarshalJSON and every reader) sanitizes every text it reads, listed or not; UnmarshalJSONRaw is its opt-out.")
	f.Func().Id("NewTrusted").Params(g.newParams()...).Op("*").Id("Envelope").Block(
		wrapInit("init", g.initArgs(jen.Id("kind"), false)...)...)
	f.Line()
	g.initMethod(f)
	// The per-kind constructors are written pre-formatted (see
	// constructorsSpliced); the placeholder holds their place.
	if len(g.c.Kinds) > 0 {
		f.Line()
		f.Var().Id(placeholderConstructors).Int()
	}
}

// newParams are the parameters of New and NewTrusted: the kind, the
// message and the context fields the layout requires.
func (g *gen) newParams() []jen.Code {
	params := []jen.Code{jen.Id("kind").Id("Kind"), jen.Id("message").String()}
	for _, f := range g.c.RequiredContext {
		params = append(params, jen.Id(f.Idents.GoLocal).String())
	}
	return params
}

// initSanitizes reports whether init takes whether to sanitize: when it
// fills a value the contract sanitizes (the message, a required context
// field).
func (g *gen) initSanitizes() bool {
	if g.sanitized("message") {
		return true
	}
	for _, f := range g.c.RequiredContext {
		if g.sanitized(f.Name) {
			return true
		}
	}
	return false
}

// initMethod emits init, which every constructor calls: it fills a new
// (zero) envelope with the kind, the message, the required context and the
// defaults of the kind's classification.
func (g *gen) initMethod(f *jen.File) {
	taken := map[string]bool{"e": true, "kind": true, "message": true}
	for _, rf := range g.c.RequiredContext {
		taken[rf.Idents.GoLocal] = true
	}
	// The locals must not take a parameter's name.
	local := func(name string) string {
		for taken[name] {
			name += "_"
		}
		taken[name] = true
		return name
	}
	params := []jen.Code{jen.Id("kind").Id("Kind"), jen.Id("message").String()}
	for _, rf := range g.c.RequiredContext {
		params = append(params, jen.Id(rf.Idents.GoLocal).String())
	}
	var body []jen.Code
	required := len(g.c.RequiredContext) > 0
	if g.initSanitizes() {
		sanitize := local("sanitize")
		params = append(params, jen.Id(sanitize).Bool())
		var clean []jen.Code
		if g.sanitized("message") {
			clean = append(clean, jen.Id("message").Op("=").Id("Sanitize").Call(jen.Id("message")))
		}
		for _, rf := range g.c.RequiredContext {
			if g.sanitized(rf.Name) {
				p := rf.Idents.GoLocal
				clean = append(clean, jen.Id(p).Op("=").Id("Sanitize").Call(jen.Id(p)))
			}
		}
		body = append(body, jen.If(jen.Id(sanitize)).Block(clean...))
		if required {
			f.Comment("// init fills a new (zero) envelope with kind, the message and the required")
			f.Comment("// context, each sanitized when sanitize is set and the contract lists it,")
			f.Comment("// and the defaults of kind's classification. It keeps the constructors")
			f.Comment("// small enough to inline, so an envelope that does not escape its caller")
			f.Comment("// stays on the caller's stack.")
		} else {
			f.Comment("// init fills a new (zero) envelope with kind, the message, sanitized when")
			f.Comment("// sanitize is set, and the defaults of kind's classification. It keeps the")
			f.Comment("// constructors small enough to inline, so an envelope that does not escape")
			f.Comment("// its caller stays on the caller's stack.")
		}
	} else {
		if required {
			f.Comment("// init fills a new (zero) envelope with kind, the message, the required")
			f.Comment("// context and the defaults of kind's classification. It keeps the")
			f.Comment("// constructors small enough to inline, so an envelope that does not")
			f.Comment("// escape its caller stays on the caller's stack.")
		} else {
			f.Comment("// init fills a new (zero) envelope with kind, the message and the defaults")
			f.Comment("// of kind's classification. It keeps the constructors small enough to")
			f.Comment("// inline, so an envelope that does not escape its caller stays on the")
			f.Comment("// caller's stack.")
		}
	}
	cl := local("c")
	body = append(body,
		jen.Id(cl).Op(":=").Id("Lookup").Call(jen.Id("kind")),
		jen.Id("e").Dot("ContractVersion").Op("=").Id("ContractVersion"),
		jen.Id("e").Dot("Kind").Op("=").Id("kind"),
		jen.Id("e").Dot("Message").Op("=").Id("message"),
		jen.If(jen.Id("blank").Call(jen.Id("message"))).Block(jen.Id("e").Dot("Message").Op("=").Id("messageOr").Call(jen.Id("kind"), jen.Id("message"))),
		jen.Id("e").Dot("Origin").Op("=").Id(cl).Dot("Origin"),
		jen.Id("e").Dot("Recovery").Dot("Action").Op("=").Id(cl).Dot("Action"),
		jen.Id("e").Dot("Recovery").Dot("SameArguments").Op("=").Id(cl).Dot("SameArguments"),
	)
	if g.lo.FillsGuidance() {
		body = append(body, jen.Id("e").Dot("Recovery").Dot("Guidance").Op("=").Id(cl).Dot("Guidance"))
	} else {
		body = append(body, jen.Comment("// Guidance stays empty: the layout carries only the producer's own advice."))
	}
	body = append(body, jen.Id("e").Dot("SideEffects").Op("=").Id(cl).Dot("SideEffects"))
	for _, rf := range g.c.RequiredContext {
		body = append(body, jen.Id("e").Dot(rf.Idents.Go).Op("=").Id(rf.Idents.GoLocal))
	}
	f.Func().Params(jen.Id("e").Op("*").Id("Envelope")).Id("init").Params(params...).Block(body...)
}

// requiredDoc says what the constructors do with the required context, or
// nothing.
func (g *gen) requiredDoc() string {
	if len(g.c.RequiredContext) == 0 {
		return ""
	}
	names := make([]string, len(g.c.RequiredContext))
	for i, f := range g.c.RequiredContext {
		names[i] = f.Idents.GoLocal
	}
	return "Every envelope carries " + list(names) + ", which the layout requires: given empty, the envelope does not encode (AppendJSON and MarshalJSON return an error, WriteHTTP sends no body)."
}

// guidanceDoc says where a constructed envelope's guidance comes from when
// it is not the contract's.
func (g *gen) guidanceDoc() string {
	if g.lo.FillsGuidance() {
		return ""
	}
	return "The guidance is left empty, since the layout carries only advice the producer gives: set it with WithGuidance."
}

// list joins names as prose: "a", "a and b", "a, b and c".
func list(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// wrapInit is the body of a constructor: a new envelope filled in by the
// init method named.
func wrapInit(init string, args ...jen.Code) []jen.Code {
	return []jen.Code{
		jen.Id("e").Op(":=").New(jen.Id("Envelope")),
		jen.Id("e").Dot(init).Call(args...),
		jen.Return(jen.Id("e")),
	}
}

// initArgs are the arguments of a call of init: the kind, the message, the
// required context and, when init sanitizes, whether to.
func (g *gen) initArgs(kind jen.Code, sanitize bool) []jen.Code {
	args := []jen.Code{kind, jen.Id("message")}
	for _, f := range g.c.RequiredContext {
		args = append(args, jen.Id(f.Idents.GoLocal))
	}
	if g.initSanitizes() {
		args = append(args, jen.Lit(sanitize))
	}
	return args
}

// emptyRequired reports whether a nil value of the required field rf is
// replaced by an empty one.
func emptyRequired(rf *contract.Field) bool {
	return rf.HasEmptyValue()
}

func (g *gen) constructorDoc(k *contract.Kind) string {
	return fmt.Sprintf("New%s returns a %s envelope. %s", k.Idents.Go, k.Name, k.Description)
}

// constructorsSpliced writes the per-kind constructors, a blank line
// between kinds, as text: the one form they are written in. Their code is a
// fixed pattern gofmt has nothing to change in (one statement a line, no
// alignment, lines never wrapped); only the doc comment is rewritten by
// go/doc/comment. A doc comment of plain lines (plainDocLine) comes out as
// it went in, as nearly every kind's does; any other kind's constructor goes
// through go/format on its own.
func (g *gen) constructorsSpliced() []splice {
	if len(g.c.Kinds) == 0 {
		return nil
	}
	return []splice{{"var " + placeholderConstructors + " int", func(b *bytes.Buffer) bool {
		for i, k := range grown(b, g.c.Kinds) {
			if i > 0 {
				b.WriteByte('\n')
			}
			start := b.Len()
			if !g.writeConstructor(b, k) {
				out := formatConstructor(k, b.Bytes()[start:])
				b.Truncate(start)
				b.Write(out)
			}
		}
		return false
	}}}
}

// writeConstructor writes k's constructor, and for a kind with required
// fields the init method behind it, as gofmt prints them but for the doc
// comment, which it writes as commentLines does. It reports whether
// go/doc/comment leaves that comment alone (each paragraph one plain line),
// so that the text needs no go/format.
func (g *gen) writeConstructor(b *bytes.Buffer, k *contract.Kind) (plain bool) {
	doc := commentLines(g.constructorDoc(k))
	plain = len(doc) == 1 && plainDocLine(doc[0])
	if s := g.sanitizesDoc(k); s != "" {
		more := commentLines(s)
		plain = plain && len(more) == 1 && plainDocLine(more[0])
		doc = append(append(doc, "//"), more...)
	}
	for _, l := range doc {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	initCall := func(b *bytes.Buffer) {
		b.WriteString("\te.init(")
		b.WriteString(kindConst(k))
		b.WriteString(", message")
		for _, rf := range g.c.RequiredContext {
			b.WriteString(", ")
			b.WriteString(rf.Idents.GoLocal)
		}
		if g.initSanitizes() {
			b.WriteString(", true)\n")
		} else {
			b.WriteString(")\n")
		}
	}
	name := k.Idents.Go
	required := k.RequiredFields()
	b.WriteString("func New")
	b.WriteString(name)
	g.writeParams(b, required)
	b.WriteString(") *Envelope {\n\te := new(Envelope)\n")
	if len(required) == 0 {
		// Not New(kind, message): the extra level of inlining would cost
		// the constructor its place under the inlining budget.
		initCall(b)
		b.WriteString("\treturn e\n}\n")
		return plain
	}
	b.WriteString("\te.init")
	b.WriteString(name)
	b.WriteString("(message")
	for _, rf := range g.c.RequiredContext {
		b.WriteString(", ")
		b.WriteString(rf.Idents.GoLocal)
	}
	for _, rf := range required {
		b.WriteString(", ")
		b.WriteString(rf.Idents.GoLocal)
	}
	// The compiler must not inline the init method back: the constructor
	// would outgrow the inlining budget.
	b.WriteString(")\n\treturn e\n}\n\n// init")
	b.WriteString(name)
	b.WriteString(" fills a new envelope for New")
	b.WriteString(name)
	b.WriteString(".\n// It is not inlined, so that New")
	b.WriteString(name)
	b.WriteString(" is.\n//\n//go:noinline\nfunc (e *Envelope) init")
	b.WriteString(name)
	g.writeParams(b, required)
	b.WriteString(") {\n")
	initCall(b)
	for _, rf := range required {
		p := rf.Idents.GoLocal
		if emptyRequired(rf) {
			// A required collection is present even when empty, so the
			// wire always carries it.
			b.WriteString("\tif ")
			b.WriteString(p)
			b.WriteString(" == nil {\n\t\t")
			b.WriteString(p)
			b.WriteString(" = ")
			b.WriteString(g.goTypeText(rf))
			b.WriteString("{}\n\t}\n")
		}
		b.WriteByte('\t')
		b.WriteString(g.assignText(rf, p))
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return plain
}

// formatConstructor formats the text of k's constructor on its own, as
// go/format would inside the file, and returns its lines.
func formatConstructor(k *contract.Kind, text []byte) []byte {
	const pkg = "package p\n\n"
	out, err := format.Source(append([]byte(pkg), text...))
	if err != nil {
		// The same code formats inside the whole file; this would be a bug
		// in this file.
		panic(fmt.Sprintf("gengo: the constructor of %s does not format: %v\n%s", k.Name, err, text))
	}
	if !bytes.HasPrefix(out, []byte(pkg)) {
		panic(fmt.Sprintf("gengo: the constructor of %s formats with a header:\n%s", k.Name, out))
	}
	return out[len(pkg):]
}

// goTypeText, paramTypeText and assignText are goType, paramType and assign
// as gofmt prints them, for writeConstructor.
func (g *gen) goTypeText(f *contract.Field) string {
	switch f.Type {
	case contract.TypeInteger, contract.TypeNumber, contract.TypeBoolean:
		return "*" + elemTypeText(f.Type)
	case contract.TypeArray:
		return "[]" + elemTypeText(f.Items)
	case contract.TypeObject:
		if len(f.Properties) > 0 {
			return "*" + g.structName(f)
		}
	}
	return elemTypeText(f.Type)
}

// writeParams writes a constructor's parameter list after "(": the message,
// the required context, then each required field with its Go type.
func (g *gen) writeParams(b *bytes.Buffer, required []*contract.Field) {
	b.WriteString("(message string")
	for _, rf := range g.c.RequiredContext {
		b.WriteString(", ")
		b.WriteString(rf.Idents.GoLocal)
		b.WriteString(" string")
	}
	for _, rf := range required {
		b.WriteString(", ")
		b.WriteString(rf.Idents.GoLocal)
		b.WriteByte(' ')
		b.WriteString(g.paramTypeText(rf))
	}
}

func (g *gen) paramTypeText(f *contract.Field) string {
	if f.Type == contract.TypeArray || f.Type == contract.TypeObject {
		return g.goTypeText(f)
	}
	return elemTypeText(f.Type)
}

func elemTypeText(t contract.FieldType) string {
	switch t {
	case contract.TypeString:
		return "string"
	case contract.TypeInteger:
		return "int64"
	case contract.TypeNumber:
		return "float64"
	case contract.TypeBoolean:
		return "bool"
	case contract.TypeObject:
		return "map[string]any"
	}
	panic("gengo: unhandled type " + t)
}

func (g *gen) assignText(f *contract.Field, p string) string {
	dst := "e." + f.Idents.Go + " = "
	switch f.Type {
	case contract.TypeInteger, contract.TypeNumber, contract.TypeBoolean:
		return dst + "&" + p
	}
	if !g.sanitized(f.Name) {
		return dst + p
	}
	switch fn, method := sanitizer(f); {
	case fn == "":
		return dst + p
	case method:
		return dst + p + "." + fn + "()"
	default:
		return dst + fn + "(" + p + ")"
	}
}

// sanitizesDoc says, in one paragraph, what a per-kind constructor
// sanitizes and which context it requires, or nothing.
func (g *gen) sanitizesDoc(k *contract.Kind) string {
	var names, required []string
	if g.sanitized("message") {
		names = append(names, "message")
	}
	for _, rf := range g.c.RequiredContext {
		required = append(required, rf.Idents.GoLocal)
		if g.sanitized(rf.Name) {
			names = append(names, rf.Idents.GoLocal)
		}
	}
	for _, rf := range k.RequiredFields() {
		if g.sanitized(rf.Name) {
			names = append(names, rf.Idents.GoLocal)
		}
	}
	var out []string
	if len(names) > 0 {
		out = append(out, "It sanitizes "+list(names)+" (Sanitize); NewTrusted and plain assignment are the opt-out for trusted text.")
	}
	if len(required) > 0 {
		out = append(out, "Every envelope carries "+list(required)+": given empty, the envelope does not encode.")
	}
	return strings.Join(out, " ")
}
