package agenterror

import (
	"math"
	"math/bits"
	"slices"
)

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
// order, and the kind (and breaker flag) when none matches. The members
// after defaultBreaker are not in the contract's table: compile derives
// them from the rules when the package starts.
type inboundClassifier struct {
	name           string
	rules          []inboundRule
	default_       Kind
	defaultBreaker bool

	// The rules each input can match by its status and its failure, as
	// bit sets of words words (rule i is bit i%64 of word i/64). The rules'
	// status ranges cut the integers into intervals, each starting at an
	// element of bounds (the first at minus infinity): byStatus holds the
	// set of each interval in turn, byFailure that of each failureIndex.
	// interval is the interval of each status from 0 to the last bound,
	// where HTTP statuses are, when there are at most 256 intervals.
	words     int
	bounds    []int
	interval  []uint8
	byStatus  []uint64
	byFailure []uint64
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

	// minText is the length of the rule's shortest phrase (compile's): a
	// shorter text, an empty one above all, holds none of them.
	minText int
}

// The classifiers of the contract's table, compiled once.
func init() {
	for i := range inboundClassifiers {
		inboundClassifiers[i].compile()
	}
}

// knownFailures is every transport failure errgen knows, in failureIndex order
// from 1.
var knownFailures = [...]Failure{FailureTimeout, FailureDNS, FailureConnectionRefused, FailureConnectionReset,
	FailureTLS, FailureRedirectBlocked, FailureCancelled, FailureResponseTooLarge, FailureMalformedResponse}

// failureIndex is 0 for no failure, 1 + the position in knownFailures of one
// errgen knows, and len(knownFailures)+1 for any other (a newer caller's, which
// only a rule matching any failure matches: a contract names only the
// failures errgen knows).
func failureIndex(f Failure) int {
	switch f {
	case "":
		return 0
	case FailureTimeout:
		return 1
	case FailureDNS:
		return 2
	case FailureConnectionRefused:
		return 3
	case FailureConnectionReset:
		return 4
	case FailureTLS:
		return 5
	case FailureRedirectBlocked:
		return 6
	case FailureCancelled:
		return 7
	case FailureResponseTooLarge:
		return 8
	case FailureMalformedResponse:
		return 9
	}
	return len(knownFailures) + 1
}

// compile derives the classifier's bit sets from its rules.
func (c *inboundClassifier) compile() {
	c.words = (len(c.rules) + 63) / 64
	for i := range c.rules {
		r := &c.rules[i]
		r.minText = 0
		for j, p := range r.text {
			if j == 0 || len(p) < r.minText {
				r.minText = len(p)
			}
		}
	}
	// The status intervals start at each range's first status and after
	// its last.
	c.bounds = c.bounds[:0]
	for _, r := range c.rules {
		for _, s := range r.statuses {
			c.bounds = append(c.bounds, s[0])
			if s[1] < math.MaxInt {
				c.bounds = append(c.bounds, s[1]+1)
			}
		}
	}
	slices.Sort(c.bounds)
	c.bounds = slices.Compact(c.bounds)
	c.interval = nil
	if n := len(c.bounds); n > 0 && n < 256 && c.bounds[n-1] > 0 && c.bounds[n-1] <= 1<<12 {
		c.interval = make([]uint8, c.bounds[n-1])
		for status := range c.interval {
			c.interval[status] = uint8(c.intervalOf(status))
		}
	}
	c.byStatus = make([]uint64, (len(c.bounds)+1)*c.words)
	for j := 0; j <= len(c.bounds); j++ {
		// Every status of an interval is in the same ranges as its first
		// (the one before bounds[0] for the first interval).
		status := math.MinInt
		if j > 0 {
			status = c.bounds[j-1]
		}
		c.mark(c.byStatus[j*c.words:], func(r *inboundRule) bool {
			return len(r.statuses) == 0 || slices.ContainsFunc(r.statuses, func(s [2]int) bool { return s[0] <= status && status <= s[1] })
		})
	}
	c.byFailure = make([]uint64, (len(knownFailures)+2)*c.words)
	for k := 0; k <= len(knownFailures)+1; k++ {
		c.mark(c.byFailure[k*c.words:], func(r *inboundRule) bool {
			switch {
			case r.anyFailure:
				return k > 0
			case len(r.failures) > 0:
				return slices.ContainsFunc(r.failures, func(f Failure) bool { return failureIndex(f) == k })
			}
			return true
		})
	}
}

// intervalOf is the interval of status: how many bounds are at or below
// it (a binary search).
func (c *inboundClassifier) intervalOf(status int) int {
	lo, hi := 0, len(c.bounds)
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); c.bounds[m] <= status {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// mark sets the bit of each rule that ok accepts in set.
func (c *inboundClassifier) mark(set []uint64, ok func(*inboundRule) bool) {
	for i := range c.rules {
		if ok(&c.rules[i]) {
			set[i/64] |= 1 << (i % 64)
		}
	}
}

// classify runs the classifier over an upstream failure: the first rule
// whose conditions all hold wins, else the classifier's default. The rules
// the status and the failure allow are looked up (the status's interval, a
// switch over the failures), and only their text is read, lowered once on
// first use, when it is long enough to hold a phrase: a failure only the
// last rule classifies costs no more than the chain of ifs the package was
// once generated with (BenchmarkClassify in tests/go).
func (c *inboundClassifier) classify(u Upstream) Classified {
	var j int
	if uint(u.Status) < uint(len(c.interval)) {
		j = int(c.interval[u.Status])
	} else {
		j = c.intervalOf(u.Status)
	}
	byStatus := c.byStatus[j*c.words : (j+1)*c.words]
	byFailure := c.byFailure[failureIndex(u.Failure)*c.words:]
	var lower string
	lowered := false
	for w, set := range byStatus {
		for set &= byFailure[w]; set != 0; set &= set - 1 {
			i := w*64 + bits.TrailingZeros64(set)
			r := &c.rules[i]
			if len(r.text) > 0 {
				if len(u.Text) < r.minText {
					continue
				}
				if !lowered {
					lower, lowered = asciiLower(u.Text), true
				}
				if !hasWord(lower, r.text...) {
					continue
				}
			}
			return Classified{r.kind, r.breaker, i + 1}
		}
	}
	return Classified{c.default_, c.defaultBreaker, 0}
}
