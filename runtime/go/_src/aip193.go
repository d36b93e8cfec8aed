package agenterror

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// The google.rpc mapping (AIP-193): an envelope as a google.rpc.Status with
// an ErrorInfo and a RetryInfo, in its JSON form
//
//	{"error":{"code":<HTTP status>,"message":...,"status":"<gRPC code name>","details":[ErrorInfo, RetryInfo]}}
//
// and back. Every envelope this package writes comes back as it was; a
// foreign error becomes the best envelope this contract gives it. The
// grpcstatus package generated beside this one converts RPCStatus to and
// from google.golang.org/grpc/status.

// The detail types of the mapping, as "@type" names them.
const (
	errorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"
	retryInfoType = "type.googleapis.com/google.rpc.RetryInfo"
)

// maxRetryDelayMs is the longest retry hint a google.protobuf.Duration
// holds (315,576,000,000 seconds). A longer hint goes into RetryInfo as that
// maximum and into the metadata, exactly, as metaRetryAfterMs.
const maxRetryDelayMs = 315_576_000_000_000

// The metadata keys the mapping gives the kind, the retry hint past a
// Duration's range and the members the contract does not name; the other
// keys are in aipLeaves and aipOffWire.
const (
	metaKind         = "kind"
	metaRetryAfterMs = "retryAfterMs"
	metaExtra        = "extra"
)

// RPCStatus is the google.rpc.Status an envelope maps to, field by field:
// what AIP193 writes as JSON and what the grpcstatus package turns into
// protobuf types.
type RPCStatus struct {
	// HTTPStatus is AIP-193's "code": the kind's HTTP status. 0 when
	// unknown (a status read from gRPC, which carries none).
	HTTPStatus int
	// Code is the google.rpc.Code number; Status its name ("NOT_FOUND").
	Code   int
	Status string
	// Message is the envelope's message.
	Message string
	// Reason, Domain and Metadata are the ErrorInfo detail; all empty
	// when there is none.
	Reason   string
	Domain   string
	Metadata map[string]string
	// RetryDelay is the RetryInfo detail's retry_delay; nil without one.
	RetryDelay *RPCDuration
}

// RPCDuration is a google.protobuf.Duration.
type RPCDuration struct {
	Seconds int64
	Nanos   int32
}

// aipLeaf is one leaf of the layout as the mapping reads an envelope back:
// where it goes on the wire and where its value comes from.
type aipLeaf struct {
	path string
	src  uint8
	// key is the metadata key of an aipMeta leaf; text is true when its
	// value is the text itself rather than compact JSON.
	key  string
	text bool
	// raw is the JSON value of an aipConst leaf.
	raw string
}

// The sources of aipLeaf.
const (
	aipMeta uint8 = iota
	aipKind
	aipMessage
	aipRetry
	aipConst
)

// grpcCodes are google.rpc.Code's error codes by number (index), each
// with the HTTP status code.proto documents for it.
var grpcCodes = [...]struct {
	name string
	http int
}{
	{"OK", 200}, {"CANCELLED", 499}, {"UNKNOWN", 500}, {"INVALID_ARGUMENT", 400},
	{"DEADLINE_EXCEEDED", 504}, {"NOT_FOUND", 404}, {"ALREADY_EXISTS", 409},
	{"PERMISSION_DENIED", 403}, {"RESOURCE_EXHAUSTED", 429}, {"FAILED_PRECONDITION", 400},
	{"ABORTED", 409}, {"OUT_OF_RANGE", 400}, {"UNIMPLEMENTED", 501}, {"INTERNAL", 500},
	{"UNAVAILABLE", 503}, {"DATA_LOSS", 500}, {"UNAUTHENTICATED", 401},
}

// grpcCodeNumber returns the number of the code named name; -1 for a name
// that is none.
func grpcCodeNumber(name string) int {
	for i, c := range grpcCodes {
		if c.name == name {
			return i
		}
	}
	return -1
}

