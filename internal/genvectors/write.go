package genvectors

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/errgen/errgen/internal/orderedjson"
)

// The file is written by hand rather than through encoding/json: one vector
// per line, compact inside the line. A line per vector keeps diffs readable
// (a changed kind changes its own lines) while the file stays a fraction of
// the indented form, and appending bytes directly avoids reflection and
// re-indenting tens of megabytes for large contracts.

// write renders f.
func write(f *File) ([]byte, error) {
	b := append(make([]byte, 0, sizeHint(f)), "{\n  \"$comment\": "...)
	b = appendString(b, f.Comment)
	b = append(b, ",\n  \"contract\": "...)
	b = appendString(b, f.Contract)
	b = append(b, ",\n  \"version\": "...)
	var err error
	if b, err = orderedjson.AppendCompact(b, f.Version); err != nil {
		return nil, err
	}
	b = append(b, ",\n  \"retry\": "...)
	b = appendRetry(b, f.Retry)

	b = section(b, "lookup", f.Lookup, appendLookup)
	b = section(b, "envelopes", f.Envelopes, appendEnvelope)
	b = section(b, "malformed", f.Malformed, appendMalformed)
	b = section(b, "edges", f.Edges, appendEdge)
	b = section(b, "next_step", f.NextStep, appendNextStep)
	b = section(b, "classify", f.Classify, appendClassify)

	b = append(b, ",\n  \"tool_result\": "...)
	if f.ToolResult == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"kind":`...)
		b = appendString(b, f.ToolResult.Kind)
		b = append(b, `,"breaker":`...)
		b = strconv.AppendBool(b, f.ToolResult.Breaker)
		b = append(b, '}')
	}

	b = section(b, "for_tool", f.ForTool, appendForTool)
	b = section(b, "http", f.HTTP, appendHTTP)
	b = section(b, "surfaces", f.Surfaces, appendSurface)
	b = section(b, "accept", f.Accept, appendAccept)
	if f.AIP193 != nil {
		var err error
		if b, err = appendAIP193(b, f.AIP193); err != nil {
			return nil, err
		}
	}
	return append(b, "\n}\n"...), nil
}

// sizeHint guesses the file's size from its vectors, so the buffer grows
// once or twice instead of doubling from nothing.
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
	return n
}

// section writes a top-level array member, one vector a line, each by
// appendOne; an empty one is written [].
func section[V any](b []byte, name string, vs []V, appendOne func([]byte, V) []byte) []byte {
	b = openSection(b, name, len(vs))
	for i, v := range vs {
		b = appendOne(lineStart(b, i), v)
	}
	return closeSection(b, len(vs))
}

func openSection(b []byte, name string, n int) []byte {
	b = append(b, ",\n  "...)
	b = appendString(b, name)
	if n == 0 {
		return append(b, ": ["...)
	}
	return append(b, ": [\n"...)
}

func closeSection(b []byte, n int) []byte {
	if n == 0 {
		return append(b, ']')
	}
	return append(b, "\n  ]"...)
}

// lineStart begins the i-th vector of a section on its own line.
func lineStart(b []byte, i int) []byte {
	if i > 0 {
		b = append(b, ",\n"...)
	}
	return append(b, "    "...)
}

func appendRetry(b []byte, r Retry) []byte {
	b = append(b, `{"initial_ms":`...)
	b = strconv.AppendInt(b, int64(r.InitialMs), 10)
	b = append(b, `,"max_ms":`...)
	b = strconv.AppendInt(b, int64(r.MaxMs), 10)
	b = append(b, `,"multiplier":`...)
	b = orderedjson.AppendFloat(b, r.Multiplier)
	b = append(b, `,"jitter":`...)
	b = orderedjson.AppendFloat(b, r.Jitter)
	b = append(b, `,"max_attempts":`...)
	b = strconv.AppendInt(b, int64(r.MaxAttempts), 10)
	b = append(b, `,"max_hint_ms":`...)
	b = strconv.AppendInt(b, r.MaxHintMs, 10)
	return append(b, '}')
}

func appendLookup(b []byte, v LookupVec) []byte {
	b = append(b, `{"kind":`...)
	b = appendString(b, v.Kind)
	b = append(b, `,"known":`...)
	b = strconv.AppendBool(b, v.Known)
	b = append(b, `,"group":`...)
	b = appendString(b, v.Group)
	b = append(b, `,"origin":`...)
	b = appendString(b, v.Origin)
	b = append(b, `,"action":`...)
	b = appendString(b, v.Action)
	b = append(b, `,"same_arguments":`...)
	b = appendString(b, v.SameArguments)
	b = append(b, `,"guidance":`...)
	b = appendString(b, v.Guidance)
	b = append(b, `,"side_effects":`...)
	b = appendString(b, v.SideEffects)
	b = append(b, `,"http_status":`...)
	b = strconv.AppendInt(b, int64(v.HTTPStatus), 10)
	b = append(b, `,"log_level":`...)
	b = appendString(b, v.LogLevel)
	b = append(b, `,"breaker":`...)
	b = strconv.AppendBool(b, v.Breaker)
	b = append(b, `,"retryable":`...)
	b = strconv.AppendBool(b, v.Retryable)
	b = append(b, `,"startup":`...)
	b = strconv.AppendBool(b, v.Startup)
	b = append(b, `,"number":`...)
	b = strconv.AppendInt(b, int64(v.Number), 10)
	return append(b, '}')
}

func appendEnvelope(b []byte, v EnvelopeVec) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, v.Name)
	b = append(b, `,"envelope":`...)
	b = append(b, v.Envelope...)
	b = append(b, `,"kind":`...)
	b = appendString(b, v.Kind)
	b = append(b, `,"known":`...)
	b = strconv.AppendBool(b, v.Known)
	b = append(b, `,"retryable":`...)
	b = strconv.AppendBool(b, v.Retryable)
	b = append(b, `,"http_status":`...)
	b = strconv.AppendInt(b, int64(v.HTTPStatus), 10)
	return append(b, '}')
}

func appendMalformed(b []byte, v MalformedVec) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, v.Name)
	switch {
	case v.Text != nil:
		b = append(b, `,"text":`...)
		b = appendString(b, *v.Text)
	case v.Bytes != nil:
		b = append(b, `,"bytes":`...)
		b = appendBase64(b, v.Bytes)
	default:
		b = append(b, `,"input":`...)
		b = append(b, v.Input...)
	}
	b = append(b, `,"path":`...)
	b = appendString(b, v.Path)
	b = append(b, `,"category":`...)
	b = appendString(b, v.Category)
	return append(b, '}')
}

func appendEdge(b []byte, v EdgeVec) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, v.Name)
	if v.Text != nil {
		b = append(b, `,"text":`...)
		b = appendString(b, *v.Text)
	} else {
		b = append(b, `,"bytes":`...)
		b = appendBase64(b, v.Bytes)
	}
	b = append(b, `,"envelope":`...)
	b = append(b, v.Envelope...)
	return append(b, '}')
}

// appendBase64 appends data as a JSON string in standard base64, as
// encoding/json writes a []byte.
func appendBase64(b []byte, data []byte) []byte {
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, data)
	return append(b, '"')
}

func appendNextStep(b []byte, v NextStepVec) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, v.Name)
	b = append(b, `,"envelope":`...)
	b = append(b, v.Envelope...)
	b = append(b, `,"attempts":[`...)
	for i, a := range v.Attempts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"attempt":`...)
		b = strconv.AppendInt(b, int64(a.Attempt), 10)
		b = append(b, `,"step":`...)
		b = appendString(b, a.Step)
		b = append(b, `,"delay_min_ms":`...)
		b = strconv.AppendInt(b, a.DelayMinMs, 10)
		b = append(b, `,"delay_max_ms":`...)
		b = strconv.AppendInt(b, a.DelayMaxMs, 10)
		b = append(b, `,"check_state_first":`...)
		b = strconv.AppendBool(b, a.CheckStateFirst)
		b = append(b, `,"exhausted":`...)
		b = strconv.AppendBool(b, a.Exhausted)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

func appendHTTP(b []byte, v HTTPVec) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, v.Name)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(v.Status), 10)
	b = append(b, `,"headers":{`...)
	names := make([]string, 0, len(v.Headers))
	for name := range v.Headers {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, name), ':')
		b = appendString(b, v.Headers[name])
	}
	b = append(b, `},"body":`...)
	b = appendString(b, v.Body)
	b = append(b, `,"envelope":`...)
	b = append(b, v.Envelope...)
	return append(b, '}')
}

