package agenterror_test

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// A member given twice counts once, with its last value (as with
// encoding/json). The decoder keeps members no field claims for Extra, and
// it must keep only the last of each name: a document that repeats one
// unknown member millions of times is a few megabytes of input, and must not
// cost gigabytes (issue 15, item 8: 64 MB of repeated unknown members once
// allocated 4.7 GB, with a peak of 2.8 GB).

// noLimit reads the documents of these tests, which are past
// MaxDocumentBytes.
var noLimit = agenterror.DecodeOptions{MaxBytes: -1}

// repeated returns an envelope whose root and recovery object each repeat
// the member rep until the document is about size bytes.
func repeated(size int, rep string) []byte {
	head := `{"contract_version":1,"kind":"rate_limited","message":"m","origin":"budget",` +
		`"recovery":{"action":"retry_later","same_arguments":"conditional","guidance":"g",`
	mid := `},"side_effects":"none_expected",`
	var b bytes.Buffer
	b.Grow(size + 1024)
	b.WriteString(head)
	n := (size - len(head) - len(mid)) / (2 * (len(rep) + 1))
	for i := 0; i < n; i++ {
		b.WriteString(rep)
		b.WriteByte(',')
	}
	b.WriteString(`"retry_after_ms":1500`)
	b.WriteString(mid)
	for i := 0; i < n; i++ {
		b.WriteString(rep)
		b.WriteByte(',')
	}
	b.WriteString(`"tool":"t"}`)
	return b.Bytes()
}

// The repeated members the memory tests use: a small unknown value, a
// larger one, an unknown member holding an object, and a member the layout
// owns.
var repeatedShapes = []struct{ name, member string }{
	{"unknown_number", `"x":1`},
	{"unknown_string", `"x_note":"` + strings.Repeat("n", 100) + `"`},
	{"unknown_object", `"x_obj":{"a":[1,2,{"b":null}],"c":"d"}`},
	{"known_string", `"upstream":"github"`},
}

// allocated returns the bytes decoding data allocates, the least of three
// runs (a run can pick up a stray allocation of the runtime).
func allocated(t *testing.T, data []byte) uint64 {
	t.Helper()
	best := ^uint64(0)
	var before, after runtime.MemStats
	for range 3 {
		runtime.GC()
		runtime.ReadMemStats(&before)
		e, err := noLimit.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		best = min(best, after.TotalAlloc-before.TotalAlloc)
		runtime.KeepAlive(e)
	}
	return best
}

// TestDecodeRepeatedMembersMemory: decoding 4 MiB of repeated members
// allocates less than the input's own size, whatever is repeated. (Total
// allocation bounds the peak; the bound is far from what the decoder needs,
// so the test does not flake, and far below what keeping every repetition
// costs.)
func TestDecodeRepeatedMembersMemory(t *testing.T) {
	for _, s := range repeatedShapes {
		t.Run(s.name, func(t *testing.T) {
			data := repeated(4<<20, s.member)
			e, err := noLimit.Unmarshal(data)
			if err != nil {
				t.Fatal(err)
			}
			if e.Tool != "t" || e.Recovery.RetryAfterMs == nil || *e.Recovery.RetryAfterMs != 1500 {
				t.Fatalf("decoded %+v", e)
			}
			if len(e.Extra) > 2 {
				t.Fatalf("Extra has %d entries, want the last of each name", len(e.Extra))
			}
			if got := allocated(t, data); got >= uint64(len(data)) {
				t.Errorf("decoding %d bytes of %s repeated allocated %d bytes (%.1f× the input), want less than the input",
					len(data), s.member, got, float64(got)/float64(len(data)))
			}
		})
	}
}

// TestDecodeRepeatedMembersLastWins: of an unknown member given several
// times, Extra keeps the last value, in the root and in a nested object,
// however many there are (the decoder indexes the names past a few).
func TestDecodeRepeatedMembersLastWins(t *testing.T) {
	for _, n := range []int{2, 9, 40} {
		var b strings.Builder
		b.WriteString(`{"contract_version":1,"kind":"k","message":"m","origin":"o","recovery":{"action":"a","same_arguments":"s","guidance":"g"`)
		for i := range n {
			// Distinct names, each given twice: the first value, then
			// (after all the others) the second.
			b.WriteString(`,"r` + string(rune('a'+i%26)) + strings.Repeat("_", i/26) + `":1`)
		}
		for i := range n {
			b.WriteString(`,"r` + string(rune('a'+i%26)) + strings.Repeat("_", i/26) + `":[` + strings.Repeat("2", i+1) + `]`)
		}
		b.WriteString(`},"side_effects":"s","x":"first","y":1,"x":{"second":true},"y":null}`)
		var e agenterror.Envelope
		if err := e.UnmarshalJSON([]byte(b.String())); err != nil {
			t.Fatal(err)
		}
		if len(e.Extra) != n+2 {
			t.Fatalf("n=%d: Extra has %d entries, want %d: %v", n, len(e.Extra), n+2, e.Extra)
		}
		if got, _ := e.Extra["x"].(json.RawMessage); string(got) != `{"second":true}` {
			t.Errorf("n=%d: x = %s, want the last value", n, got)
		}
	}
}

// BenchmarkDecodeRepeatedMembers decodes 64 MiB of one member repeated
// (half in the root, half in recovery). B/op is what the decoder allocates
// in total, an upper bound of its peak; encoding_json decodes the same
// document into a map of raw members, for comparison.
func BenchmarkDecodeRepeatedMembers(b *testing.B) {
	for _, s := range repeatedShapes {
		data := repeated(64<<20, s.member)
		b.Run("shape="+s.name+"/impl=errgen", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := noLimit.Unmarshal(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("shape="+s.name+"/impl=encoding_json", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var m map[string]json.RawMessage
				if err := json.Unmarshal(data, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
