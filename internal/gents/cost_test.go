package gents

import (
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gentest"
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
	perKind := gentest.BytesPerKind(t, func(c *contract.Contract) error {
		_, err := Generate(c, targets.Defaults(c.Name))
		return err
	})
	if perKind > 24<<10 {
		t.Errorf("the TypeScript package allocates %.0f bytes per kind, more than 24 KiB", perKind)
	}
}