func appendClassify(b []byte, v ClassifyVec) []byte {
	b = append(b, `{"classifier":`...)
	b = appendString(b, v.Classifier)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(v.Status), 10)
	b = append(b, `,"failure":`...)
	b = appendString(b, v.Failure)
	b = append(b, `,"text":`...)
	b = appendString(b, v.Text)
	b = append(b, `,"kind":`...)
	b = appendString(b, v.Kind)
	b = append(b, `,"breaker":`...)
	b = strconv.AppendBool(b, v.Breaker)
	b = append(b, `,"rule":`...)
	b = strconv.AppendInt(b, int64(v.Rule), 10)
	return append(b, '}')
}

func appendForTool(b []byte, v ForToolVec) []byte {
	b = append(b, `{"same_arguments":`...)
	b = appendString(b, v.SameArguments)
	b = append(b, `,"read_only":`...)
	b = strconv.AppendBool(b, v.ReadOnly)
	b = append(b, `,"idempotent":`...)
	b = strconv.AppendBool(b, v.Idempotent)
	b = append(b, `,"result":`...)
	b = appendString(b, v.Result)
	return append(b, '}')
}

// appendString appends s as a JSON string the way orderedjson.Marshal writes
// it (no HTML escapes).
func appendString(b []byte, s string) []byte {
	return orderedjson.AppendString(b, s, false)
}

