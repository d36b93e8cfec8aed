package agenterror_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// openAPIDocuments are the committed OpenAPI documents errgen generated: the
// reference contract's and every example contract's.
func openAPIDocuments(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("../../../examples/*/openapi/*.errors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	docs = append([]string{"../../../openapi/agent-error.errors.yaml"}, docs...)
	if len(docs) < 3 {
		t.Fatalf("found only %v", docs)
	}
	return docs
}

// kinValidate loads path with kin-openapi, following references to other
// files, and validates the document: its structure and every schema as
// Draft 2020-12 (the document's jsonSchemaDialect), and with examples set
// every example against its schema, with every error reported.
func kinValidate(path string, examples bool) error {
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = true
	doc, err := loader.LoadFromFile(path)
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		return fmt.Errorf("openapi %q is not 3.1", doc.OpenAPI)
	}
	opts := []openapi3.ValidationOption{openapi3.EnableMultiError(), openapi3.DisableExamplesValidation()}
	if examples {
		opts[1] = openapi3.EnableExamplesValidation()
	}
	return doc.Validate(context.Background(), opts...)
}

// TestOpenAPIKinValidates validates every generated OpenAPI document with
// kin-openapi, a validator independent of openapi-spec-validator (which
// tests/python/test/test_openapi.py runs over the same documents), then an
// API document beside each that references every response, schema and
// header of it, and the hand-written sample API (tests/openapi/sample-api.yaml)
// beside the reference contract's document, each with its references to the
// generated document resolved. The examples are validated once, in the
// generated document (compiling a schema for each is most of the cost).
func TestOpenAPIKinValidates(t *testing.T) {
	for _, path := range openAPIDocuments(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			if err := kinValidate(path, true); err != nil {
				t.Fatalf("kin-openapi rejects %s: %v", path, err)
			}
			dir := t.TempDir()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
			api := filepath.Join(dir, "api.yaml")
			if err := os.WriteFile(api, everyComponentAPI(t, name, data), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := kinValidate(api, false); err != nil {
				t.Errorf("kin-openapi rejects an API document referencing every component of %s: %v", name, err)
			}
			if name != "agent-error.errors.yaml" {
				return
			}
			sample, err := os.ReadFile("../../../tests/openapi/sample-api.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "sample-api.yaml"), sample, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := kinValidate(filepath.Join(dir, "sample-api.yaml"), false); err != nil {
				t.Errorf("kin-openapi rejects tests/openapi/sample-api.yaml: %v", err)
			}
		})
	}
}

// TestOpenAPIKinRejectsABrokenReference shows that references are followed:
// a response the generated document lacks fails the validation above.
func TestOpenAPIKinRejectsABrokenReference(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.errors.yaml"), []byte("openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths: {}\ncomponents: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	api := "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    get:\n      responses:\n        default:\n          $ref: 'x.errors.yaml#/components/responses/NoSuchResponse'\n"
	if err := os.WriteFile(filepath.Join(dir, "api.yaml"), []byte(api), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := kinValidate(filepath.Join(dir, "api.yaml"), false); err == nil {
		t.Fatal("kin-openapi accepts a reference to a response the document lacks")
	}
}

// everyComponentAPI is an API document with one operation for each
// response, schema and header of the generated document file (named name),
// each by reference.
func everyComponentAPI(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(data)
	if err != nil {
		t.Fatal(err)
	}
	keys := func(m []string) []string { sort.Strings(m); return m }
	var responses, schemas, headers []string
	for k := range doc.Components.Responses {
		responses = append(responses, k)
	}
	for k := range doc.Components.Schemas {
		schemas = append(schemas, k)
	}
	for k := range doc.Components.Headers {
		headers = append(headers, k)
	}
	if len(responses) == 0 || len(schemas) == 0 || len(headers) == 0 {
		t.Fatalf("%s: %d responses, %d schemas, %d headers", name, len(responses), len(schemas), len(headers))
	}
	var b strings.Builder
	b.WriteString("openapi: 3.1.0\ninfo: {title: every component, version: '1'}\npaths:\n")
	for _, r := range keys(responses) {
		fmt.Fprintf(&b, "  /responses/%s:\n    get:\n      operationId: response%s\n      responses:\n        '200': {description: OK}\n        default:\n          $ref: '%s#/components/responses/%s'\n", r, r, name, r)
	}
	for _, s := range keys(schemas) {
		fmt.Fprintf(&b, "  /schemas/%s:\n    get:\n      operationId: schema%s\n      responses:\n        default:\n          description: %s\n          content:\n            application/json:\n              schema:\n                $ref: '%s#/components/schemas/%s'\n", s, s, s, name, s)
	}
	for _, h := range keys(headers) {
		fmt.Fprintf(&b, "  /headers/%s:\n    get:\n      operationId: header%s\n      responses:\n        default:\n          description: %s\n          headers:\n            %s:\n              $ref: '%s#/components/headers/%s'\n", h, strings.ReplaceAll(h, "-", ""), h, h, name, h)
	}
	return []byte(b.String())
}
