package agenterror

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The reader of the HTTP surface: ReadHTTP reads the envelope of a failed
// response, or builds one from a response without it. The contract's side
// (upstreamKind, httpKinds, echoBody, keepHTTPStatus, shortForm) is
// rendered into surfaces.go.

// maxHTTPBody bounds how much of a response body ReadHTTP reads. An
// envelope is a few kilobytes, while an error page from a proxy, or a
// broken or hostile server, can be arbitrarily large or never end: the
// bound keeps a client's memory and time in check. A longer body is not
// read as an envelope.
const maxHTTPBody = 1 << 20

// maxHTTPText bounds the body text an envelope built from a response
// without one quotes in its message (and, with an inbound classifier, gives
// the classifier).
const maxHTTPText = 512

// ReadHTTP reads the envelope of a failed HTTP response, as WriteHTTP or
// any producer of this contract writes it. A JSON body (application/json,
// application/problem+json, another +json type, or no Content-Type and a
// body that opens an object) that decodes as an envelope, directly or as
// the problem document Problem renders, is returned as it is, every text in
// it sanitized as UnmarshalJSON sanitizes it.
//
// For a contract whose readers accept labby's short form (see shortForm), a
// JSON body of a failed response (status 300 or more) that is not an
// envelope but the short form, a JSON object whose kind member is a string
// of at most 128 bytes matching this contract's kind names and whose
// message member is a string, yields an envelope that keeps that kind and
// message: the message sanitized as New sanitizes one (a message left empty
// or blank becomes "HTTP <status> <status text>"), the advice classified
// from the kind by Lookup (the fallback for a kind this package does not
// know, never from the status), the kind's required collections empty, and
// Extra[PromotedMember] set to PromotedShortForm. Any other member of the
// short form is ignored.
//
// Any other body — not JSON, JSON past the limits every decoder of the
// contract shares (MaxDepth, numbers a 64-bit float holds) anywhere in it,
// not an envelope, empty, or longer than 1 MiB — yields an envelope built
// from the response instead (classifyHTTP): upstreamKind picks the kind
// from the status (and, with an inbound classifier, the body's text); the
// message is upstreamMessage's, "HTTP <status> <status text>", followed by
// the start of the body's text where the contract echoes it (echoBody).
// Where the contract names one (keepHTTPStatus), a context field keeps the
// response's status.
//
// A Retry-After header (delay seconds or an HTTP date; its first value when
// it holds a list, see retryAfterValue) fills the retry hint when the body
// carried none. A response below 300 without an envelope is an error, a
// *DecodeError of category DecodeMissing as every language reports it:
// there is no failure to report. ReadHTTP reads at most 1 MiB of the body
// and does not close it.
func ReadHTTP(resp *http.Response) (*Envelope, error) {
	if resp == nil {
		return nil, errors.New("agenterror: ReadHTTP of a nil response")
	}
	body, err := readHTTPBody(resp.Body)
	if err != nil {
		return nil, err
	}
	var e *Envelope
	if len(body) <= maxHTTPBody {
		e = envelopeFromBody(resp.Header.Get("Content-Type"), body, resp.StatusCode)
	} else {
		body = body[:maxHTTPBody]
	}
	if e == nil {
		if resp.StatusCode < 300 {
			return nil, &DecodeError{
				Category: DecodeMissing,
				Problem:  "HTTP " + strconv.Itoa(resp.StatusCode) + " response carries no envelope",
			}
		}
		e = classifyHTTP(resp.StatusCode, body)
		keepHTTPStatus(e, resp.StatusCode)
	}
	if e.Recovery.RetryAfterMs == nil {
		if ms, ok := parseRetryAfter(resp.Header.Get("Retry-After"), resp.Header.Get("Date")); ok {
			e.Recovery.RetryAfterMs = &ms
		}
	}
	return e, nil
}

// readHTTPBody reads at most maxHTTPBody+1 bytes of a response body (nil
// for none): one byte more than ReadHTTP reads as an envelope, so that a
// longer body shows.
func readHTTPBody(body io.Reader) ([]byte, error) {
	if body == nil {
		return nil, nil
	}
	b, err := io.ReadAll(io.LimitReader(body, maxHTTPBody+1))
	if err != nil {
		return nil, fmt.Errorf("agenterror: reading the response body: %w", err)
	}
	return b, nil
}

