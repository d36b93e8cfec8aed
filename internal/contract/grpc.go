package contract

import (
	"fmt"
	"sort"
	"strings"
)

// GRPCCode is one of google.rpc.Code's canonical codes (google/rpc/code.proto).
// OK is not one: an envelope always reports a failure.
type GRPCCode struct {
	Name   string // INVALID_ARGUMENT, as AIP-193's "status" spells it
	Number int    // 3, the code's number on the gRPC wire
	// HTTP is the status code.proto documents as the code's HTTP mapping:
	// what AIP-193's "code" holds for a failure with only this code.
	HTTP int
}

// GRPCCodes lists every error code, in number order.
var GRPCCodes = []*GRPCCode{
	{"CANCELLED", 1, 499},
	{"UNKNOWN", 2, 500},
	{"INVALID_ARGUMENT", 3, 400},
	{"DEADLINE_EXCEEDED", 4, 504},
	{"NOT_FOUND", 5, 404},
	{"ALREADY_EXISTS", 6, 409},
	{"PERMISSION_DENIED", 7, 403},
	{"RESOURCE_EXHAUSTED", 8, 429},
	{"FAILED_PRECONDITION", 9, 400},
	{"ABORTED", 10, 409},
	{"OUT_OF_RANGE", 11, 400},
	{"UNIMPLEMENTED", 12, 501},
	{"INTERNAL", 13, 500},
	{"UNAVAILABLE", 14, 503},
	{"DATA_LOSS", 15, 500},
	{"UNAUTHENTICATED", 16, 401},
}

