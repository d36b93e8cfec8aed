package agenterror_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// These benchmarks cover the generated package's hot paths: every error path
// of a busy gateway looks a kind up, builds an envelope and marshals it.

var sinkClass agenterror.Classification

func BenchmarkLookupKnown(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkClass = agenterror.Lookup(agenterror.KindDecodeError) // the last kind: the longest search
	}
}

func BenchmarkLookupUnknown(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkClass = agenterror.Lookup("not_a_kind")
	}
}

var sinkEnv *agenterror.Envelope

// typical is the envelope the benchmarks share: kind, message, recovery with
// retry_after, three context fields.
func typical() *agenterror.Envelope {
	return agenterror.NewRateLimited("upstream github is rate limited").
		WithRetryAfter(1500 * time.Millisecond).
		WithTool("search_issues").WithUpstream("github").WithService("gateway")
}

func BenchmarkConstruct(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkEnv = typical()
	}
}

var sinkBytes []byte

func BenchmarkMarshal(b *testing.B) {
	e := typical()
	b.ReportAllocs()
	for b.Loop() {
		sinkBytes, _ = json.Marshal(e)
	}
}

func BenchmarkMarshalJSONMethod(b *testing.B) {
	e := typical()
	b.ReportAllocs()
	for b.Loop() {
		sinkBytes, _ = e.MarshalJSON()
	}
}

func BenchmarkUnmarshal(b *testing.B) {
	data, err := json.Marshal(typical())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var e agenterror.Envelope
		if err := e.UnmarshalJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}
