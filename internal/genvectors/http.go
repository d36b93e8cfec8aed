package genvectors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/orderedjson"
)

// HTTPVec is a failed HTTP response and what every package's reader (Go's
// ReadHTTP, TypeScript's fromHttpResponse, Python's from_http_response) makes
// of it: Envelope, compared as a JSON value, or an error when it is null.
// Headers are keyed by lower-case name; HeaderLines are more header lines,
// sent after them in order (a header repeated: a client that joins the
// lines, as fetch does, sees "first, second"); Body is the body's UTF-8
// text. Error is the category of the decode error a reader reports when
// Envelope is null ("missing": there is no failure to report).
type HTTPVec struct {
	Name        string            `json:"name"`
	Status      int               `json:"status"`
	Headers     map[string]string `json:"headers"`
	HeaderLines [][2]string       `json:"header_lines"`
	Body        string            `json:"body"`
	Envelope    json.RawMessage   `json:"envelope"`
	Error       *string           `json:"error"`
}

// The texts the HTTP vectors use. The readers sanitize messages, and the
// vectors do not carry the sanitizer (it has its own vectors): these texts
// are left unchanged by any policy, and a vector whose message a contract's
// policy could change is left out (see sanitizeProof).
const (
	shortMessage = "Reported by the upstream."
	proxyText    = "Bad gateway from the proxy"
	mediaJSON    = "application/json"
	mediaProblem = "application/problem+json"
)

// response is one HTTP vector before its expectation is computed. envelope
// is set when the body is an envelope of the contract (an example), which
// the readers return as it is.
type response struct {
	name     string
	status   int
	headers  map[string]string
	lines    [][2]string
	body     string
	envelope object
	// short is set when body is shortFormBody(kind, message) of two
	// strings, which shortFormOf then need not parse (one for every kind).
	short         bool
	kind, message string
}

// shortFormResponse is a response whose body is the short form of kind and
// message, and nothing else.
func shortFormResponse(name string, status int, headers map[string]string, kind, message string) response {
	scratch := rawScratch.Get().(*[]byte)
	defer rawScratch.Put(scratch)
	b := str(append(append(append((*scratch)[:0], `{"`...), contract.ShortFormKindMember...), `":`...), kind)
	b = append(str(append(append(append(b, `,"`...), contract.ShortFormMessageMember...), `":`...), message), '}')
	*scratch = b
	return response{name: name, status: status, headers: headers, body: string(b), short: true, kind: kind, message: message}
}

// retryAfter is the first line of a response's Retry-After header.
func (r response) retryAfter() string {
	if v, ok := r.headers["retry-after"]; ok {
		return v
	}
	for _, l := range r.lines {
		if l[0] == "retry-after" {
			return l[1]
		}
	}
	return ""
}

// httpReads are the HTTP vectors: labby's short form {"kind", "message"}
// for every kind and at its edges, bodies that are not envelopes, and
// envelopes, with and without Retry-After. Every contract gets the same
// responses; the expectations differ, as only a contract using the default
// layout reads the short form (contract.ShortForm).
func httpReads(c *contract.Contract, exs []exampleenv.Example) ([]HTTPVec, error) {
	first := c.Kinds[0]
	rs := shortFormResponses(c)
	rs = append(rs, limitResponses(first)...)
	rs = append(rs, receivedTextResponses(first)...)
	rs = append(rs, envelopeResponses(c, exs)...)
	sf := newShortFormSpec(c)
	return keep(rs, func(r response) (HTTPVec, bool, error) { return httpVec(c, sf, r) })
}

// keep is vec of each case, in order, but for those vec leaves out (ok
// false); the first error stops it.
func keep[C, V any](cases []C, vec func(C) (v V, ok bool, err error)) ([]V, error) {
	out := make([]V, 0, len(cases))
	for _, c := range cases {
		v, ok, err := vec(c)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, v)
		}
	}
	return out, nil
}

// jsonHeaders are response headers with Content-Type application/json and
// the extra headers given as name, value pairs.
func jsonHeaders(extra ...string) map[string]string {
	h := map[string]string{"content-type": mediaJSON}
	for i := 0; i+1 < len(extra); i += 2 {
		h[extra[i]] = extra[i+1]
	}
	return h
}

// shortFormBody is a short-form body: kind and message (each left out when
// nil), then the members in more.
func shortFormBody(kind, message any, more ...orderedjson.Member) string {
	o := object{}
	if kind != nil {
		o = append(o, orderedjson.Member{Key: contract.ShortFormKindMember, Value: kind})
	}
	if message != nil {
		o = append(o, orderedjson.Member{Key: contract.ShortFormMessageMember, Value: message})
	}
	b, _ := rawString(append(o, more...))
	return b
}

