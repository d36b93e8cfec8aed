package gengo

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/naming"
)

// The codec follows the contract's layout: one pass over the wire tree,
// emitting straight-line code per object. Wire names appear only as literals
// taken from the layout.

func quoted(name string) string {
	q, _ := json.Marshal(name)
	return string(q)
}

func appendLit(s string) jen.Code {
	return jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit(s).Op("..."))
}

func appendStr(expr jen.Code) jen.Code {
	return jen.Id("b").Op("=").Id("appendString").Call(jen.Id("b"), expr)
}

// appendAnyStmt appends a free-form value of the object at depth (the
// root is 1), returning early on error.
func appendAnyStmt(path string, depth int, expr jen.Code) jen.Code {
	return jen.If(
		jen.List(jen.Id("b"), jen.Id("err")).Op("=").Id("appendAny").Call(jen.Id("b"), jen.Lit(path), jen.Lit(depth), expr),
		jen.Err().Op("!=").Nil(),
	).Block(jen.Return(jen.Id("dst"), jen.Err()))
}

// sep tracks, while an object's members are emitted, what is known about
// what has been written since its opening brace, so commas are decided at
// generation time where possible.
type sep struct {
	start string // the variable marking the object's first member
	state int    // nothingYet, maybeSome or someWritten
}

const (
	nothingYet = iota
	maybeSome
	someWritten
)

// comma emits what must precede a member and records that one follows.
// certain is true when the member is always written.
func (s *sep) comma(certain bool) []jen.Code {
	var out []jen.Code
	switch s.state {
	case someWritten:
		out = append(out, jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(',')))
	case maybeSome:
		out = append(out, jen.If(jen.Len(jen.Id("b")).Op(">").Id(s.start)).Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(','))))
	}
	return out
}

// after records that a member was emitted, always or maybe.
func (s *sep) after(certain bool) {
	if certain {
		s.state = someWritten
	} else if s.state == nothingYet {
		s.state = maybeSome
	}
}

// member starts a member: a comma where needed, the quoted name and a colon.
// The caller calls after once the member is emitted.
func member(s *sep, name string, certain bool) []jen.Code {
	if s.state == someWritten {
		return []jen.Code{appendLit("," + quoted(name) + ":")}
	}
	return append(s.comma(certain), appendLit(quoted(name)+":"))
}

// encodeField appends one context or kind-specific field when present.
func encodeField(lf *contract.Leaf, sp *sep) jen.Code {
	f := lf.Field
	v := jen.Id("e").Dot(f.Idents.Go)
	head := member(sp, lf.Name, false)
	body := func(value ...jen.Code) []jen.Code { return append(append([]jen.Code(nil), head...), value...) }
	switch {
	case f.Type == contract.TypeString:
		return jen.If(v.Clone().Op("!=").Lit("")).Block(body(appendStr(v.Clone()))...)
	case f.Type == contract.TypeInteger:
		// Past MaxSafeInteger no decoder of the contract reads it back.
		return jen.If(v.Clone().Op("!=").Nil()).Block(append([]jen.Code{
			jen.If(jen.Op("*").Add(v.Clone()).Op(">").Id("MaxSafeInteger").Op("||").Op("*").Add(v.Clone()).Op("<").Op("-").Id("MaxSafeInteger")).Block(
				jen.Return(jen.Id("dst"), jen.Op("&").Id("EncodeError").Values(jen.Dict{jen.Id("Field"): jen.Lit(f.Idents.Go), jen.Id("Problem"): jen.Lit("is past MaxSafeInteger")}))),
		}, body(
			jen.Id("b").Op("=").Qual("strconv", "AppendInt").Call(jen.Id("b"), jen.Op("*").Add(v.Clone()), jen.Lit(10)))...)...)
	case f.Type == contract.TypeBoolean:
		return jen.If(v.Clone().Op("!=").Nil()).Block(body(
			jen.Id("b").Op("=").Qual("strconv", "AppendBool").Call(jen.Id("b"), jen.Op("*").Add(v.Clone())))...)
	}
	// An array the layout marks optional is left out when empty, as when
	// unset (lf.OmitsEmpty).
	present := v.Clone().Op("!=").Nil()
	if lf.OmitsEmpty() {
		present = jen.Len(v.Clone()).Op(">").Lit(0)
	}
	if f.Type == contract.TypeArray && f.Items == contract.TypeString {
		return jen.If(present).Block(body(
			jen.Id("b").Op("=").Id("appendStrings").Call(jen.Id("b"), v.Clone()))...)
	}
	// Numbers (NaN must fail), objects and other arrays go through encoding/json.
	return jen.If(present).Block(body(appendAnyStmt(lf.Path, depthOf(lf.Object), v.Clone()))...)
}

