package genvectors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode/utf16"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/orderedjson"
)

// The decoders of the three languages read documents at the edges of JSON
// the same way, by one policy (docs/conformance.md: "What every decoder accepts"):
//
//   - arrays and objects nest at most contract.MaxDepth levels, the
//     envelope's own object being the first; a deeper document is a syntax
//     error (path ""), whatever its shape;
//   - a number past the range of a 64-bit float (1e999, an integer of 310
//     digits or more, which also covers Python's 4,300-digit limit) is a
//     syntax error, since JavaScript reads it as an infinity that no encoder
//     writes back;
//   - a member of integer type holds a number whose value, as a 64-bit
//     float, is whole (1.0 and 1e0 are 1, -0 is 0; 1.5 is a type error) and
//     of at most contract.MaxSafeInteger in magnitude (else a value error);
//     free-form numbers (unknown members, free-form objects) are kept as
//     they are, whatever their size;
//   - text is UTF-8: each byte of invalid UTF-8 and each \u escape of a lone
//     surrogate reads as U+FFFD, as encoding/json reads them; bytes are never
//     read as UTF-16 or UTF-32, and a byte order mark is a syntax error;
//   - a member given twice counts once, with its last value.
//
// limits adds the malformed vectors of that policy, edges the accepted
// documents with what each decodes to.

// EdgeVec is a document at an edge of what every decoder accepts, as text
// or (when it is not valid UTF-8) bytes: it decodes, and encoding the
// decoded envelope gives Envelope (as a JSON value: member order aside).
type EdgeVec struct {
	Name  string  `json:"name"`
	Text  *string `json:"text,omitempty"`
	Bytes []byte  `json:"bytes,omitempty"`
	// Envelope is the decoded envelope as its encoder writes it back.
	Envelope json.RawMessage `json:"envelope"`
}

// integerLeaves are the leaves of integer type that carry a value of the
// envelope's own: the contract version (when a number), the retry hint and
// the fields of type integer.
func integerLeaves(c *contract.Contract) []*contract.Leaf {
	var out []*contract.Leaf
	for _, lf := range c.Layout.Leaves {
		if lf.Source != contract.SourceConst && leafType(c, lf) == contract.TypeInteger {
			out = append(out, lf)
		}
	}
	return out
}

// nest returns n arrays nested in one another, the innermost empty.
func nest(n int) rawText {
	return rawText(strings.Repeat("[", n) + strings.Repeat("]", n))
}

// nestObjects returns n objects nested in one another under the member a.
func nestObjects(n int) rawText {
	return rawText(strings.Repeat(`{"a":`, n-1) + "{}" + strings.Repeat("}", n-1))
}

// rawText is a value written into a document as it is.
type rawText string

// depthOf is how deeply the object at path is nested, the root being 1.
func depthOf(o *contract.Object) int {
	return len(segments(o.Path)) + 1
}

// unknownName returns base, or base followed by underscores, whichever the
// object does not own.
func unknownName(o *contract.Object, base string) string {
	for owned(o, base) {
		base += "_"
	}
	return base
}

// prepend returns a copy of o with m as the first member of the object at
// path, which o holds.
func prepend(o object, path string, m orderedjson.Member) object {
	o = clone(o).(object)
	segs := segments(path)
	if len(segs) == 0 {
		return append(object{m}, o...)
	}
	v, _ := o.get(path)
	return o.with(path, append(object{m}, v.(object)...))
}

// docText renders o as a document, rawText values as they are.
func docText(o object) (string, error) {
	b, err := orderedjson.AppendCompact(nil, rawValues(o))
	return string(b), err
}

// rawValues turns the rawText values of o into raw JSON.
func rawValues(v any) any {
	switch v := v.(type) {
	case object:
		out := make(object, len(v))
		for i, m := range v {
			out[i] = orderedjson.Member{Key: m.Key, Value: rawValues(m.Value)}
		}
		return out
	case rawText:
		return json.RawMessage(v)
	}
	return v
}

