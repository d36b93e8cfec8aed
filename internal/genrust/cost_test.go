package genrust

import (
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gentest"
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
	perKind := gentest.BytesPerKind(t, func(c *contract.Contract) error {
		_, err := Generate(c, targets.Defaults(c.Name))
		return err
	})
	if perKind > 12<<10 {
		t.Errorf("the Rust crate allocates %.0f bytes per kind, more than 12 KiB", perKind)
	}
}
