package genrust

import (
	"bytes"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/targets"
	"github.com/errgen/errgen/runtime"
)

func load(t *testing.T, file string) *contract.Contract {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := contract.Load(file, data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Every contract of the repository generates, twice alike; every .rs file
// starts with the header, lib.rs declares every runtime module it ships,
// and the runtime files are runtime/rust/src's, stamped. (tests/rust
// compiles, lints and tests the crates.)
func TestGenerate(t *testing.T) {
	for _, file := range []string{"../../contract/kinds.yaml", "../../examples/agento/kinds.yaml", "../../examples/ovstorage/kinds.yaml",
		"../gengo/testdata/minimal/kinds.yaml", "../gengo/testdata/escaping/kinds.yaml", "../gengo/testdata/reserved/kinds.yaml"} {
		c := load(t, file)
		out, err := Generate(c, targets.Defaults(c.Name))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		again, _ := Generate(c, targets.Defaults(c.Name))
		lib := string(out[path.Join(Dir(targets.Defaults(c.Name)), "src/lib.rs")])
		for name, data := range out {
			if !bytes.Equal(data, again[name]) {
				t.Errorf("%s: %s differs between two runs", file, name)
			}
			if strings.HasSuffix(name, ".rs") && !strings.HasPrefix(string(data), Header+"\n") {
				t.Errorf("%s: %s does not start with the header", file, name)
			}
		}
		for _, m := range runtime.Rust.Names() {
			name := path.Join(Dir(targets.Defaults(c.Name)), "src", m)
			data, ok := out[name]
			mod := strings.TrimSuffix(m, ".rs")
			if !ok {
				if c.Inbound == nil && (mod == "inbound" || mod == "words") {
					continue
				}
				t.Errorf("%s: %s is missing", file, name)
				continue
			}
			want, _ := runtime.Rust.Stamped(m, Header)
			if !bytes.Equal(data, want) {
				t.Errorf("%s: %s is not the runtime file stamped", file, name)
			}
			if !strings.Contains(lib, "\nmod "+mod+";\n") && !strings.Contains(lib, "\npub mod "+mod+";\n") {
				t.Errorf("%s: lib.rs does not declare %s", file, mod)
			}
		}
		if !strings.Contains(lib, "#![deny(missing_docs)]") {
			t.Errorf("%s: lib.rs does not deny missing docs", file)
		}
	}
}

// The runtime's own crate root does not ship.
func TestLibIsNotRuntime(t *testing.T) {
	for _, m := range runtime.Rust.Names() {
		if m == "lib.rs" {
			t.Fatal("runtime/rust/src/lib.rs would ship as a runtime module")
		}
	}
}
