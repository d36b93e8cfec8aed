package agenterror

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// The HTTP and RFC 9457 surfaces of the envelope: WriteHTTP answers a
// request with it (the envelope itself or its problem document, by content
// negotiation), Problem renders the problem document and fromProblem reads
// it back. The contract's side (ProblemTypeBase, problemRestores,
// clearOptional) is rendered into surfaces.go.

// ProblemType returns the RFC 9457 problem type URI of kind.
func ProblemType(kind Kind) string {
	return ProblemTypeBase + string(kind)
}

// The media types of the HTTP surface.
const (
	mediaJSON    = "application/json"
	mediaProblem = "application/problem+json"
)

// unknownKindTitle is the problem title of a kind this contract version
// does not define: RFC 9457 wants a title that does not change between
// occurrences, and the kind's description is unknown.
const unknownKindTitle = "Error of a kind this contract version does not define"

// problemMembers are the members RFC 9457 defines, in the order Problem
// writes them.
var problemMembers = [...]string{"type", "title", "status", "detail", "instance"}

// problemMember reports whether name is a member RFC 9457 defines.
func problemMember(name string) bool {
	for _, p := range problemMembers {
		if name == p {
			return true
		}
	}
	return false
}

// Problem renders the envelope as an RFC 9457 problem document: type is
// ProblemType(e.Kind), title the kind's description (a generic title for a
// kind this package does not know), status the kind's HTTP status, detail
// the message and instance the given URI reference (left out when empty).
// The envelope's own top-level members follow as extension members, in wire
// order, so a reader gets the envelope back; an envelope member (or
// top-level Extra entry) named like a problem member gives way to it
// (ProblemTypeBase says what a reader gets back of those in this contract's
// layout).
func (e *Envelope) Problem(instance string) ([]byte, error) {
	env, err := e.MarshalJSON()
	if err != nil {
		return nil, err
	}
	c := Lookup(e.Kind)
	title := c.Description
	if !c.Known {
		title = unknownKindTitle
	}
	b := make([]byte, 0, len(env)+len(title)+len(e.Message)+len(instance)+160)
	b = append(b, `{"type":`...)
	b = appendString(b, ProblemType(e.Kind))
	b = append(b, `,"title":`...)
	b = appendString(b, title)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(c.HTTPStatus), 10)
	b = append(b, `,"detail":`...)
	b = appendString(b, e.Message)
	if instance != "" {
		b = append(b, `,"instance":`...)
		b = appendString(b, instance)
	}
	err = topMembers(env, func(name string, raw json.RawMessage) {
		if problemMember(name) {
			return
		}
		b = append(b, ',')
		b = appendString(b, name)
		b = append(b, ':')
		b = append(b, raw...)
	})
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// topMembers calls fn with each member of the JSON object data, in document
// order.
func topMembers(data []byte, fn func(name string, raw json.RawMessage)) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return &DecodeError{Problem: "must be a JSON object"}
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		name, _ := tok.(string)
		fn(name, raw)
	}
	return nil
}

// problemRestore is an envelope member a problem document replaces that
// fromProblem restores: its name and its layout source (contract.Source),
// and for a constant or the contract version, its JSON.
type problemRestore struct {
	name, source, raw string
}

// fromProblem reads an envelope back from the problem document Problem
// renders: the problem members are dropped and the extension members
// decoded as the envelope, the envelope members the problem members
// replaced restored first (problemRestores).
func fromProblem(data []byte) (*Envelope, error) {
	obj, err := decodeObject(data, "")
	if err != nil {
		return nil, err
	}
	var typ string
	var detail json.RawMessage
	if len(problemRestores) > 0 {
		json.Unmarshal(obj["type"], &typ)
		detail = obj["detail"]
	}
	for _, p := range problemMembers {
		delete(obj, p)
	}
	if len(problemRestores) > 0 {
		restoreProblemMembers(obj, typ, detail)
	}
	env, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return decodeEnvelope(env)
}

// restoreProblemMembers sets in obj the envelope members of
// problemRestores, from the problem's type (the kind, and the
// classification of the kind it names) and detail (the message). A kind
// is restored only from a type that is ProblemTypeBase and a kind, a
// message only from a detail the document has.
func restoreProblemMembers(obj map[string]json.RawMessage, typ string, detail json.RawMessage) {
	c := Lookup(Kind(strings.TrimPrefix(typ, ProblemTypeBase)))
	for _, r := range problemRestores {
		var v json.RawMessage
		switch r.source {
		case "const", "version":
			v = json.RawMessage(r.raw)
		case "kind":
			k, ok := strings.CutPrefix(typ, ProblemTypeBase)
			if !ok || k == "" {
				continue
			}
			v = appendString(nil, k)
		case "message":
			if detail == nil {
				continue
			}
			v = detail
		case "origin":
			v = appendString(nil, string(c.Origin))
		case "action":
			v = appendString(nil, string(c.Action))
		case "same_arguments":
			v = appendString(nil, string(c.SameArguments))
		case "guidance":
			v = appendString(nil, c.Guidance)
		case "side_effects":
			v = appendString(nil, string(c.SideEffects))
		case "group":
			v = appendString(nil, string(c.Group))
		case "retryable":
			v = strconv.AppendBool(nil, c.Retryable)
		case "may_have_run":
			v = strconv.AppendBool(nil, c.SideEffects.MayHaveRun())
		default:
			continue
		}
		obj[r.name] = v
	}
}

