package agenterror_test

import (
	"os"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/internal/gentest"
)

// Every call error the package builds from the vectors' tool results (every
// kind, and the edge cases) validates against the generated call-error
// schema and labby's published Code Mode call-error schema (vendored in
// tests/testdata/labby), and matches the vector.
func TestCallErrorVectors(t *testing.T) {
	schemas := map[string][]byte{}
	for name, file := range map[string]string{
		"labby's code-mode-call-error schema": "../../../tests/testdata/labby/code-mode-call-error.schema.json",
		"agent-error.call-error.schema.json":  "../../../schemas/agent-error.call-error.schema.json",
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		schemas[name] = data
	}
	gentest.CheckCallErrors(t, "../../../conformance/agent-error.vectors.json", func(result []byte, upstream, name string, annotations map[string]any) ([]byte, error) {
		ce, err := agenterror.NewCallError(result, agenterror.CallTool{Upstream: upstream, Name: name, Annotations: annotations})
		if err != nil {
			return nil, err
		}
		if ce.CountsTowardBreaker() {
			t.Errorf("a call error counts toward the breaker")
		}
		text := ce.Error()
		b, err := ce.MarshalJSON()
		if err != nil || string(b) != text {
			t.Errorf("Error() is not the JSON text: %q vs %q (%v)", text, b, err)
		}
		return []byte(text), nil
	}, schemas)
}
