package agenterror

// This file holds the envelope's encoder and decoder, which follow the
// contract's layout through the generated table wireLayout: one slot per
// field of the layout, numbered depth first in layout order, each spelling
// a field accepts on input after the field's own, so the fields of a nested
// object are one contiguous run of slots. The generated wireField points at
// the envelope's value of a slot for the decoder, and wireDecode decodes
// the values of no fixed shape through encoding/json. The generated
// appendWire writes the fields in order, straight-line code with the
// layout's names as literals, which is what makes the encoder fast.

import (
	"math"
	"strconv"
)

// slotKind says how a slot's value is written and read.
type slotKind uint8

const (
	slotObject      slotKind = iota // a nested object: its fields are the slots up to end
	slotConstString                 // the layout's constants, raw, not kept: a string (text),
	slotConstBool                   // a boolean (num 1 for true),
	slotConstInt                    // an integer (num)
	slotConstFloat                  // or another number (num)
	slotVersion                     // the integer contract version (*int)
	slotString                      // a string (*string): the kind, the message, the enumerated values, the group, text fields
	slotHint                        // the retry hint (**int64), never negative
	slotInt                         // an integer field (**int64)
	slotBool                        // a boolean field or a derived flag (**bool)
	slotFloat                       // a number field (**float64)
	slotStrings                     // an array of strings (*[]string)
	slotAny                         // a value of no fixed shape (wireDecode)
)

// wireSlot is one field of the layout, or one more spelling of one.
type wireSlot struct {
	name string // the member's name
	kind slotKind
	// alias marks another spelling of the slot before it, read on input
	// only: the first spelling present wins.
	alias bool
	// nonEmpty marks a string an envelope never has empty: the kind and the
	// context fields the layout requires.
	nonEmpty bool
	// sanitize marks a value the decoder sanitizes (UnmarshalJSON).
	sanitize bool
	// end is one past the last slot of an object; obj numbers the objects
	// depth first, the root 0, for their Extra members.
	end, obj int
	// text or num is a constant's value.
	text string
	num  float64

	// How the decoder reports the slot: path, whether it is required, the
	// problem of a value of the wrong type and of a rejected one.
	path         string
	required     bool
	typeProblem  string
	typeCategory DecodeErrorCategory
	valueProblem string
}

// problem returns the error for a field in state st, or nil.
func (f *wireSlot) problem(st uint8) error {
	switch st {
	case stAbsent:
		if f.required {
			return &DecodeError{Path: f.path, Problem: "is required", Category: DecodeMissing}
		}
	case stNull:
		// Null where a value is required is a type error.
		if f.required {
			return &DecodeError{Path: f.path, Problem: "is required", Category: DecodeType}
		}
	case stWrongType:
		return &DecodeError{Path: f.path, Problem: f.typeProblem, Category: f.typeCategory}
	case stBadValue:
		return &DecodeError{Path: f.path, Problem: f.valueProblem, Category: DecodeValue}
	}
	return nil
}

// wireOwns reports whether name is a member of the object whose fields
// are the slots from to to, spellings accepted on input included.
func wireOwns(from, to int, name string) bool {
	for i := from; i < to; i = wireNext(i) {
		if wireLayout[i].name == name {
			return true
		}
	}
	return false
}

// wireNext is the slot after i and the fields of the object i is.
func wireNext(i int) int {
	if wireLayout[i].kind == slotObject {
		return wireLayout[i].end
	}
	return i + 1
}

// AppendJSON appends the envelope in the contract's wire layout to dst: the
// layout's fields in order, absent optional fields left out, then Extra
// entries sorted by key, skipping any that would override a field of the
// contract. On error it returns dst unchanged: an *EncodeError for an
// envelope no decoder would read back (no kind, a negative retry hint, an
// integer past MaxSafeInteger, an empty field the layout requires), or the
// error of an Extra or free-form value encoding/json cannot encode or no
// decoder would read back (nested past MaxDepth, a number past the range of
// a 64-bit float). Appending to a reused buffer encodes without allocating.
func (e *Envelope) AppendJSON(dst []byte) ([]byte, error) {
	if err := e.refusal(); err != nil {
		return dst, err
	}
	b, err := e.appendWire(append(dst, '{'))
	if err != nil {
		return dst, err
	}
	return append(b, '}'), nil
}

