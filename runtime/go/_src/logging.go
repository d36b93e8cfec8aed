package agenterror

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"unicode/utf8"
)

// The bound of every text of the log form (LogValue), in UTF-8 bytes, and
// the ellipsis that ends a text cut there: errgen's contract.LogMaxBytes and
// LogEllipsis, the same in every language.
const (
	logMaxBytes = 1024
	logEllipsis = "…"
)

// boundLogText cuts s after at most logMaxBytes bytes, at a character
// boundary, and ends it with logEllipsis, so that no log line grows with
// what an upstream sends.
func boundLogText(s string) string {
	if len(s) <= logMaxBytes {
		return s
	}
	n := logMaxBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + logEllipsis
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

// logExtra is the extra member of the log form: the compact JSON text of
// the Extra entries, keyed by path and sorted, sanitized and bounded; ok is
// false when there is none. An entry JSON cannot carry is left out.
func logExtra(extra map[string]any) (string, bool) {
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
		name, _ := logJSON(k)
		b = append(append(append(b, name...), ':'), v...)
	}
	if len(b) == 1 {
		return "", false
	}
	return boundLogText(logSanitizeJSON(string(append(b, '}')))), true
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
