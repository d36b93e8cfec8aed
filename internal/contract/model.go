// Package contract holds errgen's intermediate representation (IR): the typed,
// validated and fully resolved model of a contract file that every emitter
// reads. The loader settles defaults, identifiers for every language and
// derived values once, so no emitter re-derives or guesses them.
package contract

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/errgen/errgen/internal/naming"
)

// Pos is a position in a contract file (1-based line and column). File is
// empty for the loaded contract's own file (Contract.File) and names the
// file otherwise: an imported contract's (imports.go), so that what a
// contract inherits keeps the place it was written.
type Pos struct {
	Line, Col int
	File      string
}

// Contract is one loaded and validated contract file.
type Contract struct {
	File string // the path the contract was read from, as given
	// Size is the contract's length in bytes, which bounds what a run may
	// generate from it (internal/generate's output limit).
	Size int
	Name string // e.g. "agent-error"; drives every package name
	// Version is the wire contract version as an integer; VersionText holds
	// it instead when the contract writes it as a string (ovstorage's "0.1").
	Version     int
	VersionText string
	// VersionPos is where the version is written, so errgen compat can
	// point at a change of it; zero when the contract has none.
	VersionPos Pos
	// Release is the version of every generated package, MAJOR.MINOR.PATCH:
	// package.json, pyproject.toml and __version__, Cargo.toml, and the Go
	// module's tag (and, from major 2 on, the /vN of its path). It is
	// contract.release when the contract writes one (ReleasePos then says
	// where; its major equals the version's), else derived from the version
	// (1 -> 1.0.0, "0.1" -> 0.1.0); empty when a text version is no release
	// number, and then each registry gets its own spelling of the version.
	Release     string
	ReleasePos  Pos
	Naming      Naming
	Description string
	// Imports are the contracts this one builds on (imports.go): its
	// direct imports in the order written, each followed by what it
	// imports; each file once.
	Imports []*Import

	Origins       []*Origin
	Actions       []*Action
	SameArguments []*SameArguments
	SideEffects   []*SideEffect
	Groups        []*Group
	ContextFields []*Field
	// RequiredContext lists the context fields the layout marks required,
	// in context_fields order: every envelope carries each as a non-empty
	// string, and every constructor takes them, after the message.
	RequiredContext []*Field
	Kinds           []*Kind
	// KindFields is the union of every kind-specific field, in order of first
	// declaration. A field name declared by several kinds has one type.
	KindFields []*Field
	// EnvelopeFields are ContextFields followed by KindFields: every field
	// an envelope can carry besides the layout's own values, in the order
	// the generated packages declare them (Go's struct fields and With
	// methods, TypeScript's and Python's field tables). The loader joins
	// the two lists once, so no emitter concatenates them in its own order.
	EnvelopeFields []*Field
	Fallback       *Fallback
	Retired        []*Retired
	// Numbered is true when every kind carries a stable number.
	Numbered bool
	// Statuses lists every HTTP status some kind has, ascending, each with
	// its kinds in contract order (the docs' table of statuses).
	Statuses []*StatusKinds
	// HTTPKinds are the kinds that are alone with their HTTP status,
	// ordered by status: what a failed response without an envelope is
	// read as when the contract has no inbound classifier (HTTPKind). Where
	// several kinds share a status, picking one would put its specific
	// advice on a failure it may not describe, so such a status has none.
	HTTPKinds []*Kind

	// Inbound is nil when the contract declares no classification of
	// upstream failures.
	Inbound *Inbound
	// CallError is nil when the contract declares no call_error section.
	CallError *CallError
	Retry     RetryPolicy
	Surfaces  Surfaces
	// Sanitize is the sanitizer policy; the default when the contract has
	// no sanitize section.
	Sanitize Sanitize

	// Layout is the envelope's wire shape. It is the only place that knows
	// wire names and nesting; every emitter reads it.
	Layout *Layout

	// AIP193 is the contract's side of the google.rpc mapping: the
	// ErrorInfo domain and the metadata members.
	AIP193 AIP193
	// Warnings are findings that do not stop the contract from loading
	// (an odd pair of gRPC code and HTTP status), sorted by position;
	// errgen validate prints them.
	Warnings Problems

	// kindIndex maps kind names to Kinds, built once by the loader so Kind
	// is not a scan per call (emitters ask for every kind of a 10,000-kind
	// contract).
	kindIndex map[string]*Kind
}

// VersionIsText reports whether the version is written as a string.
func (c *Contract) VersionIsText() bool { return c.VersionText != "" }

// VersionValue is the version as it appears on the wire: an int or a string.
func (c *Contract) VersionValue() any {
	if c.VersionIsText() {
		return c.VersionText
	}
	return c.Version
}

