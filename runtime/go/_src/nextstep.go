package agenterror

import (
	"math"
	"time"
)

// The agent's decision procedure (docs/agents.md is its specification; the
// TypeScript, Python and Rust packages implement the same). It reads the
// contract's tables (nextstep_contract.go): the Retry constants, a row per
// recovery action, same_arguments and side_effects value, which
// actionIndex, sameArgumentsIndex and sideEffectsIndex find, and the few
// actions whose step is a retry. The index functions are switches, which
// compare with constant strings, not maps, which hash: NextStep runs on
// every failed call, and tests/go's BenchmarkNextStep and
// BenchmarkDecisionMethods hold it to the speed of the switches the package
// was once generated with.

// actionStep is a row of actionSteps: an action and the step it maps to.
type actionStep struct {
	action RecoveryAction
	step   Step
}

// sameArgumentsRow is a row of sameArgumentsAdvice: whether value permits
// a retry of the identical call, and what it becomes for a tool annotated
// read-only or idempotent ("" when it stays).
type sameArgumentsRow struct {
	value     SameArguments
	retry     bool
	upgradeTo SameArguments
}

// sideEffectsRow is a row of sideEffectsAdvice: whether work may already
// have run under value.
type sideEffectsRow struct {
	value      SideEffects
	mayHaveRun bool
}

// Step is what an agent does next after a failure.
type Step string

const (
	StepRetry           Step = "retry"
	StepRevise          Step = "revise"
	StepReauthenticate  Step = "reauthenticate"
	StepConfirm         Step = "confirm"
	StepRediscover      Step = "rediscover"
	StepReduceWork      Step = "reduce_work"
	StepStartDependency Step = "start_dependency"
	StepEscalate        Step = "escalate"
	StepStop            Step = "stop"
)

// Step returns the step the contract maps the action to; an action this
// contract version does not know means escalate.
func (v RecoveryAction) Step() Step {
	if i := actionIndex(v); i >= 0 {
		return actionSteps[i].step
	}
	return StepEscalate
}

// IsRetry reports whether the action asks the caller to try again later.
func (v RecoveryAction) IsRetry() bool {
	for i := range retryActions {
		if retryActions[i] == v {
			return true
		}
	}
	return false
}

// PermitsRetry reports whether an automatic retry of the identical call is permitted.
func (v SameArguments) PermitsRetry() bool {
	i := sameArgumentsIndex(v)
	return i >= 0 && sameArgumentsAdvice[i].retry
}

// MayHaveRun reports whether work may already have run when a failure reports v.
// A value this contract does not list counts as may have run.
func (v SideEffects) MayHaveRun() bool {
	i := sideEffectsIndex(v)
	return i < 0 || sideEffectsAdvice[i].mayHaveRun
}

// ToolAnnotations are the MCP tool annotations that bear on retry safety.
type ToolAnnotations struct {
	ReadOnlyHint   *bool `json:"readOnlyHint,omitempty"`
	IdempotentHint *bool `json:"idempotentHint,omitempty"`
}

// ForTool returns the same_arguments advice for a tool with the given annotations: repeating a call to a tool marked read-only or idempotent cannot repeat a side effect, so the contract may relax the advice.
func (v SameArguments) ForTool(a ToolAnnotations) SameArguments {
	if !(a.ReadOnlyHint != nil && *a.ReadOnlyHint || a.IdempotentHint != nil && *a.IdempotentHint) {
		return v
	}
	if i := sameArgumentsIndex(v); i >= 0 && sameArgumentsAdvice[i].upgradeTo != "" {
		return sameArgumentsAdvice[i].upgradeTo
	}
	return v
}

// WithToolAnnotations applies ForTool to the envelope's same_arguments advice.
func (e *Envelope) WithToolAnnotations(a ToolAnnotations) *Envelope {
	e.Recovery.SameArguments = e.Recovery.SameArguments.ForTool(a)
	return e
}

// Decision is what an agent does after attempt number Attempt failed with an envelope.
type Decision struct {
	Step Step
	// DelayMin and DelayMax bound the wait before a retry: wait a duration drawn
	// uniformly between them (they are equal when the envelope carried a retry
	// hint). Zero for other steps.
	DelayMin time.Duration
	DelayMax time.Duration
	// CheckStateFirst is true when work may already have run: before repeating
	// a write, confirm what the failed attempt did.
	CheckStateFirst bool
	// Exhausted is true when the step would have been a retry but the attempts
	// ran out or same_arguments forbids repeating the call; Step is then escalate.
	Exhausted bool
}

// NextStep decides what to do after attempt number attempt (counting from 1) failed with e. The step comes from the envelope's recovery action, or is a retry when the envelope received a retryable flag that is true (it wins over the advice, an unknown kind's fallback included). A retry is taken only while same_arguments permits repeating the identical call and fewer than RetryMaxAttempts attempts were made; otherwise the agent escalates. The wait is the envelope's retry hint when present (at most RetryMaxHint, however large the hint), else min(RetryMax, RetryInitial × RetryMultiplier^(attempt−1)) in whole milliseconds with up to RetryJitter of it shaved off.
func NextStep(e *Envelope, attempt int) Decision {
	d := Decision{
		CheckStateFirst: e.WorkMayHaveRun(),
		Step:            e.Recovery.Action.Step(),
	}
	// retryable is e.IsRetryable() from the step already looked up: a
	// received flag, else a retry action (RecoveryAction.IsRetry is its
	// step being a retry) whose same_arguments permits repeating the call.
	retryable := d.Step == StepRetry
	// A retryable flag received on the wire wins over the advice: true
	// means retry (ovstorage's decision tree asks it first).
	if r := e.receivedRetryable(); r != nil {
		retryable = *r
		if *r {
			d.Step = StepRetry
		}
	} else {
		retryable = retryable && e.Recovery.SameArguments.PermitsRetry()
	}
	if d.Step != StepRetry {
		return d
	}
	if !retryable || attempt >= RetryMaxAttempts {
		d.Step, d.Exhausted = StepEscalate, true
		return d
	}
	if ms := e.Recovery.RetryAfterMs; ms != nil {
		d.DelayMin = hintDelay(*ms)
		d.DelayMax = d.DelayMin
		return d
	}
	// In whole milliseconds and float64, as the TypeScript and Python packages
	// compute it, so all three agree to the millisecond.
	base := float64(RetryInitial/time.Millisecond) * math.Pow(RetryMultiplier, float64(max(attempt, 1)-1))
	base = math.Min(base, float64(RetryMax/time.Millisecond))
	d.DelayMax = time.Duration(math.Floor(base)) * time.Millisecond
	d.DelayMin = time.Duration(math.Floor(base*(1-RetryJitter))) * time.Millisecond
	return d
}