// shortFormResponses are the short-form bodies a reader takes (one a kind,
// and edge cases of kind, message, Retry-After and Content-Type) and the
// ones it does not.
func shortFormResponses(c *contract.Contract) []response {
	first := c.Kinds[0]
	retryKind := first
	for _, k := range c.Kinds {
		if k.Recovery.Action.Step == contract.StepRetry {
			retryKind = k
			break
		}
	}
	// A marker sanitizes to nothing, so the message falls back; a contract
	// that does not sanitize messages keeps it.
	marker := "<system>"
	if len(c.Sanitize.Markers) > 0 {
		marker = c.Sanitize.Markers[0]
	}
	// Room for the edge cases below and the other responses httpReads adds.
	rs := make([]response, 0, len(c.Kinds)+64)
	// The kinds' responses share one header map (nothing changes a
	// vector's headers once made).
	headers := jsonHeaders()
	for _, k := range c.Kinds {
		rs = append(rs, shortFormResponse("short form: "+k.Name, k.HTTP, headers, k.Name, shortMessage))
	}
	unknown := exampleenv.UnknownKindName(c)
	pad := "x"
	if c.Naming == contract.ScreamingSnakeCase {
		pad = "X"
	}
	longest := unknown + strings.Repeat(pad, contract.ShortFormMaxKind-len(unknown))
	return append(rs,
		response{name: "short form: a kind this contract does not define", status: 502, headers: jsonHeaders(), body: shortFormBody(unknown, shortMessage)},
		response{name: fmt.Sprintf("short form: a kind of %d bytes", contract.ShortFormMaxKind), status: 502, headers: jsonHeaders(), body: shortFormBody(longest, shortMessage)},
		response{name: "short form: empty message", status: first.HTTP, headers: jsonHeaders(), body: shortFormBody(first.Name, "")},
		response{name: "short form: blank message", status: first.HTTP, headers: jsonHeaders(), body: shortFormBody(first.Name, " \t\n ")},
		response{name: "short form: a message of only a prompt-injection marker", status: first.HTTP, headers: jsonHeaders(), body: shortFormBody(first.Name, marker)},
		response{name: "short form with Retry-After in seconds", status: retryKind.HTTP, headers: jsonHeaders("retry-after", "120"), body: shortFormBody(retryKind.Name, shortMessage)},
		response{name: "short form with Retry-After as an HTTP date", status: retryKind.HTTP,
			headers: jsonHeaders("retry-after", "Wed, 21 Oct 2015 07:28:30 GMT", "date", "Wed, 21 Oct 2015 07:28:00 GMT"), body: shortFormBody(retryKind.Name, shortMessage)},
		response{name: "short form with other members, which are ignored", status: first.HTTP, headers: jsonHeaders(), body: shortFormBody(first.Name, shortMessage,
			orderedjson.Member{Key: "origin", Value: newer("origin")},
			orderedjson.Member{Key: "recovery", Value: object{{Key: "action", Value: newer("action")}}},
			orderedjson.Member{Key: "service", Value: "billing"},
			orderedjson.Member{Key: "detail", Value: "More from the upstream."})},
		response{name: "short form without a Content-Type", status: first.HTTP, headers: map[string]string{}, body: "  " + shortFormBody(first.Name, shortMessage)},
		response{name: "short form as application/problem+json", status: first.HTTP, headers: map[string]string{"content-type": "application/problem+json"}, body: shortFormBody(first.Name, shortMessage)},
		response{name: "short form as text/plain, not JSON", status: first.HTTP, headers: map[string]string{"content-type": "text/plain"}, body: shortFormBody(first.Name, shortMessage)},
		// The first Content-Type counts, whether the client joins repeated
		// lines (fetch: "text/plain, application/json") or not.
		response{name: "short form under two Content-Type lines, text/plain first: not JSON", status: first.HTTP, headers: map[string]string{"content-type": "text/plain"},
			lines: [][2]string{{"content-type", mediaJSON}}, body: shortFormBody(first.Name, shortMessage)},
		response{name: "short form under a Content-Type list, text/plain first: not JSON", status: first.HTTP, headers: map[string]string{"content-type": "text/plain, " + mediaJSON}, body: shortFormBody(first.Name, shortMessage)},
		response{name: "short form under a Content-Type list, application/json first", status: first.HTTP, headers: map[string]string{"content-type": mediaJSON + "; charset=utf-8, text/plain"}, body: shortFormBody(first.Name, shortMessage)},
		response{name: "short form in a successful response", status: 200, headers: jsonHeaders(), body: shortFormBody(first.Name, shortMessage)},
		response{name: "not a short form: a kind outside the naming pattern", status: 502, headers: jsonHeaders(), body: shortFormBody("Not a kind", shortMessage)},
		response{name: fmt.Sprintf("not a short form: a kind of %d bytes", contract.ShortFormMaxKind+1), status: 502, headers: jsonHeaders(), body: shortFormBody(longest+pad, shortMessage)},
		response{name: "not a short form: an empty kind", status: 502, headers: jsonHeaders(), body: shortFormBody("", shortMessage)},
		// A lowercase token matches the naming pattern: received text the
		// sanitizer changes is no kind.
		response{name: "not a short form: a kind the sanitizer redacts", status: 502, headers: jsonHeaders(), body: shortFormBody(shortFormToken.in, shortMessage)},
		response{name: "not a short form: a kind that is not a string", status: 502, headers: jsonHeaders(), body: shortFormBody(42, shortMessage)},
		response{name: "not a short form: no message", status: first.HTTP, headers: jsonHeaders(), body: shortFormBody(first.Name, nil)},
		response{name: "not a short form: a null message", status: first.HTTP, headers: jsonHeaders(), body: shortFormBody(first.Name, nil, orderedjson.Member{Key: contract.ShortFormMessageMember, Value: nil})},
		response{name: "not a short form: an array", status: first.HTTP, headers: jsonHeaders(), body: "[" + shortFormBody(first.Name, shortMessage) + "]"},
	)
}

