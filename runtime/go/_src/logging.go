package agenterror

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"math"
	"sort"
	"strings"
	"unicode/utf8"
)

// logFormSpec is the type of the structured-log form's table, logForm
// (logging_contract.go): its members in the order LogValue writes them
// (errgen's contract.LogMembers, the same in every language), the bound of
// every text of the form in UTF-8 bytes, and the ellipsis that ends a text
// cut there.
type logFormSpec struct {
	members  []string
	maxBytes int
	ellipsis string
}

// LogValue makes the envelope a slog.LogValuer: slog.Warn("tool call failed", "error", e) logs its structured-log form, the members the TypeScript package's logFields and the Python package's log_fields write: kind, message, origin, action, same_arguments, side_effects, retryable, http_status, retry_after_ms (only with a retry hint), fields (a group of the context and kind-specific fields the envelope carries on the wire, in wire order, under their contract names: text as it is, integers, numbers and booleans as they are, arrays and objects as their compact JSON text) and extra (the compact JSON text of the Extra entries, sorted by key).
//
// It never leaks what the contract sanitizes: it sanitizes the message and each field when sanitize.fields lists it (SanitizedFields; the message is by default), however the envelope was built or received, and extra always; in extra and in a listed array or object field each string, member names included, is sanitized before the value becomes JSON text, and the text again after. Every text is bounded: at most 1024 bytes of UTF-8, cut at a character boundary and ended with "…", so no log line grows with what an upstream sends. A nil envelope logs as an empty value.
func (e *Envelope) LogValue() slog.Value {
	if e == nil {
		return slog.Value{}
	}
	attrs := make([]slog.Attr, 0, len(logForm.members))
	for _, m := range logForm.members {
		switch m {
		case "kind":
			attrs = append(attrs, slog.String(m, boundLogText(string(e.Kind))))
		case "message":
			attrs = logText(attrs, m, e.Message, logSanitizesMessage, true)
		case "origin":
			attrs = append(attrs, slog.String(m, boundLogText(string(e.Origin))))
		case "action":
			attrs = append(attrs, slog.String(m, boundLogText(string(e.Recovery.Action))))
		case "same_arguments":
			attrs = append(attrs, slog.String(m, boundLogText(string(e.Recovery.SameArguments))))
		case "side_effects":
			attrs = append(attrs, slog.String(m, boundLogText(string(e.SideEffects))))
		case "retryable":
			attrs = append(attrs, slog.Bool(m, e.IsRetryable()))
		case "http_status":
			attrs = append(attrs, slog.Int(m, e.HTTPStatus()))
		case "retry_after_ms":
			attrs = logInt(attrs, m, e.Recovery.RetryAfterMs)
		case "fields":
			if fields := e.logFields(); len(fields) > 0 {
				attrs = append(attrs, slog.Attr{Key: m, Value: slog.GroupValue(fields...)})
			}
		case "extra":
			if s, ok := extraJSON(e.Extra); ok {
				attrs = append(attrs, slog.String(m, boundLogText(logSanitizeJSON(s))))
			}
		}
	}
	return slog.GroupValue(attrs...)
}

var _ slog.LogValuer = (*Envelope)(nil)

// The members of the log form's fields group, one helper per type of
// field: each appends the field's attribute to attrs when the envelope
// carries the field (as the encoder decides), under its contract name.
// logFields (logging_contract.go) calls them field by field in wire order.

// logText appends a text; empty text is left out unless always is set.
func logText(attrs []slog.Attr, name, v string, sanitized, always bool) []slog.Attr {
	if v == "" && !always {
		return attrs
	}
	if sanitized {
		v = Sanitize(v)
	}
	return append(attrs, slog.String(name, boundLogText(v)))
}

// logInt appends an integer.
func logInt(attrs []slog.Attr, name string, v *int64) []slog.Attr {
	if v == nil {
		return attrs
	}
	return append(attrs, slog.Int64(name, *v))
}

// logNumber appends a number; NaN and the infinities, which no JSON
// carries, are left out.
func logNumber(attrs []slog.Attr, name string, v *float64) []slog.Attr {
	if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
		return attrs
	}
	return append(attrs, slog.Float64(name, *v))
}

