package tscompile

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The contract's two modules are almost all data, and compiling them is
// most of the cost of a large contract: esbuild parses a 10,000-kind
// contract.ts of 9 MB into a tree of some 200 MB only to print it again.
// gents writes their JavaScript itself instead (internal/gents/js.go),
// byte for byte as esbuild prints it; the functions here are the parts of
// esbuild's printer (v0.28, internal/js_printer, not minified, UTF-8,
// no line limit) that such a module uses: string literals, numbers, and a
// JSON value as the TypeScript printer writes it. gents's tests compare
// the result with esbuild's on every test contract and on texts chosen to
// take every branch.

// AppendString appends s as esbuild prints a string literal in an
// expression: double quotes unless the text holds more double quotes than
// single quotes or backticks, which then quote it.
func AppendString(b []byte, s string) []byte {
	if plain(s) {
		return append(append(append(b, '"'), s...), '"')
	}
	return appendQuoted(b, utf16.Encode([]rune(s)), true)
}

// plain says that esbuild prints s as it is between double quotes: no
// double quote, backslash or control character, no "</" (esbuild escapes
// the slash of "</script"), no U+2028, U+2029 or U+FEFF (it escapes those)
// and no ill-formed UTF-8 (which a Go string may hold and becomes U+FFFD).
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c == '"' || c == '\\':
			return false
		case c == '<' && i+1 < len(s) && s[i+1] == '/':
			return false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' || r == '\uFEFF' {
				return false
			}
			i += size - 1
		}
	}
	return true
}

const hexChars = "0123456789ABCDEF"

