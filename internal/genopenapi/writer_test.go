package genopenapi

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/orderedjson"
	"gopkg.in/yaml.v3"
)

// TestWriterMatchesYAMLv3 holds writeDocument to yaml.v3's encoder, byte
// for byte: on the document of every contract the tests know, and on a
// document made of awkward texts as keys, values and sequence items at
// several depths.
func TestWriterMatchesYAMLv3(t *testing.T) {
	for file, c := range gentest.Contracts(t) {
		doc, vals, err := document(c, Responses(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		sameWithValues(t, file, doc, vals)
	}
	sameAsYAMLv3(t, "awkward texts", awkwardDocument(awkwardTexts))
	// Text that is not UTF-8 is an error either way.
	sameAsYAMLv3(t, "ill-formed text", awkwardDocument([]string{"a\xffb"}))
}

// awkwardTexts are texts whose YAML form each take a different rule of
// yaml.v3's: quoting, escapes, indicators, block scalars, resolution.
var awkwardTexts = []string{
	"", " ", "a", "plain text, with commas; and semicolons.", " leading", "trailing ", "a: b", "a:b", "a:", ":a", ": a", "? a", "?a",
	"- a", "-a", "-", "--", "---", "--- a", "...", "...a", "#a", "a #b", "a#b", "a# b", "'quoted'", "it's", `"double"`, `back\slash`,
	"[a]", "{a}", "a[b]", "a{b}", "&a", "*a", "!a", "|a", ">a", "%a", "@a", "`a`", "a`", ",a", "a,",
	"yes", "no", "on", "off", "y", "n", "true", "false", "null", "~", "<<", "=", ".inf", "+.inf", "-.inf", ".nan", ".NaN", "NaN", "inf",
	"1", "-1", "+1", "1.5", "1e3", "0x1F", "0o17", "1_000", "1:20", "2001-12-14", "2001-12-14T21:59:43.10-05:00", "012", ".5", "-.5",
	"a\nb", "a\n", "\na", "\n\n", "a\n\n", "a\n\nb", "\n\n", "a\n\n", " a\nb", "a \nb", "a\n b", "a\tb", "\ta", "a\r\nb", "a\rb",
	"é", "naïve café", "中文", "a\u00a0b", "\u00a0", "a\u0085b", "a\u2028b", "a\u2029b", "a\ufeffb", "\ufeff", "a\ufffdb", "a\uffffb",
	"😀", "a\U0001F600b", "a\x00b", "a\x07b", "a\x1bb", "a\x7fb", "a\u0300",
	strings.Repeat("long ", 40), strings.Repeat("k", 129), strings.Repeat("k", 128),
	"urn:errgen:agent-error:kind:x", "#/components/schemas/Envelope", "https://example.com/a?b=c&d=e#f",
}

// awkwardDocument puts every text in every position: as a key, a value,
// a sequence item, a mapping in a sequence item, nested two levels deep.
func awkwardDocument(texts []string) *yaml.Node {
	root := newObject()
	inner := newObject()
	items := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	objects := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for i, s := range texts {
		key := fmt.Sprintf("k%d", i)
		root.set(key, str(s))
		inner.set(s, str(s))
		items.Content = append(items.Content, str(s))
		objects.Content = append(objects.Content, newObject().set(s, str(s)).set("after", str(s)).node())
	}
	root.set("nested", newObject().set("deeper", inner.node()).node())
	root.set("items", items)
	root.set("objects", objects)
	root.set("nested_items", newObject().set("deeper", &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{items, newObject().node(), {Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}}}).node())
	root.set("numbers", newObject().
		set("int", integer(-12)).set("zero", integer(0)).
		set("float", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: "1.5e-7"}).
		set("big", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "123456789012345678901234567890"}).
		set("bool", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}).
		set("null", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}).node())
	return root.node()
}

func sameAsYAMLv3(t *testing.T, name string, doc *yaml.Node) {
	t.Helper()
	sameWithValues(t, name, doc, nil)
}

