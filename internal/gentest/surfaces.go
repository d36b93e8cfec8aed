package gentest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SurfaceAPI is the surface API of one generated package. The functions'
// types name the package's own Envelope and ToolResult, so they are passed
// as they are and called by reflection; methods are reached the same way.
type SurfaceAPI struct {
	Contract       string // path of the contract the package was generated from
	ConsumerSchema []byte // the package's ConsumerSchema().JSON
	// New is the package's New, returning its *Envelope.
	New            func(kind, message string) any
	ReadHTTP       any // func(*http.Response) (*Envelope, error)
	FromToolResult any // func(ToolResult) (*Envelope, error)
	// MCPOutputSchema and MCPErrorSchema are the package's functions.
	MCPOutputSchema any // func(json.RawMessage) (json.RawMessage, error)
	MCPErrorSchema  any // func() json.RawMessage
	ReadCLI         any // func([]byte) (*Envelope, error)
}

// problemNames are RFC 9457's members, which an envelope member gives way to.
var problemNames = map[string]bool{"type": true, "title": true, "status": true, "detail": true, "instance": true}

// CheckSurfaces checks the HTTP, RFC 9457, MCP and CLI surfaces of a
// generated package: every example envelope of the contract (one per kind,
// an unknown kind, every field), each also with a 1500 ms retry hint, goes
// through every surface and comes back the same; what each surface writes
// is checked against the contract; responses without an envelope classify
// as ReadHTTP documents.
func CheckSurfaces(t *testing.T, api SurfaceAPI) {
	t.Helper()
	s := &surfaces{api: api, c: Load(t, api.Contract)}
	s.schema = compileSchema(t, api.ConsumerSchema)
	// Content negotiation is the vectors' accept section (CheckVectors).
	for _, ex := range exampleenv.All(s.c) {
		t.Run(ex.Name, func(t *testing.T) {
			s.checkEnvelope(t, build(t, ex, api.New))
			hinted := build(t, ex, api.New)
			call(t, reflect.ValueOf(hinted).MethodByName("WithRetryAfter"), 1500*time.Millisecond)
			if ms := retryAfterMs(hinted); ms == nil || *ms != 1500 {
				t.Fatalf("WithRetryAfter(1500ms) set %v", ms)
			}
			s.checkEnvelope(t, hinted)
		})
	}
	t.Run("extension member", func(t *testing.T) {
		e := build(t, exampleenv.Maximal(s.c), api.New)
		call(t, reflect.ValueOf(e).MethodByName("WithExtra"), "x_extension", map[string]any{"trace": "t-1", "n": 2})
		s.checkEnvelope(t, e)
	})
	t.Run("not an envelope", s.checkNotEnvelope)
	t.Run("tool result without an envelope", s.checkToolResultErrors)
	t.Run("MCP output schema", s.checkMCPOutputSchema)
	t.Run("cli lines without an envelope", s.checkCLIErrors)
	t.Run("server", s.checkServer)
}

type surfaces struct {
	api    SurfaceAPI
	c      *contract.Contract
	schema *jsonschema.Schema
}

func compileSchema(t *testing.T, data []byte) *jsonschema.Schema {
	t.Helper()
	return CompileSchema(t, "consumer.schema.json", data)
}

// validate checks an envelope document against the consumer schema.
func (s *surfaces) validate(t *testing.T, what string, data []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, data)
	}
	if err := s.schema.Validate(inst); err != nil {
		t.Errorf("%s does not validate against the consumer schema: %v\n%s", what, err, data)
	}
}

// call calls fn with args and fails the test when its last result is a
// non-nil error.
func call(t *testing.T, fn reflect.Value, args ...any) []reflect.Value {
	t.Helper()
	if !fn.IsValid() {
		t.Fatal("function or method missing")
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
	}
	out := fn.Call(in)
	if err := errResult(out); err != nil {
		t.Fatalf("%v returned %v", fn.Type(), err)
	}
	return out
}

// try calls fn with args and returns its first result and its error.
func try(fn any, args ...any) (any, error) {
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
	}
	out := reflect.ValueOf(fn).Call(in)
	return out[0].Interface(), errResult(out)
}

// errResult is the error a function returned last; an *Envelope, which
// implements error, is a result like any other.
func errResult(out []reflect.Value) error {
	if len(out) == 0 || out[len(out)-1].Type() != reflect.TypeFor[error]() {
		return nil
	}
	err, _ := out[len(out)-1].Interface().(error)
	return err
}