// depthOf is how deeply o is nested in the envelope, the root being 1.
func depthOf(o *contract.Object) int {
	if o.Path == "" {
		return 1
	}
	return 2 + strings.Count(o.Path, ".")
}

// ownedName names the generated function listing an object's own members.
func (g *gen) ownedName(o *contract.Object) string { return g.owned[o] }

// ownedNames names the owned... function of every layout object, in wire
// order: owned and the object's path in Go (ownedErrorDetails), numbered
// when two paths read the same (a_b.x and a.b.y are both AB) or an object
// is called root.
func ownedNames(lo *contract.Layout) map[*contract.Object]string {
	out := map[*contract.Object]string{}
	taken := map[string]bool{}
	for _, o := range lo.Objects {
		name := naming.FreeName("owned"+o.Idents.Go, "", func(s string) bool { return taken[s] })
		taken[name] = true
		out[o] = name
	}
	return out
}

func (g *gen) json(f *jen.File) {
	lo := g.lo
	// Which members each object owns, so Extra entries never override them.
	for _, o := range lo.Objects {
		var names []jen.Code
		for _, m := range o.Members {
			names = append(names, jen.Lit(m.Name()))
			if m.Leaf != nil {
				for _, a := range m.Leaf.Aliases {
					names = append(names, jen.Lit(a))
				}
			}
		}
		where := "the top level"
		if o.Path != "" {
			where = fmt.Sprintf("%q", o.Path)
		}
		f.Commentf("// %s reports whether k is a member of %s that the contract owns, spellings accepted on input included.", g.ownedName(o), where)
		f.Func().Id(g.ownedName(o)).Params(jen.Id("k").String()).Bool().Block(switchTrue("k", names)...)
		f.Line()
	}
	var paths []jen.Code
	for _, o := range lo.Objects {
		paths = append(paths, jen.Lit(o.Path))
	}
	f.Comment("// objectPaths lists the layout's objects, so Extra keys can be placed in them.")
	f.Var().Id("objectPaths").Op("=").Index().String().Values(paths...)
	f.Line()

	enc := []jen.Code{
		jen.If(jen.Err().Op(":=").Id("e").Dot("refusal").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("dst"), jen.Err())),
		jen.Id("b").Op(":=").Id("dst"),
		jen.Var().Id("err").Error(),
	}
	enc = append(enc, g.encodeObject(lo.Root, 0, new(int))...)
	enc = append(enc, jen.Return(jen.Id("b"), jen.Nil()))
	f.Comment("// AppendJSON appends the envelope in the contract's wire layout to dst: the")
	f.Comment("// layout's fields in order, absent optional fields left out, then Extra")
	f.Comment("// entries sorted by key, skipping any that would override a field of the")
	f.Comment("// contract. On error it returns dst unchanged: an *EncodeError for an")
	f.Comment("// envelope no decoder would read back (no kind, a negative retry hint, an")
	f.Comment("// integer past MaxSafeInteger, an empty field the layout requires), or the")
	f.Comment("// error of an Extra or free-form value encoding/json cannot encode or no")
	f.Comment("// decoder would read back (nested past MaxDepth, a number past the range of")
	f.Comment("// a 64-bit float). Appending to a reused buffer encodes without allocating.")
	f.Func().Params(jen.Id("e").Op("*").Id("Envelope")).Id("AppendJSON").Params(jen.Id("dst").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(enc...)
	f.Line()
	g.unmarshal(f)
}

