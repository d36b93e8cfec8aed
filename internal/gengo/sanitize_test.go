package gengo_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/targets"
)

// sanitizingContract sanitizes every kind of text field: guidance, a
// string, an array of strings, a free-form object, and a required object
// with properties holding a nested object; it turns path redaction off.
const sanitizingContract = `contract:
  name: sanitize-test
  version: 1
  naming: snake_case
origins:
  backend: {description: The backend failed., side_effects: maybe, log: error}
recovery_actions:
  wait: {description: Wait and retry., step: retry}
same_arguments:
  ok: {description: Repeat freely., retry: true}
side_effects:
  maybe: {description: Something may have happened.}
groups:
  backend: {title: Backend, description: Problems behind the service.}
context_fields:
  cause: {type: string, description: The upstream's own words.}
  hints: {type: array, items: string, description: Upstream hints.}
  detail: {type: object, description: Free-form upstream detail.}
  trace_id: {type: string, description: Not sanitized.}
kinds:
  backend_down:
    group: backend
    description: The backend is not answering.
    origin: backend
    http: 503
    recovery: {action: wait, same_arguments: ok, guidance: "Wait; password=contract-text stays."}
    fields:
      said: {type: array, items: string, required: true, description: What the backend said.}
      report:
        type: object
        required: true
        description: A structured report.
        properties:
          text: {type: string, required: true, description: Text.}
          lines: {type: array, items: string, description: Lines.}
          count: {type: integer, description: A count.}
          extra: {type: object, description: Free-form.}
          inner:
            type: object
            description: Nested.
            properties:
              note: {type: string, description: A note.}
fallback:
  origin: backend
  http: 500
  recovery: {action: wait, same_arguments: ok, guidance: Unknown failure.}
sanitize:
  fields: [message, guidance, cause, hints, detail, said, report]
  paths: false
`

// sanitizingProgram checks the constructors' and With methods' sanitizing
// default, its opt-outs, and that the caller's values are never modified.
const sanitizingProgram = `package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"reflect"

	p "scratch/gen/go/PKG"
)

const secret, clean = "password=hunter2", "password=[REDACTED]"

var failed bool

func check(what string, got, want any) {
	if !reflect.DeepEqual(got, want) {
		fmt.Printf("%s: got %#v, want %#v\n", what, got, want)
		failed = true
	}
}

func main() {
	e := p.New(p.KindBackendDown, secret)
	check("New message", e.Message, clean)
	check("NewTrusted message", p.NewTrusted(p.KindBackendDown, secret).Message, secret)
	check("contract guidance", e.Recovery.Guidance, "Wait; password=contract-text stays.")
	check("WithGuidance", e.WithGuidance(secret).Recovery.Guidance, clean)
	check("WithCause", e.WithCause(secret).Cause, clean)
	e.Cause = secret
	check("assigned cause", e.Cause, secret)
	check("WithTraceID", e.WithTraceID(secret).TraceID, secret)

	hints := []string{"ok", secret}
	check("WithHints", e.WithHints(hints).Hints, []string{"ok", clean})
	check("caller's hints", hints, []string{"ok", secret})
	fine := []string{"a", "b"}
	check("clean hints kept", &e.WithHints(fine).Hints[0] == &fine[0], true)
	check("nil hints", e.WithHints(nil).Hints == nil, true)

	detail := map[string]any{"a": secret, "n": 1, "list": []any{secret, 2}, "m": map[string]any{"k": secret}, "ss": []string{secret}}
	check("WithDetail", e.WithDetail(detail).Detail, map[string]any{"a": clean, "n": 1, "list": []any{clean, 2}, "m": map[string]any{"k": clean}, "ss": []string{clean}})
	check("caller's detail", detail, map[string]any{"a": secret, "n": 1, "list": []any{secret, 2}, "m": map[string]any{"k": secret}, "ss": []string{secret}})
	check("nil detail", e.WithDetail(nil).Detail == nil, true)

	said := []string{secret}
	report := &p.Report{Text: secret, Lines: []string{secret}, Count: nil, Extra: map[string]any{"x": secret}, Inner: &p.Inner{Note: secret}}
	k := p.NewBackendDown(secret, said, report)
	check("NewBackendDown message", k.Message, clean)
	check("NewBackendDown said", k.Said, []string{clean})
	check("NewBackendDown report", *k.Report.Inner, p.Inner{Note: clean})
	check("NewBackendDown report text", []any{k.Report.Text, k.Report.Lines, k.Report.Extra}, []any{clean, []string{clean}, map[string]any{"x": clean}})
	check("caller's said", said, []string{secret})
	check("caller's report", []any{report.Text, report.Lines, report.Extra, report.Inner.Note}, []any{secret, []string{secret}, map[string]any{"x": secret}, secret})
	// paths: false keeps home directories and credential paths.
	const paths = "open /home/alice/.ssh/id_rsa: denied; C:\\Users\\bob\\x.pem /Users/carol"
	check("paths off", p.Sanitize(paths), paths)
	// The log form sanitizes each string of a sanitized array or object
	// field before its JSON text, so a secret split by a control goes.
	const split = "ghp_a1B2c3D4e5F6g7H8i9\x01J0k1L2m3N4o5P6q7R8"
	l := p.NewTrusted(p.KindBackendDown, "m")
	l.Hints = []string{split}
	l.Detail = map[string]any{split: []any{split}}
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("x", "e", l)
	var rec struct{ E struct{ Fields map[string]any } }
	json.Unmarshal(logged.Bytes(), &rec)
	check("log form hints", rec.E.Fields["hints"], "[\"[REDACTED]\"]")
	check("log form detail", rec.E.Fields["detail"], "{\"[REDACTED]\":[\"[REDACTED]\"]}")
	n := p.NewBackendDown("fine", nil, nil)
	check("empty said", n.Said, []string{})
	check("nil report", n.Report == nil, true)
	if failed {
		os.Exit(1)
	}
	fmt.Println("ok")
}
`

// TestConstructorsSanitize builds a package whose contract sanitizes every
// kind of text field and runs a program checking what its constructors and
// With methods sanitize, and what they leave alone.
func TestConstructorsSanitize(t *testing.T) {
	goTool := gentest.GoTool(t)
	yamlPath := filepath.Join(t.TempDir(), "kinds.yaml")
	if err := os.WriteFile(yamlPath, []byte(sanitizingContract), 0o644); err != nil {
		t.Fatal(err)
	}
	c := gentest.Load(t, yamlPath)
	// The program and its package, written by gentest.ScratchDir.
	files := map[string][]byte{"go.mod": []byte("module scratch\n\ngo 1.26\n")}
	for p, data := range generate(t, c) {
		files[p] = data
	}
	files["main.go"] = []byte(strings.ReplaceAll(sanitizingProgram, "PKG", targets.Defaults(c.Name).Packages.Go))
	cmd := exec.Command(goTool, "run", ".")
	cmd.Dir, cmd.Env = gentest.ScratchDir(t, "gengo-sanitize", files), append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("go run: %v\n%s", err, out)
	}
}
