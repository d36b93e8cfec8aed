package runtimedata

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/errgen/errgen/internal/orderedjson"
)

// TypeScriptPrinter prints values as JSON (valid TypeScript), indented by
// two spaces as json.Indent does, strings without HTML escapes, record
// members in camelCase. It writes the bytes directly: the classification
// table grows with the kinds, and reflection plus re-indenting dominated
// generating it.
type TypeScriptPrinter struct{}

// Print implements Printer.
func (p TypeScriptPrinter) Print(v Value) string {
	return string(p.write(make([]byte, 0, 256), v, ""))
}

func (p TypeScriptPrinter) write(b []byte, v Value, indent string) []byte {
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
		return p.array(b, v, indent)
	case Set:
		return p.array(b, v, indent)
	case Map:
		return p.object(b, len(v), indent, func(b []byte, i int) ([]byte, Value) {
			return p.write(b, v[i].Key, ""), v[i].Value
		})
	case Record:
		fields := make([]Field, 0, len(v.Fields))
		for _, f := range v.Fields {
			if f.For(TypeScript) && !(f.Sparse && zero(f.Value)) {
				fields = append(fields, f)
			}
		}
		if v.Sorted {
			slices.SortFunc(fields, func(x, y Field) int { return strings.Compare(camel(x.Name), camel(y.Name)) })
		}
		return p.object(b, len(fields), indent, func(b []byte, i int) ([]byte, Value) {
			return orderedjson.AppendString(b, camel(fields[i].Name), false), fields[i].Value
		})
	}
	panic(fmt.Sprintf("runtimedata: TypeScript cannot print %T", v))
}

func (p TypeScriptPrinter) array(b []byte, v []Value, indent string) []byte {
	if len(v) == 0 {
		return append(b, "[]"...)
	}
	inner := indent + "  "
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(b, '\n'), inner...)
		b = p.write(b, x, inner)
	}
	return append(append(append(b, '\n'), indent...), ']')
}

// object writes n members; member writes the i-th key and returns its value.
func (p TypeScriptPrinter) object(b []byte, n int, indent string, member func(b []byte, i int) ([]byte, Value)) []byte {
	if n == 0 {
		return append(b, "{}"...)
	}
	inner := indent + "  "
	b = append(b, '{')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(b, '\n'), inner...)
		var val Value
		b, val = member(b, i)
		b = p.write(append(b, ": "...), val, inner)
	}
	return append(append(append(b, '\n'), indent...), '}')
}