func field(e any, name string) reflect.Value { return reflect.ValueOf(e).Elem().FieldByName(name) }

func kindOf(e any) string { return field(e, "Kind").String() }

func retryAfterMs(e any) *int64 {
	return field(e, "Recovery").FieldByName("RetryAfterMs").Interface().(*int64)
}

// marshalJSON is the envelope's own encoding, byte for byte what the
// surfaces are expected to carry.
func marshalJSON(t *testing.T, e any) []byte {
	t.Helper()
	return call(t, reflect.ValueOf(e).MethodByName("MarshalJSON"))[0].Bytes()
}

// same fails the test unless got, a decoded envelope, encodes exactly as want.
func same(t *testing.T, what string, got any, want []byte) {
	t.Helper()
	if reflect.ValueOf(got).IsNil() {
		t.Errorf("%s: nil envelope", what)
		return
	}
	if b := marshalJSON(t, got); !bytes.Equal(b, want) {
		t.Errorf("%s does not give the same envelope back:\ngot  %s\nwant %s", what, b, want)
	}
}

// canon decodes JSON for comparison regardless of formatting.
func canon(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	return v
}

// classification is the contract's classification of kind.
func (s *surfaces) classification(kind string) (*contract.Classification, *contract.Kind) {
	if k := s.c.Kind(kind); k != nil {
		return &k.Classification, k
	}
	return &s.c.Fallback.Classification, nil
}

// writeHTTP runs WriteHTTP for a request with the given Accept header.
func writeHTTP(t *testing.T, e any, accept ...string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/tools/call", nil)
	for _, a := range accept {
		req.Header.Add("Accept", a)
	}
	call(t, reflect.ValueOf(e).MethodByName("WriteHTTP"), http.ResponseWriter(rec), req)
	return rec
}

func (s *surfaces) checkEnvelope(t *testing.T, e any) {
	t.Helper()
	want := marshalJSON(t, e)
	s.validate(t, "the envelope", want)
	kind := kindOf(e)
	cl, k := s.classification(kind)
	hint := retryAfterMs(e)

	for _, tc := range []struct {
		accept  string
		problem bool
	}{
		{"", false},
		{"*/*", false},
		{"application/json", false},
		{"application/problem+json", true},
		{"application/json;q=0.5, application/problem+json", true},
	} {
		what := fmt.Sprintf("WriteHTTP with Accept %q", tc.accept)
		var rec *httptest.ResponseRecorder
		if tc.accept == "" {
			rec = writeHTTP(t, e)
		} else {
			rec = writeHTTP(t, e, tc.accept)
		}
		resp := rec.Result()
		if resp.StatusCode != cl.HTTP {
			t.Errorf("%s: status %d, want %d", what, resp.StatusCode, cl.HTTP)
		}
		wantType := "application/json"
		if tc.problem {
			wantType = "application/problem+json"
		}
		if ct := resp.Header.Get("Content-Type"); ct != wantType {
			t.Errorf("%s: Content-Type %q, want %q", what, ct, wantType)
		}
		if v := resp.Header.Get("Vary"); v != "Accept" {
			t.Errorf("%s: Vary %q, want Accept", what, v)
		}
		ra, hasRA := resp.Header["Retry-After"]
		switch {
		case hint == nil && hasRA:
			t.Errorf("%s: Retry-After %q without a retry hint", what, ra)
		case hint != nil:
			if want := strconv.FormatInt((*hint+999)/1000, 10); len(ra) != 1 || ra[0] != want {
				t.Errorf("%s: Retry-After %q for %d ms, want %q", what, ra, *hint, want)
			}
		}
		body := rec.Body.Bytes()
		if tc.problem {
			s.checkProblem(t, what, body, e, want, k, cl, "")
		} else if !bytes.Equal(body, want) {
			t.Errorf("%s: body\n%s\nwant the envelope\n%s", what, body, want)
		}
		if got, ok := s.readBack(t, "ReadHTTP after "+what, resp, want); ok {
			s.checkHintBack(t, "ReadHTTP after "+what, hint, retryAfterMs(got), tc.problem)
		}
	}

	// Problem with an instance.
	const instance = "urn:uuid:6f1c3f5e-8a0b-4c1e-9d2a-2b7e5f0c9a11"
	out := call(t, reflect.ValueOf(e).MethodByName("Problem"), instance)
	s.checkProblem(t, "Problem(instance)", out[0].Bytes(), e, want, k, cl, instance)

	s.checkToolResult(t, e, want)
	s.checkTextToolResult(t, e, want)
	s.checkCLI(t, e, want, cl)
}