// sameWithValues is sameAsYAMLv3 of a document with placeholders: the
// writer, writing their values, gives yaml.v3's bytes for their nodes, and
// the writer's own bytes for their nodes.
func sameWithValues(t *testing.T, name string, doc *yaml.Node, vals *values) {
	t.Helper()
	nodes := vals.materialize(doc)
	want, wantErr := encode("# header\n", nodes)
	got, err := writeDocument("# header\n", doc, vals)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%s: the writer's error %v, yaml.v3's %v", name, err, wantErr)
	}
	if vals != nil {
		viaNodes, err := writeDocument("# header\n", nodes, nil)
		if err != nil || !bytes.Equal(got, viaNodes) {
			t.Fatalf("%s: the writer writes the values otherwise than their nodes (%v):\n%s\nnodes:\n%s", name, err, got, viaNodes)
		}
	}
	if !bytes.Equal(got, want) {
		w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
		for i := range min(len(w), len(g)) {
			if w[i] != g[i] {
				t.Errorf("%s: the writer and yaml.v3 differ at line %d:\nyaml.v3: %q\nwriter:  %q", name, i+1, w[i], g[i])
				return
			}
		}
		t.Errorf("%s: the writer wrote %d lines, yaml.v3 %d", name, len(g), len(w))
	}
}

// FuzzWriter looks for a text that the writer writes differently from
// yaml.v3 in any position (make fuzz).
func FuzzWriter(f *testing.F) {
	for _, s := range awkwardTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		texts := []string{s, s + " x", "x " + s}
		sameAsYAMLv3(t, fmt.Sprintf("%q", s), awkwardDocument(texts))
		if utf8.ValidString(s) {
			doc, vals := valuesDocument(awkwardValue(texts))
			sameWithValues(t, fmt.Sprintf("values %q", s), doc, vals)
		}
	})
}

// TestValueNodeIsTheJSONWay holds valueNode to the way through JSON it
// replaces, on every example of every contract (as an envelope and as a
// problem document) and on values with awkward numbers and texts.
func TestValueNodeIsTheJSONWay(t *testing.T) {
	var values []any
	for _, c := range gentest.Contracts(t) {
		for _, ex := range exampleenv.All(c) {
			values = append(values, ex.Value, exampleenv.Problem(c, ex))
		}
	}
	values = append(values, orderedjson.Object{
		{Key: "floats", Value: []any{0.5, 1e21, 1e-7, -0.0, 123456789.0, 3.0}},
		{Key: "ints", Value: []any{0, -1, int64(1) << 60}},
		{Key: "texts", Value: []string{"", "<&>", "\u2028\u2029", "yes", "1"}},
		{Key: "none", Value: []string(nil)}, {Key: "empty", Value: []any{}}, {Key: "object", Value: orderedjson.Object{}},
		{Key: "null", Value: nil}, {Key: "bool", Value: false},
	})
	for i, v := range values {
		n, ok := valueNode(v)
		if !ok {
			t.Fatalf("value %d: valueNode declined it", i)
		}
		data, err := orderedjson.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		viaJSON, err := fromJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		got, err1 := encode("", n)
		want, err2 := encode("", viaJSON)
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			t.Fatalf("value %d: valueNode gives\n%s\nthe way through JSON\n%s(%v, %v)", i, got, want, err1, err2)
		}
	}
	if _, ok := valueNode("a\xffb"); ok {
		t.Error("valueNode took ill-formed UTF-8, which JSON would have replaced")
	}
}

// TestWriterCollectionTagsAndLongKeys holds the writer to yaml.v3 on what the
// awkward texts do not reach: a collection with a tag of its own (yaml.v3
// writes "x: !custom") and a key longer than 128 bytes that is not a string
// (yaml.v3 writes "? key").
func TestWriterCollectionTagsAndLongKeys(t *testing.T) {
	longFloat := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: "0." + strings.Repeat("0", 140) + "1"}
	sameAsYAMLv3(t, "tagged mapping", newObject().set("x", &yaml.Node{Kind: yaml.MappingNode, Tag: "!custom", Content: []*yaml.Node{str("a"), str("b")}}).node())
	sameAsYAMLv3(t, "tagged sequence", newObject().set("x", &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!set", Content: []*yaml.Node{str("a")}}).node())
	sameAsYAMLv3(t, "tagged root", &yaml.Node{Kind: yaml.MappingNode, Tag: "!custom", Content: []*yaml.Node{str("a"), str("b")}})
	sameAsYAMLv3(t, "long float key", &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{longFloat, str("v")}})
}

