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
	"fmt"
	"os"
	"strings"
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

// TestEveryReadStatusWrites: whatever FromAIP193 reads from the vectors'
// aip193_decode section, foreign errors and broken errgen ones alike (an
// extra metadata entry nested 200 levels deep among them), grpcstatus
// writes as a status again, with the kind's code: a reader never returns an
// envelope that cannot be encoded again.
func TestEveryReadStatusWrites(t *testing.T) {
	data, err := os.ReadFile("../../../../conformance/agent-error.vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Decode []struct {
			Name   string `json:"name"`
			AIP193 string `json:"aip193"`
		} `json:"aip193_decode"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	read := 0
	for _, v := range f.Decode {
		e, err := agenterror.FromAIP193([]byte(v.AIP193))
		if err != nil {
			continue
		}
		read++
		if _, err := grpcstatus.Status(e); err != nil {
			t.Errorf("%s: Status: %v", v.Name, err)
		}
		if got, want := status.Code(grpcstatus.Error(e)), codes.Code(e.Classification().GRPCCode); got != want {
			t.Errorf("%s: Error's code %v, want %v", v.Name, got, want)
		}
	}
	if read == 0 {
		t.Fatal("no aip193_decode vector reads")
	}
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

// okStatusError is an error whose GRPCStatus has the code OK: a broken
// producer's, or one that wraps a status it should not have.
type okStatusError struct{}

func (okStatusError) Error() string              { return "all fine, says the error" }
func (okStatusError) GRPCStatus() *status.Status { return status.New(codes.OK, "all fine") }

// An error is a failure whatever code its status claims: FromError never
// answers ok with no envelope (a caller that checks ok reads env.Kind), and
// reads code OK as every reader reads code 0, a failure of HTTP status 500.
func TestFromErrorOKStatus(t *testing.T) {
	for name, err := range map[string]error{
		"its own status":    okStatusError{},
		"a wrapped status":  fmt.Errorf("calling the upstream: %w", okStatusError{}),
		"an OK status text": status.ErrorProto(&spb.Status{Code: 0, Message: "fine"}),
	} {
		e, ok := grpcstatus.FromError(err)
		if err == nil {
			// status.Error(OK) and ErrorProto of code 0 are nil errors.
			if ok || e != nil {
				t.Errorf("%s: nil error: %v %v", name, e, ok)
			}
			continue
		}
		if !ok || e == nil {
			t.Fatalf("%s: FromError(%v) = %v, %v; want an envelope", name, err, e, ok)
		}
		if !strings.HasPrefix(e.Message, "HTTP 500 Internal Server Error: ") || e.Kind == "" {
			t.Fatalf("%s: %s %q, want a failure read from HTTP status 500", name, e.Kind, e.Message)
		}
		// The same as the AIP-193 reading of code 0.
		a, aerr := agenterror.FromAIP193([]byte(`{"error":{"code":0,"status":"OK","message":"` + e.Message[len("HTTP 500 Internal Server Error: "):] + `"}}`))
		if aerr != nil || a.Kind != e.Kind || a.Message != e.Message {
			t.Errorf("%s: FromError %s %q, FromAIP193 of code 0 %v %v", name, e.Kind, e.Message, a, aerr)
		}
	}
}

// A trusted text holding bytes that are not UTF-8 (set directly, not
// through a constructor) goes over gRPC with U+FFFD for each such byte, as
// AIP193() writes it, and every detail survives: the status marshals.
func TestIllFormedTextOverGRPC(t *testing.T) {
	hint := int64(2500)
	e := agenterror.New(agenterror.KindRateLimited, "slow down")
	e.Message = "slow\xffdown\xe2\x82"
	e.Recovery.RetryAfterMs = &hint
	e.Recovery.Guidance = "wait \xc0 then retry"
	st, err := grpcstatus.Status(e)
	if err != nil {
		t.Fatal(err)
	}
	wire, err := proto.Marshal(st.Proto())
	if err != nil {
		t.Fatalf("the status does not marshal: %v", err)
	}
	var back spb.Status
	if err := proto.Unmarshal(wire, &back); err != nil {
		t.Fatal(err)
	}
	got := grpcstatus.FromStatus(status.FromProto(&back))
	if got == nil || got.Kind != e.Kind {
		t.Fatalf("read back %v", got)
	}
	if want := "slow\uFFFDdown\uFFFD\uFFFD"; got.Message != want {
		t.Errorf("message %q, want %q", got.Message, want)
	}
	if want := "wait \uFFFD then retry"; got.Recovery.Guidance != want {
		t.Errorf("guidance %q, want %q", got.Recovery.Guidance, want)
	}
	if got.Recovery.RetryAfterMs == nil || *got.Recovery.RetryAfterMs != hint {
		t.Errorf("retry hint %v, want %d", got.Recovery.RetryAfterMs, hint)
	}
	// The AIP-193 form carries the same values.
	aip, err := e.AIP193()
	if err != nil {
		t.Fatal(err)
	}
	a, err := agenterror.FromAIP193(aip)
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jg, _ := json.Marshal(got)
	if !bytes.Equal(ja, jg) {
		t.Errorf("AIP-193 %s\ngRPC    %s", ja, jg)
	}
}