// checkHintBack checks the retry hint ReadHTTP returns: the envelope's own
// when the wire carries it, else the Retry-After header's whole seconds,
// which never make a client retry early.
func (s *surfaces) checkHintBack(t *testing.T, what string, sent, got *int64, problem bool) {
	t.Helper()
	if sent == nil {
		if got != nil {
			t.Errorf("%s: retry hint %d ms from nowhere", what, *got)
		}
		return
	}
	want := (*sent + 999) / 1000 * 1000
	if lf := s.c.Layout.Leaf(contract.SourceRetryAfterMs); lf != nil && !(problem && lf.Object.Path == "" && problemNames[lf.Name]) {
		want = *sent
	}
	if got == nil || *got != want {
		t.Errorf("%s: retry hint %v, want %d ms (sent %d ms)", what, got, want, *sent)
	}
}

// checkProblem checks an RFC 9457 rendering of e and reads it back.
func (s *surfaces) checkProblem(t *testing.T, what string, body []byte, e any, want []byte, k *contract.Kind, cl *contract.Classification, instance string) {
	t.Helper()
	kind := kindOf(e)
	if !bytes.HasPrefix(body, []byte(`{"type":`)) {
		t.Errorf("%s: problem document does not open with type:\n%s", what, body)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatalf("%s: problem document is not a JSON object: %v\n%s", what, err, body)
	}
	str := func(name string) string {
		var v string
		if err := json.Unmarshal(doc[name], &v); err != nil {
			t.Errorf("%s: problem member %q is not a string: %s", what, name, doc[name])
		}
		return v
	}
	if got, wantType := str("type"), s.c.Surfaces.ProblemTypeBase+kind; got != wantType {
		t.Errorf("%s: type %q, want %q", what, got, wantType)
	}
	title := str("title")
	switch {
	case k != nil && title != k.Description:
		t.Errorf("%s: title %q, want the kind's description %q", what, title, k.Description)
	case k == nil && strings.TrimSpace(title) == "":
		t.Errorf("%s: unknown kind without a title", what)
	}
	if got := string(doc["status"]); got != strconv.Itoa(cl.HTTP) {
		t.Errorf("%s: status %s, want %d", what, got, cl.HTTP)
	}
	if got, msg := str("detail"), field(e, "Message").String(); got != msg {
		t.Errorf("%s: detail %q, want the message %q", what, got, msg)
	}
	if instance == "" {
		if raw, ok := doc["instance"]; ok {
			t.Errorf("%s: instance %s, want none", what, raw)
		}
	} else if got := str("instance"); got != instance {
		t.Errorf("%s: instance %q, want %q", what, got, instance)
	}
	// Every top-level envelope member not named like a problem member is
	// an extension member, unchanged; there is nothing else.
	var env map[string]json.RawMessage
	json.Unmarshal(want, &env)
	for name, raw := range env {
		if problemNames[name] {
			continue
		}
		got, ok := doc[name]
		if !ok {
			t.Errorf("%s: envelope member %q missing", what, name)
		} else if !reflect.DeepEqual(canon(t, got), canon(t, raw)) {
			t.Errorf("%s: member %q is %s, the envelope has %s", what, name, got, raw)
		}
	}
	for name := range doc {
		if _, ok := env[name]; !ok && !problemNames[name] {
			t.Errorf("%s: unexpected member %q", what, name)
		}
	}
	// The envelope comes back from the problem document alone.
	resp := &http.Response{StatusCode: cl.HTTP, Header: http.Header{"Content-Type": {"application/problem+json"}}, Body: io.NopCloser(bytes.NewReader(body))}
	s.readBack(t, "ReadHTTP of "+what, resp, want)
}

// readBack reads resp with ReadHTTP and checks that it gives the envelope
// want, valid against the schema; ok is false when ReadHTTP failed.
func (s *surfaces) readBack(t *testing.T, what string, resp *http.Response, want []byte) (got any, ok bool) {
	t.Helper()
	got, err := try(s.api.ReadHTTP, resp)
	if err != nil {
		t.Errorf("%s: %v", what, err)
		return nil, false
	}
	same(t, what, got, want)
	s.validate(t, what, marshalJSON(t, got))
	return got, true
}

