package gengo

import (
	"bytes"
	"fmt"
	"go/format"
	"path"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/synth"
	"github.com/errgen/errgen/internal/targets"
)

// allRequired is a synthetic contract whose kind-specific fields are all
// required and cover every parameter type a constructor takes: string,
// integer, number, boolean, arrays of strings and of integers, a free
// object and an object with properties; sanitize lists the text ones.
func allRequired(t *testing.T, sanitize string) []byte {
	data := synth.Contract(60)
	for old, repl := range map[string]string{
		"{type: array, items: string, description":                        "{type: array, items: string, required: true, description",
		"{type: integer, description":                                     "{type: integer, required: true, description",
		"{type: number, description":                                      "{type: number, required: true, description",
		"{type: boolean, description":                                     "{type: boolean, required: true, description",
		"{type: object, description: Structured details of the failure.}": "{type: object, required: true, description: Details., properties: {code: {type: string, required: true, description: The code.}}}",
		"{type: string, description: The closest valid alternative.}":     "{type: array, items: integer, required: true, description: Positions.}",
	} {
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("the synthetic contract has no %q", old)
		}
		data = bytes.ReplaceAll(data, []byte(old), []byte(repl))
	}
	// A free object too: the first kind with valid_choices gets one more.
	data = regexp.MustCompile(`(?m)^(\s+)valid_choices: (.*)$`).ReplaceAll(data, []byte("${1}valid_choices: $2\n${1}free_form: {type: object, required: true, description: Free.}"))
	return append(data, "\nsanitize:\n  fields: ["+sanitize+"]\n"...)
}

// requiredContextLayout is the default layout with the synthetic contract's
// service context field required and guidance optional.
var requiredContextLayout = []byte(`
layout:
  fields:
    contract_version: version
    kind: kind
    message: message
    service: {from: service, required: true}
    origin: origin
    recovery.action: action
    recovery.same_arguments: same_arguments
    recovery.guidance: {from: guidance, optional: true}
    recovery.retry_after_ms: {from: retry_after_ms, optional: true}
    side_effects: side_effects
`)

// TestConstructorSplice holds the per-kind constructors, written as text by
// writeConstructor, to what go/format makes of them, kind by kind, and
// checks that both the text and the formatted way are used where they
// should be.
func TestConstructorSplice(t *testing.T) {
	load := func(t *testing.T, data []byte) *contract.Contract {
		c := gentest.LoadData(t, data)
		return c
	}
	loadFile := func(t *testing.T, name string) *contract.Contract {
		c := gentest.Load(t, filepath.FromSlash(name))
		return c
	}
	edges := []string{"two  spaces", "see https://example.com", "a [link]", "line one\nline two", "- list", "Grüße", "ends with a colon:"}
	docs := synth.Contract(len(edges) + 2)
	for i, d := range edges {
		re := regexp.MustCompile(fmt.Sprintf(`description: Synthetic failure number %d,.*`, i))
		docs = re.ReplaceAllLiteral(docs, []byte(fmt.Sprintf("description: %q", d)))
	}
	contracts := map[string]func(t *testing.T) *contract.Contract{
		"sanitized": func(t *testing.T) *contract.Contract {
			return load(t, allRequired(t, "message, param, valid_choices, required_scopes, details, free_form"))
		},
		"unsanitized": func(t *testing.T) *contract.Contract { return load(t, allRequired(t, "param")) },
		// Context the layout requires comes after the message in every
		// constructor, and init sanitizes it when the contract says so.
		"required context": func(t *testing.T) *contract.Contract {
			return load(t, append(allRequired(t, "message, service, param"), requiredContextLayout...))
		},
		"docs":      func(t *testing.T) *contract.Contract { return load(t, docs) },
		"minimal":   func(t *testing.T) *contract.Contract { return loadFile(t, "testdata/minimal/kinds.yaml") },
		"escaping":  func(t *testing.T) *contract.Contract { return loadFile(t, "testdata/escaping/kinds.yaml") },
		"reference": func(t *testing.T) *contract.Contract { return loadFile(t, "../../contract/kinds.yaml") },
		"ovstorage": func(t *testing.T) *contract.Contract { return loadFile(t, "../../examples/ovstorage/kinds.yaml") },
	}
	for name, mk := range contracts {
		t.Run(name, func(t *testing.T) {
			c := mk(t)
			g := newGen(c, targets.Defaults(c.Name))
			written, required := 0, 0
			for _, k := range c.Kinds {
				var b bytes.Buffer
				plain := g.writeConstructor(&b, k)
				want := formatConstructor(k, b.Bytes())
				if !plain {
					continue
				}
				written++
				if len(k.RequiredFields()) > 0 {
					required++
				}
				if got := b.Bytes(); !bytes.Equal(got, want) {
					t.Errorf("%s: written\n%s\ngo/format\n%s", k.Name, got, want)
				}
			}
			// The escaping contract has one kind, with a doc comment of many lines.
			if written == 0 && name != "escaping" || name == "sanitized" && required < len(c.Kinds)/4 {
				t.Errorf("%d of %d constructors written, %d with required fields", written, len(c.Kinds), required)
			}
			if name == "docs" && written == len(c.Kinds) {
				t.Error("every constructor was written as it is; the doc edges should have been formatted")
			}
			// The whole file, splices applied, is what go/format makes of it.
			files, err := Generate(c, targets.Defaults(c.Name))
			if err != nil {
				t.Fatal(err)
			}
			src := files[path.Join(Dir(targets.Defaults(c.Name)), "envelope.go")]
			if want, err := format.Source(src); err != nil || !bytes.Equal(src, want) {
				t.Errorf("envelope.go is not gofmt-clean (%v)", err)
			}
			if name == "sanitized" && !bytes.Contains(src, []byte("e.FreeForm = sanitizeObject(freeForm)")) {
				t.Error("no free object was sanitized")
			}
			if name == "required context" {
				for _, want := range []string{"service = Sanitize(service)", "func New(kind Kind, message string, service string) *Envelope", "(message string, service string, param string)"} {
					if !bytes.Contains(src, []byte(want)) {
						t.Errorf("envelope.go lacks %q", want)
					}
				}
			}
		})
	}
}