// limitResponses are bodies past (and at) the limits every decoder
// shares, anywhere in them: not JSON to a reader, neither an envelope nor a
// short form, so they are classified from the status.
func limitResponses(first *contract.Kind) []response {
	return []response{
		response{name: "past a limit: a short form with 1e999 in another member", status: 404, headers: jsonHeaders(), body: shortFormBody(first.Name, shortMessage, orderedjson.Member{Key: "x", Value: json.RawMessage("1e999")})},
		response{name: "past a limit: a short form with an integer of 310 digits in another member", status: 404, headers: jsonHeaders(),
			body: shortFormBody(first.Name, shortMessage, orderedjson.Member{Key: "x", Value: json.RawMessage("1" + strings.Repeat("0", 309))})},
		response{name: fmt.Sprintf("past a limit: a short form nested %d levels deep", contract.MaxDepth+1), status: 404, headers: jsonHeaders(),
			body: shortFormBody(first.Name, shortMessage, orderedjson.Member{Key: "x", Value: json.RawMessage(nest(contract.MaxDepth))})},
		response{name: fmt.Sprintf("at the limit: a short form nested %d levels deep", contract.MaxDepth), status: 404, headers: jsonHeaders(),
			body: shortFormBody(first.Name, shortMessage, orderedjson.Member{Key: "x", Value: json.RawMessage(nest(contract.MaxDepth - 1))})},
		// A member given twice whose first copy is past a limit: the text is
		// held to the limits, not the value a parser keeps (the last copy).
		response{name: "past a limit: a short form whose first of two x members is 1e999", status: 404, headers: jsonHeaders(),
			body: shortFormBody(first.Name, shortMessage, orderedjson.Member{Key: "x", Value: json.RawMessage("1e999")}, orderedjson.Member{Key: "x", Value: json.RawMessage("1")})},
		response{name: fmt.Sprintf("past a limit: a short form whose first of two kind members nests %d levels deep", contract.MaxDepth+1), status: 404, headers: jsonHeaders(),
			body: `{"` + contract.ShortFormKindMember + `":` + string(nest(contract.MaxDepth+1)) + "," + shortFormBody(first.Name, shortMessage)[1:]},
		// The members a problem document reader drops count too.
		response{name: "past a limit: a problem document with 1e999 as its status", status: 404, headers: map[string]string{"content-type": "application/problem+json"},
			body: `{"type":"about:blank","status":1e999,` + shortFormBody(first.Name, shortMessage)[1:]},
	}
}

