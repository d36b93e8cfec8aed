package genvectors

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/orderedjson"
)

// AIPKindVec is a kind's side of the mapping; the last is a kind the
// contract does not define (the fallback's code, the computed reason).
type AIPKindVec struct {
	Kind       string `json:"kind"`
	HTTPStatus int    `json:"http_status"`
	GRPCCode   int    `json:"grpc_code"`
	GRPCStatus string `json:"grpc_status"`
	Reason     string `json:"reason"`
}

// AIPReasonVec is the reason a kind name becomes.
type AIPReasonVec struct {
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

// AIPEncodeVec is an envelope (its wire JSON) and the AIP-193 JSON error
// it renders as, byte for byte; reading that error back gives the envelope.
type AIPEncodeVec struct {
	Name     string          `json:"name"`
	Envelope json.RawMessage `json:"envelope"`
	AIP193   string          `json:"aip193"`
}

// AIPDecodeVec is an AIP-193 JSON error and the envelope it reads as,
// compared as a JSON value; null when reading it fails.
type AIPDecodeVec struct {
	Name     string          `json:"name"`
	AIP193   string          `json:"aip193"`
	Envelope json.RawMessage `json:"envelope"`
	// Path and Category are the decode error of an error that does not
	// read (Envelope null), as the envelope decoder reports the same
	// problem: a document past the limits every decoder shares is a syntax
	// error with path "".
	Path     *string `json:"path,omitempty"`
	Category string  `json:"category,omitempty"`
}

// reasonEdges are kind names at the edges of the reason's steps.
var reasonEdges = []string{
	"rate_limited", "RATE_LIMITED", "AlreadyExists", "HTTPError", "http2_error", "auth-v2Failed",
	"ok", "7", "9lives", "--", "a.b c", "über_error",
	"a_very_long_kind_name_that_goes_on_and_on_past_the_sixty_three_characters_aip_193_allows",
	"x_" + "abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefg_hij",
}

// aip193 fills the google.rpc mapping's sections of f: the ErrorInfo
// domain, every kind's code and reason, the reason of kinds at the edges of
// its steps, every example envelope as its AIP-193 JSON error (byte for
// byte) that reads back into the envelope, and foreign errors with the
// envelope they read as.
func aip193(f *File, c *contract.Contract, exs []exampleenv.Example, envs []json.RawMessage) error {
	f.AIPDomain = c.AIP193.Domain
	for _, k := range c.Kinds {
		f.AIPKinds = append(f.AIPKinds, AIPKindVec{k.Name, k.HTTP, k.GRPC.Number, k.GRPC.Name, k.Reason})
	}
	unknown := exs[len(exs)-2]
	kindLeaf := c.Layout.Leaf(contract.SourceKind)
	uk, _ := fromExample(unknown.Value).get(kindLeaf.Path)
	fb := &c.Fallback.Classification
	f.AIPKinds = append(f.AIPKinds, AIPKindVec{uk.(string), fb.HTTP, fb.GRPC.Number, fb.GRPC.Name, contract.Reason(uk.(string))})
	for _, k := range reasonEdges {
		f.AIPReasons = append(f.AIPReasons, AIPReasonVec{k, contract.Reason(k)})
	}

	// "<&>": the AIP-193 writer must not escape HTML characters in metadata.
	all := withUnknownMembers(c, exs, envs, "members this contract does not name", "kept as received <&>")
	if hint := c.Layout.Leaf(contract.SourceRetryAfterMs); hint != nil {
		base := fromExample(exs[0].Value)
		for _, ms := range []int64{0, 1, 1500, 2000, 86_400_000, contract.MaxRetryDelayMs, contract.MaxRetryDelayMs + 1, contract.MaxSafeInteger} {
			all = append(all, named{name: "retry hint " + strconv.FormatInt(ms, 10) + " ms", o: base.with(hint.Path, ms)})
		}
	}
	// A member named with the empty string is a member like any other (the
	// Go writer once took its path, "", for the envelope's own).
	empty := fromExample(exs[0].Value)
	empty = append(empty, orderedjson.Member{Key: "", Value: "a member named with the empty string"})
	all = append(all, named{name: "a member this contract does not name, named with the empty string", o: empty})
	for _, n := range all {
		env, err := n.wire()
		if err != nil {
			return err
		}
		text, err := aipText(c, n.o)
		if err != nil {
			return err
		}
		f.AIPEncode = append(f.AIPEncode, AIPEncodeVec{n.name, env, text})
	}
	var err error
	f.AIPDecode, err = aipForeign(c, all[0].o)
	return err
}

// aipStatus is the google.rpc.Status of an envelope, as the mapping
// specifies it: the kind's HTTP status and gRPC code, the message, an
// ErrorInfo whose metadata holds the kind, each value the layout carries
// (text as it is, other values as the wire's compact JSON), the values it
// does not carry from the kind's classification, and the members the
// contract does not name; a RetryInfo with a retry hint.
func aipText(c *contract.Contract, o object) (string, error) {
	kind, _ := o.get(c.Layout.Leaf(contract.SourceKind).Path)
	kindName := kind.(string)
	// A kind's own reason, which the loader computed; one the contract does
	// not define computed here.
	cl, reason := &c.Fallback.Classification, ""
	if k := c.Kind(kindName); k != nil {
		cl, reason = &k.Classification, k.Reason
	} else {
		reason = contract.Reason(kindName)
	}
	message, _ := o.get(c.Layout.Leaf(contract.SourceMessage).Path)
	var store [16]metaEntry
	meta := metadata(store[:0]).set(contract.MetaKind, kindName)
	for _, m := range c.AIP193.Members {
		if m.Leaf == nil {
			switch m.Source {
			case contract.SourceVersion:
				meta = meta.set(m.Key, c.VersionLabel())
			case contract.SourceOrigin:
				meta = meta.set(m.Key, cl.Origin.Name)
			case contract.SourceAction:
				meta = meta.set(m.Key, cl.Recovery.Action.Name)
			case contract.SourceSameArguments:
				meta = meta.set(m.Key, cl.Recovery.SameArguments.Name)
			case contract.SourceGuidance:
				if cl.Recovery.Guidance != "" {
					meta = meta.set(m.Key, cl.Recovery.Guidance)
				}
			case contract.SourceSideEffects:
				meta = meta.set(m.Key, cl.SideEffects.Name)
			}
			continue
		}
		v, ok := o.get(m.Leaf.Path)
		if !ok {
			continue
		}
		if s, isText := v.(string); isText && m.Text {
			meta = meta.set(m.Key, s)
			continue
		}
		r, err := rawString(v)
		if err != nil {
			return "", err
		}
		meta = meta.set(m.Key, r)
	}
	extra, err := extraOf(c, o)
	if err != nil {
		return "", err
	}
	if extra != "" {
		meta = meta.set(contract.MetaExtra, extra)
	}
	d := decode(c, o)
	var retry any
	if ms := d.RetryAfterMs; ms != nil && *ms >= 0 {
		retry = durationText(min(*ms, contract.MaxRetryDelayMs))
		if *ms > contract.MaxRetryDelayMs {
			meta = meta.set(contract.MetaRetryAfterMs, strconv.FormatInt(*ms, 10))
		}
	}
	return aipDocument(cl.HTTP, message.(string), cl.GRPC.Name, reason, c.AIP193.Domain, meta, retry)
}

// aipDocument writes an AIP-193 JSON error: the error's code, message and
// status, and its details, an ErrorInfo whose metadata is sorted by key,
// then a RetryInfo when retry is not nil. (Written member by member, as
// orderedjson would write the document's object: it is one of every
// kind's vectors.)
func aipDocument(code int, message, status, reason, domain string, meta metadata, retry any) (string, error) {
	// Sorted by key, in place (a dozen entries at most).
	for i := 1; i < len(meta); i++ {
		for j := i; j > 0 && meta[j].key < meta[j-1].key; j-- {
			meta[j], meta[j-1] = meta[j-1], meta[j]
		}
	}
	scratch := rawScratch.Get().(*[]byte)
	defer rawScratch.Put(scratch)
	b := append((*scratch)[:0], `{"error":{"code":`...)
	b = appendInt(b, int64(code))
	b = str(append(b, `,"message":`...), message)
	b = str(append(b, `,"status":`...), status)
	b = str(append(b, `,"details":[{"@type":`...), contract.ErrorInfoType)
	b = str(append(b, `,"reason":`...), reason)
	b = str(append(b, `,"domain":`...), domain)
	b = append(b, `,"metadata":`...)
	if len(meta) == 0 {
		b = append(b, "{}"...)
	}
	for i, e := range meta {
		if i == 0 {
			b = append(b, '{')
		} else {
			b = append(b, ',')
		}
		b = str(append(str(b, e.key), ':'), e.value)
		if i == len(meta)-1 {
			b = append(b, '}')
		}
	}
	b = append(b, '}')
	if retry != nil {
		b = str(append(b, `,{"@type":`...), contract.RetryInfoType)
		var err error
		if b, err = orderedjson.AppendCompact(append(b, `,"retryDelay":`...), retry); err != nil {
			return "", err
		}
		b = append(b, '}')
	}
	b = append(b, "]}}"...)
	*scratch = b
	return string(b), nil
}

// metadata is an ErrorInfo's metadata as it is built: a key set again
// keeps its place and takes the new value, as a map's would.
type metadata []metaEntry

type metaEntry struct{ key, value string }

func (m metadata) set(key, value string) metadata {
	for i := range m {
		if m[i].key == key {
			m[i].value = value
			return m
		}
	}
	return append(m, metaEntry{key, value})
}

// durationText is a whole number of milliseconds as a Duration's JSON form.
func durationText(ms int64) string {
	s := strconv.FormatInt(ms/1000, 10)
	if r := ms % 1000; r != 0 {
		s += "." + strconv.FormatInt(1000+r, 10)[1:]
	}
	return s + "s"
}

// aipForeign are AIP-193 errors that no errgen package wrote, or that one
// wrote and something broke, with the envelope each reads as: the kind its
// reason names in this contract's domain, else the kind a response with its
// HTTP status (the code, else the one documented for its status name,
// else 500) and message reads as; the message "HTTP <status> <text>:
// <message>"; the retry hint from RetryInfo in whole milliseconds, rounded
// up, at most retry.max_hint_ms.
func aipForeign(c *contract.Contract, own object) ([]AIPDecodeVec, error) {
	ownText, err := aipText(c, own)
	if err != nil {
		return nil, err
	}
	var cases []aipCase
	cases = append(cases, aipDocumentCases(c)...)
	cases = append(cases, aipBrokenOwnCases(ownText)...)
	cases = append(cases, aipUnreadableCases()...)
	cases = append(cases, aipBrokenOwnLimitCases(c, ownText)...)
	return keep(cases, func(tc aipCase) (AIPDecodeVec, bool, error) { return aipForeignVec(c, own, tc) })
}

// aipCase is an AIP-193 error document and what reading it gives.
type aipCase struct {
	name string
	text string
	want aipWant
}

// aipWant is what reading an aipCase gives.
type aipWant struct {
	status  int
	message string
	reason  string // a kind's reason in this domain
	retryMs *int64
	fails   bool
	// path and category are the decode error of an error that fails.
	path, category string
	// own: the error read as the foreign one the first example's
	// ErrorInfo names (its metadata does not make an envelope).
	own bool
}

// aipErrorInfo is a google.rpc.ErrorInfo detail.
func aipErrorInfo(reason, dom string, meta object) object {
	return object{{Key: "@type", Value: contract.ErrorInfoType}, {Key: "reason", Value: reason}, {Key: "domain", Value: dom}, {Key: "metadata", Value: meta}}
}

// aipRetryInfo is a google.rpc.RetryInfo detail.
func aipRetryInfo(d any) object {
	return object{{Key: "@type", Value: contract.RetryInfoType}, {Key: "retryDelay", Value: d}}
}

// aipDoc is an AIP-193 error document whose error has the members given.
func aipDoc(members ...orderedjson.Member) string {
	b, _ := raw(object{{Key: "error", Value: object(members)}})
	return string(b)
}

// member is an object member.
func member(k string, v any) orderedjson.Member { return orderedjson.Member{Key: k, Value: v} }

// int64p is a pointer to n.
func int64p(n int64) *int64 { return &n }

// breakOwn is the AIP-193 text of an errgen error (ownText) with the
// ErrorInfo metadata key set to value.
func breakOwn(ownText, key, value string) string {
	var d map[string]any
	_ = json.Unmarshal([]byte(ownText), &d)
	info := d["error"].(map[string]any)["details"].([]any)[0].(map[string]any)
	info["metadata"].(map[string]any)[key] = value
	// Without HTML escapes, which the vectors never hold.
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(d)
	return strings.TrimSuffix(b.String(), "\n")
}

// aipDocumentCases are foreign error documents: status and code, message,
// ErrorInfo reasons, RetryInfo delays and malformed details.
func aipDocumentCases(c *contract.Contract) []aipCase {
	domain := c.AIP193.Domain
	some := c.Kinds[len(c.Kinds)/2]
	return []aipCase{
		{"status and code, no details", aipDoc(member("code", 404), member("message", "Shelf 7 does not exist."), member("status", "NOT_FOUND")), aipWant{status: 404, message: "Shelf 7 does not exist."}},
		{"status only", aipDoc(member("message", "Too many requests."), member("status", "RESOURCE_EXHAUSTED")), aipWant{status: 429, message: "Too many requests."}},
		{"code only", aipDoc(member("code", 503), member("message", "Try again later.")), aipWant{status: 503, message: "Try again later."}},
		{"neither code nor status", aipDoc(member("message", "Something broke.")), aipWant{status: 500, message: "Something broke."}},
		{"a code that is not an error status", aipDoc(member("code", 200), member("message", "Odd."), member("status", "PERMISSION_DENIED")), aipWant{status: 403, message: "Odd."}},
		// Code 0 (OK) is no error code: an error that claims it is a failure of 500, as gRPC's FromError reads one.
		{"code 0 and status OK", aipDoc(member("code", 0), member("message", "All fine, it says."), member("status", "OK")), aipWant{status: 500, message: "All fine, it says."}},
		{"an unknown status name", aipDoc(member("message", "Odd."), member("status", "TEAPOT")), aipWant{status: 500, message: "Odd."}},
		{"an empty message", aipDoc(member("code", 409), member("message", ""), member("status", "ABORTED")), aipWant{status: 409}},
		{"a reason of this contract in its domain", aipDoc(member("code", 400), member("message", "Reported upstream."), member("status", "INVALID_ARGUMENT"), member("details", []any{aipErrorInfo(some.Reason, domain, object{})})), aipWant{status: 400, message: "Reported upstream.", reason: some.Reason}},
		{"a reason of this contract in another domain", aipDoc(member("code", 400), member("message", "Reported upstream."), member("status", "INVALID_ARGUMENT"), member("details", []any{aipErrorInfo(some.Reason, "example.com", object{})})), aipWant{status: 400, message: "Reported upstream."}},
		{"an unknown reason in this domain", aipDoc(member("code", 502), member("message", "Upstream said no."), member("status", "UNAVAILABLE"), member("details", []any{aipErrorInfo("NO_SUCH_REASON", domain, object{{Key: "service", Value: "x"}})})), aipWant{status: 502, message: "Upstream said no."}},
		{"RetryInfo only", aipDoc(member("code", 503), member("message", "Busy."), member("status", "UNAVAILABLE"), member("details", []any{aipRetryInfo("2.5s")})), aipWant{status: 503, message: "Busy.", retryMs: int64p(2500)}},
		{"a retry delay below a millisecond rounds up", aipDoc(member("code", 429), member("message", "Slow down."), member("status", "RESOURCE_EXHAUSTED"), member("details", []any{aipRetryInfo("1.000000001s")})), aipWant{status: 429, message: "Slow down.", retryMs: int64p(1001)}},
		{"a retry delay past the longest hint", aipDoc(member("code", 429), member("message", "Slow down."), member("status", "RESOURCE_EXHAUSTED"), member("details", []any{aipRetryInfo("315576000000s")})), aipWant{status: 429, message: "Slow down.", retryMs: int64p(int64(c.Retry.MaxHintMs))}},
		{"a negative retry delay", aipDoc(member("code", 429), member("message", "Slow down."), member("status", "RESOURCE_EXHAUSTED"), member("details", []any{aipRetryInfo("-1s")})), aipWant{status: 429, message: "Slow down."}},
		// protobuf's JSON readers accept a field's proto name as well as its
		// JSON name (json_format writes it with preserving_proto_field_name,
		// protojson with UseProtoNames): the proto name counts when the JSON
		// name is absent, wherever it stands.
		{"RetryInfo by its proto field name, retry_delay", aipDoc(member("code", 503), member("message", "Busy."), member("status", "UNAVAILABLE"), member("details", []any{object{{Key: "@type", Value: contract.RetryInfoType}, {Key: "retry_delay", Value: "2.5s"}}})), aipWant{status: 503, message: "Busy.", retryMs: int64p(2500)}},
		{"RetryInfo by both names: retryDelay counts", aipDoc(member("code", 503), member("message", "Busy."), member("status", "UNAVAILABLE"), member("details", []any{object{{Key: "@type", Value: contract.RetryInfoType}, {Key: "retryDelay", Value: "2.5s"}, {Key: "retry_delay", Value: "9s"}}})), aipWant{status: 503, message: "Busy.", retryMs: int64p(2500)}},
		{"malformed details", aipDoc(member("code", 503), member("message", "Busy."), member("status", "UNAVAILABLE"), member("details", []any{
			"not an object", 7, nil, object{{Key: "reason", Value: some.Reason}},
			object{{Key: "@type", Value: contract.ErrorInfoType}, {Key: "reason", Value: 7}, {Key: "domain", Value: domain}, {Key: "metadata", Value: []any{"x"}}},
			aipRetryInfo("1.5"), aipRetryInfo(1.5), aipRetryInfo("1.1234567891s"), aipRetryInfo("2s"),
		})), aipWant{status: 503, message: "Busy."}},
		{"details not an array", aipDoc(member("code", 503), member("message", "Busy."), member("status", "UNAVAILABLE"), member("details", object{})), aipWant{status: 503, message: "Busy."}},
		{"members of the wrong type", aipDoc(member("code", "404"), member("message", 7), member("status", 5)), aipWant{status: 500}},
	}
}

// aipBrokenOwnCases are errgen errors whose metadata does not make an
// envelope: read as the foreign error their ErrorInfo names.
func aipBrokenOwnCases(ownText string) []aipCase {
	return []aipCase{
		{"errgen metadata with a value that does not decode", breakOwn(ownText, contract.MetaKind, ""), aipWant{own: true}},
		{"errgen metadata with extra that is not an object", breakOwn(ownText, contract.MetaExtra, "[1]"), aipWant{own: true}},
		// extra's entries must stay within the limits where their keys place
		// them, so that the envelope read back can be encoded again.
		{fmt.Sprintf("errgen metadata with extra nested %d levels deep", 200), breakOwn(ownText, contract.MetaExtra, `{"x":`+string(nest(199))+`}`), aipWant{own: true}},
	}
}

// aipUnreadableCases are texts that are no AIP-193 error, and documents
// past (and at) the limits every decoder shares.
func aipUnreadableCases() []aipCase {
	return []aipCase{
		{"not JSON", "{\"error\":", aipWant{fails: true, category: CategorySyntax}},
		{"an array", "[]", aipWant{fails: true, category: CategoryType}},
		{"no error member", `{"code":404}`, aipWant{fails: true, path: "error", category: CategoryMissing}},
		{"error not an object", `{"error":"NOT_FOUND"}`, aipWant{fails: true, path: "error", category: CategoryType}},
		// The whole document is held to the limits every decoder shares,
		// with the envelope decoder's error.
		{"past a limit: 1e999 in another member", `{"error":{"code":404,"message":"m","x":1e999}}`, aipWant{fails: true, category: CategorySyntax}},
		{"past a limit: an integer of 310 digits in another member", `{"error":{"code":404,"message":"m","x":1` + strings.Repeat("0", 309) + `}}`, aipWant{fails: true, category: CategorySyntax}},
		{fmt.Sprintf("past a limit: nested %d levels deep", contract.MaxDepth+1), `{"error":{"code":404,"message":"m","x":` + string(nest(contract.MaxDepth-1)) + `}}`, aipWant{fails: true, category: CategorySyntax}},
		// A member given twice whose first copy is past a limit: the text is
		// held to the limits, not the value a parser keeps (the last copy).
		{"past a limit: the first of two x members is 1e999", `{"error":{"code":404,"message":"m","x":1e999,"x":1}}`, aipWant{fails: true, category: CategorySyntax}},
		{fmt.Sprintf("past a limit: the first of two message members makes the document nest %d levels deep", contract.MaxDepth+1), `{"error":{"message":` + string(nest(contract.MaxDepth-1)) + `,"code":404,"message":"m"}}`, aipWant{fails: true, category: CategorySyntax}},
		{fmt.Sprintf("at the limit: nested %d levels deep", contract.MaxDepth), `{"error":{"code":404,"message":"m","x":` + string(nest(contract.MaxDepth-2)) + `}}`, aipWant{status: 404, message: "m"}},
	}
}

// aipBrokenOwnLimitCases are errgen errors whose metadata is past the
// limits where the contract's layout and fields put it.
func aipBrokenOwnLimitCases(c *contract.Contract, ownText string) []aipCase {
	var cases []aipCase
	// An extra entry whose key places it in a nested object of the layout
	// nests one level deeper there than in extra's own object.
	if len(c.Layout.Objects) > 1 {
		o := c.Layout.Objects[1]
		key := joinPath(o.Path, unknownName(o, "x_deep"))
		cases = append(cases, aipCase{fmt.Sprintf("errgen metadata with extra placed under %s past the limits", o.Path),
			breakOwn(ownText, contract.MetaExtra, `{"`+key+`":`+string(nest(contract.MaxDepth+1-depthOf(o)))+`}`), aipWant{own: true}})
	}
	// A metadata value of a free-form object whose first copy of a member
	// given twice is past a limit: the text counts, not the value a parser
	// keeps (the last copy), as for any other document.
	for _, mm := range c.AIP193.Members {
		if mm.Source == contract.SourceField && mm.Leaf != nil && mm.Field.Type == contract.TypeObject && len(mm.Field.Properties) == 0 {
			cases = append(cases, aipCase{"errgen metadata whose " + mm.Key + " holds 1e999 in the first of two members", breakOwn(ownText, mm.Key, `{"x":1e999,"x":1}`), aipWant{own: true}})
			break
		}
	}
	return cases
}

// aipForeignVec is the vector of tc: the envelope reading it gives, or its
// decode error. ok is false when tc is left out because its message might
// not survive a sanitizer unchanged. own is the first example, which the
// broken errgen errors are read as.
func aipForeignVec(c *contract.Contract, own object, tc aipCase) (v AIPDecodeVec, ok bool, err error) {
	w := tc.want
	if w.own {
		// The broken errgen errors read as foreign ones: their ErrorInfo
		// names the first example's kind, in this domain.
		first, _ := own.get(c.Layout.Leaf(contract.SourceKind).Path)
		firstKind := c.Kind(first.(string))
		firstMessage, _ := own.get(c.Layout.Leaf(contract.SourceMessage).Path)
		w = aipWant{status: firstKind.HTTP, message: firstMessage.(string), reason: firstKind.Reason}
		if d := decode(c, own).RetryAfterMs; d != nil {
			w.retryMs = int64p(min(*d, int64(c.Retry.MaxHintMs)))
		}
	}
	v = AIPDecodeVec{Name: tc.name, AIP193: tc.text, Envelope: json.RawMessage("null"), Category: w.category}
	if w.category != "" {
		v.Path = &w.path
	}
	if w.fails {
		return v, true, nil
	}
	text, ok := httpText(c, []byte(w.message))
	if !ok {
		return v, false, nil
	}
	message := upstreamMessage(c, w.status, text)
	if c.Sanitize.Sanitizes("message") && !sanitizeProof(c, message) {
		return v, false, nil
	}
	kind := c.HTTPKind(w.status)
	if c.Inbound != nil {
		kind = Classify(c.Inbound.Classifiers[0], Upstream{Status: w.status, Text: text}).Kind
	}
	if w.reason != "" {
		for _, k := range c.Kinds {
			if k.Reason == w.reason {
				kind = k.Name
			}
		}
	}
	env := fromExample(exampleenv.New(c, kind, message, nil))
	if hint := c.Layout.Leaf(contract.SourceRetryAfterMs); hint != nil && w.retryMs != nil {
		env = env.with(hint.Path, *w.retryMs)
	}
	if v.Envelope, err = raw(env); err != nil {
		return v, false, err
	}
	return v, true, nil
}
