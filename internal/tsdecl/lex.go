package tsdecl

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// kind is a token's class. Punctuators are one character each except "=>"
// and "...": splitting ">>" or ">=" would misread the end of a nested type
// argument list (Map<string, Set<number>>), and the emitter never needs to
// tell operators apart, only to find brackets, commas, colons and "=".
type kind uint8

const (
	tEOF kind = iota
	tIdent
	tPrivate // #name
	tNumber
	tString
	tTemplate // a whole template literal, its substitutions included
	tRegex
	tPunct
)

// token is a span of the source. lead is where the white space and
// comments before it start (the end of the previous token), so a
// declaration's documentation comment can be found again; nl says a line
// terminator is among them. A module of a large contract has hundreds of
// thousands of tokens, so a token is kept small: a template literal's
// substitution tokens, which can name types (`${Kind}_id`), are kept
// beside the tokens, by the template's start (see tokenizeAll).
type token struct {
	// Offsets into the source, int32 to keep a token at 16 bytes (a
	// module is far below 2 GiB: errgen reads contracts of 64 MiB at most).
	start, end, lead int32
	kind             kind
	nl               bool
}

// Error is a problem in the source at a position.
type Error struct {
	File      string
	Line, Col int // 1-based; Col counts code points
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg) }

// errUnclosedSubstitution is reported at the template literal's start.
var errUnclosedSubstitution = errors.New("unclosed substitution")

type lexer struct {
	file string
	src  string
	pos  int
	toks []token
	// inner maps a template literal's start to its substitutions' tokens.
	inner map[int][]token
}

// tokenize splits src into tokens, dropping comments and white space. It
// knows what a TypeScript module's top level needs to be cut correctly:
// strings, template literals with ${} nesting to any depth, regular
// expression literals (told from division by the token before them, as
// JavaScript parsers do) and both kinds of comment.
func tokenize(file, src string) ([]token, error) {
	toks, _, err := tokenizeAll(file, src)
	return toks, err
}

// tokenizeAll is tokenize that also returns the tokens inside each
// template literal's substitutions, by the template's start.
func tokenizeAll(file, src string) ([]token, map[int][]token, error) {
	if len(src) > math.MaxInt32 {
		return nil, nil, &Error{File: file, Line: 1, Col: 1, Msg: "the module is larger than 2 GiB"}
	}
	lx := &lexer{file: file, src: src, toks: make([]token, 0, len(src)/5+1), inner: map[int][]token{}}
	if err := lx.run(false); err != nil {
		return nil, nil, err
	}
	return lx.toks, lx.inner, nil
}

// run scans tokens into lx.toks. In a template substitution (sub) it stops
// after the "}" that closes the substitution, leaving pos after it.
func (lx *lexer) run(sub bool) error {
	depth := 0 // braces opened inside a substitution
	for {
		lead := lx.pos
		nl, err := lx.skipTrivia()
		if err != nil {
			return err
		}
		if lx.pos >= len(lx.src) {
			if sub {
				return errUnclosedSubstitution
			}
			return nil
		}
		start := lx.pos
		c := lx.src[lx.pos]
		t := token{start: int32(start), lead: int32(lead), nl: nl}
		switch {
		case c == '"' || c == '\'':
			if err := lx.scanString(c); err != nil {
				return err
			}
			t.kind = tString
		case c == '`':
			if err := lx.scanTemplate(); err != nil {
				return err
			}
			t.kind = tTemplate
		case isDigit(c) || (c == '.' && lx.pos+1 < len(lx.src) && isDigit(lx.src[lx.pos+1])):
			lx.scanNumber()
			t.kind = tNumber
		case c == '#' && lx.pos+1 < len(lx.src) && isIdentStartAt(lx.src, lx.pos+1):
			lx.pos++
			lx.scanIdent()
			t.kind = tPrivate
		case isIdentStartAt(lx.src, lx.pos):
			lx.scanIdent()
			t.kind = tIdent
		case c == '/' && lx.regexAllowed():
			if !lx.scanRegex() {
				// Not a regular expression after all (no closing slash on
				// the line): read it as division, as the parser would
				// after an expression.
				lx.pos = start + 1
				t.kind = tPunct
			} else {
				t.kind = tRegex
			}
		default:
			t.kind = tPunct
			switch {
			case c == '=' && lx.peek(1) == '>':
				lx.pos += 2
			case c == '.' && lx.peek(1) == '.' && lx.peek(2) == '.':
				lx.pos += 3
			case c < utf8.RuneSelf:
				lx.pos++
			default:
				r, _ := utf8.DecodeRuneInString(lx.src[lx.pos:])
				return lx.errAt(start, fmt.Sprintf("unexpected character %q", r))
			}
			if sub {
				switch c {
				case '{':
					depth++
				case '}':
					if depth == 0 {
						return nil // the substitution's own closing brace
					}
					depth--
				}
			}
		}
		t.end = int32(lx.pos)
		if lx.pos == start { // never: every case consumes a character
			return lx.errAt(start, "tokenizer made no progress")
		}
		lx.toks = append(lx.toks, t)
	}
}

