package ovstorage_test

import (
	"testing"
	"time"

	"github.com/errgen/errgen/examples/ovstorage/gen/go/ovstorage"
	"github.com/errgen/errgen/internal/gentest"
)

func TestNextStep(t *testing.T) {
	gentest.CheckNextStep(t, "../../../kinds.yaml", func(kind, message string) any {
		return ovstorage.New(ovstorage.Kind(kind), message, "")
	}, func(e any, attempt int) any { return ovstorage.NextStep(e.(*ovstorage.Envelope), attempt) })
}

// ovstorage's client policy: exponential backoff from 100 ms, at most 30 s,
// 5 attempts; a non-retryable code is never retried.
func TestSeedRetryPolicy(t *testing.T) {
	e := ovstorage.NewTransient("broker hiccup", "ovstorage_read")
	var delays []time.Duration
	for attempt := 1; ; attempt++ {
		d := ovstorage.NextStep(e, attempt)
		if d.Step != ovstorage.StepRetry {
			if attempt != 5 || !d.Exhausted {
				t.Errorf("stopped retrying at attempt %d: %+v", attempt, d)
			}
			break
		}
		delays = append(delays, d.DelayMax)
	}
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond}
	if len(delays) != len(want) {
		t.Fatalf("delays %v", delays)
	}
	for i := range want {
		if delays[i] != want[i] {
			t.Errorf("delay %d = %v, want %v", i+1, delays[i], want[i])
		}
	}
	if d := ovstorage.NextStep(ovstorage.NewNotFound("gone", "ovstorage_stat"), 1); d.Step == ovstorage.StepRetry {
		t.Errorf("NotFound retried: %+v", d)
	}
}
