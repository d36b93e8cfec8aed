package gents

import (
	"runtime"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/synth"
	"github.com/errgen/errgen/internal/targets"
)

// The TypeScript package costs at most 24 KB of allocation per kind (issue
// 33: 10,000 kinds within 800 MB for every output together). Each extra
// kind adds about 3 KB of files. On b1674a3, which compiled the contract's
// modules with esbuild, it took 56 KB; writing their JavaScript from the
// view (js.go) is most of what keeps it under the bound. Measured as the
// difference between two sizes, so the runtime's fixed cost drops out;
// allocations, unlike time, do not move with the machine's load.
func TestBytesPerKind(t *testing.T) {
	alloc := func(n int) uint64 {
		c := gentest.LoadData(t, synth.Contract(n))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := Generate(c, targets.Defaults(c.Name)); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	const small, large = 400, 1200
	alloc(small) // the runtime's modules compiled once, as in any process
	perKind := float64(alloc(large)-alloc(small)) / (large - small)
	t.Logf("%.0f bytes allocated per kind", perKind)
	if perKind > 24<<10 {
		t.Errorf("the TypeScript package allocates %.0f bytes per kind, more than 24 KiB", perKind)
	}
}