// decodeEnvelope decodes data as an envelope.
func decodeEnvelope(data []byte) (*Envelope, error) {
	var e Envelope
	if err := e.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return &e, nil
}

// WriteHTTP answers an HTTP request with the envelope. The status is
// e.HTTPStatus(); a retry hint becomes a Retry-After header in whole
// seconds, rounded up so a client never retries early. The body is the
// envelope (Content-Type: application/json) unless the request's Accept
// header ranks application/problem+json above application/json, in which
// case it is the RFC 9457 rendering of Problem with no instance
// (Content-Type: application/problem+json). A missing Accept header, */*, a
// tie and an Accept header naming neither type all get the envelope: an
// error response is never withheld over content negotiation.
//
// An envelope that does not marshal (a NaN number, an Extra value
// encoding/json rejects) is sent without its optional context,
// kind-specific and Extra fields rather than not at all (clearOptional). A
// field the layout requires stays: an envelope with it empty has no valid
// wire form, and the response goes out with its status and headers but no
// body. A negative retry hint is left out; one past MaxSafeInteger (set by
// hand: the producers clamp hints to RetryMaxHint), which no encoder
// writes, is sent as MaxSafeInteger, in the Retry-After header and the body
// alike, as every language's HTTP writer sends it. An envelope without a
// kind, which no client could read, is answered with a plain-text 500
// (http.Error).
func (e *Envelope) WriteHTTP(w http.ResponseWriter, r *http.Request) {
	if e.Kind == "" {
		http.Error(w, "agenterror: the error envelope has no kind", http.StatusInternalServerError)
		return
	}
	if ms := e.Recovery.RetryAfterMs; ms != nil && *ms > MaxSafeInteger {
		clamped, most := *e, int64(MaxSafeInteger)
		clamped.Recovery.RetryAfterMs = &most
		e = &clamped
	}
	problem := r != nil && prefersProblem(r.Header.Values("Accept"))
	h := w.Header()
	if problem {
		h.Set("Content-Type", mediaProblem)
	} else {
		h.Set("Content-Type", mediaJSON)
	}
	h.Add("Vary", "Accept")
	if ms := e.Recovery.RetryAfterMs; ms != nil && *ms >= 0 {
		h.Set("Retry-After", strconv.FormatInt(retryAfterSeconds(*ms), 10))
	}
	w.WriteHeader(e.HTTPStatus())
	w.Write(e.httpBody(problem))
}

// retryAfterSeconds converts a retry hint to whole seconds, rounding up.
func retryAfterSeconds(ms int64) int64 {
	if ms <= 0 {
		return 0
	}
	return (ms-1)/1000 + 1
}

// httpBody renders the body WriteHTTP sends.
func (e *Envelope) httpBody(problem bool) []byte {
	render := func(v *Envelope) ([]byte, error) {
		if problem {
			return v.Problem("")
		}
		return v.MarshalJSON()
	}
	if b, err := render(e); err == nil {
		return b
	}
	safe := *e
	safe.Extra = nil
	if ms := safe.Recovery.RetryAfterMs; ms != nil && *ms < 0 {
		safe.Recovery.RetryAfterMs = nil
	}
	safe.clearOptional()
	// Only strings, booleans and integers within MaxSafeInteger (WriteHTTP
	// clamps the retry hint) remain, which marshal unless a field the
	// layout requires is empty.
	b, _ := render(&safe)
	return b
}

// prefersProblem reports whether the Accept header values rank
// application/problem+json above application/json (RFC 9110, section
// 12.5.1): each takes the quality of the most specific media range that
// matches it, and on equal quality problem+json wins only when it is
// matched more specifically (named, against application/* or */*).
func prefersProblem(accept []string) bool {
	jsonQ, jsonS := 0.0, -1
	problemQ, problemS := 0.0, -1
	for _, header := range accept {
		for _, item := range strings.Split(header, ",") {
			rng, q, ok := mediaRange(item)
			if !ok {
				continue
			}
			if s := rangeSpecificity(rng, mediaJSON); s > jsonS {
				jsonQ, jsonS = q, s
			}
			if s := rangeSpecificity(rng, mediaProblem); s > problemS {
				problemQ, problemS = q, s
			}
		}
	}
	if problemQ != jsonQ {
		return problemQ > jsonQ
	}
	return problemQ > 0 && problemS > jsonS
}

// mediaRange parses one element of an Accept header into its media range,
// in lower case, and its quality. ok is false for an empty or malformed
// element, which is ignored.
func mediaRange(item string) (rng string, q float64, ok bool) {
	params := strings.Split(item, ";")
	rng = strings.ToLower(strings.TrimSpace(params[0]))
	if rng == "" || strings.Count(rng, "/") != 1 {
		return "", 0, false
	}
	q = 1.0
	for _, p := range params[1:] {
		name, value, _ := strings.Cut(p, "=")
		if !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || !(v >= 0 && v <= 1) {
			return "", 0, false
		}
		q = v
	}
	return rng, q, true
}

// rangeSpecificity is how specifically the media range rng matches
// mediaType: 2 when it names it, 1 for its type's wildcard (application/*),
// 0 for */* and -1 when it does not match.
func rangeSpecificity(rng, mediaType string) int {
	switch {
	case rng == mediaType:
		return 2
	case rng == "*/*":
		return 0
	case strings.HasSuffix(rng, "/*") && strings.HasPrefix(mediaType, rng[:len(rng)-1]):
		return 1
	}
	return -1
}