// TestWriterFallbackCacheKeepsComments holds the writer's cache of yaml.v3's
// entries to what it keys them by: two entries alike but for a comment are
// not the same entry.
func TestWriterFallbackCacheKeepsComments(t *testing.T) {
	commented := str("a\nb")
	commented.LineComment = "# note"
	sameAsYAMLv3(t, "commented after plain", newObject().set("p", newObject().set("x", str("a\nb")).node()).set("q", newObject().set("x", commented).node()).node())
}

// awkwardValue puts every text in every position of a value the writer
// writes without nodes: a member's key and value, a sequence item, an
// object in a sequence, nested, beside numbers that take each scalar rule
// (a float too large for an int64 is written by yaml.v3), empty and nil
// collections, a sequence in a sequence and an Ordered object.
func awkwardValue(texts []string) orderedjson.Object {
	var flat, byText, objects orderedjson.Object
	items := make([]any, 0, len(texts))
	for i, s := range texts {
		flat = append(flat, orderedjson.Member{Key: fmt.Sprintf("k%d", i), Value: s})
		byText = append(byText, orderedjson.Member{Key: s, Value: s})
		items = append(items, orderedjson.Object{{Key: s, Value: s}, {Key: "after", Value: []string{s}}})
	}
	objects = orderedjson.Object{{Key: "deeper", Value: byText}}
	return orderedjson.Object{
		{Key: "flat", Value: flat},
		{Key: "nested", Value: objects},
		{Key: "texts", Value: texts},
		{Key: "objects", Value: items},
		{Key: "numbers", Value: []any{0, -12, int64(1) << 62, 0.5, 1e20, 1e21, 1e-7, -0.0, 123456789.0, 3.0, true, false, nil}},
		{Key: "empty", Value: []any{[]any{}, []string{}, []string(nil), orderedjson.Object{}, []any{[]any{"a"}}}},
		{Key: "nested_sequence", Value: []any{[]string{"a", "b"}}},
		{Key: "ordered", Value: ordered{{Key: "a", Value: []any{ordered{{Key: "b", Value: 1}}}}}},
		{Key: "nothing", Value: orderedjson.Object{}},
	}
}

type ordered orderedjson.Object

func (o ordered) AsObject() orderedjson.Object { return orderedjson.Object(o) }

// valuesDocument places v as placeholders in the document's positions: a
// member's value at the root and nested, and a sequence's items.
func valuesDocument(v any) (*yaml.Node, *values) {
	vals := &values{}
	doc := newObject().
		set("root", vals.node(v)).
		set("nested", newObject().set("deeper", newObject().set("value", vals.node(v)).node()).node()).
		set("items", &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{vals.node(v), vals.node("text"), vals.node([]any{})}}).
		node()
	return doc, vals
}

// TestValuesWriteAsTheirNodes holds the writer's value path (placeholders
// written from Go values) to its node path and to yaml.v3: on awkward
// values, and on values it declines, which become nodes the old way.
func TestValuesWriteAsTheirNodes(t *testing.T) {
	doc, vals := valuesDocument(awkwardValue(awkwardTexts))
	if len(vals.v) == 0 {
		t.Fatal("no placeholder: the value path went untested")
	}
	sameWithValues(t, "awkward values", doc, vals)
	for _, v := range []any{orderedjson.Object{{Key: "a\xffb", Value: 1}}, []any{"a\xffb"}} {
		doc, vals := valuesDocument(v)
		if len(vals.v) != 2 { // "text" and []any{}
			t.Errorf("%#v: a placeholder for a value valueNode declines", v)
		}
		sameWithValues(t, fmt.Sprintf("%#v", v), doc, vals)
	}
}
