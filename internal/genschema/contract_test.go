package genschema

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/errgen/errgen/internal/contract"
	"github.com/invopop/jsonschema"
	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// compileContractSchema compiles the marshalled contract-file schema with an
// independent draft 2020-12 validator.
func compileContractSchema(t *testing.T) *santhosh.Schema {
	t.Helper()
	data, err := Marshal(ContractSchema())
	if err != nil {
		t.Fatal(err)
	}
	doc, err := santhosh.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := santhosh.NewCompiler()
	c.DefaultDraft(santhosh.Draft2020)
	if err := c.AddResource(ContractSchemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(ContractSchemaID)
	if err != nil {
		t.Fatalf("the contract schema does not compile: %v", err)
	}
	return sch
}

func TestContractSchemaCompiles(t *testing.T) {
	compileContractSchema(t)
}

// TestContractSchemaHeader checks the marker the generator recognises its
// files by is where it looks for it.
func TestContractSchemaHeader(t *testing.T) {
	data, err := Marshal(ContractSchema())
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte(Header))
	if i < 0 || i+len(Header) > 512 {
		t.Fatalf("Header must be within the first 512 bytes, found at %d", i)
	}
	if !bytes.Contains(data[:i], []byte(`"$comment"`)) {
		t.Fatalf("Header must be the $comment, found:\n%s", data[:i+len(Header)])
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
	}
	walk("#", ContractSchema())
}

// TestContractSchemaFileUpToDate checks the committed schema is the one
// ContractSchema builds. The emitter writes the file; until it has, there is
// nothing to compare.
func TestContractSchemaFileUpToDate(t *testing.T) {
	path := filepath.Join("..", "..", "schemas", ContractSchemaFile)
	got, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s does not exist yet", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	want, err := Marshal(ContractSchema())
	if err != nil {
		t.Fatal(err)
	}
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
	// only that it is a well-formed name; the declared names are data.
	{"undeclared reference", regexp.MustCompile(`unknown (origin|group|recovery action|same_arguments value|side_effects value) "`)},
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
	// A field's Go name or With method lands on a member of the generated
	// Envelope or of another field: needs the Go identifier conversion.
	{"Go member clash", regexp.MustCompile(`becomes the Go member `)},
	// A kind's field reuses a context field's name: compares two sections.
	{"kind field named like a context field", regexp.MustCompile(`clashes with the context field `)},
	// yaml.v3 applies merge keys (<<) when decoding, so the schema sees the
	// merged mapping; the loader rejects them.
	{"merge key", regexp.MustCompile(`merge keys \(<<\) are not supported`)},
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
