package generate

import (
	"errors"
	"runtime"
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

// TestEmittersOnOneWorker: run hands the emitters to GOMAXPROCS workers, so
// with one every emitter still runs, one after the other, and a panic in
// the first leaves the rest to run and is still reported as the
// InternalError; the files come back whatever the order they ran in.
func TestEmittersOnOneWorker(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	c := &contract.Contract{File: "contract/kinds.yaml"}
	ran := map[string]bool{}
	emitter := func(key string, panics bool) Emitter {
		return Emitter{Name: key, Key: key, Generate: func(*contract.Contract, targets.Options) (map[string][]byte, error) {
			ran[key] = true // one worker: no race
			if panics {
				panic("boom")
			}
			return map[string][]byte{"gen/" + key + "/a.go": []byte("// " + marker.Text + "\n\npackage " + key + "\n")}, nil
		}}
	}
	dirs := map[string]string{"a": "gen/a", "b": "gen/b", "c": "gen/c"}
	out, err := run(c, targets.Options{Dirs: dirs}, []Emitter{emitter("a", false), emitter("b", false), emitter("c", false)})
	if err != nil || len(out.Files) != 3 {
		t.Fatalf("run on one worker = %v, %v; want three files", out, err)
	}
	clear(ran)
	_, err = run(c, targets.Options{Dirs: dirs}, []Emitter{emitter("a", true), emitter("b", false), emitter("c", false)})
	var internal *InternalError
	if !errors.As(err, &internal) || internal.Emitter != "a" || len(ran) != 3 {
		t.Fatalf("a panic on one worker: err %v, emitters run %v; want the InternalError of a and all three run", err, ran)
	}
}
