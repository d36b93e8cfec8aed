package gentest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genvectors"
	"github.com/errgen/errgen/internal/marker"
)

// Package is the API of one generated Go package that the conformance
// vectors exercise. The functions' types name the package's own types, so
// they are passed as they are and called by reflection.
type Package struct {
	// Envelope is the zero Envelope value (agenterror.Envelope{}); vectors
	// decode into a new *Envelope.
	Envelope any
	Lookup   any // Lookup: func(Kind) Classification
	NextStep any // NextStep: func(*Envelope, int) Decision
	// ForTool is the method expression SameArguments.ForTool:
	// func(SameArguments, ToolAnnotations) SameArguments.
	ForTool any
	// Classifiers maps each classifier's contract name to its function
	// (ClassifyModel: func(Upstream) Classified); empty without inbound.
	Classifiers map[string]any
	// ToolResult is ClassifyToolResult: func() Classified; nil when the
	// contract declares no tool_result.
	ToolResult any
	// Retry holds the package's Retry constants.
	Retry Retry
	// ReadHTTP is ReadHTTP: func(*http.Response) (*Envelope, error).
	ReadHTTP any
	// ReadCLI is ReadCLI: func([]byte) (*Envelope, error).
	ReadCLI any
	// FromAIP193 is FromAIP193: func([]byte) (*Envelope, error).
	FromAIP193 any
	// FromToolResult is FromToolResult: func(ToolResult) (*Envelope, error).
	FromToolResult any
	// MCPOutputSchema is MCPOutputSchema: func(json.RawMessage) (json.RawMessage, error).
	MCPOutputSchema any
	// ReadMCPError is ReadMCPError: func([]byte) (*Envelope, error).
	ReadMCPError any
	// UpstreamStructuredContent is UpstreamStructuredContent: func(ToolResult) json.RawMessage.
	UpstreamStructuredContent any
}

// Retry is the backoff a generated package declares as constants.
type Retry struct {
	Initial, Max       time.Duration
	Multiplier, Jitter float64
	MaxAttempts        int
}

// ReadVectors reads and parses a conformance vectors file.
func ReadVectors(t testing.TB, path string) *genvectors.File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The header names its source in a committed file (marker.From).
	if !bytes.HasPrefix(data, []byte("{\n  \"$comment\": \""+marker.Text)) && !bytes.HasPrefix(data, []byte("{\n  \"$comment\": \""+marker.FromPrefix)) {
		t.Fatalf("%s does not open with a \"$comment\" starting %q", path, marker.Text)
	}
	var f genvectors.File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &f
}

// CheckVectors runs every conformance vector of the file at path against a
// generated Go package: lookups, envelopes decoded and encoded back,
// malformed documents and text with the path and category their
// *DecodeError names, NextStep on decoded envelopes after each attempt, the classifiers, ClassifyToolResult and ForTool. The
// TypeScript and Python packages run the same file.
func CheckVectors(t *testing.T, path string, pkg Package) {
	t.Helper()
	f := ReadVectors(t, path)
	v := &vectors{pkg: pkg, env: reflect.TypeOf(pkg.Envelope)}
	if len(f.Lookup) == 0 || len(f.Envelopes) == 0 || len(f.Malformed) == 0 || len(f.NextStep) == 0 || len(f.ForTool) == 0 || len(f.HTTP) == 0 {
		t.Fatalf("%s: a section is empty", path)
	}
	t.Run("retry", func(t *testing.T) {
		r := f.Retry
		want := Retry{time.Duration(r.InitialMs) * time.Millisecond, time.Duration(r.MaxMs) * time.Millisecond, r.Multiplier, r.Jitter, r.MaxAttempts}
		if pkg.Retry != want {
			t.Errorf("Retry constants %+v, vectors %+v", pkg.Retry, want)
		}
	})
	t.Run("lookup", func(t *testing.T) { v.lookup(t, f.Lookup) })
	t.Run("envelopes", func(t *testing.T) { v.envelopes(t, f.Envelopes) })
	t.Run("malformed", func(t *testing.T) { v.malformed(t, f.Malformed) })
	t.Run("edges", func(t *testing.T) { v.edges(t, f.Edges) })
	t.Run("next_step", func(t *testing.T) { v.nextStep(t, f.NextStep) })
	t.Run("classify", func(t *testing.T) { v.classify(t, f.Classify) })
	t.Run("tool_result", func(t *testing.T) { v.toolResult(t, f.ToolResult) })
	t.Run("for_tool", func(t *testing.T) { v.forTool(t, f.ForTool) })
	t.Run("http", func(t *testing.T) { v.readHTTP(t, f.HTTP) })
	t.Run("surfaces", func(t *testing.T) { v.surfaces(t, f.Surfaces) })
	t.Run("accept", func(t *testing.T) { v.accept(t, f.Accept, f.Envelopes[0].Envelope) })
	t.Run("string_forms", func(t *testing.T) { v.stringForms(t, f.StringForms) })
	t.Run("cli_read", func(t *testing.T) { v.cliRead(t, f.CLIRead) })
	t.Run("mcp_text", func(t *testing.T) { v.mcpText(t, f.MCPText) })
	t.Run("mcp_output_schema", func(t *testing.T) { v.mcpOutputSchema(t, f.MCPOutputSchema) })
	t.Run("mcp_errors", func(t *testing.T) { v.mcpErrors(t, f.MCPErrors) })
	t.Run("mcp_error_read", func(t *testing.T) { v.mcpErrorRead(t, f.MCPErrorRead) })
	t.Run("writes", func(t *testing.T) { v.writes(t, f.Writes) })
	t.Run("aip193", func(t *testing.T) { v.aip193(t, f) })
	t.Run("received", func(t *testing.T) { v.received(t, f.Received) })
}

