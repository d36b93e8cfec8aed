package runtimedata

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
)

// GoPrinter prints values as Go composite-literal expressions for the
// tables the Go runtime (runtime/go) reads. Go needs a type on every
// literal whose type the context does not give, so Typed names the
// outermost one; inside, an element of a slice or map and a map's key leave
// their type out (Go infers it), while a struct member names its type: a
// Record by its Type, anything else through Member. A Record's members are
// spelled in lower camelCase (initial_ms -> initialMs), and one that is a
// Go keyword with an underscore after it (default -> default_): the
// runtime's table types are unexported structs of the generated package. Sparse members
// that are zero are left out, as Go's zero value is the same. Local prints
// the Go field name (Idents.Go). Strings are Go-quoted and ASCII, so no
// character of a contract can end the literal or a comment.
type GoPrinter struct {
	// Member prints the value of a Record's member in a struct literal
	// (its type written out, or an enum constant); ok false leaves it to
	// the printer, which can only print scalars, Locals and Records there.
	Member func(record, member string, v Value) (text string, ok bool)
}

// Print implements Printer: v printed as Typed would with no outer type,
// which is enough for scalars and Records with a Type.
func (p GoPrinter) Print(v Value) string { return p.Typed("", v) }

// Typed prints v as a literal of the Go type typ ("map[string]int",
// "[]inboundRule"); typ is ignored for scalars and written before a
// composite's braces.
func (p GoPrinter) Typed(typ string, v Value) string {
	var b strings.Builder
	p.write(&b, v, "", typ, true)
	return b.String()
}

// write writes v; typ is the literal's type when named is true, and
// named false leaves it out (an element whose type Go infers).
func (p GoPrinter) write(b *strings.Builder, v Value, indent, typ string, named bool) {
	if text, ok := scalarLiteral(v, "nil", "true", "false"); ok {
		b.WriteString(text)
		return
	}
	open := "{"
	if named {
		open = typ + "{"
	}
	switch v := v.(type) {
	case string:
		b.WriteString(strconv.QuoteToASCII(v))
	case Local:
		b.WriteString(strconv.Quote(v.Idents.Go))
	case List:
		p.seq(b, open, []Value(v), indent)
	case Set:
		p.seq(b, open, []Value(v), indent)
	case Map:
		if len(v) == 0 {
			b.WriteString(open + "}")
			return
		}
		inner := deeper(indent, "\t")
		b.WriteString(open)
		b.WriteByte('\n')
		for _, e := range v {
			b.WriteString(inner)
			p.write(b, e.Key, inner, "", false)
			b.WriteString(": ")
			p.write(b, e.Value, inner, "", false)
			b.WriteString(",\n")
		}
		b.WriteString(indent)
		b.WriteByte('}')
	case Record:
		if named && typ == "" {
			open = v.Type + "{"
		}
		p.record(b, open, v, indent)
	default:
		panic(fmt.Sprintf("runtimedata: Go cannot print %T", v))
	}
}

// record writes a struct literal, one member a line (a Row on one line).
func (p GoPrinter) record(b *strings.Builder, open string, v Record, indent string) {
	inner := deeper(indent, "\t")
	var members []string
	for _, f := range v.Fields {
		if !f.For(Go) || (f.Sparse && zero(f.Value)) {
			continue
		}
		text, ok := "", false
		if p.Member != nil {
			text, ok = p.Member(v.Type, f.Name, f.Value)
		}
		if !ok {
			var m strings.Builder
			switch f.Value.(type) {
			case List, Set, Map:
				panic(fmt.Sprintf("runtimedata: Go needs the type of %s.%s (GoPrinter.Member)", v.Type, f.Name))
			}
			p.write(&m, f.Value, inner, "", true)
			text = m.String()
		}
		members = append(members, goMember(f.Name)+": "+text)
	}
	if v.Row || len(members) == 0 {
		b.WriteString(open + strings.Join(members, ", ") + "}")
		return
	}
	b.WriteString(open)
	b.WriteByte('\n')
	for _, m := range members {
		b.WriteString(inner + m + ",\n")
	}
	b.WriteString(indent)
	b.WriteByte('}')
}

// seq writes a slice literal: on one line when its elements are scalars,
// one element a line otherwise.
func (p GoPrinter) seq(b *strings.Builder, open string, v []Value, indent string) {
	flat := true
	for _, x := range v {
		switch x.(type) {
		case List, Set, Map, Record:
			flat = false
		}
	}
	if flat {
		b.WriteString(open)
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			p.write(b, x, indent, "", false)
		}
		b.WriteString("}")
		return
	}
	inner := deeper(indent, "\t")
	b.WriteString(open)
	b.WriteByte('\n')
	for _, x := range v {
		b.WriteString(inner)
		p.write(b, x, inner, "", false)
		b.WriteString(",\n")
	}
	b.WriteString(indent)
	b.WriteByte('}')
}

// goMember is the struct field a Record's member is read from: its name in
// lower camelCase, with an underscore after a Go keyword (default_).
func goMember(name string) string {
	name = camel(name)
	if token.IsKeyword(name) {
		return name + "_"
	}
	return name
}
