package contract

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Contract text ends up inside Go comments and string literals, TypeScript
// and Python source, JSON Schemas, Markdown and conformance vectors. Every
// emitter escapes quotes, backslashes, comment closers and line breaks, but a
// character that is not text at all has no safe spelling everywhere: gofmt
// refuses a NUL or a byte order mark even inside a comment, and an invisible
// U+FEFF or a non-character in a description or a name only confuses whoever
// reads the generated code. So the loader rejects them, in names and in
// text alike, each at its own position, instead of every emitter escaping
// them its own way. Tab and line feed stay allowed: descriptions and
// guidance are often written as YAML block scalars.
//
// The bidirectional embedding, override and isolate controls (U+202A-202E,
// U+2066-2069) are refused too, rather than escaped: they make text display
// in another order than a compiler reads it ("Trojan Source",
// CVE-2021-42574), rustc refuses them in comments and string literals, and
// an escape would only be safe in the languages that have one for comments
// (Markdown, the docs, has none). Right-to-left text needs none of them:
// the Unicode bidirectional algorithm orders it, and the implicit marks
// (U+200E, U+200F, U+061C) stay allowed. The line and paragraph separators
// (U+2028, U+2029), which end a JavaScript line comment, are not refused:
// every emitter escapes them (internal/gengo/testdata/escaping).

// forbiddenRune says what r is when contract text must not hold it, or "".
func forbiddenRune(r rune) string {
	switch {
	case r == '\t' || r == '\n':
		return ""
	case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
		return "control character"
	case r == 0xfeff:
		return "byte order mark"
	case r >= 0xd800 && r <= 0xdfff:
		return "lone surrogate"
	case r >= 0xfdd0 && r <= 0xfdef || r&0xfffe == 0xfffe:
		return "non-character"
	case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
		return "bidirectional control"
	}
	return ""
}

