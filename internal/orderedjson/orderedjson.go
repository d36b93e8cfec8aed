// Package orderedjson writes JSON whose objects keep their members' order:
// the example envelopes the docs show and the conformance vectors hold are
// in wire order, which encoding/json's maps cannot keep. Its writer appends
// bytes directly, byte for byte what encoding/json writes, because the docs
// and vectors of large contracts are tens of megabytes and reflection and
// re-indenting cost most of their emitters' time.
package orderedjson

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// Member is one field of an Object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object that keeps its field order.
type Object []Member

// Ordered is a type defined over Object, such as a package's own ordered
// object with methods of its own: the writers write it as the Object it is.
type Ordered interface {
	AsObject() Object
}

// MarshalJSON writes the members in order. Strings keep <, > and & as they
// are (json.Marshal would escape them for HTML), so the examples read as
// the contract wrote them wherever they are shown.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := Marshal(m.Key)
		if err != nil {
			return nil, err
		}
		v, err := Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Marshal is json.Marshal without HTML escaping. U+2028 and U+2029 stay
// escaped, so the output is also a valid JavaScript expression.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// AppendCompact appends v as Marshal writes it. A value of a type the
// writer does not know is written by Marshal.
func AppendCompact(b []byte, v any) ([]byte, error) {
	return writer{}.append(b, v, 0)
}

// AppendIndent appends v as json.Indent(Marshal(v), "", "  ") would write
// it at nesting depth depth, escaping <, > and & when html is set. It
// reports false, with b unusable, when v holds a type it does not write
// (the caller then falls back to encoding/json).
func AppendIndent(b []byte, v any, depth int, html bool) ([]byte, bool) {
	b, err := writer{indent: true, html: html}.append(b, v, depth)
	return b, err == nil
}

// errUnknown stops an indented write at a type the writer does not know.
var errUnknown = errors.New("orderedjson: a type the indented writer does not know")

// writer is one layout of the output.
type writer struct {
	indent bool // json.Indent's layout with "  ", from the depth given
	html   bool // escape <, > and & as json.Marshal does
}

func (w writer) append(b []byte, v any, depth int) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			break // encoding/json's error
		}
		return AppendFloat(b, v), nil
	case string:
		return AppendString(b, v, w.html), nil
	case []any:
		return w.list(b, len(v), depth, func(b []byte, i int) ([]byte, error) { return w.append(b, v[i], depth+1) })
	case []string:
		if v == nil {
			return append(b, "null"...), nil
		}
		return w.list(b, len(v), depth, func(b []byte, i int) ([]byte, error) { return AppendString(b, v[i], w.html), nil })
	case Object:
		return w.object(b, v, depth)
	case Ordered:
		return w.object(b, v.AsObject(), depth)
	case json.RawMessage:
		if !w.indent {
			return append(b, v...), nil
		}
	case []byte:
		// Standard base64 in a string, as encoding/json writes a []byte.
		if v == nil {
			return append(b, "null"...), nil
		}
		return append(base64.StdEncoding.AppendEncode(append(b, '"'), v), '"'), nil
	}
	if w.indent {
		return b, errUnknown
	}
	data, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, data...), nil
}

// list appends an array of n elements, each written by elem.
func (w writer) list(b []byte, n, depth int, elem func([]byte, int) ([]byte, error)) ([]byte, error) {
	if n == 0 {
		return append(b, "[]"...), nil
	}
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = elem(w.newline(b, depth+1), i); err != nil {
			return b, err
		}
	}
	return append(w.newline(b, depth), ']'), nil
}

func (w writer) object(b []byte, o Object, depth int) ([]byte, error) {
	if len(o) == 0 {
		return append(b, "{}"...), nil
	}
	b = append(b, '{')
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(AppendString(w.newline(b, depth+1), m.Key, w.html), ':')
		if w.indent {
			b = append(b, ' ')
		}
		var err error
		if b, err = w.append(b, m.Value, depth+1); err != nil {
			return b, err
		}
	}
	return append(w.newline(b, depth), '}'), nil
}

// newline starts a line indented for depth; a compact writer starts none.
func (w writer) newline(b []byte, depth int) []byte {
	if !w.indent {
		return b
	}
	b = append(b, '\n')
	for range depth {
		b = append(b, ' ', ' ')
	}
	return b
}

// AppendFloat appends a float as encoding/json writes it.
func AppendFloat(b []byte, f float64) []byte {
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		data, _ := json.Marshal(f)
		return append(b, data...)
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

const hexDigits = "0123456789abcdef"

// Bytes repeated over a word, for AppendString's eight-byte steps.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zero has the high bit of each byte of x set where that byte is zero (and
// perhaps above one that is: only the lowest is exact).
func zero(x uint64) uint64 { return (x - ones) &^ x & highs }

// AppendString appends s as a JSON string the way Marshal writes it (no
// HTML escapes, U+2028 and U+2029 escaped, invalid UTF-8 replaced by
// U+FFFD), or with html set as json.Marshal writes it (<, > and & escaped
// too).
func AppendString(b []byte, s string, html bool) []byte {
	return append(AppendEscaped(append(b, '"'), s, html), '"')
}

// AppendEscaped appends what AppendString writes between the quotes. Where
// the byte after a cut of s is ASCII, no character straddles the cut, and
// escaping the pieces gives s escaped whole: a writer can reuse the escaped
// text of a piece written before.
//
// Like append, it may write into b's spare capacity past what it appends
// (up to eight bytes further: it stores whole words). So must AppendString.
// Pass only a b whose spare capacity holds nothing kept: never b[:k] of a
// buffer whose bytes from k on are still read.
func AppendEscaped(b []byte, s string, html bool) []byte {
	for i := 0; i < len(s); {
		// Eight bytes at a time to the next byte that needs a look: the
		// texts of a large contract's docs and vectors are tens of
		// megabytes, most of it plain ASCII, and where it is JSON text
		// quoted as a string a quote comes every few bytes. Each word is
		// stored whole into b's spare room and b extended over the bytes
		// that need no look, not copied run by run.
		if n := len(b); i+8 <= len(s) && cap(b)-n >= 8 {
			// The high bit of each byte to look at is set in bad: below
			// 0x20 (subtracting 0x20 borrows into its high bit, and it had
			// none) or from 0x80, a quote, a backslash, and with html <, >
			// or &. A bit above the lowest may be spurious (a borrow
			// carried from a byte below); the lowest is exact.
			t := s[i : i+8]
			w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
				uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
			bad := w&highs | (w-0x20*ones)&^w&highs | zero(w^'"'*ones) | zero(w^'\\'*ones)
			if html {
				bad |= zero(w^'<'*ones) | zero(w^'>'*ones) | zero(w^'&'*ones)
			}
			binary.LittleEndian.PutUint64(b[n:n+8], w)
			if bad == 0 {
				b = b[:n+8]
				i += 8
				continue
			}
			k := bits.TrailingZeros64(bad) >> 3
			b = b[:n+k]
			i += k
		}
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if c >= 0x20 && c != '"' && c != '\\' && (!html || (c != '<' && c != '>' && c != '&')) {
				b = append(b, c)
				continue
			}
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return b
}
