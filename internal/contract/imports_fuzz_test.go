package contract_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"testing"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gentest"
)

// memFiles resolves imports by path among a few files in memory, relative
// to the importing file as the Files resolver does; a module is never
// there.
type memFiles map[string][]byte

func (m memFiles) Resolve(from *contract.ImportFile, spec *contract.ImportSpec) (*contract.ImportFile, error) {
	if spec.Module != "" {
		return nil, fmt.Errorf("module %s: no modules here", spec.Module)
	}
	p := path.Clean(path.Join(path.Dir(from.Path), spec.Path))
	data, ok := m[p]
	if !ok {
		return nil, fmt.Errorf("cannot import %s: no such file (%s)", spec.Path, p)
	}
	return &contract.ImportFile{Path: p, Name: p, Data: data}, nil
}

// FuzzImports loads a service contract (kinds.yaml) that may import a base
// (base.yaml), both arbitrary bytes, seeded with the import cases of
// testdata/imports and the reference contract as a base: the loader must
// never panic, and every problem must name one of the two files with a
// usable position, whichever file made it. make fuzz runs it at length;
// make test runs its seeds.
func FuzzImports(f *testing.F) {
	base, err := os.ReadFile("testdata/imports/base.yaml")
	if err != nil {
		f.Fatal(err)
	}
	ref, err := os.ReadFile("../../contract/kinds.yaml")
	if err != nil {
		f.Fatal(err)
	}
	// Every case's service imports ../base.yaml or a file beside it; here
	// every import by path lands on base.yaml or nothing.
	for _, p := range gentest.Glob(f, "testdata/imports/*/kinds.yaml") {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		data = bytes.ReplaceAll(data, []byte("../base.yaml"), []byte("base.yaml"))
		f.Add(data, base)
		if filepath.Base(filepath.Dir(p)) == "redefine" {
			f.Add(data, ref)
		}
	}
	svc := []byte("contract:\n  name: svc-error\nimports:\n  - path: base.yaml\n    version: 1\nkinds:\n  k: &k\n    group: core\n    description: d.\n    origin: validation\n    http: 400\n    recovery: {action: revise, same_arguments: never, guidance: g.}\n  k2: *k\n")
	f.Add(svc, base)
	f.Add(svc, []byte("contract:\n  name: b\nimports:\n  - path: kinds.yaml\n"))
	f.Add(svc, []byte("contract:\n  name: b\nimports:\n  - path: base.yaml\n"))
	f.Fuzz(func(t *testing.T, svc, base []byte) {
		files := memFiles{"kinds.yaml": svc, "base.yaml": base}
		c, err := contract.LoadWith("kinds.yaml", svc, files)
		if err == nil {
			if c == nil {
				t.Fatal("LoadWith returned neither a contract nor problems")
			}
			return
		}
		if c != nil {
			t.Error("LoadWith returned a contract together with problems")
		}
		var ps contract.Problems
		if !errors.As(err, &ps) {
			t.Fatalf("LoadWith returned %T, want Problems: %v", err, err)
		}
		if len(ps) == 0 {
			t.Fatal("LoadWith returned an empty Problems")
		}
		for _, p := range ps {
			if _, ok := files[p.File]; !ok {
				t.Errorf("problem in %q, which is neither input: %s", p.File, p)
			}
			if p.Pos.Line < 1 || p.Pos.Col < 1 {
				t.Errorf("problem without a usable position: %s", p)
			}
			if p.Message == "" {
				t.Errorf("problem without a message: %s", p)
			}
		}
	})
}
