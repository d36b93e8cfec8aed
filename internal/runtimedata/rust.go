package runtimedata

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// RustPrinter prints values as Rust constant expressions: strings as
// string literals (non-ASCII and control characters as \u{…} escapes),
// Lists and Sets as slices (&[…]), a Map as a slice of (key, value) pairs,
// a Record with a Type as a struct literal (a Row on one line) whose
// members are printed by Member when it knows them (an enum's variant, an
// Option) and as values otherwise. Local prints the Rust field name
// (RustLocal).
type RustPrinter struct {
	// Member prints the value of a Record's member; ok false leaves it to
	// the printer.
	Member func(record, member string, v Value) (text string, ok bool)
	// Paths are the paths of the record types contract.rs does not declare
	// or import, by Type ("AipLeaf": "crate::aip193::AipLeaf").
	Paths map[string]string
}

// Print implements Printer.
func (p RustPrinter) Print(v Value) string { return printWith(p.write, v) }

func (p RustPrinter) write(b *strings.Builder, v Value, indent string) {
	if text, ok := scalarLiteral(v, "None", "true", "false"); ok {
		b.WriteString(text)
		return
	}
	switch v := v.(type) {
	case string:
		b.WriteString(RustString(v))
	case Local:
		b.WriteString(RustString(v.Idents.RustLocal))
	case List:
		p.seq(b, v, indent)
	case Set:
		p.seq(b, v, indent)
	case Map:
		if len(v) == 0 {
			b.WriteString("&[]")
			return
		}
		inner := indent + "    "
		b.WriteString("&[\n")
		for _, e := range v {
			b.WriteString(inner + "(")
			p.write(b, e.Key, inner)
			b.WriteString(", ")
			p.write(b, e.Value, inner)
			b.WriteString("),\n")
		}
		b.WriteString(indent + "]")
	case Record:
		typ, inner := v.Type, indent+"    "
		if path := p.Paths[typ]; path != "" {
			typ = path
		}
		var members []string
		for _, f := range v.Fields {
			if !f.For(Rust) {
				continue
			}
			text, ok := "", false
			if p.Member != nil {
				text, ok = p.Member(v.Type, f.Name, f.Value)
			}
			if !ok {
				var m strings.Builder
				p.write(&m, f.Value, inner)
				text = m.String()
			}
			members = append(members, f.Name+": "+text)
		}
		if v.Row {
			b.WriteString(typ + " { " + strings.Join(members, ", ") + " }")
			return
		}
		b.WriteString(typ + " {\n")
		for _, m := range members {
			b.WriteString(inner + m + ",\n")
		}
		b.WriteString(indent + "}")
	default:
		panic(fmt.Sprintf("runtimedata: Rust cannot print %T", v))
	}
}

// seq writes a slice literal on one line.
func (p RustPrinter) seq(b *strings.Builder, v []Value, indent string) {
	b.WriteString("&[")
	for i, x := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		p.write(b, x, indent)
	}
	b.WriteString("]")
}

// RustString is s as a Rust string literal: printable ASCII as it is,
// quotes and backslashes escaped, everything else as \u{…}, so the source
// stays ASCII and no character can end a comment or the literal.
func RustString(s string) string { return rustLiteral(s, false) }

// RustByteString is s as a Rust byte string literal (b"…"), escaped as
// RustString escapes, but byte by byte: every byte that is not printable
// ASCII as \xNN.
func RustByteString(s string) string { return rustLiteral(s, true) }

func rustLiteral(s string, bytes bool) string {
	var b strings.Builder
	if bytes {
		b.WriteByte('b')
	}
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if !bytes {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case bytes:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u{%x}", r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
