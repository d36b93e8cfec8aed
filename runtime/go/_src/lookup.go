package agenterror

import "log/slog"

// The classification of a kind: the contract's table of them (classifications,
// fallback and kindIndex in classification.go) read the same way for every
// contract.

// Classification is everything the contract says about one kind: where it arises, what to do next, and how each surface reports it.
type Classification struct {
	Kind Kind
	// Known is false when Kind is not in the contract and the fallback applies.
	Known bool
	// Group is empty for an unknown kind.
	Group         Group
	Origin        Origin
	Action        RecoveryAction
	SameArguments SameArguments
	// Guidance is the contract's default advice for the caller.
	Guidance    string
	SideEffects SideEffects
	// HTTPStatus is the status an HTTP surface answers with.
	HTTPStatus int
	// GRPCCode is the canonical gRPC code (google.rpc.Code) the google.rpc mapping reports,
	// a number codes.Code converts; GRPCStatus is its name (AIP-193's "status").
	GRPCCode   int
	GRPCStatus string
	// LogLevel is warn for caller-fixable failures and error for those an operator must handle.
	LogLevel slog.Level
	// Breaker is true for transport failures, which count toward an upstream's circuit breaker.
	// Completed tool errors never do.
	Breaker bool
	// Retryable is true when the action is a retry and same_arguments permits repeating the call.
	Retryable   bool
	Description string
	// Reason is the kind's ErrorInfo reason in the google.rpc mapping: its words in
	// UPPER_SNAKE_CASE (AIP-193), computed the same way for a kind the contract does not list.
	Reason string
	// Startup is true for failures raised while starting up or loading configuration
	// rather than returned as the result of an operation.
	Startup bool
	// Number is the kind's stable numeric code; -1 when the contract has none.
	Number int
}

// Lookup returns the classification of kind. It never fails: a kind the contract does not list gets the fallback classification, with Known set to false and Kind kept as given.
func Lookup(kind Kind) Classification {
	if i := kindIndex(kind); i >= 0 {
		return classifications[i]
	}
	c := fallback
	c.Kind = kind
	c.Reason = aipReason(string(kind))
	return c
}

// Fallback returns the classification every unknown kind gets.
func Fallback() Classification {
	return fallback
}
