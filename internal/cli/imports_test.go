package cli

import (
	"os"
	"path/filepath"
	"testing"
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
