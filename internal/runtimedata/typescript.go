package runtimedata

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/errgen/errgen/internal/orderedjson"
)

// TypeScriptPrinter prints values as JSON (valid TypeScript), indented by
// two spaces as json.Indent does, strings without HTML escapes, record
// members in camelCase. It writes the bytes directly: the classification
// table grows with the kinds, and reflection plus re-indenting dominated
// generating it.
type TypeScriptPrinter struct{}

// Print implements Printer. The buffer is allocated at about the table's
// size (sizeHint): grown from nothing by doubling, the buffers of a
// 10,000-kind contract's tables cost several times their text.
func (p TypeScriptPrinter) Print(v Value) string {
	n := sizeHint(v, 0)
	return string(p.write(make([]byte, 0, n+n/8), v, 0))
}

// spaces indents: depth levels of two spaces are spaces[:2*depth], longer
// runs are built.
const spaces = "                                                                "

func indent(b []byte, depth int) []byte {
	for n := 2 * depth; n > 0; n -= len(spaces) {
		b = append(b, spaces[:min(n, len(spaces))]...)
	}
	return b
}

func (p TypeScriptPrinter) write(b []byte, v Value, depth int) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case float64:
		raw, err := json.Marshal(v)
		if err != nil {
			panic("runtimedata: " + err.Error())
		}
		return append(b, raw...)
	case string:
		return orderedjson.AppendString(b, v, false)
	case Local:
		return orderedjson.AppendString(b, v.Idents.TSLocal, false)
	case List:
		return p.array(b, v, depth)
	case Set:
		return p.array(b, v, depth)
	case Map:
		b = append(b, '{')
		for i, m := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = indent(append(b, '\n'), depth+1)
			b = p.write(b, m.Key, 0)
			b = p.write(append(b, ": "...), m.Value, depth+1)
		}
		return closeWith(b, len(v), depth, '}')
	case Record:
		fields := v.Fields
		if v.Sorted {
			fields = slices.Clone(fields)
			slices.SortFunc(fields, func(x, y Field) int { return strings.Compare(camelCached(x.Name), camelCached(y.Name)) })
		}
		b = append(b, '{')
		n := 0
		for _, f := range fields {
			if !f.For(TypeScript) || f.Sparse && zero(f.Value) {
				continue
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = indent(append(b, '\n'), depth+1)
			b = orderedjson.AppendString(b, camelCached(f.Name), false)
			b = p.write(append(b, ": "...), f.Value, depth+1)
		}
		return closeWith(b, n, depth, '}')
	}
	panic(fmt.Sprintf("runtimedata: TypeScript cannot print %T", v))
}

func (p TypeScriptPrinter) array(b []byte, v []Value, depth int) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = indent(append(b, '\n'), depth+1)
		b = p.write(b, x, depth+1)
	}
	return closeWith(b, len(v), depth, ']')
}

// closeWith ends an object or array of n members opened by the byte
// before: "{}" or "[]" when it has none, else the closing bracket on a line
// of its own at depth.
func closeWith(b []byte, n, depth int, close byte) []byte {
	if n == 0 {
		return append(b, close)
	}
	return append(indent(append(b, '\n'), depth), close)
}

// camelCached is camel, computed once per name: a table of 10,000 kinds
// asks for the same dozen member names for every kind.
func camelCached(name string) string {
	if c, ok := camels.Load(name); ok {
		return c.(string)
	}
	c := camel(name)
	camels.Store(name, c)
	return c
}

var camels sync.Map
