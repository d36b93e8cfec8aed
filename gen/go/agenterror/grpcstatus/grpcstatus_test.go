package grpcstatus_test

// Hand-written: the generated grpcstatus package against the real protobuf
// types. Every envelope of the conformance vectors' aip193_encode section
// (one per kind, the unknown kind's, every field, members the contract does
// not name, retry hints at a Duration's edges) goes through status.Status,
// through the status's proto bytes, and back; the details are the real
// google.rpc.ErrorInfo and RetryInfo; foreign statuses read sensibly.

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/gen/go/agenterror/grpcstatus"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
)

type encodeVec struct {
	Name     string          `json:"name"`
	Envelope json.RawMessage `json:"envelope"`
	AIP193   string          `json:"aip193"`
}

func vectors(t *testing.T) []encodeVec {
	t.Helper()
	data, err := os.ReadFile("../../../../conformance/agent-error.vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Encode []encodeVec `json:"aip193_encode"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Encode) < len(agenterror.Kinds()) {
		t.Fatalf("%d aip193_encode vectors for %d kinds", len(f.Encode), len(agenterror.Kinds()))
	}
	return f.Encode
}

func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && equal(x, y)
}

func equal(x, y any) bool {
	a, _ := json.Marshal(x)
	b, _ := json.Marshal(y)
	return bytes.Equal(a, b)
}

func TestEveryEnvelopeRoundTrips(t *testing.T) {
	seen := map[agenterror.Kind]bool{}
	for _, v := range vectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			var e agenterror.Envelope
			if err := json.Unmarshal(v.Envelope, &e); err != nil {
				t.Fatal(err)
			}
			seen[e.Kind] = true
			st, err := grpcstatus.Status(&e)
			if err != nil {
				t.Fatal(err)
			}
			cl := e.Classification()
			if st.Code() != codes.Code(cl.GRPCCode) || st.Message() != e.Message {
				t.Errorf("status %v %q, want %v %q", st.Code(), st.Message(), codes.Code(cl.GRPCCode), e.Message)
			}
			// The details are the real types, with the mapping's values.
			var info *errdetails.ErrorInfo
			var retry *errdetails.RetryInfo
			for _, d := range st.Details() {
				switch d := d.(type) {
				case *errdetails.ErrorInfo:
					info = d
				case *errdetails.RetryInfo:
					retry = d
				default:
					t.Errorf("unexpected detail %T", d)
				}
			}
			if info == nil || info.Reason != cl.Reason || info.Domain != agenterror.ErrorInfoDomain || info.Metadata["kind"] != string(e.Kind) {
				t.Errorf("ErrorInfo %v, want reason %s, domain %s, kind %s", info, cl.Reason, agenterror.ErrorInfoDomain, e.Kind)
			}
			if (retry != nil) != (e.Recovery.RetryAfterMs != nil) {
				t.Errorf("RetryInfo %v for a retry hint %v", retry, e.Recovery.RetryAfterMs)
			} else if retry != nil {
				if err := retry.RetryDelay.CheckValid(); err != nil {
					t.Errorf("RetryInfo's delay: %v", err)
				}
				if ms := *e.Recovery.RetryAfterMs; ms <= 315_576_000_000_000 && retry.RetryDelay.AsDuration().Milliseconds() != ms && ms < 1<<43 {
					t.Errorf("RetryInfo's delay %v, want %d ms", retry.RetryDelay.AsDuration(), ms)
				}
			}
			// Through the wire: the status's proto bytes, decoded again.
			wire, err := proto.Marshal(st.Proto())
			if err != nil {
				t.Fatal(err)
			}
			var back spb.Status
			if err := proto.Unmarshal(wire, &back); err != nil {
				t.Fatal(err)
			}
			for name, got := range map[string]*agenterror.Envelope{
				"status":       grpcstatus.FromStatus(st),
				"proto bytes":  grpcstatus.FromStatus(status.FromProto(&back)),
				"status error": fromErr(t, grpcstatus.Error(&e)),
			} {
				data, err := json.Marshal(got)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !sameJSON(data, v.Envelope) {
					t.Errorf("%s:\ngot  %s\nwant %s", name, data, v.Envelope)
				}
			}
			// protojson renders the same ErrorInfo and RetryInfo the
			// package's AIP-193 JSON carries.
			pj, err := protojson.Marshal(st.Proto())
			if err != nil {
				t.Fatal(err)
			}
			var p, a struct {
				Details []json.RawMessage `json:"details"`
				Error   struct {
					Details []json.RawMessage `json:"details"`
				} `json:"error"`
			}
			if err := json.Unmarshal(pj, &p); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(v.AIP193), &a); err != nil {
				t.Fatal(err)
			}
			if len(p.Details) != len(a.Error.Details) {
				t.Fatalf("protojson has %d details, AIP-193 %d", len(p.Details), len(a.Error.Details))
			}
			for i := range p.Details {
				if !sameJSON(p.Details[i], a.Error.Details[i]) {
					t.Errorf("detail %d: protojson %s, AIP-193 %s", i, p.Details[i], a.Error.Details[i])
				}
			}
		})
	}
	for _, k := range agenterror.Kinds() {
		if !seen[k] {
			t.Errorf("no vector of kind %s", k)
		}
	}
}

