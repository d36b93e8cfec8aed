package genvectors

import (
	"sort"

	"github.com/errgen/errgen/internal/orderedjson"
)

// The file is written by hand rather than through encoding/json: one vector
// per line, compact inside the line. A line per vector keeps diffs readable
// (a changed kind changes its own lines) while the file stays a fraction of
// the indented form. Each vector type lists its members in the order of its
// fields (AsObject), and orderedjson writes them: one writer for every
// section, with no reflection and no re-indenting of tens of megabytes for
// large contracts.

// write renders f.
func write(f *File) ([]byte, error) {
	w := &fileWriter{b: append(make([]byte, 0, min(sizeHint(f), chunkSize+chunkRoom)), '{')}
	w.member("$comment", f.Comment)
	w.member("contract", f.Contract)
	w.member("version", f.Version)
	w.member("retry", f.Retry)
	section(w, "lookup", f.Lookup)
	section(w, "envelopes", f.Envelopes)
	section(w, "malformed", f.Malformed)
	section(w, "edges", f.Edges)
	section(w, "next_step", f.NextStep)
	section(w, "classify", f.Classify)
	if f.ToolResult == nil {
		w.member("tool_result", nil)
	} else {
		w.member("tool_result", *f.ToolResult)
	}
	section(w, "for_tool", f.ForTool)
	section(w, "http", f.HTTP)
	section(w, "surfaces", f.Surfaces)
	section(w, "accept", f.Accept)
	section(w, "string_forms", f.StringForms)
	section(w, "cli_read", f.CLIRead)
	section(w, "mcp_text", f.MCPText)
	section(w, "mcp_output_schema", f.MCPOutputSchema)
	section(w, "mcp_errors", f.MCPErrors)
	section(w, "mcp_error_read", f.MCPErrorRead)
	section(w, "writes", f.Writes)
	w.member("aip193_domain", f.AIPDomain)
	section(w, "aip193_kinds", f.AIPKinds)
	section(w, "aip193_reasons", f.AIPReasons)
	section(w, "aip193_encode", f.AIPEncode)
	section(w, "aip193_decode", f.AIPDecode)
	section(w, "received", f.Received)
	section(w, "call_errors", f.CallErrors)
	w.b = append(w.b, "\n}\n"...)
	return w.bytes(), w.err
}

// fileWriter writes the file's top-level members, each on a line of its
// own, keeping the first error.
type fileWriter struct {
	b []byte
	// full are the chunks written before b. A large contract's file is
	// written in chunks of about chunkSize and joined once at the end: a
	// single buffer would be copied on every regrowth (about 3.5 times the
	// 94 MB file of 10,000 kinds), and sizeHint cannot know the size.
	full [][]byte
	n    int // members written
	err  error
}

// chunkSize is the size at which the writer starts a new chunk; a chunk
// has chunkRoom past it for the vector that crosses it (most are a few
// KiB), so it rarely regrows, and little of it stays unused.
const (
	chunkSize = 1 << 20
	chunkRoom = 64 << 10
)

// next starts a new chunk when b is full.
func (w *fileWriter) next() {
	if len(w.b) >= chunkSize {
		w.full = append(w.full, w.b)
		w.b = make([]byte, 0, chunkSize+chunkRoom)
	}
}

// bytes returns the file: the chunks joined.
func (w *fileWriter) bytes() []byte {
	if len(w.full) == 0 {
		return w.b
	}
	n := len(w.b)
	for _, c := range w.full {
		n += len(c)
	}
	out := make([]byte, 0, n)
	for _, c := range w.full {
		out = append(out, c...)
	}
	return append(out, w.b...)
}

// key starts the next top-level member.
func (w *fileWriter) key(name string) {
	if w.n > 0 {
		w.b = append(w.b, ',')
	}
	w.n++
	w.b = append(orderedjson.AppendString(append(w.b, "\n  "...), name, false), ": "...)
}

// value appends v compactly.
func (w *fileWriter) value(v any) {
	var err error
	if w.b, err = orderedjson.AppendCompact(w.b, v); err != nil && w.err == nil {
		w.err = err
	}
}

// member writes a top-level member whose value fits on its line.
func (w *fileWriter) member(name string, v any) {
	w.key(name)
	w.value(v)
}

// section writes a top-level array member, one vector a line; an empty one
// is written [].
func section[V orderedjson.Ordered](w *fileWriter, name string, vs []V) {
	w.key(name)
	w.b = append(w.b, '[')
	for i, v := range vs {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = append(w.b, "\n    "...)
		w.value(v.AsObject())
		w.next()
	}
	if len(vs) > 0 {
		w.b = append(w.b, "\n  "...)
	}
	w.b = append(w.b, ']')
}

