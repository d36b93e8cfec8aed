package contract

// LogMember is one member of an envelope's structured-log form: the fields
// every generated package's logging helper (Go's Envelope.LogValue,
// TypeScript's logFields, Python's log_fields) produces, in this order and
// under these names, for every contract. Its one definition is LogMembers:
// the TypeScript and Python runtimes read it as their LOG table
// (internal/runtimedata), the Go emitter prints one attribute per member,
// and the conformance vectors hold all three to the same fields.
type LogMember string

const (
	LogKind          LogMember = "kind"           // the kind, as received
	LogMessage       LogMember = "message"        // sanitized when the contract sanitizes messages
	LogOrigin        LogMember = "origin"         // the envelope's origin
	LogAction        LogMember = "action"         // its recovery action
	LogSameArguments LogMember = "same_arguments" // its same_arguments value
	LogSideEffects   LogMember = "side_effects"   // its side_effects value
	LogRetryable     LogMember = "retryable"      // IsRetryable: a boolean
	LogHTTPStatus    LogMember = "http_status"    // the kind's HTTP status: an integer
	LogRetryAfterMs  LogMember = "retry_after_ms" // the retry hint, only when the envelope has one
	// LogFields is a group of the context and kind-specific fields the
	// envelope carries on the wire, in wire order, each under its contract
	// name: a string as text, an integer, number or boolean as it is, an
	// array or object as its compact JSON text; only when it has one.
	LogFields LogMember = "fields"
	// LogExtra is the compact JSON text of the envelope's Extra entries
	// (members this contract does not name), keyed by path and sorted,
	// always sanitized; only when there are any.
	LogExtra LogMember = "extra"
)

// LogMembers lists every log member in the order the helpers write them.
var LogMembers = []LogMember{LogKind, LogMessage, LogOrigin, LogAction, LogSameArguments, LogSideEffects,
	LogRetryable, LogHTTPStatus, LogRetryAfterMs, LogFields, LogExtra}

// LogMaxBytes bounds every text value of the log form, in UTF-8 bytes: a
// longer one is cut at a character boundary and ends in "…" (U+2026). The
// sanitizer already caps what it cleans at the contract's max_length code
// points; the bound also holds the kind, enum values and fields the
// contract does not sanitize (a received envelope carries whatever its
// sender wrote), and the JSON text of arrays, objects and Extra, so no
// log line grows with what an upstream sends.
const LogMaxBytes = 1024

// LogEllipsis ends a log text cut at LogMaxBytes.
const LogEllipsis = "…"
