package genschema_test

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/errgen/errgen/internal/genschema"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/invopop/jsonschema"
	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/errgen/errgen/internal/gentest"
)

// compileContractSchema compiles the marshalled contract-file schema with an
// independent draft 2020-12 validator.
func compileContractSchema(t *testing.T) *santhosh.Schema {
	t.Helper()
	data, err := genschema.Marshal(genschema.ContractSchema())
	if err != nil {
		t.Fatal(err)
	}
	return gentest.CompileSchema(t, genschema.ContractSchemaID, data)
}

func TestContractSchemaCompiles(t *testing.T) {
	compileContractSchema(t)
}

// TestContractSchemaHeader checks the marker the generator recognises its
// files by is where it looks for it.
func TestContractSchemaHeader(t *testing.T) {
	data, err := genschema.Marshal(genschema.ContractSchema())
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte(marker.Text))
	if i < 0 || i+len(marker.Text) > 512 {
		t.Fatalf("Header must be within the first 512 bytes, found at %d", i)
	}
	if !bytes.Contains(data[:i], []byte(`"$comment"`)) {
		t.Fatalf("Header must be the $comment, found:\n%s", data[:i+len(marker.Text)])
	}
}

// TestContractSchemaDescriptions checks every property an editor can show
// has hover help. Conditions (if, not) describe nothing and are skipped.
func TestContractSchemaDescriptions(t *testing.T) {
	var walk func(path string, s *jsonschema.Schema)
	walk = func(path string, s *jsonschema.Schema) {
		if s == nil {
			return
		}
		if s.Properties != nil {
			for key, prop := range s.Properties.FromOldest() {
				p := path + "/properties/" + key
				if prop.Description == "" {
					t.Errorf("%s has no description", p)
				}
				walk(p, prop)
			}
		}
		walk(path+"/additionalProperties", s.AdditionalProperties)
		walk(path+"/propertyNames", s.PropertyNames)
		walk(path+"/items", s.Items)
		walk(path+"/then", s.Then)
		walk(path+"/else", s.Else)
		for i, sub := range s.AllOf {
			walk(fmt.Sprintf("%s/allOf/%d", path, i), sub)
		}
		for i, sub := range s.OneOf {
			walk(fmt.Sprintf("%s/oneOf/%d", path, i), sub)
		}
	}
	root := genschema.ContractSchema()
	walk("#", root)
	// The definitions referred to with $ref, kept in Extras so they are
	// written after the header.
	defs, ok := root.Extras["$defs"].(jsonschema.Definitions)
	if !ok {
		t.Fatalf("$defs is %T, want jsonschema.Definitions", root.Extras["$defs"])
	}
	for name, def := range defs {
		if def.Description == "" {
			t.Errorf("#/$defs/%s has no description", name)
		}
		walk("#/$defs/"+name, def)
	}
}

// TestContractSchemaFileUpToDate checks the committed schema is the one
// genschema.ContractSchema builds. The emitter writes the file; until it has, there is
// nothing to compare. The pipeline names the file's source in its header
// (marker.From), which the schema alone does not know, so the header is
// compared as the emitter writes it.
// sourceHeader is the header line's text with the source named.
var sourceHeader = regexp.MustCompile(regexp.QuoteMeta(marker.FromPrefix) + `[^ "]+` + regexp.QuoteMeta(marker.FromSuffix))

func TestContractSchemaFileUpToDate(t *testing.T) {
	path := filepath.Join("..", "..", "schemas", genschema.ContractSchemaFile)
	got, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s does not exist yet", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	want, err := genschema.Marshal(genschema.ContractSchema())
	if err != nil {
		t.Fatal(err)
	}
	got = sourceHeader.ReplaceAll(got, []byte(marker.Text))
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale; regenerate it", path)
	}
}