// sizeHint guesses the file's size from its vectors, so that the first
// chunk, all of a small contract's file, grows once or twice instead of
// doubling from nothing.
func sizeHint(f *File) int {
	n := 4096 + 400*len(f.Lookup) + 200*len(f.Classify) + 100*len(f.ForTool)
	for _, v := range f.Envelopes {
		n += 200 + len(v.Envelope)
	}
	for _, v := range f.Malformed {
		n += 200 + len(v.Input)
		if v.Text != nil {
			n += len(*v.Text) + len(*v.Text)/8
		}
		n += len(v.Bytes) * 4 / 3
	}
	for _, v := range f.Edges {
		n += 200 + len(v.Envelope) + len(v.Bytes)*4/3
		if v.Text != nil {
			n += len(*v.Text) + len(*v.Text)/8
		}
	}
	for _, v := range f.NextStep {
		n += 100 + len(v.Envelope) + 130*len(v.Attempts)
	}
	for _, v := range f.HTTP {
		n += 200 + len(v.Body) + len(v.Envelope)
	}
	for _, v := range f.Surfaces {
		n += 600 + 6*len(v.Envelope) + len(v.Log)
	}
	for _, v := range f.StringForms {
		n += 300 + 2*len(v.Text)
	}
	return n
}

// The members of each vector type, in the order of its fields (and of
// their json tags, which the tests that read the file decode with).

// AsObject implements orderedjson.Ordered.
func (r Retry) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "initial_ms", Value: r.InitialMs}, {Key: "max_ms", Value: r.MaxMs},
		{Key: "multiplier", Value: r.Multiplier}, {Key: "jitter", Value: r.Jitter},
		{Key: "max_attempts", Value: r.MaxAttempts}, {Key: "max_hint_ms", Value: r.MaxHintMs}}
}

// AsObject implements orderedjson.Ordered.
func (v LookupVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "kind", Value: v.Kind}, {Key: "known", Value: v.Known}, {Key: "group", Value: v.Group},
		{Key: "origin", Value: v.Origin}, {Key: "action", Value: v.Action}, {Key: "same_arguments", Value: v.SameArguments},
		{Key: "guidance", Value: v.Guidance}, {Key: "side_effects", Value: v.SideEffects}, {Key: "http_status", Value: v.HTTPStatus},
		{Key: "log_level", Value: v.LogLevel}, {Key: "breaker", Value: v.Breaker}, {Key: "retryable", Value: v.Retryable},
		{Key: "startup", Value: v.Startup}, {Key: "number", Value: v.Number}, {Key: "grpc_code", Value: v.GRPCCode},
		{Key: "grpc_status", Value: v.GRPCStatus}, {Key: "reason", Value: v.Reason}}
}

// AsObject implements orderedjson.Ordered.
func (v EnvelopeVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "envelope", Value: v.Envelope}, {Key: "kind", Value: v.Kind},
		{Key: "known", Value: v.Known}, {Key: "retryable", Value: v.Retryable}, {Key: "http_status", Value: v.HTTPStatus}}
}

// AsObject implements orderedjson.Ordered: the one of text, bytes and input
// the vector carries.
func (v MalformedVec) AsObject() orderedjson.Object {
	doc := orderedjson.Member{Key: "input", Value: v.Input}
	switch {
	case v.Text != nil:
		doc = orderedjson.Member{Key: "text", Value: *v.Text}
	case v.Bytes != nil:
		doc = orderedjson.Member{Key: "bytes", Value: v.Bytes}
	}
	return orderedjson.Object{{Key: "name", Value: v.Name}, doc, {Key: "path", Value: v.Path}, {Key: "category", Value: v.Category}}
}

// AsObject implements orderedjson.Ordered: text, else bytes.
func (v EdgeVec) AsObject() orderedjson.Object {
	doc := orderedjson.Member{Key: "bytes", Value: v.Bytes}
	if v.Text != nil {
		doc = orderedjson.Member{Key: "text", Value: *v.Text}
	}
	return orderedjson.Object{{Key: "name", Value: v.Name}, doc, {Key: "envelope", Value: v.Envelope}}
}

// AsObject implements orderedjson.Ordered.
func (v NextStepVec) AsObject() orderedjson.Object {
	attempts := make([]any, len(v.Attempts))
	for i, a := range v.Attempts {
		attempts[i] = a
	}
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "envelope", Value: v.Envelope}, {Key: "attempts", Value: attempts}}
}

// AsObject implements orderedjson.Ordered.
func (a AttemptVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "attempt", Value: a.Attempt}, {Key: "step", Value: a.Step},
		{Key: "delay_min_ms", Value: a.DelayMinMs}, {Key: "delay_max_ms", Value: a.DelayMaxMs},
		{Key: "check_state_first", Value: a.CheckStateFirst}, {Key: "exhausted", Value: a.Exhausted}}
}