type vectors struct {
	pkg Package
	env reflect.Type // Envelope
}

// callFn calls fn with args converted to its parameter types.
func callFn(fn any, args ...any) []reflect.Value {
	f := reflect.ValueOf(fn)
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		if rv, ok := a.(reflect.Value); ok {
			in[i] = rv
			continue
		}
		in[i] = reflect.ValueOf(a).Convert(f.Type().In(i))
	}
	return f.Call(in)
}

func (v *vectors) lookupOf(kind string) reflect.Value { return callFn(v.pkg.Lookup, kind)[0] }

func (v *vectors) lookup(t *testing.T, vecs []genvectors.LookupVec) {
	for _, want := range vecs {
		c := v.lookupOf(want.Kind)
		str := func(name string) string { return c.FieldByName(name).String() }
		level := c.FieldByName("LogLevel").MethodByName("String").Call(nil)[0].String()
		got := genvectors.LookupVec{
			Kind: str("Kind"), Known: c.FieldByName("Known").Bool(), Group: str("Group"), Origin: str("Origin"),
			Action: str("Action"), SameArguments: str("SameArguments"), Guidance: str("Guidance"), SideEffects: str("SideEffects"),
			HTTPStatus: int(c.FieldByName("HTTPStatus").Int()), LogLevel: strings.ToLower(level),
			Breaker: c.FieldByName("Breaker").Bool(), Retryable: c.FieldByName("Retryable").Bool(),
			Startup: c.FieldByName("Startup").Bool(), Number: int(c.FieldByName("Number").Int()),
			GRPCCode: int(c.FieldByName("GRPCCode").Int()), GRPCStatus: str("GRPCStatus"), Reason: str("Reason"),
		}
		if got != want {
			t.Errorf("Lookup(%q):\ngot  %+v\nwant %+v", want.Kind, got, want)
		}
	}
}

// decode decodes an envelope into a new *Envelope.
func (v *vectors) decode(data []byte) (reflect.Value, error) {
	e := reflect.New(v.env)
	return e, json.Unmarshal(data, e.Interface())
}

// roundTrip decodes input with decode and encodes it again, reporting any
// error and any difference from want, the envelope expected back. ok is
// false when there is nothing to check further.
func roundTrip(t *testing.T, name string, input, want []byte, decode func([]byte) (reflect.Value, error)) (e reflect.Value, back []byte, ok bool) {
	e, err := decode(input)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return e, nil, false
	}
	if back, err = json.Marshal(e.Interface()); err != nil {
		t.Errorf("%s: encoding: %v", name, err)
		return e, nil, false
	}
	if !sameJSON(back, want) {
		t.Errorf("%s: decoded and encoded again:\ngot  %s\nwant %s", name, back, want)
	}
	return e, back, true
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func (v *vectors) envelopes(t *testing.T, vecs []genvectors.EnvelopeVec) {
	for _, want := range vecs {
		e, _, ok := roundTrip(t, want.Name, want.Envelope, want.Envelope, v.decode)
		if !ok {
			continue
		}
		kind := e.Elem().FieldByName("Kind").String()
		got := genvectors.EnvelopeVec{
			Name: want.Name, Envelope: want.Envelope, Kind: kind, Known: v.lookupOf(kind).FieldByName("Known").Bool(),
			Retryable:  e.MethodByName("IsRetryable").Call(nil)[0].Bool(),
			HTTPStatus: int(e.MethodByName("HTTPStatus").Call(nil)[0].Int()),
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: kind %q known %v retryable %v HTTP %d, want kind %q known %v retryable %v HTTP %d", want.Name,
				got.Kind, got.Known, got.Retryable, got.HTTPStatus, want.Kind, want.Known, want.Retryable, want.HTTPStatus)
		}
	}
}