// limits are the malformed vectors of the shared policy: integers past
// MaxSafeInteger (a value error at their path), documents nested past
// MaxDepth and numbers past the range of a 64-bit float (a syntax error for
// the document), and a byte order mark.
func limits(c *contract.Contract, base object) ([]MalformedVec, error) {
	var out []MalformedVec
	var err error
	input := func(name string, o any, path, category string) {
		if err == nil {
			var in []byte
			in, err = orderedjson.AppendCompact(nil, rawValues(o))
			out = append(out, MalformedVec{Name: name, Input: in, Path: path, Category: category})
		}
	}
	textVec := func(name string, o object) {
		if err == nil {
			var s string
			s, err = docText(o)
			out = append(out, MalformedVec{Name: name, Text: &s, Path: "", Category: CategorySyntax})
		}
	}
	for _, lf := range integerLeaves(c) {
		p := lf.Path
		past := []struct {
			what  string
			value any
		}{
			{"2^53, one past the largest integer every decoder reads exactly", int64(contract.MaxSafeInteger + 1)},
			{"2^63-1", int64(math.MaxInt64)},
			{"2^64", rawText("18446744073709551616")},
			{"1e300, a whole number past 2^53-1", rawText("1e300")},
		}
		if lf.Source != contract.SourceRetryAfterMs {
			past = append(past, struct {
				what  string
				value any
			}{"-2^53", int64(-contract.MaxSafeInteger - 1)})
		}
		for _, v := range past {
			input(fmt.Sprintf("%s: %s", p, v.what), base.with(p, v.value), p, CategoryValue)
		}
		for _, a := range lf.Aliases {
			ap := joinPath(lf.Object.Path, a)
			input(fmt.Sprintf("%s (alias of %s): 2^53", ap, p), base.without(p).with(ap, int64(contract.MaxSafeInteger+1)), ap, CategoryValue)
		}
	}
	root := c.Layout.Root
	deep := unknownName(root, "x_deep")
	input(fmt.Sprintf("past a limit: arrays nested %d levels deep, one more than every decoder reads", contract.MaxDepth+1),
		base.with(deep, nest(contract.MaxDepth)), "", CategorySyntax)
	input(fmt.Sprintf("past a limit: objects nested %d levels deep, one more than every decoder reads", contract.MaxDepth+1),
		base.with(deep, nestObjects(contract.MaxDepth)), "", CategorySyntax)
	for _, o := range c.Layout.Objects[1:] {
		name := joinPath(o.Path, unknownName(o, "x_deep"))
		input(fmt.Sprintf("past a limit: nested %d levels deep under %s", contract.MaxDepth+1, o.Path),
			base.with(name, nest(contract.MaxDepth+1-depthOf(o))), "", CategorySyntax)
		// A root member whose name places it in the object is written
		// there, deeper than it was read: the limit counts where it is
		// written, so that the envelope read can be encoded again.
		input(fmt.Sprintf("past a limit where it is written: a root member named %s, nested %d levels deep there", name, contract.MaxDepth+1),
			append(clone(base).(object), orderedjson.Member{Key: name, Value: nest(contract.MaxDepth + 1 - depthOf(o))}), "", CategorySyntax)
	}
	big := unknownName(root, "x_big")
	for _, n := range []struct{ what, text string }{
		{"1e999", "1e999"},
		{"-1e999", "-1e999"},
		{"an integer of 310 digits", "1" + strings.Repeat("0", 309)},
		{"an integer of 4,301 digits (past Python's limit on int())", "1" + strings.Repeat("0", 4300)},
	} {
		textVec("past a limit: a number past the range of a 64-bit float: "+n.what, base.with(big, rawText(n.text)))
	}
	if lf := c.Layout.Leaf(contract.SourceRetryAfterMs); lf != nil {
		// The document's limits come before the layout's checks.
		textVec("past a limit: a number past the range of a 64-bit float: 1e400 as "+lf.Path, base.with(lf.Path, rawText("1e400")))
	}
	if err != nil {
		return nil, err
	}
	doc, err := docText(base)
	if err != nil {
		return nil, err
	}
	// A member given twice whose first copy is past a limit: the text is
	// held to the limits, not the value a parser keeps (the last copy).
	kindLeaf := c.Layout.Leaf(contract.SourceKind)
	for _, n := range []struct{ what, text string }{
		{"1e999", "1e999"},
		{"an integer of 310 digits", "1" + strings.Repeat("0", 309)},
		{fmt.Sprintf("arrays that make the document nest %d levels deep", contract.MaxDepth+1), string(nest(contract.MaxDepth))},
	} {
		name := string(orderedjson.AppendString(nil, big, false))
		twice := doc[:len(doc)-1] + "," + name + ":" + n.text + "," + name + ":1}"
		out = append(out, MalformedVec{Name: "past a limit: the first of two " + big + " members: " + n.what, Text: &twice, Category: CategorySyntax})
		if kindLeaf != nil && kindLeaf.Object == root {
			first := "{" + string(orderedjson.AppendString(nil, kindLeaf.Name, false)) + ":" + n.text + "," + doc[1:]
			out = append(out, MalformedVec{Name: "past a limit: the first of two " + kindLeaf.Name + " members: " + n.what, Text: &first, Category: CategorySyntax})
		}
	}
	bom := "\ufeff" + doc
	out = append(out, MalformedVec{Name: "not JSON: a byte order mark before the document", Text: &bom, Category: CategorySyntax})
	// The document in UTF-16: decoders read bytes as UTF-8 only.
	var le []byte
	for _, u := range utf16.Encode([]rune(doc)) {
		le = append(le, byte(u), byte(u>>8))
	}
	out = append(out, MalformedVec{Name: "not JSON: the document as UTF-16 (little-endian) bytes", Bytes: le, Category: CategorySyntax})
	return out, nil
}

