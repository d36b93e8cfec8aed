package agenterror

import "time"

// The rules every producer path follows, so that no envelope a constructor or
// setter builds is one the contract's producer schema rejects: a message and
// guidance that are never blank, a retry hint that is never negative and never
// longer than RetryMaxHint. The TypeScript and Python packages apply the same
// rules with the same character set, so all three build the same envelopes.

// maxHintMs is RetryMaxHint in whole milliseconds.
const maxHintMs = int64(RetryMaxHint / time.Millisecond)

// blank reports whether s has nothing a reader could see: it is empty or
// holds only white space and invisible format characters (what is left of a
// message that was all prompt markers or bidi controls once sanitized). The
// set is spelled out rather than taken from unicode.IsSpace so that Go,
// TypeScript and Python agree on every string.
func blank(s string) bool {
	for _, r := range s {
		if !invisible(r) {
			return false
		}
	}
	return true
}

// invisible reports whether r is white space or an invisible format
// character.
func invisible(r rune) bool {
	switch {
	case r >= 0x09 && r <= 0x0D, r == 0x20, r == 0x85, r == 0xA0, r == 0xAD,
		r == 0x1680, r == 0x180E, r >= 0x2000 && r <= 0x200F, r >= 0x2028 && r <= 0x202F,
		r >= 0x205F && r <= 0x2064, r == 0x3000, r == 0xFEFF:
		return true
	}
	return false
}

// messageOr is the message a constructor puts into an envelope of kind: the
// one given unless it is blank, else the kind's description, else (for a kind
// the contract does not list) the kind itself. A message must stay useful
// when a client drops every other field, so it is never empty.
func messageOr(kind Kind, message string) string {
	if !blank(message) {
		return message
	}
	if d := Lookup(kind).Description; d != "" {
		return d
	}
	return string(kind)
}

// hintMs is a retry hint as a producer writes it: whole milliseconds rounded
// up, so that a caller never retries early, and at most maxHintMs. ok is
// false for a negative duration, which producers refuse.
func hintMs(d time.Duration) (ms int64, ok bool) {
	if d < 0 {
		return 0, false
	}
	if d >= RetryMaxHint {
		return maxHintMs, true
	}
	ms = int64(d / time.Millisecond)
	if d%time.Millisecond != 0 {
		ms++
	}
	return ms, true
}

// hintDelay is a received retry hint as a wait: never negative and at most
// RetryMaxHint. Multiplying first would overflow for a hint past about 292
// years and wrap into a negative delay, an immediate retry that a hostile
// upstream could ask for.
func hintDelay(ms int64) time.Duration {
	if ms <= 0 {
		return 0
	}
	if ms >= maxHintMs {
		return RetryMaxHint
	}
	return time.Duration(ms) * time.Millisecond
}

// An EncodeError reports an envelope that AppendJSON and MarshalJSON refuse
// to write because no decoder of the contract would read it back: one
// without a kind, with a negative retry hint, or with an integer past
// MaxSafeInteger. The constructors and setters
// never build such an envelope; only fields assigned by hand can.
type EncodeError struct {
	Field   string // the Envelope field at fault: "Kind", "Recovery.RetryAfterMs"
	Problem string
}

func (e *EncodeError) Error() string {
	return "agenterror: cannot encode the envelope: " + e.Field + " " + e.Problem
}

// refusal is the EncodeError for an envelope that must not be written, or nil.
func (e *Envelope) refusal() error {
	if e.Kind == "" {
		return &EncodeError{Field: "Kind", Problem: "is empty"}
	}
	if ms := e.Recovery.RetryAfterMs; ms != nil && *ms < 0 {
		return &EncodeError{Field: "Recovery.RetryAfterMs", Problem: "is negative"}
	} else if ms != nil && *ms > MaxSafeInteger {
		// Producers clamp hints to RetryMaxHint; past MaxSafeInteger no
		// decoder of the contract reads one back (JavaScript would round it).
		return &EncodeError{Field: "Recovery.RetryAfterMs", Problem: "is past MaxSafeInteger"}
	}
	return nil
}