func (s *surfaces) checkToolResult(t *testing.T, e any, want []byte) {
	t.Helper()
	out := call(t, reflect.ValueOf(e).MethodByName("ToolResult"))
	tr := out[0]
	raw, err := json.Marshal(tr.Interface())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           *bool           `json:"isError"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.IsError == nil || !*doc.IsError {
		t.Errorf("ToolResult: isError not true: %s", raw)
	}
	if len(doc.Content) != 1 || doc.Content[0].Type != "text" || doc.Content[0].Text != string(want) {
		t.Errorf("ToolResult: content is not the envelope as one text item: %s", raw)
	}
	if !reflect.DeepEqual(canon(t, doc.StructuredContent), canon(t, want)) {
		t.Errorf("ToolResult: structuredContent %s, want the envelope", doc.StructuredContent)
	}
	got, err := try(s.api.FromToolResult, tr.Interface())
	if err != nil {
		t.Fatalf("FromToolResult(ToolResult()): %v", err)
	}
	same(t, "FromToolResult(ToolResult())", got, want)

	text, _ := json.Marshal(string(want))
	for what, wire := range map[string]string{
		"the JSON of ToolResult()":              string(raw),
		"text content only":                     `{"content":[{"type":"text","text":` + string(text) + `}],"isError":true}`,
		"text after other content":              `{"content":[{"type":"text","text":"The call failed."},{"type":"image","data":"AA==","mimeType":"image/png"},{"type":"text","text":` + string(text) + `}],"isError":true}`,
		"structuredContent that is no envelope": `{"content":[{"type":"text","text":` + string(text) + `}],"structuredContent":{"rows":[]},"isError":true}`,
	} {
		ptr := reflect.New(tr.Type())
		if err := json.Unmarshal([]byte(wire), ptr.Interface()); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got, err := try(s.api.FromToolResult, ptr.Elem().Interface())
		if err != nil {
			t.Errorf("FromToolResult of %s: %v", what, err)
			continue
		}
		same(t, "FromToolResult of "+what, got, want)
	}
}

func (s *surfaces) checkCLI(t *testing.T, e any, want []byte, cl *contract.Classification) {
	t.Helper()
	if got, wantCode := reflect.ValueOf(e).MethodByName("ExitCode").Call(nil)[0].Int(), s.c.Surfaces.CLI.ExitCode(cl); int(got) != wantCode {
		t.Errorf("ExitCode %d, want %d (origin %s)", got, wantCode, cl.Origin.Name)
	}
	const command = "errgen-test run --flag"
	var buf bytes.Buffer
	call(t, reflect.ValueOf(e).MethodByName("WriteCLI"), io.Writer(&buf), command)
	line := buf.Bytes()
	if !bytes.HasSuffix(line, []byte("\n")) || bytes.Count(line, []byte("\n")) != 1 {
		t.Fatalf("WriteCLI did not write one line: %q", line)
	}
	wrapped := `{"ok":false,"command":"` + command + `","error":` + string(want) + `}`
	switch s.c.Surfaces.CLI.Form {
	case contract.CLIWrapped:
		if !reflect.DeepEqual(canon(t, line), canon(t, []byte(wrapped))) {
			t.Errorf("WriteCLI wrote\n%s\nwant the wrapped form\n%s", line, wrapped)
		}
	default:
		if !bytes.Equal(bytes.TrimSuffix(line, []byte("\n")), want) {
			t.Errorf("WriteCLI wrote\n%s\nwant the envelope\n%s", line, want)
		}
	}
	for what, l := range map[string][]byte{"the line WriteCLI wrote": line, "the envelope form": want, "the wrapped form": []byte(wrapped)} {
		got, err := try(s.api.ReadCLI, l)
		if err != nil {
			t.Errorf("ReadCLI of %s: %v", what, err)
			continue
		}
		same(t, "ReadCLI of "+what, got, want)
	}
}

func (s *surfaces) checkCLIErrors(t *testing.T) {
	for _, line := range []string{"", "not json", `{"ok":true,"command":"x","error":{}}`, `{"ok":false,"command":"x"}`, `[]`} {
		if got, err := try(s.api.ReadCLI, []byte(line)); err == nil {
			t.Errorf("ReadCLI(%q) = %v, want an error", line, got)
		}
	}
}

func (s *surfaces) checkToolResultErrors(t *testing.T) {
	env := marshalJSON(t, s.newEnvelope(t, s.c.Kinds[0].Name, "m"))
	typ := reflect.ValueOf(s.api.FromToolResult).Type().In(0)
	for _, wire := range []string{
		`{"content":[],"isError":true}`,
		`{"content":[{"type":"text","text":"The call failed."}],"isError":true}`,
		`{"content":[{"type":"image","text":` + strconv.Quote(string(env)) + `}],"isError":true}`,
		`{"content":[],"structuredContent":{"rows":[]},"isError":true}`,
	} {
		ptr := reflect.New(typ)
		if err := json.Unmarshal([]byte(wire), ptr.Interface()); err != nil {
			t.Fatal(err)
		}
		if got, err := try(s.api.FromToolResult, ptr.Elem().Interface()); err == nil {
			t.Errorf("FromToolResult(%s) = %v, want an error", wire, got)
		}
	}
}

// expectedKind is the kind ReadHTTP documents for a failed response
// without an envelope: the first inbound classifier's verdict on the status
// and the body's text, or, without a classifier, the only kind with that
// status, else a kind named after the status.
func (s *surfaces) expectedKind(status int, text string) string {
	if s.c.Inbound == nil {
		return s.c.HTTPKind(status)
	}
	cl := s.c.Inbound.Classifiers[0]
	lower := strings.ToLower(text)
	for _, r := range cl.Rules {
		if len(r.Failures) > 0 || r.AnyFailure {
			continue // a response arrived: no transport failure
		}
		if len(r.Statuses) > 0 && !inRanges(status, r.Statuses) {
			continue
		}
		if len(r.Text) > 0 && !anyWord(lower, r.Text) {
			continue
		}
		return r.Kind.Name
	}
	return cl.Default.Name
}

func inRanges(status int, ranges []contract.StatusRange) bool {
	for _, sr := range ranges {
		if status >= sr.From && status <= sr.To {
			return true
		}
	}
	return false
}

// anyWord reports whether text holds any phrase as whole words: bounded by
// the text's ends or by characters other than ASCII letters, digits and _.
func anyWord(text string, phrases []string) bool {
	word := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' }
	for _, p := range phrases {
		for i := 0; i+len(p) <= len(text); i++ {
			if text[i:i+len(p)] == p && (i == 0 || !word(text[i-1])) && (i+len(p) == len(text) || !word(text[i+len(p)])) {
				return true
			}
		}
	}
	return false
}

// newEnvelope is api.New with the context the layout requires set, as a
// producer sets it.
func (s *surfaces) newEnvelope(t *testing.T, kind, message string) any {
	e := s.api.New(kind, message)
	for _, f := range s.c.RequiredContext {
		call(t, reflect.ValueOf(e).MethodByName("With"+f.Idents.Go), exampleenv.Sample(f).(string))
	}
	return e
}

// checkNotEnvelope reads responses that carry no envelope.
func (s *surfaces) checkNotEnvelope(t *testing.T) {
	const date = "Tue, 03 Jun 2025 10:00:00 GMT"
	unknown := marshalJSON(t, build(t, exampleenv.Unknown(s.c), s.api.New))
	oversized := append(append([]byte(nil), unknown...), bytes.Repeat([]byte(" "), 1<<20)...)
	for _, tc := range []struct {
		name        string
		status      int
		contentType string
		body        string
		header      http.Header
		retryMs     int64 // 0: no hint
	}{
		{name: "HTML 502 page", status: 502, contentType: "text/html",
			body: "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"},
		{name: "empty 401", status: 401},
		{name: "empty 404", status: 404, contentType: "application/json"},
		{name: "plain 503 with Retry-After seconds", status: 503, contentType: "text/plain; charset=utf-8",
			body: "upstream connect error: Unauthorized", header: http.Header{"Retry-After": {"120"}}, retryMs: 120000},
		{name: "JSON that is no envelope with Retry-After date", status: 429, contentType: "application/json",
			body: `{"error":"rate limited","retry":"later"}`, header: http.Header{"Date": {date}, "Retry-After": {"Tue, 03 Jun 2025 10:00:30 GMT"}}, retryMs: 30000},
		{name: "Retry-After date in the past", status: 503, header: http.Header{"Date": {date}, "Retry-After": {"Tue, 03 Jun 2025 09:00:00 GMT"}}, retryMs: -1},
		{name: "malformed Retry-After", status: 503, header: http.Header{"Retry-After": {"soon"}}},
		{name: "envelope beyond 1 MiB", status: 500, contentType: "application/json", body: string(oversized)},
		{name: "invalid UTF-8", status: 500, contentType: "text/plain", body: "bad \xff\xfe bytes\n\n\tand   spaces"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tc.header {
				h[k] = v
			}
			if tc.contentType != "" {
				h.Set("Content-Type", tc.contentType)
			}
			resp := &http.Response{StatusCode: tc.status, Header: h, Body: io.NopCloser(strings.NewReader(tc.body))}
			got, err := try(s.api.ReadHTTP, resp)
			if err != nil {
				t.Fatalf("ReadHTTP: %v", err)
			}
			text := strings.Join(strings.Fields(strings.ToValidUTF8(tc.body[:min(len(tc.body), 2048)], "\uFFFD")), " ")
			if len(text) > 512 {
				text = text[:512]
			}
			if k, want := kindOf(got), s.expectedKind(tc.status, text); k != want {
				t.Errorf("kind %q, want %q", k, want)
			}
			msg := field(got, "Message").String()
			prefix := "HTTP " + strconv.Itoa(tc.status) + " " + http.StatusText(tc.status)
			if !strings.HasPrefix(msg, prefix) || len(msg) > len(prefix)+2+512+len("…") || strings.ContainsAny(msg, "\r\n\t") {
				t.Errorf("message %q: want %q, then at most 512 bytes of the body on one line", msg, prefix)
			}
			switch quotes := strings.Contains(msg, ": "); {
			case !s.c.Surfaces.HTTP.EchoBody && (quotes || msg != prefix):
				t.Errorf("message %q quotes the body, want %q alone (surfaces.http.echo_body: false)", msg, prefix)
			case s.c.Surfaces.HTTP.EchoBody && tc.body != "" && strings.TrimSpace(tc.body) != "" && !quotes:
				t.Errorf("message %q does not quote the body", msg)
			}
			ms := retryAfterMs(got)
			switch {
			case tc.retryMs == 0 && ms != nil:
				t.Errorf("retry hint %d ms, want none", *ms)
			case tc.retryMs > 0 && (ms == nil || *ms != tc.retryMs):
				t.Errorf("retry hint %v, want %d ms", ms, tc.retryMs)
			case tc.retryMs < 0 && (ms == nil || *ms != 0):
				t.Errorf("retry hint %v, want 0 ms", ms)
			}
			// The response does not say which operation failed: a context
			// field the layout requires is left for the caller to set, and
			// until then the envelope does not encode.
			for _, f := range s.c.RequiredContext {
				if v := field(got, f.Idents.Go).String(); v != "" {
					t.Errorf("%s = %q on an envelope built from a response, want it left empty", f.Idents.Go, v)
				}
				if _, err := try(reflect.ValueOf(got).MethodByName("MarshalJSON").Interface()); err == nil {
					t.Errorf("an envelope without %s encodes", f.Name)
				}
				call(t, reflect.ValueOf(got).MethodByName("With"+f.Idents.Go), "set by the caller")
			}
			s.validate(t, "the envelope built from the response", marshalJSON(t, got))
		})
	}
	// A response that did not fail carries no failure to report.
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/plain"}}, Body: io.NopCloser(strings.NewReader("ok"))}
	if got, err := try(s.api.ReadHTTP, resp); err == nil {
		t.Errorf("ReadHTTP of a 200 without an envelope = %v, want an error", got)
	}
	// An envelope is read whatever the status, and from a body without a
	// Content-Type.
	resp = &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(unknown))}
	if got, err := try(s.api.ReadHTTP, resp); err != nil {
		t.Errorf("ReadHTTP of a 200 carrying an envelope without Content-Type: %v", err)
	} else {
		same(t, "ReadHTTP of an envelope without Content-Type", got, unknown)
	}
}

// checkServer goes through a real HTTP server and client.
func (s *surfaces) checkServer(t *testing.T) {
	e := build(t, exampleenv.Maximal(s.c), s.api.New)
	call(t, reflect.ValueOf(e).MethodByName("WithRetryAfter"), 2500*time.Millisecond)
	want := marshalJSON(t, e)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reflect.ValueOf(e).MethodByName("WriteHTTP").Call([]reflect.Value{reflect.ValueOf(w), reflect.ValueOf(r)})
	}))
	defer srv.Close()
	for _, accept := range []string{"application/json", "application/problem+json"} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
		req.Header.Set("Accept", accept)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := try(s.api.ReadHTTP, resp)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("ReadHTTP (%s): %v", accept, err)
		}
		if resp.Header.Get("Retry-After") != "3" {
			t.Errorf("%s: Retry-After %q for 2500 ms, want 3", accept, resp.Header.Get("Retry-After"))
		}
		same(t, "ReadHTTP from the server ("+accept+")", got, want)
	}
}