// The generated appendWire writes the layout's members in order, each with
// the helpers below: key is the member's name as written, quoted, with a
// colon after it and a comma before it, which wireKey leaves out for the
// first member of the object whose members start at start. Where the
// generator knows whether a member is the first, it leaves the comma out
// of key or not itself and passes wireKnown as start.

// wireKnown is the start of a member known to be, or not to be, its
// object's first: no length is.
const wireKnown = -1

// wireKey appends a member's name, a comma first unless it is the first.
func wireKey(b []byte, start int, key string) []byte {
	if len(b) == start {
		key = key[1:]
	}
	return append(b, key...)
}

func wireStr(b []byte, start int, key, v string) []byte {
	return appendString(wireKey(b, start, key), v)
}

func wireInt(b []byte, start int, key string, v int64) []byte {
	return strconv.AppendInt(wireKey(b, start, key), v, 10)
}

func wireBool(b []byte, start int, key string, v bool) []byte {
	return strconv.AppendBool(wireKey(b, start, key), v)
}

func wireStrs(b []byte, start int, key string, v []string) []byte {
	return appendStrings(wireKey(b, start, key), v)
}

// wireRequired appends a string the layout requires: an envelope without
// it is not one the contract's systems accept, so it does not encode.
func wireRequired(b []byte, start int, key, v, field, path string) ([]byte, error) {
	if v == "" {
		return nil, &EncodeError{Field: field, Problem: "is empty, and the layout requires " + path}
	}
	return wireStr(b, start, key, v), nil
}

// wireSafeInt appends an integer field: past MaxSafeInteger no decoder of
// the contract reads it back.
func wireSafeInt(b []byte, start int, key string, v int64, field string) ([]byte, error) {
	if v > MaxSafeInteger || v < -MaxSafeInteger {
		return nil, &EncodeError{Field: field, Problem: "is past MaxSafeInteger"}
	}
	return wireInt(b, start, key, v), nil
}

// wireValue appends a value of no fixed shape, or a number (NaN must
// fail), through encoding/json: the value at path, in an object at depth
// (the root is 1).
func wireValue(b []byte, start int, key, path string, depth int, v any) ([]byte, error) {
	return appendAny(wireKey(b, start, key), path, depth, v)
}

// wireGroup is the group written for an envelope of kind whose Group is v:
// v, or the kind's when v is empty.
func wireGroup(v string, kind Kind) string {
	if v == "" {
		return string(Lookup(kind).Group)
	}
	return v
}

// wireClose ends a nested object whose member starts at mark and whose
// own members start at start: one the layout leaves optional with nothing
// but absent optional members is left out.
func wireClose(b []byte, mark, start int, required bool) []byte {
	if !required && len(b) == start {
		return b[:mark]
	}
	return append(b, '}')
}

// wireState is what the decoder found of each slot of the layout: a state
// (stSet...), the value of a number or flag kept until it is checked (a
// float's bits, a flag's 0 or 1), the text of a value of no fixed shape,
// and the members no field claims, per object of the layout, so a replaced
// object's are dropped without a search.
type wireState struct {
	st     [len(wireLayout)]uint8
	nums   [len(wireLayout)]int64
	raws   [len(wireLayout)][]byte
	extras [wireObjects]extraList
}

// decode is UnmarshalJSON without the size limit, sanitizing every text it
// reads when sanitize is set.
func (e *Envelope) decode(data []byte, sanitize bool) error {
	var out Envelope
	var w wireState
	d := newScanner(data)
	if err := d.document(); err != nil {
		return err
	}
	w.scan(&d, &out, 0, len(wireLayout), 0, "", 0)
	if d.end(); d.failed {
		return d.invalid()
	}
	if err := w.check(&out, 0, len(wireLayout), sanitize); err != nil {
		return err
	}
	if err := w.assemble(&out, sanitize); err != nil {
		return err
	}
	fillUnmapped(&out)
	extra, err := buildExtra(w.extras[:])
	if err != nil {
		return err
	}
	if sanitize {
		sanitizeExtra(extra)
	}
	out.Extra = extra
	*e = out
	return nil
}

