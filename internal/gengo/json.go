package gengo

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// The JSON codec is the runtime's (runtime/go/_src/wire.go): it follows the
// contract's layout through wireLayout, a table of the layout's fields
// numbered depth first, each spelling accepted on input after the field's
// own, and reaches the envelope's fields through accessors. json.go emits
// the table and the accessors, the only part the contract shapes. Wire
// names appear only as literals taken from the layout.

func quoted(name string) string {
	q, _ := json.Marshal(name)
	return string(q)
}

// depthOf is how deeply o is nested in the envelope, the root being 1.
func depthOf(o *contract.Object) int {
	if o.Path == "" {
		return 1
	}
	return 2 + strings.Count(o.Path, ".")
}

// The problems of an integer past contract.MaxSafeInteger (or, for the
// retry hint, negative): the same words in every language.
var (
	integerRange = fmt.Sprintf("must be an integer from -%d to %d", contract.MaxSafeInteger, contract.MaxSafeInteger)
	hintRange    = fmt.Sprintf("must be an integer from 0 to %d", contract.MaxSafeInteger)
)

// wireTable collects the rows of wireLayout and the cases of the
// accessors while the layout is walked.
type wireTable struct {
	g                    *gen
	rows                 []jen.Code
	field, write, decode []jen.Code
	objects              int
}

func (g *gen) json(f *jen.File) {
	t := &wireTable{g: g, objects: 1}
	t.write = []jen.Code{jen.Var().Err().Error(), jen.Id("s").Op(":=").Len(jen.Id("b"))}
	t.object(g.lo.Root, "s", 0)
	t.write = append(t.write, jen.Return(jen.Id("b"), jen.Nil()))
	var paths []jen.Code
	for _, o := range g.lo.Objects {
		paths = append(paths, jen.Lit(o.Path))
	}
	f.Comment("// objectPaths lists the layout's objects, so Extra keys can be placed in them.")
	f.Var().Id("objectPaths").Op("=").Index().String().Values(paths...)
	f.Line()
	f.Comment("// wireObjects is how many objects the layout has, the envelope's own included.")
	f.Const().Id("wireObjects").Op("=").Lit(t.objects)
	f.Line()
	f.Comment("// wireLayout is the contract's wire layout, which AppendJSON and UnmarshalJSON")
	f.Comment("// follow (wire.go): its fields depth first in layout order, each spelling")
	f.Comment("// accepted on input after the field's own.")
	f.Var().Id("wireLayout").Op("=").Index(jen.Lit(len(t.rows))).Id("wireSlot").Values(t.rows...)
	f.Line()
	f.Comment("// wireField points at the envelope's value of slot i of wireLayout; nil for a constant or an object.")
	f.Func().Params(recv()).Id("wireField").Params(jen.Id("i").Int()).Any().Block(
		switchOn(t.field), jen.Return(jen.Nil()))
	f.Line()
	f.Comment("// wireDecode decodes raw into the value of slot i, of no fixed shape, sanitized")
	f.Comment("// when sanitize is set; false when raw has the wrong type.")
	f.Func().Params(recv()).Id("wireDecode").Params(jen.Id("i").Int(), jen.Id("raw").Index().Byte(), jen.Id("sanitize").Bool()).Bool().Block(
		switchOn(t.decode), jen.Return(jen.False()))
	f.Line()
	f.Comment("// appendWire appends the envelope's members in layout order, then its Extra")
	f.Comment("// entries (AppendJSON).")
	f.Func().Params(recv()).Id("appendWire").Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(t.write...)
	f.Line()
	fill := g.fillUnmapped()
	f.Comment("// fillUnmapped sets what the layout leaves off the wire from the kind's")
	f.Comment("// classification, so a decoded envelope answers every question the same")
	f.Comment("// way whatever the layout.")
	if len(fill) == 0 {
		f.Func().Id("fillUnmapped").Params(jen.Op("*").Id("Envelope")).Block()
		return
	}
	f.Func().Id("fillUnmapped").Params(jen.Id("out").Op("*").Id("Envelope")).Block(fill...)
}

// switchOn switches on i between cases, if any.
func switchOn(cases []jen.Code) jen.Code {
	if len(cases) == 0 {
		return jen.Null()
	}
	return jen.Switch(jen.Id("i")).Block(cases...)
}

