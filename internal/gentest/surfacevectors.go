package gentest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/errgen/errgen/internal/genvectors"
)

// surfaces runs the surfaces section: each envelope written by WriteHTTP
// (without and with Accept: application/problem+json), Problem, ExitCode,
// WriteCLI and LogValue, byte for byte as the vectors hold, and read back by
// ReadHTTP and ReadCLI.
func (v *vectors) surfaces(t *testing.T, vecs []genvectors.SurfaceVec) {
	needSection(t, "surfaces", len(vecs), "ReadHTTP and ReadCLI", v.pkg.ReadCLI != nil && v.pkg.ReadHTTP != nil)
	for _, want := range vecs {
		t.Run(want.Name, func(t *testing.T) {
			e, err := v.decode(want.Envelope)
			if err != nil {
				t.Fatalf("decoding: %v", err)
			}
			v.httpForm(t, e, "", want.HTTP, true, true)
			v.httpForm(t, e, "application/problem+json", want.Problem, true, true)
			if got := e.MethodByName("ExitCode").Call(nil)[0].Int(); int(got) != want.ExitCode {
				t.Errorf("ExitCode() = %d, want %d", got, want.ExitCode)
			}
			var line bytes.Buffer
			if out := e.MethodByName("WriteCLI").Call([]reflect.Value{reflect.ValueOf(io.Writer(&line)), reflect.ValueOf(want.Command)}); !out[0].IsNil() {
				t.Fatalf("WriteCLI: %v", out[0].Interface())
			}
			if line.String() != want.CLI {
				t.Errorf("WriteCLI:\ngot  %q\nwant %q", line.String(), want.CLI)
			}
			out := reflect.ValueOf(v.pkg.ReadCLI).Call([]reflect.Value{reflect.ValueOf([]byte(want.CLI))})
			if err, _ := out[1].Interface().(error); err != nil {
				t.Errorf("ReadCLI: %v", err)
			} else if got := marshalEnvelope(out[0]); !bytes.Equal(got, want.Envelope) {
				t.Errorf("ReadCLI:\ngot  %s\nwant %s", got, want.Envelope)
			}
			if string(want.Log) != "null" {
				lv := e.MethodByName("LogValue")
				if !lv.IsValid() {
					t.Fatal("*Envelope has no LogValue method")
				}
				if got := slogJSON(lv.Call(nil)[0]); got != string(want.Log) {
					t.Errorf("LogValue:\ngot  %s\nwant %s", got, want.Log)
				}
			}
		})
	}
}

