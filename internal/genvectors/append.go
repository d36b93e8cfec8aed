package genvectors

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/errgen/errgen/internal/orderedjson"
)

// The sections that grow with the kinds (lookup, envelopes, next_step, http,
// surfaces, mcp_errors, aip193_kinds, aip193_encode: nine lines in ten of a
// large contract's file) are written by hand, member by member, into the
// file's one buffer: no orderedjson.Object of boxed values per vector. Each
// writes what orderedjson.AppendCompact writes for the vector's AsObject,
// byte for byte; the other sections, a few dozen vectors each, go through
// AsObject. Each also estimates its size (estimate), so that the file's
// buffer is allocated once at about its final size.

// appender is a vector that writes itself.
type appender interface {
	appendJSON(b []byte) []byte
	// estimate is about the size appendJSON writes: the members' names and
	// punctuation exactly, each string as its length and its quotes
	// escaped (the other escapes are rare in vectors and left to the
	// file's slack).
	estimate() int
}

// str appends s as a JSON string, as orderedjson writes it.
func str(b []byte, s string) []byte { return orderedjson.AppendString(b, s, false) }

// strEst estimates the size of s written by str.
func strEst(s string) int { return len(s) + 2 + strings.Count(s, `"`) + strings.Count(s, `\`) }

// intEst is the most an int takes written.
const intEst = 20

func appendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

func appendInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

// appendList appends a JSON array of n items, each appended by item.
func appendList(b []byte, n int, item func(b []byte, i int) []byte) []byte {
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = item(b, i)
	}
	return append(b, ']')
}

func (v LookupVec) appendJSON(b []byte) []byte {
	b = str(append(b, `{"kind":`...), v.Kind)
	b = appendBool(append(b, `,"known":`...), v.Known)
	b = str(append(b, `,"group":`...), v.Group)
	b = str(append(b, `,"origin":`...), v.Origin)
	b = str(append(b, `,"action":`...), v.Action)
	b = str(append(b, `,"same_arguments":`...), v.SameArguments)
	b = str(append(b, `,"guidance":`...), v.Guidance)
	b = str(append(b, `,"side_effects":`...), v.SideEffects)
	b = appendInt(append(b, `,"http_status":`...), int64(v.HTTPStatus))
	b = str(append(b, `,"log_level":`...), v.LogLevel)
	b = appendBool(append(b, `,"breaker":`...), v.Breaker)
	b = appendBool(append(b, `,"retryable":`...), v.Retryable)
	b = appendBool(append(b, `,"startup":`...), v.Startup)
	b = appendInt(append(b, `,"number":`...), int64(v.Number))
	b = appendInt(append(b, `,"grpc_code":`...), int64(v.GRPCCode))
	b = str(append(b, `,"grpc_status":`...), v.GRPCStatus)
	b = str(append(b, `,"reason":`...), v.Reason)
	return append(b, '}')
}

func (v LookupVec) estimate() int {
	return 260 + strEst(v.Kind) + strEst(v.Group) + strEst(v.Origin) + strEst(v.Action) + strEst(v.SameArguments) +
		strEst(v.Guidance) + strEst(v.SideEffects) + strEst(v.LogLevel) + strEst(v.GRPCStatus) + strEst(v.Reason)
}

func (v EnvelopeVec) appendJSON(b []byte) []byte {
	b = str(append(b, `{"name":`...), v.Name)
	b = append(append(b, `,"envelope":`...), v.Envelope...)
	b = str(append(b, `,"kind":`...), v.Kind)
	b = appendBool(append(b, `,"known":`...), v.Known)
	b = appendBool(append(b, `,"retryable":`...), v.Retryable)
	b = appendInt(append(b, `,"http_status":`...), int64(v.HTTPStatus))
	return append(b, '}')
}

func (v EnvelopeVec) estimate() int {
	return 90 + strEst(v.Name) + len(v.Envelope) + strEst(v.Kind)
}

func (v NextStepVec) appendJSON(b []byte) []byte {
	b = str(append(b, `{"name":`...), v.Name)
	b = append(append(b, `,"envelope":`...), v.Envelope...)
	b = append(b, `,"attempts":`...)
	if v.attemptsJSON != nil {
		b = append(b, v.attemptsJSON...)
	} else {
		b = appendAttempts(b, v.Attempts)
	}
	return append(b, '}')
}

func appendAttempts(b []byte, as []AttemptVec) []byte {
	return appendList(b, len(as), func(b []byte, i int) []byte { return as[i].appendJSON(b) })
}

func (v NextStepVec) estimate() int {
	n := 40 + strEst(v.Name) + len(v.Envelope)
	for _, a := range v.Attempts {
		n += 110 + len(a.Step)
	}
	return n
}

func (a AttemptVec) appendJSON(b []byte) []byte {
	b = appendInt(append(b, `{"attempt":`...), int64(a.Attempt))
	b = str(append(b, `,"step":`...), a.Step)
	b = appendInt(append(b, `,"delay_min_ms":`...), a.DelayMinMs)
	b = appendInt(append(b, `,"delay_max_ms":`...), a.DelayMaxMs)
	b = appendBool(append(b, `,"check_state_first":`...), a.CheckStateFirst)
	b = appendBool(append(b, `,"exhausted":`...), a.Exhausted)
	return append(b, '}')
}

func (v HTTPVec) appendJSON(b []byte) []byte {
	b = str(append(b, `{"name":`...), v.Name)
	b = appendInt(append(b, `,"status":`...), int64(v.Status))
	b = appendHeaders(append(b, `,"headers":`...), v.Headers)
	b = appendList(append(b, `,"header_lines":`...), len(v.HeaderLines), func(b []byte, i int) []byte {
		l := v.HeaderLines[i]
		return append(str(append(str(append(b, '['), l[0]), ','), l[1]), ']')
	})
	b = str(append(b, `,"body":`...), v.Body)
	b = append(append(b, `,"envelope":`...), v.Envelope...)
	b = append(b, `,"error":`...)
	if v.Error == nil {
		b = append(b, "null"...)
	} else {
		b = str(b, *v.Error)
	}
	return append(b, '}')
}

func (v HTTPVec) estimate() int {
	n := 80 + strEst(v.Name) + headersEst(v.Headers) + strEst(v.Body) + len(v.Envelope)
	for _, l := range v.HeaderLines {
		n += 3 + strEst(l[0]) + strEst(l[1])
	}
	if v.Error != nil {
		n += strEst(*v.Error)
	}
	return n
}

// appendHeaders appends a header map as an object sorted by name, as
// sortedHeaders gives it to orderedjson.
func appendHeaders(b []byte, h map[string]string) []byte {
	var store [8]string
	names := store[:0]
	for name := range h {
		names = append(names, name)
	}
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && names[j] < names[j-1]; j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
	b = append(b, '{')
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = str(append(str(b, name), ':'), h[name])
	}
	return append(b, '}')
}

func headersEst(h map[string]string) int {
	n := 2
	for name, value := range h {
		n += 2 + strEst(name) + strEst(value)
	}
	return n
}

func (v SurfaceVec) appendJSON(b []byte) []byte {
	b = str(append(b, `{"name":`...), v.Name)
	b = append(append(b, `,"envelope":`...), v.Envelope...)
	// The HTTP body is the envelope's text, which the problem document ends
	// with and the CLI line holds: escaped once, and its escaped bytes
	// copied into the other two.
	b = v.HTTP.appendHead(append(b, `,"http":`...))
	at := len(b) + 1
	b = str(b, v.HTTP.Body)
	body := escapedText{v.HTTP.Body, b[at : len(b)-1]}
	b = v.HTTP.appendTail(b)
	b = v.Problem.appendHead(append(b, `,"problem":`...))
	b = body.tail().appendIn(b, v.Problem.Body, len(v.Problem.Body)-len(v.HTTP.Body)+1)
	b = v.Problem.appendTail(b)
	b = appendInt(append(b, `,"exit_code":`...), int64(v.ExitCode))
	b = str(append(b, `,"command":`...), v.Command)
	// The line is the body and a newline, or the wrapped form ending in
	// the body, "}" and a newline.
	cliAt := 0
	if !strings.HasPrefix(v.CLI, v.HTTP.Body) {
		cliAt = len(v.CLI) - len(v.HTTP.Body) - len("}\n")
	}
	b = body.appendIn(append(b, `,"cli":`...), v.CLI, cliAt)
	b = append(append(b, `,"log":`...), v.Log...)
	return append(b, '}')
}

// escapedText is a text written as a JSON string (str) and its escaped
// bytes, between the quotes.
type escapedText struct {
	text string
	esc  []byte
}

// tail is e without its first byte, when that byte is written as it is.
func (e escapedText) tail() escapedText {
	if e.text == "" || len(e.esc) == 0 || e.esc[0] != e.text[0] || e.text[0] == '\\' {
		return escapedText{}
	}
	return escapedText{e.text[1:], e.esc[1:]}
}

// appendIn appends s as str writes it, where s holds e.text at offset at:
// e's escaped bytes are copied instead of escaping its text again. That
// gives str's bytes when the byte after each cut is ASCII (no character
// straddles a cut); otherwise, or when s does not hold e.text at at, s is
// escaped whole.
func (e escapedText) appendIn(b []byte, s string, at int) []byte {
	end := at + len(e.text)
	if e.text == "" || at < 0 || end > len(s) || s[at] >= utf8.RuneSelf || end < len(s) && s[end] >= utf8.RuneSelf || s[at:end] != e.text {
		return str(b, s)
	}
	b = orderedjson.AppendEscaped(append(b, '"'), s[:at], false)
	b = append(b, e.esc...)
	return append(orderedjson.AppendEscaped(b, s[end:], false), '"')
}

func (v SurfaceVec) estimate() int {
	return 90 + intEst + strEst(v.Name) + len(v.Envelope) + v.HTTP.estimate() + v.Problem.estimate() +
		strEst(v.Command) + strEst(v.CLI) + len(v.Log)
}

func (v HTTPForm) appendJSON(b []byte) []byte {
	return v.appendTail(str(v.appendHead(b), v.Body))
}

// appendHead is the form up to its body's value, appendTail the rest.
func (v HTTPForm) appendHead(b []byte) []byte {
	b = appendInt(append(b, `{"status":`...), int64(v.Status))
	b = appendHeaders(append(b, `,"headers":`...), v.Headers)
	return append(b, `,"body":`...)
}

func (v HTTPForm) appendTail(b []byte) []byte {
	b = append(append(b, `,"envelope":`...), v.Envelope...)
	return append(b, '}')
}

func (v HTTPForm) estimate() int {
	return 40 + intEst + headersEst(v.Headers) + strEst(v.Body) + len(v.Envelope)
}

func (v MCPErrorVec) appendJSON(b []byte) []byte {
	b = str(append(b, `{"name":`...), v.Name)
	b = append(append(b, `,"envelope":`...), v.Envelope...)
	b = append(append(b, `,"error":`...), v.Error...)
	b = append(append(b, `,"meta":`...), v.Meta...)
	b = append(append(b, `,"upstream":`...), v.Upstream...)
	b = append(append(b, `,"structured_content":`...), v.StructuredContent...)
	return append(b, '}')
}

func (v MCPErrorVec) estimate() int {
	return 80 + strEst(v.Name) + len(v.Envelope) + len(v.Error) + len(v.Meta) + len(v.Upstream) + len(v.StructuredContent)
}

func (v AIPKindVec) appendJSON(b []byte) []byte {
	b = str(append(b, `{"kind":`...), v.Kind)
	b = appendInt(append(b, `,"http_status":`...), int64(v.HTTPStatus))
	b = appendInt(append(b, `,"grpc_code":`...), int64(v.GRPCCode))
	b = str(append(b, `,"grpc_status":`...), v.GRPCStatus)
	b = str(append(b, `,"reason":`...), v.Reason)
	return append(b, '}')
}

func (v AIPKindVec) estimate() int {
	return 60 + 2*intEst + strEst(v.Kind) + strEst(v.GRPCStatus) + strEst(v.Reason)
}

func (v AIPEncodeVec) appendJSON(b []byte) []byte {
	b = str(append(b, `{"name":`...), v.Name)
	b = append(append(b, `,"envelope":`...), v.Envelope...)
	b = str(append(b, `,"aip193":`...), v.AIP193)
	return append(b, '}')
}

func (v AIPEncodeVec) estimate() int {
	return 30 + strEst(v.Name) + len(v.Envelope) + strEst(v.AIP193)
}