// bidiNames are the bidirectional controls' abbreviations, from U+202A and
// from U+2066.
var bidiNames = map[rune]string{0x202a: "LRE", 0x202b: "RLE", 0x202c: "PDF", 0x202d: "LRO", 0x202e: "RLO",
	0x2066: "LRI", 0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI"}

// rawReported reports whether rawText reports r when it is written directly
// in the file: every forbidden character but the line breaks, which the
// YAML parser turns into line feeds.
func rawReported(r rune) bool {
	return forbiddenRune(r) != "" && r != '\n' && r != '\r' && r != 0x85
}

// controlNames are the usual abbreviations of the C0 controls and DEL, so a
// message names the character the owner may know (NUL, BEL, ESC).
var controlNames = [...]string{"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR",
	"SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"}

// describeRune is how a message names a forbidden character: "the control
// character U+0000 (NUL)".
func describeRune(r rune) string {
	what := forbiddenRune(r)
	name := ""
	switch {
	case r < 0x20:
		name = " (" + controlNames[r] + ")"
	case r == 0x7f:
		name = " (DEL)"
	case r == 0x85:
		name = " (NEL)"
	case bidiNames[r] != "":
		name = " (" + bidiNames[r] + ")"
	}
	return fmt.Sprintf("the %s U+%04X%s", what, r, name)
}

// textFix is the advice that follows "remove ..." for a kind of character.
func textFix(what string) string {
	switch what {
	case "control character":
		return "contract text may hold tabs and line breaks but no other control characters"
	case "byte order mark":
		return "it is invisible, and allowed only as the file's first character"
	case "non-character":
		return "Unicode reserves it for internal use; it is not text"
	case "bidirectional control":
		return "it makes text display in another order than compilers read it (Trojan Source), and rustc refuses it in the generated crate; right-to-left text needs no such control"
	}
	return `a YAML escape names a code point, not half of a UTF-16 pair: write the character itself, or \U and eight hex digits (\U0001F600) for one beyond U+FFFF`
}

// rawText reports every forbidden character written directly in the file
// (not as an escape), at its own line and column, counted as the YAML parser
// counts them. It returns false when one of them is a character the parser
// refuses, which it would report only as "control characters are not
// allowed" at the top of the file: the contract is then not parsed at all.
// Input that is not UTF-8 is left to the parser.
func (l *loader) rawText(data []byte) bool {
	if len(data) >= 2 && (data[0] == 0xff && data[1] == 0xfe || data[0] == 0xfe && data[1] == 0xff) {
		return true // UTF-16, which the parser decodes; text checks the values
	}
	l.rawChecked = true
	ok := true
	line, col := 1, 1
	for i := 0; i < len(data); {
		// Printable ASCII, tabs and line feeds, most of any contract,
		// need no look: only the position moves.
		if c := data[i]; c >= 0x20 && c < 0x7f || c == '\t' {
			i++
			col++
			continue
		} else if c == '\n' {
			i++
			line, col = line+1, 1
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return ok
		}
		if what := forbiddenRune(r); rawReported(r) && !(r == 0xfeff && i == 0) {
			l.problems = append(l.problems, Problem{File: l.file, Pos: Pos{Line: line, Col: col},
				Message: fmt.Sprintf("remove %s; %s", describeRune(r), textFix(what))})
			// The YAML reader accepts U+FEFF, the bidirectional
			// controls and the non-characters below U+FFFE; anything
			// else stops it.
			if !(r == 0xfeff || r >= 0xfdd0 && r <= 0xfdef || r > 0xffff || what == "bidirectional control") {
				ok = false
			}
		}
		i += size
		line, col = advance(data, i, r, line, col)
	}
	return ok
}

// lineBreak reports whether the YAML parser counts r as a line break (with
// '\r', which forms one with a following '\n').
func lineBreak(r rune) bool { return r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029 }

// advance moves a position past r, which ends at data[next], as yaml.v3
// counts lines: CR LF, CR, LF, NEL, LS and PS each end a line.
func advance(data []byte, next int, r rune, line, col int) (int, int) {
	switch {
	case r == '\r' && next < len(data) && data[next] == '\n':
		return line, col + 1 // the '\n' ends the line
	case r == '\r' || lineBreak(r):
		return line + 1, 1
	}
	return line, col + 1
}

// text checks every scalar of the document, keys included, for forbidden
// characters that escapes in double-quoted scalars produce ("\0",
// "\uFEFF"); rawText has reported those written directly. Each is reported
// where its escape is written, with the path of keys leading to it, joined
// only then: the walk visits every key of the document, and the keys of a
// depth share one slot of path's array.
func (l *loader) text(data []byte, n *yaml.Node, path []string) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			l.text(data, c, path)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			sub := path
			if k.Kind == yaml.ScalarNode {
				sub = append(path, k.Value) // names the key itself too
			}
			l.text(data, k, sub)
			if v == l.kindsNode && v != nil {
				l.problems = append(l.problems, l.kindsText...)
				continue
			}
			l.text(data, v, sub)
		}
	case yaml.ScalarNode:
		if l.rawChecked && n.Style&yaml.DoubleQuotedStyle == 0 || !hasForbidden(n.Value) {
			return
		}
		where := ""
		for _, key := range path {
			where = joinKey(where, key)
		}
		if where == "" {
			where = "the contract"
		}
		found := 0
		if l.rawChecked {
			found = l.escapes(data, n, where)
		}
		if found == 0 {
			// Input the parser decoded from UTF-16, whose positions
			// cannot be mapped back to bytes: the scalar's own position
			// still points at the text to fix.
			for i, r := range n.Value {
				if what := forbiddenRune(r); what != "" {
					l.errorf(n, "%s: remove %s, character %d of this text; %s", where, describeRune(r), utf8.RuneCountInString(n.Value[:i])+1, textFix(what))
					break
				}
			}
		}
	}
	// Aliases are checked where their anchor is defined.
}

