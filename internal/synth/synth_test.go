package synth

import (
	"bytes"
	"fmt"
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
