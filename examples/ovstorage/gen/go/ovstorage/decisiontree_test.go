// The decision tree of ovstorage's error primer (seed 003), for an envelope
// that is not retryable and carries no next_action: the step NextStep gives
// each code the tree names. docs/differences.md lists where errgen's steps
// go beyond the tree (the codes it leaves to "etc.").
package ovstorage_test

import (
	"testing"

	"github.com/errgen/errgen/examples/ovstorage/gen/go/ovstorage"
)

func TestSeedDecisionTree(t *testing.T) {
	tree := []struct {
		code  ovstorage.Kind
		steps []ovstorage.Step // any of these
	}{
		// "NotFound / AlreadyExists → input-shaped; agent decides"
		{"NotFound", []ovstorage.Step{ovstorage.StepRevise, ovstorage.StepRediscover}},
		{"AlreadyExists", []ovstorage.Step{ovstorage.StepRevise, ovstorage.StepRediscover}},
		// "PermissionDenied / AuthRequired → surface to user"
		{"PermissionDenied", []ovstorage.Step{ovstorage.StepEscalate}},
		{"AuthRequired", []ovstorage.Step{ovstorage.StepEscalate}},
		// "InvalidArgument → review your tool-call arguments"
		{"InvalidArgument", []ovstorage.Step{ovstorage.StepRevise}},
		// "Unsupported → check ovstorage_capabilities; choose a different op"
		{"Unsupported", []ovstorage.Step{ovstorage.StepRevise}},
		// "Internal / IntegrityFailure / etc. → surface to user"
		{"Internal", []ovstorage.Step{ovstorage.StepEscalate}},
		{"IntegrityFailure", []ovstorage.Step{ovstorage.StepEscalate}},
		// A code this package does not know: surface it rather than guess.
		{"FutureThing", []ovstorage.Step{ovstorage.StepEscalate}},
	}
	for _, c := range tree {
		e := ovstorage.New(c.code, "m", "op")
		if e.IsRetryable() {
			t.Errorf("%s is retryable; the tree's branch is for retryable: false", c.code)
		}
		d := ovstorage.NextStep(e, 1)
		ok := false
		for _, s := range c.steps {
			ok = ok || d.Step == s
		}
		if !ok {
			t.Errorf("%s: step %q, the seed's decision tree says %q", c.code, d.Step, c.steps)
		}
	}
}
