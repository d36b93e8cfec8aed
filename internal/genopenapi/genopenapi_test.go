package genopenapi_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/genopenapi"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/targets"
)

var update = flag.Bool("update", false, "rewrite the golden documents under testdata/")

// goldenCases are the contracts whose whole document is compared with a
// golden file: small ones, one of them full of text YAML must quote.
var goldenCases = []string{"minimal", "escaping"}

func TestGolden(t *testing.T) {
	for _, name := range goldenCases {
		t.Run(name, func(t *testing.T) {
			c := gentest.Load(t, "../gengo/testdata/"+name+"/kinds.yaml")
			got := gentest.GenerateTwice(t, name, genopenapi.Generate, c)[path.Join(genopenapi.Dir(targets.Defaults(c.Name)), genopenapi.FileName(c))]
			golden := filepath.Join("testdata", name+".errors.yaml")
			if *update {
				gentest.WriteFile(t, ".", golden, got)
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the generated document (run go test -update to accept):\n%s", golden, firstDifference(want, got))
			}
		})
	}
}

// firstDifference shows the first line where two documents part.
func firstDifference(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, a, b)
		}
	}
	return ""
}

// doc is a generated document, read back as plain values.
type doc struct {
	raw  map[string]any
	path string
}

func generate(t *testing.T, c *contract.Contract) doc {
	t.Helper()
	files := gentest.GenerateTwice(t, c.Name, genopenapi.Generate, c)
	p := path.Join(genopenapi.Dir(targets.Defaults(c.Name)), genopenapi.FileName(c))
	data, ok := files[p]
	if !ok || len(files) != 1 {
		t.Fatalf("generated %d files, want only %s", len(files), p)
	}
	if !bytes.HasPrefix(data, []byte(genopenapi.Header+"\n")) {
		t.Errorf("%s does not start with the header line", p)
	}
	var raw map[string]any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s is not YAML: %v", p, err)
	}
	return doc{raw, p}
}

// at follows a JSON pointer ("#/components/...") from the document's root.
func (d doc) at(pointer string) (any, bool) {
	var v any = d.raw
	for _, seg := range strings.Split(strings.TrimPrefix(pointer, "#/"), "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[seg]; !ok {
			return nil, false
		}
	}
	return v, true
}

func (d doc) mapAt(t *testing.T, pointer string) map[string]any {
	t.Helper()
	v, ok := d.at(pointer)
	m, isMap := v.(map[string]any)
	if !ok || !isMap {
		t.Fatalf("%s: %s is missing or not a mapping", d.path, pointer)
	}
	return m
}

func toJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// refs collects every $ref in v.
func refs(v any, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		if r, ok := v["$ref"].(string); ok {
			*out = append(*out, r)
		}
		for _, x := range v {
			refs(x, out)
		}
	case []any:
		for _, x := range v {
			refs(x, out)
		}
	}
}

// TestDocuments checks the document of every contract errgen is tested
// with: its top level, that its schemas are schemas/' own, that every
// status a kind (or the fallback) answers with has a response whose
// examples validate against their schemas, and that its references resolve.
func TestDocuments(t *testing.T) {
	for file, c := range gentest.Contracts(t) {
		t.Run(file, func(t *testing.T) {
			d := generate(t, c)
			checkTop(t, d, c)
			schemas := checkSchemas(t, d, c)
			checkResponses(t, d, c, schemas)
			var all []string
			refs(d.raw, &all)
			sort.Strings(all)
			for _, r := range all {
				if !strings.HasPrefix(r, "#/") {
					t.Errorf("%s: $ref %q leaves the document", d.path, r)
				} else if _, ok := d.at(r); !ok {
					t.Errorf("%s: $ref %q resolves to nothing", d.path, r)
				}
			}
		})
	}
}

func checkTop(t *testing.T, d doc, c *contract.Contract) {
	t.Helper()
	if d.raw["openapi"] != genopenapi.Version {
		t.Errorf("openapi = %v, want %s", d.raw["openapi"], genopenapi.Version)
	}
	if d.raw["jsonSchemaDialect"] != genschema.Draft {
		t.Errorf("jsonSchemaDialect = %v, want %s", d.raw["jsonSchemaDialect"], genschema.Draft)
	}
	info := d.mapAt(t, "#/info")
	if info["version"] != c.VersionLabel() || !strings.Contains(info["title"].(string), c.Name) {
		t.Errorf("info = %v, want the contract's name and version %s", info, c.VersionLabel())
	}
}