// logBool appends a boolean.
func logBool(attrs []slog.Attr, name string, v *bool) []slog.Attr {
	if v == nil {
		return attrs
	}
	return append(attrs, slog.Bool(name, *v))
}

// logValueJSON appends an array or object, present on the wire when
// present is set, as its compact JSON text (logJSON), whose strings a
// sanitized field has sanitized one by one before the text whole
// (logSanitizeJSON). A value JSON cannot carry is left out.
func logValueJSON[T any](attrs []slog.Attr, name string, v T, present, sanitized bool) []slog.Attr {
	if !present {
		return attrs
	}
	s, ok := logJSON(v)
	if !ok {
		return attrs
	}
	if sanitized {
		s = logSanitizeJSON(s)
	}
	return append(attrs, slog.String(name, boundLogText(s)))
}

// boundLogText cuts s after at most logForm.maxBytes bytes, at a character
// boundary, and ends it with logForm.ellipsis, so that no log line grows
// with what an upstream sends.
func boundLogText(s string) string {
	if len(s) <= logForm.maxBytes {
		return s
	}
	n := logForm.maxBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + logForm.ellipsis
}

// oneLine is s as the string forms write text: on one line and without
// controls. Tab, line feed, carriage return, U+2028 and U+2029 become
// spaces; every other C0 control, DEL and every C1 control is deleted, as
// the sanitizer deletes them; an ill-formed byte becomes U+FFFD. Text with
// none of them is returned as it is.
func oneLine(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if oneLineChanges(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029:
			b.WriteByte(' ')
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
		default:
			b.WriteRune(r) // an ill-formed byte comes as utf8.RuneError, U+FFFD
		}
	}
	return b.String()
}

// oneLineChanges reports whether oneLine changes the character r, read in n
// bytes (an ill-formed byte reads as utf8.RuneError in one).
func oneLineChanges(r rune, n int) bool {
	return r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == utf8.RuneError && n == 1
}

// stringText is a text of the string forms (Error, Format): on one line
// (oneLine), sanitized when sanitized is set, and bounded as the log form's
// texts are (boundLogText). The line breaks go before the sanitizer reads
// the text, so a secret split by one is read whole (Bearer, then a line
// feed, then the token).
func stringText(s string, sanitized bool) string {
	s = oneLine(s)
	if sanitized {
		s = oneLine(Sanitize(s))
	}
	return boundLogText(s)
}

// logJSON is the compact JSON text of v as every package's log form writes
// it: <, > and & as they are (unlike encoding/json's default), U+2028 and
// U+2029 escaped. ok is false for a value JSON cannot carry.
func logJSON(v any) (string, bool) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", false
	}
	return string(wellFormedJSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))), true
}

// extraJSON is the compact JSON object of the Extra entries, keyed by path
// and sorted, each value's compact JSON as logJSON writes it: the log
// form's extra (which sanitizes and bounds it) and the google.rpc
// metadata's (as it is). An entry JSON cannot carry is left out; ok is
// false when none is left (the text is then {}).
func extraJSON(extra map[string]any) (text string, ok bool) {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b := []byte{'{'}
	for _, k := range keys {
		v, ok := logJSON(extra[k])
		if !ok {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(append(b, ':'), v...)
	}
	return string(append(b, '}')), len(b) > 1
}

// logSanitizeJSON sanitizes the compact JSON text t (logJSON's) as the log
// form writes it: each string first, member names included, decoded from
// its escapes, so that an escaped control cannot split a secret the
// sanitizer would find in the text itself; then the text whole, so that a
// secret spread over a member's name and its value ("password":"…") goes
// too.
func logSanitizeJSON(t string) string {
	return Sanitize(sanitizeJSONStrings(t))
}

// sanitizeJSONStrings returns the JSON text t with each string in it,
// member names included, sanitized: a string the sanitizer changes is
// written again as logJSON writes one. t is valid JSON; the text between
// strings is kept as it is.
func sanitizeJSONStrings(t string) string {
	var b []byte // nil while nothing has changed
	last := 0
	eachJSONString(t, true, func(i, j int, s string) {
		if c := Sanitize(s); c != s {
			enc, _ := logJSON(c)
			b = append(append(b, t[last:i]...), enc...)
			last = j + 1
		}
	})
	if b == nil {
		return t
	}
	return string(append(b, t[last:]...))
}
