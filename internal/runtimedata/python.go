package runtimedata

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/errgen/errgen/internal/contract"
)

// PythonPrinter prints values as Python expressions: dicts one member a
// line indented by four spaces, tuples and frozensets on one line, a
// Record with a Type as a call with keyword arguments, a Row as a tuple,
// strings as ASCII literals. Classes names the class of each object field with properties
// (see Class).
type PythonPrinter struct {
	Classes map[*contract.Field]string
}

// Print implements Printer.
func (p PythonPrinter) Print(v Value) string {
	var b strings.Builder
	// The classifications of 10,000 kinds print to about 9 MB: grown once
	// to about that instead of doubling up to it (printedSize).
	n := printedSize(v, 0)
	b.Grow(n + n/16)
	p.write(&b, v, "")
	return b.String()
}

func (p PythonPrinter) write(b *strings.Builder, v Value, indent string) {
	if text, ok := scalarLiteral(v, "None", "True", "False"); ok {
		b.WriteString(text)
		return
	}
	switch v := v.(type) {
	case string:
		p.str(b, v)
	case Local:
		p.write(b, v.Idents.PythonLocal, indent)
	case Class:
		if name := p.Classes[v.Field]; name != "" {
			p.write(b, name, indent)
		} else {
			b.WriteString("None")
		}
	case List:
		p.seq(b, "(", ")", v, indent, true)
	case Set:
		if len(v) == 0 {
			b.WriteString("frozenset()")
			return
		}
		b.WriteString("frozenset(")
		p.seq(b, "{", "}", v, indent, false)
		b.WriteString(")")
	case Map:
		p.members(b, "{", "}", len(v), indent, func(i int, inner string) {
			p.write(b, v[i].Key, inner)
			b.WriteString(": ")
			p.write(b, v[i].Value, inner)
		})
	case Record:
		fields := make([]Field, 0, len(v.Fields))
		for _, f := range v.Fields {
			if f.For(Python) {
				fields = append(fields, f)
			}
		}
		if v.Row {
			values := make([]Value, len(fields))
			for i, f := range fields {
				values[i] = f.Value
			}
			p.seq(b, "(", ")", values, indent, true)
			return
		}
		if v.Type == "" {
			p.members(b, "{", "}", len(fields), indent, func(i int, inner string) {
				p.str(b, fields[i].Name)
				b.WriteString(": ")
				p.write(b, fields[i].Value, inner)
			})
			return
		}
		b.WriteString(v.Type) // a call: members open it with "("
		p.members(b, "(", ")", len(fields), indent, func(i int, inner string) {
			b.WriteString(fields[i].Name) // a keyword argument's bare name
			b.WriteByte('=')
			p.write(b, fields[i].Value, inner)
		})
	default:
		panic(fmt.Sprintf("runtimedata: Python cannot print %T", v))
	}
}

// plainASCII reports whether strconv.QuoteToASCII leaves every byte of s
// as it is: printable ASCII, no quote and no backslash.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// str writes s as a Python string literal.
func (p PythonPrinter) str(b *strings.Builder, s string) {
	if plainASCII(s) {
		// What strconv quotes without an escape: written as it is.
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	var scratch [128]byte
	b.Write(strconv.AppendQuoteToASCII(scratch[:0], s))
}

// members writes a dict or a call, one member a line, each with a trailing
// comma; an empty dict is {}.
func (p PythonPrinter) members(b *strings.Builder, open, close string, n int, indent string, member func(i int, inner string)) {
	if n == 0 && open == "{" {
		b.WriteString("{}")
		return
	}
	inner := deeper(indent, "    ")
	b.WriteString(open)
	b.WriteByte('\n')
	for i := range n {
		b.WriteString(inner)
		member(i, inner)
		b.WriteString(",\n")
	}
	b.WriteString(indent)
	b.WriteString(close)
}

// seq writes a tuple (a trailing comma after a single element) or a set.
func (p PythonPrinter) seq(b *strings.Builder, open, close string, v []Value, indent string, tuple bool) {
	b.WriteString(open)
	for i, x := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		p.write(b, x, indent)
	}
	if tuple && len(v) == 1 {
		b.WriteString(",")
	}
	b.WriteString(close)
}