// scan reads the members of the object whose fields are the slots from to
// to, object number obj at depth, storing each value where it goes.
func (w *wireState) scan(d *scanner, out *Envelope, from, to, obj int, path string, depth int) {
	// Members usually come in layout order: the one after the last is
	// looked at first, then the last again.
	last, next := from, from
	for more := d.first(); more; more = d.next() {
		i := next
		switch {
		case next < to && wireLayout[next].name == string(d.key):
		case next > from && wireLayout[last].name == string(d.key):
			i = last // the same member again
		default:
			i = wireFind(obj, from, to, next, d.key)
		}
		if i < 0 {
			d.keep(&w.extras[obj], path, depth)
			continue
		}
		last, next = i, wireNext(i)
		s := &wireLayout[i]
		if s.kind == slotObject {
			w.st[i] = d.open()
			// A later member of the same name replaces what an earlier one set.
			clear(w.st[i+1 : s.end])
			for j := i; j < s.end; j++ {
				switch wireLayout[j].kind {
				case slotString:
					*out.wireField(j).(*string) = ""
				case slotStrings:
					*out.wireField(j).(*[]string) = nil
				case slotObject:
					w.extras[wireLayout[j].obj].reset()
				}
			}
			if w.st[i] == stSet {
				w.scan(d, out, i+1, s.end, s.obj, s.path, depth+1)
			}
			continue
		}
		if s.kind == slotString && !s.nonEmpty {
			// The most common member, read here rather than through read.
			w.st[i] = d.str(out.wireField(i).(*string))
			continue
		}
		w.st[i] = w.read(d, out, i)
	}
}

// wireFind returns the slot of the member name of object obj, whose fields
// are the slots from to to, or -1. A name no member's length matches is
// turned away at once; the others are looked up in the object's index when
// it has one, else from next (which the caller looked at) on and then from
// the start.
func wireFind(obj, from, to, next int, name []byte) int {
	if n := len(name); n < 64 && wireLengths[obj]&(1<<n) == 0 {
		return -1
	}
	if index := wireIndex[obj]; index != nil {
		if i, ok := index[string(name)]; ok {
			return i
		}
		return -1
	}
	for j := next; j < to; j = wireNext(j) {
		if wireLayout[j].name == string(name) {
			return j
		}
	}
	for j := from; j < next && j < to; j = wireNext(j) {
		if wireLayout[j].name == string(name) {
			return j
		}
	}
	return -1
}

// wireIndexed is how many members an object has before wireFind looks
// their names up in an index instead of one by one.
const wireIndexed = 8

// wireIndex is the index of the members of each object of the layout
// that has more than wireIndexed, by object number (the root 0);
// wireLengths has bit n set when one of an object's members is n bytes
// long (a name of 64 or more bytes sets none).
var (
	wireIndex   [wireObjects]map[string]int
	wireLengths [wireObjects]uint64
)

func init() {
	var add func(obj, from, to int)
	add = func(obj, from, to int) {
		n := 0
		for j := from; j < to; j = wireNext(j) {
			n++
			if l := len(wireLayout[j].name); l < 64 {
				wireLengths[obj] |= 1 << l
			}
			if s := &wireLayout[j]; s.kind == slotObject {
				add(s.obj, j+1, s.end)
			}
		}
		if n <= wireIndexed {
			return
		}
		wireIndex[obj] = make(map[string]int, n)
		for j := from; j < to; j = wireNext(j) {
			wireIndex[obj][wireLayout[j].name] = j
		}
	}
	add(0, 0, len(wireLayout))
}

