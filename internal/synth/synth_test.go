package synth

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/generate"
	"github.com/errgen/errgen/internal/targets"
)

// Every size loads without problems, with the kinds, groups and retired
// names it promises.
func TestContractLoads(t *testing.T) {
	for _, n := range []int{1, 7, 100, 250} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			c, err := contract.Load(fmt.Sprintf("synth-%d.yaml", n), Contract(n))
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Kinds) != n {
				t.Errorf("%d kinds, want %d", len(c.Kinds), n)
			}
			if want := (n + KindsPerGroup - 1) / KindsPerGroup; len(c.Groups) != want {
				t.Errorf("%d groups, want %d", len(c.Groups), want)
			}
			if want := (n + 99) / 100; len(c.Retired) != want {
				t.Errorf("%d retired, want %d", len(c.Retired), want)
			}
			if n >= 100 && len(c.KindFields) != len(fields) {
				t.Errorf("%d kind fields, want the whole pool of %d", len(c.KindFields), len(fields))
			}
			if c.Kinds[n-1].Name != KindName(n-1) {
				t.Errorf("last kind %s, want %s", c.Kinds[n-1].Name, KindName(n-1))
			}
		})
	}
}

// A synthetic contract goes through every emitter, and the YAML is
// deterministic.
func TestContractGenerates(t *testing.T) {
	c, err := contract.Load("synth.yaml", Contract(20))
	if err != nil {
		t.Fatal(err)
	}
	out, err := generate.Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Files) == 0 {
		t.Fatal("no files")
	}
	if !bytes.Equal(Contract(20), Contract(20)) {
		t.Error("Contract is not deterministic")
	}
}

func TestKindNamesAreDistinct(t *testing.T) {
	seen := map[string]bool{}
	for i := range 10000 {
		name := KindName(i)
		if seen[name] {
			t.Fatalf("%s repeats", name)
		}
		seen[name] = true
	}
}

// TestCostPerKindDoesNotGrow holds errgen generate (load, validate, every
// emitter) to linear growth: the bytes and the allocations per kind of a
// contract ten times larger are at most 10% above the smaller one's (a
// fixed cost makes them fall; a step that grows faster than the contract
// makes them rise). Allocations, unlike time, do not move with the load
// of a shared machine; make bench measures the time up to 100,000 kinds.
func TestCostPerKindDoesNotGrow(t *testing.T) {
	perKind := func(n int) (bytes, allocs float64) {
		data := Contract(n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		c, err := contract.Load("synth.yaml", data)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := generate.Generate(c, targets.Defaults(c.Name)); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(n), float64(after.Mallocs-before.Mallocs) / float64(n)
	}
	smallBytes, smallAllocs := perKind(250)
	largeBytes, largeAllocs := perKind(2500)
	t.Logf("per kind: %.0f B and %.0f allocations at 250 kinds, %.0f B and %.0f at 2,500", smallBytes, smallAllocs, largeBytes, largeAllocs)
	if largeBytes > 1.1*smallBytes {
		t.Errorf("bytes allocated per kind grow with the contract: %.0f at 250 kinds, %.0f at 2,500", smallBytes, largeBytes)
	}
	if largeAllocs > 1.1*smallAllocs {
		t.Errorf("allocations per kind grow with the contract: %.0f at 250 kinds, %.0f at 2,500", smallAllocs, largeAllocs)
	}
}