// checkSchemas compares the document's schemas with the schema files'
// (less the members only a file of its own has) and compiles them.
func checkSchemas(t *testing.T, d doc, c *contract.Contract) map[string]*jsonschema.Schema {
	t.Helper()
	files := map[string][]byte{}
	for _, role := range []genschema.Role{genschema.Consumer, genschema.Producer} {
		data, err := genschema.Envelope(c, role)
		if err != nil {
			t.Fatal(err)
		}
		files[map[genschema.Role]string{genschema.Consumer: genopenapi.SchemaEnvelope, genschema.Producer: genopenapi.SchemaProducerEnvelope}[role]] = data
	}
	problem, err := genschema.Marshal(genschema.ProblemSchema(c))
	if err != nil {
		t.Fatal(err)
	}
	files[genopenapi.SchemaProblem] = problem
	out := map[string]*jsonschema.Schema{}
	for name, file := range files {
		var want map[string]any
		if err := json.Unmarshal(file, &want); err != nil {
			t.Fatal(err)
		}
		delete(want, "$schema")
		delete(want, "$id")
		delete(want, "$comment")
		got := d.mapAt(t, "#/components/schemas/"+name)
		var gotJSON any
		json.Unmarshal(toJSON(t, got), &gotJSON)
		if !reflect.DeepEqual(gotJSON, want) {
			t.Errorf("components.schemas.%s is not genschema's schema:\n got %s\nwant %s", name, toJSON(t, gotJSON), toJSON(t, want))
		}
		out[name] = gentest.CompileSchema(t, name, toJSON(t, got))
	}
	return out
}

func checkResponses(t *testing.T, d doc, c *contract.Contract, schemas map[string]*jsonschema.Schema) {
	t.Helper()
	responses := d.mapAt(t, "#/components/responses")
	statuses := map[int]bool{c.Fallback.HTTP: true}
	for _, k := range c.Kinds {
		statuses[k.HTTP] = true
	}
	if len(responses) != len(statuses) {
		t.Errorf("%d responses for %d statuses", len(responses), len(statuses))
	}
	hint := c.Layout.Has(contract.SourceRetryAfterMs)
	retry := map[int]bool{}
	if hint && c.Fallback.Recovery.Action.Step == contract.StepRetry {
		retry[c.Fallback.HTTP] = true
	}
	for _, k := range c.Kinds {
		retry[k.HTTP] = retry[k.HTTP] || hint && k.Recovery.Action.Step == contract.StepRetry
	}
	shown := map[string]bool{}
	for status := range statuses {
		name := genopenapi.StatusName(status)
		r, ok := responses[name].(map[string]any)
		if !ok {
			t.Errorf("no response %s for status %d", name, status)
			continue
		}
		if desc, _ := r["description"].(string); !strings.HasPrefix(desc, fmt.Sprint(status)) {
			t.Errorf("%s: description %q does not start with the status", name, desc)
		}
		headers, _ := r["headers"].(map[string]any)
		if _, ok := headers[genopenapi.HeaderRetryAfter]; ok != retry[status] {
			t.Errorf("%s: Retry-After declared %v, want %v (a kind answered with %d asks for a retry: %v)", name, ok, retry[status], status, retry[status])
		}
		if _, ok := headers[genopenapi.HeaderVary]; !ok {
			t.Errorf("%s: no Vary header", name)
		}
		for media, schema := range map[string]string{genopenapi.MediaJSON: genopenapi.SchemaEnvelope, genopenapi.MediaProblem: genopenapi.SchemaProblem} {
			content, ok := d.at("#/components/responses/" + name + "/content/" + strings.ReplaceAll(media, "/", "~1"))
			m, _ := content.(map[string]any)
			if !ok || m == nil {
				t.Errorf("%s: no %s content", name, media)
				continue
			}
			if got := m["schema"].(map[string]any)["$ref"]; got != "#/components/schemas/"+schema {
				t.Errorf("%s %s: schema %v, want %s", name, media, got, schema)
			}
			examples, _ := m["examples"].(map[string]any)
			if len(examples) == 0 {
				t.Errorf("%s %s: no examples", name, media)
			}
			for key, ex := range examples {
				value := toJSON(t, ex.(map[string]any)["value"])
				validate(t, schemas[schema], name+" "+media+" "+key, value)
				if media == genopenapi.MediaJSON {
					shown[key] = true
					// A kind's example is a producer's envelope too.
					if c.Kind(key) != nil {
						validate(t, schemas[genopenapi.SchemaProducerEnvelope], name+" "+media+" "+key+" (producer)", value)
					}
				}
			}
		}
	}
	// Every example envelope is shown, under the status it is answered with.
	for _, ex := range exampleenv.All(c) {
		if !shown[ex.Name] {
			t.Errorf("example %q is not shown", ex.Name)
		}
		status := c.Fallback.HTTP
		if ex.Kind != nil {
			status = ex.Kind.HTTP
		}
		ptr := "#/components/responses/" + genopenapi.StatusName(status) + "/content/application~1json/examples/" + ex.Name + "/value"
		got, ok := d.at(ptr)
		if !ok {
			t.Errorf("example %q is not under status %d", ex.Name, status)
			continue
		}
		var a, b any
		json.Unmarshal(toJSON(t, got), &a)
		json.Unmarshal(ex.JSON(), &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("example %q: the document shows %s, exampleenv builds %s", ex.Name, toJSON(t, got), ex.JSON())
		}
	}
}