// writes runs the writes section: envelopes changed by hand as no decoder
// gives them (text that is not UTF-8, a retry hint past MaxSafeInteger),
// through WriteHTTP, and where the vector says, WriteCLI, AIP193 and
// ToolResult, byte for byte.
func (v *vectors) writes(t *testing.T, vecs []genvectors.WriteVec) {
	if len(vecs) == 0 {
		t.Fatal("the vectors have no writes")
	}
	for _, want := range vecs {
		t.Run(want.Name, func(t *testing.T) {
			e, err := v.decode(want.Envelope)
			if err != nil {
				t.Fatalf("decoding: %v", err)
			}
			if want.IllFormed {
				illFormed(e)
			}
			if want.RetryAfterMs != nil {
				ms, err := strconv.ParseInt(*want.RetryAfterMs, 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				e.Elem().FieldByName("Recovery").FieldByName("RetryAfterMs").Set(reflect.ValueOf(&ms))
			}
			// Problem refuses a hint past MaxSafeInteger, as MarshalJSON
			// does; an Extra value read back keeps its JSON as received
			// (\ufffd escapes), so the envelope read back is compared as a
			// JSON value.
			v.httpForm(t, e, "", want.HTTP, want.RetryAfterMs == nil, false)
			v.httpForm(t, e, "application/problem+json", want.Problem, want.RetryAfterMs == nil, false)
			if want.CLI != nil {
				var line bytes.Buffer
				if out := e.MethodByName("WriteCLI").Call([]reflect.Value{reflect.ValueOf(io.Writer(&line)), reflect.ValueOf(want.Command)}); !out[0].IsNil() {
					t.Fatalf("WriteCLI: %v", out[0].Interface())
				}
				if line.String() != *want.CLI {
					t.Errorf("WriteCLI:\ngot  %q\nwant %q", line.String(), *want.CLI)
				}
				// The tool result's text is the envelope's JSON.
				out := e.MethodByName("ToolResult").Call(nil)
				if err, _ := out[1].Interface().(error); err != nil {
					t.Errorf("ToolResult: %v", err)
				} else if text := out[0].FieldByName("Content").Index(0).FieldByName("Text").String(); text != want.HTTP.Body {
					t.Errorf("ToolResult text:\ngot  %q\nwant %q", text, want.HTTP.Body)
				}
			}
			if string(want.Log) != "null" {
				if got := slogJSON(e.MethodByName("LogValue").Call(nil)[0]); got != string(want.Log) {
					t.Errorf("LogValue:\ngot  %s\nwant %s", got, want.Log)
				}
			}
			if want.AIP193 != nil {
				out := e.MethodByName("AIP193").Call(nil)
				if err, _ := out[1].Interface().(error); err != nil {
					t.Errorf("AIP193: %v", err)
				} else if b := out[0].Bytes(); !utf8.Valid(b) || !sameJSON(b, []byte(*want.AIP193)) {
					t.Errorf("AIP193:\ngot  %q\nwant %q", b, *want.AIP193)
				}
			}
		})
	}
}

// illFormed replaces each U+FFFD in the text of the envelope e points to
// (strings, member names, and the JSON of json.RawMessage values) with the
// byte 0xFF, which is not UTF-8: text set by hand as no decoder gives it.
func illFormed(e reflect.Value) {
	const bad = "\xff"
	var walk func(v reflect.Value) reflect.Value
	walk = func(v reflect.Value) reflect.Value {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				v.Elem().Set(walk(v.Elem()))
			}
		case reflect.Interface:
			if !v.IsNil() {
				out := reflect.New(v.Type()).Elem()
				out.Set(walk(v.Elem()))
				return out
			}
		case reflect.String:
			out := reflect.New(v.Type()).Elem()
			out.SetString(strings.ReplaceAll(v.String(), "\uFFFD", bad))
			return out
		case reflect.Struct:
			out := reflect.New(v.Type()).Elem()
			out.Set(v)
			for i := 0; i < v.NumField(); i++ {
				if out.Field(i).CanSet() {
					out.Field(i).Set(walk(v.Field(i)))
				}
			}
			return out
		case reflect.Slice:
			if v.IsNil() {
				return v
			}
			if v.Type().Elem().Kind() == reflect.Uint8 { // json.RawMessage
				out := reflect.New(v.Type()).Elem()
				out.SetBytes(bytes.ReplaceAll(v.Bytes(), []byte("\uFFFD"), []byte(bad)))
				return out
			}
			out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			for i := 0; i < v.Len(); i++ {
				out.Index(i).Set(walk(v.Index(i)))
			}
			return out
		case reflect.Map:
			if v.IsNil() {
				return v
			}
			out := reflect.MakeMapWithSize(v.Type(), v.Len())
			for it := v.MapRange(); it.Next(); {
				out.SetMapIndex(walk(it.Key()), walk(it.Value()))
			}
			return out
		}
		return v
	}
	walk(e)
}

// httpForm checks what WriteHTTP sends for a request with the Accept
// header (none when empty), then reads it back with ReadHTTP (byte for
// byte with exact, else as a JSON value); with direct, Problem("") must
// give the problem body too.
func (v *vectors) httpForm(t *testing.T, e reflect.Value, accept string, want genvectors.HTTPForm, direct, exact bool) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	rec := httptest.NewRecorder()
	e.MethodByName("WriteHTTP").Call([]reflect.Value{reflect.ValueOf(http.ResponseWriter(rec)), reflect.ValueOf(req)})
	if rec.Code != want.Status {
		t.Errorf("Accept %q: status %d, want %d", accept, rec.Code, want.Status)
	}
	got := map[string]string{}
	for name := range rec.Header() {
		got[strings.ToLower(name)] = strings.Join(rec.Header().Values(name), ", ")
	}
	if !reflect.DeepEqual(got, want.Headers) {
		t.Errorf("Accept %q: headers %v, want %v", accept, got, want.Headers)
	}
	if rec.Body.String() != want.Body {
		t.Errorf("Accept %q: body\ngot  %s\nwant %s", accept, rec.Body.String(), want.Body)
	}
	if accept != "" && direct {
		// Problem is the body WriteHTTP sends for problem+json.
		out := e.MethodByName("Problem").Call([]reflect.Value{reflect.ValueOf("")})
		if b, _ := out[0].Interface().([]byte); string(b) != want.Body {
			t.Errorf("Problem(\"\"):\ngot  %s\nwant %s", b, want.Body)
		}
	}
	resp := &http.Response{StatusCode: want.Status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(want.Body))}
	for name, value := range want.Headers {
		resp.Header.Set(name, value)
	}
	out := reflect.ValueOf(v.pkg.ReadHTTP).Call([]reflect.Value{reflect.ValueOf(resp)})
	if err, _ := out[1].Interface().(error); err != nil {
		t.Errorf("Accept %q: ReadHTTP: %v", accept, err)
		return
	}
	if back := marshalEnvelope(out[0]); !bytes.Equal(back, want.Envelope) && (exact || !sameJSON(back, want.Envelope)) {
		t.Errorf("Accept %q: ReadHTTP:\ngot  %s\nwant %s", accept, back, want.Envelope)
	}
}

// marshalEnvelope is the envelope's own MarshalJSON output: json.Marshal
// would escape <, > and & again, which no package's writer does.
func marshalEnvelope(e reflect.Value) []byte {
	out := e.MethodByName("MarshalJSON").Call(nil)
	b, _ := out[0].Interface().([]byte)
	return b
}

