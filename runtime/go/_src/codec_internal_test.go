package agenterror

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Typed values (arrays of integers, objects with integer properties) are
// decoded by encoding/json after integersByValue rewrites their numbers, so
// that their integers follow the rule of the scanner's integer reader and
// of the TypeScript and Python decoders: an integer is a number whose value
// is whole and at most MaxSafeInteger in magnitude, however it is written.
// No contract of this repository has such a field, so the rewrite is
// tested here, on the Go types they decode into.
func TestIntegersByValue(t *testing.T) {
	type typed struct {
		N *int64   `json:"n,omitempty"`
		F *float64 `json:"f,omitempty"`
		S string   `json:"s,omitempty"`
	}
	for _, tt := range []struct {
		raw      string
		ints     []int64 // nil: not an []int64
		floats   []float64
		rewrites bool
	}{
		{`[1,-2,0]`, []int64{1, -2, 0}, []float64{1, -2, 0}, false},
		{`[1.0,1e2,-0,-0.0,1.5e3]`, []int64{1, 100, 0, 0, 1500}, []float64{1, 100, 0, 0, 1500}, true},
		{`[9007199254740991,-9007199254740991]`, []int64{9007199254740991, -9007199254740991}, []float64{9007199254740991, -9007199254740991}, false},
		{`[9007199254740992]`, nil, []float64{9007199254740992}, true},
		{`[9223372036854775807]`, nil, []float64{9223372036854775807}, true},
		{`[18446744073709551616]`, nil, []float64{18446744073709551616}, true},
		{`[1e300]`, nil, []float64{1e300}, false},
		{`[1.5]`, nil, []float64{1.5}, false},
		{`["1.0", "a\"1.0"]`, nil, nil, false},
	} {
		got := integersByValue([]byte(tt.raw))
		if rewrote := string(got) != tt.raw; rewrote != tt.rewrites {
			t.Errorf("%s: rewritten to %s", tt.raw, got)
		}
		var ints []int64
		if ok := decodeAny([]byte(tt.raw), &ints); ok != (tt.ints != nil) || !reflect.DeepEqual(ints, tt.ints) {
			t.Errorf("%s as []int64: %v %v, want %v", tt.raw, ok, ints, tt.ints)
		}
		var floats []float64
		if ok := decodeAny([]byte(tt.raw), &floats); ok != (tt.floats != nil) || !reflect.DeepEqual(floats, tt.floats) {
			t.Errorf("%s as []float64: %v %v, want %v", tt.raw, ok, floats, tt.floats)
		}
	}
	var v *typed
	if !decodeAny([]byte(`{"n":4.04e2,"f":2.50,"s":"1.0e1"}`), &v) || *v.N != 404 || *v.F != 2.5 || v.S != "1.0e1" {
		t.Errorf("typed object: %+v", v)
	}
	if decodeAny([]byte(`{"n":9007199254740992}`), &v) {
		t.Errorf("typed object: an integer past MaxSafeInteger decoded")
	}
	// Free-form objects keep numbers as they are written.
	var free map[string]any
	if !decodeAny([]byte(`{"n":1.0,"big":9223372036854775807}`), &free) || free["n"] != json.Number("1.0") || free["big"] != json.Number("9223372036854775807") {
		t.Errorf("free-form object: %#v", free)
	}
}

// A layout constant other than a string is read by the reader of its type
// and compared by constValue. No contract of this repository has a number
// constant that is not an integer, so constValue is tested here on each
// type.
func TestConstValue(t *testing.T) {
	for _, tt := range []struct {
		doc  string
		read func(d *scanner) uint8
		want uint8
	}{
		{`true`, func(d *scanner) uint8 { return constValue(d.boolean, true) }, stSet},
		{`false`, func(d *scanner) uint8 { return constValue(d.boolean, true) }, stBadValue},
		{`"true"`, func(d *scanner) uint8 { return constValue(d.boolean, true) }, stWrongType},
		{`null`, func(d *scanner) uint8 { return constValue(d.boolean, false) }, stNull},
		{`2`, func(d *scanner) uint8 { return constValue(d.integer, 2) }, stSet},
		{`2.0e0`, func(d *scanner) uint8 { return constValue(d.integer, 2) }, stSet},
		{`3`, func(d *scanner) uint8 { return constValue(d.integer, 2) }, stBadValue},
		{`2.5`, func(d *scanner) uint8 { return constValue(d.integer, 2) }, stWrongType},
		{`2.5`, func(d *scanner) uint8 { return constValue(d.float, 2.5) }, stSet},
		{`25e-1`, func(d *scanner) uint8 { return constValue(d.float, 2.5) }, stSet},
		{`2.25`, func(d *scanner) uint8 { return constValue(d.float, 2.5) }, stBadValue},
		{`[2.5]`, func(d *scanner) uint8 { return constValue(d.float, 2.5) }, stWrongType},
	} {
		d := newScanner([]byte(tt.doc))
		if got := tt.read(&d); got != tt.want || d.failed {
			t.Errorf("%s: state %d (failed %v), want %d", tt.doc, got, d.failed, tt.want)
		}
	}
}