// receivedTextResponses are texts every reader sanitizes as the contract
// does, whatever the body (received.go), and bodies that are neither an
// envelope nor a short form.
func receivedTextResponses(first *contract.Kind) []response {
	return []response{
		response{name: "short form: a message holding a Bearer token and a GitHub token", status: first.HTTP, headers: jsonHeaders(), body: shortFormBody(first.Name, receivedMessage.in)},
		response{name: "neither: text from a proxy holding a Bearer token and a GitHub token", status: 502, headers: map[string]string{"content-type": "text/html"}, body: receivedMessage.in},
		response{name: "neither: text from a proxy, a GitHub token split by a vertical tab, a form feed, U+001C and NEL (sanitized before its white space is collapsed)", status: 502,
			headers: map[string]string{"content-type": "text/plain"}, body: receivedSplit.in},
		response{name: "neither: text from a proxy whose redacted AWS key id straddles the 512-byte cut (cut before it)", status: 502,
			headers: map[string]string{"content-type": "text/plain"}, body: receivedAtCut.in},
		response{name: "neither: text from a proxy past 2048 bytes whose cut goes through an AWS key id (the run of secret characters ending the cut text goes)", status: 502,
			headers: map[string]string{"content-type": "text/plain"}, body: receivedPreCut.in + "7EXAMPLE tail"},
		response{name: "neither: text from a proxy", status: 502, headers: map[string]string{"content-type": "text/html"}, body: proxyText},
		// surfaces.http.echo_body: a contract that never echoes upstream
		// bodies (AGENTO) gets the status line alone.
		response{name: "neither: an upstream's own error text, quoted in the message only where surfaces.http.echo_body is on", status: 400,
			headers: map[string]string{"content-type": "text/plain; charset=utf-8"}, body: "Account 4471 of Jane Doe is closed"},
		response{name: "neither: JSON without a kind", status: 500, headers: jsonHeaders(), body: `{"error":"boom"}`},
		response{name: "neither: an empty body", status: 503, headers: map[string]string{}, body: ""},
		response{name: "neither, in a successful response", status: 200, headers: map[string]string{"content-type": "text/plain"}, body: "fine"},
	}
}

// envelopeResponses carry envelopes, returned as they are whatever the
// status; Retry-After fills a retry hint the body does not carry.
func envelopeResponses(c *contract.Contract, exs []exampleenv.Example) []response {
	first := c.Kinds[0]
	hint := c.Layout.Leaf(contract.SourceRetryAfterMs)
	env := fromExample(exs[0].Value)
	if hint != nil {
		env = env.without(hint.Path)
	}
	rs := []response{
		response{name: "an envelope", status: first.HTTP, headers: jsonHeaders(), envelope: env},
		response{name: "an envelope with Retry-After", status: first.HTTP, headers: jsonHeaders("retry-after", "7"), envelope: env},
		// A hostile or broken upstream's wait is clamped to retry.max_hint_ms.
		response{name: "an envelope with a Retry-After of 2^63/1000 seconds", status: first.HTTP, headers: jsonHeaders("retry-after", "9223372036854775"), envelope: env},
		response{name: "an envelope with a Retry-After date a century ahead", status: first.HTTP,
			headers: jsonHeaders("retry-after", "Fri, 21 Oct 2115 07:28:00 GMT", "date", "Wed, 21 Oct 2015 07:28:00 GMT"), envelope: env},
		response{name: "an envelope in a successful response", status: 200, headers: jsonHeaders(), envelope: env},
		// A repeated header, or a list: the first value counts, in every
		// language, whether the client joins the lines (fetch) or not.
		response{name: "an envelope with Retry-After as a list of seconds: the first counts", status: first.HTTP, headers: jsonHeaders("retry-after", "5, 10"), envelope: env},
		response{name: "an envelope with two Retry-After lines: the first counts", status: first.HTTP, headers: jsonHeaders("retry-after", "5"),
			lines: [][2]string{{"retry-after", "10"}}, envelope: env},
		response{name: "an envelope with Retry-After as a list, an HTTP date first", status: first.HTTP,
			headers: jsonHeaders("retry-after", "Wed, 21 Oct 2015 07:28:30 GMT, 10", "date", "Wed, 21 Oct 2015 07:28:00 GMT"), envelope: env},
		response{name: "an envelope with two Retry-After lines, an HTTP date first", status: first.HTTP,
			headers: jsonHeaders("retry-after", "Wed, 21 Oct 2015 07:28:30 GMT", "date", "Wed, 21 Oct 2015 07:28:00 GMT"),
			lines:   [][2]string{{"retry-after", "Thu, 22 Oct 2015 07:28:00 GMT"}}, envelope: env},
		response{name: "an envelope with Retry-After as a list, an RFC 850 date first", status: first.HTTP,
			headers: jsonHeaders("retry-after", "Wednesday, 21-Oct-15 07:28:30 GMT, 10", "date", "Wed, 21 Oct 2015 07:28:00 GMT"), envelope: env},
		response{name: "an envelope with Retry-After as a list, seconds then a date", status: first.HTTP,
			headers: jsonHeaders("retry-after", "10, Wed, 21 Oct 2015 07:28:30 GMT", "date", "Wed, 21 Oct 2015 07:28:00 GMT"), envelope: env},
		response{name: "an envelope with Retry-After as a list whose first value is malformed: no hint", status: first.HTTP, headers: jsonHeaders("retry-after", "soon, 10"), envelope: env},
		response{name: "an envelope whose message holds a Bearer token and a GitHub token", status: first.HTTP, headers: jsonHeaders(),
			envelope: env.with(c.Layout.Leaf(contract.SourceMessage).Path, receivedMessage.in)},
	}
	if hint != nil {
		hinted := fromExample(exs[0].Value).with(hint.Path, HintMs)
		rs = append(rs, response{name: "an envelope carrying a retry hint, with Retry-After", status: first.HTTP, headers: jsonHeaders("retry-after", "9"), envelope: hinted})
	}
	return rs
}

