package agenterror

// This file holds the contract-independent half of the JSON codec. The
// encoder appends to a byte slice instead of going through reflection, and
// the decoder reports every problem with the JSON path of the offending field.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeError reports why a document is not a valid envelope.
type DecodeError struct {
	// Path is the JSON path of the offending field, such as "recovery.action";
	// empty when the document as a whole is wrong.
	Path string
	// Problem says what is wrong, such as "is required".
	Problem string
	// Category sorts the problem into one of four kinds, so callers can
	// react without parsing Problem.
	Category DecodeErrorCategory
}

// DecodeErrorCategory says what kind of problem a DecodeError reports.
type DecodeErrorCategory string

const (
	// DecodeSyntax: the input is not JSON at all, or it is JSON past the
	// limits every decoder of the contract shares: arrays and objects nested
	// more than MaxDepth levels deep, or a number past the range of a 64-bit
	// float (1e999, an integer of 310 digits or more).
	DecodeSyntax DecodeErrorCategory = "syntax"
	// DecodeType: a value has the wrong JSON type, including null where a
	// value is required, a non-integer number where an integer is required
	// and a document that is not an object.
	DecodeType DecodeErrorCategory = "type"
	// DecodeMissing: a required member is absent.
	DecodeMissing DecodeErrorCategory = "missing"
	// DecodeValue: the type is right but the value is rejected, such as an
	// empty kind, a negative integer, an integer past MaxSafeInteger or a
	// layout constant that differs.
	DecodeValue DecodeErrorCategory = "value"
)

// MaxDepth is how deeply an envelope may nest arrays and objects, the
// envelope's own object counting as the first level. The Go, TypeScript and
// Python packages of the contract share it: each decoder rejects a deeper
// document (DecodeSyntax), and each encoder refuses to write one, so what one
// of them reads the others read, and every one of them writes back.
const MaxDepth = 128

// MaxSafeInteger is the largest integer every decoder of the contract reads
// exactly, 2^53-1 (JavaScript's Number.MAX_SAFE_INTEGER). A member of integer
// type (the contract version, the retry hint, an integer field) holds a
// number whose value is a whole number of at most this magnitude, however it
// is written (1, 1.0 and 1e0 are the same integer); a larger one is a
// DecodeValue error, and the encoder refuses to write one.
const MaxSafeInteger = 1<<53 - 1

// MaxDocumentBytes is the size limit of the decoders that take a whole
// document (UnmarshalJSON, FromAIP193), 1 MiB, the same in every package of
// the contract and the same as the body ReadHTTP reads: an envelope is a
// few kilobytes, and a hostile document costs a decoder a multiple of its
// size (docs/benchmarks.md). A longer document is a DecodeSyntax error with
// path "", found before the document is read. DecodeOptions sets another
// limit, or none.
const MaxDocumentBytes = 1 << 20

// MarshalJSON encodes the envelope as AppendJSON does, into a new slice.
func (e Envelope) MarshalJSON() ([]byte, error) {
	b, err := e.AppendJSON(make([]byte, 0, 512))
	if err != nil {
		return nil, err
	}
	return b, nil
}

// UnmarshalJSON decodes an envelope in the contract's wire layout. A kind,
// origin or other value this contract version does not know is kept as it is,
// fields the contract does not name go to Extra, values the layout does not
// carry are filled from the kind's classification, and malformed input yields
// a *DecodeError naming the offending field. On error the envelope is unchanged.
//
// Every text it returns is sanitized as the constructors sanitize text (Sanitize): the message, the guidance, every string, array of strings and object's strings of the context and kind-specific fields, and the strings inside Extra's values (member names are kept), whatever the contract's SanitizedFields lists, since all of it is the sender's; the kind and the contract's enumerated values (origin, recovery action, same_arguments, side_effects) are sanitized too, before the kind's classification is looked up (a clean value, as every known one is, comes back unchanged). An envelope read from an upstream can so be re-emitted or logged as it is; a kind or required field the sanitizer leaves empty is a DecodeValue error, as an empty one is (an emptied enumerated value is kept empty, as an empty one is). UnmarshalJSONRaw keeps the text as received.
//
// It reads the document once, in document order; a member given twice counts
// once, with its last value, as with encoding/json, and only the last is kept.
// Problems are reported after the whole document is read, the first in layout
// order; a document nested deeper than MaxDepth or holding a number past the
// range of a 64-bit float is rejected as a whole (DecodeSyntax), as it is by
// the TypeScript and Python decoders. A document longer than MaxDocumentBytes
// is rejected before it is read (DecodeSyntax); DecodeOptions reads longer ones.
func (e *Envelope) UnmarshalJSON(data []byte) error {
	if err := checkSize(data, MaxDocumentBytes); err != nil {
		return err
	}
	return e.decode(data, true)
}

