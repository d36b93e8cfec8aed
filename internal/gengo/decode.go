package gengo

import (
	"encoding/json"
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// The decoder reads a document once (the scanner of runtime/go/_src/codec.go) and
// switches on member names per object of the layout, storing each value
// where it goes. Every field of the layout gets a slot in a state array,
// numbered depth first in layout order, so the fields of a nested object
// are one contiguous run of slots: a later member of the same name replaces
// the object by clearing that run. Problems are reported after the scan, in
// layout order, from a generated table of paths and phrases.

// how a leaf's value is read and where it is kept until it is checked.
type readKind int

const (
	readDirect readKind = iota // straight into the envelope (strings, lists of strings)
	readTemp                   // into a local, moved into the envelope once checked
	readRaw                    // its text kept, decoded by encoding/json when checked
	readConst                  // compared with the layout's constant, not kept
)

type slot struct {
	index int
	// what the generated table holds for it
	path         string
	required     bool
	typeProblem  string
	typeCategory string // a DecodeErrorCategory constant
	valueProblem string
	// how it is read
	kind readKind
	tmp  string // the local of readTemp and readRaw
}

type decPlan struct {
	g       *gen
	slots   []*slot
	leaf    map[*contract.Leaf]*slot
	aliases map[*contract.Leaf][]*slot
	object  map[*contract.Object]*slot
	// end is one past the last slot of an object's subtree.
	end map[*contract.Object]int
	// objects numbers the layout's objects depth first, the root 0, so an
	// object and the objects inside it are a contiguous run; objectsEnd is
	// one past the last of an object's run.
	objects, objectsEnd map[*contract.Object]int
	// locals declared at the top of UnmarshalJSON
	locals []jen.Code
}

func (g *gen) planDecode() *decPlan {
	p := &decPlan{g: g, leaf: map[*contract.Leaf]*slot{}, aliases: map[*contract.Leaf][]*slot{},
		object: map[*contract.Object]*slot{}, end: map[*contract.Object]int{},
		objects: map[*contract.Object]int{}, objectsEnd: map[*contract.Object]int{}}
	p.number(g.lo.Root)
	return p
}

func (p *decPlan) add(s *slot) *slot {
	s.index = len(p.slots)
	p.slots = append(p.slots, s)
	return s
}

func (p *decPlan) number(o *contract.Object) {
	p.objects[o] = len(p.objects)
	for _, m := range o.Members {
		if m.Object != nil {
			p.object[m.Object] = p.add(&slot{path: m.Object.Path, required: m.Object.Required,
				typeProblem: "must be a JSON object", typeCategory: "DecodeType"})
			p.number(m.Object)
			continue
		}
		lf := m.Leaf
		p.leaf[lf] = p.add(p.leafSlot(lf, lf.Path))
		if lf.Source != contract.SourceRetryAfterMs {
			// Only the retry hint reads other spellings; elsewhere an alias
			// is left to Extra, as it always was.
			continue
		}
		for _, a := range lf.Aliases {
			path := a
			if lf.Object.Path != "" {
				path = lf.Object.Path + "." + a
			}
			p.aliases[lf] = append(p.aliases[lf], p.add(p.leafSlot(lf, path)))
		}
	}
	p.end[o] = len(p.slots)
	p.objectsEnd[o] = len(p.objects)
}

// The problems of an integer past contract.MaxSafeInteger (or, for the
// retry hint, negative): the same words in every language.
var (
	integerRange = fmt.Sprintf("must be an integer from -%d to %d", contract.MaxSafeInteger, contract.MaxSafeInteger)
	hintRange    = fmt.Sprintf("must be an integer from 0 to %d", contract.MaxSafeInteger)
)

// leafSlot describes a leaf (or one of its alias spellings at path).
func (p *decPlan) leafSlot(lf *contract.Leaf, path string) *slot {
	s := &slot{path: path, required: lf.Required(), typeCategory: "DecodeType"}
	n := len(p.slots)
	temp := func(typ jen.Code) {
		s.kind, s.tmp = readTemp, fmt.Sprintf("v%d", n)
		p.locals = append(p.locals, jen.Var().Id(s.tmp).Add(typ))
	}
	switch lf.Source {
	case contract.SourceVersion:
		if p.g.c.VersionIsText() {
			s.typeProblem = "must be a string"
		} else {
			s.typeProblem, s.valueProblem = "must be an integer", integerRange
			temp(jen.Int64())
		}
	case contract.SourceKind:
		s.typeProblem, s.valueProblem = "must be a string", "must not be empty"
	case contract.SourceRetryAfterMs:
		s.typeProblem, s.valueProblem = "must be a non-negative integer", hintRange
		temp(jen.Int64())
	case contract.SourceRetryable, contract.SourceMayHaveRun:
		s.typeProblem = "must be a boolean"
		temp(jen.Bool())
	case contract.SourceConst:
		raw, _ := json.Marshal(lf.Const)
		s.kind = readConst
		s.required = true
		s.typeProblem = "must be the constant " + string(raw)
		s.valueProblem = s.typeProblem
		// Any other value, whatever its type, is a rejected value.
		s.typeCategory = "DecodeValue"
	case contract.SourceField:
		f := lf.Field
		s.typeProblem = "must be " + f.TypePhrase()
		s.required = lf.RequiredContext
		switch {
		case lf.RequiredContext:
			s.valueProblem = "must not be empty"
		case f.Type == contract.TypeInteger:
			s.valueProblem = integerRange
		}
		switch {
		case f.Type == contract.TypeString, f.Type == contract.TypeArray && f.Items == contract.TypeString:
		case f.Type == contract.TypeInteger, f.Type == contract.TypeNumber, f.Type == contract.TypeBoolean:
			temp(elemType(f.Type))
		default:
			s.kind, s.tmp = readRaw, fmt.Sprintf("raw%d", n)
			p.locals = append(p.locals, jen.Var().Id(s.tmp).Index().Byte())
		}
	default: // the other sources are strings
		s.typeProblem = "must be a string"
	}
	return s
}

// dst is the envelope field a leaf decodes into.
func (p *decPlan) dst(lf *contract.Leaf) *jen.Statement {
	out := jen.Id("out")
	switch lf.Source {
	case contract.SourceVersion:
		return out.Dot("ContractVersion")
	case contract.SourceKind:
		return out.Dot("Kind")
	case contract.SourceMessage:
		return out.Dot("Message")
	case contract.SourceOrigin:
		return out.Dot("Origin")
	case contract.SourceAction:
		return out.Dot("Recovery").Dot("Action")
	case contract.SourceSameArguments:
		return out.Dot("Recovery").Dot("SameArguments")
	case contract.SourceGuidance:
		return out.Dot("Recovery").Dot("Guidance")
	case contract.SourceRetryAfterMs:
		return out.Dot("Recovery").Dot("RetryAfterMs")
	case contract.SourceSideEffects:
		return out.Dot("SideEffects")
	case contract.SourceGroup, contract.SourceRetryable, contract.SourceMayHaveRun:
		return out.Dot(lf.Idents.Go)
	case contract.SourceField:
		return out.Dot(lf.Field.Idents.Go)
	}
	panic("gengo: no destination for source " + lf.Source)
}

// typed reports whether the leaf's Go type is a named string type, which
// the scanner fills through a *string.
func typed(lf *contract.Leaf) bool {
	switch lf.Source {
	case contract.SourceKind, contract.SourceOrigin, contract.SourceAction, contract.SourceSameArguments, contract.SourceSideEffects:
		return true
	}
	return false
}

func stAt(i int) *jen.Statement { return jen.Id("st").Index(jen.Lit(i)) }

// read emits the scan-time reading of one leaf (or alias slot s).
func (p *decPlan) read(lf *contract.Leaf, s *slot) []jen.Code {
	st := stAt(s.index)
	d := jen.Id("d")
	switch s.kind {
	case readConst:
		// A string is compared as it is scanned; any other constant is
		// read as its type is and compared (constValue).
		var read string
		switch lf.Const.(type) {
		case string:
			return []jen.Code{st.Op("=").Add(d.Dot("constString").Call(jen.Lit(lf.Const)))}
		case bool:
			read = "boolean"
		case int:
			read = "integer"
		default:
			read = "float"
		}
		return []jen.Code{st.Op("=").Id("constValue").Call(d.Dot(read), jen.Lit(lf.Const))}
	case readRaw:
		return []jen.Code{jen.List(jen.Id(s.tmp), st).Op("=").Add(d.Dot("raw").Call())}
	case readTemp:
		var call *jen.Statement
		switch {
		case lf.Source == contract.SourceRetryable || lf.Source == contract.SourceMayHaveRun ||
			lf.Field != nil && lf.Field.Type == contract.TypeBoolean:
			call = d.Dot("boolean").Call(jen.Op("&").Id(s.tmp))
		case lf.Field != nil && lf.Field.Type == contract.TypeNumber:
			call = d.Dot("float").Call(jen.Op("&").Id(s.tmp))
		default:
			call = d.Dot("integer").Call(jen.Op("&").Id(s.tmp))
		}
		out := []jen.Code{st.Clone().Op("=").Add(call)}
		if lf.Source == contract.SourceRetryAfterMs {
			out = append(out, jen.If(st.Clone().Op("==").Id("stSet").Op("&&").Id(s.tmp).Op("<").Lit(0)).Block(st.Clone().Op("=").Id("stBadValue")))
		}
		return out
	}
	dst := p.dst(lf)
	if lf.Field != nil && lf.Field.Type == contract.TypeArray {
		return []jen.Code{st.Op("=").Add(d.Dot("strs").Call(jen.Op("&").Add(dst)))}
	}
	ptr := jen.Op("&").Add(dst.Clone())
	if typed(lf) {
		ptr = jen.Parens(jen.Op("*").String()).Parens(ptr)
	}
	out := []jen.Code{st.Clone().Op("=").Add(d.Dot("str").Call(ptr))}
	// The kind and a context field the layout requires are never empty.
	if lf.Source == contract.SourceKind || lf.RequiredContext {
		out = append(out, jen.If(st.Clone().Op("==").Id("stSet").Op("&&").Add(dst.Clone()).Op("==").Lit("")).Block(st.Clone().Op("=").Id("stBadValue")))
	}
	return out
}

// scan emits the loop over the members of object o, whose extras are kept
// at depth.
func (p *decPlan) scan(o *contract.Object, depth int) jen.Code {
	var cases []jen.Code
	for _, m := range o.Members {
		if lf := m.Leaf; lf != nil {
			cases = append(cases, jen.Case(jen.Lit(lf.Name)).Block(p.read(lf, p.leaf[lf])...))
			for i, a := range p.aliases[lf] {
				cases = append(cases, jen.Case(jen.Lit(lf.Aliases[i])).Block(p.read(lf, a)...))
			}
			continue
		}
		child := m.Object
		s := p.object[child]
		body := []jen.Code{stAt(s.index).Op("=").Id("d").Dot("open").Call()}
		// A later member of the same name replaces what an earlier one set.
		if s.index+1 < p.end[child] {
			body = append(body, jen.Clear(jen.Id("st").Index(jen.Lit(s.index+1), jen.Lit(p.end[child]))))
		}
		body = append(body, p.zeroDirect(child)...)
		for i := p.objects[child]; i < p.objectsEnd[child]; i++ {
			body = append(body, jen.Id("extras").Index(jen.Lit(i)).Dot("reset").Call())
		}
		body = append(body, jen.If(stAt(s.index).Op("==").Id("stSet")).Block(p.scan(child, depth+1)))
		cases = append(cases, jen.Case(jen.Lit(child.Name)).Block(body...))
	}
	cases = append(cases, jen.Default().Block(
		jen.Id("d").Dot("keep").Call(jen.Op("&").Id("extras").Index(jen.Lit(p.objects[o])), jen.Lit(o.Path), jen.Lit(depth)),
	))
	return jen.For(
		jen.Id("more").Op(":=").Id("d").Dot("first").Call(),
		jen.Id("more"),
		jen.Id("more").Op("=").Id("d").Dot("next").Call(),
	).Block(jen.Switch(jen.String().Call(jen.Id("d").Dot("key"))).Block(cases...))
}

// zeroDirect clears the envelope fields read directly inside o.
func (p *decPlan) zeroDirect(o *contract.Object) []jen.Code {
	var out []jen.Code
	for _, m := range o.Members {
		if m.Object != nil {
			out = append(out, p.zeroDirect(m.Object)...)
			continue
		}
		lf := m.Leaf
		if p.leaf[lf].kind != readDirect {
			continue
		}
		if lf.Field != nil && lf.Field.Type == contract.TypeArray {
			out = append(out, p.dst(lf).Op("=").Nil())
		} else {
			out = append(out, p.dst(lf).Op("=").Lit(""))
		}
	}
	return out
}

// report emits returning the problem of slot s unless it was set.
func report(s *slot) jen.Code {
	return jen.If(stAt(s.index).Op("!=").Id("stSet")).Block(
		jen.If(jen.Err().Op(":=").Id("decodeFields").Index(jen.Lit(s.index)).Dot("problem").Call(stAt(s.index)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	)
}

// check emits the checks of o's fields in layout order. Runs of fields
// that need nothing but their state looked at are checked by one loop.
func (p *decPlan) check(o *contract.Object) []jen.Code {
	var out []jen.Code
	run := -1 // the first slot of the pending run
	flush := func(end int) {
		switch {
		case run < 0:
			return
		case end-run == 1:
			out = append(out, report(p.slots[run]))
		default:
			out = append(out, jen.If(
				jen.Err().Op(":=").Id("firstProblem").Call(jen.Id("st").Index(jen.Lit(run), jen.Lit(end)), jen.Id("decodeFields").Index(jen.Lit(run), jen.Lit(end))),
				jen.Err().Op("!=").Nil(),
			).Block(jen.Return(jen.Err())))
		}
		run = -1
	}
	for _, m := range o.Members {
		if m.Object != nil {
			s := p.object[m.Object]
			flush(s.index)
			out = append(out, report(s), jen.If(stAt(s.index).Op("==").Id("stSet")).Block(p.check(m.Object)...))
			continue
		}
		lf := m.Leaf
		s := p.leaf[lf]
		if s.kind != readRaw && len(p.aliases[lf]) == 0 {
			if run < 0 {
				run = s.index
			}
			continue
		}
		flush(s.index)
		if s.kind == readRaw {
			out = append(out, jen.If(stAt(s.index).Op("==").Id("stSet").Op("&&").Op("!").Id("decodeAny").Call(jen.Id(s.tmp), jen.Op("&").Add(p.dst(lf)))).Block(
				stAt(s.index).Op("=").Id("stWrongType")))
		}
		out = append(out, report(s))
		// The first spelling present wins; the others are not looked at.
		for _, a := range p.aliases[lf] {
			out = append(out, jen.If(stAt(s.index).Op("!=").Id("stSet")).Block(
				report(a),
				jen.If(stAt(a.index).Op("==").Id("stSet")).Block(
					jen.List(jen.Id(s.tmp), stAt(s.index)).Op("=").List(jen.Id(a.tmp), jen.Id("stSet")),
				),
			))
		}
	}
	flush(p.end[o])
	return out
}

// assemble moves the checked locals into the envelope.
func (p *decPlan) assemble() []jen.Code {
	var out []jen.Code
	for _, lf := range p.g.lo.Leaves {
		s := p.leaf[lf]
		if s.kind != readTemp {
			continue
		}
		if lf.Source == contract.SourceVersion {
			out = append(out, p.dst(lf).Op("=").Int().Call(jen.Id(s.tmp)))
			continue
		}
		out = append(out, jen.If(stAt(s.index).Op("==").Id("stSet")).Block(
			jen.Id("v").Op(":=").Id(s.tmp),
			p.dst(lf).Op("=").Op("&").Id("v"),
		))
	}
	return out
}

// fieldsTable emits the table the checks report from.
func (p *decPlan) fieldsTable(f *jen.File) {
	var rows []jen.Code
	for _, s := range p.slots {
		d := jen.Dict{jen.Id("path"): jen.Lit(s.path)}
		if s.required {
			d[jen.Id("required")] = jen.True()
		}
		if s.typeProblem != "" {
			d[jen.Id("typeProblem")] = jen.Lit(s.typeProblem)
			d[jen.Id("typeCategory")] = jen.Id(s.typeCategory)
		}
		if s.valueProblem != "" {
			d[jen.Id("valueProblem")] = jen.Lit(s.valueProblem)
		}
		rows = append(rows, jen.Values(d))
	}
	f.Comment("// decodeFields says how UnmarshalJSON reports each field of the layout, by")
	f.Comment("// slot: the fields depth first in layout order, each spelling accepted on")
	f.Comment("// input after the field's own.")
	f.Var().Id("decodeFields").Op("=").Index(jen.Lit(len(rows))).Id("decodeField").Values(rows...)
	f.Line()
}

// unmarshal emits decode, the layout's decoder, which the runtime's
// UnmarshalJSON, UnmarshalJSONRaw and readers call (codec.go).
func (g *gen) unmarshal(f *jen.File) {
	p := g.planDecode()
	p.fieldsTable(f)
	body := []jen.Code{
		jen.Var().Id("out").Id("Envelope"),
		jen.Var().Id("st").Index(jen.Lit(len(p.slots))).Uint8(),
		// Members no field claims, per object of the layout (numbered depth
		// first), so a replaced object's are dropped without a search.
		jen.Var().Id("extras").Index(jen.Lit(len(p.objects))).Id("extraList"),
	}
	body = append(body, p.locals...)
	body = append(body,
		jen.Id("d").Op(":=").Id("newScanner").Call(jen.Id("data")),
		jen.If(jen.Err().Op(":=").Id("d").Dot("document").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		p.scan(g.lo.Root, 0),
		jen.If(jen.Id("d").Dot("end").Call(), jen.Id("d").Dot("failed")).Block(jen.Return(jen.Id("d").Dot("invalid").Call())),
	)
	body = append(body, p.check(g.lo.Root)...)
	body = append(body, p.assemble()...)
	// Sanitized before the classification is looked up, so that what
	// derives from the kind derives from the kind returned.
	if clean := p.sanitizeReceived(); len(clean) > 0 {
		body = append(body, jen.If(jen.Id("sanitize")).Block(clean...))
	}
	body = append(body, g.fillUnmapped()...)
	body = append(body,
		jen.List(jen.Id("extra"), jen.Err()).Op(":=").Id("buildExtra").Call(jen.Id("extras").Index(jen.Op(":"))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Id("sanitize")).Block(jen.Id("sanitizeExtra").Call(jen.Id("extra"))),
		jen.Id("out").Dot("Extra").Op("=").Id("extra"),
		jen.Op("*").Id("e").Op("=").Id("out"),
		jen.Return(jen.Nil()),
	)
	f.Comment("// decode is UnmarshalJSON without the size limit, sanitizing every text it")
	f.Comment("// reads when sanitize is set.")
	f.Func().Params(jen.Id("e").Op("*").Id("Envelope")).Id("decode").Params(jen.Id("data").Index().Byte(), jen.Id("sanitize").Bool()).Error().Block(body...)
}

// receivedText reports whether decoding sanitizes the leaf's value: the
// message, the guidance, and every field holding text.
func receivedText(lf *contract.Leaf) bool {
	switch lf.Source {
	case contract.SourceMessage, contract.SourceGuidance:
		return true
	case contract.SourceKind, contract.SourceOrigin, contract.SourceAction, contract.SourceSameArguments, contract.SourceSideEffects:
		return true
	case contract.SourceField:
		return holdsText(lf.Field)
	}
	return false
}

// holdsText reports whether a value of f can hold a string: a string, an
// array of strings or of objects, or an object.
func holdsText(f *contract.Field) bool {
	return isText(f) || f.Type == contract.TypeArray && f.Items == contract.TypeObject
}

// receivedExpr sanitizes v, a decoded value of the field f that holds
// text (holdsText).
func receivedExpr(f *contract.Field, v *jen.Statement) *jen.Statement {
	if f.Type == contract.TypeArray && f.Items == contract.TypeObject {
		return jen.Id("sanitizeObjects").Call(v)
	}
	return sanitizeExpr(f, v)
}

// enumTypes names the Go type of the kind and of each enumerated value.
var enumTypes = map[contract.Source]string{
	contract.SourceKind:          "Kind",
	contract.SourceOrigin:        "Origin",
	contract.SourceAction:        "RecoveryAction",
	contract.SourceSameArguments: "SameArguments",
	contract.SourceSideEffects:   "SideEffects",
}

// sanitizeReceived emits the sanitizing of a decoded envelope: every text
// value on the wire (receivedText), as the constructors sanitize one, and
// the strings of the extra members; a required field left empty is the
// value error an empty one is.
func (p *decPlan) sanitizeReceived() []jen.Code {
	g := p.g
	var out []jen.Code
	for _, lf := range g.lo.Leaves {
		if !receivedText(lf) {
			continue
		}
		dst := p.dst(lf)
		if typ, ok := enumTypes[lf.Source]; ok {
			out = append(out, dst.Clone().Op("=").Id(typ).Call(jen.Id("Sanitize").Call(jen.String().Call(dst.Clone()))))
			if lf.Source == contract.SourceKind {
				out = append(out, jen.If(dst.Clone().Op("==").Lit("")).Block(
					jen.Return(jen.Id("decodeFields").Index(jen.Lit(p.leaf[lf].index)).Dot("problem").Call(jen.Id("stBadValue"))),
				))
			}
			continue
		}
		if lf.Source != contract.SourceField {
			out = append(out, dst.Clone().Op("=").Id("Sanitize").Call(dst.Clone()))
			continue
		}
		out = append(out, dst.Clone().Op("=").Add(receivedExpr(lf.Field, dst.Clone())))
		if lf.RequiredContext {
			out = append(out, jen.If(dst.Clone().Op("==").Lit("")).Block(
				jen.Return(jen.Id("decodeFields").Index(jen.Lit(p.leaf[lf].index)).Dot("problem").Call(jen.Id("stBadValue"))),
			))
		}
	}
	return out
}