// GRPCCodeNamed returns the code with that name, or nil.
func GRPCCodeNamed(name string) *GRPCCode {
	for _, c := range GRPCCodes {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func grpcCodeNames() []string {
	out := make([]string, len(GRPCCodes))
	for i, c := range GRPCCodes {
		out[i] = c.Name
	}
	return out
}

// GRPCStatusDefault is the code a kind with an HTTP status takes when it
// names none: where code.proto's table lists the status, the code it maps
// there (one chosen where several share it: 400 INVALID_ARGUMENT, the
// request as it stands is wrong; 409 ABORTED, a concurrency conflict worth
// retrying at a higher level; 500 INTERNAL); for the other statuses of
// errgen's contracts a code of the same class whose meaning is the
// status's (410 NOT_FOUND, 412 FAILED_PRECONDITION, 413 RESOURCE_EXHAUSTED
// — what gRPC itself answers for a message over its size limit —, 416
// OUT_OF_RANGE, 422 INVALID_ARGUMENT, 502 UNAVAILABLE as gRPC's own HTTP
// mapping reads a bad gateway); any other 4xx FAILED_PRECONDITION and any
// other 5xx INTERNAL. Every language prints this table.
var GRPCStatusDefaults = []StatusCode{
	{400, "INVALID_ARGUMENT"},
	{401, "UNAUTHENTICATED"},
	{403, "PERMISSION_DENIED"},
	{404, "NOT_FOUND"},
	{409, "ABORTED"},
	{410, "NOT_FOUND"},
	{412, "FAILED_PRECONDITION"},
	{413, "RESOURCE_EXHAUSTED"},
	{416, "OUT_OF_RANGE"},
	{422, "INVALID_ARGUMENT"},
	{429, "RESOURCE_EXHAUSTED"},
	{499, "CANCELLED"},
	{500, "INTERNAL"},
	{501, "UNIMPLEMENTED"},
	{502, "UNAVAILABLE"},
	{503, "UNAVAILABLE"},
	{504, "DEADLINE_EXCEEDED"},
}

// StatusCode pairs an HTTP status with a gRPC code name.
type StatusCode struct {
	Status int
	Code   string
}

// The codes of the statuses GRPCStatusDefaults does not list, by class.
const (
	GRPCDefault4xx = "FAILED_PRECONDITION"
	GRPCDefault5xx = "INTERNAL"
)

// DefaultGRPCCode is the code of a kind with the HTTP status that names none.
func DefaultGRPCCode(status int) *GRPCCode {
	for _, d := range GRPCStatusDefaults {
		if d.Status == status {
			return GRPCCodeNamed(d.Code)
		}
	}
	if status >= 500 {
		return GRPCCodeNamed(GRPCDefault5xx)
	}
	return GRPCCodeNamed(GRPCDefault4xx)
}

// documentedStatus reports whether code.proto maps some code to status.
func documentedStatus(status int) bool {
	for _, c := range GRPCCodes {
		if c.HTTP == status {
			return true
		}
	}
	return false
}

// GRPCOdd reports whether code is an odd choice for a kind with status: a
// status code.proto documents must be the code's own, another status at
// least of the same class (4xx, 5xx) as the code's. A status's default is
// never odd.
func GRPCOdd(code *GRPCCode, status int) bool {
	if code == DefaultGRPCCode(status) {
		return false
	}
	if documentedStatus(status) {
		return code.HTTP != status
	}
	return code.HTTP/100 != status/100
}

// ErrorInfo reasons (AIP-193): UPPER_SNAKE_CASE, at most 63 characters,
// matching ReasonPattern.
const (
	ReasonPattern   = `^[A-Z][A-Z0-9_]+[A-Z0-9]$`
	ReasonMaxLength = 63
	// ReasonPrefix starts a reason whose words would not start with a
	// letter or would be too short for the pattern ("KIND_7" for kind "7").
	ReasonPrefix = "KIND"
)

// Reason is the ErrorInfo reason of a kind, in every language the same
// steps, so a reason is computed for kinds a package does not know too:
//  1. split the kind into words: every character other than an ASCII
//     letter or digit separates words, and a word also ends before an
//     upper-case letter that follows a lower-case letter or a digit, and
//     before an upper-case letter followed by a lower-case one when an
//     upper-case letter precedes it (HTTPError: HTTP, Error);
//  2. upper-case the words (ASCII only) and join them with "_";
//  3. when the result is shorter than 3 characters or does not start with
//     a letter, put "KIND" before it (joined with "_" unless it is empty);
//  4. when it is longer than 63 characters, cut it there and drop the "_"
//     that end it.
//
// The kind itself travels verbatim in the metadata; the reason is what
// AIP-193 clients switch on.
func Reason(kind string) string {
	var words []string
	var cur []byte
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToUpper(string(cur)))
			cur = cur[:0]
		}
	}
	lower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	upper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	digit := func(c byte) bool { return '0' <= c && c <= '9' }
	for i := 0; i < len(kind); i++ {
		c := kind[i]
		if !lower(c) && !upper(c) && !digit(c) {
			flush()
			continue
		}
		if upper(c) && len(cur) > 0 {
			prev := cur[len(cur)-1]
			if lower(prev) || digit(prev) || upper(prev) && i+1 < len(kind) && lower(kind[i+1]) {
				flush()
			}
		}
		cur = append(cur, c)
	}
	flush()
	r := strings.Join(words, "_")
	if len(r) < 3 || !upper(r[0]) {
		if r == "" {
			r = ReasonPrefix
		} else {
			r = ReasonPrefix + "_" + r
		}
	}
	if len(r) > ReasonMaxLength {
		r = strings.TrimRight(r[:ReasonMaxLength], "_")
	}
	return r
}

// ErrorInfo metadata keys (AIP-193 wants lowerCamelCase) of the envelope's
// own values, in the order the docs list them. A context or kind-specific
// field's key is its name; the loader rejects a field named like one of
// these.
const (
	MetaKind          = "kind"
	MetaVersion       = "contractVersion"
	MetaOrigin        = "origin"
	MetaAction        = "recoveryAction"
	MetaSameArguments = "sameArguments"
	MetaGuidance      = "guidance"
	MetaSideEffects   = "sideEffects"
	MetaGroup         = "group"
	MetaRetryable     = "retryable"
	MetaMayHaveRun    = "mayHaveRun"
	MetaRetryAfterMs  = "retryAfterMs"
	MetaExtra         = "extra"
)