// read reads the value of slot i.
func (w *wireState) read(d *scanner, out *Envelope, i int) uint8 {
	s := &wireLayout[i]
	switch s.kind {
	// A string constant is compared as it is scanned; any other is read as
	// its type is and compared.
	case slotConstString:
		return d.constString(s.text)
	case slotConstBool:
		return constValue(d.boolean, s.num == 1)
	case slotConstInt:
		return constValue(d.integer, int64(s.num))
	case slotConstFloat:
		return constValue(d.float, s.num)
	case slotString:
		p := out.wireField(i).(*string)
		st := d.str(p)
		if st == stSet && s.nonEmpty && *p == "" {
			// The kind and a context field the layout requires are never empty.
			return stBadValue
		}
		return st
	case slotStrings:
		return d.strs(out.wireField(i).(*[]string))
	case slotVersion, slotHint, slotInt:
		st := d.integer(&w.nums[i])
		if st == stSet && s.kind == slotHint && w.nums[i] < 0 {
			return stBadValue
		}
		return st
	case slotBool:
		var v bool
		st := d.boolean(&v)
		// A later member of the same name replaces an earlier true.
		w.nums[i] = 0
		if v {
			w.nums[i] = 1
		}
		return st
	case slotFloat:
		var v float64
		st := d.float(&v)
		w.nums[i] = int64(math.Float64bits(v))
		return st
	}
	var st uint8
	w.raws[i], st = d.raw()
	return st
}

// check returns the first problem of the fields of the slots from to to,
// in layout order, decoding the values of no fixed shape on the way.
func (w *wireState) check(out *Envelope, from, to int, sanitize bool) error {
	main := from // the slot of the spelling a field has first
	sts, plain := w.st[:to], wirePlain[:to]
	for i := from; i < len(sts); i++ {
		st := sts[i]
		if plain[i] && (st == stSet || st == stAbsent) {
			// Most fields: set, or absent and optional.
			main = i
			continue
		}
		s := &wireLayout[i]
		if s.alias {
			// The first spelling present wins; the others are not looked at.
			if w.st[main] == stSet {
				continue
			}
			if st == stSet {
				w.nums[main], w.st[main] = w.nums[i], stSet
			} else if err := s.problem(st); err != nil {
				return err
			}
			continue
		}
		main = i
		if s.kind == slotAny && st == stSet && !out.wireDecode(i, w.raws[i], sanitize) {
			st = stWrongType
		}
		switch {
		case st == stSet:
		case st != stAbsent || s.required:
			if err := s.problem(st); err != nil {
				return err
			}
			fallthrough
		default:
			if s.kind == slotObject {
				i = s.end - 1 // its fields are not looked at
			}
		}
	}
	return nil
}

// The decoder's plan, made from wireLayout once: wirePlain marks the
// slots check need only look at the state of when it is stSet or
// stAbsent (optional leaves that are not another spelling and hold a value
// of fixed shape); wireNums lists the slots whose value is kept in nums
// until it is checked, wireTexts the strings and arrays of strings
// decoding sanitizes.
var (
	wirePlain           [len(wireLayout)]bool
	wireNums, wireTexts []int
)

func init() {
	for i := range wireLayout {
		s := &wireLayout[i]
		switch s.kind {
		case slotString, slotStrings:
			if s.sanitize {
				wireTexts = append(wireTexts, i)
			}
		case slotVersion, slotHint, slotInt, slotBool, slotFloat:
			if !s.alias {
				wireNums = append(wireNums, i)
			}
		}
		wirePlain[i] = !s.required && !s.alias && s.kind != slotObject && s.kind != slotAny
	}
}

// assemble moves the checked numbers and flags into the envelope and,
// when sanitize is set, sanitizes its text (the values of no fixed shape
// are sanitized as they are decoded): a kind or required field the
// sanitizer leaves empty is the value error an empty one is.
func (w *wireState) assemble(out *Envelope, sanitize bool) error {
	for _, i := range wireNums {
		if w.st[i] != stSet {
			continue
		}
		switch p := out.wireField(i).(type) {
		case *int:
			*p = int(w.nums[i])
		case **int64:
			v := w.nums[i]
			*p = &v
		case **bool:
			v := w.nums[i] != 0
			*p = &v
		case **float64:
			v := math.Float64frombits(uint64(w.nums[i]))
			*p = &v
		}
	}
	if !sanitize {
		return nil
	}
	for _, i := range wireTexts {
		switch p := out.wireField(i).(type) {
		case *string:
			if *p = Sanitize(*p); *p == "" && wireLayout[i].nonEmpty {
				return wireLayout[i].problem(stBadValue)
			}
		case *[]string:
			*p = sanitizeStrings(*p)
		}
	}
	return nil
}