// appendQuoted is esbuild's printQuotedUTF16 and printUnquotedUTF16 for
// the options tscompile compiles with.
func appendQuoted(b []byte, text []uint16, allowBacktick bool) []byte {
	single, double, backtick := 0, 0, 0
	for i, c := range text {
		switch c {
		case '\'':
			single++
		case '"':
			double++
		case '`':
			backtick++
		case '$':
			if i+1 < len(text) && text[i+1] == '{' {
				backtick++
			}
		}
	}
	quote := byte('"')
	if double > single {
		quote = '\''
		if single > backtick && allowBacktick {
			quote = '`'
		}
	} else if double > backtick && allowBacktick {
		quote = '`'
	}
	b = append(b, quote)
	n := len(text)
	for i := 0; i < n; {
		c := text[i]
		i++
		switch c {
		case 0:
			if i < n && text[i] >= '0' && text[i] <= '9' {
				b = append(b, `\x00`...)
			} else {
				b = append(b, `\0`...)
			}
		case 7:
			b = append(b, `\x07`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			if quote == '`' {
				b = append(b, '\n')
			} else {
				b = append(b, `\n`...)
			}
		case '\r':
			b = append(b, `\r`...)
		case '\v':
			b = append(b, `\v`...)
		case 0x1B:
			b = append(b, `\x1B`...)
		case '\\':
			b = append(b, `\\`...)
		case '/':
			if i >= 2 && text[i-2] == '<' && i+6 <= n && isScript(text[i:i+6]) {
				b = append(b, '\\')
			}
			b = append(b, '/')
		case '\'', '"', '`':
			if byte(c) == quote {
				b = append(b, '\\')
			}
			b = append(b, byte(c))
		case '$':
			if quote == '`' && i < n && text[i] == '{' {
				b = append(b, '\\')
			}
			b = append(b, '$')
		case 0x2028, 0x2029, 0xFEFF:
			b = appendUnit(b, c)
		default:
			switch {
			case c <= 0x7E:
				b = append(b, byte(c))
			case utf16.IsSurrogate(rune(c)):
				if c < 0xDC00 && i < n && text[i] >= 0xDC00 && text[i] <= 0xDFFF {
					b = utf8.AppendRune(b, utf16.DecodeRune(rune(c), rune(text[i])))
					i++
				} else {
					b = appendUnit(b, c) // an unpaired surrogate
				}
			default:
				b = utf8.AppendRune(b, rune(c))
			}
		}
	}
	return append(b, quote)
}

// appendUnit appends the escape \uXXXX of one UTF-16 unit.
func appendUnit(b []byte, c uint16) []byte {
	return append(b, '\\', 'u', hexChars[c>>12], hexChars[c>>8&15], hexChars[c>>4&15], hexChars[c&15])
}

// isScript says that the six units spell "script", ASCII case ignored.
func isScript(units []uint16) bool {
	for j, want := range []byte("script") {
		c := units[j]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != uint16(want) {
			return false
		}
	}
	return true
}

// AppendNumber appends the number of the JSON number text num as esbuild
// prints it ("1e3" for 1000, "864e5" for 86400000).
func AppendNumber(b []byte, num string) []byte {
	if neg, ok := strings.CutPrefix(num, "-"); ok {
		return AppendNumber(append(b, '-'), neg)
	}
	if len(num) <= 3 && strings.Trim(num, "0123456789") == "" && (len(num) == 1 || num[0] != '0') {
		return append(b, num...) // an integer below 1000, as written
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		panic("tscompile: not a JSON number: " + num)
	}
	return appendFloat(b, v)
}

// appendFloat is esbuild's printNonNegativeFloat, not minified.
func appendFloat(b []byte, v float64) []byte {
	if v < 1000 {
		if n := int64(v); v == float64(n) {
			return strconv.AppendInt(b, n, 10)
		}
	}
	var buf [40]byte
	result := strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
	// "e+05" => "e5", "e-05" => "e-5"
	if e := bytes.LastIndexByte(result, 'e'); e != -1 {
		from, to := e+1, e+1
		switch result[from] {
		case '+':
			from++
		case '-':
			to++
			from++
		}
		for from < len(result) && result[from] == '0' {
			from++
		}
		result = append(result[:to], result[from:]...)
	}
	dot := bytes.IndexByte(result, '.')
	switch {
	case dot == 1 && result[0] == '0':
		// "0.001" => "1e-3", when shorter
		afterDot := 2
		if result[afterDot] == '0' {
			i := afterDot + 1
			for result[i] == '0' {
				i++
			}
			remaining := result[i:]
			exponent := strconv.Itoa(afterDot - i - len(remaining))
			if len(result) > len(remaining)+1+len(exponent) {
				result = append(append(append([]byte(nil), remaining...), 'e'), exponent...)
			}
		}
	case dot != -1:
		if e := bytes.LastIndexByte(result, 'e'); e != -1 {
			integer, fraction := result[:dot], result[dot+1:e]
			exp, _ := strconv.Atoi(string(result[e+1:]))
			exponent := exp - len(fraction)
			if exponent >= 0 && exponent <= 2 {
				// "1.2e1" => "12", "1.2e2" => "120"
				if len(result) >= len(integer)+len(fraction)+exponent {
					r := append(append([]byte(nil), integer...), fraction...)
					for range exponent {
						r = append(r, '0')
					}
					result = r
				}
			} else {
				// "1.2e4" => "12e3"
				exps := strconv.Itoa(exponent)
				if len(result) >= len(integer)+len(fraction)+1+len(exps) {
					result = append(append(append(append([]byte(nil), integer...), fraction...), 'e'), exps...)
				}
			}
		}
	case result[len(result)-1] == '0':
		// "1000" => "1e3", when shorter
		i := len(result) - 1
		for i > 0 && result[i-1] == '0' {
			i--
		}
		exponent := strconv.Itoa(len(result) - i)
		if len(result) > i+1+len(exponent) {
			result = append(append(result[:i:i], 'e'), exponent...)
		}
	}
	return append(b, result...)
}

// AppendJSON appends the JSON value text, as internal/runtimedata's
// TypeScript printer writes it (objects and arrays one member a line,
// indented by two spaces, which esbuild keeps), as esbuild prints it at the
// indentation the text assumes: the layout as it is, each string and
// number as esbuild writes it. Most strings need no change, and are copied.
func AppendJSON(b []byte, text string) []byte {
	var units []uint16 // scratch for the strings that change
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '"':
			end, escaped := stringEnd(text, i)
			lit := text[i:end]
			key := end < len(text) && text[end] == ':'
			if !escaped && plain(lit[1:len(lit)-1]) {
				b = append(b, lit...)
			} else {
				units = decodeJSONString(units[:0], lit)
				b = appendQuoted(b, units, !key)
			}
			i = end
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(text) && strings.IndexByte("0123456789.eE+-", text[j]) >= 0 {
				j++
			}
			b = AppendNumber(b, text[i:j])
			i = j
		default:
			j := i + 1
			for j < len(text) && text[j] != '"' && text[j] != '-' && (text[j] < '0' || text[j] > '9') {
				j++
			}
			b = append(b, text[i:j]...)
			i = j
		}
	}
	return b
}

// stringEnd returns the end of the JSON string literal at text[start] (just
// past its closing quote) and whether it holds an escape.
func stringEnd(text string, start int) (int, bool) {
	escaped := false
	for i := start + 1; i < len(text); i++ {
		switch text[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			return i + 1, escaped
		}
	}
	panic("tscompile: unterminated JSON string")
}

// decodeJSONString appends the UTF-16 units of the JSON string literal lit.
func decodeJSONString(units []uint16, lit string) []uint16 {
	s := lit[1 : len(lit)-1]
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			e := s[i+1]
			i += 2
			switch e {
			case 'b':
				units = append(units, '\b')
			case 'f':
				units = append(units, '\f')
			case 'n':
				units = append(units, '\n')
			case 'r':
				units = append(units, '\r')
			case 't':
				units = append(units, '\t')
			case 'u':
				v, err := strconv.ParseUint(s[i:i+4], 16, 16)
				if err != nil {
					panic("tscompile: bad JSON escape in " + lit)
				}
				units = append(units, uint16(v))
				i += 4
			default: // " \ /
				units = append(units, uint16(e))
			}
		case c < utf8.RuneSelf:
			units = append(units, uint16(c))
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			units = utf16.AppendRune(units, r)
			i += size
		}
	}
	return units
}