// httpVec is the vector of response r: what the readers make of it. ok is
// false when r is left out (see readHTTP).
func httpVec(c *contract.Contract, sf *shortFormSpec, r response) (v HTTPVec, ok bool, err error) {
	if r.envelope != nil {
		b, err := rawString(r.envelope)
		if err != nil {
			return v, false, err
		}
		r.body = b
	}
	want, ok := readHTTP(c, sf, r)
	if !ok {
		return v, false, nil
	}
	var env json.RawMessage = json.RawMessage("null")
	if want != nil {
		if env, err = raw(want); err != nil {
			return v, false, err
		}
	}
	v = HTTPVec{Name: r.name, Status: r.status, Headers: r.headers, HeaderLines: [][2]string{}, Body: r.body, Envelope: env}
	if r.lines != nil {
		v.HeaderLines = r.lines
	}
	if want == nil {
		missing := "missing"
		v.Error = &missing
	}
	return v, true, nil
}

// readHTTP is the specification of the readers for the vectors' responses:
// the envelope they return (nil for an error), and ok false when the
// response is left out because its message might not survive a sanitizer
// unchanged.
func readHTTP(c *contract.Contract, sf *shortFormSpec, r response) (want object, ok bool) {
	hint := c.Layout.Leaf(contract.SourceRetryAfterMs)
	kind, message, short := shortFormOf(c, sf, r)
	switch {
	case r.envelope != nil:
		if want, ok = redactReceived(c, r.envelope); !ok {
			return nil, false
		}
	case short:
		if !contract.Blank(message) {
			switch {
			case isMarker(c, message):
				message = "" // the sanitizer removes it
			case message == receivedMessage.in && receivedMessage.sure(c):
				message = receivedMessage.out
			case !sanitizeProof(c, message):
				return nil, false
			}
		}
		if contract.Blank(message) {
			message = statusLine(r.status)
		}
		want = object(exampleenv.New(c, kind, message, nil)) // (read and copied by get and with, never changed)
		for _, f := range sf.empty[kind] {
			var empty any = []any{}
			if f.Type == contract.TypeObject {
				empty = object{}
			}
			want = want.with(c.Layout.FieldPath(f), empty)
		}
		want = want.with(contract.PromotedMember, contract.PromotedShortForm)
	case r.status < 300:
		return nil, true
	default:
		text, ok := httpText(c, []byte(r.body))
		if !ok {
			return nil, false
		}
		message := upstreamMessage(c, r.status, text)
		if !fits(c, message) {
			return nil, false
		}
		kind := c.HTTPKind(r.status)
		if c.Inbound != nil {
			kind = Classify(c.Inbound.Classifiers[0], Upstream{Status: r.status, Text: text}).Kind
		}
		want = object(exampleenv.New(c, kind, message, nil)) // (read and copied by get and with, never changed)
		if f := c.Surfaces.HTTP.StatusField; f != nil {
			// surfaces.http.status_field keeps the response's status.
			want = want.with(c.Layout.FieldPath(f), r.status)
		}
	}
	if hint != nil {
		if _, has := want.get(hint.Path); !has {
			if ms, ok := retryAfterMs(c, r.retryAfter(), r.headers["date"]); ok {
				want = want.with(hint.Path, ms)
			}
		}
	}
	return want, true
}