// envelopeFromBody decodes a response body as an envelope; nil when its
// media type is not JSON or it is not an envelope. A problem document is
// read as one first; any other JSON first as the envelope itself, then as a
// problem document served under another media type. JSON that is neither
// is read as labby's short form when the response failed and the contract
// accepts it (fromShortForm).
func envelopeFromBody(contentType string, body []byte, status int) *Envelope {
	// The first value of a list counts: a comma before any parameter ends
	// the media type, as a client that joins repeated lines (fetch:
	// "text/plain, application/json") leaves the first line.
	if i := strings.IndexAny(contentType, ",;"); i >= 0 && contentType[i] == ',' {
		contentType = contentType[:i]
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	problem := mt == mediaProblem
	isJSON := problem || mt == mediaJSON || strings.HasSuffix(mt, "+json") || mt == "" && bytes.HasPrefix(bytes.TrimSpace(body), []byte("{"))
	if !isJSON {
		return nil
	}
	decoders := [2]func([]byte) (*Envelope, error){decodeEnvelope, fromProblem}
	if problem {
		decoders[0], decoders[1] = fromProblem, decodeEnvelope
	}
	for _, decode := range decoders {
		if e, err := decode(body); err == nil {
			return e
		}
	}
	if status >= 300 && shortForm != nil {
		return fromShortForm(body, status)
	}
	return nil
}

// The mark of an envelope a reader promoted from labby's short form.
const (
	// PromotedMember is the top-level member a reader (ReadHTTP, where the
	// contract's readers accept labby's short form) adds to an envelope it
	// built from labby's short form of an error body, {"kind": ...,
	// "message": ...}: the advice is then the contract's classification of
	// the kind, not the producer's. No field of a contract can take the name
	// (field names start with a letter), so it travels as an Extra member
	// and survives encoding and decoding.
	PromotedMember = "_promoted_from"
	// PromotedShortForm is PromotedMember's value for labby's short form.
	PromotedShortForm = "short_form"
)

// PromotedFrom returns the form a reader promoted the envelope from, as
// Extra[PromotedMember] records it (PromotedShortForm), whether set by
// ReadHTTP or decoded from an envelope encoded after it; "" for an envelope
// its producer sent whole.
func (e *Envelope) PromotedFrom() string {
	switch v := e.Extra[PromotedMember].(type) {
	case string:
		return v
	case json.RawMessage:
		if s, ok := jsonString(v); ok {
			return s
		}
	}
	return ""
}

// jsonString decodes raw as a JSON string; ok is false for any other JSON
// value, null included.
func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// maxShortFormKind bounds the kind of a short form, in bytes: a contract's
// kinds are a few dozen characters, and a longer kind member is not one.
const maxShortFormKind = 128

// shortFormSpec is the short form a contract's readers accept: the members
// that carry the kind and the message, and the pattern of the contract's
// kind names, which the kind must match (a body such as a Kubernetes
// Status, {"kind": "Status", "message": ...}, names no kind of the contract
// and is classified from the status instead).
type shortFormSpec struct {
	kindMember, messageMember string
	kindPattern               *regexp.Regexp
}

// fromShortForm reads labby's short form of an error body, in which SDK and
// subsystem errors promote their stable kind to the top level: a JSON
// object whose kind member is a string of at most maxShortFormKind bytes
// matching the contract's kind pattern that the sanitizer keeps as it is (a
// lowercase token matches the pattern) and whose message member is a
// string. It returns nil for any other body. The envelope keeps the kind
// and the message (sanitized as every reader sanitizes received text; empty
// or blank, it becomes statusLine(status)); its advice is Lookup's
// classification of the kind, the fallback for a kind this package does not
// know, never one picked from the status; and Extra[PromotedMember] is
// PromotedShortForm. Every other member of the body is ignored: it is
// unchecked upstream data, and the short form defines none. The kind's
// required collections are set empty (promotedEnvelope), as its constructor
// sets them when given none, so that the envelope meets the producer
// schema.
func fromShortForm(body []byte, status int) *Envelope {
	obj, err := decodeObject(body, "")
	if err != nil {
		return nil
	}
	kind, ok := jsonString(obj[shortForm.kindMember])
	if !ok || len(kind) > maxShortFormKind || !shortForm.kindPattern.MatchString(kind) || Sanitize(kind) != kind {
		return nil
	}
	message, ok := jsonString(obj[shortForm.messageMember])
	if !ok {
		return nil
	}
	message = Sanitize(message)
	// A message says what happened when every other member is discarded;
	// an empty one says nothing, and the producer schema rejects it.
	if blank(message) {
		message = statusLine(status)
	}
	e := promotedEnvelope(Kind(kind), message)
	e.Extra = map[string]any{PromotedMember: PromotedShortForm}
	return e
}

// classifyHTTP builds the envelope of a failed response without one:
// upstreamKind picks the kind, upstreamMessage writes the message. A
// context field every envelope carries is left empty (aipNew): the
// response does not say it, so the caller sets it before passing the
// envelope on.
func classifyHTTP(status int, body []byte) *Envelope {
	text := httpText(body)
	message := upstreamMessage(status, text)
	return aipNew(upstreamKind(status, text), message)
}

// httpKind is the kind of a failed response without an envelope, for a
// contract without an inbound classifier. A producer of the contract always
// sends an envelope, so such a response comes from something else on the
// way (a proxy, a load balancer). The status names a kind only when exactly
// one kind of the contract has it (httpKinds); where several share it,
// picking one would put that kind's specific advice on a failure it may not
// describe. Any other status becomes a kind named after it
// (syntheticKindPrefix and the status), which this package does not know:
// it classifies with the fallback and keeps the status visible.
func httpKind(status int) Kind {
	if k, ok := httpKinds[status]; ok {
		return k
	}
	return Kind(syntheticKindPrefix + strconv.Itoa(status))
}

// upstreamMessage is the message of an envelope built from a failed
// response without one (ReadHTTP, FromAIP193 of a foreign status):
// statusLine(status), then ": " and text, the start of the body as httpText
// quotes it, when there is any and the contract echoes an upstream body
// (echoBody, surfaces.http.echo_body). Where it does not, the body's text
// reaches the inbound classifier, never the message.
func upstreamMessage(status int, text string) string {
	if !echoBody || text == "" {
		return statusLine(status)
	}
	return statusLine(status) + ": " + text
}

// statusLine is how a message built from a response starts: "HTTP <status>
// <status text>", or "HTTP <status>" for a status without a text.
func statusLine(status int) string {
	s := "HTTP " + strconv.Itoa(status)
	if st := http.StatusText(status); st != "" {
		s += " " + st
	}
	return s
}

// httpText is the start of a body as one line of sanitized text, at most
// maxHTTPText bytes, with an ellipsis when cut (sanitizedLine: the body
// sanitized first, then its white space collapsed and the text cut).
func httpText(body []byte) string {
	return sanitizedLine(body, maxHTTPText)
}

// parseRetryAfter reads a Retry-After header (RFC 9110, section 10.2.3) as
// milliseconds: its first value (retryAfterValue), delay seconds, or an
// HTTP date measured from the response's Date header when it has one (so a
// skewed client clock does not matter) and from now otherwise. A date in
// the past means no wait; a wait longer than RetryMaxHint is clamped to it.
func parseRetryAfter(value, date string) (int64, bool) {
	value = strings.TrimSpace(retryAfterValue(value))
	if value == "" {
		return 0, false
	}
	if secs, err := strconv.ParseUint(value, 10, 63); err == nil {
		return min(int64(min(secs, math.MaxInt64/1000))*1000, maxHintMs), true
	}
	at, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	now := time.Now()
	if d, err := http.ParseTime(date); err == nil {
		now = d
	}
	return min(max(at.Sub(now).Milliseconds(), 0), maxHintMs), true
}

// retryAfterValue is the first value of a Retry-After field, which holds a
// list when a response repeats the header and a client joins the lines with
// commas (fetch does; http.Header.Get takes the first line): the text
// before the first comma, or before the second when the text before the
// first is ASCII letters only, the day name of an HTTP date ("Wed, 21 Oct
// 2015 07:28:00 GMT" holds one comma). Every language reads the field so,
// and only that value: one that does not parse is no hint.
func retryAfterValue(v string) string {
	i := strings.IndexByte(v, ',')
	if i < 0 {
		return v
	}
	if day := strings.Trim(v[:i], " \t"); day != "" && strings.Trim(day, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
		if j := strings.IndexByte(v[i+1:], ','); j >= 0 {
			return v[:i+1+j]
		}
		return v
	}
	return v[:i]
}
