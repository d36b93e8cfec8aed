// Package runtimedata is the runtime description: every table and policy
// the generated runtimes read (the classifications, the wire layout, the
// field specs, the inbound classifiers, the retry and sanitizer policies,
// NextStep's tables, the short form, the surfaces' tables), built once per
// contract from the model as language-neutral values. Each language's
// emitter prints them with its Printer (TypeScript, Python, Rust and Go here; a new
// language adds one printer) and only names them: the facts are decided
// here, once.
//
// A value is nil (null, None), a bool, an int, an int64, a float64, a
// string, or one of the types below. Record keys are the names the
// runtimes read, in snake_case: a printer spells them in its language's
// style. Map keys are data (kind names, statuses), printed as they are.
package runtimedata

import (
	"math"
	"strconv"
	"strings"

	"github.com/errgen/errgen/internal/contract"
)

// Value is one of the types the package doc lists.
type Value = any

// List is an ordered sequence: an array in TypeScript, a tuple in Python.
type List []Value

// Set is a set of values the runtime tests membership in: an array in
// TypeScript, a frozenset in Python.
type Set []Value

// Map maps data keys (strings, or Local names) to values, in order.
type Map []Entry

// Entry is one member of a Map.
type Entry struct {
	Key   Value // a string or a Local
	Value Value
}

// Record is a value with named members the runtime reads. Type names the
// runtime's type a language that has constructors builds it with (Python's
// Classification(...)); "" for a plain mapping.
type Record struct {
	Type   string
	Fields []Field
	// Sorted: TypeScript prints the members in the alphabetical order of
	// their camelCase names (its RETRY table has always been written so);
	// Python keeps the order of Fields.
	Sorted bool
	// Row: the record is one row of a table (a List of rows) that Python's
	// runtime unpacks by position and Rust's reads as a struct: Python
	// prints it as a tuple of its members' values, Rust as a struct literal
	// on one line. TypeScript prints it as any record.
	Row bool
}

// Get returns the value of the member named name, nil when it has none: an
// emitter that prints a row as code of its own (Go's) reads it so.
func (r Record) Get(name string) Value {
	for _, f := range r.Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return nil
}

// Lang is a set of languages whose runtimes read a member the others' do
// not.
type Lang int

const (
	// All is every language.
	All        Lang = 0
	TypeScript Lang = 1 << iota
	Python
	Rust
	Go
)

// Field is one member of a Record.
type Field struct {
	Name  string // snake_case
	Value Value
	// Sparse: a language whose tables leave zero values out (TypeScript's,
	// as JSON's omitempty did) leaves the member out when it is false, ""
	// or empty; Python's tables keep it.
	Sparse bool
	// Only names the languages whose runtimes read the member (All: every
	// language's): the runtimes' layout, field-spec and AIP-193 tables
	// differ in these, and the output stays as each runtime reads it.
	Only Lang
}

// For reports whether the runtime of language l reads the member.
func (f Field) For(l Lang) bool { return f.Only == All || f.Only&l != 0 }

// Local is the member name a language gives a field or layout leaf
// (TSLocal, PythonLocal).
type Local struct{ Idents *contract.Idents }

// Class is the class a language declares for an object field with
// properties, or null when it declares none (Python's field specs name it).
type Class struct{ Field *contract.Field }

// Strings is a List of the strings.
func Strings(s []string) List {
	l := make(List, len(s))
	for i, x := range s {
		l[i] = x
	}
	return l
}

// Printer prints a Value as a literal of its language, indented as a data
// table at the top level of a module.
type Printer interface {
	Print(v Value) string
}

// zero reports whether a Sparse member is left out.
func zero(v Value) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case string:
		return v == ""
	case List:
		return len(v) == 0
	case Set:
		return len(v) == 0
	}
	return false
}