// decodeError finds the package's *DecodeError in err's chain and returns
// its path and category.
func (v *vectors) decodeError(err error) (path, category string, ok bool) {
	for ; err != nil; err = errors.Unwrap(err) {
		rv := reflect.ValueOf(err)
		if rv.Kind() == reflect.Pointer && rv.Elem().Kind() == reflect.Struct &&
			rv.Elem().Type().Name() == "DecodeError" && rv.Elem().Type().PkgPath() == v.env.PkgPath() {
			if c := rv.Elem().FieldByName("Category"); c.IsValid() {
				category = c.String()
			}
			return rv.Elem().FieldByName("Path").String(), category, true
		}
	}
	return "", "", false
}

// unmarshal calls (*Envelope).UnmarshalJSON on a new envelope directly:
// json.Unmarshal rejects text that is not JSON before the decoder sees it,
// and the syntax vectors are about what the decoder reports.
func (v *vectors) unmarshal(data []byte) (reflect.Value, error) {
	e := reflect.New(v.env)
	out := e.MethodByName("UnmarshalJSON").Call([]reflect.Value{reflect.ValueOf(data)})
	err, _ := out[0].Interface().(error)
	return e, err
}

func (v *vectors) malformed(t *testing.T, vecs []genvectors.MalformedVec) {
	zero := reflect.Zero(v.env).Interface()
	for _, want := range vecs {
		var e reflect.Value
		var err error
		var input []byte
		switch {
		case (want.Text != nil) && (want.Input != nil || want.Bytes != nil), want.Input != nil && want.Bytes != nil:
			t.Errorf("%s: a vector holds more than one of text, bytes and input", want.Name)
			continue
		case want.Text != nil:
			input = []byte(*want.Text)
			e, err = v.unmarshal(input)
		case want.Bytes != nil:
			input = want.Bytes
			e, err = v.unmarshal(input)
		default:
			input = want.Input
			e, err = v.decode(input)
		}
		if err == nil {
			t.Errorf("%s: decoded without error: %s", want.Name, input)
			continue
		}
		path, category, ok := v.decodeError(err)
		switch {
		case !ok:
			t.Errorf("%s: error %v (%T) is not a *DecodeError", want.Name, err, err)
		case path != want.Path:
			t.Errorf("%s: DecodeError.Path %q, want %q (%v)", want.Name, path, want.Path, err)
		case category != want.Category:
			t.Errorf("%s: DecodeError.Category %q, want %q (%v)", want.Name, category, want.Category, err)
		}
		if !reflect.DeepEqual(e.Elem().Interface(), zero) {
			t.Errorf("%s: a failed decode changed the envelope", want.Name)
		}
	}
}

// edges decodes each document at an edge of what every decoder accepts,
// given to UnmarshalJSON directly (json.Unmarshal would first validate it
// with encoding/json's rules), encodes the envelope and compares it with
// the vector's as a JSON value, then decodes that again to the same
// envelope.
func (v *vectors) edges(t *testing.T, vecs []genvectors.EdgeVec) {
	if len(vecs) == 0 {
		t.Fatal("no edge vectors")
	}
	for _, want := range vecs {
		input := want.Bytes
		if want.Text != nil {
			input = []byte(*want.Text)
		}
		e, back, ok := roundTrip(t, want.Name, input, want.Envelope, v.unmarshal)
		if !ok {
			continue
		}
		again, err := v.unmarshal(back)
		if err != nil || !reflect.DeepEqual(again.Interface(), e.Interface()) {
			t.Errorf("%s: %s does not decode to the same envelope (%v)", want.Name, back, err)
		}
	}
}

