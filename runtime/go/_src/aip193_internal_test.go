package agenterror

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// parseAIP193 reads a document with the envelope's scanner and leaves the
// ones it cannot read to parseAIP193JSON, whose encoding/json reading
// defines the result; the two must agree on every document, errors
// included. They are compared on documents the way the mapping and
// protojson write them and on many mutations of those: members repeated,
// reordered, of other types, escaped, cut short, nested past MaxDepth.
func TestParseAIP193SameAsJSON(t *testing.T) {
	seeds := []string{
		`{"error":{"code":429,"message":"upstream github is rate limited","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMITED","domain":"agent-error","metadata":{"contractVersion":"1","guidance":"Wait, then retry.","kind":"rate_limited","origin":"budget","recoveryAction":"retry_later","tool":"search_issues"}},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1.500s"}]}}`,
		`{"error": {"details": [{"retryDelay": "2s", "@type": "type.googleapis.com/google.rpc.RetryInfo"}, {"metadata": {"kind": "not_found", "extra": "{\"a\":1}"}, "domain": "agent-error", "reason": "NOT_FOUND", "@type": "type.googleapis.com/google.rpc.ErrorInfo"}], "status": "NOT_FOUND", "message": "m\u00e9\n", "code": 404.0}}`,
		`{"error":{"code":503,"message":"busy","status":"UNAVAILABLE"}}`,
		// RetryInfo's proto field name counts when its JSON name is absent (issue 29).
		`{"error":{"code":503,"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retry_delay":"1s","retry_delay":"2.5s"}]}}`,
		`{"error":{"code":503,"details":[{"retry_delay":"2.5s","@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":7}]}}`,
		`{"error":{"details":[{"@type":"type.googleapis.com\/google.rpc.ErrorInfo","metadata":{"k":1,"k":"v","j":"w","j":null}},{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SECOND"}]},"error":{"code":4.29e2}}`,
	}
	pieces := []string{"{", "}", "[", "]", `"`, ",", ":", `\`, `\u00e9`, `\ud800`, "\xff", " ", "null", "true", "0", "404",
		"404.0", "4.04e2", "-1", "1e999", "599.5", `""`, "[]", "{}", `"error"`, `"code"`, `"message"`, `"status"`,
		`"details"`, `"metadata"`, `"@type"`, `"reason"`, `"domain"`, `"retryDelay"`, `"retry_delay"`, `"kind"`, `"1.5s"`, `"-1s"`,
		`"type.googleapis.com/google.rpc.ErrorInfo"`, `"type.googleapis.com/google.rpc.RetryInfo"`, `"NOT_FOUND"`,
		strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2)}
	r := rand.New(rand.NewSource(193))
	mutate := func(b []byte) []byte {
		out := append([]byte(nil), b...)
		i := r.Intn(len(out) + 1)
		p := pieces[r.Intn(len(pieces))]
		switch r.Intn(5) {
		case 0: // delete a run
			j := min(len(out), i+r.Intn(8))
			out = append(out[:i:i], out[j:]...)
		case 1: // insert a piece
			out = append(out[:i:i], append([]byte(p), out[i:]...)...)
		case 2: // repeat a run starting at a member
			k := strings.Index(string(out[i:]), `,"`)
			if k < 0 {
				break
			}
			k += i
			e := k + 1 + r.Intn(len(out)-k)
			out = append(out[:k:k], append(append([]byte(nil), out[k:e]...), out[k:]...)...)
		default: // replace a member's value
			k := strings.Index(string(out[i:]), ":")
			if k < 0 {
				break
			}
			k += i + 1
			e := k
			for e < len(out) && out[e] != ',' && out[e] != '}' {
				e++
			}
			out = append(out[:k:k], append([]byte(p), out[e:]...)...)
		}
		return out
	}
	check := func(data []byte) {
		t.Helper()
		got, gotErr := parseAIP193(data)
		want, wantErr := parseAIP193JSON(data)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotErr, wantErr) {
			t.Fatalf("%q:\nscanner       %+v, %v\nencoding/json %+v, %v", data, got, gotErr, want, wantErr)
		}
	}
	for _, s := range seeds {
		check([]byte(s))
		for n := 0; n < 5000; n++ {
			data := mutate([]byte(s))
			if r.Intn(2) == 0 {
				data = mutate(data)
			}
			check(data)
		}
	}
}