// UnmarshalJSONRaw is UnmarshalJSON without sanitizing: the text is as the
// sender wrote it. Never re-emit it or show it to a model; it is for a caller
// that needs the exact bytes (to verify or archive them). Every other reader
// (ReadHTTP, FromToolResult, ReadCLI, FromAIP193, FromRPCStatus) sanitizes.
func (e *Envelope) UnmarshalJSONRaw(data []byte) error {
	if err := checkSize(data, MaxDocumentBytes); err != nil {
		return err
	}
	return e.decode(data, false)
}

// DecodeOptions reads documents with another size limit than
// MaxDocumentBytes. The zero value is UnmarshalJSON's and FromAIP193's.
type DecodeOptions struct {
	// MaxBytes is the longest document read, in bytes: 0 means
	// MaxDocumentBytes, a negative value no limit.
	MaxBytes int
}

// Unmarshal decodes an envelope as UnmarshalJSON does, within o's limit.
func (o DecodeOptions) Unmarshal(data []byte) (*Envelope, error) {
	if err := checkSize(data, o.max()); err != nil {
		return nil, err
	}
	e := new(Envelope)
	if err := e.decode(data, true); err != nil {
		return nil, err
	}
	return e, nil
}

// FromAIP193 reads an AIP-193 JSON error as FromAIP193 does, within o's
// limit.
func (o DecodeOptions) FromAIP193(data []byte) (*Envelope, error) {
	if err := checkSize(data, o.max()); err != nil {
		return nil, err
	}
	return fromAIP193(data)
}

func (o DecodeOptions) max() int {
	if o.MaxBytes == 0 {
		return MaxDocumentBytes
	}
	return o.MaxBytes
}

// checkSize rejects a document longer than limit bytes; a negative limit is
// none.
func checkSize(data []byte, limit int) error {
	if limit >= 0 && len(data) > limit {
		return &DecodeError{Problem: "is longer than the limit of " + strconv.Itoa(limit) + " bytes", Category: DecodeSyntax}
	}
	return nil
}

func (e *DecodeError) Error() string {
	if e.Path == "" {
		return "agenterror: invalid envelope: " + e.Problem
	}
	return "agenterror: invalid envelope: " + e.Path + " " + e.Problem
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Like encoding/json it escapes
// U+2028 and U+2029 (so the output is safe inside JavaScript) and replaces
// invalid UTF-8 with U+FFFD; unlike it, it leaves <, > and & alone, which is
// equally valid JSON. Runs that need no escaping are copied in bulk, found
// eight bytes at a time.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	if plain(s) {
		// Most strings need no escaping: copy them in one go.
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) && special(load8(s[i:i+8])) == 0 {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plain reports whether s can go into a JSON string as it is: printable
// ASCII without quotes or backslashes. It reads eight bytes at a time; the
// last (partial) block is read as the eight bytes ending the string, which
// overlap bytes already checked.
func plain(s string) bool {
	n := len(s)
	if n < 8 {
		for i := 0; i < n; i++ {
			if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
				return false
			}
		}
		return true
	}
	i := 0
	for ; i+8 <= n; i += 8 {
		if special(load8(s[i:i+8])) != 0 {
			return false
		}
	}
	return i == n || special(load8(s[n-8:])) == 0
}

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// load8 reads the first eight bytes of s, little-endian; the compiler turns
// it into one load.
func load8(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// stringEnd is non-zero when one of the eight bytes in x is a quote, a
// backslash or a control character: where a string being read ends or
// needs a closer look. Bytes that are not ASCII pass.
func stringEnd(x uint64) uint64 {
	q := x ^ (lo8 * '"')
	bs := x ^ (lo8 * '\\')
	return ((x-lo8*0x20)&^x | (q-lo8)&^q | (bs-lo8)&^bs) & hi8
}

// special is non-zero when one of the eight bytes in x is a quote, a
// backslash, a control character or not ASCII: the bytes a JSON string
// cannot carry as they are. (The classic has-zero-byte and has-less-than
// tests: exact as a whole, which is all that is asked of them.)
func special(x uint64) uint64 {
	q := x ^ (lo8 * '"')
	bs := x ^ (lo8 * '\\')
	return (x | (x-lo8*0x20)&^x | (q-lo8)&^q | (bs-lo8)&^bs) & hi8
}

func appendStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendAny appends a value of no fixed shape (objects, numbers, extras)
// through encoding/json, which also rejects NaN and infinities. depth is
// how deeply the object the value goes in is nested, the envelope's own
// object being 1. A value no decoder of the contract would read back (one
// nested past MaxDepth, or a json.Number or json.RawMessage holding a number
// past the range of a 64-bit float) is refused.
func appendAny(b []byte, path string, depth int, v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, errors.New("agenterror: cannot marshal " + path + ": " + err.Error())
	}
	raw = wellFormedJSON(raw)
	d := scanner{data: raw, depth: depth}
	d.skip()
	if d.limit != "" {
		return nil, errors.New("agenterror: cannot marshal " + path + ": the value " + d.limit)
	}
	return append(b, raw...), nil
}