// aipReason is the ErrorInfo reason of a kind (errgen's contract.Reason):
// its words upper-cased and joined with "_", "KIND" put before a result
// shorter than 3 or not starting with a letter, at most 63 characters.
func aipReason(kind string) string {
	lower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	upper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	digit := func(c byte) bool { return '0' <= c && c <= '9' }
	b := make([]byte, 0, len(kind)+8)
	word := 0 // the length of the current word
	for i := 0; i < len(kind); i++ {
		c := kind[i]
		if !lower(c) && !upper(c) && !digit(c) {
			word = 0
			continue
		}
		if upper(c) && word > 0 {
			prev := kind[i-1]
			if lower(prev) || digit(prev) || upper(prev) && i+1 < len(kind) && lower(kind[i+1]) {
				word = 0
			}
		}
		if word == 0 && len(b) > 0 {
			b = append(b, '_')
		}
		if lower(c) {
			c -= 'a' - 'A'
		}
		b = append(b, c)
		word++
	}
	r := string(b)
	if len(r) < 3 || !upper(r[0]) {
		if r == "" {
			r = "KIND"
		} else {
			r = "KIND_" + r
		}
	}
	if len(r) > 63 {
		r = strings.TrimRight(r[:63], "_")
	}
	return r
}

// RPCStatus maps the envelope to a google.rpc.Status: the kind's HTTP
// status and gRPC code, the message, an ErrorInfo (reason from the kind,
// domain ErrorInfoDomain, metadata holding the kind verbatim and every
// value of the envelope AIP-193 has no field for) and, with a retry hint, a
// RetryInfo. It fails when the envelope does not encode (AppendJSON).
//
// Its message and metadata hold the envelope's text as it is, which may hold
// bytes that are not UTF-8 when it was set by hand; AppendAIP193 writes each
// such byte as the escape \ufffd, as every JSON writer does, and the
// grpcstatus package as U+FFFD (protobuf requires valid UTF-8 of a string).
func (e *Envelope) RPCStatus() (*RPCStatus, error) {
	wire, err := e.AppendJSON(nil)
	if err != nil {
		return nil, err
	}
	values, err := wireValues(wire)
	if err != nil {
		return nil, err
	}
	cl := Lookup(e.Kind)
	meta := make(map[string]string, len(aipLeaves)+2)
	meta[metaKind] = string(e.Kind)
	for i := range aipLeaves {
		lf := &aipLeaves[i]
		raw, ok := values[lf.path]
		if lf.src != aipMeta || !ok {
			continue
		}
		var s string
		if lf.text && json.Unmarshal(raw, &s) == nil {
			meta[lf.key] = s
		} else {
			meta[lf.key] = string(raw)
		}
	}
	e.aipOffWire(meta)
	if len(e.Extra) > 0 {
		meta[metaExtra], _ = extraJSON(e.Extra)
	}
	s := &RPCStatus{
		HTTPStatus: cl.HTTPStatus,
		Code:       cl.GRPCCode,
		Status:     cl.GRPCStatus,
		Message:    e.Message,
		Reason:     cl.Reason,
		Domain:     ErrorInfoDomain,
		Metadata:   meta,
	}
	if ms := e.Recovery.RetryAfterMs; ms != nil && *ms >= 0 {
		d := min(*ms, maxRetryDelayMs)
		s.RetryDelay = &RPCDuration{Seconds: d / 1000, Nanos: int32(d%1000) * 1e6}
		if *ms > maxRetryDelayMs {
			meta[metaRetryAfterMs] = strconv.FormatInt(*ms, 10)
		}
	}
	return s, nil
}