// inexpressible are the loader's problems the schema cannot report: JSON
// Schema validates each value on its own and sees the document only after
// YAML decoding, so it cannot compare one part of the contract with another
// or see YAML syntax that decoding resolves. A broken contract the schema
// accepts must have only problems of these kinds. Keep the list minimal: a
// problem the schema could report belongs in the schema, not here.
var inexpressible = []struct {
	name string
	re   *regexp.Regexp
}{
	// A reference names nothing declared in its section. The schema checks
	// only that it is a well-formed name; the declared names are data. This
	// covers a same_arguments value's upgrade_to, a surfaces.cli.exit_codes
	// key naming no origin, the kinds inbound names (tool_result, a
	// classifier's default, a rule's kind, an agreement's kinds) and the
	// classifiers an agreement names.
	{"undeclared reference", regexp.MustCompile(`unknown (origin|group|recovery action|same_arguments value|side_effects value|kind|classifier) "`)},
	// An agreement lists for a classifier a kind that none of its rules nor
	// its default gives: compares the agreement with the classifier.
	{"agreement kind the classifier never gives", regexp.MustCompile(`: the classifier never gives kind "`)},
	// An agreement whose sets no rule gives, or classifiers that disagree
	// on an input: needs the classifiers run.
	{"agreement not kept", regexp.MustCompile(`inbound: agreement "[^"]*": (classifiers disagree on |no rule of its classifiers gives a kind of its set)`)},
	// replaced_by names no live kind: the same, for kinds.
	{"replacement is no live kind", regexp.MustCompile(`replaced_by names ".*", which is not a live kind`)},
	// A live kind reuses a retired name, as is or respelled to the same
	// identifiers: two sections compared.
	{"retired name reused", regexp.MustCompile(`the name was retired \(line \d+\) and may never be reused|as the retired kind "[^"]*" \(line \d+\), which may never come back`)},
	// Two names become one identifier in Go, TypeScript or Python: needs
	// the identifier conversion and a comparison of names.
	{"identifier collision", regexp.MustCompile(`collides with .* both become `)},
	// A field name on several kinds with different types: compares kinds.
	{"shared field with two types", regexp.MustCompile(`a field shared by kinds must have one type`)},
	// A field's Go name or With method, or the Go field keeping a derived
	// layout field's value, lands on a member of the generated Envelope or
	// of another field, or a kind's constructor on NewTrusted: needs the Go
	// identifier conversion.
	{"Go member clash", regexp.MustCompile(`becomes the Go (member|field|constructor) `)},
	{"Rust member clash", regexp.MustCompile(`becomes the Rust field |gets the Rust setter `)},
	// The same for a field's Python attribute: a member of the generated
	// Envelope or a keyword argument of its constructors.
	{"Python member clash", regexp.MustCompile(`becomes the Python attribute `)},
	// A field whose Python parameter would shadow what the constructors'
	// bodies use: new-envelope, newEnvelope and new_envelope all become
	// new_envelope, so it needs the identifier conversion, like the above.
	{"Python constructor local", regexp.MustCompile(`becomes the Python parameter `)},
	// A kind, classifier or value whose constructor, function or constant
	// lands on a name the generated package declares: needs the identifier
	// conversion and the prefix of each language (envelope -> newEnvelope).
	{"name of the generated package", regexp.MustCompile(`is a name the generated package already declares|are names the generated packages already declare`)},
	// A name that becomes a member every JavaScript object inherits:
	// to_string, to-string and toString all become toString.
	{"Object.prototype member", regexp.MustCompile(`which every JavaScript object inherits from Object\.prototype`)},
	// A non-character beyond the Basic Multilingual Plane: no character
	// class names it alike in RE2 and in ECMA-262 without the u flag (the
	// patterns name the others).
	{"non-character beyond the BMP", regexp.MustCompile(`remove the non-character U\+[0-9A-F]?[0-9A-F]FFF[EF]\b`)},
	// A kind's field reuses a context field's name: compares two sections.
	{"kind field named like a context field", regexp.MustCompile(`clashes with the context field `)},
	// Two kinds share a number: compares kinds. (That numbers are all or
	// nothing the schema does check.)
	{"kind number reused", regexp.MustCompile(`number -?\d+ is already kind "[^"]*"'s \(line \d+\)`)},
	// The fallback's side_effects value, written on it or inherited from its
	// origin, promises that nothing ran: follows a reference into another
	// section.
	{"fallback promises nothing ran", regexp.MustCompile(`fallback: side_effects "[^"]*"( \(the default of origin "[^"]*"\))? has may_have_run: false`)},
	// layout required: true on a field that is not a string context field:
	// the field's section and type are data elsewhere in the contract.
	{"layout required on another field", regexp.MustCompile(`is a kind-specific field; a kind requires its own fields|only a string context field can be required`)},
	// layout optional: true on a field that is not an array: the field's
	// type is data elsewhere in the contract.
	// surfaces.http.status_field names no integer context field: the
	// fields are data elsewhere in the contract.
	{"status field no integer context field", regexp.MustCompile(`surfaces: http: status_field: (unknown context field|the context field ".*" is of type)`)},
	{"layout optional on a field that is no array", regexp.MustCompile(`optional: true on a field is for arrays`)},
	// A layout source names neither a named source nor a declared field:
	// the field names are data, as for an undeclared reference.
	{"unknown layout source", regexp.MustCompile(`layout: field ".*": unknown source "`)},
	// One source on two wire paths: compares the values of entries, and
	// JSON Schema cannot count matching members of an object.
	{"layout source mapped twice", regexp.MustCompile(`is already on the wire at ".*" \(line \d+\); map each source once`)},
	// A wire path is a field and also the prefix of another path: compares
	// the keys of layout.fields with each other.
	{"layout path both field and object", regexp.MustCompile(`is a field \(line \d+\), so it cannot also be an object|is an object holding the field at line \d+, so it cannot also be a field`)},
	// An alias is the name of another member of its object: compares an
	// entry's value with the other keys.
	{"layout alias on a member", regexp.MustCompile(`layout: alias ".*" of ".*" is also a member of the same object`)},
	// With a layout, a context or kind-specific field lands on a member the
	// layout already puts in the object layout.context or layout.kind_fields
	// names: compares field names with the layout's paths. (Without a layout
	// the reserved names are fixed and the schema checks them.)
	{"field on a layout member", regexp.MustCompile(`clashes with the envelope's own field "|lands on ".*", which the layout already uses for `)},
	// An inbound rule's status range runs backwards (599-500): a pattern
	// can only compare its two codes by listing every ordered pair.
	{"status range backwards", regexp.MustCompile(`status range \d+-\d+ runs backwards`)},
	// retry.max_ms is below retry.initial_ms, both given: compares two
	// values. (With one left out, the schema compares the other with its
	// default.)
	{"retry bounds out of order", regexp.MustCompile(`retry: max_ms \(\d+\) is below initial_ms`)},
	// yaml.v3 applies merge keys (<<) when decoding, so the schema sees the
	// merged mapping; the loader rejects them.
	{"merge key", regexp.MustCompile(`merge keys \(<<\) are not supported`)},
	// The file's bytes, not the document: yaml.v3 decodes a UTF-16 file
	// for the schema's validator, and a file's size is not in the instance.
	// (Bytes that are not UTF-8 fail the decoding, so both reject them.)
	{"file encoding or size", regexp.MustCompile(`^the file is UTF-16 |^not UTF-8: |^the contract is larger than 8 MiB`)},
}