// MetaKeys lists the metadata keys of the envelope's own values.
var MetaKeys = []string{MetaKind, MetaVersion, MetaOrigin, MetaAction, MetaSameArguments,
	MetaGuidance, MetaSideEffects, MetaGroup, MetaRetryable, MetaMayHaveRun, MetaRetryAfterMs, MetaExtra}

// sourceMetaKeys maps the sources the metadata carries to their keys.
var sourceMetaKeys = map[Source]string{
	SourceVersion: MetaVersion, SourceKind: MetaKind, SourceOrigin: MetaOrigin,
	SourceAction: MetaAction, SourceSameArguments: MetaSameArguments, SourceGuidance: MetaGuidance,
	SourceSideEffects: MetaSideEffects, SourceGroup: MetaGroup, SourceRetryable: MetaRetryable,
	SourceMayHaveRun: MetaMayHaveRun,
}

// MaxRetryDelayMs is the longest retry hint a google.protobuf.Duration
// holds (315,576,000,000 seconds): a longer one goes into RetryInfo as that
// maximum and into the metadata as retryAfterMs, exactly.
const MaxRetryDelayMs = 315_576_000_000_000

// Fixed facts of the AIP-193 mapping.
const (
	ErrorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"
	RetryInfoType = "type.googleapis.com/google.rpc.RetryInfo"
)

// MetaMember is one metadata entry an envelope of the contract can carry
// besides kind, extra and retryAfterMs: a value the envelope holds that
// AIP-193 has no field for.
type MetaMember struct {
	Key    string
	Source Source // a named source, or SourceField
	Field  *Field // for SourceField
	// Leaf is where the layout puts the value on the wire; nil when the
	// layout does not carry it (AGENTO's origin), and the value is taken
	// from the envelope and set on it as it is.
	Leaf *Leaf
	// Text is true when the metadata value is the text itself (a string
	// value); else it is the value's compact JSON as the wire encoder
	// writes it.
	Text bool
}

// AIP193 is the contract's side of the google.rpc mapping.
type AIP193 struct {
	// Domain is ErrorInfo.domain: surfaces.error_info_domain, the contract
	// name by default.
	Domain string
	// Members are the metadata entries in wire order of their leaves, then
	// the values the layout does not carry (version, origin, action,
	// same_arguments, guidance, side_effects order); derived values only
	// where the layout carries them.
	Members []*MetaMember
}

// resolveAIP193 settles every kind's reason and gRPC code defaults, the
// metadata members, and reports odd pairs as warnings and colliding
// reasons and field names as problems.
func (l *loader) resolveAIP193(c *Contract) {
	switch {
	case c.Surfaces.ErrorDomain != "":
	case l.wire != nil:
		c.Surfaces.ErrorDomain = l.wire.Surfaces.ErrorDomain
	default:
		c.Surfaces.ErrorDomain = c.Name
	}
	c.AIP193.Domain = c.Surfaces.ErrorDomain
	byReason := map[string]*Kind{}
	for _, k := range c.Kinds {
		// k.Reason is Reason(k.Name), set where the kind was read.
		if other := byReason[k.Reason]; other != nil && !l.reportedAt(k.Pos) {
			at := l.at(k.Pos)
			l.errorf(at, "kind %q: its ErrorInfo reason %s is already kind %q's (%s); AIP-193 clients tell kinds apart by reason, so rename one", k.Name, k.Reason, other.Name, l.where(at, other.Pos))
			continue
		}
		byReason[k.Reason] = k
	}
	for _, cl := range c.classifications() {
		if cl.GRPC == nil && cl.HTTP != 0 {
			cl.GRPC = DefaultGRPCCode(cl.HTTP)
		}
	}
	own := map[string]bool{}
	for _, k := range MetaKeys {
		own[k] = true
	}
	for _, f := range c.EnvelopeFields {
		if own[f.Name] && !l.reportedAt(f.Pos) {
			l.errorf(l.at(f.Pos), "field %q is named like the ErrorInfo metadata key the google.rpc mapping gives the envelope's own %s; rename the field", f.Name, f.Name)
		}
	}
	if c.Layout == nil {
		return
	}
	onWire := map[Source]bool{}
	for _, leaf := range c.Layout.Leaves {
		switch {
		case leaf.Source == SourceField:
			c.AIP193.Members = append(c.AIP193.Members, &MetaMember{Key: leaf.Field.Name, Source: SourceField, Field: leaf.Field, Leaf: leaf, Text: leaf.Field.Type == TypeString})
		case sourceMetaKeys[leaf.Source] != "" && leaf.Source != SourceKind:
			onWire[leaf.Source] = true
			c.AIP193.Members = append(c.AIP193.Members, &MetaMember{Key: sourceMetaKeys[leaf.Source], Source: leaf.Source, Leaf: leaf, Text: metaText(c, leaf.Source)})
		}
	}
	for _, s := range []Source{SourceVersion, SourceOrigin, SourceAction, SourceSameArguments, SourceGuidance, SourceSideEffects} {
		if !onWire[s] {
			c.AIP193.Members = append(c.AIP193.Members, &MetaMember{Key: sourceMetaKeys[s], Source: s, Text: metaText(c, s)})
		}
	}
}