// jsonOf is an envelope's encoding as a JSON value.
func jsonOf(t *testing.T, e reflect.Value) any {
	data, err := json.Marshal(e.Interface())
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func (v *vectors) nextStep(t *testing.T, vecs []genvectors.NextStepVec) {
	for _, vec := range vecs {
		e, err := v.decode(vec.Envelope)
		if err != nil {
			t.Errorf("%s: %v", vec.Name, err)
			continue
		}
		if len(vec.Attempts) == 0 {
			t.Errorf("%s: no attempts", vec.Name)
		}
		for _, want := range vec.Attempts {
			d := callFn(v.pkg.NextStep, e, want.Attempt)[0]
			ms := func(name string) int64 {
				dur := time.Duration(d.FieldByName(name).Int())
				if dur%time.Millisecond != 0 {
					t.Errorf("%s, attempt %d: %s %v is not whole milliseconds", vec.Name, want.Attempt, name, dur)
				}
				return int64(dur / time.Millisecond)
			}
			got := genvectors.AttemptVec{
				Attempt: want.Attempt, Step: d.FieldByName("Step").String(),
				DelayMinMs: ms("DelayMin"), DelayMaxMs: ms("DelayMax"),
				CheckStateFirst: d.FieldByName("CheckStateFirst").Bool(), Exhausted: d.FieldByName("Exhausted").Bool(),
			}
			if got != want {
				t.Errorf("%s, attempt %d: step %s delay %d-%d ms check_state_first %v exhausted %v, want step %s delay %d-%d ms check_state_first %v exhausted %v",
					vec.Name, want.Attempt, got.Step, got.DelayMinMs, got.DelayMaxMs, got.CheckStateFirst, got.Exhausted,
					want.Step, want.DelayMinMs, want.DelayMaxMs, want.CheckStateFirst, want.Exhausted)
			}
		}
	}
}

func (v *vectors) classify(t *testing.T, vecs []genvectors.ClassifyVec) {
	seen := map[string]bool{}
	defaults := map[string]bool{}
	for _, want := range vecs {
		fn := v.pkg.Classifiers[want.Classifier]
		if fn == nil {
			t.Fatalf("no generated classifier passed for %s", want.Classifier)
		}
		seen[want.Classifier] = true
		defaults[want.Classifier] = defaults[want.Classifier] || want.Rule == 0
		u := reflect.New(reflect.TypeOf(fn).In(0)).Elem()
		u.FieldByName("Status").SetInt(int64(want.Status))
		u.FieldByName("Failure").SetString(want.Failure)
		u.FieldByName("Text").SetString(want.Text)
		c := callFn(fn, u)[0]
		kind, breaker, rule := c.FieldByName("Kind").String(), c.FieldByName("CountsTowardBreaker").Bool(), int(c.FieldByName("Rule").Int())
		if kind != want.Kind || breaker != want.Breaker || rule != want.Rule {
			t.Errorf("%s(status %d, failure %q, text %q) = %s breaker=%v rule %d, want %s breaker=%v rule %d",
				want.Classifier, want.Status, want.Failure, want.Text, kind, breaker, rule, want.Kind, want.Breaker, want.Rule)
		}
	}
	for name := range v.pkg.Classifiers {
		if !seen[name] {
			t.Errorf("no vectors for the classifier %s", name)
		} else if !defaults[name] {
			t.Errorf("no vector of %s reaches its default", name)
		}
	}
}

func (v *vectors) toolResult(t *testing.T, want *genvectors.ToolResult) {
	switch {
	case want == nil && v.pkg.ToolResult == nil:
		return
	case want == nil:
		t.Fatal("the vectors have no tool_result, but ClassifyToolResult was passed")
	case v.pkg.ToolResult == nil:
		t.Fatalf("the vectors expect ClassifyToolResult to give %+v; none was passed", *want)
	}
	c := callFn(v.pkg.ToolResult)[0]
	got := genvectors.ToolResult{Kind: c.FieldByName("Kind").String(), Breaker: c.FieldByName("CountsTowardBreaker").Bool()}
	if got != *want || c.FieldByName("Rule").Int() != 0 {
		t.Errorf("ClassifyToolResult() = %+v (rule %d), want %+v", got, c.FieldByName("Rule").Int(), *want)
	}
}

func (v *vectors) forTool(t *testing.T, vecs []genvectors.ForToolVec) {
	fn := reflect.ValueOf(v.pkg.ForTool)
	annType := fn.Type().In(1)
	// false stands for an absent hint and for false alike.
	hints := func(b bool) []*bool {
		if b {
			return []*bool{ptrTo(true)}
		}
		return []*bool{nil, ptrTo(false)}
	}
	for _, want := range vecs {
		for _, ro := range hints(want.ReadOnly) {
			for _, idem := range hints(want.Idempotent) {
				a := reflect.New(annType).Elem()
				a.FieldByName("ReadOnlyHint").Set(reflect.ValueOf(ro))
				a.FieldByName("IdempotentHint").Set(reflect.ValueOf(idem))
				got := callFn(v.pkg.ForTool, want.SameArguments, a)[0].String()
				if got != want.Result {
					t.Errorf("%s.ForTool(readOnlyHint %s, idempotentHint %s) = %s, want %s", want.SameArguments, show(ro), show(idem), got, want.Result)
				}
			}
		}
	}
}

func ptrTo(b bool) *bool { return &b }

func show(b *bool) string {
	if b == nil {
		return "absent"
	}
	return fmt.Sprint(*b)
}

// callerSets fills in what a response cannot say but the layout requires in
// every envelope (ovstorage's operation), as the caller of ReadHTTP does
// before passing the envelope on: each field the encoder reports empty and
// required (an *EncodeError) takes the vector envelope's value.
func callerSets(env reflect.Type, got reflect.Value, want json.RawMessage) {
	exp := reflect.New(env)
	if err := exp.Interface().(json.Unmarshaler).UnmarshalJSON(want); err != nil {
		return
	}
	for range 8 {
		_, err := json.Marshal(got.Interface())
		// The package's *EncodeError, under json.Marshal's wrapping.
		for err != nil && reflect.TypeOf(err).String() != "*"+env.PkgPath()[strings.LastIndex(env.PkgPath(), "/")+1:]+".EncodeError" {
			err = errors.Unwrap(err)
		}
		if err == nil {
			return
		}
		e := reflect.ValueOf(err).Elem()
		if !strings.HasPrefix(e.FieldByName("Problem").String(), "is empty, and the layout requires") {
			return
		}
		name := e.FieldByName("Field").String()
		got.Elem().FieldByName(name).Set(exp.Elem().FieldByName(name))
	}
}

// readsAs checks what a reader (ReadHTTP, FromAIP193) returned for a
// vector: an error where the vector's envelope is null, else an envelope
// that, once the caller has set what the layout requires (callerSets),
// encodes as the vector's (as a JSON value). It returns that encoding, nil
// when there is no envelope to check further.
func (v *vectors) readsAs(t *testing.T, name, reader string, got reflect.Value, err error, want json.RawMessage) []byte {
	t.Helper()
	if string(want) == "null" {
		if err == nil {
			t.Errorf("%s: %s returned an envelope, want an error", name, reader)
		}
		return nil
	}
	if err != nil {
		t.Errorf("%s: %s: %v", name, reader, err)
		return nil
	}
	callerSets(v.env, got, want)
	data, err := json.Marshal(got.Interface())
	switch {
	case err != nil:
		t.Errorf("%s: encoding: %v", name, err)
		return nil
	case !sameJSON(data, want):
		t.Errorf("%s: %s:\ngot  %s\nwant %s", name, reader, data, want)
	}
	// Whatever a reader returns can be written again, as an AIP-193 error
	// too.
	if m := got.MethodByName("AIP193"); m.IsValid() {
		if err, _ := m.Call(nil)[1].Interface().(error); err != nil {
			t.Errorf("%s: %s's envelope: AIP193: %v", name, reader, err)
		}
	}
	return data
}

// needSection fails t when a section has no vectors (n is their number),
// or when passed is false: the package functions it runs, named in fns,
// were not all given.
func needSection(t *testing.T, section string, n int, fns string, passed bool) {
	t.Helper()
	if n == 0 {
		t.Fatalf("the %s section is empty", section)
	}
	if !passed {
		t.Fatalf("the vectors have %s; %s must be passed", section, fns)
	}
}

// mcpText hands each vector's text to FromToolResult, as a tool result's
// one text content item: an error where the vector's envelope is null, else
// the envelope, encoded as the vector's.
func (v *vectors) mcpText(t *testing.T, vecs []genvectors.MCPTextVec) {
	needSection(t, "mcp_text", len(vecs), "FromToolResult", v.pkg.FromToolResult != nil)
	fn := reflect.ValueOf(v.pkg.FromToolResult)
	for _, want := range vecs {
		wire, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": want.Text}}, "isError": true})
		ptr := reflect.New(fn.Type().In(0))
		if err := json.Unmarshal(wire, ptr.Interface()); err != nil {
			t.Fatal(err)
		}
		out := fn.Call([]reflect.Value{ptr.Elem()})
		err, _ := out[1].Interface().(error)
		v.readsAs(t, want.Name, "FromToolResult", out[0], err, want.Envelope)
	}
}

// mcpOutputSchema hands each vector's success schema to MCPOutputSchema:
// the widened schema, compared as a JSON value.
func (v *vectors) mcpOutputSchema(t *testing.T, vecs []genvectors.MCPOutputSchemaVec) {
	needSection(t, "mcp_output_schema", len(vecs), "MCPOutputSchema", v.pkg.MCPOutputSchema != nil)
	fn := reflect.ValueOf(v.pkg.MCPOutputSchema)
	for _, want := range vecs {
		out := fn.Call([]reflect.Value{reflect.ValueOf(want.Success)})
		if err, _ := out[1].Interface().(error); err != nil {
			t.Errorf("%s: %v", want.Name, err)
			continue
		}
		var got, wanted any
		if err := json.Unmarshal(out[0].Bytes(), &got); err != nil {
			t.Fatalf("%s: %v", want.Name, err)
		}
		if err := json.Unmarshal(want.Widened, &wanted); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, wanted) {
			t.Errorf("%s: MCPOutputSchema(%s)\n = %s\nwant %s", want.Name, want.Success, out[0].Bytes(), want.Widened)
		}
	}
}

