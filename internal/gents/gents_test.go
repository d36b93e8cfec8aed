package gents

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
)

// The TypeScript package is compiled and tested by tests/ts (make test-ts);
// these tests check what can be checked without Node.

func TestNPMVersion(t *testing.T) {
	for in, want := range map[string]string{
		"1": "1.0.0", "0.1": "0.1.0", "2.3.4": "2.3.4", "10": "10.0.0",
		"01": "0.0.0-01", "1.2.3.4": "0.0.0-1-2-3-4", "v2": "0.0.0-v2", "2024-01": "0.0.0-2024-01", "..": "0.0.0-unversioned",
	} {
		if got := npmVersion("", in); got != want {
			t.Errorf("npmVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGenerate(t *testing.T) {
	static := map[string][]byte{}
	perContract := map[string]bool{}
	for _, f := range files {
		base := strings.TrimSuffix(path.Base(f), ".ts")
		perContract[f] = true
		perContract["dist/"+base+".js"] = true
		perContract["dist/"+base+".d.ts"] = true
	}
	for path, c := range gentest.Contracts(t) {
		files := gentest.GenerateTwice(t, path, Generate, c)
		for name, data := range files {
			head := data
			if len(head) > 512 {
				head = head[:512]
			}
			if !bytes.Contains(head, []byte(marker.Text)) {
				t.Errorf("%s: %s lacks the marker in its first 512 bytes", path, name)
			}
			if (strings.HasSuffix(name, ".ts") || strings.HasSuffix(name, ".js")) && !bytes.HasPrefix(data, []byte("// "+marker.Text+"\n")) {
				t.Errorf("%s: %s does not start with the header", path, name)
			}
			if strings.HasSuffix(name, ".json") && !json.Valid(data) {
				t.Errorf("%s: %s is not valid JSON", path, name)
			}
		}
		var pkg map[string]any
		if err := json.Unmarshal(files["gen/ts/package.json"], &pkg); err != nil {
			t.Fatalf("%s: package.json: %v", path, err)
		}
		if pkg["name"] != targets.Defaults(c.Name).Packages.NPM || pkg["version"] != npmVersion(c.Release, c.VersionLabel()) || pkg["type"] != "module" {
			t.Errorf("%s: package.json: name %v, version %v, type %v", path, pkg["name"], pkg["version"], pkg["type"])
		}
		for _, k := range []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies", "scripts"} {
			if _, ok := pkg[k]; ok {
				t.Errorf("%s: package.json has %s", path, k)
			}
		}
		var tsconfig struct {
			CompilerOptions map[string]any `json:"compilerOptions"`
		}
		if err := json.Unmarshal(files["gen/ts/tsconfig.json"], &tsconfig); err != nil || tsconfig.CompilerOptions["strict"] != true {
			t.Errorf("%s: tsconfig.json is not strict (%v)", path, err)
		}
		// The runtime is the same text for every contract, compiled too:
		// only the data module, the constructors and the package files
		// (the templates of the files table) differ.
		for name, data := range files {
			if perContract[strings.TrimPrefix(name, Dir(targets.Defaults(c.Name))+"/")] {
				continue
			}
			if prev, ok := static[name]; ok && !bytes.Equal(prev, data) {
				t.Errorf("%s: %s differs from another contract's, but the runtime is contract-independent", path, name)
			}
			static[name] = data
		}
	}
}

func TestCommentsCannotEscape(t *testing.T) {
	got := doc("a */ b\nc\r\nd\u2028e\u2029f")
	if strings.Contains(got, "*/") || strings.ContainsAny(got, "\n\r\u2028\u2029") {
		t.Errorf("doc left a comment closer or line terminator: %q", got)
	}
}

func TestNameCollisions(t *testing.T) {
	c := gentest.Load(t, "../gengo/testdata/minimal/kinds.yaml")
	c.Kinds[0].Idents.TSType = "Envelope" // its constructor would be newEnvelope
	if _, err := Generate(c, targets.Defaults(c.Name)); err == nil || !strings.Contains(err.Error(), "newEnvelope") {
		t.Errorf("a kind whose constructor is newEnvelope: got %v", err)
	}
}

// The sanitizer policy is data in contract.ts (sanitize.ts is the same for
// every contract), and the constructors sanitize exactly the required
// fields the contract lists.
func TestSanitizePolicy(t *testing.T) {
	c := gentest.Load(t, "../gengo/testdata/escaping/kinds.yaml")
	files, err := Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	data := string(files["gen/ts/src/contract.ts"])
	for _, want := range []string{
		"export const SANITIZE_MAX_LENGTH = 100;",
		`export const SANITIZE_TRUNCATION_MARKER = " …\"cut\"\\";`,
		`"back\\slash"`,
		`"prefixes": [` + "\n      \"esc_\",\n      \"ESC-\"\n    ],\n    \"chars\": \"token\",\n    \"minLength\": 8",
		"export const SANITIZED_FIELDS: readonly string[] = deepFreeze([\n  \"message\"\n]);",
	} {
		if !strings.Contains(data, want) {
			t.Errorf("contract.ts lacks %q", want)
		}
	}

	c, err = contract.LoadFile("../gengo/testdata/minimal/kinds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	k := c.Kinds[0]
	req := k.RequiredFields()
	if len(req) == 0 {
		t.Fatalf("%s has no required field", k.Name)
	}
	req[0].Idents.TSLocal = "opts" // a field named like the constructors' options
	c.Sanitize.Fields = append(c.Sanitize.Fields, req[0].Name)
	files, err = Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	ctors := string(files["gen/ts/src/constructors.ts"])
	for _, want := range []string{
		"import { sanitizeUnlessTrusted, type SanitizeOptions } from \"./sanitize.js\";",
		"opts_: ", "opts?: SanitizeOptions)",
		"opts: sanitizeUnlessTrusted(opts_, opts)",
	} {
		if !strings.Contains(ctors, want) {
			t.Errorf("constructors.ts lacks %q:\n%s", want, ctors)
		}
	}
}
