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

// The comparisons of issue 10: what a team would otherwise write by hand, an
// encoding/json struct carrying the same envelope, side by side with the
// generated package on the same content. Sub-benchmark names are what
// `make bench` pairs to compute ratios.

type handRecovery struct {
	Action        string `json:"action"`
	SameArguments string `json:"same_arguments"`
	Guidance      string `json:"guidance"`
	RetryAfterMs  *int64 `json:"retry_after_ms,omitempty"`
}

type handEnvelope struct {
	ContractVersion int          `json:"contract_version"`
	Kind            string       `json:"kind"`
	Message         string       `json:"message"`
	Origin          string       `json:"origin"`
	Recovery        handRecovery `json:"recovery"`
	SideEffects     string       `json:"side_effects"`
	Service         string       `json:"service,omitempty"`
	Tool            string       `json:"tool,omitempty"`
	Upstream        string       `json:"upstream,omitempty"`
}

// handTypical builds the typical envelope the way hand-written code would:
// the classification written out as literals at the call site.
func handTypical() *handEnvelope {
	ms := int64(1500)
	return &handEnvelope{
		ContractVersion: 1,
		Kind:            "rate_limited",
		Message:         "upstream github is rate limited",
		Origin:          "budget",
		Recovery: handRecovery{
			Action:        "retry_later",
			SameArguments: "conditional",
			Guidance:      "Wait at least retry_after_ms when it is present, lower your request rate or concurrency, then retry.",
			RetryAfterMs:  &ms,
		},
		SideEffects: "none_expected",
		Service:     "gateway",
		Tool:        "search_issues",
		Upstream:    "github",
	}
}

// The comparison is only fair when both sides put the same bytes on the wire.
func TestHandWrittenIsEquivalent(t *testing.T) {
	gen, err := typical().MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	hand, err := json.Marshal(handTypical())
	if err != nil {
		t.Fatal(err)
	}
	if string(gen) != string(hand) {
		t.Fatalf("generated:    %s\nhand-written: %s", gen, hand)
	}
}

// BenchmarkConstructMarshal builds the typical envelope and encodes it.
// errgen calls the generated MarshalJSON, errgen_json.Marshal goes through
// encoding/json (which calls MarshalJSON, then validates and compacts its
// output), encoding_json is the hand-written struct.
func BenchmarkConstructMarshal(b *testing.B) {
	b.Run("impl=errgen", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBytes, _ = typical().MarshalJSON()
		}
	})
	b.Run("impl=errgen_json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBytes, _ = json.Marshal(typical())
		}
	})
	b.Run("impl=encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkBytes, _ = json.Marshal(handTypical())
		}
	})
}

var sinkHand handEnvelope

// BenchmarkDecode decodes the typical envelope's bytes. errgen calls the
// generated UnmarshalJSON, errgen_json.Unmarshal goes through encoding/json
// (which scans the input before calling UnmarshalJSON), encoding_json decodes
// into the hand-written struct.
func BenchmarkDecode(b *testing.B) {
	data, err := typical().MarshalJSON()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("impl=errgen", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var e agenterror.Envelope
			if err := e.UnmarshalJSON(data); err != nil {
				b.Fatal(err)
			}
			sinkClass.HTTPStatus = len(e.Message)
		}
	})
	b.Run("impl=errgen_json.Unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var e agenterror.Envelope
			if err := json.Unmarshal(data, &e); err != nil {
				b.Fatal(err)
			}
			sinkClass.HTTPStatus = len(e.Message)
		}
	})
	b.Run("impl=encoding_json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var e handEnvelope
			if err := json.Unmarshal(data, &e); err != nil {
				b.Fatal(err)
			}
			sinkHand = e
		}
	})
}
