package genvectors_test

import (
	"runtime"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genvectors"
	"github.com/errgen/errgen/internal/synth"
	"github.com/errgen/errgen/internal/targets"
)

// TestVectorsAllocationsPerKind holds the vectors of a 1,000-kind contract
// to 90 allocations a kind, the examples the run shares included (78 now;
// 183 on 77267497: each kind's short form parsed back, a lowered copy of
// every text checked against the sanitizer, a header map per response, a
// tree of boxed values for each problem document, log form and MCP error,
// next_step's attempts decided and written per vector). Allocations, unlike
// time, do not move with a shared machine's load.
func TestVectorsAllocationsPerKind(t *testing.T) {
	const kinds, bound = 1000, 90.0
	c, err := contract.Load("synth.yaml", synth.Contract(kinds))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := genvectors.Generate(c, targets.Defaults(c.Name)); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	perKind := float64(after.Mallocs-before.Mallocs) / kinds
	t.Logf("%.1f allocations a kind", perKind)
	if perKind > bound {
		t.Errorf("the vectors take %.1f allocations a kind, more than %.0f", perKind, bound)
	}
}