// object adds the rows of o's members, depth first, and their writing,
// the object's own members starting at start; from is its first slot.
func (t *wireTable) object(o *contract.Object, start string, from int) {
	state := nothingYet
	// member is where the encoder's member name goes and how it is written:
	// with its comma, unless it surely is the first (then the start given
	// is wireKnown, and the compiler drops the test), always is whether the
	// member is always written.
	member := func(name string, always bool) (jen.Code, string) {
		at, key := jen.Id(start), ","+quoted(name)+":"
		switch state {
		case nothingYet:
			at, key = jen.Id("wireKnown"), key[1:]
		case someWritten:
			at = jen.Id("wireKnown")
		}
		if always {
			state = someWritten
		} else if state == nothingYet {
			state = maybeSome
		}
		return at, key
	}
	for _, m := range o.Members {
		if lf := m.Leaf; lf != nil {
			at, key := member(lf.Name, lf.Required())
			t.write = append(t.write, t.leafWrite(lf, at, key))
			t.leaf(lf, lf.Name, lf.Path, false)
			if lf.Source == contract.SourceRetryAfterMs {
				// Only the retry hint reads other spellings; elsewhere an
				// alias is left to Extra, as it always was.
				for _, a := range lf.Aliases {
					path := a
					if o.Path != "" {
						path = o.Path + "." + a
					}
					t.leaf(lf, a, path, true)
				}
			}
			continue
		}
		child := m.Object
		at, obj := len(t.rows), t.objects
		t.rows = append(t.rows, nil)
		t.objects++
		mark, inner := fmt.Sprintf("m%d", at), fmt.Sprintf("s%d", at)
		where, key := member(child.Name, child.Required)
		t.write = append(t.write, jen.Id(mark).Op(":=").Len(jen.Id("b")),
			jen.Id("b").Op("=").Append(jen.Id("wireKey").Call(jen.Id("b"), where, jen.Lit(key)), jen.LitRune('{')),
			jen.Id(inner).Op(":=").Len(jen.Id("b")))
		t.object(child, inner, at+1)
		t.write = append(t.write, jen.Id("b").Op("=").Id("wireClose").Call(jen.Id("b"), jen.Id(mark), jen.Id(inner), jen.Lit(child.Required)))
		d := slotDict(jen.Dict{jen.Id("kind"): jen.Id("slotObject"), jen.Id("end"): jen.Lit(len(t.rows)), jen.Id("obj"): jen.Lit(obj)},
			child.Name, child.Path, child.Required, "must be a JSON object", "")
		t.rows[at] = jen.Values(d)
	}
	t.write = append(t.write, fallible(jen.Id("appendExtra").Call(jen.Id("b"), jen.Id(start), jen.Lit(o.Path), jen.Id("e").Dot("Extra"), jen.Lit(from), jen.Lit(len(t.rows)))))
}

// What the encoder knows of an object's members before the next one.
const (
	nothingYet = iota
	maybeSome
	someWritten
)

