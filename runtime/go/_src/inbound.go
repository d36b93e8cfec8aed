package agenterror

import "slices"

// The rule engine of the inbound classifiers, driven by the contract's
// inboundClassifiers table (inbound_contract.go, which also has a Classify
// function per classifier). Only a contract with inbound classifiers ships
// this file and words.go.

// Failure is a transport failure: the upstream call ended without a response.
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

// Upstream describes a failed upstream call for a classifier: the HTTP status it answered with (0 when none), the transport failure (empty when a response arrived) and the upstream's error text, if any.
type Upstream struct {
	Status  int
	Failure Failure
	Text    string
}

// Classified is a classifier's answer: the kind, whether the failure counts toward the upstream's circuit breaker, and which rule matched (counting from 1; 0 for the classifier's default).
type Classified struct {
	Kind                Kind
	CountsTowardBreaker bool
	Rule                int
}

// inboundClassifier is one classifier of the contract: its rules, tried in
// order, and the kind (and breaker flag) when none matches.
type inboundClassifier struct {
	name           string
	rules          []inboundRule
	default_       Kind
	defaultBreaker bool
}

// inboundRule is one rule of a classifier: it matches when every condition
// it states holds (a status in one of the inclusive ranges, a transport
// failure, any or one of those listed, a phrase of text in the upstream's
// text, ASCII case ignored), and then classifies as kind.
type inboundRule struct {
	statuses   [][2]int
	failures   []Failure
	anyFailure bool
	text       []string
	kind       Kind
	breaker    bool
}

// matches reports whether the rule's conditions all hold for u; lower is
// u's text in ASCII lower case, computed on first use.
func (r *inboundRule) matches(u *Upstream, lower *string, lowered *bool) bool {
	if len(r.statuses) > 0 && !slices.ContainsFunc(r.statuses, func(s [2]int) bool { return s[0] <= u.Status && u.Status <= s[1] }) {
		return false
	}
	if r.anyFailure {
		if u.Failure == "" {
			return false
		}
	} else if len(r.failures) > 0 && !slices.Contains(r.failures, u.Failure) {
		return false
	}
	if len(r.text) == 0 {
		return true
	}
	if !*lowered {
		*lower, *lowered = asciiLower(u.Text), true
	}
	return hasWord(*lower, r.text...)
}

// classify runs the classifier over an upstream failure: the first rule
// whose conditions all hold wins, else the classifier's default.
func (c *inboundClassifier) classify(u Upstream) Classified {
	var lower string
	lowered := false
	for i := range c.rules {
		if r := &c.rules[i]; r.matches(&u, &lower, &lowered) {
			return Classified{r.kind, r.breaker, i + 1}
		}
	}
	return Classified{c.default_, c.defaultBreaker, 0}
}