func inexpressibleCategory(msg string) string {
	for _, c := range inexpressible {
		if c.re.MatchString(msg) {
			return c.name
		}
	}
	return ""
}

// contractCorpus lists every contract file in the repository, loader test
// cases included, relative to this package.
func contractCorpus(t *testing.T) []string {
	var files []string
	for _, pattern := range []string{
		"../contract/testdata/valid/*/kinds.yaml",
		"../contract/testdata/invalid/*/kinds.yaml",
		"../gengo/testdata/*/kinds.yaml",
		"../../contract/kinds.yaml",
		"../../examples/*/kinds.yaml",
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no contract files found")
	}
	return files
}

// schemaVerdict validates a contract file against the schema the way an
// editor does: the YAML decoded to plain values, then validated as JSON.
// A file that does not decode as one YAML document is rejected.
func schemaVerdict(sch *santhosh.Schema, data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("YAML: %w", err)
	}
	var extra any
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return fmt.Errorf("YAML: not a single document (%v)", err)
	}
	return sch.Validate(jsonValue(doc))
}

// jsonValue converts a decoded YAML value to the values a JSON decoder
// produces: mapping keys become strings (a null key "null"), and the
// timestamps yaml.v3 makes of unquoted dates become strings again, as an
// editor sees them; numbers stay numbers.
func jsonValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = jsonValue(x)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			key := fmt.Sprint(k)
			if k == nil {
				key = "null"
			}
			out[key] = jsonValue(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = jsonValue(x)
		}
		return out
	case time.Time:
		return v.Format(time.RFC3339Nano)
	}
	return v
}

func loaderMessages(err error) []string {
	var ps contract.Problems
	if !errors.As(err, &ps) {
		return []string{err.Error()}
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Message
	}
	return out
}

// TestContractSchemaAgreesWithLoader checks the schema against the loader on
// every contract in the repository: it accepts everything the loader
// accepts, and when it accepts what the loader rejects, every problem the
// loader reports is one the schema cannot express.
func TestContractSchemaAgreesWithLoader(t *testing.T) {
	sch := compileContractSchema(t)
	used := map[string]int{}
	for _, file := range contractCorpus(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(file)
		_, loadErr := contract.Load("kinds.yaml", data)
		schemaErr := schemaVerdict(sch, data)
		switch {
		case loadErr == nil && schemaErr != nil:
			t.Errorf("%s: the loader accepts it but the schema rejects it:\n%v", name, schemaErr)
		case loadErr != nil && schemaErr == nil:
			var expressible []string
			for _, msg := range loaderMessages(loadErr) {
				if c := inexpressibleCategory(msg); c != "" {
					used[c]++
				} else {
					expressible = append(expressible, msg)
				}
			}
			if len(expressible) == 0 {
				t.Logf("%s: rejected by the loader only: %s", name, strings.Join(loaderMessages(loadErr), "; "))
			} else {
				t.Errorf("%s: the schema accepts it, but the loader reports problems the schema should catch:\n  %s\nall loader problems:\n%v",
					name, strings.Join(expressible, "\n  "), loadErr)
			}
		}
	}
	var unused []string
	for _, c := range inexpressible {
		if used[c.name] == 0 {
			unused = append(unused, c.name)
		}
	}
	sort.Strings(unused)
	if len(unused) > 0 {
		t.Logf("no contract in the corpus needed these inexpressible categories: %s", strings.Join(unused, ", "))
	}
}

