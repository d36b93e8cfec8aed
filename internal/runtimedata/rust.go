package runtimedata

import (
	"bytes"
	"fmt"
	"strconv"
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
func (p RustPrinter) Print(v Value) string {
	var b bytes.Buffer
	b.Grow(sizeHint(v, 0))
	p.write(&b, v, 0)
	return b.String()
}

// Write prints v into b, as Print would return it: a large table goes
// straight into its module, without a string of its own.
func (p RustPrinter) Write(b *bytes.Buffer, v Value) { p.write(b, v, 0) }

// rustIndent is an indent of depth levels of four spaces.
func rustIndent(b *bytes.Buffer, depth int) {
	const spaces = "                                                                "
	for n := 4 * depth; n > 0; n -= len(spaces) {
		b.WriteString(spaces[:min(n, len(spaces))])
	}
}

func (p RustPrinter) write(b *bytes.Buffer, v Value, depth int) {
	switch v := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int:
		b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(v), 10))
	case int64:
		b.Write(strconv.AppendInt(b.AvailableBuffer(), v, 10))
	case float64:
		text, _ := scalarLiteral(v, "None", "true", "false")
		b.WriteString(text)
	case string:
		writeRustLiteral(b, v, false)
	case Local:
		writeRustLiteral(b, v.Idents.RustLocal, false)
	case List:
		p.seq(b, v, depth)
	case Set:
		p.seq(b, v, depth)
	case Map:
		if len(v) == 0 {
			b.WriteString("&[]")
			return
		}
		b.WriteString("&[\n")
		for _, e := range v {
			rustIndent(b, depth+1)
			b.WriteByte('(')
			p.write(b, e.Key, depth+1)
			b.WriteString(", ")
			p.write(b, e.Value, depth+1)
			b.WriteString("),\n")
		}
		rustIndent(b, depth)
		b.WriteByte(']')
	case Record:
		typ := v.Type
		if path := p.Paths[typ]; path != "" {
			typ = path
		}
		b.WriteString(typ)
		if v.Row {
			b.WriteString(" { ")
		} else {
			b.WriteString(" {\n")
		}
		n := 0
		for _, f := range v.Fields {
			if !f.For(Rust) {
				continue
			}
			if v.Row && n > 0 {
				b.WriteString(", ")
			}
			n++
			if !v.Row {
				rustIndent(b, depth+1)
			}
			b.WriteString(f.Name)
			b.WriteString(": ")
			text, ok := "", false
			if p.Member != nil {
				text, ok = p.Member(v.Type, f.Name, f.Value)
			}
			if ok {
				b.WriteString(text)
			} else {
				p.write(b, f.Value, depth+1)
			}
			if !v.Row {
				b.WriteString(",\n")
			}
		}
		if v.Row {
			b.WriteString(" }")
			return
		}
		rustIndent(b, depth)
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("runtimedata: Rust cannot print %T", v))
	}
}

// seq writes a slice literal on one line.
func (p RustPrinter) seq(b *bytes.Buffer, v []Value, depth int) {
	b.WriteString("&[")
	for i, x := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		p.write(b, x, depth)
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

// WriteRustString writes RustString(s) into b.
func WriteRustString(b *bytes.Buffer, s string) { writeRustLiteral(b, s, false) }

func rustLiteral(s string, byteString bool) string {
	var b strings.Builder
	b.Grow(len(s) + 3)
	writeRustLiteral(&b, s, byteString)
	return b.String()
}

// writeRustLiteral writes the literal into b (a bytes.Buffer or a
// strings.Builder).
func writeRustLiteral(b interface {
	WriteByte(byte) error
	WriteString(string) (int, error)
}, s string, byteString bool) {
	if byteString {
		b.WriteByte('b')
	}
	b.WriteByte('"')
	const hex = "0123456789abcdef"
	var esc [16]byte
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if !byteString && r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(r))
		case r >= 0x20 && r < 0x7f:
			b.WriteByte(byte(r))
		case byteString:
			b.WriteString(string(append(esc[:0], '\\', 'x', hex[r>>4], hex[r&15])))
		default:
			e := strconv.AppendInt(append(esc[:0], '\\', 'u', '{'), int64(r), 16)
			b.WriteString(string(append(e, '}')))
		}
	}
	b.WriteByte('"')
}