// edges are the accepted documents of the shared policy, each with the
// envelope it decodes to as its encoder writes it back.
func edges(c *contract.Contract, maximal exampleenv.Example) ([]EdgeVec, error) {
	e := &edgeSet{c: c, base: fromExample(maximal.Value)}
	e.repeatedMembers()
	e.integers()
	e.freeNumbers()
	e.surrogates()
	e.invalidUTF8()
	return e.out, e.err
}

// edgeSet collects the edge vectors of one contract, built on base, the
// maximal example; the first error stops it.
type edgeSet struct {
	c    *contract.Contract
	base object
	out  []EdgeVec
	err  error
}

// add is the vector of the document in, which reads as want.
func (e *edgeSet) add(name string, in, want object) {
	if e.err != nil {
		return
	}
	var s string
	if s, e.err = docText(in); e.err != nil {
		return
	}
	e.addText(name, s, nil, want)
}

// addText is the vector of a document given as text, or as bytes when
// text is empty, which reads as want.
func (e *edgeSet) addText(name, text string, data []byte, want object) {
	var w []byte
	if w, e.err = orderedjson.AppendCompact(nil, rawValues(want)); e.err != nil {
		return
	}
	v := EdgeVec{Name: name, Bytes: data, Envelope: w}
	if data == nil {
		v.Text = &text
	}
	e.out = append(e.out, v)
}

// repeatedMembers: a member or object given twice, the last counts, known
// or not.
func (e *edgeSet) repeatedMembers() {
	c, base, root := e.c, e.base, e.c.Layout.Root
	kind := c.Layout.Leaf(contract.SourceKind)
	twice := unknownName(root, "x_twice")
	in := prepend(base, kind.Object.Path, orderedjson.Member{Key: kind.Name, Value: "not_the_kind"})
	in = append(in, orderedjson.Member{Key: twice, Value: "first"}, orderedjson.Member{Key: twice, Value: object{{Key: "second", Value: true}}})
	e.add("a member given twice: the last value counts", in, base.with(twice, object{{Key: "second", Value: true}}))
	for _, o := range c.Layout.Objects[1:] {
		if strings.Contains(o.Path, ".") {
			continue
		}
		v, ok := base.get(o.Path)
		if !ok {
			continue
		}
		first := clone(v).(object).with(unknownName(o, "x_dropped"), 1)
		e.add("an object given twice: the last counts, with none of the first's members: "+o.Path,
			append(object{{Key: o.Name, Value: first}}, base...), base)
	}
	// A known boolean given twice, true then false: the last counts, as for
	// any member (a decoder that only ever sets a flag would keep true). The
	// false is received, so it is written back, optional or not: a received
	// derived flag wins over the computed one, and a relay must not turn it
	// into the kind's.
	for _, lf := range c.Layout.Leaves {
		if lf.Source == contract.SourceConst || leafType(c, lf) != contract.TypeBoolean {
			continue
		}
		last := base.with(lf.Path, false)
		e.add("a boolean given twice, true then false: the last value counts: "+lf.Path,
			prepend(last, lf.Object.Path, orderedjson.Member{Key: lf.Name, Value: true}), last)
	}
	many := unknownName(root, "x_many")
	in = clone(base).(object)
	for i := range 1000 {
		in = append(in, orderedjson.Member{Key: many, Value: i})
	}
	e.add("an unknown member given 1000 times: the last value counts", in, base.with(many, 999))
}

