package gentest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/genvectors"
)

// received runs the received section: the raw decoder keeps the document as
// it is; UnmarshalJSON returns the envelope with its secrets redacted, and so
// does every reader given what a surface wrote for the raw envelope
// (ReadHTTP of both bodies, FromToolResult, ReadCLI, FromAIP193); and no
// surface writing the redacted envelope holds a secret.
func (v *vectors) received(t *testing.T, vecs []genvectors.ReceivedVec) {
	if v.pkg.FromToolResult == nil {
		t.Fatal("the vectors have received envelopes; FromToolResult was not passed")
	}
	for _, want := range vecs {
		t.Run(want.Name, func(t *testing.T) {
			raw := reflect.New(v.env)
			out := raw.MethodByName("UnmarshalJSONRaw").Call([]reflect.Value{reflect.ValueOf([]byte(want.Document))})
			if err, _ := out[0].Interface().(error); err != nil {
				t.Fatalf("UnmarshalJSONRaw: %v", err)
			}
			if got := marshalEnvelope(raw); !sameJSON(got, want.Raw) {
				t.Errorf("UnmarshalJSONRaw:\ngot  %s\nwant %s", got, want.Raw)
			}
			e, err := v.unmarshal(want.Document)
			if v.readsAs(t, want.Name, "UnmarshalJSON", e, err, want.Envelope) == nil {
				return
			}
			// A top-level member named like a problem member gives way to it,
			// so the problem document reads back without it.
			var top map[string]json.RawMessage
			json.Unmarshal(want.Envelope, &top)
			collides := false
			for _, m := range []string{"type", "title", "status", "detail", "instance"} {
				_, has := top[m]
				collides = collides || has
			}
			for _, f := range v.writtenForms(t, raw) {
				if f.problem && collides {
					continue
				}
				got, err := f.read()
				v.readsAs(t, want.Name, f.reader+" of "+f.name+" of the raw envelope", got, err, want.Envelope)
			}
			for _, f := range v.writtenForms(t, e) {
				for _, s := range want.Secrets {
					if strings.Contains(f.text, s) {
						t.Errorf("%s of the envelope read holds %q: %s", f.name, s, f.text)
					}
				}
			}
		})
	}
}

// writtenForm is what one surface wrote for an envelope, and the reader of
// that surface reading it back.
type writtenForm struct {
	name, reader, text string
	problem            bool // the problem document
	read               func() (reflect.Value, error)
}

// writtenForms writes e with every surface that has a reader.
func (v *vectors) writtenForms(t *testing.T, e reflect.Value) []writtenForm {
	t.Helper()
	call := func(fn any, arg any) (reflect.Value, error) {
		out := reflect.ValueOf(fn).Call([]reflect.Value{reflect.ValueOf(arg)})
		err, _ := out[1].Interface().(error)
		return out[0], err
	}
	var forms []writtenForm
	for _, accept := range []string{"", "application/problem+json"} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		rec := httptest.NewRecorder()
		e.MethodByName("WriteHTTP").Call([]reflect.Value{reflect.ValueOf(http.ResponseWriter(rec)), reflect.ValueOf(req)})
		body, header, status := rec.Body.String(), rec.Header().Clone(), rec.Code
		forms = append(forms, writtenForm{name: "WriteHTTP (Accept " + accept + ")", reader: "ReadHTTP", text: body, problem: accept != "", read: func() (reflect.Value, error) {
			return call(v.pkg.ReadHTTP, &http.Response{StatusCode: status, Header: header, Body: io.NopCloser(strings.NewReader(body))})
		}})
	}
	out := e.MethodByName("ToolResult").Call(nil)
	if err, _ := out[1].Interface().(error); err != nil {
		t.Fatalf("ToolResult: %v", err)
	}
	result := out[0].Interface()
	text, err := json.Marshal(result)
	if err != nil {
		t.Fatal(err)
	}
	forms = append(forms, writtenForm{name: "ToolResult", reader: "FromToolResult", text: string(text), read: func() (reflect.Value, error) {
		return call(v.pkg.FromToolResult, result)
	}})
	var line bytes.Buffer
	if out := e.MethodByName("WriteCLI").Call([]reflect.Value{reflect.ValueOf(io.Writer(&line)), reflect.ValueOf("cmd")}); !out[0].IsNil() {
		t.Fatalf("WriteCLI: %v", out[0].Interface())
	}
	forms = append(forms, writtenForm{name: "WriteCLI", reader: "ReadCLI", text: line.String(), read: func() (reflect.Value, error) {
		return call(v.pkg.ReadCLI, line.Bytes())
	}})
	out = e.MethodByName("AIP193").Call(nil)
	if err, _ := out[1].Interface().(error); err != nil {
		t.Fatalf("AIP193: %v", err)
	}
	aip := out[0].Bytes()
	forms = append(forms, writtenForm{name: "AIP193", reader: "FromAIP193", text: string(aip), read: func() (reflect.Value, error) {
		return call(v.pkg.FromAIP193, aip)
	}})
	return forms
}