// agreementCase is an inbound section of two classifiers that agree on
// timeouts, with one agreement of the given classifiers and description.
func agreementCase(classifiers, description string) string {
	return "inbound:\n  classifiers:\n" +
		"    x: {description: d, default: internal_error, rules: [{status: 504, failure: timeout, kind: timeout}, {status: 504, kind: timeout}, {failure: timeout, kind: timeout}]}\n" +
		"    y: {description: d, default: internal_error, rules: [{failure: timeout, kind: timeout}, {status: 504, kind: timeout}]}\n" +
		"  agreements:\n    timeouts: {description: " + description + ", classifiers: " + classifiers + "}\nretired:\n"
}

// TestContractSchemaLayoutEdgeCases is TestContractSchemaEdgeCases for the
// layout section, starting from the minimal contract with a layout.
func TestContractSchemaLayoutEdgeCases(t *testing.T) {
	sch := compileContractSchema(t)
	minimal, err := os.ReadFile("../contract/testdata/valid/minimal/kinds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	base := append(minimal, "\nlayout:\n  fields:\n    error.code: kind\n    error.message: message\n  context: error.details\n"...)
	cases := []struct {
		name     string
		old, new string
		ok       bool
	}{
		{"the base", "", "", true},
		// (A field named like a default top-level member, e.g. kind, is
		// still rejected with a layout: its Go name is a member of the
		// generated Envelope, which the schema cannot see.)
		{"a context field named like a member of another object", "  service:\n", "  code:\n", true},
		{"a kind field named like a member of another object", "      param:\n", "      code:\n", true},
		{"a context field on a layout member", "  context: error.details\n", "  context: error\n", true},
		{"a field placed explicitly", "    error.message: message\n", "    error.message: message\n    meta.param: param\n", true},
		{"empty fields", "    error.code: kind\n    error.message: message\n", "    {}\n", false},
		{"null fields", "    error.code: kind\n    error.message: message\n", "", false},
		{"kind from a mapping", "error.code: kind", "error.code: {from: kind}", true},
		{"kind as a const", "error.code: kind", "error.code: {const: kind}", false},
		{"message missing", "    error.message: message\n", "    error.text: guidance\n", false},
		{"optional with aliases", "error.message: message", "error.message: {from: message, optional: true, aliases: [msg, $msg, error-message]}", true},
		{"empty aliases", "error.message: message", "error.message: {from: message, aliases: []}", true},
		{"alias not a name", "error.message: message", "error.message: {from: message, aliases: [\"a.b\"]}", false},
		{"optional not a boolean", "error.message: message", "error.message: {from: message, optional: yes}", false},
		{"from blank", "error.code: kind", "error.code: kind\n    error.origin: {from: \" \"}", false},
		{"unknown entry key", "error.code: kind", "error.code: {from: kind, optinal: true}", false},
		{"const of each type", "error.code: kind", "error.code: kind\n    a: {const: x}\n    b: {const: 1}\n    c: {const: -2.5}\n    d: {const: true}\n    e: {const: \"\"}\n    f: {const: 2024-05-01}", true},
		{"null const", "error.code: kind", "error.code: kind\n    ok: {const: null}", false},
		{"list const", "error.code: kind", "error.code: kind\n    ok: {const: []}", false},
		{"path with $ and -", "error.code: kind", "$error.code-x: kind", true},
		{"path with an empty segment", "error.code: kind", "error..code: kind", false},
		{"path starting with a digit", "error.code: kind", "error.1code: kind", false},
		{"empty context", "  context: error.details\n", "  context: \"\"\n", true},
		{"null context", "  context: error.details\n", "  context:\n", true},
		{"blank context", "  context: error.details\n", "  context: \" \"\n", false},
		{"context not a string", "  context: error.details\n", "  context: 1\n", false},
		{"kind_fields path", "  context: error.details\n", "  kind_fields: error.details\n", true},
		{"unknown layout key", "  context: error.details\n", "  contexts: error.details\n", false},
		{"retryable with a retry step", "error.code: kind", "error.code: kind\n    error.retryable: {from: retryable, optional: true}", true},
		{"retryable without a retry value", "    retry: true\n", "    retry: false\n", true},
		{"retryable without a retry value, on the wire", "error.code: kind", "error.code: kind\n    error.retryable: retryable", true},
		// may_have_run is true unless a value says false.
		{"may_have_run with no value marked", "error.code: kind", "error.code: kind\n    error.mayHaveRun: may_have_run", true},
		{"may_have_run with every value false", "error.code: kind", "error.code: kind\n    error.mayHaveRun: may_have_run", true},
		{"group on the wire", "error.code: kind", "error.code: kind\n    error.category: group", true},
		{"null layout keeps the reserved names", "      param:\n", "      side_effects:\n", false},
		{"a required context field", "error.code: kind", "error.code: kind\n    service: {from: service, required: true}", true},
		{"required false", "error.code: kind", "error.code: kind\n    service: {from: service, required: false}", true},
		{"required and optional", "error.code: kind", "error.code: kind\n    service: {from: service, optional: true, required: true}", false},
		{"a required named source", "error.code: kind", "error.code: {from: kind, required: true}", false},
		{"required not a boolean", "error.code: kind", "error.code: kind\n    service: {from: service, required: 1}", false},
		{"a const with required", "error.code: kind", "error.code: kind\n    ok: {const: false, required: true}", false},
	}
	// Cases that need a second edit, and the verdict after it.
	second := map[string]struct {
		old, new string
		ok       bool
	}{
		// retryable is on the wire but nothing can make it true.
		"retryable without a retry value, on the wire": {"    retry: true\n", "    retry: false\n", false},
		// Every side_effects value says false: nothing can make it true.
		"may_have_run with every value false": {"  none_expected:\n    description: Nothing changed.\n    may_have_run: false\n  possible:\n    description: Something may have changed.\n  unknown:\n    description: Nothing can be said.\n",
			"  none_expected:\n    description: Nothing changed.\n    may_have_run: false\n  possible:\n    description: Something may have changed.\n    may_have_run: false\n  unknown:\n    description: Nothing can be said.\n    may_have_run: false\n", false},
		"null layout keeps the reserved names": {"layout:\n  fields:\n    error.code: kind\n    error.message: message\n  context: error.details\n", "layout:\n", false},
	}
	for _, c := range cases {
		if !bytes.Contains(base, []byte(c.old)) {
			t.Fatalf("%s: the base contract does not contain %q", c.name, c.old)
		}
		data := bytes.Replace(base, []byte(c.old), []byte(c.new), 1)
		ok := c.ok
		if e, more := second[c.name]; more {
			if !bytes.Contains(data, []byte(e.old)) {
				t.Fatalf("%s: the edited contract does not contain %q", c.name, e.old)
			}
			data = bytes.Replace(data, []byte(e.old), []byte(e.new), 1)
			ok = e.ok
		}
		_, loadErr := contract.Load("kinds.yaml", data)
		if (loadErr == nil) != ok {
			t.Errorf("%s: the loader says %v, the case expects ok=%v", c.name, loadErr, ok)
			continue
		}
		if schemaErr := schemaVerdict(sch, data); (schemaErr == nil) != ok {
			t.Errorf("%s: the loader says ok=%v, the schema says %v", c.name, ok, schemaErr)
		}
	}
}

// TestContractSchemaEdgeCases checks edges of the loader's rules the corpus
// does not reach, each a small edit of a valid contract. ok is the loader's
// verdict; the schema must agree, as each edge is expressible.
func TestContractSchemaEdgeCases(t *testing.T) {
	sch := compileContractSchema(t)
	base, err := os.ReadFile("../contract/testdata/valid/minimal/kinds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		old, new string
		ok       bool
	}{
		{"blank contract description is allowed", "description: A minimal contract every broken case starts from.", `description: "  "`, true},
		{"no-break space is not blank", "description: Nothing changed.", "description: \"\u00a0\"", true},
		{"tab-only description is blank", "description: Nothing changed.", `description: "\t"`, false},
		{"empty contract description", "description: A minimal contract every broken case starts from.", "description:", false},
		{"empty retired mapping", "retired:\n  deadline_exceeded:\n    replaced_by: timeout\n    reason: Merged into timeout.", "retired: {}", true},
		{"empty context fields mapping", "context_fields:\n  service:\n    type: string\n    description: The service that failed.", "context_fields: {}", true},
		{"no optional sections", "context_fields:\n  service:\n    type: string\n    description: The service that failed.", "", true},
		{"empty kind fields", "    fields:\n      param:\n        type: string\n        required: true\n        description: The offending parameter.", "    fields: {}", true},
		{"null kind fields", "    fields:\n      param:\n        type: string\n        required: true\n        description: The offending parameter.", "    fields:", false},
		{"array of objects", "        type: string\n        required: true", "        type: array\n        items: object\n        required: true", true},
		{"items without a type", "        type: string\n        required: true", "        items: string\n        required: true", false},
		{"context field of type array", "    type: string\n    description: The service that failed.", "    type: array\n    items: integer\n    description: The service that failed.", true},
		{"field name in PascalCase", "      param:\n", "      Param:\n", true},
		{"field name with a space", "      param:\n", "      \"my param\":\n", false},
		{"field named recovery", "      param:\n", "      recovery:\n", false},
		{"empty optional breaker", "    breaker: true\n", "    breaker:\n", false},
		{"empty optional log", "    origin: runtime\n    http: 500\n", "    origin: runtime\n    http: 500\n    log:\n", false},
		{"http 599", "http: 504", "http: 599", true},
		{"http 400", "http: 504", "http: 400", true},
		{"large version", "version: 1", "version: 9223372036854775807", true},
		{"version beyond int64", "version: 1", "version: 9223372036854775808", false},
		{"blank replaced_by", "replaced_by: timeout", `replaced_by: ""`, false},
		{"empty replaced_by", "replaced_by: timeout", "replaced_by:", false},
		{"retired name that is not a name", "deadline_exceeded:", "Deadline Exceeded:", false},
		{"retired name in another naming", "deadline_exceeded:", "DeadlineExceeded:", true},
		{"contract section empty mapping", "contract:\n  name: demo-error\n  version: 1\n  naming: snake_case\n  description: A minimal contract every broken case starts from.", "contract: {}", false},
		{"unknown origin key", "    breaker: true\n", "    breaker: true\n    colour: red\n", false},
		{"kind names must follow the naming", "naming: snake_case", "naming: kebab-case", false},
		{"string version", "version: 1", `version: "1.0"`, true},
		{"quoted integer version is rejected", "version: 1", `version: "1"`, false},
		{"empty string version", "version: 1", `version: ""`, false},
		{"float version", "version: 1", "version: 1.5", false},
		{"release", "version: 1", "version: 1\n  release: 1.4.2", true},
		{"release of two parts", "version: 1", "version: 1\n  release: 1.4", false},
		{"release with a v", "version: 1", "version: 1\n  release: v1.4.2", false},
		{"release with a pre-release suffix", "version: 1", "version: 1\n  release: 1.4.2-rc.1", false},
		{"may_have_run", "description: Something may have changed.", "description: Something may have changed.\n    may_have_run: true", true},
		{"quoted may_have_run", "description: Something may have changed.", "description: Something may have changed.\n    may_have_run: \"true\"", false},
		{"group startup", "description: Core failures.", "description: Core failures.\n    startup: true", true},
		{"kind startup", "    origin: upstream\n", "    origin: upstream\n    startup: false\n", true},
		{"one kind numbered", "    origin: upstream\n", "    origin: upstream\n    number: 0\n", false},
		{"enum on a string", "        type: string\n        required: true", "        type: string\n        enum: [a, b]\n        required: true", true},
		{"enum on an array of strings", "    type: string\n    description: The service that failed.", "    type: array\n    items: string\n    enum: [a]\n    description: The service that failed.", true},
		{"enum on an array of integers", "    type: string\n    description: The service that failed.", "    type: array\n    items: integer\n    enum: [a]\n    description: The service that failed.", false},
		{"enum of a blank string", "        type: string\n        required: true", "        type: string\n        enum: [\" \"]\n        required: true", false},
		{"null enum", "        type: string\n        required: true", "        type: string\n        enum:\n        required: true", false},
		{"object properties", "        type: string\n        required: true", "        type: object\n        properties:\n          kind:\n            type: object\n            required: true\n            description: Named like an envelope field, which a property may be.\n            properties:\n              depth:\n                type: integer\n                description: Nested.\n        required: true", true},
		{"property without a description", "        type: string\n        required: true", "        type: object\n        properties:\n          depth:\n            type: integer\n        required: true", false},
		{"context property may be required", "    type: string\n    description: The service that failed.", "    type: object\n    properties:\n      name:\n        type: string\n        required: true\n        description: Its name.\n    description: The service that failed.", true},
		{"context field itself may not be required", "    type: string\n    description: The service that failed.", "    type: string\n    required: true\n    description: The service that failed.", false},
		{"null layout is no layout", "retired:\n", "layout:\nretired:\n", true},
		{"null inbound, retry and surfaces", "retired:\n", "inbound:\nretry:\nsurfaces:\nretired:\n", true},
		{"empty retry and surfaces", "retired:\n", "retry: {}\nsurfaces: {}\nretired:\n", true},
		{"empty inbound", "retired:\n", "inbound: {}\nretired:\n", false},
		{"inbound spellings", "retired:\n", "inbound:\n  classifiers:\n    upstream:\n      description: Statuses and phrases as YAML reads them.\n      default: timeout\n      rules:\n" +
			"        - {status: \"401\", kind: invalid_param}\n        - {status: [100, 1xx, 200-299], failure: [any], kind: invalid_param}\n        - {text: [401, true, 1.5, Invalid_Token, \"a.b:c/d-e f\"], kind: timeout}\n" +
			"    other: {description: Always the default., default: timeout, rules: []}\nretired:\n", true},
		{"null status", "retired:\n", "inbound: {classifiers: {x: {description: d, default: timeout, rules: [{status: , kind: timeout}]}}}\nretired:\n", false},
		{"negative text", "retired:\n", "inbound: {classifiers: {x: {description: d, default: timeout, rules: [{text: -3, kind: timeout}]}}}\nretired:\n", false},
		{"tool_result in another naming", "retired:\n", "inbound: {tool_result: InternalError, classifiers: {x: {description: d, default: timeout, rules: []}}}\nretired:\n", false},
		{"blank classifier description", "retired:\n", "inbound: {classifiers: {x: {description: \" \", default: timeout, rules: []}}}\nretired:\n", false},
		{"agreement, a kind written alone or in a list", "retired:\n", agreementCase("{x: timeout, y: [timeout]}", "d"), true},
		{"agreement of one classifier", "retired:\n", agreementCase("{x: timeout}", "d"), false},
		{"agreement kind listed twice", "retired:\n", agreementCase("{x: [timeout, timeout], y: timeout}", "d"), false},
		{"agreement with an empty set", "retired:\n", agreementCase("{x: [], y: timeout}", "d"), false},
		{"agreement kind in another naming", "retired:\n", agreementCase("{x: Timeout, y: timeout}", "d"), false},
		{"agreement with a blank description", "retired:\n", agreementCase("{x: timeout, y: timeout}", "\" \""), false},
		{"null agreements", "retired:\n", "inbound: {classifiers: {x: {description: d, default: timeout, rules: []}}, agreements: }\nretired:\n", false},
		{"retry initial_ms above the default max_ms", "retired:\n", "retry: {initial_ms: 50000}\nretired:\n", false},
		{"retry max_ms below the default initial_ms", "retired:\n", "retry: {max_ms: 50}\nretired:\n", false},
		{"retry bounds both raised", "retired:\n", "retry: {initial_ms: 50000, max_ms: 60000, multiplier: 1, jitter: 1, max_attempts: 1}\nretired:\n", true},
		{"retry multiplier above 10", "retired:\n", "retry: {multiplier: 10.5}\nretired:\n", false},
		{"problem type base as a URN", "retired:\n", "surfaces: {problem_type_base: \"urn:demo:\"}\nretired:\n", true},
		{"problem type base with a space", "retired:\n", "surfaces: {problem_type_base: \"https://x/a b\"}\nretired:\n", false},
		{"null cli", "retired:\n", "surfaces: {cli: }\nretired:\n", false},
		{"exit code quoted", "retired:\n", "surfaces: {cli: {exit_codes: {upstream: \"69\"}}}\nretired:\n", false},
		{"exit codes at the bounds", "retired:\n", "surfaces: {cli: {default_exit_code: 1, exit_codes: {upstream: 125}}}\nretired:\n", true},
		{"upgrade_to", "    retry: false\n", "    retry: false\n    upgrade_to: safe\n", true},
		{"credential names", "retired:\n", "sanitize: {credential_names: [.acme/token, acme-credentials.json]}\nretired:\n", true},
		{"credential names with paths off", "retired:\n", "sanitize: {paths: false, credential_names: [.acme]}\nretired:\n", false},
		{"no credential names with paths off", "retired:\n", "sanitize: {paths: false, credential_names: []}\nretired:\n", true},
		{"quoted paths", "retired:\n", "sanitize: {paths: \"false\"}\nretired:\n", false},
		{"credential name of errgen's own", "retired:\n", "sanitize: {credential_names: [.ssh]}\nretired:\n", false},
		{"credential name with a slash in its first three characters", "retired:\n", "sanitize: {credential_names: [ab/cd]}\nretired:\n", false},
		{"credential name with a segment of dots", "retired:\n", "sanitize: {credential_names: [abc/..]}\nretired:\n", false},
		{"credential name with a space", "retired:\n", "sanitize: {credential_names: [\"a b c\"]}\nretired:\n", false},
		{"marker holding a key file extension", "retired:\n", "sanitize: {truncation_marker: \" …cut.pem\"}\nretired:\n", false},
		{"marker holding a home prefix", "retired:\n", "sanitize: {truncation_marker: \" …/home/\"}\nretired:\n", false},
		{"marker holding a key file extension, paths off", "retired:\n", "sanitize: {paths: false, truncation_marker: \" …cut.pem\"}\nretired:\n", true},
		{"empty upgrade_to", "    retry: false\n", "    retry: false\n    upgrade_to:\n", false},
	}
	for _, c := range cases {
		if !bytes.Contains(base, []byte(c.old)) {
			t.Fatalf("%s: the base contract does not contain %q", c.name, c.old)
		}
		data := bytes.Replace(base, []byte(c.old), []byte(c.new), 1)
		_, loadErr := contract.Load("kinds.yaml", data)
		if (loadErr == nil) != c.ok {
			t.Errorf("%s: the loader says %v, the case expects ok=%v", c.name, loadErr, c.ok)
			continue
		}
		if schemaErr := schemaVerdict(sch, data); (schemaErr == nil) != c.ok {
			t.Errorf("%s: the loader says ok=%v, the schema says %v", c.name, c.ok, schemaErr)
		}
	}
}

// TestContractSchemaImports checks the schema on a contract that imports
// another, against the loader with the base beside it: the imports section
// and an importing contract without the sections its base provides are
// accepted, and a section only the base may write, a malformed import and
// a contract without imports missing those sections are rejected by both.
func TestContractSchemaImports(t *testing.T) {
	sch := compileContractSchema(t)
	dir := t.TempDir()
	base, err := os.ReadFile("../contract/testdata/imports/base.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "base.yaml"), base, 0o644); err != nil {
		t.Fatal(err)
	}
	svc := "contract:\n  name: billing-error\nimports:\n  - path: base.yaml\n    version: 1\n" +
		"groups:\n  billing: {title: Billing, description: Paying.}\n" +
		"kinds:\n  card_declined:\n    group: billing\n    description: The card was declined.\n    origin: validation\n    http: 402\n" +
		"    recovery: {action: revise, same_arguments: never, guidance: Ask for another card.}\n"
	cases := []struct {
		name     string
		old, new string
		ok       bool
	}{
		{"an importing contract", "", "", true},
		{"an empty kinds section adds nothing", "", "", true},
		{"nothing added: the base's sections stand", "groups:", "groups_:", true},
		{"naming repeated", "name: billing-error\n", "name: billing-error\n  naming: snake_case\n", true},
		{"an origin added", "groups:", "origins:\n  payments: {description: The provider., side_effects: possible, log: warn}\ngroups:", true},
		{"a retired name added", "groups:", "retired:\n  card_refused: {replaced_by: card_declined, reason: Renamed.}\ngroups:", true},
		{"recovery_actions written again", "groups:", "recovery_actions:\n  pay: {description: Pay., step: revise}\ngroups:", false},
		{"fallback written again", "groups:", "fallback:\n  origin: runtime\n  http: 500\n  recovery: {action: escalate, same_arguments: never, guidance: g}\ngroups:", false},
		{"layout written again", "groups:", "layout:\n  fields: {code: kind}\ngroups:", false},
		{"a module that is no module path", "- path: base.yaml", "- module: platform errors", false},
		{"an import of neither path nor module", "- path: base.yaml\n    version: 1", "- version: 1", false},
		{"an absolute path", "path: base.yaml", "path: /etc/base.yaml", false},
		{"an unknown key", "version: 1\n", "version: 1\n    as: base\n", false},
		{"an empty imports list", "imports:\n  - path: base.yaml\n    version: 1\n", "imports: []\n", false},
	}
	for _, c := range cases {
		data := strings.Replace(svc, c.old, c.new, 1)
		switch c.name {
		case "nothing added: the base's sections stand":
			data = svc[:strings.Index(svc, "groups:")]
		case "an empty kinds section adds nothing":
			data = svc[:strings.Index(svc, "kinds:")] + "kinds:\n"
		}
		file := filepath.Join(dir, "kinds.yaml")
		if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, loadErr := contract.LoadFile(file)
		schemaErr := schemaVerdict(sch, []byte(data))
		if (loadErr == nil) != c.ok || (schemaErr == nil) != c.ok {
			t.Errorf("%s: want ok=%v; the loader says %v; the schema says %v", c.name, c.ok, loadErr, schemaErr)
		}
	}
	// An import by module needs a go.mod, which the schema cannot see.
	if err := schemaVerdict(sch, []byte(strings.Replace(svc, "- path: base.yaml", "- module: example.com/platform/errors", 1))); err != nil {
		t.Errorf("the schema rejects an import by module: %v", err)
	}
	// Without imports, the sections a base provides are required again,
	// and so are the header's version and naming.
	for _, data := range []string{
		"contract:\n  name: billing-error\ngroups:\n  billing: {title: Billing, description: Paying.}\n",
		string(base[:bytes.Index(base, []byte("\nkinds:\n"))]) + "\nkinds:\n" + string(base[bytes.Index(base, []byte("\nfallback:")):]),
		strings.Replace(string(base), "  version: 1\n", "", 1),
	} {
		if schemaErr := schemaVerdict(sch, []byte(data)); schemaErr == nil {
			t.Errorf("the schema accepts a contract without imports that lacks what a base would provide:\n%s", data)
		}
	}
}