// accept runs the accept section: the Content-Type WriteHTTP picks for
// each request's Accept header lines.
func (v *vectors) accept(t *testing.T, vecs []genvectors.AcceptVec, example json.RawMessage) {
	e, err := v.decode(example)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range vecs {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		for _, a := range want.Accept {
			req.Header.Add("Accept", a)
		}
		rec := httptest.NewRecorder()
		e.MethodByName("WriteHTTP").Call([]reflect.Value{reflect.ValueOf(http.ResponseWriter(rec)), reflect.ValueOf(req)})
		media := "application/json"
		if want.Problem {
			media = "application/problem+json"
		}
		if got := rec.Header().Get("Content-Type"); got != media {
			t.Errorf("Accept %q: Content-Type %q, want %q", want.Accept, got, media)
		}
	}
}

// slogJSON writes a resolved slog.Value as compact JSON: a group as an
// object in attribute order, text without HTML escapes, as the vectors
// write the log form. It reaches the value through reflection: errgen's
// module keeps log/slog out of its packages (see the guard test in
// internal/contract), and the generated package's LogValue is the one
// producer of log attributes.
func slogJSON(v reflect.Value) string {
	v = v.MethodByName("Resolve").Call(nil)[0]
	switch fmt.Sprint(v.MethodByName("Kind").Call(nil)[0].Interface()) {
	case "Group":
		attrs := v.MethodByName("Group").Call(nil)[0]
		var b strings.Builder
		b.WriteByte('{')
		for i := 0; i < attrs.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonText(attrs.Index(i).FieldByName("Key").String()))
			b.WriteByte(':')
			b.WriteString(slogJSON(attrs.Index(i).FieldByName("Value")))
		}
		b.WriteByte('}')
		return b.String()
	case "Bool":
		return strconv.FormatBool(v.MethodByName("Bool").Call(nil)[0].Bool())
	case "Int64":
		return strconv.FormatInt(v.MethodByName("Int64").Call(nil)[0].Int(), 10)
	case "Uint64":
		return strconv.FormatUint(v.MethodByName("Uint64").Call(nil)[0].Uint(), 10)
	case "Float64":
		return strconv.FormatFloat(v.MethodByName("Float64").Call(nil)[0].Float(), 'g', -1, 64)
	}
	return jsonText(v.MethodByName("String").Call(nil)[0].String())
}

func jsonText(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

// stringForms runs the string_forms section: each envelope, decoded as an
// upstream sent it, gives want.String as its Error(), through fmt's verbs
// and wrapped by fmt.Errorf's %w, on one line; %#v (GoString) shows the
// same kind and message; LogValue's message and extra are the vector's.
func (v *vectors) stringForms(t *testing.T, vecs []genvectors.StringFormVec) {
	for _, want := range vecs {
		t.Run(want.Name, func(t *testing.T) {
			e, err := v.decode([]byte(want.Text))
			if err != nil {
				t.Fatalf("decoding: %v", err)
			}
			env, ok := e.Interface().(error)
			if !ok {
				t.Fatal("*Envelope is not an error")
			}
			wrapped := fmt.Errorf("calling the tool: %w", env)
			var logged bytes.Buffer
			log.New(&logged, "", 0).Print(wrapped)
			for _, got := range []struct{ what, text, want string }{
				{"Error()", env.Error(), want.String},
				{"%v", fmt.Sprint(env), want.String},
				{"%+v", fmt.Sprintf("%+v", env), want.String},
				{"%s", fmt.Sprintf("%s", env), want.String},
				{"fmt.Errorf %w", wrapped.Error(), "calling the tool: " + want.String},
				{"log.Print", logged.String(), "calling the tool: " + want.String + "\n"},
			} {
				if got.text != got.want {
					t.Errorf("%s:\ngot  %q\nwant %q", got.what, got.text, got.want)
				}
			}
			kind, message, _ := strings.Cut(want.String, ": ")
			if got, w := fmt.Sprintf("%#v", env), fmt.Sprintf("%s{Kind:%q, Message:%q}", v.env, kind, message); got != w {
				t.Errorf("%%#v:\ngot  %s\nwant %s", got, w)
			}
			var form map[string]any
			if err := json.Unmarshal([]byte(slogJSON(e.MethodByName("LogValue").Call(nil)[0])), &form); err != nil {
				t.Fatal(err)
			}
			if form["message"] != want.LogMessage {
				t.Errorf("LogValue message:\ngot  %q\nwant %q", form["message"], want.LogMessage)
			}
			extra, ok := form["extra"].(string)
			switch {
			case want.LogExtra == nil && ok:
				t.Errorf("LogValue extra %q, want none", extra)
			case want.LogExtra != nil && extra != *want.LogExtra:
				t.Errorf("LogValue extra:\ngot  %q\nwant %q", extra, *want.LogExtra)
			}
		})
	}
}