// encodeObject emits the members of o. depth numbers the start marks of
// nested objects; seq numbers the marks of optional objects.
func (g *gen) encodeObject(o *contract.Object, depth int, seq *int) []jen.Code {
	sp := &sep{start: fmt.Sprintf("s%d", depth)}
	var out []jen.Code
	if o.Path == "" {
		out = append(out, jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('{')), jen.Id(sp.start).Op(":=").Len(jen.Id("b")))
	}
	for _, m := range o.Members {
		if m.Leaf != nil {
			out = append(out, g.encodeLeaf(m.Leaf, sp)...)
			sp.after(m.Leaf.Required())
			continue
		}
		child := m.Object
		*seq++
		mark := fmt.Sprintf("m%d", *seq)
		inner := fmt.Sprintf("s%d", depth+1)
		var block []jen.Code
		if !child.Required {
			block = append(block, jen.Id(mark).Op(":=").Len(jen.Id("b")))
		}
		block = append(block, member(sp, child.Name, child.Required)...)
		block = append(block, jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('{')), jen.Id(inner).Op(":=").Len(jen.Id("b")))
		block = append(block, g.encodeObject(child, depth+1, seq)...)
		if child.Required {
			block = append(block, jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('}')))
		} else {
			// An object with nothing but absent optional members is left out.
			block = append(block, jen.If(jen.Len(jen.Id("b")).Op("==").Id(inner)).Block(
				jen.Id("b").Op("=").Id("b").Index(jen.Empty(), jen.Id(mark)),
			).Else().Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('}'))))
		}
		out = append(out, jen.Block(block...))
		sp.after(child.Required)
	}
	// Extra entries of this object go last.
	out = append(out, jen.If(
		jen.List(jen.Id("b"), jen.Id("err")).Op("=").Id("appendExtra").Call(jen.Id("b"), jen.Id(sp.start), jen.Lit(o.Path), jen.Id("e").Dot("Extra"), jen.Id(g.ownedName(o))),
		jen.Err().Op("!=").Nil(),
	).Block(jen.Return(jen.Id("dst"), jen.Err())))
	if o.Path == "" {
		out = append(out, jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('}')))
	}
	return out
}