// shortFormSpec is the contract's short form (nil when its readers accept
// none) with its kind pattern compiled, worked out once for all of a
// contract's responses: contract.ShortForm walks every kind, so asking it
// per response made the HTTP vectors quadratic in the number of kinds.
type shortFormSpec struct {
	*contract.ShortForm
	kindRe *regexp.Regexp
	// empty is ShortForm.Empty by kind name.
	empty map[string][]*contract.Field
}

func newShortFormSpec(c *contract.Contract) *shortFormSpec {
	sf := c.ShortForm()
	if sf == nil {
		return nil
	}
	spec := &shortFormSpec{ShortForm: sf, kindRe: regexp.MustCompile(sf.KindPattern), empty: map[string][]*contract.Field{}}
	for _, e := range sf.Empty {
		if _, seen := spec.empty[e.Kind.Name]; !seen {
			spec.empty[e.Kind.Name] = e.Fields
		}
	}
	return spec
}

// shortFormOf is the specification of labby's short form as the readers
// accept it (see contract.ShortForm): for a failed response (status 300 or
// more) whose body is JSON (a JSON media type, or none and a body that opens
// an object) and not an envelope, a JSON object whose kind member is a
// string of at most contract.ShortFormMaxKind bytes matching the contract's
// kind pattern and whose message member is a string. Other members are
// ignored. It returns the kind and the message as received.
func shortFormOf(c *contract.Contract, sf *shortFormSpec, r response) (kind, message string, ok bool) {
	if sf == nil || r.status < 300 || !isJSON(r.headers["content-type"], r.body) {
		return "", "", false
	}
	var obj map[string]json.RawMessage
	str := func(raw json.RawMessage) (string, bool) {
		var s string
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return s, true
	}
	if r.short && utf8.ValidString(r.kind) && utf8.ValidString(r.message) {
		// The short form's members (sf's, which are labby's: see
		// contract.ShortForm) of two strings, UTF-8 and so read back as
		// written: JSON within every limit.
		kind, message, ok = r.kind, r.message, true
	} else {
		body := []byte(r.body)
		if json.Unmarshal(body, &obj) != nil || obj == nil || pastLimits(body, 0) {
			return "", "", false
		}
		kind, ok = str(obj[sf.KindMember])
	}
	if !ok || len(kind) > contract.ShortFormMaxKind || !sf.kindRe.MatchString(kind) {
		return "", "", false
	}
	// A kind the sanitizer changes is not one (the readers check that the
	// sanitizer keeps it); the vectors know the one token they send, and
	// that the sanitizer cuts a text past its maximum length.
	if kind == shortFormToken.in && shortFormToken.sure(c) {
		return "", "", false
	}
	// Nor is one past the policy's maximum length, which it cuts.
	if utf8.RuneCountInString(kind) > c.Sanitize.MaxLength {
		return "", "", false
	}
	if obj != nil {
		message, ok = str(obj[sf.MessageMember])
	}
	return kind, message, ok
}

