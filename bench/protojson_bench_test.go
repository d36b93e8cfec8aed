package bench

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/errgen/errgen/gen/go/agenterror"
	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
)

// typical is the envelope every comparison of issue 10 shares: kind, message,
// recovery with retry_after, three context fields.
func typical() *agenterror.Envelope {
	return agenterror.NewRateLimited("upstream github is rate limited").
		WithRetryAfter(1500 * time.Millisecond).
		WithTool("search_issues").WithUpstream("github").WithService("gateway")
}

// typicalStatus carries the same content the way a gRPC service would: the
// kind as ErrorInfo.reason, the classification and context as ErrorInfo
// metadata, the retry hint as RetryInfo. anypb.New marshals each detail to
// binary, as every producer of a google.rpc.Status must.
func typicalStatus() (*status.Status, error) {
	info, err := anypb.New(&errdetails.ErrorInfo{
		Reason: "rate_limited",
		Domain: "agent-error",
		Metadata: map[string]string{
			"contract_version": "1",
			"origin":           "budget",
			"action":           "retry_later",
			"same_arguments":   "conditional",
			"guidance":         "Wait at least retry_after_ms when it is present, lower your request rate or concurrency, then retry.",
			"side_effects":     "none_expected",
			"service":          "gateway",
			"tool":             "search_issues",
			"upstream":         "github",
		},
	})
	if err != nil {
		return nil, err
	}
	retry, err := anypb.New(&errdetails.RetryInfo{RetryDelay: durationpb.New(1500 * time.Millisecond)})
	if err != nil {
		return nil, err
	}
	return &status.Status{
		Code:    int32(code.Code_RESOURCE_EXHAUSTED),
		Message: "upstream github is rate limited",
		Details: []*anypb.Any{info, retry},
	}, nil
}

var (
	sinkBytes []byte
	sinkInt   int
)

// Both sides carry the same facts; the test shows the protojson form once.
func TestSameContent(t *testing.T) {
	s, err := typicalStatus()
	if err != nil {
		t.Fatal(err)
	}
	pj, err := protojson.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back status.Status
	if err := protojson.Unmarshal(pj, &back); err != nil {
		t.Fatal(err)
	}
	var info errdetails.ErrorInfo
	var retry errdetails.RetryInfo
	if err := back.Details[0].UnmarshalTo(&info); err != nil {
		t.Fatal(err)
	}
	if err := back.Details[1].UnmarshalTo(&retry); err != nil {
		t.Fatal(err)
	}
	e := typical()
	if info.Reason != string(e.Kind) || back.Message != e.Message || info.Metadata["guidance"] != e.Recovery.Guidance ||
		retry.RetryDelay.AsDuration().Milliseconds() != *e.Recovery.RetryAfterMs || info.Metadata["tool"] != e.Tool {
		t.Errorf("protojson carries different content: %s", pj)
	}
	ej, _ := e.MarshalJSON()
	t.Logf("errgen    %4d bytes: %s", len(ej), ej)
	t.Logf("protojson %4d bytes: %s", len(pj), pj)
}

// BenchmarkConstructMarshal builds the typical failure and encodes it as JSON.
// Both sides append to a buffer reused across iterations: errgen with
// AppendJSON, protojson with MarshalOptions.MarshalAppend (its appending
// form). errgen_MarshalJSON and protojson_Marshal allocate their output.
func BenchmarkConstructMarshal(b *testing.B) {
	b.Run("impl=errgen", func(b *testing.B) {
		var buf []byte
		b.ReportAllocs()
		for b.Loop() {
			var err error
			if buf, err = typical().AppendJSON(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	b.Run("impl=protojson", func(b *testing.B) {
		var buf []byte
		b.ReportAllocs()
		for b.Loop() {
			s, err := typicalStatus()
			if err != nil {
				b.Fatal(err)
			}
			if buf, err = (protojson.MarshalOptions{}).MarshalAppend(buf[:0], s); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	b.Run("impl=errgen_MarshalJSON", func(b *testing.B) {
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
	b.Run("impl=protojson_Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := typicalStatus()
			if err != nil {
				b.Fatal(err)
			}
			if sinkBytes, err = protojson.Marshal(s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDecode decodes the typical failure. protojson resolves each Any
// through the global registry and re-encodes it to binary, so reading the
// details takes UnmarshalTo as well: protojson includes it (what a consumer
// must do to reach the reason and the retry delay), protojson_status_only
// stops at the Status.
func BenchmarkDecode(b *testing.B) {
	data, err := typical().MarshalJSON()
	if err != nil {
		b.Fatal(err)
	}
	s, err := typicalStatus()
	if err != nil {
		b.Fatal(err)
	}
	pj, err := protojson.Marshal(s)
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
			sinkInt = len(e.Kind) + int(*e.Recovery.RetryAfterMs)
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
			sinkInt = len(e.Kind) + int(*e.Recovery.RetryAfterMs)
		}
	})
	b.Run("impl=protojson", func(b *testing.B) {
		b.SetBytes(int64(len(pj)))
		b.ReportAllocs()
		for b.Loop() {
			var st status.Status
			if err := protojson.Unmarshal(pj, &st); err != nil {
				b.Fatal(err)
			}
			var info errdetails.ErrorInfo
			var retry errdetails.RetryInfo
			if err := st.Details[0].UnmarshalTo(&info); err != nil {
				b.Fatal(err)
			}
			if err := st.Details[1].UnmarshalTo(&retry); err != nil {
				b.Fatal(err)
			}
			sinkInt = len(info.Reason) + int(retry.RetryDelay.AsDuration().Milliseconds())
		}
	})
	b.Run("impl=protojson_status_only", func(b *testing.B) {
		b.SetBytes(int64(len(pj)))
		b.ReportAllocs()
		for b.Loop() {
			var st status.Status
			if err := protojson.Unmarshal(pj, &st); err != nil {
				b.Fatal(err)
			}
			sinkInt = len(st.Details)
		}
	})
}