func appendSurface(b []byte, v SurfaceVec) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, v.Name)
	b = append(b, `,"envelope":`...)
	b = append(b, v.Envelope...)
	b = append(b, `,"http":`...)
	b = appendHTTPForm(b, v.HTTP)
	b = append(b, `,"problem":`...)
	b = appendHTTPForm(b, v.Problem)
	b = append(b, `,"exit_code":`...)
	b = strconv.AppendInt(b, int64(v.ExitCode), 10)
	b = append(b, `,"command":`...)
	b = appendString(b, v.Command)
	b = append(b, `,"cli":`...)
	b = appendString(b, v.CLI)
	b = append(b, `,"log":`...)
	b = append(b, v.Log...)
	return append(b, '}')
}

func appendHTTPForm(b []byte, v HTTPForm) []byte {
	b = append(b, `{"status":`...)
	b = strconv.AppendInt(b, int64(v.Status), 10)
	b = append(b, `,"headers":`...)
	b = appendHeaders(b, v.Headers)
	b = append(b, `,"body":`...)
	b = appendString(b, v.Body)
	b = append(b, `,"envelope":`...)
	b = append(b, v.Envelope...)
	return append(b, '}')
}

// appendHeaders writes headers as an object sorted by name.
func appendHeaders(b []byte, h map[string]string) []byte {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	b = append(b, '{')
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, name), ':')
		b = appendString(b, h[name])
	}
	return append(b, '}')
}

func appendAccept(b []byte, v AcceptVec) []byte {
	b = append(b, `{"accept":[`...)
	for i, a := range v.Accept {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, a)
	}
	b = append(b, `],"problem":`...)
	b = strconv.AppendBool(b, v.Problem)
	return append(b, '}')
}

// appendAIP193 writes the google.rpc mapping's members: the domain, then
// its sections, one vector a line.
func appendAIP193(b []byte, s *AIP193) ([]byte, error) {
	b = append(b, ",\n  \"aip193_domain\": "...)
	b = appendString(b, s.Domain)
	var err error
	line := func(b []byte, v any) []byte {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if e := enc.Encode(v); e != nil && err == nil {
			err = e
		}
		return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
	}
	b = section(b, "aip193_kinds", s.Kinds, func(b []byte, v AIPKindVec) []byte { return line(b, v) })
	b = section(b, "aip193_reasons", s.Reasons, func(b []byte, v AIPReasonVec) []byte { return line(b, v) })
	b = section(b, "aip193_encode", s.Encode, func(b []byte, v AIPEncodeVec) []byte { return line(b, v) })
	b = section(b, "aip193_decode", s.Decode, func(b []byte, v AIPDecodeVec) []byte { return line(b, v) })
	return b, err
}