func hasForbidden(s string) bool {
	i := 0
	for i < len(s) && (s[i] >= 0x20 && s[i] < 0x7f || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	for _, r := range s[i:] {
		if forbiddenRune(r) != "" {
			return true
		}
	}
	return false
}

// joinKey extends a dotted path of keys for messages; a key that is not a
// plain name is quoted so the path stays readable.
func joinKey(path, key string) string {
	if !plainKey(key) {
		key = fmt.Sprintf("%q", key)
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func plainKey(key string) bool {
	if key == "" {
		return false
	}
	for _, r := range key {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// escapes scans the source of the double-quoted scalar n and reports each
// escape that produces a forbidden character, at the backslash. It returns
// how many forbidden characters it found, those written directly (which
// rawText reported) included.
func (l *loader) escapes(data []byte, n *yaml.Node, where string) int {
	i, ok := offsetOf(data, n.Line, n.Column)
	if !ok || i >= len(data) || data[i] != '"' {
		return 0
	}
	found := 0
	line, col := n.Line, n.Column+1
	for i++; i < len(data); {
		if data[i] == '"' {
			break
		}
		if data[i] != '\\' || i+1 >= len(data) {
			r, size := utf8.DecodeRune(data[i:])
			if rawReported(r) {
				found++ // written directly: rawText reported it
			}
			i += size
			line, col = advance(data, i, r, line, col)
			continue
		}
		r, width := unescape(data[i+1:])
		if width == 0 { // an escaped line break, or an escape the parser refused
			i++
			col++
			continue
		}
		if what := forbiddenRune(r); what != "" {
			found++
			l.problems = append(l.problems, Problem{File: l.file, Pos: Pos{Line: line, Col: col},
				Message: fmt.Sprintf("%s: remove %s, written %s; %s", where, describeRune(r), string(data[i:i+1+width]), textFix(what))})
		}
		i += 1 + width
		col += 1 + width // escapes are ASCII
	}
	return found
}

// unescape decodes the YAML escape after a backslash, returning the rune and
// the escape's length after the backslash (0 when it produces no character).
func unescape(b []byte) (rune, int) {
	simple := map[byte]rune{'0': 0, 'a': 7, 'b': 8, 't': 9, '\t': 9, 'n': 10, 'v': 11, 'f': 12, 'r': 13, 'e': 0x1b,
		' ': ' ', '"': '"', '/': '/', '\\': '\\', 'N': 0x85, '_': 0xa0, 'L': 0x2028, 'P': 0x2029}
	if r, ok := simple[b[0]]; ok {
		return r, 1
	}
	digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[b[0]]
	if digits == 0 || len(b) < 1+digits {
		return 0, 0
	}
	var r rune
	for _, c := range b[1 : 1+digits] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, 0
		}
		r = r<<4 | rune(d)
	}
	return r, 1 + digits
}

// offsetOf is the byte offset of a 1-based line and column as yaml.v3
// counts them (columns in characters, after a leading byte order mark).
func offsetOf(data []byte, line, col int) (int, bool) {
	i := 0
	if strings.HasPrefix(string(data[:min(len(data), 3)]), "\ufeff") {
		i = 3
	}
	l, c := 1, 1
	for i < len(data) && (l < line || l == line && c < col) {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return 0, false
		}
		i += size
		nl, nc := advance(data, i, r, l, c)
		if l == line && nl != line {
			return 0, false // the column is past the end of the line
		}
		l, c = nl, nc
	}
	return i, l == line && c == col
}

// surrogateEscape finds, from line on, the escape of a lone surrogate that
// the YAML parser refuses ("\uD800"): its message names neither the column
// nor the code point.
func surrogateEscape(data []byte, line int) (Pos, string, bool) {
	l, c := 1, 1
	for i := 0; i < len(data); {
		if l >= line && data[i] == '\\' && i+1 < len(data) {
			if r, width := unescape(data[i+1:]); width > 2 && r >= 0xd800 && r <= 0xdfff {
				return Pos{Line: l, Col: c}, fmt.Sprintf("remove %s, written %s; %s", describeRune(r), data[i:i+1+width], textFix("lone surrogate")), true
			}
			i += 2 // an escaped backslash must not start another escape
			c += 2
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		i += size
		l, c = advance(data, i, r, l, c)
	}
	return Pos{}, "", false
}
