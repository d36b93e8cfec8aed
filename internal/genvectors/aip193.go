package genvectors

import (
	"encoding/json"
	"fmt"
	"sort"
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
func aip193(f *File, c *contract.Contract, exs []exampleenv.Example) error {
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
	all := withUnknownMembers(c, exs, "members this contract does not name", "kept as received <&>")
	if hint := c.Layout.Leaf(contract.SourceRetryAfterMs); hint != nil {
		base := fromExample(exs[0].Value)
		for _, ms := range []int64{0, 1, 1500, 2000, 86_400_000, contract.MaxRetryDelayMs, contract.MaxRetryDelayMs + 1, contract.MaxSafeInteger} {
			all = append(all, named{"retry hint " + strconv.FormatInt(ms, 10) + " ms", base.with(hint.Path, ms)})
		}
	}
	// A member named with the empty string is a member like any other (the
	// Go writer once took its path, "", for the envelope's own).
	empty := fromExample(exs[0].Value)
	empty = append(empty, orderedjson.Member{Key: "", Value: "a member named with the empty string"})
	all = append(all, named{"a member this contract does not name, named with the empty string", empty})
	for _, n := range all {
		env, err := raw(n.o)
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
	cl := classificationOf(c, kindName)
	reason := contract.Reason(kindName)
	if k := c.Kind(kindName); k != nil {
		reason = k.Reason
	}
	message, _ := o.get(c.Layout.Leaf(contract.SourceMessage).Path)
	meta := map[string]string{contract.MetaKind: kindName}
	for _, m := range c.AIP193.Members {
		if m.Leaf == nil {
			switch m.Source {
			case contract.SourceVersion:
				meta[m.Key] = c.VersionLabel()
			case contract.SourceOrigin:
				meta[m.Key] = cl.Origin.Name
			case contract.SourceAction:
				meta[m.Key] = cl.Recovery.Action.Name
			case contract.SourceSameArguments:
				meta[m.Key] = cl.Recovery.SameArguments.Name
			case contract.SourceGuidance:
				if cl.Recovery.Guidance != "" {
					meta[m.Key] = cl.Recovery.Guidance
				}
			case contract.SourceSideEffects:
				meta[m.Key] = cl.SideEffects.Name
			}
			continue
		}
		v, ok := o.get(m.Leaf.Path)
		if !ok {
			continue
		}
		if s, isText := v.(string); isText && m.Text {
			meta[m.Key] = s
			continue
		}
		r, err := raw(v)
		if err != nil {
			return "", err
		}
		meta[m.Key] = string(r)
	}
	extra, err := extraOf(c, o)
	if err != nil {
		return "", err
	}
	if extra != "" {
		meta[contract.MetaExtra] = extra
	}
	d := decode(c, o)
	var retry any
	if ms := d.RetryAfterMs; ms != nil && *ms >= 0 {
		retry = durationText(min(*ms, contract.MaxRetryDelayMs))
		if *ms > contract.MaxRetryDelayMs {
			meta[contract.MetaRetryAfterMs] = strconv.FormatInt(*ms, 10)
		}
	}
	return aipDocument(cl.HTTP, message.(string), cl.GRPC.Name, reason, c.AIP193.Domain, meta, retry)
}

// aipDocument writes an AIP-193 JSON error.
func aipDocument(code int, message, status, reason, domain string, meta map[string]string, retry any) (string, error) {
	keys := make([]string, 0, len(meta))
	for k := range meta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	md := object{}
	for _, k := range keys {
		md = append(md, orderedjson.Member{Key: k, Value: meta[k]})
	}
	details := []any{object{
		{Key: "@type", Value: contract.ErrorInfoType},
		{Key: "reason", Value: reason},
		{Key: "domain", Value: domain},
		{Key: "metadata", Value: md},
	}}
	if retry != nil {
		details = append(details, object{{Key: "@type", Value: contract.RetryInfoType}, {Key: "retryDelay", Value: retry}})
	}
	doc := object{{Key: "error", Value: object{
		{Key: "code", Value: code},
		{Key: "message", Value: message},
		{Key: "status", Value: status},
		{Key: "details", Value: details},
	}}}
	b, err := raw(doc)
	return string(b), err
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
	domain := c.AIP193.Domain
	some := c.Kinds[len(c.Kinds)/2]
	errorInfo := func(reason, dom string, meta object) object {
		return object{{Key: "@type", Value: contract.ErrorInfoType}, {Key: "reason", Value: reason}, {Key: "domain", Value: dom}, {Key: "metadata", Value: meta}}
	}
	retryInfo := func(d any) object {
		return object{{Key: "@type", Value: contract.RetryInfoType}, {Key: "retryDelay", Value: d}}
	}
	doc := func(members ...orderedjson.Member) string {
		b, _ := raw(object{{Key: "error", Value: object(members)}})
		return string(b)
	}
	m := func(k string, v any) orderedjson.Member { return orderedjson.Member{Key: k, Value: v} }
	type want struct {
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
	ms := func(n int64) *int64 { return &n }
	ownText, err := aipText(c, own)
	if err != nil {
		return nil, err
	}
	broken := func(key, value string) string {
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
	cases := []struct {
		name string
		text string
		want want
	}{
		{"status and code, no details", doc(m("code", 404), m("message", "Shelf 7 does not exist."), m("status", "NOT_FOUND")), want{status: 404, message: "Shelf 7 does not exist."}},
		{"status only", doc(m("message", "Too many requests."), m("status", "RESOURCE_EXHAUSTED")), want{status: 429, message: "Too many requests."}},
		{"code only", doc(m("code", 503), m("message", "Try again later.")), want{status: 503, message: "Try again later."}},
		{"neither code nor status", doc(m("message", "Something broke.")), want{status: 500, message: "Something broke."}},
		{"a code that is not an error status", doc(m("code", 200), m("message", "Odd."), m("status", "PERMISSION_DENIED")), want{status: 403, message: "Odd."}},
		// Code 0 (OK) is no error code: an error that claims it is a failure of 500, as gRPC's FromError reads one.
		{"code 0 and status OK", doc(m("code", 0), m("message", "All fine, it says."), m("status", "OK")), want{status: 500, message: "All fine, it says."}},
		{"an unknown status name", doc(m("message", "Odd."), m("status", "TEAPOT")), want{status: 500, message: "Odd."}},
		{"an empty message", doc(m("code", 409), m("message", ""), m("status", "ABORTED")), want{status: 409}},
		{"a reason of this contract in its domain", doc(m("code", 400), m("message", "Reported upstream."), m("status", "INVALID_ARGUMENT"), m("details", []any{errorInfo(some.Reason, domain, object{})})), want{status: 400, message: "Reported upstream.", reason: some.Reason}},
		{"a reason of this contract in another domain", doc(m("code", 400), m("message", "Reported upstream."), m("status", "INVALID_ARGUMENT"), m("details", []any{errorInfo(some.Reason, "example.com", object{})})), want{status: 400, message: "Reported upstream."}},
		{"an unknown reason in this domain", doc(m("code", 502), m("message", "Upstream said no."), m("status", "UNAVAILABLE"), m("details", []any{errorInfo("NO_SUCH_REASON", domain, object{{Key: "service", Value: "x"}})})), want{status: 502, message: "Upstream said no."}},
		{"RetryInfo only", doc(m("code", 503), m("message", "Busy."), m("status", "UNAVAILABLE"), m("details", []any{retryInfo("2.5s")})), want{status: 503, message: "Busy.", retryMs: ms(2500)}},
		{"a retry delay below a millisecond rounds up", doc(m("code", 429), m("message", "Slow down."), m("status", "RESOURCE_EXHAUSTED"), m("details", []any{retryInfo("1.000000001s")})), want{status: 429, message: "Slow down.", retryMs: ms(1001)}},
		{"a retry delay past the longest hint", doc(m("code", 429), m("message", "Slow down."), m("status", "RESOURCE_EXHAUSTED"), m("details", []any{retryInfo("315576000000s")})), want{status: 429, message: "Slow down.", retryMs: ms(int64(c.Retry.MaxHintMs))}},
		{"a negative retry delay", doc(m("code", 429), m("message", "Slow down."), m("status", "RESOURCE_EXHAUSTED"), m("details", []any{retryInfo("-1s")})), want{status: 429, message: "Slow down."}},
		// protobuf's JSON readers accept a field's proto name as well as its
		// JSON name (json_format writes it with preserving_proto_field_name,
		// protojson with UseProtoNames): the proto name counts when the JSON
		// name is absent, wherever it stands.
		{"RetryInfo by its proto field name, retry_delay", doc(m("code", 503), m("message", "Busy."), m("status", "UNAVAILABLE"), m("details", []any{object{{Key: "@type", Value: contract.RetryInfoType}, {Key: "retry_delay", Value: "2.5s"}}})), want{status: 503, message: "Busy.", retryMs: ms(2500)}},
		{"RetryInfo by both names: retryDelay counts", doc(m("code", 503), m("message", "Busy."), m("status", "UNAVAILABLE"), m("details", []any{object{{Key: "@type", Value: contract.RetryInfoType}, {Key: "retryDelay", Value: "2.5s"}, {Key: "retry_delay", Value: "9s"}}})), want{status: 503, message: "Busy.", retryMs: ms(2500)}},
		{"malformed details", doc(m("code", 503), m("message", "Busy."), m("status", "UNAVAILABLE"), m("details", []any{
			"not an object", 7, nil, object{{Key: "reason", Value: some.Reason}},
			object{{Key: "@type", Value: contract.ErrorInfoType}, {Key: "reason", Value: 7}, {Key: "domain", Value: domain}, {Key: "metadata", Value: []any{"x"}}},
			retryInfo("1.5"), retryInfo(1.5), retryInfo("1.1234567891s"), retryInfo("2s"),
		})), want{status: 503, message: "Busy."}},
		{"details not an array", doc(m("code", 503), m("message", "Busy."), m("status", "UNAVAILABLE"), m("details", object{})), want{status: 503, message: "Busy."}},
		{"members of the wrong type", doc(m("code", "404"), m("message", 7), m("status", 5)), want{status: 500}},
		{"errgen metadata with a value that does not decode", broken(contract.MetaKind, ""), want{own: true}},
		{"errgen metadata with extra that is not an object", broken(contract.MetaExtra, "[1]"), want{own: true}},
		// extra's entries must stay within the limits where their keys place
		// them, so that the envelope read back can be encoded again.
		{fmt.Sprintf("errgen metadata with extra nested %d levels deep", 200), broken(contract.MetaExtra, `{"x":`+string(nest(199))+`}`), want{own: true}},
		{"not JSON", "{\"error\":", want{fails: true, category: CategorySyntax}},
		{"an array", "[]", want{fails: true, category: CategoryType}},
		{"no error member", `{"code":404}`, want{fails: true, path: "error", category: CategoryMissing}},
		{"error not an object", `{"error":"NOT_FOUND"}`, want{fails: true, path: "error", category: CategoryType}},
		// The whole document is held to the limits every decoder shares,
		// with the envelope decoder's error.
		{"past a limit: 1e999 in another member", `{"error":{"code":404,"message":"m","x":1e999}}`, want{fails: true, category: CategorySyntax}},
		{"past a limit: an integer of 310 digits in another member", `{"error":{"code":404,"message":"m","x":1` + strings.Repeat("0", 309) + `}}`, want{fails: true, category: CategorySyntax}},
		{fmt.Sprintf("past a limit: nested %d levels deep", contract.MaxDepth+1), `{"error":{"code":404,"message":"m","x":` + string(nest(contract.MaxDepth-1)) + `}}`, want{fails: true, category: CategorySyntax}},
		// A member given twice whose first copy is past a limit: the text is
		// held to the limits, not the value a parser keeps (the last copy).
		{"past a limit: the first of two x members is 1e999", `{"error":{"code":404,"message":"m","x":1e999,"x":1}}`, want{fails: true, category: CategorySyntax}},
		{fmt.Sprintf("past a limit: the first of two message members makes the document nest %d levels deep", contract.MaxDepth+1), `{"error":{"message":` + string(nest(contract.MaxDepth-1)) + `,"code":404,"message":"m"}}`, want{fails: true, category: CategorySyntax}},
		{fmt.Sprintf("at the limit: nested %d levels deep", contract.MaxDepth), `{"error":{"code":404,"message":"m","x":` + string(nest(contract.MaxDepth-2)) + `}}`, want{status: 404, message: "m"}},
	}
	// An extra entry whose key places it in a nested object of the layout
	// nests one level deeper there than in extra's own object.
	if len(c.Layout.Objects) > 1 {
		o := c.Layout.Objects[1]
		key := joinPath(o.Path, unknownName(o, "x_deep"))
		cases = append(cases, struct {
			name string
			text string
			want want
		}{fmt.Sprintf("errgen metadata with extra placed under %s past the limits", o.Path),
			broken(contract.MetaExtra, `{"`+key+`":`+string(nest(contract.MaxDepth+1-depthOf(o)))+`}`), want{own: true}})
	}
	// A metadata value of a free-form object whose first copy of a member
	// given twice is past a limit: the text counts, not the value a parser
	// keeps (the last copy), as for any other document.
	for _, mm := range c.AIP193.Members {
		if mm.Source == contract.SourceField && mm.Leaf != nil && mm.Field.Type == contract.TypeObject && len(mm.Field.Properties) == 0 {
			cases = append(cases, struct {
				name string
				text string
				want want
			}{"errgen metadata whose " + mm.Key + " holds 1e999 in the first of two members", broken(mm.Key, `{"x":1e999,"x":1}`), want{own: true}})
			break
		}
	}
	// The two broken errgen errors read as foreign ones: their ErrorInfo
	// names the first example's kind, in this domain.
	first, _ := own.get(c.Layout.Leaf(contract.SourceKind).Path)
	firstKind := c.Kind(first.(string))
	firstMessage, _ := own.get(c.Layout.Leaf(contract.SourceMessage).Path)
	var out []AIPDecodeVec
	for _, tc := range cases {
		w := tc.want
		if w.own {
			w = want{status: firstKind.HTTP, message: firstMessage.(string), reason: firstKind.Reason}
			if d := decode(c, own).RetryAfterMs; d != nil {
				w.retryMs = ms(min(*d, int64(c.Retry.MaxHintMs)))
			}
		}
		v := AIPDecodeVec{Name: tc.name, AIP193: tc.text, Envelope: json.RawMessage("null"), Category: w.category}
		if w.category != "" {
			v.Path = &w.path
		}
		if !w.fails {
			text, ok := httpText(c, []byte(w.message))
			if !ok {
				continue
			}
			message := upstreamMessage(c, w.status, text)
			if sanitizesMessage(c) && !sanitizeProof(c, message) {
				continue
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
			env := object(exampleenv.New(c, kind, message, nil))
			if hint := c.Layout.Leaf(contract.SourceRetryAfterMs); hint != nil && w.retryMs != nil {
				env = env.with(hint.Path, *w.retryMs)
			}
			r, err := raw(env)
			if err != nil {
				return nil, err
			}
			v.Envelope = r
		}
		out = append(out, v)
	}
	return out, nil
}