// VersionLabel is the version for names and prose: "1", "0.1".
func (c *Contract) VersionLabel() string {
	if c.VersionIsText() {
		return c.VersionText
	}
	return strconv.Itoa(c.Version)
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

// Idents are the identifiers a name becomes in each target language:
// naming.Forms, computed by internal/naming and checked for collisions
// during validation (each target's Forms, internal/targets).
type Idents = naming.Forms

// Value is a member of one of the contract's closed vocabularies.
type Value struct {
	Name        string
	Description string
	Pos         Pos
	Idents      Idents
	// From is the imported contract that defines the value; nil when the
	// loaded contract does.
	From *Import
}

// Base returns v itself. Every vocabulary entry (origin, recovery action,
// same_arguments value, side_effects value, group, kind) embeds Value, so
// through Base, Values can list what a section's entries have in common.
func (v *Value) Base() *Value { return v }

// Values lists the Value of each entry of a vocabulary section, such as
// Values(c.Origins).
func Values[T interface{ Base() *Value }](entries []T) []*Value {
	out := make([]*Value, len(entries))
	for i, e := range entries {
		out[i] = e.Base()
	}
	return out
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
	// UpgradeTo is the value this one becomes when the failing tool is
	// annotated read-only or idempotent (labby: discouraged -> conditional);
	// nil when it does not change.
	UpgradeTo *SameArguments
}

// SideEffect is a side_effects value.
type SideEffect struct {
	Value
	// MayHaveRun is true when work may already have run (AGENTO's
	// executionMayHaveOccurred is derived from it).
	MayHaveRun bool
}

// Origin is where a failure arose, with the defaults its kinds inherit.
type Origin struct {
	Value
	SideEffects *SideEffect
	Log         LogLevel
	Breaker     bool
}

// Group is a documentation and category grouping of kinds.
type Group struct {
	Value
	Title string
	// Startup is the default of its kinds' Startup.
	Startup bool
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

// Phrase is how a decode error names a value of the type: "a string", "an
// integer". The Go decoder's messages and the vectors' names say it alike.
func (t FieldType) Phrase() string {
	switch t {
	case TypeInteger, TypeObject, TypeArray:
		return "an " + string(t)
	}
	return "a " + string(t)
}

// TypePhrase is how a decode error names the type the field wants: its
// type's Phrase, or for an array the elements' ("an array of strings").
func (f *Field) TypePhrase() string {
	if f.Type == TypeArray {
		return "an array of " + string(f.Items) + "s"
	}
	return f.Type.Phrase()
}

// Field is an optional context field or a kind-specific field.
type Field struct {
	Name        string
	Description string
	Type        FieldType
	Items       FieldType // element type when Type is TypeArray
	Required    bool      // kind-specific fields and object properties only
	// Enum lists the allowed values of a string field, or of the elements
	// of an array of strings; empty when any string is allowed.
	Enum []string
	// Properties are the typed members of an object field; empty when the
	// object is free-form.
	Properties []*Field
	Pos        Pos
	Idents     Idents
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
	SideEffects *SideEffect
	HTTP        int
	Log         LogLevel
	// Breaker is whether the failure counts toward a circuit breaker: the
	// kind's own breaker, else its origin's (resolved by the loader).
	Breaker  bool
	Recovery Recovery
	// GRPC is the canonical gRPC code (google.rpc.Code) the google.rpc
	// mapping reports: the contract's grpc key, else DefaultGRPCCode of
	// the HTTP status (resolved by the loader).
	GRPC *GRPCCode
	// GRPCPos is where the grpc key is written; zero for a default.
	GRPCPos Pos
	// MCPErrorCode is the kind's own JSON-RPC error code as an MCP protocol
	// error (mcp_error_code), overriding its origin's in surfaces.mcp; nil
	// for the origin's (MCP.ErrorCode resolves it).
	MCPErrorCode *int
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
	// Startup is true for failures raised while starting up or loading
	// configuration rather than returned as the result of an operation.
	Startup bool
	// Number is the kind's stable numeric code when Contract.Numbered.
	Number int
	// Reason is the kind's ErrorInfo reason (Reason(Name)), unique in the
	// contract.
	Reason string
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
	From       *Import // as Value.From
}

// Kind returns the live kind with the given name, or nil.
func (c *Contract) Kind(name string) *Kind {
	// The index holds one entry per kind unless names repeat (an invalid
	// contract) or Kinds changed after loading; then the scan answers, first
	// declaration first.
	if c.kindIndex != nil && len(c.kindIndex) == len(c.Kinds) {
		return c.kindIndex[name]
	}
	for _, k := range c.Kinds {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// indexKinds builds the index Kind reads.
func (c *Contract) indexKinds() {
	c.kindIndex = make(map[string]*Kind, len(c.Kinds))
	for _, k := range c.Kinds {
		if c.kindIndex[k.Name] == nil {
			c.kindIndex[k.Name] = k
		}
	}
}

// MayHaveRun reports whether work may have run after a failure reporting
// the named side_effects value. A value the contract does not define (a
// newer producer's) counts as may have run: the safe assumption, which makes
// an agent check state before repeating a write. Every generated package
// answers the same way.
func (c *Contract) MayHaveRun(sideEffects string) bool {
	for _, s := range c.SideEffects {
		if s.Name == sideEffects {
			return s.MayHaveRun
		}
	}
	return true
}

// KindField returns the kind-specific field of the envelope with that name,
// as first declared, or nil.
func (c *Contract) KindField(name string) *Field {
	for _, f := range c.KindFields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// ReleaseVersion turns a version label (Contract.VersionLabel) into a
// three-part release number for package registries: 1 -> 1.0.0,
// "0.1" -> 0.1.0. ok is false when the label is not one to three
// dot-separated numbers; each registry then has its own way to spell an
// irregular version.
func ReleaseVersion(label string) (string, bool) {
	parts := strings.Split(label, ".")
	if len(parts) > 3 {
		return "", false
	}
	for _, p := range parts {
		if !releasePart.MatchString(p) {
			return "", false
		}
	}
	for len(parts) < 3 {
		parts = append(parts, "0")
	}
	return strings.Join(parts, "."), true
}

var releasePart = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