func (lx *lexer) peek(n int) byte {
	if lx.pos+n < len(lx.src) {
		return lx.src[lx.pos+n]
	}
	return 0
}

// skipTrivia skips white space and comments and reports whether a line
// terminator was among them.
func (lx *lexer) skipTrivia() (nl bool, err error) {
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == '\n' || c == '\r':
			nl = true
			lx.pos++
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			lx.pos++
		case c == '/' && lx.peek(1) == '/':
			for lx.pos < len(lx.src) && !lineTerminatorAt(lx.src, lx.pos) {
				lx.pos++
			}
		case c == '/' && lx.peek(1) == '*':
			start := lx.pos
			end := strings.Index(lx.src[lx.pos+2:], "*/")
			if end < 0 {
				return nl, lx.errAt(start, "unterminated comment")
			}
			end += lx.pos + 2
			for i := lx.pos; i < end; i++ {
				if lineTerminatorAt(lx.src, i) {
					nl = true
				}
			}
			lx.pos = end + 2
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
			switch {
			case r == '\u2028' || r == '\u2029':
				nl = true
			case r == '\u00a0' || r == '\ufeff' || unicode.Is(unicode.Zs, r):
			default:
				return nl, nil
			}
			lx.pos += size
		default:
			return nl, nil
		}
	}
	return nl, nil
}

func (lx *lexer) scanString(quote byte) error {
	start := lx.pos
	lx.pos++
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == quote:
			lx.pos++
			return nil
		case c == '\\':
			lx.pos += 2
			if lx.pos <= len(lx.src) && lx.src[lx.pos-1] == '\r' && lx.peek(0) == '\n' {
				lx.pos++ // a line continuation with CRLF
			}
		case c == '\n' || c == '\r':
			return lx.errAt(start, "unterminated string literal")
		default:
			lx.pos++
		}
	}
	return lx.errAt(start, "unterminated string literal")
}

// scanTemplate scans a template literal from its opening backquote and
// keeps the tokens of its substitutions in lx.inner.
func (lx *lexer) scanTemplate() error {
	start := lx.pos
	lx.pos++
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == '`':
			lx.pos++
			return nil
		case c == '\\':
			lx.pos += 2
		case c == '$' && lx.peek(1) == '{':
			lx.pos += 2
			sub := &lexer{file: lx.file, src: lx.src, pos: lx.pos, inner: lx.inner}
			if err := sub.run(true); err == errUnclosedSubstitution {
				return lx.errAt(start, "unterminated template literal")
			} else if err != nil {
				return err
			}
			lx.inner[start] = append(lx.inner[start], sub.toks...)
			lx.pos = sub.pos
		default:
			lx.pos++
		}
	}
	return lx.errAt(start, "unterminated template literal")
}

