package gentest

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/errgen/errgen/internal/genvectors"
)

// aip193 runs the google.rpc mapping's sections: every kind's gRPC code and
// reason through Lookup (the reasons' edges through Lookup of kinds the
// contract may not define, which computes them), every envelope's AIP193
// byte for byte and FromAIP193 reading it back into the envelope, and
// foreign AIP-193 errors read into their envelopes (an error for null).
func (v *vectors) aip193(t *testing.T, f *genvectors.File) {
	if v.pkg.FromAIP193 == nil {
		t.Fatal("the vectors have the google.rpc mapping; FromAIP193 was not passed")
	}
	if len(f.AIPKinds) == 0 || len(f.AIPEncode) == 0 || len(f.AIPDecode) == 0 {
		t.Fatal("an aip193 section is empty")
	}
	for _, want := range f.AIPKinds {
		c := v.lookupOf(want.Kind)
		got := genvectors.AIPKindVec{Kind: want.Kind, HTTPStatus: int(c.FieldByName("HTTPStatus").Int()),
			GRPCCode: int(c.FieldByName("GRPCCode").Int()), GRPCStatus: c.FieldByName("GRPCStatus").String(),
			Reason: c.FieldByName("Reason").String()}
		if got != want {
			t.Errorf("Lookup(%q):\ngot  %+v\nwant %+v", want.Kind, got, want)
		}
	}
	for _, want := range f.AIPReasons {
		if got := v.lookupOf(want.Kind).FieldByName("Reason").String(); got != want.Reason {
			t.Errorf("Lookup(%q).Reason = %q, want %q", want.Kind, got, want.Reason)
		}
	}
	from := func(text string) (reflect.Value, error) {
		out := reflect.ValueOf(v.pkg.FromAIP193).Call([]reflect.Value{reflect.ValueOf([]byte(text))})
		err, _ := out[1].Interface().(error)
		return out[0], err
	}
	for _, want := range f.AIPEncode {
		e, err := v.decode(want.Envelope)
		if err != nil {
			t.Errorf("%s: decoding: %v", want.Name, err)
			continue
		}
		out := e.MethodByName("AIP193").Call(nil)
		if err, _ := out[1].Interface().(error); err != nil {
			t.Errorf("%s: AIP193: %v", want.Name, err)
			continue
		}
		if got := out[0].Bytes(); !bytes.Equal(got, []byte(want.AIP193)) {
			t.Errorf("%s: AIP193:\ngot  %s\nwant %s", want.Name, got, want.AIP193)
		}
		back, err := from(want.AIP193)
		if err != nil {
			t.Errorf("%s: FromAIP193: %v", want.Name, err)
			continue
		}
		if got := marshalEnvelope(back); !sameJSON(got, want.Envelope) {
			t.Errorf("%s: FromAIP193:\ngot  %s\nwant %s", want.Name, got, want.Envelope)
		}
	}
	for _, want := range f.AIPDecode {
		got, err := from(want.AIP193)
		v.readsAs(t, want.Name, "FromAIP193", got, err, want.Envelope)
		if want.Category == "" || err == nil {
			continue
		}
		// The error of a document that does not read is the decode error
		// the envelope decoder gives for the same problem.
		if path, category, ok := v.decodeError(err); !ok || path != *want.Path || category != want.Category {
			t.Errorf("%s: FromAIP193: error %v (path %q, category %q), want path %q, category %q", want.Name, err, path, category, *want.Path, want.Category)
		}
	}
}
