package genrust

import (
	"runtime"
	"testing"

	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/synth"
	"github.com/errgen/errgen/internal/targets"
)

// The crate costs at most 12 KiB of allocation per kind (issue 33: 10,000
// kinds within 800 MB for every output together); each kind adds about
// 1.7 KB of files. On b1674a3 it took 36 KB: doc built a replacer for every
// line of documentation, and the classification rows went through strings
// of their own and buffers grown from nothing. Measured as the difference
// between two sizes, so fixed costs drop out; allocations, unlike time, do
// not move with the machine's load.
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
	perKind := float64(alloc(large)-alloc(small)) / (large - small)
	t.Logf("%.0f bytes allocated per kind", perKind)
	if perKind > 12<<10 {
		t.Errorf("the Rust crate allocates %.0f bytes per kind, more than 12 KiB", perKind)
	}
}