// wireValues maps the path of every member of an encoded envelope, nested
// objects of the layout included, to its raw JSON.
func wireValues(wire []byte) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	var walk func(data []byte, path string) error
	walk = func(data []byte, path string) error {
		// The encoder's own output, within the limits: no need to check them.
		obj, err := jsonObject(data, path)
		if err != nil {
			return err
		}
		for name, raw := range obj {
			p := joinPath(path, name)
			out[p] = raw
			for _, op := range objectPaths {
				// The root's path, "", is no member's: a member named ""
				// (an Extra key) is a value, not the envelope again.
				if op == p && op != "" {
					if err := walk(raw, p); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return out, walk(wire, "")
}

// AIP193 renders the envelope as an AIP-193 JSON error:
// {"error":{"code","message","status","details":[ErrorInfo, RetryInfo]}},
// members in that order, the ErrorInfo's metadata sorted by key, strings
// escaped as the envelope's encoder escapes them. FromAIP193 reads it back
// into the same envelope.
func (e *Envelope) AIP193() ([]byte, error) {
	s, err := e.RPCStatus()
	if err != nil {
		return nil, err
	}
	return s.AppendAIP193(nil), nil
}

// AppendAIP193 appends the AIP-193 JSON form of s to b.
func (s *RPCStatus) AppendAIP193(b []byte) []byte {
	b = append(b, `{"error":{"code":`...)
	b = strconv.AppendInt(b, int64(s.HTTPStatus), 10)
	b = append(b, `,"message":`...)
	b = appendString(b, s.Message)
	b = append(b, `,"status":`...)
	b = appendString(b, s.Status)
	b = append(b, `,"details":[{"@type":"`+errorInfoType+`","reason":`...)
	b = appendString(b, s.Reason)
	b = append(b, `,"domain":`...)
	b = appendString(b, s.Domain)
	b = append(b, `,"metadata":{`...)
	keys := make([]string, 0, len(s.Metadata))
	for k := range s.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendString(b, s.Metadata[k])
	}
	b = append(b, "}}"...)
	if s.RetryDelay != nil {
		b = append(b, `,{"@type":"`+retryInfoType+`","retryDelay":`...)
		b = appendString(b, s.RetryDelay.String())
		b = append(b, '}')
	}
	return append(b, "]}}"...)
}

// String is the Duration's JSON form: seconds with 0, 3, 6 or 9 fractional
// digits and an "s" ("1.500s", "2s"), as protobuf's JSON mapping writes it.
func (d RPCDuration) String() string {
	neg := d.Seconds < 0 || d.Nanos < 0
	sec, nanos := d.Seconds, int64(d.Nanos)
	if sec < 0 {
		sec = -sec
	}
	if nanos < 0 {
		nanos = -nanos
	}
	s := strconv.FormatInt(sec, 10)
	if neg {
		s = "-" + s
	}
	switch {
	case nanos == 0:
	case nanos%1e6 == 0:
		s += "." + strconv.FormatInt(1000+nanos/1e6, 10)[1:]
	case nanos%1e3 == 0:
		s += "." + strconv.FormatInt(1e6+nanos/1e3, 10)[1:]
	default:
		s += "." + strconv.FormatInt(1e9+nanos, 10)[1:]
	}
	return s + "s"
}

// parseRPCDuration reads a Duration's JSON form: an optional "-", whole
// seconds (at most 315,576,000,000), optionally "." and 1 to 9 digits, and
// "s". ok is false for anything else.
func parseRPCDuration(s string) (RPCDuration, bool) {
	body, ok := strings.CutSuffix(s, "s")
	if !ok {
		return RPCDuration{}, false
	}
	neg := strings.HasPrefix(body, "-")
	body = strings.TrimPrefix(body, "-")
	whole, frac, hasFrac := strings.Cut(body, ".")
	if whole == "" || len(whole) > 12 || !digits(whole) || hasFrac && (frac == "" || len(frac) > 9 || !digits(frac)) {
		return RPCDuration{}, false
	}
	sec, _ := strconv.ParseInt(whole, 10, 64)
	if sec > maxRetryDelayMs/1000 {
		return RPCDuration{}, false
	}
	var nanos int64
	if hasFrac {
		nanos, _ = strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
	}
	if neg {
		sec, nanos = -sec, -nanos
	}
	return RPCDuration{Seconds: sec, Nanos: int32(nanos)}, true
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ms is the duration in whole milliseconds, rounded up (a client never
// retries early); ok is false for a negative one.
func (d RPCDuration) ms() (int64, bool) {
	if d.Seconds < 0 || d.Nanos < 0 {
		return 0, false
	}
	return d.Seconds*1000 + (int64(d.Nanos)+999_999)/1_000_000, true
}

// FromAIP193 reads an AIP-193 JSON error into an envelope (see
// FromRPCStatus). It fails only when data is not a JSON object whose
// "error" member is an object, or is past the limits every decoder of the
// contract shares (MaxDepth, numbers a 64-bit float holds: a DecodeSyntax
// error with path "", as the envelope decoder gives); every member inside
// that is of the wrong
// type, and every detail that is not an object with a known "@type" and
// well-typed members, is ignored.
//
// A document longer than MaxDocumentBytes is rejected before it is read
// (DecodeSyntax); DecodeOptions reads longer ones.
func FromAIP193(data []byte) (*Envelope, error) {
	if err := checkSize(data, MaxDocumentBytes); err != nil {
		return nil, err
	}
	return fromAIP193(data)
}

// fromAIP193 is FromAIP193 without the size limit.
func fromAIP193(data []byte) (*Envelope, error) {
	s, err := parseAIP193(data)
	if err != nil {
		return nil, err
	}
	return FromRPCStatus(s), nil
}

// parseAIP193 reads the google.rpc.Status of an AIP-193 JSON error: the
// first ErrorInfo and the first RetryInfo of its details. It reads the
// document once with the envelope's scanner, without the maps and
// reflection of encoding/json (which cost FromAIP193 three quarters of its
// time). A document the scanner does not read to its end (not JSON, or past
// the limits the envelope's decoders share), without an "error" member or
// whose "error" is not an object goes to parseAIP193JSON: that reading
// (encoding/json within the limits, decodeObject) defines the result of
// every document,
// errors included, and the scanner's reading is the same wherever it gives
// one (a differential test holds the two together).
func parseAIP193(data []byte) (*RPCStatus, error) {
	d := newScanner(data)
	if d.open() != stSet {
		return parseAIP193JSON(data)
	}
	var s *RPCStatus
	for more := d.first(); more; more = d.next() {
		if string(d.key) != "error" {
			d.skip()
			continue
		}
		// A member given twice counts with its last value, as in the
		// map encoding/json fills.
		if d.peek() != '{' {
			return parseAIP193JSON(data)
		}
		s = d.aipStatus()
	}
	if d.end(); d.failed || s == nil {
		return parseAIP193JSON(data)
	}
	s.Code = grpcCodeNumber(s.Status)
	return s, nil
}

// aipStatus reads the "error" object, at d.i, as parseAIP193JSON does:
// each member by its last value, a member of the wrong type as absent.
func (d *scanner) aipStatus() *RPCStatus {
	s := &RPCStatus{}
	d.push()
	for more := d.first(); more; more = d.next() {
		switch string(d.key) {
		case "code":
			s.HTTPStatus = d.aipCode()
		case "message":
			s.Message = d.aipString()
		case "status":
			s.Status = d.aipString()
		case "details":
			d.aipDetails(s)
		default:
			d.skip()
		}
	}
	return s
}

// aipCode reads "code" by value as a 64-bit float, as encoding/json does:
// the status when it is a whole number from 400 to 599, else 0.
func (d *scanner) aipCode() int {
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		d.skip()
		return 0
	}
	start := d.i
	integer := d.number()
	if d.failed {
		return 0
	}
	text := d.data[start:d.i]
	if integer {
		// Exact without a float: the range checked is far inside 2^53.
		if v, ok := parseInt(text); ok && v >= 400 && v <= 599 {
			return int(v)
		}
		return 0
	}
	code, err := strconv.ParseFloat(string(text), 64)
	if err == nil && code >= 400 && code <= 599 && code == float64(int(code)) {
		return int(code)
	}
	return 0
}

// aipString reads a string value; "" for a value of another type, as
// jsonString reads one.
func (d *scanner) aipString() string {
	if d.peek() != '"' {
		d.skip()
		return ""
	}
	var v string
	d.str(&v)
	return v
}

// aipDetails reads "details": the first ErrorInfo and the first RetryInfo
// among the objects of the array. A "details" given again replaces what an
// earlier one gave.
func (d *scanner) aipDetails(s *RPCStatus) {
	s.Reason, s.Domain, s.Metadata, s.RetryDelay = "", "", nil, nil
	if d.peek() != '[' {
		d.skip()
		return
	}
	d.push()
	var seenInfo, seenRetry bool
	for more := d.firstElement(); more; more = d.nextElement() {
		d.aipDetail(s, &seenInfo, &seenRetry)
	}
}

// aipDetail reads one element of "details". Its "@type" may come after the
// members it decides about, and each member counts by its last value, so
// the object is read through first, noting where each value it needs
// starts; those values are read afterwards, only for a detail that counts.
func (d *scanner) aipDetail(s *RPCStatus, seenInfo, seenRetry *bool) {
	if d.peek() != '{' {
		d.skip()
		return
	}
	d.push()
	typ, reason, domain, meta, delay, protoDelay := -1, -1, -1, -1, -1, -1
	for more := d.first(); more; more = d.next() {
		d.peek()
		at := d.i
		switch string(d.key) {
		case "@type":
			typ = at
		case "reason":
			reason = at
		case "domain":
			domain = at
		case "metadata":
			meta = at
		case "retryDelay":
			delay = at
		case "retry_delay":
			protoDelay = at
		}
		d.skip()
	}
	if d.failed || typ < 0 {
		return
	}
	// The proto field name, which protobuf's JSON readers accept as well,
	// counts when the JSON name is absent.
	if delay < 0 {
		delay = protoDelay
	}
	end := d.i
	defer func() { d.i = end }()
	d.i = typ
	switch d.aipString() {
	case errorInfoType:
		if *seenInfo {
			return
		}
		*seenInfo = true
		if reason >= 0 {
			d.i = reason
			s.Reason = d.aipString()
		}
		if domain >= 0 {
			d.i = domain
			s.Domain = d.aipString()
		}
		if meta >= 0 {
			d.i = meta
			s.Metadata = d.aipMetadata()
		}
	case retryInfoType:
		if *seenRetry {
			return
		}
		*seenRetry = true
		if delay >= 0 {
			d.i = delay
			if d.peek() == '"' {
				if dur, ok := parseRPCDuration(d.aipString()); ok {
					s.RetryDelay = &dur
				}
			}
		}
	}
}

// aipMetadata reads ErrorInfo's metadata: its string values, a member
// given again by its last value; nil unless it is an object with members.
func (d *scanner) aipMetadata() map[string]string {
	if d.peek() != '{' {
		d.skip()
		return nil
	}
	d.push()
	var meta map[string]string
	for more := d.first(); more; more = d.next() {
		if meta == nil {
			meta = make(map[string]string, len(aipLeaves)+2)
		}
		if d.peek() != '"' {
			// Before the skip, which reads the names of an object value.
			delete(meta, string(d.key))
			d.skip()
			continue
		}
		meta[aipMetaKey(d.key)] = d.aipString()
	}
	return meta
}

// aipMetaKey is the metadata key k as a string, the mapping's own keys
// without making one.
func aipMetaKey(k []byte) string {
	for i := range aipLeaves {
		if key := aipLeaves[i].key; key != "" && key == string(k) {
			return key
		}
	}
	switch string(k) {
	case metaKind:
		return metaKind
	case metaRetryAfterMs:
		return metaRetryAfterMs
	case metaExtra:
		return metaExtra
	}
	return string(k)
}

// parseAIP193JSON is parseAIP193's reading with encoding/json.
func parseAIP193JSON(data []byte) (*RPCStatus, error) {
	top, err := decodeObject(data, "")
	if err != nil {
		return nil, err
	}
	raw, ok := top["error"]
	if !ok {
		return nil, &DecodeError{Path: "error", Problem: "is required", Category: DecodeMissing}
	}
	obj, err := decodeObject(raw, "error")
	if err != nil {
		return nil, err
	}
	s := &RPCStatus{}
	// The code is read by value, as the envelope's integers are (404.0 is
	// 404); it counts only when it is an error status.
	var code float64
	if json.Unmarshal(obj["code"], &code) == nil && code >= 400 && code <= 599 && code == float64(int(code)) {
		s.HTTPStatus = int(code)
	}
	s.Message, _ = jsonString(obj["message"])
	s.Status, _ = jsonString(obj["status"])
	s.Code = grpcCodeNumber(s.Status)
	var details []json.RawMessage
	_ = json.Unmarshal(obj["details"], &details)
	var seenInfo, seenRetry bool
	for _, d := range details {
		var detail map[string]json.RawMessage
		if json.Unmarshal(d, &detail) != nil {
			continue
		}
		switch t, _ := jsonString(detail["@type"]); t {
		case errorInfoType:
			if seenInfo {
				continue
			}
			seenInfo = true
			s.Reason, _ = jsonString(detail["reason"])
			s.Domain, _ = jsonString(detail["domain"])
			var meta map[string]json.RawMessage
			if json.Unmarshal(detail["metadata"], &meta) == nil && len(meta) > 0 {
				s.Metadata = make(map[string]string, len(meta))
				for k, v := range meta {
					if str, ok := jsonString(v); ok {
						s.Metadata[k] = str
					}
				}
			}
		case retryInfoType:
			if seenRetry {
				continue
			}
			seenRetry = true
			raw, ok := detail["retryDelay"]
			if !ok {
				raw = detail["retry_delay"]
			}
			if str, ok := jsonString(raw); ok {
				if d, ok := parseRPCDuration(str); ok {
					s.RetryDelay = &d
				}
			}
		}
	}
	return s, nil
}

// FromRPCStatus reads a google.rpc.Status into an envelope.
//
// One this package's RPCStatus wrote (its ErrorInfo's domain is
// ErrorInfoDomain and its metadata has a kind) comes back as the envelope
// it was: the metadata's values are put where the layout carries them and
// decoded as an envelope (UnmarshalJSON, so every text in it is
// sanitized), the retry hint taken from retryAfterMs or RetryInfo, the
// values the layout does not carry and the extra members set from the
// metadata, their text sanitized too. When any of that fails the status is read as a foreign one.
//
// A foreign status gets the kind its reason names when its domain is
// ErrorInfoDomain (reasons are unique only within their domain), else
// the kind a response with its HTTP status and message is read as
// (ReadHTTP's reading of a body without an envelope); the HTTP status is
// HTTPStatus when it is an error status (400-599), else the one
// google.rpc.Code documents for the code (Code, else Status), else 500.
// The message is "HTTP <status> <status text>: <message>", as ReadHTTP
// builds one (upstreamMessage: the status line alone for a contract that
// never echoes upstream text, surfaces.http.echo_body: false); the retry hint is RetryInfo's delay in whole milliseconds,
// rounded up, at most RetryMaxHint, none when negative.
func FromRPCStatus(s *RPCStatus) *Envelope {
	if s.Domain == ErrorInfoDomain && s.Metadata[metaKind] != "" {
		if e := fromOwnRPCStatus(s); e != nil {
			return e
		}
	}
	status := s.HTTPStatus
	if status < 400 || status > 599 {
		status = 500
		n := s.Code
		if n <= 0 || n >= len(grpcCodes) {
			n = grpcCodeNumber(s.Status)
		}
		if n > 0 && n < len(grpcCodes) {
			status = grpcCodes[n].http
		}
	}
	var e *Envelope
	if kind, ok := kindByReason(s.Reason); ok && s.Domain == ErrorInfoDomain {
		e = aipNew(kind, upstreamMessage(status, httpText([]byte(s.Message))))
	} else {
		e = classifyHTTP(status, []byte(s.Message))
	}
	if s.RetryDelay != nil {
		if ms, ok := s.RetryDelay.ms(); ok {
			ms = min(ms, maxHintMs)
			e.Recovery.RetryAfterMs = &ms
		}
	}
	return e
}

// fromOwnRPCStatus reads back what RPCStatus wrote; nil when the metadata
// does not make an envelope.
func fromOwnRPCStatus(s *RPCStatus) *Envelope {
	meta := s.Metadata
	var retry string
	if v, ok := meta[metaRetryAfterMs]; ok {
		retry = v
	} else if s.RetryDelay != nil {
		if ms, ok := s.RetryDelay.ms(); ok {
			retry = strconv.FormatInt(ms, 10)
		}
	}
	// The values go one after another into buf, each leaf's a piece of it
	// (a piece stays as it was when buf grows), sized for the usual case.
	size := len(s.Message) + len(retry) + 16*len(aipLeaves)
	for _, v := range meta {
		size += len(v) + 2
	}
	buf := make([]byte, 0, size)
	root := wireObject{members: make([]wireMember, 0, len(aipLeaves))}
	for i := range aipLeaves {
		lf := &aipLeaves[i]
		start := len(buf)
		// A string appendString writes is one JSON value by construction;
		// any other value must be checked to be one JSON value and nothing
		// more: a metadata text such as `1,"kind":"x"` would otherwise add
		// members.
		check := true
		switch lf.src {
		case aipKind:
			buf, check = appendString(buf, meta[metaKind]), false
		case aipMessage:
			buf, check = appendString(buf, s.Message), false
		case aipRetry:
			if retry == "" {
				continue
			}
			buf = append(buf, retry...)
		case aipConst:
			buf = append(buf, lf.raw...)
		default:
			v, ok := meta[lf.key]
			if !ok {
				continue
			}
			if lf.text {
				buf, check = appendString(buf, v), false
			} else {
				buf = append(buf, v...)
			}
		}
		raw := buf[start:len(buf):len(buf)]
		if check && !json.Valid(raw) {
			return nil
		}
		root.set(lf.path, raw)
	}
	e := new(Envelope)
	if e.decode(root.append(make([]byte, 0, len(buf)+24*len(aipLeaves))), true) != nil {
		return nil
	}
	if !e.aipSetOffWire(meta) {
		return nil
	}
	if v, ok := meta[metaExtra]; ok {
		extra, err := decodeObject([]byte(v), metaExtra)
		if err != nil {
			return nil
		}
		if len(extra) > 0 && e.Extra == nil {
			e.Extra = make(map[string]any, len(extra))
		}
		for k, raw := range extra {
			// An entry goes where its key places it (placeExtra), and must
			// stay within the limits there, as AppendJSON checks it: an
			// envelope read back can always be encoded again.
			if obj, _ := placeExtra(k); withinLimits(raw, depthOf(obj)) != nil {
				return nil
			}
			e.Extra[k] = sanitizeRawJSON(raw)
		}
	}
	return e
}

// wireObject builds a JSON object from members set by dotted path, in the
// order they are first set.
type wireObject struct {
	members []wireMember
}

// wireMember is a member of a wireObject: a value, or a nested object.
type wireMember struct {
	name string
	raw  []byte
	obj  *wireObject // nil for a value
}

func (o *wireObject) set(path string, raw []byte) {
	name, rest, nested := strings.Cut(path, ".")
	for i := range o.members {
		if m := &o.members[i]; m.name == name {
			if nested && m.obj != nil {
				m.obj.set(rest, raw)
			}
			return
		}
	}
	if !nested {
		o.members = append(o.members, wireMember{name: name, raw: raw})
		return
	}
	child := &wireObject{}
	child.set(rest, raw)
	o.members = append(o.members, wireMember{name: name, obj: child})
}

func (o *wireObject) append(b []byte) []byte {
	b = append(b, '{')
	for i, m := range o.members {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, m.name)
		b = append(b, ':')
		if m.obj != nil {
			b = m.obj.append(b)
		} else {
			b = append(b, m.raw...)
		}
	}
	return append(b, '}')
}