// isJSON reports whether the readers parse a body as JSON: a JSON media type
// (application/json, application/problem+json or another +json type), or
// no media type and a body that opens an object.
func isJSON(contentType string, body string) bool {
	if contentType == mediaJSON {
		return true // (most of the vectors' responses)
	}
	// The first value of a list counts: a comma before any parameter ends
	// the media type (fetch joins repeated lines with ", ").
	if i := strings.IndexAny(contentType, ",;"); i >= 0 && contentType[i] == ',' {
		contentType = contentType[:i]
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt == mediaJSON || strings.HasSuffix(mt, "+json") || mt == "" && strings.HasPrefix(strings.TrimSpace(body), "{")
}

// statusLine is how the readers' messages start: "HTTP 502 Bad Gateway",
// or "HTTP 599" for a status without a text.
func statusLine(status int) string {
	s := "HTTP " + strconv.Itoa(status)
	if t := http.StatusText(status); t != "" {
		s += " " + t
	}
	return s
}

// upstreamMessage is the message every reader builds from a failed
// response without an envelope (and from a foreign AIP-193 status): the
// status line, then ": " and the body's text when there is any, unless the
// contract never echoes upstream text (surfaces.http.echo_body: false).
func upstreamMessage(c *contract.Contract, status int, text string) string {
	if !c.Surfaces.HTTP.EchoBody || text == "" {
		return statusLine(status)
	}
	return statusLine(status) + ": " + text
}

// httpText is the start of a body as one line of sanitized text, as
// every reader quotes it in a message built from a response without an
// envelope: past 4*512 bytes the body is cut; each run of invalid UTF-8
// becomes one U+FFFD; the text is sanitized, and when the body was cut the
// run of characters a secret can be made of that ends it dropped; then each
// run of white space becomes one space; past 512 bytes it is cut at a
// character boundary, before a [REDACTED] the cut would split, and an
// ellipsis marks a cut. The vectors do not carry the sanitizer: ok is
// false when the text is not one the sanitizer keeps (sanitizeProof) nor
// one of the redactions it is known to make (httpRedactions), and the
// vector is left out.
func httpText(c *contract.Contract, body []byte) (text string, ok bool) {
	const max = 512
	cut := len(body) > 4*max
	if cut {
		body = body[:4*max]
	}
	s := strings.ToValidUTF8(string(body), string(utf8.RuneError))
	known := false
	for _, r := range httpRedactions(c) {
		if s == r.in {
			s, known = r.out, true
			break
		}
	}
	if !known && shortFormToken.sure(c) && strings.Contains(s, shortFormToken.in) {
		if t := strings.ReplaceAll(s, shortFormToken.in, shortFormToken.out); sanitizeProof(c, t) {
			s, known = t, true
		}
	}
	// The sanitizer keeps tab, line feed and carriage return, and reads
	// them as it reads a space; any other control it deletes.
	if !known && !sanitizeProof(c, strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)) {
		return "", false
	}
	if cut {
		// The run of characters a secret can be made of that ends the cut
		// text goes: printable ASCII but quotes, backslash and brackets.
		n := len(s)
		for n > 0 && s[n-1] > ' ' && s[n-1] <= '~' && !strings.ContainsRune("\"'`\\<>[]{}", rune(s[n-1])) {
			n--
		}
		s = s[:n]
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		n := max
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		for i := n - 1; i >= 0 && i > n-len("[REDACTED]"); i-- {
			if strings.HasPrefix(s[i:], "[REDACTED]") {
				n = i
				break
			}
		}
		s, cut = s[:n], true
	}
	if cut && s != "" {
		s += "…"
	}
	return s, true
}

// fits reports whether the sanitizer keeps message whole: it is no longer
// than the policy's maximum length, which the sanitizer would cut it to.
func fits(c *contract.Contract, message string) bool {
	return utf8.RuneCountInString(message) <= c.Sanitize.MaxLength
}

// httpRedactions are the texts holding secrets the HTTP vectors send in a
// body that is not an envelope, with what the default policy's sanitizer
// makes of them, where the contract's policy is sure to do the same.
func httpRedactions(c *contract.Contract) []redaction {
	var out []redaction
	for _, r := range []redaction{receivedMessage, receivedSplit, receivedAtCut, receivedPreCut} {
		if r.sure(c) {
			out = append(out, r)
		}
	}
	return out
}

// retryAfterMs reads a Retry-After header as milliseconds: its first value
// (retryAfterValue), delay seconds or an HTTP date measured from the Date
// header, clamped to the contract's retry.max_hint_ms. The vectors always
// send a Date with a date.
func retryAfterMs(c *contract.Contract, value, date string) (int64, bool) {
	value = strings.TrimSpace(retryAfterValue(value))
	if value == "" {
		return 0, false
	}
	if secs, err := strconv.ParseUint(value, 10, 63); err == nil {
		return min(int64(min(secs, math.MaxInt64/1000))*1000, c.Retry.MaxHintMs), true
	}
	at, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	now, err := http.ParseTime(date)
	if err != nil {
		return 0, false
	}
	return min(max(at.Sub(now).Milliseconds(), 0), c.Retry.MaxHintMs), true
}

// isMarker reports whether s is one of the contract's prompt-injection
// markers, which the sanitizer removes entirely.
func isMarker(c *contract.Contract, s string) bool {
	for _, m := range c.Sanitize.Markers {
		if s == m {
			return true
		}
	}
	return false
}

// riskyText are fragments the sanitizer may act on besides markers and
// secret prefixes: bearer tokens, URL credentials, private key blocks and
// paths. riskyKeys are the names it treats as sensitive before a : or =,
// matched more broadly than it does. A vector text holding one of either is
// left out: the vectors do not carry the sanitizer.
var (
	riskyText = []string{"bearer", "://", "-----", "/", "\\", "~", "id_rsa", ".pem", "netrc"}
	riskyKeys = []string{"token", "secret", "pass", "pwd", "apikey", "api_key", "api-key", "signature", "credential",
		"authorization", "cookie", "session", "accesskey", "privatekey", "_key", "-key", "code", "sig"}
)