// scanNumber scans a numeric literal: decimal, hex, octal or binary,
// with separators, a fraction, an exponent or a BigInt suffix.
func (lx *lexer) scanNumber() {
	hex := lx.src[lx.pos] == '0' && (lx.peek(1) == 'x' || lx.peek(1) == 'X')
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case isDigit(c) || isASCIILetter(c) || c == '_' || c == '.':
			lx.pos++
		case (c == '+' || c == '-') && !hex && (lx.src[lx.pos-1] == 'e' || lx.src[lx.pos-1] == 'E'):
			lx.pos++
		default:
			return
		}
	}
}

// scanIdent scans an identifier whose first character isIdentStartAt
// accepted.
func (lx *lexer) scanIdent() {
	if lx.src[lx.pos] == '\\' {
		lx.pos += 2 // \u
	} else {
		_, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
		lx.pos += size
	}
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		if c < utf8.RuneSelf {
			if isASCIILetter(c) || isDigit(c) || c == '_' || c == '$' {
				lx.pos++
				continue
			}
			if c == '\\' && lx.peek(1) == 'u' { // an escaped identifier character
				lx.pos += 2
				continue
			}
			return
		}
		r, size := utf8.DecodeRuneInString(lx.src[lx.pos:])
		if !unicode.IsLetter(r) && !unicode.Is(unicode.Nl, r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Mc, r) &&
			!unicode.Is(unicode.Pc, r) && r != '\u200c' && r != '\u200d' {
			return
		}
		lx.pos += size
	}
}

// regexAllowed reports whether a "/" here starts a regular expression
// rather than a division: it does where an expression may start, which the
// previous token tells.
func (lx *lexer) regexAllowed() bool {
	if len(lx.toks) == 0 {
		return true
	}
	prev := lx.toks[len(lx.toks)-1]
	text := lx.src[prev.start:prev.end]
	switch prev.kind {
	case tPunct:
		return text != ")" && text != "]" && text != "}"
	case tIdent:
		return regexAfterKeyword[text]
	}
	return false
}

// regexAfterKeyword are the keywords after which an expression, not an
// operator, follows; after any other identifier "/" divides.
var regexAfterKeyword = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true, "delete": true,
	"void": true, "throw": true, "case": true, "do": true, "else": true, "yield": true, "await": true,
}

// scanRegex scans a regular expression literal from its opening slash and
// reports whether it found the closing one before the end of the line.
func (lx *lexer) scanRegex() bool {
	i := lx.pos + 1
	class := false
	for i < len(lx.src) {
		if lineTerminatorAt(lx.src, i) {
			return false
		}
		c := lx.src[i]
		switch {
		case c == '\\':
			i++
			if i < len(lx.src) && lineTerminatorAt(lx.src, i) {
				return false
			}
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			i++
			for i < len(lx.src) && (isASCIILetter(lx.src[i]) || isDigit(lx.src[i])) {
				i++ // flags
			}
			lx.pos = i
			return true
		}
		if c >= utf8.RuneSelf {
			_, size := utf8.DecodeRuneInString(lx.src[i:])
			i += size
			continue
		}
		i++
	}
	return false
}

func (lx *lexer) errAt(off int, msg string) error {
	return errAt(lx.file, lx.src, off, msg)
}

// errAt is an Error at byte offset off of src.
func errAt(file, src string, off int, msg string) error {
	line, col := 1, 1
	for i, r := range src[:min(off, len(src))] {
		switch {
		case r == '\n', r == '\u2028', r == '\u2029', r == '\r' && !(i+1 < len(src) && src[i+1] == '\n'):
			line, col = line+1, 1
		default:
			col++
		}
	}
	return &Error{File: file, Line: line, Col: col, Msg: msg}
}

func lineTerminatorAt(s string, i int) bool {
	switch s[i] {
	case '\n', '\r':
		return true
	case 0xe2: // U+2028 and U+2029 are E2 80 A8 and E2 80 A9
		return i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9)
	}
	return false
}

func isIdentStartAt(s string, i int) bool {
	c := s[i]
	if c < utf8.RuneSelf {
		return isASCIILetter(c) || c == '_' || c == '$' || (c == '\\' && i+1 < len(s) && s[i+1] == 'u')
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
}

func isDigit(c byte) bool       { return '0' <= c && c <= '9' }
func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
