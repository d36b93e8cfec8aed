package contract

// Failure is a transport failure: the upstream call ended without a
// response. The set is errgen's own so generated classifiers in every
// language agree on what the input means.
type Failure string

const (
	FailureTimeout           Failure = "timeout"
	FailureDNS               Failure = "dns"
	FailureConnectionRefused Failure = "connection_refused"
	FailureConnectionReset   Failure = "connection_reset"
	FailureTLS               Failure = "tls"
	FailureRedirectBlocked   Failure = "redirect_blocked"
	FailureCancelled         Failure = "cancelled"
	FailureResponseTooLarge  Failure = "response_too_large"
	FailureMalformedResponse Failure = "malformed_response"
)

// Failures lists every transport failure in documentation order.
var Failures = []Failure{FailureTimeout, FailureDNS, FailureConnectionRefused, FailureConnectionReset,
	FailureTLS, FailureRedirectBlocked, FailureCancelled, FailureResponseTooLarge, FailureMalformedResponse}

// Inbound is how a client turns an upstream failure into a kind.
type Inbound struct {
	// ToolResult is the kind of a completed tool result flagged as an error
	// (MCP isError: true). It never counts toward a circuit breaker: the
	// upstream answered.
	ToolResult  *Kind
	Classifiers []*Classifier
	// Agreements are the notions several classifiers must agree on; the
	// loader has checked that they do.
	Agreements []*Agreement
	Pos        Pos
	// KeyPos is where each key of the section (tool_result, ...) is written.
	KeyPos map[string]Pos
}

// Agreement says that two or more classifiers share a notion (labby: "this
// failure is an auth problem") while each names it with its own kinds: every
// input one classifier's rules put in its set of kinds, every other
// classifier puts in its own set too.
type Agreement struct {
	Name        string
	Description string
	// Sides are the classifiers in the order the contract lists them.
	Sides []*AgreementSide
	Pos   Pos
}

// AgreementSide is one classifier of an agreement and the kinds that make
// up the shared notion in that classifier's vocabulary.
type AgreementSide struct {
	Classifier *Classifier
	Kinds      []*Kind
	Pos        Pos
}

// Has reports whether kind is in the side's set.
func (s *AgreementSide) Has(kind string) bool {
	for _, k := range s.Kinds {
		if k.Name == kind {
			return true
		}
	}
	return false
}

// Classifier is one ordered rule list; the first rule that matches wins.
type Classifier struct {
	Name        string
	Description string
	Rules       []*Rule
	Default     *Kind
	Idents      Idents
	Pos         Pos
}

// Rule matches an upstream failure. Every condition given must hold; a
// condition left out matches anything.
type Rule struct {
	// Statuses match the HTTP status when it falls in any of them; empty
	// when the rule does not look at the status.
	Statuses []StatusRange
	// Failures matches the transport failure; AnyFailure matches any.
	Failures   []Failure
	AnyFailure bool
	// Text matches when the upstream's error text contains any of the
	// phrases as whole words, ignoring ASCII case.
	Text []string
	Kind *Kind
	// Breaker is whether a failure the rule matches counts toward a circuit
	// breaker: the rule's own breaker when it writes one, else its kind's.
	// The loader resolves it so that every classifier (and the docs and
	// vectors describing them) answers the same.
	Breaker bool
	Pos     Pos
}

// StatusRange is an inclusive range of HTTP statuses, as written: 401, 4xx
// or 500-599.
type StatusRange struct {
	From, To int
	Text     string
}

// RetryPolicy is the backoff an agent uses when an envelope asks for a
// retry but carries no retry hint.
type RetryPolicy struct {
	InitialMs   int
	MaxMs       int
	Multiplier  float64
	Jitter      float64 // the fraction of a delay that may be shaved off at random
	MaxAttempts int
	// MaxHintMs is the longest retry hint a producer emits and an agent
	// waits for: producers clamp a longer hint to it, and the decision code
	// saturates at it, so a hostile or broken upstream cannot make a client
	// wait for ever, or (through overflow) not at all.
	MaxHintMs int64
	Pos       Pos
	// KeyPos is where each key of the retry section is written; nil when
	// the contract has none.
	KeyPos map[string]Pos
}

// MaxHintLimitMs is the largest max_hint_ms a contract may set: the longest
// time.Duration in whole milliseconds (about 292 years), so that Go's
// decision code never overflows, and well inside the integers a JavaScript
// number holds exactly.
const MaxHintLimitMs = int64(1<<63-1) / 1e6

// DefaultRetry is errgen's documented default: ovstorage's client policy,
// and retry hints of at most a day.
func DefaultRetry() RetryPolicy {
	return RetryPolicy{InitialMs: 100, MaxMs: 30000, Multiplier: 2, Jitter: 0.2, MaxAttempts: 5, MaxHintMs: 24 * 60 * 60 * 1000}
}

// CLIForm is how a CLI writes an envelope on stderr.
type CLIForm string

const (
	CLIEnvelope CLIForm = "envelope" // the envelope itself
	CLIWrapped  CLIForm = "wrapped"  // labby's {"ok": false, "command": ..., "error": envelope}
)

// CLI is how a command line surface reports failures.
type CLI struct {
	Form CLIForm
	// DefaultExitCode is the exit code of a kind whose origin has none.
	DefaultExitCode int
	// ExitCodes maps origins to exit codes.
	ExitCodes map[*Origin]int
}