// wellFormedJSON is JSON text with each byte that does not start a valid
// UTF-8 sequence, and each \u escape of a lone surrogate, written as the
// escape \ufffd, as appendString writes the one and every decoder of the
// contract reads the other: encoding/json copies a json.RawMessage (a
// decoded Extra value, or one set by hand) as it is, and every output must
// be valid UTF-8 that reads back as it decodes. Such a byte or escape can
// only be inside a string. raw itself when nothing changes.
func wellFormedJSON(raw []byte) []byte {
	if utf8.Valid(raw) && !bytes.Contains(raw, []byte(`\u`)) {
		return raw
	}
	var out []byte // nil until something changes
	for i := 0; i < len(raw); {
		c := raw[i]
		n := 1
		bad := false
		switch {
		case c == '\\' && i+6 <= len(raw) && raw[i+1] == 'u':
			n = 6
			if r := hex4(raw[i+2 : i+6]); utf16.IsSurrogate(r) {
				var r2 rune = -1
				if i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
					r2 = hex4(raw[i+8 : i+12])
				}
				if utf16.DecodeRune(r, r2) != utf8.RuneError {
					n = 12
				} else {
					bad = true
				}
			}
		case c == '\\':
			// Any other escape, \\ included: its second byte is not the
			// start of an escape.
			n = min(2, len(raw)-i)
		case c >= utf8.RuneSelf:
			var r rune
			r, n = utf8.DecodeRune(raw[i:])
			bad = r == utf8.RuneError && n == 1
		}
		if bad && out == nil {
			out = append(make([]byte, 0, len(raw)+16), raw[:i]...)
		}
		switch {
		case bad:
			out = append(out, `\ufffd`...)
		case out != nil:
			out = append(out, raw[i:i+n]...)
		}
		i += n
	}
	if out == nil {
		return raw
	}
	return out
}

// depthOf is how deeply the object at path is nested, the root being 1.
func depthOf(path string) int {
	if path == "" {
		return 1
	}
	return 2 + strings.Count(path, ".")
}

