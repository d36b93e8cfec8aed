package agenterror_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/tests/go/sanitizediff"
)

// appendShapes are the buffers AppendSanitizeMax is tried with: nil, a
// prefix with no room after it, and a reused buffer with a prefix and old
// bytes in the room after it (which the repair writes into): room for
// any output of an input of n bytes at a maximum of max code points.
func appendShapes(n, max int) [][]byte {
	room := make([]byte, 7, 7+3*min(n, 4*max)+64)
	copy(room, "prefix:")
	old := room[len(room):cap(room)]
	for i := range old {
		old[i] = "\xffghp_<|"[i%7]
	}
	return [][]byte{nil, []byte("prefix:"), room}
}

// checkAppend holds AppendSanitizeMax(dst, in, max) to want for every
// buffer shape: the prefix is kept, what follows it is want.
func checkAppend(t *testing.T, name, in string, max int, want string) {
	t.Helper()
	for i, dst := range appendShapes(len(in), max) {
		prefix := string(dst)
		got := agenterror.AppendSanitizeMax(dst, in, max)
		if !bytes.HasPrefix(got, []byte(prefix)) || string(got[len(prefix):]) != want {
			t.Errorf("%s, buffer %d: AppendSanitizeMax(%q…) = %q…, want %q + Sanitize's %q…",
				name, i, trim(in), trim(string(got)), prefix, trim(want))
		}
	}
}

func trim(s string) string {
	if len(s) > 60 {
		return s[:60]
	}
	return s
}

// TestAppendSanitizeVectors: AppendSanitizeMax appends exactly
// SanitizeMax's output on the shared vectors.
func TestAppendSanitizeVectors(t *testing.T) {
	f := gentest.ReadSanitizerVectors(t, sanitizerVectors)
	for _, c := range f.Cases {
		max := f.Policy.MaxLength
		if c.MaxLength != 0 {
			max = c.MaxLength
		}
		checkAppend(t, c.Name, c.Input.Value, max, c.Output.Value)
	}
	if got := string(agenterror.AppendSanitize([]byte("x"), "a\x00b\xff")); got != "x"+agenterror.Sanitize("a\x00b\xff") {
		t.Errorf("AppendSanitize = %q", got)
	}
}

// TestAppendSanitizeDifferential: the same on the differential vectors
// (make sanitize-diff's generator, random, crafted and edge cases), whose
// outputs are SanitizeMax's.
func TestAppendSanitizeDifferential(t *testing.T) {
	cfg := sanitizediff.Config{Seed: 20261130, N: 1500, MaxLength: agenterror.SanitizeMaxLength,
		Marker: agenterror.SanitizeTruncationMarker, SanitizeMax: agenterror.SanitizeMax}
	cases := append(sanitizediff.Generate(cfg), sanitizediff.Crafted(cfg)...)
	cases = append(cases, sanitizediff.Edge(cfg)...)
	for _, c := range cases {
		max := cfg.MaxLength
		if c.MaxLength != 0 {
			max = c.MaxLength
		}
		checkAppend(t, c.Name, c.Input, max, c.Output)
	}
}

// TestAppendSanitizeNoAllocation: into a buffer with room, clean text,
// text cut in a character or with a few ill-formed bytes, and text only
// too long cost no allocation, and give Sanitize's output.
func TestAppendSanitizeNoAllocation(t *testing.T) {
	clean := strings.Repeat("upstream api.example.com:443 answered 503 (Service Unavailable); retry_after=2s … Grüße → ", 20)[:1500]
	buf := make([]byte, 0, 8<<10)
	for _, in := range []string{
		clean,
		clean + "\xe2\x86",
		"\xff" + clean,
		clean[:700] + "\xc3\xed\xa0\x80" + clean[700:] + "\xff",
		strings.Repeat(clean, 3),          // truncated
		strings.Repeat(clean, 3) + "\xf0", // repaired and truncated
	} {
		want := agenterror.Sanitize(in)
		if got := agenterror.AppendSanitize(buf[:0], in); string(got) != want {
			t.Errorf("AppendSanitize(…%q) = …%q, want …%q", in[len(in)-20:], got[len(got)-20:], want[len(want)-20:])
		}
		if n := testing.AllocsPerRun(50, func() { buf = agenterror.AppendSanitize(buf[:0], in) }); n != 0 {
			t.Errorf("AppendSanitize(…%q) allocated %.0f times, want 0", in[len(in)-20:], n)
		}
	}
}