// cliRead hands each vector's line to ReadCLI: an error where the vector's
// envelope is null, else the envelope, encoded as the vector's.
func (v *vectors) cliRead(t *testing.T, vecs []genvectors.CLIReadVec) {
	needSection(t, "cli_read", len(vecs), "ReadCLI", v.pkg.ReadCLI != nil)
	for _, want := range vecs {
		line := []byte(want.Line)
		if want.Bytes != nil {
			line = want.Bytes
		}
		out := reflect.ValueOf(v.pkg.ReadCLI).Call([]reflect.Value{reflect.ValueOf(line)})
		err, _ := out[1].Interface().(error)
		v.readsAs(t, want.Name, "ReadCLI", out[0], err, want.Envelope)
	}
}

// readHTTP hands each vector's response to ReadHTTP: the envelope it
// returns, encoded, must be the vector's (as a JSON value), and its
// PromotedFrom must say what the vector's promotion mark says; a null
// envelope means an error.
func (v *vectors) readHTTP(t *testing.T, vecs []genvectors.HTTPVec) {
	if v.pkg.ReadHTTP == nil {
		t.Fatal("the vectors have http responses; ReadHTTP was not passed")
	}
	for _, want := range vecs {
		resp := &http.Response{StatusCode: want.Status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(want.Body))}
		for name, value := range want.Headers {
			resp.Header.Set(name, value)
		}
		for _, l := range want.HeaderLines {
			resp.Header.Add(l[0], l[1])
		}
		out := reflect.ValueOf(v.pkg.ReadHTTP).Call([]reflect.Value{reflect.ValueOf(resp)})
		err, _ := out[1].Interface().(error)
		if want.Error != nil {
			if _, category, ok := v.decodeError(err); !ok || category != *want.Error {
				t.Errorf("%s: ReadHTTP error %v, want a DecodeError of category %q", want.Name, err, *want.Error)
			}
		}
		got := v.readsAs(t, want.Name, "ReadHTTP", out[0], err, want.Envelope)
		if got == nil {
			continue
		}
		var top map[string]any
		json.Unmarshal(want.Envelope, &top)
		mark, _ := top[contract.PromotedMember].(string)
		if p := out[0].MethodByName("PromotedFrom").Call(nil)[0].String(); p != mark {
			t.Errorf("%s: PromotedFrom() = %q, want %q", want.Name, p, mark)
		}
		// The mark survives encoding and decoding.
		back, err := v.decode(got)
		if err != nil {
			t.Errorf("%s: the envelope read does not decode: %v", want.Name, err)
		} else if p := back.MethodByName("PromotedFrom").Call(nil)[0].String(); p != mark {
			t.Errorf("%s: PromotedFrom() after decoding = %q, want %q", want.Name, p, mark)
		}
	}
}
