// Package hostile builds the hostile documents of the decoders' memory
// benchmark (issue 28): valid envelopes of about a given size whose bulk is
// members no field of the layout claims, so that every decoder keeps them
// all for extra. Every language's benchmark decodes the same bytes
// (cmd/hostiledocs writes them to files for TypeScript, Python and Rust).
package hostile

import (
	"bytes"
	"strconv"
	"strings"
)

// Doc is one hostile document.
type Doc struct {
	Name string
	Data []byte
}

// head and tail are the envelope around the extra members: every field the
// layout requires, and a last member the decoder must still reach.
const (
	head = `{"contract_version":1,"kind":"rate_limited","message":"m","origin":"budget",` +
		`"recovery":{"action":"retry_later","same_arguments":"conditional","guidance":"g"},` +
		`"side_effects":"none_expected"`
	tail = `,"tool":"t"}`
)

// Depth is how deeply an extra member's value nests in the nested shapes:
// with the envelope's own object, MaxDepth (128) levels.
const Depth = 127

// Shapes lists the shapes, each a function writing the value of the i-th
// extra member (its name is the shape's letter and i):
//   - members: millions of distinct small members (`"m123":0`);
//   - nested_arrays, nested_objects: values nested to the depth limit
//     (`[[[…0…]]]`, `{"a":{"a":…0…}}`), repeated under distinct names;
//   - strings: 64 KiB strings of escapes (\n, \", \u00e9, \ud83d\ude00)
//     and plain text;
//   - numbers: arrays of 4,096 one-digit numbers.
var Shapes = []struct {
	Name  string
	Value func(b *bytes.Buffer)
}{
	{"members", func(b *bytes.Buffer) { b.WriteByte('0') }},
	{"nested_arrays", func(b *bytes.Buffer) {
		b.WriteString(strings.Repeat("[", Depth))
		b.WriteByte('0')
		b.WriteString(strings.Repeat("]", Depth))
	}},
	{"nested_objects", func(b *bytes.Buffer) {
		b.WriteString(strings.Repeat(`{"a":`, Depth))
		b.WriteByte('0')
		b.WriteString(strings.Repeat("}", Depth))
	}},
	{"strings", func(b *bytes.Buffer) {
		b.WriteByte('"')
		for range 64 << 10 / 30 {
			b.WriteString(`ab\n\"\u00e9\ud83d\ude00 plain`) // 30 bytes
		}
		b.WriteByte('"')
	}},
	{"numbers", func(b *bytes.Buffer) {
		b.WriteByte('[')
		for j := range 4096 {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteByte(byte('0' + j%10))
		}
		b.WriteByte(']')
	}},
}

// Build returns the shape's document of about size bytes (never less than
// one extra member).
func Build(shape int, size int) []byte {
	s := Shapes[shape]
	var b bytes.Buffer
	b.Grow(size + 128<<10)
	b.WriteString(head)
	for i := 0; i == 0 || b.Len()+len(tail) < size; i++ {
		b.WriteString(`,"`)
		b.WriteByte(s.Name[0])
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`":`)
		s.Value(&b)
	}
	b.WriteString(tail)
	return b.Bytes()
}

// All returns every shape's document of about size bytes.
func All(size int) []Doc {
	docs := make([]Doc, len(Shapes))
	for i, s := range Shapes {
		docs[i] = Doc{s.Name, Build(i, size)}
	}
	return docs
}