// encodeLeaf emits one leaf.
func (g *gen) encodeLeaf(lf *contract.Leaf, sp *sep) []jen.Code {
	e := jen.Id("e")
	certain := lf.Required()
	str := func(expr jen.Code) []jen.Code { return append(member(sp, lf.Name, certain), appendStr(expr)) }
	switch lf.Source {
	case contract.SourceVersion:
		if g.c.VersionIsText() {
			return str(e.Clone().Dot("ContractVersion"))
		}
		return append(member(sp, lf.Name, certain), jen.Id("b").Op("=").Qual("strconv", "AppendInt").Call(jen.Id("b"), jen.Int64().Call(e.Clone().Dot("ContractVersion")), jen.Lit(10)))
	case contract.SourceKind:
		return str(jen.String().Call(e.Clone().Dot("Kind")))
	case contract.SourceMessage:
		return str(e.Clone().Dot("Message"))
	case contract.SourceOrigin:
		return str(jen.String().Call(e.Clone().Dot("Origin")))
	case contract.SourceAction:
		return str(jen.String().Call(e.Clone().Dot("Recovery").Dot("Action")))
	case contract.SourceSameArguments:
		return str(jen.String().Call(e.Clone().Dot("Recovery").Dot("SameArguments")))
	case contract.SourceSideEffects:
		return str(jen.String().Call(e.Clone().Dot("SideEffects")))
	case contract.SourceGuidance:
		if lf.Optional {
			return []jen.Code{jen.If(e.Clone().Dot("Recovery").Dot("Guidance").Op("!=").Lit("")).Block(str(e.Clone().Dot("Recovery").Dot("Guidance"))...)}
		}
		return str(e.Clone().Dot("Recovery").Dot("Guidance"))
	case contract.SourceRetryAfterMs:
		return []jen.Code{jen.If(e.Clone().Dot("Recovery").Dot("RetryAfterMs").Op("!=").Nil()).Block(append(member(sp, lf.Name, false),
			jen.Id("b").Op("=").Qual("strconv", "AppendInt").Call(jen.Id("b"), jen.Op("*").Add(e.Clone()).Dot("Recovery").Dot("RetryAfterMs"), jen.Lit(10)))...)}
	case contract.SourceGroup:
		v := jen.Id("group")
		body := []jen.Code{
			jen.Id("group").Op(":=").Id("e").Dot(lf.Idents.Go),
			jen.If(jen.Id("group").Op("==").Lit("")).Block(jen.Id("group").Op("=").String().Call(jen.Id("Lookup").Call(jen.Id("e").Dot("Kind")).Dot("Group"))),
		}
		if lf.Optional {
			return []jen.Code{jen.Block(append(body, jen.If(v.Clone().Op("!=").Lit("")).Block(str(v.Clone())...))...)}
		}
		return []jen.Code{jen.Block(append(body, str(v.Clone())...)...)}
	case contract.SourceRetryable, contract.SourceMayHaveRun:
		method := map[contract.Source]string{contract.SourceRetryable: "IsRetryable", contract.SourceMayHaveRun: "WorkMayHaveRun"}[lf.Source]
		write := append(member(sp, lf.Name, certain), jen.Id("b").Op("=").Qual("strconv", "AppendBool").Call(jen.Id("b"), jen.Id("v")))
		body := []jen.Code{jen.Id("v").Op(":=").Id("e").Dot(method).Call()}
		if lf.Optional {
			// An optional flag is only written when it says something.
			body = append(body, jen.If(jen.Id("v")).Block(write...))
		} else {
			body = append(body, write...)
		}
		return []jen.Code{jen.Block(body...)}
	case contract.SourceConst:
		raw, _ := json.Marshal(lf.Const)
		if sp.state == someWritten {
			return []jen.Code{appendLit("," + quoted(lf.Name) + ":" + string(raw))}
		}
		return append(sp.comma(true), appendLit(quoted(lf.Name)+":"+string(raw)))
	case contract.SourceField:
		if lf.RequiredContext {
			// Required by the layout: an envelope without it is not one
			// the contract's systems accept, so it does not encode.
			v := e.Clone().Dot(lf.Field.Idents.Go)
			return append([]jen.Code{
				jen.If(v.Clone().Op("==").Lit("")).Block(jen.Return(jen.Id("dst"),
					jen.Op("&").Id("EncodeError").Values(jen.Dict{jen.Id("Field"): jen.Lit(lf.Field.Idents.Go), jen.Id("Problem"): jen.Lit("is empty, and the layout requires " + lf.Path)}))),
			}, str(v.Clone())...)
		}
		return []jen.Code{encodeField(lf, sp)}
	}
	panic("gengo: unhandled source " + lf.Source)
}

// fillUnmapped sets what the layout leaves off the wire from the kind's
// classification, so a decoded envelope answers every question the same way
// whatever the layout.
func (g *gen) fillUnmapped() []jen.Code {
	lo := g.lo
	var fill []jen.Code
	set := func(s contract.Source, dst *jen.Statement, val jen.Code) {
		if !lo.Has(s) {
			fill = append(fill, dst.Op("=").Add(val))
		}
	}
	c := jen.Id("c")
	set(contract.SourceVersion, jen.Id("out").Dot("ContractVersion"), jen.Id("ContractVersion"))
	set(contract.SourceOrigin, jen.Id("out").Dot("Origin"), c.Clone().Dot("Origin"))
	set(contract.SourceAction, jen.Id("out").Dot("Recovery").Dot("Action"), c.Clone().Dot("Action"))
	set(contract.SourceSameArguments, jen.Id("out").Dot("Recovery").Dot("SameArguments"), c.Clone().Dot("SameArguments"))
	set(contract.SourceGuidance, jen.Id("out").Dot("Recovery").Dot("Guidance"), c.Clone().Dot("Guidance"))
	set(contract.SourceSideEffects, jen.Id("out").Dot("SideEffects"), c.Clone().Dot("SideEffects"))
	if len(fill) == 0 {
		return nil
	}
	return append([]jen.Code{jen.Id("c").Op(":=").Id("Lookup").Call(jen.Id("out").Dot("Kind"))}, fill...)
}