// ExitCode is the exit code of a classification.
func (c *CLI) ExitCode(cl *Classification) int {
	if code, ok := c.ExitCodes[cl.Origin]; ok {
		return code
	}
	return c.DefaultExitCode
}

// ProblemMembers are RFC 9457's members of a problem document, in the order
// every HTTP surface writes them before the envelope's top-level members,
// which follow as extension members; an envelope member of the same name
// gives way.
var ProblemMembers = []string{"type", "title", "status", "detail", "instance"}

// UnknownKindTitle is the problem title of a kind the contract does not
// define: RFC 9457 wants a title that does not change between occurrences,
// and the kind's description is unknown.
const UnknownKindTitle = "Error of a kind this contract version does not define"

// Surfaces holds how the HTTP, RFC 9457 and CLI surfaces render envelopes.
type Surfaces struct {
	// ProblemTypeBase prefixes a kind to make its RFC 9457 problem type URI:
	// urn:errgen:NAME: by default, the imported contract's in a contract
	// that imports one.
	ProblemTypeBase string
	CLI             CLI
	HTTP            HTTPReading
	// ErrorDomain is the domain of the google.rpc ErrorInfo every envelope
	// maps to (surfaces.error_info_domain); the contract name by default,
	// the imported contract's domain in a contract that imports one.
	ErrorDomain string
	MCP         MCP
}

// JSON-RPC 2.0's error codes: the five it defines, and the bounds of the
// range it reserves (-32768 to -32000), within which only those five and
// the implementation-defined server errors (-32099 to -32000) may be used.
const (
	JSONRPCParseError     = -32700
	JSONRPCInvalidRequest = -32600
	JSONRPCMethodNotFound = -32601
	JSONRPCInvalidParams  = -32602
	JSONRPCInternalError  = -32603
	JSONRPCReservedMin    = -32768
	JSONRPCReservedMax    = -32000
	JSONRPCServerMin      = -32099
)

// MCP is how the MCP surface reports failures besides tool results: the
// JSON-RPC error of a protocol error (a prompt, resource or bridge
// failure), whose data member is the envelope, and the _meta key under
// which an isError tool result carries the envelope too.
type MCP struct {
	// MetaKey is the _meta key of an isError tool result that carries the
	// envelope; empty when the contract asks for none.
	MetaKey string
	// DefaultErrorCode is the JSON-RPC error code of a kind whose origin
	// has none in ErrorCodes.
	DefaultErrorCode int
	// ErrorCodes maps origins to JSON-RPC error codes.
	ErrorCodes map[*Origin]int
}

// The members of an isError tool result's structuredContent that keeps an
// upstream's own beside the envelope: labby's {"error": envelope,
// "upstream_structured_content": original}. Fixed by the toolkit, not by a
// contract. The generators take them from here; the four runtimes
// (runtime/go/_src/mcperror.go, runtime/ts/src/surfaces.ts,
// runtime/python/src/errgen_runtime/_mcp.py, runtime/rust/src/surfaces.rs)
// still spell them out, and the conformance vectors hold them to these.
const (
	MCPUpstreamErrorMember   = "error"
	MCPUpstreamContentMember = "upstream_structured_content"
)

// ErrorCode is the JSON-RPC error code of a classification's protocol
// error: the kind's own mcp_error_code, else its origin's, else the
// default.
func (m *MCP) ErrorCode(cl *Classification) int {
	if cl.MCPErrorCode != nil {
		return *cl.MCPErrorCode
	}
	if code, ok := m.ErrorCodes[cl.Origin]; ok {
		return code
	}
	return m.DefaultErrorCode
}

// JSONRPCCodeProblem says why code may not be a protocol error's code, or
// "" when it may: JSON-RPC reserves -32768 to -32000, of which only the
// codes it defines and the server errors (-32099 to -32000) may be used,
// and a code is a 32-bit integer, as the MCP SDKs hold it.
func JSONRPCCodeProblem(code int) string {
	switch {
	case code < -1<<31 || code > 1<<31-1:
		return "is not a 32-bit integer, which is what the MCP SDKs hold an error code in"
	case code < JSONRPCReservedMin || code > JSONRPCReservedMax:
		return ""
	case code >= JSONRPCServerMin, code == JSONRPCParseError, code == JSONRPCInvalidRequest,
		code == JSONRPCMethodNotFound, code == JSONRPCInvalidParams, code == JSONRPCInternalError:
		return ""
	}
	return "is in the range JSON-RPC 2.0 reserves (-32768 to -32000) but is none of its defined codes (-32700, -32600 to -32603) nor a server error (-32099 to -32000)"
}

// HTTPReading is how the readers of a failed HTTP response (Go's ReadHTTP,
// TypeScript's fromHttpResponse, Python's from_http_response, Rust's
// Envelope::read_http) build the envelope of a response that carries none
// (surfaces.http).
type HTTPReading struct {
	// EchoBody is whether the message of such an envelope quotes the start
	// of the body's text after its status line (surfaces.http.echo_body;
	// true by default). Off, the message is the status line alone: the body
	// text still reaches the inbound classifier, never the message.
	EchoBody bool
	// Pos is where echo_body is written; zero when it is not.
	Pos Pos
	// StatusField is the integer context field such an envelope keeps the
	// response's HTTP status in (surfaces.http.status_field; AGENTO's
	// details.status); nil when none does.
	StatusField *Field
}

// Idents are the identifiers the failure becomes in each language.
func (f Failure) Idents() Idents { return identsFor(string(f)) }

// Idents are the identifiers the step becomes in each language.
func (s Step) Idents() Idents { return identsFor(string(s)) }