// appendExtra appends the entries of extra that belong in the object at
// objPath and that the contract does not own (the object's fields are the
// slots from to to of wireLayout), sorted so the output is deterministic.
// start marks where the object's first member goes.
func appendExtra(b []byte, start int, objPath string, extra map[string]any, from, to int) ([]byte, error) {
	if len(extra) == 0 {
		return b, nil
	}
	var keys []string
	for k := range extra {
		if obj, name := placeExtra(k); obj == objPath && !wireOwns(from, to, name) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var err error
	for _, k := range keys {
		_, name := placeExtra(k)
		if len(b) > start {
			b = append(b, ',')
		}
		b = appendString(b, name)
		b = append(b, ':')
		if b, err = appendAny(b, k, depthOf(objPath), extra[k]); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// placeExtra splits an Extra key into the object it belongs in (the longest
// object path of the layout that prefixes it) and its member name there.
func placeExtra(k string) (string, string) {
	best := ""
	for _, p := range objectPaths {
		if p != "" && len(p) > len(best) && strings.HasPrefix(k, p+".") {
			best = p
		}
	}
	if best == "" {
		return "", k
	}
	return best, k[len(best)+1:]
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// decodeObject parses data as a JSON object whose values stay raw, within
// the limits every decoder of the contract shares (MaxDepth, numbers a
// 64-bit float holds), its own object counting as the first level: the
// readers use it for the documents they read besides the envelope (the
// short form, a problem document, an AIP-193 error), so that each applies
// the envelope decoder's limits to the whole document, with its error. A
// document that is not JSON is a DecodeSyntax error in encoding/json's
// words, one past a limit a DecodeSyntax error with path "" whatever else
// is wrong with it, one that is not an object a DecodeType error.
func decodeObject(data []byte, path string) (map[string]json.RawMessage, error) {
	return decodeObjectAt(data, path, 0)
}

// decodeObjectAt is decodeObject for a document with depth levels of
// arrays and objects around it: -1 for a wrapper whose member is an
// envelope, which the wrapped CLI form's line is.
func decodeObjectAt(data []byte, path string, depth int) (map[string]json.RawMessage, error) {
	obj, err := jsonObject(data, path)
	if err != nil {
		if de, ok := err.(*DecodeError); ok && de.Category == DecodeSyntax {
			return nil, err
		}
	}
	if err := withinLimits(data, depth); err != nil {
		return nil, err
	}
	return obj, err
}

// withinLimits returns the DecodeSyntax error (path "") of a JSON document
// past the limits every decoder of the contract shares, read with depth
// levels of arrays and objects around it; nil for one within them, and for
// text that is not JSON, which is the caller's to report.
func withinLimits(data []byte, depth int) error {
	d := scanner{data: data, depth: depth}
	d.skip()
	if d.limit != "" {
		return &DecodeError{Problem: d.limit, Category: DecodeSyntax}
	}
	return nil
}

// jsonObject parses data as a JSON object whose values stay raw, with
// encoding/json and no limits: decodeObject's reading, and the envelope
// decoder's for the error of a document that is not JSON, so the message
// is encoding/json's own.
func jsonObject(data []byte, path string) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return nil, &DecodeError{Path: path, Problem: "is not valid JSON: " + syntax.Error() + " at offset " + strconv.FormatInt(syntax.Offset, 10), Category: DecodeSyntax}
		}
		return nil, &DecodeError{Path: path, Problem: "must be a JSON object", Category: DecodeType}
	}
	if obj == nil {
		return nil, &DecodeError{Path: path, Problem: "must be a JSON object, not null", Category: DecodeType}
	}
	return obj, nil
}

// The envelope decoder (wire.go) reads the document once, in document
// order. It looks up each member name in the layout and reads the value
// straight into the envelope, recording for every field of the layout what
// it found (a state below); only after the whole document has been read,
// and found to be JSON, does it report the first problem in layout order,
// which is the order the fields are checked in and so the problem reported
// whatever order the members came in. A member given twice counts once,
// with its last value, as encoding/json does.

// The state of one field of the layout after the scan.
const (
	stAbsent    uint8 = iota // not in the document
	stNull                   // null, which counts as absent
	stSet                    // a value of the right type, already stored
	stWrongType              // a value of another JSON type
	stBadValue               // the right type, but a value the layout rejects
)

// invalid reports a document the scanner rejected: in encoding/json's
// words when it is not JSON, else the limit it is past. The syntax error
// comes first, wherever it is, as in the TypeScript and Python decoders,
// which parse the whole text before they look at the limits.
func (d *scanner) invalid() error {
	if _, err := jsonObject(d.data, ""); err != nil {
		if de, ok := err.(*DecodeError); ok && de.Category == DecodeSyntax {
			return err
		}
	}
	if d.limit != "" {
		return &DecodeError{Problem: d.limit, Category: DecodeSyntax}
	}
	// Unreachable while the scanner agrees with encoding/json, which the
	// package's fuzz test checks.
	return &DecodeError{Problem: "is not valid JSON", Category: DecodeSyntax}
}

// decodeAny decodes a value of no fixed shape (objects, arrays other than of
// strings, numbers) through encoding/json. Free-form values keep numbers as
// json.Number so they re-encode exactly instead of passing through float64.
// Typed values (arrays of integers, objects with properties) read their
// integers as the scanner does (see integersByValue). It decodes into a
// local so that dst, a field of the envelope being built, does not make
// that envelope escape to the heap.
func decodeAny[T any](raw []byte, dst *T) bool {
	var v T
	var err error
	switch any(&v).(type) {
	case *map[string]any, *[]map[string]any:
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		err = dec.Decode(&v)
	default:
		err = json.Unmarshal(integersByValue(raw), &v)
	}
	if err != nil {
		return false
	}
	*dst = v
	return true
}

// integersByValue returns raw with every number that is a whole number of
// at most MaxSafeInteger in magnitude (read as a 64-bit float, as
// JavaScript reads it) written as an integer, and every other number written
// so that it is not one (an integer past MaxSafeInteger gets a fraction): an
// int64 that encoding/json fills from it then holds exactly the integers the
// scanner's integer reader accepts, and a float64 the same value as before.
// raw itself is returned when nothing changes, which is the usual case.
func integersByValue(raw []byte) []byte {
	var out []byte
	last := 0 // raw[last:] is not yet copied to out
	d := scanner{data: raw}
	for d.i < len(raw) {
		switch c := raw[d.i]; {
		case c == '"':
			d.scanString()
		case c == '-' || '0' <= c && c <= '9':
			start := d.i
			integer := d.number()
			text := raw[start:d.i]
			var with []byte
			if integer {
				if v, ok := parseInt(text); !ok || v > MaxSafeInteger || v < -MaxSafeInteger {
					with = append(append(make([]byte, 0, len(text)+2), text...), '.', '0')
				}
			} else if f, err := strconv.ParseFloat(string(text), 64); err == nil && f == math.Trunc(f) && math.Abs(f) <= MaxSafeInteger {
				with = strconv.AppendInt(nil, int64(f), 10)
			}
			if with != nil {
				out = append(append(out, raw[last:start]...), with...)
				last = d.i
			}
		default:
			d.i++
		}
		if d.failed {
			return raw
		}
	}
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
}

// extraMember is a member no field of the layout claims, kept for Extra.
type extraMember struct {
	name string
	raw  json.RawMessage
}

// extraList holds the members no field claims in one object of the layout,
// the last value of each name only: a document that repeats a member a
// million times costs what the last repetition does. Past a few names they
// are found through an index, so distinct names cost no search.
type extraList struct {
	obj     string // the path of the object; the root's is ""
	depth   int    // how deep the object is; the root is 0
	members []extraMember
	index   map[string]int // by name, once there are more than linearNames
}

// linearNames is how many names are searched one by one before extraList
// indexes them.
const linearNames = 8

// reset empties the list: the object it belongs to was given again.
func (l *extraList) reset() {
	l.members = l.members[:0]
	clear(l.index)
}

// find returns the position of the member named name, or -1.
func (l *extraList) find(name []byte) int {
	if l.index != nil {
		if i, ok := l.index[string(name)]; ok {
			return i
		}
		return -1
	}
	for i := range l.members {
		if l.members[i].name == string(name) {
			return i
		}
	}
	return -1
}

// keep reads the value of the member just named, which no field claims,
// and keeps it for Extra in l, the list of the object at obj, replacing an
// earlier value of the same name.
func (d *scanner) keep(l *extraList, obj string, depth int) {
	l.obj, l.depth = obj, depth
	i := l.find(d.key) // before the value, whose own members reuse key
	var name string
	if i < 0 {
		name = string(d.key)
	}
	raw := d.skipped()
	if d.failed {
		return
	}
	if i >= 0 {
		m := &l.members[i]
		if cap(m.raw) > 2*len(raw)+64 {
			// Do not keep a large buffer alive for a small last value.
			m.raw = nil
		}
		m.raw = append(m.raw[:0], raw...)
		return
	}
	l.members = append(l.members, extraMember{name: name, raw: d.hold(raw)})
	switch n := len(l.members); {
	case n > linearNames && l.index == nil:
		l.index = make(map[string]int, 2*n)
		for j := range l.members {
			l.index[l.members[j].name] = j
		}
	case l.index != nil:
		l.index[name] = n - 1
	}
}

// Small values kept for Extra are copied into chunks of holdChunk bytes
// (after a first, smaller one) rather than one allocation each: a document
// of millions of small unknown members would otherwise cost an allocation,
// rounded up to its size class, per member.
const (
	holdChunk = 64 << 10
	holdFirst = 256
)

// hold returns a copy of raw, cut from the scanner's current chunk when raw
// is small. Each copy's capacity is its length, so that appending to it (a
// later value of the same name, see keep) never writes into another's.
func (d *scanner) hold(raw []byte) json.RawMessage {
	if len(raw) > holdChunk/16 {
		return append(json.RawMessage(nil), raw...)
	}
	if cap(d.chunk)-len(d.chunk) < len(raw) {
		d.chunk = make([]byte, 0, min(max(2*cap(d.chunk), holdFirst), holdChunk))
	}
	start := len(d.chunk)
	d.chunk = append(d.chunk, raw...)
	return json.RawMessage(d.chunk[start:len(d.chunk):len(d.chunk)])
}

// buildExtra turns the members kept per object into Extra. Keys are joined
// paths, so an object's member "b.c" and the member "c" of its object "b"
// share a key; the outer object's member wins, the deeper objects being
// stored first. Such a member is written where its key places it, one
// level deeper than it was read or more: one that would nest past MaxDepth
// there is a DecodeSyntax error (path ""), as AppendJSON could not write
// the envelope back. The lists' indexes are dropped first, so that the
// collector may take them while the map is built.
func buildExtra(lists []extraList) (map[string]any, error) {
	const placedTooDeep = "nests arrays and objects more than 128 levels deep where a member whose name places it in a nested object is written"
	n, deepest := 0, 0
	for i := range lists {
		list := &lists[i]
		list.index = nil
		if len(list.members) == 0 {
			continue
		}
		n += len(list.members)
		deepest = max(deepest, list.depth)
		for _, m := range list.members {
			if strings.IndexByte(m.name, '.') < 0 {
				continue
			}
			k := joinPath(list.obj, m.name)
			if obj, _ := placeExtra(k); obj != list.obj {
				if err := withinLimits(m.raw, depthOf(obj)); err != nil {
					return nil, &DecodeError{Problem: placedTooDeep, Category: DecodeSyntax}
				}
			}
		}
	}
	if n == 0 {
		return nil, nil
	}
	extra := make(map[string]any, n)
	for depth := deepest; depth >= 0; depth-- {
		for _, list := range lists {
			if list.depth == depth {
				for _, m := range list.members {
					extra[joinPath(list.obj, m.name)] = m.raw
				}
			}
		}
	}
	return extra, nil
}

// shareLimit bounds the documents whose string values are cut from one copy
// of the whole document (one allocation for all of them) rather than copied
// one by one: a small document costs little to keep alive for as long as
// any of its strings is.
const shareLimit = 4096

// scanner reads one JSON document. It accepts what encoding/json accepts
// within the limits every decoder of the contract shares (MaxDepth, numbers
// a 64-bit float holds), and decodes strings the way encoding/json does
// (each byte of invalid UTF-8 and each \u escape of a lone surrogate becomes
// U+FFFD). On a syntax error, or past a limit, it stops: failed is set (and
// limit says which limit) and every later read fails too, so the generated
// loops simply end.
type scanner struct {
	data   []byte
	i      int
	depth  int
	failed bool
	limit  string // the limit the document is past, with where
	share  bool   // cut plain strings from text
	text   string // data as a string, made on first use when share is set
	key    []byte // the member name just read, unescaped
	chunk  []byte // where hold copies small values kept for Extra
	buf    []byte // scratch for unescaped names and constants
}

func newScanner(data []byte) scanner {
	return scanner{data: data, share: len(data) <= shareLimit}
}

func (d *scanner) fail() {
	d.failed = true
	d.i = len(d.data)
}

// peek skips whitespace and returns the next byte, or 0 at the end.
func (d *scanner) peek() byte {
	for d.i < len(d.data) {
		switch c := d.data[d.i]; c {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return c
		}
	}
	return 0
}

// end checks that only whitespace follows the document's value.
func (d *scanner) end() {
	if d.peek() != 0 || d.i != len(d.data) {
		d.fail()
	}
}

func (d *scanner) literal(lit string) {
	if len(d.data)-d.i >= len(lit) && string(d.data[d.i:d.i+len(lit)]) == lit {
		d.i += len(lit)
		return
	}
	d.fail()
}

// push enters an array or object, no deeper than MaxDepth.
func (d *scanner) push() {
	if d.depth++; d.depth > MaxDepth {
		d.over("nests arrays and objects more than 128 levels deep")
		return
	}
	d.i++
}

// over stops the scan at d.i, where the document goes past a limit.
func (d *scanner) over(problem string) {
	d.limit = problem + " at offset " + strconv.Itoa(d.i)
	d.fail()
}

// open starts an object value: stSet when it is one (read its members with
// first and next), stNull for null, stWrongType (the value skipped) otherwise.
func (d *scanner) open() uint8 {
	switch d.peek() {
	case '{':
		d.push()
		return stSet
	case 'n':
		d.literal("null")
		return stNull
	}
	d.skip()
	return stWrongType
}

// first reads the name of an opened object's first member into key; false
// when the object is empty or on a syntax error.
func (d *scanner) first() bool {
	if d.peek() == '}' {
		d.i++
		d.depth--
		return false
	}
	return d.name()
}

// next reads the name of the following member; false at the object's end.
func (d *scanner) next() bool {
	switch d.peek() {
	case ',':
		d.i++
		return d.name()
	case '}':
		d.i++
		d.depth--
		return false
	}
	d.fail()
	return false
}

// firstElement tells whether an opened array has a first element to read;
// false when it is empty (and closed). Arrays are read as objects are:
// for more := d.firstElement(); more; more = d.nextElement() { … }.
func (d *scanner) firstElement() bool {
	if d.peek() == ']' {
		d.i++
		d.depth--
		return false
	}
	return !d.failed
}

// nextElement tells whether another element follows; false at the array's
// end, which it closes, or on a syntax error.
func (d *scanner) nextElement() bool {
	switch d.peek() {
	case ',':
		d.i++
		return true
	case ']':
		d.i++
		d.depth--
		return false
	}
	d.fail()
	return false
}

func (d *scanner) name() bool {
	if d.peek() != '"' {
		d.fail()
		return false
	}
	start, end, plain := d.scanString()
	if d.failed {
		return false
	}
	if plain {
		d.key = d.data[start:end]
	} else {
		d.buf = unquote(d.buf[:0], d.data[start:end])
		d.key = d.buf
	}
	if d.peek() != ':' {
		d.fail()
		return false
	}
	d.i++
	return true
}

// scanString reads the string starting at d.i and returns the bounds of its
// body; plain reports that the body is its own value (no escapes, valid
// UTF-8).
func (d *scanner) scanString() (start, end int, plain bool) {
	data := d.data
	i := d.i + 1
	start, plain = i, true
	var high uint64 // the bytes skipped eight at a time, or-ed: any not ASCII?
	ascii := true
	for {
		for i+8 <= len(data) {
			x := binary.LittleEndian.Uint64(data[i:])
			if stringEnd(x) != 0 {
				break
			}
			high |= x
			i += 8
		}
		if i >= len(data) {
			d.fail()
			return start, start, false
		}
		switch c := data[i]; {
		case c == '"':
			d.i = i + 1
			if plain && (!ascii || high&hi8 != 0) {
				plain = utf8.Valid(data[start:i])
			}
			return start, i, plain
		case c == '\\':
			plain = false
			if i+1 >= len(data) {
				d.fail()
				return start, start, false
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+5 >= len(data) || hex4(data[i+2:i+6]) < 0 {
					d.fail()
					return start, start, false
				}
				i += 6
			default:
				d.fail()
				return start, start, false
			}
		case c < 0x20:
			d.fail()
			return start, start, false
		case c >= utf8.RuneSelf:
			ascii = false
			i++
		default:
			i++
		}
	}
}

// hex4 parses four hex digits, or returns -1.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// unquote appends the value of a string body that has escapes or invalid
// UTF-8, decoded as encoding/json does: each invalid byte and each \u escape
// of a lone surrogate becomes U+FFFD. The body's syntax is already checked.
func unquote(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			switch e := s[i+1]; e {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r := hex4(s[i+2 : i+6])
				i += 6
				if utf16.IsSurrogate(r) {
					// A pair when a valid low half follows; otherwise the
					// escape alone stands for U+FFFD.
					var r2 rune = -1
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						r2 = hex4(s[i+2 : i+6])
					}
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						i += 6
						r = pair
					} else {
						r = utf8.RuneError
					}
				}
				dst = utf8.AppendRune(dst, r)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, e)
			}
			i += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			dst = utf8.AppendRune(dst, r)
			i += size
		}
	}
	return dst
}