func fromErr(t *testing.T, err error) *agenterror.Envelope {
	t.Helper()
	e, ok := grpcstatus.FromError(err)
	if !ok {
		t.Fatalf("FromError(%v) found no status", err)
	}
	return e
}

func TestForeignStatus(t *testing.T) {
	// A plain status: the kind of the HTTP status its code maps to.
	e := grpcstatus.FromStatus(status.New(codes.ResourceExhausted, "quota used up"))
	if e.HTTPStatus() != 429 || e.Message != "HTTP 429 Too Many Requests: quota used up" {
		t.Errorf("ResourceExhausted: %s %d %q", e.Kind, e.HTTPStatus(), e.Message)
	}
	// A reason of the contract in its domain names the kind; a RetryInfo
	// gives the hint, rounded up to whole milliseconds.
	st, err := status.New(codes.FailedPrecondition, "not yet").WithDetails(
		&errdetails.ErrorInfo{Reason: "CONFIRMATION_REQUIRED", Domain: agenterror.ErrorInfoDomain},
		&errdetails.RetryInfo{RetryDelay: &durationpb.Duration{Seconds: 1, Nanos: 1}},
	)
	if err != nil {
		t.Fatal(err)
	}
	e = grpcstatus.FromStatus(st)
	if e.Kind != agenterror.KindConfirmationRequired || e.Recovery.RetryAfterMs == nil || *e.Recovery.RetryAfterMs != 1001 {
		t.Errorf("reason in domain: %s %v", e.Kind, e.Recovery.RetryAfterMs)
	}
	// Another domain's reason names nothing here; an invalid delay is none.
	st, _ = status.New(codes.Unavailable, "busy").WithDetails(
		&errdetails.ErrorInfo{Reason: "CONFIRMATION_REQUIRED", Domain: "googleapis.com"},
		&errdetails.RetryInfo{RetryDelay: &durationpb.Duration{Seconds: 1, Nanos: -1}},
	)
	e = grpcstatus.FromStatus(st)
	if e.Kind == agenterror.KindConfirmationRequired || e.HTTPStatus() != 503 || e.Recovery.RetryAfterMs != nil {
		t.Errorf("other domain: %s %d %v", e.Kind, e.HTTPStatus(), e.Recovery.RetryAfterMs)
	}
	if grpcstatus.FromStatus(status.New(codes.OK, "")) != nil {
		t.Error("an OK status read as an envelope")
	}
	if _, ok := grpcstatus.FromError(errors.New("plain")); ok {
		t.Error("FromError found a status in a plain error")
	}
	if _, ok := grpcstatus.FromError(nil); ok {
		t.Error("FromError found a status in nil")
	}
}

// TestReceivedSecretsAreRedacted runs the vectors' received section through
// gRPC (issue 28): the envelope an upstream sent with secrets in what the
// contract sanitizes, decoded raw, goes out as a status and comes back
// through FromStatus and FromError redacted, as every reader returns it; and
// the status of the envelope read carries none of the secrets.
func TestReceivedSecretsAreRedacted(t *testing.T) {
	data, err := os.ReadFile("../../../../conformance/agent-error.vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Received []struct {
			Name     string          `json:"name"`
			Document json.RawMessage `json:"document"`
			Envelope json.RawMessage `json:"envelope"`
			Secrets  []string        `json:"secrets"`
		} `json:"received"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Received) == 0 {
		t.Fatal("no received vectors")
	}
	for _, v := range f.Received {
		var raw, read agenterror.Envelope
		if err := raw.UnmarshalJSONRaw(v.Document); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if err := read.UnmarshalJSON(v.Document); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		st, err := grpcstatus.Status(&raw)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		back, _ := grpcstatus.FromError(st.Err())
		if got, _ := json.Marshal(back); !sameJSON(got, v.Envelope) {
			t.Errorf("%s: FromError:\ngot  %s\nwant %s", v.Name, got, v.Envelope)
		}
		if st, err = grpcstatus.Status(&read); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		wire, err := proto.Marshal(st.Proto())
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range v.Secrets {
			if bytes.Contains(wire, []byte(s)) {
				t.Errorf("%s: the status of the envelope read holds %q", v.Name, s)
			}
		}
	}
}