// integers are read by value, at the edges of the range.
func (e *edgeSet) integers() {
	c, base := e.c, e.base
	if lf := c.Layout.Leaf(contract.SourceRetryAfterMs); lf != nil {
		for _, v := range []struct {
			what string
			text string
			want int64
		}{
			{"1.5e3", "1.5e3", 1500},
			{"1500.0", "1500.0", 1500},
			{"-0", "-0", 0},
			{"-0.0", "-0.0", 0},
			{"1e-999, a number too small for a float, which reads as 0", "1e-999", 0},
			{"2^53-1, the largest integer every decoder reads exactly", fmt.Sprint(contract.MaxSafeInteger), contract.MaxSafeInteger},
		} {
			e.add(fmt.Sprintf("%s: %s", lf.Path, v.what), base.with(lf.Path, rawText(v.text)), base.with(lf.Path, v.want))
		}
	}
	for _, lf := range integerLeaves(c) {
		if lf.Source == contract.SourceRetryAfterMs {
			continue
		}
		want := int64(404)
		if lf.Source == contract.SourceVersion {
			want = toInt64(c.VersionValue())
		}
		e.add(fmt.Sprintf("%s: %d written as %d.0", lf.Path, want, want), base.with(lf.Path, rawText(fmt.Sprintf("%d.0", want))), base.with(lf.Path, want))
		e.add(fmt.Sprintf("%s: -(2^53-1), the smallest integer every decoder reads exactly", lf.Path), base.with(lf.Path, rawText(fmt.Sprint(-contract.MaxSafeInteger))), base.with(lf.Path, int64(-contract.MaxSafeInteger)))
	}
}

// freeNumbers: free-form numbers are kept, whatever their size
// (TypeScript holds them as JavaScript numbers, so a large integer is the
// nearest one there, on both sides of the comparison).
func (e *edgeSet) freeNumbers() {
	base := e.base
	free := unknownName(e.c.Layout.Root, "x_number")
	for _, n := range []struct{ what, text string }{
		{"the largest 64-bit float", "1.7976931348623157e308"},
		{"2^63-1", "9223372036854775807"},
		{"0.1", "0.1"},
	} {
		e.add("an unknown member holding "+n.what, base.with(free, rawText(n.text)), base.with(free, rawText(n.text)))
	}
	e.add("an unknown member holding 1e-999, which reads as 0", base.with(free, rawText("1e-999")), base.with(free, 0))
}

// surrogates: lone surrogates in \u escapes read as U+FFFD, as
// encoding/json reads them; a pair is the character it encodes.
func (e *edgeSet) surrogates() {
	base := e.base
	message := e.c.Layout.Leaf(contract.SourceMessage)
	esc := `"lone \ud800, low \udc00, high then A \ud83d\u0041, pair \ud83d\ude00, reversed \ude00\ud83d"`
	e.add("lone surrogate escapes in "+message.Path+" read as U+FFFD", base.with(message.Path, rawText(esc)),
		base.with(message.Path, "lone \ufffd, low \ufffd, high then A \ufffdA, pair \U0001F600, reversed \ufffd\ufffd"))
	if e.err != nil {
		return
	}
	key := unknownName(e.c.Layout.Root, "x_key")
	in, err := docText(base.with(key+"_LONE", 1))
	if err != nil {
		e.err = err
		return
	}
	s := strings.Replace(in, `"`+key+`_LONE"`, `"`+key+`_\udfff"`, 1)
	e.addText("a lone surrogate escape in an unknown member's name reads as U+FFFD", s, nil, base.with(key+"_\ufffd", 1))
}

// invalidUTF8: each byte of invalid UTF-8 reads as U+FFFD.
func (e *edgeSet) invalidUTF8() {
	message := e.c.Layout.Leaf(contract.SourceMessage)
	for _, v := range []struct {
		what  string
		bytes string
		want  string
	}{
		{"a stray byte and a cut sequence", "a\xffb\xe2\x82c", "a\ufffdb\ufffd\ufffdc"},
		{"an encoded surrogate", "a\xed\xa0\x80b", "a\ufffd\ufffd\ufffdb"},
		{"an overlong encoding", "a\xc0\xafb", "a\ufffd\ufffdb"},
	} {
		if e.err != nil {
			return
		}
		var doc string
		if doc, e.err = docText(e.base.with(message.Path, "MARK")); e.err != nil {
			return
		}
		b := bytes.Replace([]byte(doc), []byte(`"MARK"`), []byte(`"`+v.bytes+`"`), 1)
		e.addText("invalid UTF-8 in "+message.Path+": "+v.what+", each byte reads as U+FFFD", "", b, e.base.with(message.Path, v.want))
	}
}

// deepEnvelope is the richest example with an unknown member nested exactly
// MaxDepth levels deep: the deepest document every decoder reads, and every
// encoder writes back.
func deepEnvelope(c *contract.Contract, maximal exampleenv.Example) object {
	base := fromExample(maximal.Value)
	return rawValues(base.with(unknownName(c.Layout.Root, "x_deep"), nest(contract.MaxDepth-1))).(object)
}
