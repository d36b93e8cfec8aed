package orderedjson

import (
	"encoding/json"
	"math"
	"testing"
)

const tricky = "a <b> & \"c\" \\ \n\r\t\b\f\x01\x7f é \u2028\u2029 \xff end"

// values covers every type the writer writes itself, nested.
var values = []any{nil, true, false, 0, -7, int64(1) << 40, 0.5, 1e-7, 1e21, 123456.789, "", tricky,
	[]any{}, []any{1, "x", []any{}}, []string(nil), []string{}, []string{"a", tricky}, []byte(nil), []byte{}, []byte("bytes \x00\xff"),
	Object{}, Object{{tricky, Object{{"n", []any{Object{}, Object{{"k", 1}}}}}}}, named{{"k", []any{named{}}}}}

// named is a type defined over Object, as a package's own ordered object is.
type named Object

func (o named) AsObject() Object { return Object(o) }

func (o named) MarshalJSON() ([]byte, error) { return Object(o).MarshalJSON() }

// The indented writer's bytes must be json.MarshalIndent's.
func TestAppendIndentMatchesMarshalIndent(t *testing.T) {
	for _, v := range values {
		o := Object{{"v", v}, {"w", Object{{"v", v}}}}
		want, err := json.MarshalIndent(o, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := AppendIndent(nil, o, 0, true); !ok || string(got) != string(want) {
			t.Errorf("%#v:\ngot  %s (ok %v)\nwant %s", v, got, ok, want)
		}
	}
	for _, v := range []any{uint8(3), json.RawMessage(`{}`)} {
		if _, ok := AppendIndent(nil, Object{{"u", v}}, 0, true); ok {
			t.Errorf("%T: ok, want false (a type the writer leaves to encoding/json)", v)
		}
	}
}

// The compact writer's bytes must be Marshal's, its own types and others.
func TestAppendCompactMatchesMarshal(t *testing.T) {
	for _, v := range append(values, uint8(3), float32(0.25), json.RawMessage(`{"r":[1]}`)) {
		o := Object{{"v", v}, {"w", Object{{"v", v}}}}
		want, err := Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendCompact(nil, o)
		if err != nil || string(got) != string(want) {
			t.Errorf("%#v:\ngot  %s (%v)\nwant %s", v, got, err, want)
		}
	}
	if _, err := AppendCompact(nil, []any{1.0, Object{{"nan", math.NaN()}}}); err == nil {
		t.Error("NaN: no error")
	}
}

// AppendString without html must write what Marshal writes.
func TestAppendStringMatchesMarshal(t *testing.T) {
	for _, s := range []string{"", "plain", "a <b> & \"c\" \\ \n\x00\x1f\x7f é \u2028\u2029 \xff\xfe end"} {
		want, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString(nil, s, false); string(got) != string(want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}

// AppendString reads eight bytes at a time and skips to the first that
// needs a look: every string of
// bytes around and inside such a block must still be written as
// encoding/json writes it, HTML escapes or not.
func TestAppendStringBlocks(t *testing.T) {
	pieces := []string{"abcdefgh", "x", " ", "\"", "\\", "<", ">", "&", "\n", "\x00", "\x1f", "\x7f", "\x80", "é", "\u2028", "\xff", "~", "!"}
	rnd := uint32(1)
	next := func(n int) int { rnd = rnd*1664525 + 1013904223; return int(rnd>>8) % n }
	for range 3000 {
		var s string
		for range next(24) {
			s += pieces[next(len(pieces))]
		}
		want, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		wantHTML, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		// Into buffers with no room, a little and plenty (the words are
		// stored whole only where eight bytes fit), after a few bytes.
		for _, room := range []int{0, 5, 9, 17, 256} {
			b := append(make([]byte, 0, 3+room), "pre"...)
			if got := AppendString(b, s, false); string(got) != "pre"+string(want) {
				t.Fatalf("%q (room %d): got %s, want %s", s, room, got, want)
			}
			if got := AppendString(b, s, true); string(got) != "pre"+string(wantHTML) {
				t.Fatalf("%q (html, room %d): got %s, want %s", s, room, got, wantHTML)
			}
		}
	}
}
