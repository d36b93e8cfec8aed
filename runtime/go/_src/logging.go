package agenterror

import (
	"bytes"
	"encoding/json"
	"sort"
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
	return boundLogText(Sanitize(string(append(b, '}')))), true
}