// fallible appends with call, returning its error.
func fallible(call jen.Code) jen.Code {
	return jen.If(jen.List(jen.Id("b"), jen.Err()).Op("=").Add(call), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
}

// leafWrite appends lf when present, with key as member (object).
func (t *wireTable) leafWrite(lf *contract.Leaf, at jen.Code, key string) jen.Code {
	sel, b := wireSel(lf), jen.Id("b")
	with := func(fn string, v jen.Code) jen.Code {
		return b.Clone().Op("=").Id(fn).Call(b.Clone(), at, jen.Lit(key), v)
	}
	switch lf.Source {
	case contract.SourceConst:
		raw, _ := json.Marshal(lf.Const)
		return b.Clone().Op("=").Id("wireKey").Call(b.Clone(), at, jen.Lit(key+string(raw)))
	case contract.SourceVersion:
		if !t.g.c.VersionIsText() {
			return with("wireInt", jen.Int64().Call(sel))
		}
	case contract.SourceGroup:
		sel = jen.Id("wireGroup").Call(sel, jen.Id("e").Dot("Kind"))
	case contract.SourceRetryAfterMs:
		return jen.If(sel.Clone().Op("!=").Nil()).Block(with("wireInt", jen.Op("*").Add(sel)))
	case contract.SourceRetryable, contract.SourceMayHaveRun:
		v := jen.Id("e").Dot(map[contract.Source]string{contract.SourceRetryable: "IsRetryable", contract.SourceMayHaveRun: "WorkMayHaveRun"}[lf.Source]).Call()
		if lf.Optional {
			// An optional flag is written when it was received (a received
			// false as well, so it survives a round trip) or computes true.
			return jen.If(jen.Id("v").Op(":=").Add(v), jen.Id("v").Op("||").Add(sel).Op("!=").Nil()).Block(with("wireBool", jen.Id("v")))
		}
		return with("wireBool", v)
	case contract.SourceField:
		if write, present := fieldWrite(lf, at, jen.Lit(key), sel, with); write != nil {
			if present == nil {
				return write
			}
			return jen.If(present).Block(write)
		}
	}
	// The other leaves are strings.
	if typed(lf) {
		sel = jen.String().Call(sel)
	}
	if !lf.Required() {
		return jen.If(jen.Id("v").Op(":=").Add(sel), jen.Id("v").Op("!=").Lit("")).Block(with("wireStr", jen.Id("v")))
	}
	return with("wireStr", sel)
}

// fieldWrite appends the field lf when present (nil for an optional
// string, written as any string is).
func fieldWrite(lf *contract.Leaf, at jen.Code, key, sel *jen.Statement, with func(string, jen.Code) jen.Code) (jen.Code, jen.Code) {
	f, b := lf.Field, jen.Id("b")
	name := jen.Lit(f.Idents.Go)
	set := sel.Clone().Op("!=").Nil()
	if lf.OmitsEmpty() {
		// An array the layout marks optional is left out when empty, as
		// when unset.
		set = jen.Len(sel.Clone()).Op(">").Lit(0)
	}
	switch {
	case lf.RequiredContext:
		return fallible(jen.Id("wireRequired").Call(b, at, key, sel, name, jen.Lit(lf.Path))), nil
	case f.Type == contract.TypeString:
		return nil, nil
	case f.Type == contract.TypeInteger:
		return fallible(jen.Id("wireSafeInt").Call(b, at, key, jen.Op("*").Add(sel.Clone()), name)), set
	case f.Type == contract.TypeBoolean:
		return with("wireBool", jen.Op("*").Add(sel.Clone())), set
	case f.Type == contract.TypeArray && f.Items == contract.TypeString:
		return with("wireStrs", sel.Clone()), set
	}
	return fallible(jen.Id("wireValue").Call(b, at, key, jen.Lit(lf.Path), jen.Lit(depthOf(lf.Object)), sel.Clone())), set
}

// slotDict adds to d what every row has: the name, how the decoder reports it.
func slotDict(d jen.Dict, name, path string, required bool, typeProblem, valueProblem string) jen.Dict {
	d[jen.Id("name")], d[jen.Id("path")] = jen.Lit(name), jen.Lit(path)
	if required {
		d[jen.Id("required")] = jen.True()
	}
	if typeProblem != "" {
		// A constant's value of another type is as much a rejected value.
		category := "DecodeType"
		if typeProblem == valueProblem {
			category = "DecodeValue"
		}
		d[jen.Id("typeProblem")], d[jen.Id("typeCategory")] = jen.Lit(typeProblem), jen.Id(category)
	}
	if valueProblem != "" {
		d[jen.Id("valueProblem")] = jen.Lit(valueProblem)
	}
	return d
}

// leaf adds the row of lf, spelled name at path (alias: one of its other
// spellings), and its accessor cases.
func (t *wireTable) leaf(lf *contract.Leaf, name, path string, alias bool) {
	i := jen.Lit(len(t.rows))
	d := jen.Dict{}
	set := func(k string, v jen.Code) { d[jen.Id(k)] = v }
	kind, typeProblem, valueProblem, required := "slotString", "must be a string", "", lf.Required()
	switch lf.Source {
	case contract.SourceVersion:
		if !t.g.c.VersionIsText() {
			kind, typeProblem, valueProblem = "slotVersion", "must be an integer", integerRange
		}
	case contract.SourceKind:
		valueProblem = "must not be empty"
		set("nonEmpty", jen.True())
	case contract.SourceRetryAfterMs:
		kind, typeProblem, valueProblem = "slotHint", "must be a non-negative integer", hintRange
	case contract.SourceRetryable, contract.SourceMayHaveRun:
		kind, typeProblem = "slotBool", "must be a boolean"
	case contract.SourceConst:
		raw, _ := json.Marshal(lf.Const)
		kind, required, typeProblem = "slotConstFloat", true, "must be the constant "+string(raw)
		valueProblem = typeProblem
		switch v := lf.Const.(type) {
		case string:
			kind = "slotConstString"
			set("text", jen.Lit(v))
		case bool:
			kind = "slotConstBool"
			if v {
				set("num", jen.Lit(1))
			}
		case int:
			kind = "slotConstInt"
			set("num", jen.Lit(v))
		default:
			set("num", jen.Lit(lf.Const))
		}
	case contract.SourceField:
		kind, typeProblem, valueProblem = fieldKind(lf, d)
	}
	slotDict(d, name, path, required, typeProblem, valueProblem)
	set("kind", jen.Id(kind))
	if alias {
		set("alias", jen.True())
	} else if receivedText(lf) {
		set("sanitize", jen.True())
	}
	if !alias && kind == "slotAny" {
		t.anyDecode(lf, i)
	}
	t.rows = append(t.rows, jen.Values(d))
	if sel := wireSel(lf); sel != nil {
		ptr := jen.Op("&").Add(sel)
		if typed(lf) {
			ptr = jen.Parens(jen.Op("*").String()).Parens(ptr)
		}
		t.field = append(t.field, jen.Case(i).Block(jen.Return(ptr)))
	}
}

// fieldKind is how a context or kind-specific field is read and written,
// and the problems of a value of the wrong type and of a rejected one.
func fieldKind(lf *contract.Leaf, d jen.Dict) (kind, typeProblem, valueProblem string) {
	f := lf.Field
	typeProblem = "must be " + f.TypePhrase()
	switch {
	case lf.RequiredContext:
		valueProblem = "must not be empty"
		d[jen.Id("nonEmpty")] = jen.True()
	case f.Type == contract.TypeInteger:
		valueProblem = integerRange
	}
	switch {
	case f.Type == contract.TypeString:
		return "slotString", typeProblem, valueProblem
	case f.Type == contract.TypeArray && f.Items == contract.TypeString:
		return "slotStrings", typeProblem, valueProblem
	case f.Type == contract.TypeInteger:
		return "slotInt", typeProblem, valueProblem
	case f.Type == contract.TypeBoolean:
		return "slotBool", typeProblem, valueProblem
	case f.Type == contract.TypeNumber:
		return "slotFloat", typeProblem, valueProblem
	}
	return "slotAny", typeProblem, valueProblem
}

// anyDecode adds the wireDecode case of lf, a field of no fixed shape.
func (t *wireTable) anyDecode(lf *contract.Leaf, i jen.Code) {
	v := jen.Id("e").Dot(lf.Field.Idents.Go)
	body := []jen.Code{jen.Id("ok").Op(":=").Id("decodeAny").Call(jen.Id("raw"), jen.Op("&").Add(v.Clone()))}
	if holdsText(lf.Field) {
		body = append(body, jen.If(jen.Id("sanitize")).Block(v.Clone().Op("=").Add(receivedExpr(lf.Field, v.Clone()))))
	}
	t.decode = append(t.decode, jen.Case(i).Block(append(body, jen.Return(jen.Id("ok")))...))
}

// wireSel is the envelope field a leaf is kept in; nil for a constant.
func wireSel(lf *contract.Leaf) *jen.Statement {
	e := jen.Id("e")
	switch lf.Source {
	case contract.SourceConst:
		return nil
	case contract.SourceVersion:
		return e.Dot("ContractVersion")
	case contract.SourceKind:
		return e.Dot("Kind")
	case contract.SourceMessage:
		return e.Dot("Message")
	case contract.SourceOrigin:
		return e.Dot("Origin")
	case contract.SourceAction:
		return e.Dot("Recovery").Dot("Action")
	case contract.SourceSameArguments:
		return e.Dot("Recovery").Dot("SameArguments")
	case contract.SourceGuidance:
		return e.Dot("Recovery").Dot("Guidance")
	case contract.SourceRetryAfterMs:
		return e.Dot("Recovery").Dot("RetryAfterMs")
	case contract.SourceSideEffects:
		return e.Dot("SideEffects")
	case contract.SourceField:
		return e.Dot(lf.Field.Idents.Go)
	}
	return e.Dot(lf.Idents.Go) // the group and the derived flags
}

// typed reports whether the leaf's Go type is a named string type, which
// the decoder reaches through a *string.
func typed(lf *contract.Leaf) bool {
	switch lf.Source {
	case contract.SourceKind, contract.SourceOrigin, contract.SourceAction, contract.SourceSameArguments, contract.SourceSideEffects:
		return true
	}
	return false
}

// receivedText reports whether decoding sanitizes the leaf's value: the
// message, the guidance, the kind, the enumerated values, and every field
// holding text.
func receivedText(lf *contract.Leaf) bool {
	switch lf.Source {
	case contract.SourceMessage, contract.SourceGuidance:
		return true
	case contract.SourceField:
		return holdsText(lf.Field)
	}
	return typed(lf)
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

// fillUnmapped sets what the layout leaves off the wire from the kind's
// classification.
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
