package bench

import (
	"encoding/json"
	"maps"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
)

// aipStatus is the google.rpc.Status of the typical envelope as the
// google.rpc mapping builds it (RPCStatus), built the way a gRPC service
// would build it by hand: the same code, message, ErrorInfo (reason, domain,
// the metadata literal) and RetryInfo, each detail marshalled into an Any.
func aipStatus() (*status.Status, error) {
	info, err := anypb.New(&errdetails.ErrorInfo{
		Reason: "RATE_LIMITED",
		Domain: "agent-error",
		Metadata: map[string]string{
			"contractVersion": "1",
			"guidance":        "Wait at least retry_after_ms when it is present, lower your request rate or concurrency, then retry.",
			"kind":            "rate_limited",
			"origin":          "budget",
			"recoveryAction":  "retry_later",
			"sameArguments":   "conditional",
			"service":         "gateway",
			"sideEffects":     "none_expected",
			"tool":            "search_issues",
			"upstream":        "github",
		},
	})
	if err != nil {
		return nil, err
	}
	retry, err := anypb.New(&errdetails.RetryInfo{RetryDelay: &durationpb.Duration{Seconds: 1, Nanos: 500_000_000}})
	if err != nil {
		return nil, err
	}
	return &status.Status{Code: 8, Message: "upstream github is rate limited", Details: []*anypb.Any{info, retry}}, nil
}

// The hand-built status carries exactly what the mapping writes, and
// protojson's details are the AIP-193 JSON's.
func TestAIP193SameContent(t *testing.T) {
	s, err := aipStatus()
	if err != nil {
		t.Fatal(err)
	}
	rs, err := typical().RPCStatus()
	if err != nil {
		t.Fatal(err)
	}
	var info errdetails.ErrorInfo
	var retry errdetails.RetryInfo
	if err := s.Details[0].UnmarshalTo(&info); err != nil {
		t.Fatal(err)
	}
	if err := s.Details[1].UnmarshalTo(&retry); err != nil {
		t.Fatal(err)
	}
	if int(s.Code) != rs.Code || s.Message != rs.Message || info.Reason != rs.Reason || info.Domain != rs.Domain ||
		!maps.Equal(info.Metadata, rs.Metadata) || retry.RetryDelay.Seconds != rs.RetryDelay.Seconds || retry.RetryDelay.Nanos != rs.RetryDelay.Nanos {
		t.Fatalf("the hand-built status differs from RPCStatus:\n%v\n%+v", s, rs)
	}
	pj, err := protojson.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	aip := rs.AppendAIP193(nil)
	var p struct{ Details []any }
	var a struct{ Error struct{ Details []any } }
	if json.Unmarshal(pj, &p) != nil || json.Unmarshal(aip, &a) != nil {
		t.Fatal("not JSON")
	}
	pd, _ := json.Marshal(p.Details)
	ad, _ := json.Marshal(a.Error.Details)
	if string(pd) != string(ad) {
		t.Errorf("details differ:\nprotojson %s\nAIP-193   %s", pd, ad)
	}
	t.Logf("AIP-193   %4d bytes: %s", len(aip), aip)
	t.Logf("protojson %4d bytes: %s", len(pj), pj)
}

// BenchmarkAIP193 builds the typical failure and encodes it as its
// google.rpc.Status in JSON, each side appending to a buffer reused across
// iterations: errgen with RPCStatus and AppendAIP193 (AIP-193's JSON form),
// protojson with MarshalAppend of the same status built by hand. Then each
// reads it back: errgen with FromAIP193 (the envelope, every value in
// place), protojson with Unmarshal and UnmarshalTo of both details.
func BenchmarkAIP193(b *testing.B) {
	b.Run("op=encode/impl=errgen", func(b *testing.B) {
		var buf []byte
		b.ReportAllocs()
		for b.Loop() {
			s, err := typical().RPCStatus()
			if err != nil {
				b.Fatal(err)
			}
			buf = s.AppendAIP193(buf[:0])
		}
		sinkBytes = buf
	})
	b.Run("op=encode/impl=protojson", func(b *testing.B) {
		var buf []byte
		b.ReportAllocs()
		for b.Loop() {
			s, err := aipStatus()
			if err != nil {
				b.Fatal(err)
			}
			if buf, err = (protojson.MarshalOptions{}).MarshalAppend(buf[:0], s); err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = buf
	})
	aip, err := typical().AIP193()
	if err != nil {
		b.Fatal(err)
	}
	s, err := aipStatus()
	if err != nil {
		b.Fatal(err)
	}
	pj, err := protojson.Marshal(s)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("op=decode/impl=errgen", func(b *testing.B) {
		b.SetBytes(int64(len(aip)))
		b.ReportAllocs()
		for b.Loop() {
			e, err := agenterror.FromAIP193(aip)
			if err != nil {
				b.Fatal(err)
			}
			sinkInt = len(e.Kind) + int(*e.Recovery.RetryAfterMs)
		}
	})
	b.Run("op=decode/impl=protojson", func(b *testing.B) {
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
			sinkInt = len(info.Reason) + int(retry.RetryDelay.Seconds)
		}
	})
}
