// Package gentest holds checks shared by the tests of every generated Go
// package. Generated packages have the same API whatever their contract, so
// one check, driven by reflection, serves them all.
package gentest

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/orderedjson"
)

// Load loads a contract or fails the test.
func Load(t testing.TB, path string) *contract.Contract {
	t.Helper()
	c, err := contract.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// LoadData loads a contract from its text, as a file named kinds.yaml, or
// fails the test.
func LoadData(t testing.TB, data []byte) *contract.Contract {
	t.Helper()
	c, err := contract.Load("kinds.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// MatchExamples builds every example of the contract with the generated
// package — newEnvelope(kind, message) is the package's New (given empty
// context where the layout requires some: the example's own comes through
// the With setters), then its With setters — and checks that the package
// marshals exactly the example the docs show and the schemas accept.
func MatchExamples(t *testing.T, contractPath string, newEnvelope func(kind, message string) any) {
	t.Helper()
	c := Load(t, contractPath)
	for _, ex := range exampleenv.All(c) {
		e := build(t, ex, newEnvelope)
		got, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("%s: %v", ex.Name, err)
		}
		var a, b any
		json.Unmarshal(got, &a)
		json.Unmarshal(ex.JSON(), &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s:\nGo      %s\nexample %s", ex.Name, got, ex.JSON())
		}
	}
}

func build(t *testing.T, ex exampleenv.Example, newEnvelope func(kind, message string) any) any {
	kind, message := ex.KindAndMessage()
	e := newEnvelope(kind, message)
	v := reflect.ValueOf(e)
	for _, s := range ex.Set {
		switch s.Leaf.Source {
		case contract.SourceRetryAfterMs:
			v.MethodByName("WithRetryAfter").Call([]reflect.Value{reflect.ValueOf(time.Duration(s.Value.(int)) * time.Millisecond)})
		case contract.SourceGuidance:
			// Where the layout carries guidance only when the producer
			// gives it, the constructors leave it empty: an example with
			// guidance gave it.
			if s.Leaf.Optional {
				v.MethodByName("WithGuidance").Call([]reflect.Value{reflect.ValueOf(s.Value.(string))})
			}
		case contract.SourceField:
			setter := v.MethodByName("With" + s.Leaf.Field.Idents.Go)
			if !setter.IsValid() {
				t.Fatalf("no setter With%s", s.Leaf.Field.Idents.Go)
			}
			setter.Call([]reflect.Value{goValue(s.Value, setter.Type().In(0))})
		}
	}
	return e
}

// goValue converts an example value to the Go type a setter takes.
func goValue(v any, typ reflect.Type) reflect.Value {
	switch v := v.(type) {
	case []any:
		out := reflect.MakeSlice(typ, len(v), len(v))
		for i, x := range v {
			out.Index(i).Set(goValue(x, typ.Elem()))
		}
		return out
	case orderedjson.Object:
		if typ.Kind() == reflect.Pointer && typ.Elem().Kind() == reflect.Struct {
			// An object with declared properties: fill its struct by JSON.
			ptr := reflect.New(typ.Elem())
			raw, _ := json.Marshal(v)
			json.Unmarshal(raw, ptr.Interface())
			return ptr
		}
		m := map[string]any{}
		for _, member := range v {
			m[member.Key] = member.Value
		}
		return reflect.ValueOf(m)
	}
	return reflect.ValueOf(v).Convert(typ)
}

// Contracts loads, for a test of a package under internal/, the reference
// contract, the example contracts and the generator's test contracts
// (internal/gengo/testdata), plus the files more globs match, keyed by path.
// Every emitter must generate all of them; fewer than four found means the
// globs have gone stale, which fails the test rather than thinning it.
func Contracts(t testing.TB, more ...string) map[string]*contract.Contract {
	t.Helper()
	paths := []string{"../../contract/kinds.yaml"}
	for _, glob := range append([]string{"../../examples/*/kinds.yaml", "../gengo/testdata/*/kinds.yaml"}, more...) {
		found, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, found...)
	}
	out := map[string]*contract.Contract{}
	for _, p := range paths {
		c, err := contract.LoadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = c
	}
	if len(out) < 4 {
		t.Fatalf("only %d contracts found from %s", len(out), strings.Join(paths, ", "))
	}
	return out
}