// AsObject implements orderedjson.Ordered.
func (v ClassifyVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "classifier", Value: v.Classifier}, {Key: "status", Value: v.Status},
		{Key: "failure", Value: v.Failure}, {Key: "text", Value: v.Text}, {Key: "kind", Value: v.Kind},
		{Key: "breaker", Value: v.Breaker}, {Key: "rule", Value: v.Rule}}
}

// AsObject implements orderedjson.Ordered.
func (v ToolResult) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "kind", Value: v.Kind}, {Key: "breaker", Value: v.Breaker}}
}

// AsObject implements orderedjson.Ordered.
func (v ForToolVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "same_arguments", Value: v.SameArguments}, {Key: "read_only", Value: v.ReadOnly},
		{Key: "idempotent", Value: v.Idempotent}, {Key: "result", Value: v.Result}}
}

// AsObject implements orderedjson.Ordered.
func (v HTTPVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "status", Value: v.Status},
		{Key: "headers", Value: sortedHeaders(v.Headers)}, {Key: "header_lines", Value: headerLines(v.HeaderLines)},
		{Key: "body", Value: v.Body}, {Key: "envelope", Value: v.Envelope}, {Key: "error", Value: nullable(v.Error)}}
}

// headerLines is a list of header lines as JSON arrays of name and value.
func headerLines(lines [][2]string) []any {
	out := make([]any, len(lines))
	for i, l := range lines {
		out[i] = []any{l[0], l[1]}
	}
	return out
}

// nullable is *s, or null when s is nil.
func nullable(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// AsObject implements orderedjson.Ordered.
func (v SurfaceVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "envelope", Value: v.Envelope},
		{Key: "http", Value: v.HTTP}, {Key: "problem", Value: v.Problem}, {Key: "exit_code", Value: v.ExitCode},
		{Key: "command", Value: v.Command}, {Key: "cli", Value: v.CLI}, {Key: "log", Value: v.Log}}
}

// AsObject implements orderedjson.Ordered.
func (v HTTPForm) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "status", Value: v.Status}, {Key: "headers", Value: sortedHeaders(v.Headers)},
		{Key: "body", Value: v.Body}, {Key: "envelope", Value: v.Envelope}}
}

// sortedHeaders is a header map as an object sorted by name.
func sortedHeaders(h map[string]string) orderedjson.Object {
	o := make(orderedjson.Object, 0, len(h))
	for name, value := range h {
		o = append(o, orderedjson.Member{Key: name, Value: value})
	}
	sort.Slice(o, func(i, j int) bool { return o[i].Key < o[j].Key })
	return o
}

// AsObject implements orderedjson.Ordered.
func (v AcceptVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "accept", Value: v.Accept}, {Key: "problem", Value: v.Problem}}
}

// AsObject implements orderedjson.Ordered.
func (v CLIReadVec) AsObject() orderedjson.Object {
	o := orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "line", Value: v.Line}}
	if v.Bytes != nil {
		o = append(o, orderedjson.Member{Key: "bytes", Value: v.Bytes})
	}
	return append(o, orderedjson.Member{Key: "envelope", Value: v.Envelope})
}

// AsObject implements orderedjson.Ordered.
func (v MCPTextVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "text", Value: v.Text}, {Key: "envelope", Value: v.Envelope}}
}

// AsObject implements orderedjson.Ordered.
func (v MCPOutputSchemaVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "success", Value: v.Success}, {Key: "widened", Value: v.Widened}}
}

// AsObject implements orderedjson.Ordered.
func (v AIPKindVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "kind", Value: v.Kind}, {Key: "http_status", Value: v.HTTPStatus},
		{Key: "grpc_code", Value: v.GRPCCode}, {Key: "grpc_status", Value: v.GRPCStatus}, {Key: "reason", Value: v.Reason}}
}

// AsObject implements orderedjson.Ordered.
func (v AIPReasonVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "kind", Value: v.Kind}, {Key: "reason", Value: v.Reason}}
}

// AsObject implements orderedjson.Ordered.
func (v AIPEncodeVec) AsObject() orderedjson.Object {
	return orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "envelope", Value: v.Envelope}, {Key: "aip193", Value: v.AIP193}}
}

// AsObject implements orderedjson.Ordered.
func (v AIPDecodeVec) AsObject() orderedjson.Object {
	o := orderedjson.Object{{Key: "name", Value: v.Name}, {Key: "aip193", Value: v.AIP193}, {Key: "envelope", Value: v.Envelope}}
	if v.Path != nil {
		o = append(o, orderedjson.Member{Key: "path", Value: *v.Path})
	}
	if v.Category != "" {
		o = append(o, orderedjson.Member{Key: "category", Value: v.Category})
	}
	return o
}
