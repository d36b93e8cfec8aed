// Package contract holds errgen's intermediate representation (IR): the typed,
// validated and fully resolved model of a contract file that every emitter
// reads. The loader settles defaults, identifiers for every language and
// derived values once, so no emitter re-derives or guesses them.
package contract

import "log/slog"

// Pos is a position in the contract file (1-based line and column).
type Pos struct {
	Line, Col int
}

// Contract is one loaded and validated contract file.
type Contract struct {
	File        string // the path the contract was read from, as given
	Name        string // e.g. "agent-error"; drives every package name
	Version     int    // the wire contract version carried by every envelope
	Naming      Naming
	Description string
	Packages    Packages

	Origins       []*Origin
	Actions       []*Action
	SameArguments []*SameArguments
	SideEffects   []*Value
	Groups        []*Group
	ContextFields []*Field
	Kinds         []*Kind
	// KindFields is the union of every kind-specific field, in order of first
	// declaration. A field name declared by several kinds has one type.
	KindFields []*Field
	Fallback   *Fallback
	Retired    []*Retired

	// Wire holds the envelope's field names. It lives in one place so a
	// configurable layout can replace it without touching any emitter.
	Wire Wire
}

// Packages are the package names derived from the contract name.
type Packages struct {
	Go     string // agenterror
	NPM    string // agent-error
	Python string // agent_error
}

// Naming is the pattern every kind name must follow.
type Naming string

const (
	SnakeCase          Naming = "snake_case"
	ScreamingSnakeCase Naming = "SCREAMING_SNAKE_CASE"
	PascalCase         Naming = "PascalCase"
	KebabCase          Naming = "kebab-case"
)

// Namings lists the supported naming patterns in the order they are documented.
var Namings = []Naming{SnakeCase, ScreamingSnakeCase, PascalCase, KebabCase}

// Idents are the identifiers a name becomes in each target language. They are
// computed by internal/naming and checked for collisions during validation.
type Idents struct {
	Go          string // exported Go name, without any type prefix: AuthFailed
	GoLocal     string // Go parameter name: authFailed
	TSType      string // AuthFailed
	TSLocal     string // authFailed
	TSConst     string // AUTH_FAILED
	PythonLocal string // auth_failed
	PythonConst string // AUTH_FAILED
}

// Value is a member of one of the contract's closed vocabularies.
type Value struct {
	Name        string
	Description string
	Pos         Pos
	Idents      Idents
}

// Step is what errgen's generated decision code does for a recovery action.
// Contracts name their actions freely; each action maps onto one step so
// behaviour is data, not a literal in an emitter.
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

// Steps lists every step in documentation order.
var Steps = []Step{StepRetry, StepRevise, StepReauthenticate, StepConfirm, StepRediscover,
	StepReduceWork, StepStartDependency, StepEscalate, StepStop}

// Action is a recovery action.
type Action struct {
	Value
	Step Step
}

// SameArguments is a same-argument retry safety value.
type SameArguments struct {
	Value
	// Retry is true when an unchanged automatic retry is permitted
	// (labby: safe and conditional).
	Retry bool
}

// Origin is where a failure arose, with the defaults its kinds inherit.
type Origin struct {
	Value
	SideEffects *Value
	Log         slog.Level
	Breaker     bool
}

// Group is a documentation and category grouping of kinds.
type Group struct {
	Value
	Title string
}

// FieldType is the JSON type of a context or kind-specific field.
type FieldType string

const (
	TypeString  FieldType = "string"
	TypeInteger FieldType = "integer"
	TypeNumber  FieldType = "number"
	TypeBoolean FieldType = "boolean"
	TypeObject  FieldType = "object"
	TypeArray   FieldType = "array"
)

// FieldTypes lists the supported field types in documentation order.
var FieldTypes = []FieldType{TypeString, TypeInteger, TypeNumber, TypeBoolean, TypeObject, TypeArray}

// Field is an optional context field or a kind-specific field.
type Field struct {
	Name        string
	Description string
	Type        FieldType
	Items       FieldType // element type when Type is TypeArray
	Required    bool      // kind-specific fields only
	Pos         Pos
	Idents      Idents
}

// Recovery is the advice part of a classification.
type Recovery struct {
	Action        *Action
	SameArguments *SameArguments
	Guidance      string
}

// Classification is everything a consumer branches on for one kind.
type Classification struct {
	Origin      *Origin
	SideEffects *Value
	HTTP        int
	Log         slog.Level
	Breaker     bool
	Recovery    Recovery
}

// Retryable reports whether an automatic retry of the identical call is
// advised: the action's step is a retry and same_arguments permits it.
func (c *Classification) Retryable() bool {
	return c.Recovery.Action.Step == StepRetry && c.Recovery.SameArguments.Retry
}

// Kind is one live error kind with its resolved classification.
type Kind struct {
	Value
	Group *Group
	Classification
	Fields []*Field
}

// RequiredFields returns the kind-specific fields a constructor must take.
func (k *Kind) RequiredFields() []*Field {
	var out []*Field
	for _, f := range k.Fields {
		if f.Required {
			out = append(out, f)
		}
	}
	return out
}

// Fallback is how a kind the contract does not list classifies.
type Fallback struct {
	Classification
	Pos Pos
}

// Retired is a name that may never again be a live kind.
type Retired struct {
	Name       string
	ReplacedBy *Kind // nil when the kind was removed without a replacement
	Reason     string
	Pos        Pos
}

// Wire names the envelope's fields on the wire.
type Wire struct {
	ContractVersion string
	Kind            string
	Message         string
	Origin          string
	Recovery        string
	Action          string // inside Recovery
	SameArguments   string // inside Recovery
	Guidance        string // inside Recovery
	RetryAfterMs    string // inside Recovery
	// RetryAfterMsAliases are accepted when decoding, never emitted.
	RetryAfterMsAliases []string
	SideEffects         string
}

// DefaultWire is labby's agent-error v1 envelope.
func DefaultWire() Wire {
	return Wire{
		ContractVersion:     "contract_version",
		Kind:                "kind",
		Message:             "message",
		Origin:              "origin",
		Recovery:            "recovery",
		Action:              "action",
		SameArguments:       "same_arguments",
		Guidance:            "guidance",
		RetryAfterMs:        "retry_after_ms",
		RetryAfterMsAliases: []string{"retryAfterMs"},
		SideEffects:         "side_effects",
	}
}

// Reserved returns the top-level envelope fields no context or kind-specific
// field may reuse, in wire order.
func (w Wire) Reserved() []string {
	return []string{w.ContractVersion, w.Kind, w.Message, w.Origin, w.Recovery, w.SideEffects}
}

// Kind returns the live kind with the given name, or nil.
func (c *Contract) Kind(name string) *Kind {
	for _, k := range c.Kinds {
		if k.Name == name {
			return k
		}
	}
	return nil
}