// plainText returns the string whose body is data[start:end], known plain.
func (d *scanner) plainText(start, end int) string {
	if start == end {
		return ""
	}
	if !d.share {
		return string(d.data[start:end])
	}
	if d.text == "" {
		d.text = string(d.data)
	}
	return d.text[start:end]
}

// str reads a string value into dst; null stores "".
func (d *scanner) str(dst *string) uint8 {
	switch d.peek() {
	case '"':
		start, end, plain := d.scanString()
		if plain {
			*dst = d.plainText(start, end)
		} else if !d.failed {
			*dst = string(unquote(make([]byte, 0, end-start), d.data[start:end]))
		}
		return stSet
	case 'n':
		d.literal("null")
		*dst = ""
		return stNull
	}
	d.skip()
	return stWrongType
}

// strs reads an array of strings into dst, a null element reading as ""
// as with encoding/json; null stores nil.
func (d *scanner) strs(dst *[]string) uint8 {
	switch d.peek() {
	case '[':
		d.push()
		list, st := []string{}, stSet
		for more := d.firstElement(); more; more = d.nextElement() {
			var s string
			if d.str(&s) == stWrongType {
				st = stWrongType
			}
			list = append(list, s)
		}
		if d.failed {
			return stWrongType
		}
		*dst = list
		return st
	case 'n':
		d.literal("null")
		*dst = nil
		return stNull
	}
	d.skip()
	return stWrongType
}

