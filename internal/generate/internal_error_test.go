package generate

import (
	"errors"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
)

// TestEmitterPanicIsInternalError: a panic on an emitter's goroutine used
// to end the process (issue 15: gengo on a description holding a NUL).
// run recovers it into an InternalError naming the emitter and the
// contract, with the stack for the report, and returns no output.
func TestEmitterPanicIsInternalError(t *testing.T) {
	c := &contract.Contract{File: "contract/kinds.yaml"}
	boom := Emitter{
		Name: "boom",
		Key:  "boom",
		Generate: func(*contract.Contract, targets.Options) (map[string][]byte, error) {
			panic("gengo: a Kind constant does not format")
		},
	}
	fine := fixed(map[string][]byte{"gen/test/a.go": []byte("// " + marker.Text + "\n\npackage test\n")})
	out, err := run(c, targets.Options{Dirs: map[string]string{"test": "gen/test", "boom": "gen/boom"}}, []Emitter{fine, boom})
	var internal *InternalError
	if !errors.As(err, &internal) || out != nil {
		t.Fatalf("run = %v, %v; want no output and an InternalError", out, err)
	}
	if internal.Emitter != "boom" || len(internal.Stack) == 0 {
		t.Errorf("InternalError names emitter %q with a %d-byte stack", internal.Emitter, len(internal.Stack))
	}
	for _, want := range []string{"contract/kinds.yaml: internal error: the boom emitter failed", "a Kind constant does not format", "bug in errgen", "nothing was written", "report it"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q: %v", want, err)
		}
	}
}
