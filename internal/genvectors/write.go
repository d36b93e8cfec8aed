package genvectors

import (
	"sort"

	"github.com/errgen/errgen/internal/orderedjson"
)

// The file is written by hand rather than through encoding/json: one vector
// per line, compact inside the line. A line per vector keeps diffs readable
// (a changed kind changes its own lines) while the file stays a fraction of
// the indented form. The sections that grow with the kinds write
// themselves (append.go); each other vector type lists its members in the
// order of its fields (AsObject), and orderedjson writes them.
//
// The file is one buffer, allocated once: the small sections are written
// first, each into a buffer of its own, so that their sizes are known, the
// large ones estimated (appender.estimate), and the whole written in order
// into a buffer of the sum and a little more. At 10,000 kinds the file is
// about 100 MB; the chunks it was written in before, joined at the end, cost
// twice that.

// write renders f.
func write(f *File) ([]byte, error) {
	w := &fileWriter{}
	w.member("$comment", f.Comment)
	w.member("contract", f.Contract)
	w.member("version", f.Version)
	w.member("retry", f.Retry)
	large(w, "lookup", f.Lookup)
	large(w, "envelopes", f.Envelopes)
	section(w, "malformed", f.Malformed)
	section(w, "edges", f.Edges)
	large(w, "next_step", f.NextStep)
	section(w, "classify", f.Classify)
	if f.ToolResult == nil {
		w.member("tool_result", nil)
	} else {
		w.member("tool_result", *f.ToolResult)
	}
	section(w, "for_tool", f.ForTool)
	large(w, "http", f.HTTP)
	large(w, "surfaces", f.Surfaces)
	section(w, "accept", f.Accept)
	section(w, "string_forms", f.StringForms)
	section(w, "cli_read", f.CLIRead)
	section(w, "mcp_text", f.MCPText)
	section(w, "mcp_output_schema", f.MCPOutputSchema)
	large(w, "mcp_errors", f.MCPErrors)
	section(w, "mcp_error_read", f.MCPErrorRead)
	section(w, "writes", f.Writes)
	w.member("aip193_domain", f.AIPDomain)
	large(w, "aip193_kinds", f.AIPKinds)
	section(w, "aip193_reasons", f.AIPReasons)
	large(w, "aip193_encode", f.AIPEncode)
	section(w, "aip193_decode", f.AIPDecode)
	section(w, "received", f.Received)
	section(w, "call_errors", f.CallErrors)
	if w.err != nil {
		return nil, w.err
	}
	size := 1 + len("\n}\n")
	for _, p := range w.parts {
		size += p.size
	}
	// The estimate leaves out escapes other than quotes and backslashes:
	// 1/32 more covers them (the test of the estimate holds it to the
	// examples' contracts and synthetic ones).
	b := append(make([]byte, 0, size+size/32+512), '{')
	for _, p := range w.parts {
		b = p.emit(b)
	}
	return append(b, "\n}\n"...), nil
}

// fileWriter collects the file's top-level members, each on a line of its
// own, keeping the first error.
type fileWriter struct {
	parts []part
	err   error
}

// part is one top-level member: its size (estimated for a large section)
// and what writes it, comma and key included.
type part struct {
	size int
	emit func(b []byte) []byte
}

// key starts a top-level member in b: the comma before it, unless it is
// the first.
func (w *fileWriter) key(b []byte, name string) []byte {
	if len(w.parts) > 0 {
		b = append(b, ',')
	}
	return append(orderedjson.AppendString(append(b, "\n  "...), name, false), ": "...)
}

// written adds a member already written.
func (w *fileWriter) written(b []byte, err error) {
	if err != nil && w.err == nil {
		w.err = err
	}
	w.parts = append(w.parts, part{size: len(b), emit: func(out []byte) []byte { return append(out, b...) }})
}

// member writes a top-level member whose value fits on its line.
func (w *fileWriter) member(name string, v any) {
	b, err := orderedjson.AppendCompact(w.key(nil, name), v)
	w.written(b, err)
}

// section writes a top-level array member, one vector a line; an empty one
// is written [].
func section[V orderedjson.Ordered](w *fileWriter, name string, vs []V) {
	b := append(w.key(nil, name), '[')
	var err error
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		var e error
		if b, e = orderedjson.AppendCompact(b, v.AsObject()); e != nil && err == nil {
			err = e
		}
	}
	if len(vs) > 0 {
		b = append(b, "\n  "...)
	}
	w.written(append(b, ']'), err)
}

// large is section for a section that grows with the kinds: its vectors
// are written straight into the file's buffer.
func large[V appender](w *fileWriter, name string, vs []V) {
	head := w.key(nil, name)
	size := len(head) + 4
	for _, v := range vs {
		size += len(",\n    ") + v.estimate()
	}
	w.parts = append(w.parts, part{size: size, emit: func(b []byte) []byte {
		b = append(append(b, head...), '[')
		for i, v := range vs {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.appendJSON(append(b, "\n    "...))
		}
		if len(vs) > 0 {
			b = append(b, "\n  "...)
		}
		return append(b, ']')
	}})
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
