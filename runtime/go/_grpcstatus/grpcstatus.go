// Package grpcstatus converts agenterror envelopes to and from google.golang.org/grpc/status: the google.rpc mapping of agenterror.RPCStatus, with a google.rpc.ErrorInfo and a google.rpc.RetryInfo detail as real protobuf types. It is a module of its own, so agenterror itself stays free of gRPC's dependencies.
package grpcstatus

import (
	"unicode/utf8"

	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"

	agenterror "github.com/errgen/errgen/gen/go/agenterror"
)

// Status returns the envelope as a gRPC status: the kind's canonical code, the message, an ErrorInfo (reason, domain and the metadata that carries every other value of the envelope) and, with a retry hint, a RetryInfo. Text that is not UTF-8 (set by hand) has each byte that does not start a valid UTF-8 sequence replaced by U+FFFD, as every writer replaces it, so the status always marshals with all its details. It fails when the envelope does not encode.
func Status(e *agenterror.Envelope) (*status.Status, error) {
	s, err := e.RPCStatus()
	if err != nil {
		return nil, err
	}
	s.Message = validText(s.Message)
	for k, v := range s.Metadata {
		s.Metadata[k] = validText(v)
	}
	st := status.New(codes.Code(s.Code), s.Message).Proto()
	info, err := anypb.New(&errdetails.ErrorInfo{
		Domain:   s.Domain,
		Metadata: s.Metadata,
		Reason:   s.Reason,
	})
	if err != nil {
		return nil, err
	}
	st.Details = append(st.Details, info)
	if d := s.RetryDelay; d != nil {
		retry, err := anypb.New(&errdetails.RetryInfo{RetryDelay: &durationpb.Duration{
			Nanos:   d.Nanos,
			Seconds: d.Seconds,
		}})
		if err != nil {
			return nil, err
		}
		st.Details = append(st.Details, retry)
	}
	return status.FromProto(st), nil
}

// validText is s with each byte that does not start a valid UTF-8 sequence replaced by U+FFFD, one for each, as the JSON writers write it; s itself when it is valid.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// Error is Status(e).Err(), for returning from a gRPC handler; an envelope that does not encode becomes an Internal status saying so.
func Error(e *agenterror.Envelope) error {
	s, err := Status(e)
	if err != nil {
		return status.Error(codes.Internal, err.Error())
	}
	return s.Err()
}

// FromStatus reads a gRPC status into an envelope, as agenterror.FromRPCStatus reads one: a status Status wrote comes back as the envelope it was; any other gets the kind its ErrorInfo reason names in this contract's domain, else the kind of the HTTP status google.rpc.Code documents for its code. Only the first ErrorInfo and the first RetryInfo count. A nil status, or one whose code is OK, reports no failure: its envelope is nil.
func FromStatus(st *status.Status) *agenterror.Envelope {
	if st == nil || st.Code() == codes.OK {
		return nil
	}
	return fromStatus(st)
}

// fromStatus is FromStatus for any status, OK included: code 0 is not an error code, so an OK status reads as agenterror.FromRPCStatus reads a google.rpc.Status of code 0 (and FromAIP193 an AIP-193 error of code 0, in every language): a failure of HTTP status 500.
func fromStatus(st *status.Status) *agenterror.Envelope {
	s := &agenterror.RPCStatus{
		Code:    int(st.Code()),
		Message: st.Message(),
		Status:  code.Code(st.Code()).String(),
	}
	var info, retry bool
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			if !info {
				info = true
				s.Reason, s.Domain, s.Metadata = d.GetReason(), d.GetDomain(), d.GetMetadata()
			}
		case *errdetails.RetryInfo:
			if !retry {
				retry = true
				// A delay a Duration cannot be (out of range, or seconds and nanos of opposite signs) is none.
				if rd := d.GetRetryDelay(); rd != nil && rd.CheckValid() == nil {
					s.RetryDelay = &agenterror.RPCDuration{
						Nanos:   rd.GetNanos(),
						Seconds: rd.GetSeconds(),
					}
				}
			}
		}
	}
	return agenterror.FromRPCStatus(s)
}

// FromError reads the gRPC status of err (status.FromError) into an envelope; ok is false, and the envelope nil, when err is nil or carries no status. When ok is true the envelope is never nil: an error whose status (its own GRPCStatus, or a wrapped error's) has the code OK is still a failure, and reads as a status of code 0 does everywhere (see fromStatus): HTTP status 500, classified from the status's message.
func FromError(err error) (*agenterror.Envelope, bool) {
	st, ok := status.FromError(err)
	if !ok || err == nil {
		return nil, false
	}
	return fromStatus(st), true
}
