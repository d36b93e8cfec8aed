package agenterror_test

import (
	"encoding/json"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// FuzzEncodeString holds the generated string encoder to encoding/json:
// whatever text a field carries, the JSON the envelope encodes must be
// valid and must read back (through encoding/json) as the text that
// encoding/json itself would have written for it.
func FuzzEncodeString(f *testing.F) {
	for _, s := range []string{"", "a", "plain ascii text", "1234567", "12345678", "123456789",
		"quote\"backslash\\", "tab\tnewline\ncr\r", "\x00\x01\x1f\x7f", "\b\f", "café", "\u2028\u2029",
		"\xff\xfe", "ab\xe2\x82", "seven7\"", "eight888\"", "emoji 👨‍👩‍👧", "<script>&amp;</script>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Assigned, not constructed: a constructor replaces a blank message.
		env := agenterror.NewTrusted(agenterror.KindTimeout, "x")
		env.Message, env.Cause = s, s
		out, err := env.MarshalJSON()
		if err != nil {
			t.Fatalf("MarshalJSON: %v", err)
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON for %q: %s", s, out)
		}
		var got struct{ Message, Cause string }
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		ref, _ := json.Marshal(s)
		var want string
		if err := json.Unmarshal(ref, &want); err != nil {
			t.Fatal(err)
		}
		if got.Message != want || got.Cause != want {
			t.Fatalf("text %q: encoded %s, reads back as %q / %q, want %q", s, out, got.Message, got.Cause, want)
		}
	})
}