// number reads a number and reports whether it is written as an integer
// (no fraction, no exponent). A number past the range of a 64-bit float
// (1e999, 2e308, any integer of 310 digits) is past a shared limit: the
// TypeScript decoder would read it as an infinity, which no encoder writes.
func (d *scanner) number() bool {
	data, i := d.data, d.i
	if i < len(data) && data[i] == '-' {
		i++
	}
	digits := i
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && '1' <= data[i] && data[i] <= '9':
		for i++; i < len(data) && '0' <= data[i] && data[i] <= '9'; i++ {
		}
	default:
		d.fail()
		return false
	}
	// With at most 308 digits before the point and no exponent a number is
	// below 1e308, which a float holds; only the others need a closer look.
	huge := i-digits > 308
	integer := true
	if i < len(data) && data[i] == '.' {
		integer = false
		if i++; i >= len(data) || data[i] < '0' || data[i] > '9' {
			d.fail()
			return false
		}
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		integer, huge = false, true
		if i++; i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			d.fail()
			return false
		}
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
	}
	if huge {
		if f, _ := strconv.ParseFloat(string(data[d.i:i]), 64); math.IsInf(f, 0) {
			d.over("holds a number past the range of a 64-bit float")
			return false
		}
	}
	d.i = i
	return integer
}