// camel spells a snake_case member name in camelCase: same_arguments ->
// sameArguments.
func camel(name string) string {
	if !strings.Contains(name, "_") {
		return name
	}
	parts := strings.Split(name, "_")
	for i := 1; i < len(parts); i++ {
		if p := parts[i]; p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "")
}

// printWith prints v with a printer's write method, from no indent.
func printWith(write func(b *strings.Builder, v Value, indent string), v Value) string {
	var b strings.Builder
	write(&b, v, "")
	return b.String()
}

// printedSize is about the size of v printed at nesting depth depth, one
// member a line indented by four spaces a level: each string's bytes and
// quotes, each member's indent, name and punctuation, a short guess for
// every other value. A little above what Python's printer writes for the
// tables (escapes aside), so that its buffer is allocated once.
func printedSize(v Value, depth int) int {
	switch v := v.(type) {
	case string:
		return len(v) + 2
	case List:
		n := 3
		for _, x := range v {
			n += 2 + printedSize(x, depth)
		}
		return n
	case Set:
		n := 12
		for _, x := range v {
			n += 2 + printedSize(x, depth)
		}
		return n
	case Map:
		n := 3 + 4*depth
		for _, e := range v {
			n += 4*depth + 8 + printedSize(e.Key, depth+1) + printedSize(e.Value, depth+1)
		}
		return n
	case Record:
		n := len(v.Type) + 3 + 4*depth
		for _, f := range v.Fields {
			n += 4*depth + 8 + len(f.Name) + printedSize(f.Value, depth+1)
		}
		return n
	}
	return 8
}

// scalarLiteral is a null, a bool or a number as Python and Rust write it,
// given the language's words for null, true and false; ok is false for
// every other value. An integer is decimal; a float is the shortest form
// that reads back exactly, with ".0" added where that form would read as
// an integer. Only finite numbers have a literal: the model holds no other.
func scalarLiteral(v Value, null, yes, no string) (text string, ok bool) {
	switch v := v.(type) {
	case nil:
		return null, true
	case bool:
		if v {
			return yes, true
		}
		return no, true
	case int:
		return strconv.Itoa(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			panic("runtimedata: not a finite number")
		}
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s, true
	}
	return "", false
}

// SizeHint foresees, roughly, the bytes of v printed as a data table: an
// emitter sizes the buffer of a module that holds it.
func SizeHint(v Value) int { return sizeHint(v, 0) }

// sizeHint foresees, roughly, the bytes of v printed at depth as a
// printer of indented data tables prints it: the printers allocate their
// buffer at about the final size once instead of doubling it from nothing
// (a 10,000-kind classification table is megabytes).
func sizeHint(v Value, depth int) int {
	member := 2*depth + 4
	switch v := v.(type) {
	case string:
		return len(v) + 2
	case Local:
		return len(v.Idents.TSLocal) + 2
	case List:
		return listHint(v, depth)
	case Set:
		return listHint(v, depth)
	case Map:
		n := 2
		for _, e := range v {
			n += member + sizeHint(e.Key, 0) + sizeHint(e.Value, depth+1)
		}
		return n
	case Record:
		n := 2 + len(v.Type)
		for _, f := range v.Fields {
			n += member + len(f.Name) + sizeHint(f.Value, depth+1)
		}
		return n
	}
	return 6 // a number, a boolean or null
}

func listHint(v []Value, depth int) int {
	n := 2
	for _, x := range v {
		n += 2*depth + 4 + sizeHint(x, depth+1)
	}
	return n
}

// deeper is indent one unit deeper, where unit is four spaces or a tab: a
// slice of a constant for the depths tables reach, so the printers, which
// indent every member of every per-kind record, do not allocate for it.
func deeper(indent, unit string) string {
	const spaces, tabs = "                                                                ", "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"
	run := spaces
	if unit == "\t" {
		run = tabs
	}
	if n := len(indent) + len(unit); n <= len(run) && run[:len(indent)] == indent {
		return run[:n]
	}
	return indent + unit
}
