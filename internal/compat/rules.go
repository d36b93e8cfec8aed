package compat

// Rule is one kind of change Compare reports. Breaking rules are changes
// that can make code generated from (or written against) the old contract
// misbehave when it meets envelopes, producers or generated code of the new
// one; the others are additive: safe for consumers, but worth a look.
type Rule struct {
	ID       string // SCREAMING_SNAKE_CASE, stable: CI configurations and docs name it
	Breaking bool
	Catches  string // what the rule catches
	Why      string // why it breaks consumers, or why it does not
}

// Rules lists every rule in documentation order. docs/compat.md carries the
// same table; a test keeps the two in agreement.
var Rules = []Rule{
	// Kinds.
	{"KIND_DELETED", true,
		"A live kind was removed without being moved to `retired`.",
		"Producers built on the old contract still send it, and new code treats it as unknown (the fallback); the name may later come back with another meaning because nothing reserves it."},
	{"KIND_RENAMED", true,
		"A kind disappeared and a new kind with the identical classification (origin, side_effects, HTTP status, breaker, action, same_arguments) and the same description, or the same non-empty fields, appeared: most likely a rename. Reported once, at the new name, instead of KIND_DELETED plus KIND_ADDED.",
		"Consumers matching on the old name silently stop matching; the generated constant changes name. Keep the old name, or retire it with `replaced_by` and bump the version."},
	{"KIND_RETIRED", false,
		"A live kind was moved to `retired`.",
		"The sanctioned way to remove a kind: the name is reserved forever. Old producers may still send it; new consumers classify it by the fallback."},
	{"KIND_ADDED", false,
		"A new live kind.",
		"Old consumers do not know it and classify it by the fallback; strict consumers that validate `kind` against the old list reject it."},
	{"KIND_ORIGIN_CHANGED", true,
		"An existing kind's origin changed.",
		"Consumers branch on origin (dashboards, alerting, CLI exit codes, policy); the same kind now lands in another branch."},
	{"KIND_ACTION_CHANGED", true,
		"An existing kind's recovery action changed.",
		"Agents and clients decide their next step from the action; old code keeps doing the old thing for the same kind."},
	{"KIND_SAME_ARGUMENTS_CHANGED", true,
		"An existing kind's same_arguments changed.",
		"Whether an identical retry is safe decides automatic retries: a change can make old clients retry what must not be repeated, or stop retrying what they could."},
	{"KIND_SIDE_EFFECTS_CHANGED", true,
		"An existing kind's side_effects changed (written on the kind or inherited from its origin).",
		"Clients decide whether to check state before retrying from side_effects; a wrong belief duplicates or loses work."},
	{"KIND_HTTP_STATUS_CHANGED", true,
		"An existing kind's HTTP status changed.",
		"HTTP clients, proxies and monitors branch on the status; the same failure now looks different on the wire."},
	{"KIND_BREAKER_CHANGED", true,
		"Whether an existing kind counts toward a circuit breaker changed (written on the kind or inherited from its origin).",
		"Circuit breakers of old clients open on different failures than the producer intends."},
	{"KIND_GROUP_CHANGED", true,
		"An existing kind moved to another group while the layout puts the group on the wire (e.g. AGENTO's `error.category`).",
		"The group is a wire value consumers branch on; the same kind now reports another category."},
	{"KIND_REGROUPED", false,
		"An existing kind moved to another group; the layout does not carry the group.",
		"Groups then only organise documentation and generated helpers' docs; the wire does not change."},
	{"KIND_NUMBER_CHANGED", true,
		"An existing kind's stable number changed, or numbering was dropped.",
		"Numbers are codes consumers store and match on; a changed number means another kind to them."},
	{"KIND_EXIT_CODE_CHANGED", true,
		"The CLI exit code of an existing kind (or the fallback) changed, through `surfaces.cli` or its origin.",
		"Scripts branch on exit codes."},
	{"KIND_LOG_CHANGED", false,
		"An existing kind's log level changed.",
		"Only the producer's own logging changes; nothing on the wire does."},
	{"RETIRED_NAME_REVIVED", true,
		"A name listed under `retired` in the old contract is a live kind again.",
		"Old consumers still know the name with its old meaning (or as replaced by another kind); reviving it gives one wire value two meanings."},
	{"RETIRED_NAME_DELETED", true,
		"A name was removed from `retired` without coming back as a live kind.",
		"The retired list is what stops a name from being reused; without the entry a later contract can give the old name a new meaning unnoticed."},

	// Vocabularies.
	{"ORIGIN_DELETED", true,
		"An origin was removed.",
		"Old producers still send it; new consumers (and their generated enums and schemas) reject or misclassify it."},
	{"ACTION_DELETED", true,
		"A recovery action was removed.",
		"Old producers still send it; new consumers cannot decide a next step for it."},
	{"SAME_ARGUMENTS_DELETED", true,
		"A same_arguments value was removed.",
		"Old producers still send it; new consumers cannot tell whether a retry is safe."},
	{"SIDE_EFFECTS_DELETED", true,
		"A side_effects value was removed.",
		"Old producers still send it; new consumers cannot tell whether work may have run."},
	{"GROUP_DELETED", true,
		"A group was removed.",
		"Generated group constants disappear, and a layout that carries the group sends a value old consumers no longer find."},
	{"ACTION_STEP_CHANGED", true,
		"A recovery action maps onto another step.",
		"Generated decision code does something else for every kind with that action."},
	{"SAME_ARGUMENTS_RETRY_CHANGED", true,
		"A same_arguments value's `retry` flag changed.",
		"It changes which failures old clients retry automatically (and the derived `retryable` wire flag)."},
	{"SAME_ARGUMENTS_UPGRADE_CHANGED", true,
		"A same_arguments value's `upgrade_to` changed.",
		"Clients that upgrade the value for read-only or idempotent tools now retry differently."},
	{"SIDE_EFFECTS_MAY_HAVE_RUN_CHANGED", true,
		"A side_effects value's `may_have_run` flag went from true (the default) to false.",
		"Clients stop checking state before repeating a write after such a failure, though old producers still mean that work may have run (and the derived `may_have_run` wire flag, e.g. AGENTO's `executionMayHaveOccurred`, flips)."},
	{"SIDE_EFFECTS_MAY_HAVE_RUN_SET", false,
		"A side_effects value's `may_have_run` flag went from false to true.",
		"The safe direction: clients now check state before repeating a write where they did not; the derived wire flag says true more often."},
	{"ENUM_VALUE_ADDED", false,
		"A new origin, recovery action, same_arguments, side_effects or group value, a new enum value of a field, or an enum dropped from a string field.",
		"Safe for tolerant consumers, but visible to strict ones: old generated enums and schemas that validate the value reject it."},

	// Fields.
	{"FIELD_DELETED", true,
		"A kind-specific field (or a property of an object field) was removed from a kind that still exists.",
		"Consumers reading it get nothing; producers' generated constructors and setters change."},
	{"FIELD_RETYPED", true,
		"A kind-specific field (or property) changed type or item type, or an object field switched between free-form and typed properties.",
		"Old decoders fail on, or misread, the new values; generated types change."},
	{"FIELD_MADE_REQUIRED", true,
		"An optional kind-specific field (or property) became required.",
		"Envelopes from old producers lack it and fail new validation; generated constructors take a new argument."},
	{"FIELD_MADE_OPTIONAL", true,
		"A required kind-specific field (or property) became optional.",
		"Consumers relying on its presence now meet envelopes without it; generated constructors lose an argument."},
	{"REQUIRED_FIELD_ADDED", true,
		"A new required field (or property) on an existing kind.",
		"Envelopes from old producers lack it and fail new validation; generated constructors take a new argument."},
	{"OPTIONAL_FIELD_ADDED", false,
		"A new optional field or property on an existing kind, or a new context field.",
		"Tolerant consumers ignore it; strict consumers that reject unknown members see it."},
	{"FIELD_ENUM_VALUE_DELETED", true,
		"A value was removed from a field's enum.",
		"Old producers still send it; new validation rejects it."},
	{"FIELD_ENUM_RESTRICTED", true,
		"A free string field (or array of strings) gained an enum.",
		"Values old producers send may fall outside it and fail new validation."},
	{"CONTEXT_FIELD_DELETED", true,
		"A context field was removed.",
		"Consumers reading it get nothing; generated setters disappear."},
	{"CONTEXT_FIELD_RETYPED", true,
		"A context field changed type or item type, or switched between free-form and typed properties.",
		"Old decoders fail on, or misread, the new values; generated types change."},

	// Fallback.
	{"FALLBACK_CHANGED", true,
		"The fallback classification (origin, side_effects, HTTP status, breaker, action or same_arguments) changed.",
		"Every kind a consumer does not know is handled by the fallback; old and new code now disagree about all of them."},

	// Layout.
	{"LAYOUT_FIELD_MOVED", true,
		"A source's wire path changed (including context and kind-specific fields moved by `layout.context` or `layout.kind_fields`), or a constant's value changed.",
		"Old decoders look for the value where it no longer is; consumers matching a constant (e.g. `status: error`) stop matching."},
	{"LAYOUT_FIELD_REMOVED", true,
		"A source or constant the old layout put on the wire is no longer there.",
		"Consumers reading it get nothing."},
	{"LAYOUT_FIELD_MADE_OPTIONAL", true,
		"A wire field that every envelope carried became optional.",
		"Consumers relying on its presence now meet envelopes without it."},
	{"LAYOUT_FIELD_MADE_REQUIRED", true,
		"A wire field that envelopes could leave out became required: a context field marked `required: true`, or an optional guidance leaf made required.",
		"Envelopes from old producers lack it, so new decoders reject them; the generated constructors take a new parameter."},
	{"LAYOUT_ALIAS_REMOVED", true,
		"A spelling accepted when decoding (an alias) was removed.",
		"New decoders no longer read envelopes from old producers that use it."},
	{"LAYOUT_REQUIRED_FIELD_ADDED", true,
		"The layout puts a new source or constant on the wire in every envelope.",
		"Envelopes from old producers lack it, so new decoders that expect it fail."},
	{"LAYOUT_FIELD_ADDED", false,
		"The layout puts a new optional source on the wire.",
		"Tolerant consumers ignore it; strict consumers that reject unknown members see it."},

	// Contract-wide.
	{"CONTRACT_RENAMED", true,
		"`contract.name` changed.",
		"It drives every package name (Go, npm, Python): every import of the generated code breaks."},
	{"PROBLEM_TYPE_CHANGED", true,
		"`surfaces.problem_type_base` changed.",
		"RFC 9457 consumers match the problem `type` URI; every kind's URI changes."},
	{"CLI_FORM_CHANGED", true,
		"`surfaces.cli.form` changed (bare envelope or wrapped).",
		"Scripts parsing a CLI's stderr meet another shape."},
	{"CLASSIFIER_DELETED", true,
		"An inbound classifier was removed.",
		"The generated classification function disappears; clients calling it no longer compile."},
	{"AGREEMENT_DELETED", false,
		"An inbound agreement (`inbound.agreements`) was removed. Adding one reports nothing: it generates nothing and only makes validation stricter.",
		"Nothing generated changes, but the classifiers it kept aligned may now drift apart without `errgen validate` noticing."},

	// Documentation.
	{"DESCRIPTION_CHANGED", false,
		"A description (of the contract, a kind, a value, a field) or a group's title changed.",
		"Documentation only; nothing on the wire or in generated behaviour changes."},
	{"GUIDANCE_CHANGED", false,
		"A kind's or the fallback's recovery guidance changed.",
		"Guidance is free text for people and models; no code branches on it."},
}

var ruleByID = func() map[string]Rule {
	m := map[string]Rule{}
	for _, r := range Rules {
		m[r.ID] = r
	}
	return m
}()

// RuleByID returns the rule with that id.
func RuleByID(id string) (Rule, bool) {
	r, ok := ruleByID[id]
	return r, ok
}
