package genopenapi

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	"gopkg.in/yaml.v3"

	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/orderedjson"
	"github.com/errgen/errgen/internal/targets"
)

// TestStringsStayStrings checks that strings a YAML 1.1 reader would take
// for a boolean, null or number are quoted, and that ordinary text is not.
func TestStringsStayStrings(t *testing.T) {
	for s, quoted := range map[string]bool{
		"no": true, "No": true, "yes": true, "y": true, "N": true, "on": true, "OFF": true, "true": true,
		"null": true, "~": true, "<<": true, "1": true, "1:20": true, "2001-12-14": true, "-1": true, ".5": true, "3.1.0": true, ".inf": true,
		// yaml.v3 quotes the empty string itself.
		"": true, "none": false, "ok": false, "never": false, "safe": false, "not_found": false, "#/components/schemas/Envelope": true,
	} {
		out, err := encode("", newObject().set("v", str(s)).node())
		if err != nil {
			t.Fatal(err)
		}
		got := strings.TrimSuffix(strings.TrimPrefix(string(out), "v: "), "\n")
		if isQuoted := strings.HasPrefix(got, `"`) || strings.HasPrefix(got, `'`); isQuoted != quoted {
			t.Errorf("%q is written %s, want quoted %v", s, got, quoted)
		}
		var back map[string]any
		if err := yaml.Unmarshal(out, &back); err != nil || back["v"] != s {
			t.Errorf("%q reads back as %#v (%v)", s, back["v"], err)
		}
	}
}

// yaml11Spec is the rule yaml11 implements, as a regular expression (the
// form it had before it became a function, for speed).
var yaml11Spec = regexp.MustCompile(`^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|~|null|Null|NULL|<<|=)$|^[-+.]?[0-9]|^\.(inf|Inf|INF|nan|NaN|NAN)$`)

func TestYAML11AgreesWithItsRule(t *testing.T) {
	texts := []string{"", "y", "yes", "YES", "Yes ", "no", "NO", "nO", "on", "Off", "~", "~~", "null", "NULL", "nil", "<<", "=", "==",
		".inf", ".Inf", ".INF", ".iNf", ".nan", ".NaN", "inf", "1", "12", "1:20", "2001-12-14", "-1", "+1", ".5", "-.5", "--1", "-", "+", ".", "a1",
		" 1", "0x1F", "e5", "true", "True", "tRUE", "false", "yaml", "n/a", "unknown_action", "This kind is retried.", "ÿ"}
	for _, s := range texts {
		if got, want := yaml11(s), yaml11Spec.MatchString(s); got != want {
			t.Errorf("yaml11(%q) = %v, the rule says %v", s, got, want)
		}
	}
}

// fromJSONByDecoder is fromJSON as it was before its reader: json.Decoder's
// tokens all the way.
func fromJSONByDecoder(data []byte) (*yaml.Node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return jsonValue(dec)
}

// fromJSON's reader makes the nodes json.Decoder's tokens make, or leaves
// the text to them: the schemas of every test contract, and texts cut,
// joined and broken at random from JSON of awkward values (escapes, U+2028,
// ill-formed UTF-8, numbers at the edges of the grammar, deep nesting).
func TestFromJSONReadsAsTheDecoder(t *testing.T) {
	var docs [][]byte
	for _, c := range gentest.Contracts(t, "../contract/testdata/valid/*/kinds.yaml") {
		for _, s := range []*jsonschema.Schema{genschema.EnvelopeSchema(c, genschema.Consumer), genschema.ProblemSchema(c)} {
			data, err := orderedjson.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, data)
		}
	}
	pieces := []string{`{`, `}`, `[`, `]`, `,`, `:`, ` `, "\n", `"k"`, `"a\"b"`, `"\u2028"`, `"\ud83d\ude00"`, `"\ud800"`, "\"\xff\"", `"é"`,
		`0`, `-0`, `01`, `1.5`, `1.`, `.5`, `1e9`, `1E+2`, `-`, `1e`, `true`, `false`, `null`, `nul`, `"x`, "\"\x01\"", `"\/"`}
	rnd := uint32(5)
	next := func(n int) int { rnd = rnd*1664525 + 1013904223; return int(rnd>>8) % n }
	for range 6000 {
		var b strings.Builder
		for range next(10) + 1 {
			b.WriteString(pieces[next(len(pieces))])
		}
		docs = append(docs, []byte(b.String()))
	}
	docs = append(docs, []byte(strings.Repeat("[", 10001)+strings.Repeat("]", 10001)), []byte(`{"a":[1,{"b":null}]} `), []byte(`{"a":1} x`))
	read := 0
	for _, d := range docs {
		want, werr := fromJSONByDecoder(d)
		got, gerr := fromJSON(d)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%q: error %v, the decoder's %v", d, gerr, werr)
		}
		if werr != nil {
			continue
		}
		read++
		if !sameNodes(got, want) {
			wb, _ := encode("", want)
			gb, _ := encode("", got)
			t.Fatalf("%q:\ngot  %s\nwant %s", d, gb, wb)
		}
	}
	if read < 1000 {
		t.Errorf("only %d texts read", read)
	}
}

// sameNodes compares two node trees' kinds, tags, styles and values.
func sameNodes(a, b *yaml.Node) bool {
	if a.Kind != b.Kind || a.Tag != b.Tag || a.Style != b.Style || a.Value != b.Value || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !sameNodes(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// The schemas read from the run's shared schema files are the ones written
// for the document alone: every test contract's, node for node.
func TestSchemasFromTheSharedFiles(t *testing.T) {
	for name, c := range gentest.Contracts(t, "../contract/testdata/valid/*/kinds.yaml") {
		alone, err := schemas(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		fromFiles, err := schemas(c, targets.NewShared())
		if err != nil {
			t.Fatal(err)
		}
		if !sameNodes(fromFiles, alone) {
			a, _ := encode("", alone)
			b, _ := encode("", fromFiles)
			t.Errorf("%s: from the files\n%s\nalone\n%s", name, b, a)
		}
	}
}