// integer reads an integer into dst: a number whose value, read as a
// 64-bit float (as every decoder of the contract reads it), is whole, of
// at most MaxSafeInteger in magnitude (stBadValue past it). 1.0 and 1e0 are
// the integer 1, -0 is 0; 1.5 is stWrongType.
func (d *scanner) integer(dst *int64) uint8 {
	switch c := d.peek(); {
	case c == '-' || '0' <= c && c <= '9':
		start := d.i
		integer := d.number()
		if d.failed {
			return stWrongType
		}
		text := d.data[start:d.i]
		if integer {
			// Exact, without a float: every integer up to 2^53-1 is one.
			v, ok := parseInt(text)
			if !ok || v > MaxSafeInteger || v < -MaxSafeInteger {
				return stBadValue
			}
			*dst = v
			return stSet
		}
		f, _ := strconv.ParseFloat(string(text), 64)
		switch {
		case f != math.Trunc(f):
			return stWrongType
		case math.Abs(f) > MaxSafeInteger:
			return stBadValue
		}
		*dst = int64(f)
		return stSet
	case c == 'n':
		d.literal("null")
		return stNull
	}
	d.skip()
	return stWrongType
}

// parseInt parses digits with an optional minus sign, as strconv.ParseInt
// does with base 10 and 64 bits, without making a string.
func parseInt(b []byte) (int64, bool) {
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	var n uint64
	for _, c := range b {
		if n > (1<<63)/10 {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if neg {
		if n > 1<<63 {
			return 0, false
		}
		return -int64(n), true
	}
	if n > 1<<63-1 {
		return 0, false
	}
	return int64(n), true
}

// float reads a number into dst as encoding/json does.
func (d *scanner) float(dst *float64) uint8 {
	switch c := d.peek(); {
	case c == '-' || '0' <= c && c <= '9':
		start := d.i
		d.number()
		if d.failed {
			return stWrongType
		}
		v, err := strconv.ParseFloat(string(d.data[start:d.i]), 64)
		if err != nil {
			return stWrongType
		}
		*dst = v
		return stSet
	case c == 'n':
		d.literal("null")
		return stNull
	}
	d.skip()
	return stWrongType
}

// boolean reads true or false into dst.
func (d *scanner) boolean(dst *bool) uint8 {
	switch d.peek() {
	case 't':
		d.literal("true")
		*dst = true
		return stSet
	case 'f':
		d.literal("false")
		*dst = false
		return stSet
	case 'n':
		d.literal("null")
		return stNull
	}
	d.skip()
	return stWrongType
}

// raw reads a value of no fixed shape and returns its text.
func (d *scanner) raw() ([]byte, uint8) {
	if d.peek() == 'n' {
		d.literal("null")
		return nil, stNull
	}
	start := d.i
	d.skip()
	return d.data[start:d.i], stSet
}

// skipped reads any value and returns its text, null included.
func (d *scanner) skipped() []byte {
	d.peek()
	start := d.i
	d.skip()
	return d.data[start:d.i]
}

// The const readers compare a layout constant without keeping the value:
// stSet when equal, stBadValue when not, stWrongType for another JSON type
// (which is as much a wrong value; the field table says so).

func (d *scanner) constString(want string) uint8 {
	var got string
	switch d.peek() {
	case '"':
		start, end, plain := d.scanString()
		if plain {
			if string(d.data[start:end]) == want {
				return stSet
			}
			return stBadValue
		}
		if !d.failed {
			d.buf = unquote(d.buf[:0], d.data[start:end])
			got = string(d.buf)
		}
		if got == want {
			return stSet
		}
		return stBadValue
	case 'n':
		d.literal("null")
		return stNull
	}
	d.skip()
	return stWrongType
}

// constValue reads a boolean or a number with read (d.boolean, d.integer,
// d.float) and compares it with the layout's constant want.
func constValue[T comparable](read func(*T) uint8, want T) uint8 {
	var got T
	st := read(&got)
	if st == stSet && got != want {
		return stBadValue
	}
	return st
}

// skip reads any value, checking its syntax.
func (d *scanner) skip() {
	switch c := d.peek(); {
	case c == '{':
		d.push()
		for more := d.first(); more; more = d.next() {
			d.skip()
		}
	case c == '[':
		d.push()
		for more := d.firstElement(); more; more = d.nextElement() {
			d.skip()
		}
	case c == '"':
		d.scanString()
	case c == '-' || '0' <= c && c <= '9':
		d.number()
	case c == 't':
		d.literal("true")
	case c == 'f':
		d.literal("false")
	case c == 'n':
		d.literal("null")
	default:
		d.fail()
	}
}

// document opens the document's object, or returns the error for a
// document that is not one.
func (d *scanner) document() error {
	st := d.open()
	if st == stSet {
		return nil
	}
	if d.end(); d.failed {
		return d.invalid()
	}
	if st == stNull {
		return &DecodeError{Problem: "must be a JSON object, not null", Category: DecodeType}
	}
	return &DecodeError{Problem: "must be a JSON object", Category: DecodeType}
}
