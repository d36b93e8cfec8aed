package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/errgen/errgen/internal/contract"
)

// TestValidateCountsImportedKinds: validate's summary of a contract that
// imports another says how many of its kinds the import defines, so an
// owner sees at a glance what the service adds.
func TestValidateCountsImportedKinds(t *testing.T) {
	dir := t.TempDir()
	base, err := os.ReadFile("../contract/testdata/imports/base.yaml")
	if err != nil {
		t.Fatal(err)
	}
	svc := filepath.Join(dir, "svc", "kinds.yaml")
	for path, text := range map[string]string{
		filepath.Join(dir, "base.yaml"): string(base),
		svc: "contract:\n  name: svc-error\nimports:\n  - path: ../base.yaml\nkinds:\n  card_declined:\n    group: core\n" +
			"    description: The card was declined.\n    origin: validation\n    http: 402\n    recovery:\n" +
			"      action: revise\n      same_arguments: never\n      guidance: Ask for another card.\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := run("validate", "-contract", svc)
	want := "errgen: validated " + svc + ": contract svc-error version 1, 4 kinds (3 from platform-error): ok\n"
	if code != 0 || stdout != want {
		t.Errorf("validate = %d, %q, %q; want 0, %q", code, stdout, stderr, want)
	}
}

// A long chain of imports names the first few contracts its kinds come
// from and counts the rest, so the summary stays one readable line.
func TestImportedKindsSummaryIsShort(t *testing.T) {
	c := &contract.Contract{Imports: []*contract.Import{{}}}
	for i := 0; i < 40; i++ {
		from := &contract.Import{Name: fmt.Sprintf("c%d", i)}
		for j := 0; j <= i%2; j++ {
			c.Kinds = append(c.Kinds, &contract.Kind{Value: contract.Value{From: from}})
		}
	}
	c.Kinds = append(c.Kinds, &contract.Kind{})
	want := " (1 from c0, 2 from c1, 1 from c2 and 56 from 37 more imported contracts)"
	if got := importedKinds(c); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