// reportedAt reports whether a problem is already reported at pos: a name
// that collides in another way is reported once.
func (l *loader) reportedAt(pos Pos) bool {
	for _, p := range l.problems {
		if p.Pos == pos {
			return true
		}
	}
	return false
}

// metaText reports whether a source's metadata value is its text.
func metaText(c *Contract, s Source) bool {
	switch s {
	case SourceVersion:
		return c.VersionIsText()
	case SourceRetryable, SourceMayHaveRun:
		return false
	}
	return true
}

// classifications lists every kind's classification and the fallback's.
func (c *Contract) classifications() []*Classification {
	out := make([]*Classification, 0, len(c.Kinds)+1)
	for _, k := range c.Kinds {
		out = append(out, &k.Classification)
	}
	if c.Fallback != nil {
		out = append(out, &c.Fallback.Classification)
	}
	return out
}

// grpcCode reads a classification's grpc key.
func (l *loader) grpcCode(c *Contract, m *mapping, cl *Classification) {
	name, n := m.str("grpc", false)
	if n == nil {
		return
	}
	code := GRPCCodeNamed(name)
	if code == nil {
		hint := suggest(name, grpcCodeNames())
		if name == "OK" {
			hint = " (OK is success, never a failure's code)"
		}
		l.errorf(n, "%sunknown gRPC code %q%s; use one of google.rpc.Code's error codes: %s", m.what, name, hint, quoteList(grpcCodeNames()))
		return
	}
	cl.GRPC = code
	cl.GRPCPos = l.pos(n)
}

// oddGRPC reports, as warnings, each classification whose gRPC code is an
// odd choice for its HTTP status.
func (c *Contract) oddGRPC() {
	report := func(what func() string, cl *Classification) {
		// An imported contract's odd pairs are its owner's to check, in
		// its own run.
		if cl.GRPCPos.Line == 0 || cl.GRPCPos.File != "" || cl.GRPC == nil || !GRPCOdd(cl.GRPC, cl.HTTP) {
			return
		}
		c.Warnings = append(c.Warnings, Problem{File: c.File, Pos: cl.GRPCPos, Message: fmt.Sprintf(
			"%sgRPC code %s is documented for HTTP %d, not the %d this has; AIP-193 clients read both (the default for %d is %s): check the pair",
			what(), cl.GRPC.Name, cl.GRPC.HTTP, cl.HTTP, cl.HTTP, DefaultGRPCCode(cl.HTTP).Name)})
	}
	for _, k := range c.Kinds {
		// The prefix is written only for a warning: this runs for every kind.
		report(func() string { return fmt.Sprintf("kind %q: ", k.Name) }, &k.Classification)
	}
	if c.Fallback != nil {
		report(func() string { return "fallback: " }, &c.Fallback.Classification)
	}
	c.Warnings.sort()
}

// ReasonKinds lists the kinds by reason, sorted by reason: the table a
// reader of a foreign error looks a reason up in.
func (c *Contract) ReasonKinds() []*Kind {
	out := append([]*Kind(nil), c.Kinds...)
	sort.Slice(out, func(i, j int) bool { return out[i].Reason < out[j].Reason })
	return out
}
