package gentest

import (
	"runtime"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/synth"
)

// BytesPerKind is what generate allocates for each kind of a synthetic
// contract: the difference between 1,200 and 400 kinds, so that fixed
// costs (a runtime compiled once, tables of the language) drop out.
// Allocations, unlike time, do not move with the machine's load, so an
// emitter's test can bound them (issue 33).
func BytesPerKind(t testing.TB, generate func(*contract.Contract) error) float64 {
	t.Helper()
	alloc := func(n int) uint64 {
		c := LoadData(t, synth.Contract(n))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := generate(c); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	const small, large = 400, 1200
	alloc(small) // what a process does once (the runtime's modules compiled) is done before measuring
	a, b := alloc(large), alloc(small)
	// A generate that does no work per kind (or none at all) would pass
	// any bound; the difference would wrap if the larger run took less.
	if a <= b {
		t.Fatalf("generate allocated %d bytes at %d kinds and %d at %d: nothing grows with the kinds", a, large, b, small)
	}
	perKind := float64(a-b) / (large - small)
	t.Logf("%.0f bytes allocated per kind", perKind)
	return perKind
}
