package agenterror

import (
	"fmt"
	"log/slog"
	"time"
)

// The Envelope's methods whose code is the same in every contract: the
// answers of its kind's classification, and the setters that take no field
// of the contract (readhttp.go has the promotion mark's). envelope.go, rendered from the
// contract, declares the Envelope and the methods that depend on its
// fields, its layout or its sanitizer policy.

var (
	_ error          = (*Envelope)(nil)
	_ fmt.GoStringer = Envelope{}
)

// Error returns the envelope's string form, "kind: message", on one line: in each, tab, line feed, carriage return, U+2028 and U+2029 become spaces and every other control is deleted, so a message cannot start a second log line; the message is then sanitized with the contract's policy (Sanitize) when the contract sanitizes it (SanitizedFields lists message), however the envelope was built (NewTrusted included) or received; each is bounded as the log form's texts are (LogValue), at 1024 bytes cut at a character boundary. fmt.Errorf("...: %w", e), log.Print(e) and any logger that prints an error write this form. A nil envelope returns "<nil envelope>".
func (e *Envelope) Error() string {
	if e == nil {
		return "<nil envelope>"
	}
	return stringText(string(e.Kind), false) + ": " + stringText(e.Message, sanitizeMessage)
}

// GoString is what %#v prints of an envelope or a pointer to one: its type, kind and message as Error writes them, never its fields as they are. (%v, %s, %+v and %q print a pointer's Error.)
func (e Envelope) GoString() string {
	return fmt.Sprintf("%T{Kind:%q, Message:%q}", e, stringText(string(e.Kind), false), stringText(e.Message, sanitizeMessage))
}

// Classification returns the contract's classification of the envelope's kind.
func (e *Envelope) Classification() Classification {
	return Lookup(e.Kind)
}

// HTTPStatus returns the status an HTTP surface answers with for this envelope's kind.
func (e *Envelope) HTTPStatus() int {
	return Lookup(e.Kind).HTTPStatus
}

// LogLevel returns the level to log this failure at.
func (e *Envelope) LogLevel() slog.Level {
	return Lookup(e.Kind).LogLevel
}

// CountsTowardBreaker reports whether the failure is a transport failure that
// counts toward the upstream's circuit breaker.
func (e *Envelope) CountsTowardBreaker() bool {
	return Lookup(e.Kind).Breaker
}

// WithRetryAfter sets the retry hint, rounded up to whole milliseconds so a
// caller never retries early, and clamped to RetryMaxHint. A negative
// duration is refused: the envelope keeps the hint it had.
func (e *Envelope) WithRetryAfter(d time.Duration) *Envelope {
	if ms, ok := hintMs(d); ok {
		e.Recovery.RetryAfterMs = &ms
	}
	return e
}

// WithSideEffects overrides the kind's default side-effect certainty when the
// producer knows better (for example, that nothing was sent).
func (e *Envelope) WithSideEffects(v SideEffects) *Envelope {
	e.SideEffects = v
	return e
}

// WithExtra adds a field the contract does not name. It never overrides a
// field of the contract: those win when the envelope is marshalled. The
// strings of the value are sanitized as the log form sanitizes them (a
// string, the strings of a slice or map however deep, those of a
// json.RawMessage; another value with a string the sanitizer changes is
// kept as its sanitized JSON text); the caller's value is never modified.
// Assigning e.Extra[key] directly keeps the value as it is, for text the
// program wrote itself.
func (e *Envelope) WithExtra(key string, value any) *Envelope {
	if e.Extra == nil {
		e.Extra = make(map[string]any)
	}
	e.Extra[key] = sanitizeValue(value)
	return e
}

// Kind's methods and those of the contract's vocabularies that do not
// depend on their values; enums.go declares the types and their values.

// IsKnown reports whether k is a kind of this contract version.
func (k Kind) IsKnown() bool {
	return kindIndex(k) >= 0
}

// String returns the kind's wire value.
func (k Kind) String() string {
	return string(k)
}

// Kinds returns every known kind in contract order. The slice is a fresh copy.
func Kinds() []Kind {
	out := make([]Kind, len(classifications))
	for i := range classifications {
		out[i] = classifications[i].Kind
	}
	return out
}

// String returns the wire value.
func (v Origin) String() string {
	return string(v)
}

// String returns the wire value.
func (v RecoveryAction) String() string {
	return string(v)
}

// String returns the wire value.
func (v SameArguments) String() string {
	return string(v)
}

// String returns the wire value.
func (v SideEffects) String() string {
	return string(v)
}

// String returns the wire value.
func (v Group) String() string {
	return string(v)
}