// sanitizeProof reports whether no sanitizer policy changes s: short enough
// for the contract's max_length, printable ASCII only, and holding none of
// the contract's markers, no secret prefix, nothing of riskyText and no
// risky key before a : or = (ASCII case ignored).
func sanitizeProof(c *contract.Contract, s string) bool { return proofOf(c).ok(s) }

// proof is sanitizeProof's reading of one contract: its fragments (riskyText,
// the markers, the built-in and the contract's secret prefixes) lowered
// once, and found in one pass over a text instead of a search of the whole
// text for each. (Called for several texts of every kind; it was a tenth of
// a large contract's vectors.)
type proof struct {
	c         *contract.Contract
	maxLength int
	// never is set by an empty fragment, which every text holds.
	never bool
	// single are the fragments of one byte; pairs the first two bytes of
	// the longer ones, a bit each, and long those fragments by first byte.
	single [256]bool
	pairs  [1 << 16 / 64]uint64
	long   [256][]string
}

// lastProof is the proof of the contract read last: a run reads one
// contract (a contract is not changed once loaded), and a test that reads
// several only builds the proof again.
var lastProof atomic.Pointer[proof]

func proofOf(c *contract.Contract) *proof {
	if p := lastProof.Load(); p != nil && p.c == c {
		return p
	}
	p := &proof{c: c, maxLength: c.Sanitize.MaxLength}
	add := func(fragments []string) {
		for _, f := range fragments {
			f = strings.ToLower(f)
			switch {
			case f == "":
				p.never = true
			case !printableASCII(f):
				// Never in a text of printable ASCII, the only texts
				// ok reads.
			case len(f) == 1:
				p.single[f[0]] = true
			default:
				pair := uint16(f[0])<<8 | uint16(f[1])
				p.pairs[pair/64] |= 1 << (pair % 64)
				p.long[f[0]] = append(p.long[f[0]], f)
			}
		}
	}
	add(riskyText)
	add(c.Sanitize.Markers)
	add(contract.BuiltinSecretPrefixes)
	for _, sp := range c.Sanitize.Secrets {
		add(sp.Prefixes)
	}
	lastProof.Store(p)
	return p
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// ok is sanitizeProof.
func (p *proof) ok(s string) bool {
	if len(s) > p.maxLength || !printableASCII(s) || p.never {
		return false
	}
	var store [256]byte
	lower := store[:0]
	if len(s) > len(store) {
		lower = make([]byte, 0, len(s))
	}
	lower = append(lower, s...)
	for i, b := range lower {
		if 'A' <= b && b <= 'Z' {
			lower[i] = b + 'a' - 'A'
		}
	}
	for i, b := range lower {
		if p.single[b] {
			return false
		}
		if i+1 == len(lower) {
			break
		}
		if pair := uint16(b)<<8 | uint16(lower[i+1]); p.pairs[pair/64]&(1<<(pair%64)) == 0 {
			continue
		}
		for _, f := range p.long[b] {
			if len(lower)-i >= len(f) && string(lower[i:i+len(f)]) == f {
				return false
			}
		}
	}
	for i := 0; i < len(lower); i++ {
		if lower[i] != ':' && lower[i] != '=' {
			continue
		}
		j := i
		for j > 0 && (lower[j-1] == ' ' || lower[j-1] == '\t') {
			j--
		}
		for n := 0; n < 2 && j > 0 && strings.IndexByte("\"'\\", lower[j-1]) >= 0; n++ {
			j--
		}
		k := j
		for k > 0 && isKeyChar(lower[k-1]) {
			k--
		}
		key := lower[k:j]
		if string(key) == "auth" {
			return false
		}
		for _, r := range riskyKeys {
			if bytes.Contains(key, []byte(r)) {
				return false
			}
		}
	}
	return true
}

func isKeyChar(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '.' || b == '-'
}

// retryAfterValue is the first value of a Retry-After field that holds a
// list (a repeated header whose lines a client joined with commas): the
// text before the first comma, or before the second when the text before
// the first, without spaces and tabs around it, is ASCII letters only (the
// day name of an HTTP date, whose one comma follows it).
func retryAfterValue(v string) string {
	i := strings.IndexByte(v, ',')
	if i < 0 {
		return v
	}
	day := strings.Trim(v[:i], " \t")
	if day == "" || strings.Trim(day, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return v[:i]
	}
	if j := strings.IndexByte(v[i+1:], ','); j >= 0 {
		return v[:i+1+j]
	}
	return v
}