func validate(t *testing.T, s *jsonschema.Schema, what string, value []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := s.Validate(inst); err != nil {
		t.Errorf("%s does not validate: %v\n%s", what, err, value)
	}
}

// TestStatusName pins the response names users write in their $refs, and
// checks that every error status a kind can have gets a distinct name that
// OpenAPI accepts as a component's key.
func TestStatusName(t *testing.T) {
	for status, want := range map[int]string{
		400: "BadRequest", 404: "NotFound", 413: "RequestEntityTooLarge", 418: "ImATeapot", 422: "UnprocessableEntity",
		429: "TooManyRequests", 500: "InternalServerError", 504: "GatewayTimeout", 599: "Status599", 420: "Status420",
	} {
		if got := genopenapi.StatusName(status); got != want {
			t.Errorf("StatusName(%d) = %q, want %q", status, got, want)
		}
	}
	key := regexp.MustCompile(`^[a-zA-Z0-9.\-_]+$`)
	seen := map[string]int{}
	for status := 400; status <= 599; status++ {
		name := genopenapi.StatusName(status)
		if !key.MatchString(name) {
			t.Errorf("StatusName(%d) = %q is not a component key", status, name)
		}
		if other, dup := seen[name]; dup {
			t.Errorf("StatusName(%d) = StatusName(%d) = %q", status, other, name)
		}
		seen[name] = status
	}
}

// TestProblemExamples checks the problem documents the responses show
// against the rule every HTTP surface follows.
func TestProblemExamples(t *testing.T) {
	for file, c := range gentest.Contracts(t) {
		d := generate(t, c)
		for _, ex := range exampleenv.All(c) {
			status := c.Fallback.HTTP
			if ex.Kind != nil {
				status = ex.Kind.HTTP
			}
			v, ok := d.at("#/components/responses/" + genopenapi.StatusName(status) + "/content/application~1problem+json/examples/" + ex.Name + "/value")
			if !ok {
				t.Errorf("%s: no problem example %q", file, ex.Name)
				continue
			}
			var p, env map[string]any
			json.Unmarshal(toJSON(t, v), &p)
			json.Unmarshal(ex.JSON(), &env)
			kind, message := ex.KindAndMessage()
			title := contract.UnknownKindTitle
			if ex.Kind != nil {
				title = ex.Kind.Description
			}
			if p["type"] != c.Surfaces.ProblemTypeBase+kind || p["title"] != title || p["status"] != float64(status) || p["detail"] != message {
				t.Errorf("%s %s: problem members %v %v %v %v", file, ex.Name, p["type"], p["title"], p["status"], p["detail"])
			}
			for name, value := range env {
				if name == "type" || name == "title" || name == "status" || name == "detail" || name == "instance" {
					continue
				}
				if !reflect.DeepEqual(p[name], value) {
					t.Errorf("%s %s: extension member %s = %v, the envelope has %v", file, ex.Name, name, p[name], value)
				}
			}
			if _, ok := p["instance"]; ok {
				t.Errorf("%s %s: an instance in an example", file, ex.Name)
			}
		}
	}
}
