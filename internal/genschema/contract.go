package genschema

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"
)

// ContractSchemaID is the $id of the contract file's schema. It names the
// schema of the file format, not of any one contract, so it carries no
// contract name; v1 is the version of the file format.
const ContractSchemaID = "urn:errgen:contract-schema:v1"

// The patterns the loader compiles (internal/contract/patterns.go), and
// those built here from its rules for JSON Schema. They use only syntax that
// RE2 and ECMA-262 read alike. A test checks that the loader and this schema
// agree on every contract in the repository.
const (
	// forbiddenChars are the characters contract text must not hold
	// (internal/contract/text.go), for a character class: the control
	// characters but tab and line feed, U+FEFF and the non-characters of
	// the Basic Multilingual Plane, and the bidirectional embedding,
	// override and isolate controls (Trojan Source). (Those beyond it, U+1FFFE and so on, no
	// class can name alike in RE2 and in ECMA-262 without its u flag: the
	// loader alone rejects them.) The string holds the characters
	// themselves, which both engines read literally; Marshal writes them as
	// JSON escapes.
	forbiddenChars = "\x00-\x08\x0b-\x1f\x7f-\u009f\u202a-\u202e\u2066-\u2069\ufdd0-\ufdef\ufeff\ufffe\uffff"
	// plainTextPattern is any contract text, blank included.
	plainTextPattern = "^[^" + forbiddenChars + "]*$"
	// nonBlankPattern is contract text holding something other than the
	// spaces, tabs and line breaks the loader counts as blank. \S would be
	// stricter than the loader: it also rejects e.g. a lone no-break space.
	nonBlankPattern = "^[^" + forbiddenChars + "]*[^ \t\n\r" + forbiddenChars + "][^" + forbiddenChars + "]*$"
	// wirePathPattern is a layout path: member names joined by dots.
	wirePathPattern = `^` + contract.WireNamePattern + `(\.` + contract.WireNamePattern + `)*$`
)

// propertyDef is the name under $defs of an object field's property, which
// may itself be an object with properties.
const propertyDef = "property"

// The loader's closed lists, as enums. They are read from the contract
// package so a value added there reaches the schema without an edit here.
func stepEnum() []any {
	out := make([]any, len(contract.Steps))
	for i, s := range contract.Steps {
		out[i] = string(s)
	}
	return out
}

func namingEnum() []any {
	out := make([]any, len(contract.Namings))
	for i, n := range contract.Namings {
		out[i] = string(n)
	}
	return out
}

// fieldTypeEnum lists the field types; without array for the elements of an
// array, since arrays of arrays are not supported.
func fieldTypeEnum(withArray bool) []any {
	var out []any
	for _, t := range contract.FieldTypes {
		if t != contract.TypeArray || withArray {
			out = append(out, string(t))
		}
	}
	return out
}

func orList(values []any) string {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = fmt.Sprint(v)
	}
	return contract.JoinOr(s)
}

// logLevelNames are the keys of the loader's logLevels, in increasing
// severity.
var logLevelNames = []any{"debug", "info", "warn", "error"}

// nonBlankString is a required string, which the loader also wants non-blank.
func nonBlankString(description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: nonBlankPattern, Description: description}
}

// plainString is an optional string, which may be blank but not empty (null).
func plainString(description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: plainTextPattern, Description: description}
}

// reference is a reference to a name declared in section. Whether the name is
// declared there is a cross-reference the loader checks; the schema checks
// that it is a well-formed name.
func reference(section, description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: contract.ValueNamePattern,
		Description: description + " Must be a name declared under " + section + "."}
}

func boolSchema(description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "boolean", Description: description + " Write true or false, unquoted (yes, no, on and off are strings)."}
}

func logLevelSchema(description string) *jsonschema.Schema {
	return &jsonschema.Schema{Enum: logLevelNames, Description: description + ": " + orList(logLevelNames) + "."}
}

// grpcCodeSchema is a google.rpc.Code error code by name.
func grpcCodeSchema(description string) *jsonschema.Schema {
	enum := make([]any, len(contract.GRPCCodes))
	for i, c := range contract.GRPCCodes {
		enum[i] = c.Name
	}
	return &jsonschema.Schema{Enum: enum, Description: description + ": " + orList(enum) + "."}
}

func httpStatusSchema(description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: json.Number("400"), Maximum: json.Number("599"), Description: description}
}

// closedObject is a mapping that may hold the given keys, in that order, must
// hold the required ones, and may hold no other: the loader rejects unknown
// keys everywhere.
func closedObject(description string, required []string, keys ...member) *jsonschema.Schema {
	p := props()
	for _, k := range keys {
		p.Set(k.name, k.schema)
	}
	return &jsonschema.Schema{
		Type:                 "object",
		Description:          description,
		Required:             required,
		Properties:           p,
		AdditionalProperties: jsonschema.FalseSchema,
	}
}

type member struct {
	name   string
	schema *jsonschema.Schema
}

func mem(name string, s *jsonschema.Schema) member { return member{name, s} }

// nameMap is a section: a mapping from names to entries. A required section must hold
// at least one entry; an optional one may also be left empty (null), which
// the loader reads as absent.
func nameMap(description string, required bool, names, entry *jsonschema.Schema) *jsonschema.Schema {
	s := &jsonschema.Schema{
		Description:          description,
		PropertyNames:        names,
		AdditionalProperties: entry,
	}
	if required {
		s.Type = "object"
		s.MinProperties = uint64p(1)
	} else {
		s.Extras = map[string]any{"type": []string{"object", "null"}}
	}
	return s
}

func valueNameSchema(what string) *jsonschema.Schema {
	return &jsonschema.Schema{Pattern: contract.ValueNamePattern,
		Description: "The name of " + what + ": a letter, then letters and digits, words joined by single - or _ (e.g. retry_later)."}
}

// fieldDefinition is the definition of a context field, or with required of a
// kind-specific field or of an object field's property.
func fieldDefinition(what string, required bool) *jsonschema.Schema {
	keys := []member{
		mem("type", &jsonschema.Schema{Enum: fieldTypeEnum(true),
			Description: "The JSON type of the field's value: " + orList(fieldTypeEnum(true)) + ". An array also needs items."}),
		mem("items", &jsonschema.Schema{Enum: fieldTypeEnum(false),
			Description: "The type of the array's elements: " + orList(fieldTypeEnum(false)) + ". Required when type is array and not allowed otherwise; arrays of arrays are not supported."}),
		mem("enum", &jsonschema.Schema{Type: "array", MinItems: uint64p(1), UniqueItems: true,
			Items: &jsonschema.Schema{Type: "string", Pattern: nonBlankPattern,
				Description: "An allowed value: a non-blank string. Quote values YAML would read as something else (e.g. \"true\", \"1\")."},
			Description: "The only values the field may take, a list of distinct non-blank strings (e.g. [pending, done]). Allowed only when type is string, or type is array with items string (it then constrains each element). Leave it out to allow any string."}),
		mem("properties", &jsonschema.Schema{Type: "object", MinProperties: uint64p(1),
			PropertyNames:        propertyNameSchema(),
			AdditionalProperties: &jsonschema.Schema{Ref: "#/$defs/" + propertyDef},
			Description: "The typed members of an object, each a name mapping to its definition (type, description, and optionally required, items, enum and properties). " +
				"Allowed only when type is object; must hold at least one member. Leave it out for a free-form object."}),
		mem("description", nonBlankString("What the field holds; it becomes the field's documentation in generated code and schemas. Must not be blank.")),
	}
	if required {
		keys = append(keys, mem("required", boolSchema("Whether the value must always be present (for a kind-specific field: every envelope of the kind carries it, and the generated constructor takes it as an argument; for a property: every object carries it). Leave it out for an optional one.")))
	}
	s := closedObject(what, []string{"type", "description"}, keys...)
	s.If = &jsonschema.Schema{Required: []string{"type"}, Properties: typeIs(contract.TypeArray, "")}
	s.Then = &jsonschema.Schema{Required: []string{"items"}}
	s.Else = &jsonschema.Schema{Not: &jsonschema.Schema{Required: []string{"items"}}}
	s.AllOf = []*jsonschema.Schema{
		// enum refines a string, or the strings of an array.
		{
			If: &jsonschema.Schema{Not: &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
				{Required: []string{"type"}, Properties: typeIs(contract.TypeString, "")},
				{Required: []string{"type", "items"}, Properties: typeIs(contract.TypeArray, contract.TypeString)},
			}}},
			Then: &jsonschema.Schema{Not: &jsonschema.Schema{Required: []string{"enum"}}},
		},
		// properties refine an object.
		{
			If:   &jsonschema.Schema{Not: &jsonschema.Schema{Required: []string{"type"}, Properties: typeIs(contract.TypeObject, "")}},
			Then: &jsonschema.Schema{Not: &jsonschema.Schema{Required: []string{"properties"}}},
		},
	}
	return s
}

// typeIs matches a field definition of type t, and when items is set, of
// that element type.
func typeIs(t, items contract.FieldType) *orderedmap.OrderedMap[string, *jsonschema.Schema] {
	p := props()
	p.Set("type", &jsonschema.Schema{Const: string(t)})
	if items != "" {
		p.Set("items", &jsonschema.Schema{Const: string(items)})
	}
	return p
}

// fieldNameSchema constrains the names of context or kind-specific fields.
// Which names the envelope itself takes depends on the layout; without one,
// reservedFieldNames applies (see ContractSchema).
func fieldNameSchema() *jsonschema.Schema {
	metaKeys := make([]any, len(contract.MetaKeys))
	for i, k := range contract.MetaKeys {
		metaKeys[i] = k
	}
	return &jsonschema.Schema{
		Pattern: contract.ValueNamePattern,
		// The google.rpc mapping keys ErrorInfo metadata by field name
		// beside the envelope's own values.
		Not: &jsonschema.Schema{Enum: metaKeys},
		Description: "The field's name on the wire: a letter, then letters and digits, words joined by single - or _ (e.g. request_id). " +
			"Without a layout section it may not be one of the envelope's own fields (" + strings.Join(contract.DefaultTopLevel(), ", ") + "); " +
			"with one, it may not land on a member the layout already puts in the object the field goes into (layout.context or layout.kind_fields). " +
			"In any contract it may not be a key the google.rpc mapping gives the envelope's own values in ErrorInfo metadata (" + strings.Join(contract.MetaKeys, ", ") + ").",
	}
}

// reservedFieldNames rejects the top-level members of the default layout,
// which a context or kind-specific field may not reuse when the contract
// declares no layout.
func reservedFieldNames() *jsonschema.Schema {
	reserved := contract.DefaultTopLevel()
	enum := make([]any, len(reserved))
	for i, r := range reserved {
		enum[i] = r
	}
	return &jsonschema.Schema{
		Not:         &jsonschema.Schema{Enum: enum},
		Description: "Without a layout section, a field may not be named like one of the envelope's own fields: " + strings.Join(reserved, ", ") + ".",
	}
}

// propertyNameSchema constrains the names of an object field's properties.
// They live inside the field's object, so no envelope member is in the way.
func propertyNameSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Pattern:     contract.ValueNamePattern,
		Description: "The property's name on the wire: a letter, then letters and digits, words joined by single - or _ (e.g. failed_stage).",
	}
}

func sourceEnum() []any {
	out := make([]any, len(contract.Sources))
	for i, s := range contract.Sources {
		out[i] = string(s)
	}
	return out
}

// sourceSchema is a source a layout field carries: a named source or the
// name of a context or kind-specific field. Whether a field of that name is
// declared is a cross-reference the loader checks; the named sources are
// listed for completion.
func sourceSchema(description string) *jsonschema.Schema {
	return &jsonschema.Schema{
		Type: "string",
		AnyOf: []*jsonschema.Schema{
			{Enum: sourceEnum(), Description: "A named source: " + orList(sourceEnum()) + "."},
			{Pattern: contract.ValueNamePattern, Description: "The name of a context or kind-specific field, which the layout then places at this path."},
		},
		Description: description + " One of " + orList(sourceEnum()) + " (group, retryable and may_have_run are derived from the kind's classification), or the name of a context or kind-specific field.",
	}
}

// carries matches a layout.fields entry that puts source s on the wire.
func carries(s contract.Source) *jsonschema.Schema {
	from := props()
	from.Set("from", &jsonschema.Schema{Const: string(s)})
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		{Const: string(s)},
		{Type: "object", Required: []string{"from"}, Properties: from},
	}}
}

// layoutSchema is the layout section: the envelope's wire shape.
func layoutSchema() *jsonschema.Schema {
	pathOrTop := func(description string) *jsonschema.Schema {
		return &jsonschema.Schema{
			Extras:      map[string]any{"type": []string{"string", "null"}},
			Pattern:     `^$|` + wirePathPattern,
			Description: description,
		}
	}
	fromEntry := closedObject("A source with options: {from: source, optional: true, aliases: [names]}, or for a context field {from: field, required: true}.",
		[]string{"from"},
		mem("from", sourceSchema("What the wire field carries.")),
		mem("optional", boolSchema("Whether the wire field may be absent: it is left out when empty, and a derived boolean when false (unless a decoded envelope received it). Required fields are always written; false when left out. On guidance it also means the guidance is the producer's own: constructors leave it empty instead of filling in the contract's.")),
		mem("required", boolSchema("For a string context field only: every envelope carries it, non-empty; every constructor takes it as a parameter after the message, both envelope schemas require it and decoding an envelope without it fails. Not with optional: true. False when left out.")),
		mem("aliases", &jsonschema.Schema{Type: "array",
			Items: &jsonschema.Schema{Type: "string", Pattern: "^" + contract.WireNamePattern + "$",
				Description: "Another member name accepted for this field when decoding: starts with a letter, _ or $, then letters, digits, _, $ or -."},
			Description: "Other spellings of the member name that decoders accept but never write (e.g. [retryAfterMs]), each a member name in the same object. An alias may not be the name of another member of that object."}),
	)
	constEntry := closedObject("A fixed value every envelope carries: {const: value}.",
		[]string{"const"},
		mem("const", &jsonschema.Schema{Extras: map[string]any{"type": []string{"string", "number", "boolean"}}, Pattern: plainTextPattern,
			Description: "The value the wire field always holds: a string, a number or a boolean (e.g. false, \"error\"). Not a list, a mapping or empty. A const field takes no from, optional, required or aliases."}),
	)
	// required: true is for context fields: never beside optional: true,
	// never on a named source. (That the field is a string context field
	// is a cross-reference the loader checks.)
	requiredTrue := props()
	requiredTrue.Set("required", &jsonschema.Schema{Const: true})
	optionalTrue := props()
	optionalTrue.Set("optional", &jsonschema.Schema{Const: true})
	namedFrom := props()
	namedFrom.Set("from", &jsonschema.Schema{Enum: sourceEnum()})
	fromEntry.AllOf = append(fromEntry.AllOf,
		&jsonschema.Schema{Not: &jsonschema.Schema{Required: []string{"required", "optional"}, Properties: mergeProps(requiredTrue, optionalTrue)}},
		&jsonschema.Schema{Not: &jsonschema.Schema{Required: []string{"required", "from"}, Properties: mergeProps(requiredTrue, namedFrom)}},
	)
	entry := &jsonschema.Schema{
		OneOf: []*jsonschema.Schema{
			sourceSchema("What the wire field carries."),
			fromEntry,
			constEntry,
		},
		Description: "What the wire field carries: a source (e.g. kind), {from: source, optional: true, aliases: [names]} or {const: value}.",
	}
	fields := &jsonschema.Schema{
		Type: "object",
		PropertyNames: &jsonschema.Schema{Pattern: wirePathPattern,
			Description: "The wire field's path from the envelope's top: member names joined by dots (e.g. error.code), each starting with a letter, _ or $, then letters, digits, _, $ or -. A path may not be both a field and the object holding another (error.code and error.code.x)."},
		AdditionalProperties: entry,
		Description: "The envelope's wire fields: each maps a dotted path to what it carries (a source, {from: source, optional: true, aliases: [names]} or {const: value}). " +
			"kind and message must be on the wire, and each named source may appear once. Context and kind-specific fields not placed here go under layout.context and layout.kind_fields.",
	}
	for _, src := range []contract.Source{contract.SourceKind, contract.SourceMessage} {
		// Some entry carries src: not every entry fails to.
		fields.AllOf = append(fields.AllOf, &jsonschema.Schema{
			Not: &jsonschema.Schema{AdditionalProperties: &jsonschema.Schema{Not: carries(src)}},
		})
	}
	s := closedObject("The envelope's wire shape: which JSON member carries what, and where context and kind-specific fields go. Leave it out for errgen's default envelope ("+
		strings.Join(contract.DefaultTopLevel(), ", ")+" at the top, the advice under recovery).",
		[]string{"fields"},
		mem("fields", fields),
		mem("context", pathOrTop("The object context fields go into, as a dotted path (e.g. error.details); empty or left out for the envelope's top level. A context field named in layout.fields goes where it is mapped instead.")),
		mem("kind_fields", pathOrTop("The object kind-specific fields go into, as a dotted path (e.g. error); empty or left out for the envelope's top level. A kind-specific field named in layout.fields goes where it is mapped instead.")),
	)
	s.Type = ""
	s.Extras = map[string]any{"type": []string{"object", "null"}}
	return s
}

func failureEnum() []any {
	out := make([]any, 0, len(contract.Failures)+1)
	out = append(out, "any")
	for _, f := range contract.Failures {
		out = append(out, string(f))
	}
	return out
}

// kindReference is a reference to a kind. The kind names of the contract's
// naming are checked in ContractSchema; that the kind is declared, by the
// loader.
func kindReference(description string) *jsonschema.Schema {
	return reference("kinds", description)
}

// ruleSchema is one rule of an inbound classifier.
func ruleSchema() *jsonschema.Schema {
	statusItem := &jsonschema.Schema{
		// minimum and maximum apply to a number, pattern to a string.
		Extras:  map[string]any{"type": []string{"integer", "string"}},
		Minimum: json.Number("100"), Maximum: json.Number("599"),
		Pattern:     contract.StatusPattern,
		Description: "An HTTP status to match: a code (401), a class (4xx, quoted or not) or an inclusive range written lower code first (500-599), all from 100 to 599.",
	}
	status := &jsonschema.Schema{
		Extras:  map[string]any{"type": []string{"integer", "string", "array"}},
		Minimum: statusItem.Minimum, Maximum: statusItem.Maximum, Pattern: contract.StatusPattern,
		Items: statusItem, MinItems: uint64p(1),
		Description: "The HTTP statuses the rule matches: a code (401), a class (4xx), an inclusive range (500-599), or a non-empty list of them (e.g. [408, 504]); any of them matches. " +
			"Leave it out to match any status, including none (a transport failure).",
	}
	failureItem := &jsonschema.Schema{Enum: failureEnum(),
		Description: "A transport failure to match, the call having ended without a response: " + orList(failureEnum()) + " (any matches every one)."}
	failure := &jsonschema.Schema{
		AnyOf: []*jsonschema.Schema{
			failureItem,
			{Type: "array", MinItems: uint64p(1), Items: failureItem, Description: "A non-empty list of failures, any of which matches."},
		},
		Description: "The transport failures the rule matches, when the upstream call ended without a response: one of " + orList(failureEnum()) +
			", or a non-empty list of them (e.g. [connection_reset, tls]). any matches every transport failure. Leave it out to match any failure, including none.",
	}
	textItem := &jsonschema.Schema{
		// minimum applies to a number, pattern to a string; YAML reads an
		// unquoted 401 as a number, which the loader takes as the phrase.
		Extras:      map[string]any{"type": []string{"string", "number", "boolean"}},
		Minimum:     json.Number("0"),
		Pattern:     contract.TextPattern,
		Description: "A word or phrase of letters, digits, _, spaces, ., :, / or -, starting and ending with a letter, digit or _ (e.g. invalid_token, access token expired). Quote phrases YAML reads as something else (\"401\").",
	}
	text := &jsonschema.Schema{
		Extras:  map[string]any{"type": []string{"string", "number", "boolean", "array"}},
		Minimum: textItem.Minimum, Pattern: contract.TextPattern,
		Items: textItem, MinItems: uint64p(1),
		Description: "Words or phrases the upstream's error text must contain, as whole words and ignoring case: one phrase or a non-empty list of them, any of which matches (e.g. [unauthorized, invalid_token]). " +
			"Leave it out to ignore the text.",
	}
	r := closedObject("A rule: the conditions it matches on (status, failure, text; at least one, and all given must hold) and the kind a matching failure becomes, e.g. {status: 401, kind: auth_failed}.",
		[]string{"kind"},
		mem("status", status),
		mem("failure", failure),
		mem("text", text),
		mem("kind", kindReference("The kind a failure this rule matches becomes.")),
		mem("breaker", boolSchema("Overrides whether a failure this rule matches counts toward a circuit breaker; leave it out to use the kind's.")),
	)
	r.AnyOf = []*jsonschema.Schema{{Required: []string{"status"}}, {Required: []string{"failure"}}, {Required: []string{"text"}}}
	return r
}

// inboundSchema is the inbound section: how a client turns an upstream
// failure into a kind.
func inboundSchema() *jsonschema.Schema {
	classifier := closedObject("A classifier: an ordered list of rules, the first that matches deciding the kind, and the kind of a failure no rule matches.",
		[]string{"description", "default", "rules"},
		mem("description", nonBlankString("What this view of upstream failures is for; it documents the generated classifier. Must not be blank.")),
		mem("default", kindReference("The kind of a failure no rule matches.")),
		mem("rules", &jsonschema.Schema{Type: "array", Items: ruleSchema(),
			Description: "The rules in order; the first that matches wins, and a failure none matches becomes the default kind. Each rule is like {status: 401, kind: auth_failed}. May be empty."}),
	)
	s := closedObject("How a client turns an upstream failure (an HTTP status, a transport failure, the upstream's error text) into one of this contract's kinds. Leave it out when the contract's clients classify nothing.",
		[]string{"classifiers"},
		mem("tool_result", kindReference("The kind of a completed tool result flagged as an error (MCP isError: true). It never counts toward a circuit breaker, since the upstream answered. Leave it out when there are no tool results.")),
		mem("classifiers", snakeCaseMap(1, "The classifier's name in snake_case (e.g. model); it names the generated functions (ClassifyModel).", classifier,
			"The classifiers, each a view of upstream failures (e.g. one for the model, one for the circuit breaker) mapping to its description, default kind and rules. At least one is required; the first is the default classification.")),
		mem("agreements", agreementsSchema()),
	)
	s.Type = ""
	s.Extras = map[string]any{"type": []string{"object", "null"}}
	return s
}

// snakeCaseMap is an object of at least min members, each keyed by a
// snake_case name (nameDoc describes it) and mapping to value.
func snakeCaseMap(min uint64, nameDoc string, value *jsonschema.Schema, description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", MinProperties: uint64p(min),
		PropertyNames:        &jsonschema.Schema{Pattern: contract.SnakeCase.Pattern(), Description: nameDoc},
		AdditionalProperties: value,
		Description:          description}
}

// agreementsSchema is inbound.agreements: notions several classifiers must
// agree on. That the classifiers and kinds exist, that each classifier gives
// the kinds listed for it, and that the classifiers really agree, the loader
// checks.
func agreementsSchema() *jsonschema.Schema {
	kind := kindReference("A kind the classifier gives (from a rule or its default).")
	kinds := &jsonschema.Schema{
		AnyOf: []*jsonschema.Schema{
			kind,
			{Type: "array", MinItems: uint64p(1), UniqueItems: true, Items: kind, Description: "A non-empty list of kinds, each listed once."},
		},
		Description: "The kinds that make up the shared notion in this classifier's vocabulary: one kind or a non-empty list of them (e.g. [auth_failed, auth_required]). Each must be a kind the classifier gives.",
	}
	agreement := closedObject("An agreement: the classifiers that share a notion, each with its own kinds for it. errgen validate derives inputs from every rule whose kind is in its classifier's set (each status, with a class or range taken at every code where a rule of these classifiers starts or stops matching; each failure, any meaning every one; each text phrase; and their combinations when a rule has several conditions), runs every listed classifier on each, and reports an input that some classifiers put in their set and others do not.",
		[]string{"description", "classifiers"},
		mem("description", nonBlankString("What the classifiers agree on and why their kinds may differ; it is shown in the inbound docs. Must not be blank.")),
		mem("classifiers", snakeCaseMap(2, "The name of a classifier declared under inbound.classifiers.", kinds,
			"Two or more classifiers, each mapping to its kinds for the shared notion, e.g. {model: [oauth_needs_reauth, permission_denied], breaker: [auth_failed, auth_required]}.")),
	)
	return snakeCaseMap(1, "The agreement's name in snake_case (e.g. auth); problems and the docs name it.", agreement,
		"Notions that two or more classifiers must agree on while naming them with their own kinds (labby: the model and breaker views agree on which failures are auth problems). errgen validate checks every agreement and reports each input the classifiers disagree on, at the rule condition it comes from. Leave it out when there is nothing to keep aligned.")
}

// retrySchema is the retry section: the backoff an agent uses without a
// retry hint.
func retrySchema() *jsonschema.Schema {
	d := contract.DefaultRetry()
	positive := func(description string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "integer", Minimum: json.Number("1"), Maximum: json.Number(fmt.Sprint(math.MaxInt64)), Description: description}
	}
	s := closedObject(fmt.Sprintf("The backoff an agent uses when an envelope asks for a retry but carries no retry hint. Every key is optional; left out, it keeps errgen's default (initial_ms %d, max_ms %d, multiplier %g, jitter %g, max_attempts %d, max_hint_ms %d).",
		d.InitialMs, d.MaxMs, d.Multiplier, d.Jitter, d.MaxAttempts, d.MaxHintMs),
		nil,
		mem("initial_ms", positive(fmt.Sprintf("The delay before the first retry, in milliseconds: at least 1 and at most max_ms. %d when left out.", d.InitialMs))),
		mem("max_ms", positive(fmt.Sprintf("The longest delay between retries, in milliseconds: at least initial_ms. %d when left out.", d.MaxMs))),
		mem("multiplier", &jsonschema.Schema{Type: "number", Minimum: json.Number("1"), Maximum: json.Number("10"),
			Description: fmt.Sprintf("The factor each delay grows by over the one before, a number from 1 to 10 (1 keeps it constant). %g when left out.", d.Multiplier)}),
		mem("jitter", &jsonschema.Schema{Type: "number", Minimum: json.Number("0"), Maximum: json.Number("1"),
			Description: fmt.Sprintf("The fraction of each delay that may be shaved off at random, from 0 (none) to 1, so that clients do not retry in step. %g when left out.", d.Jitter)}),
		mem("max_attempts", positive(fmt.Sprintf("How many attempts an agent makes in all, the first call included, before it escalates instead of retrying; at least 1. %d when left out.", d.MaxAttempts))),
		mem("max_hint_ms", &jsonschema.Schema{Type: "integer", Minimum: json.Number("1"), Maximum: json.Number(fmt.Sprint(contract.MaxHintLimitMs)),
			Description: fmt.Sprintf("The longest retry hint, in milliseconds: producers clamp a longer hint to it and agents never wait longer, so a hostile or broken upstream cannot stall or (through overflow) hurry a client. From 1 to %d. %d (a day) when left out.", contract.MaxHintLimitMs, d.MaxHintMs)}),
	)
	// With one bound left out, the other is compared with its default.
	// (With both given, that max_ms is at least initial_ms the loader
	// checks: JSON Schema cannot compare two values.)
	bound := func(key string, limit *jsonschema.Schema) *jsonschema.Schema {
		p := props()
		p.Set(key, limit)
		return &jsonschema.Schema{Properties: p}
	}
	s.AllOf = []*jsonschema.Schema{
		{
			If: &jsonschema.Schema{Not: &jsonschema.Schema{Required: []string{"max_ms"}}},
			Then: bound("initial_ms", &jsonschema.Schema{Maximum: json.Number(fmt.Sprint(d.MaxMs)),
				Description: fmt.Sprintf("max_ms is left out, so it is %d, which initial_ms may not exceed.", d.MaxMs)}),
		},
		{
			If: &jsonschema.Schema{Not: &jsonschema.Schema{Required: []string{"initial_ms"}}},
			Then: bound("max_ms", &jsonschema.Schema{Minimum: json.Number(fmt.Sprint(d.InitialMs)),
				Description: fmt.Sprintf("initial_ms is left out, so it is %d, which max_ms may not be below.", d.InitialMs)}),
		},
	}
	s.Type = ""
	s.Extras = map[string]any{"type": []string{"object", "null"}}
	return s
}

// metaKeyPattern is an MCP _meta key (contract.MetaKeyPattern).
var metaKeyPattern = contract.MetaKeyPattern

// jsonRPCCodeSchema is a JSON-RPC error code a contract may give an MCP
// protocol error (contract.JSONRPCCodeProblem).
func jsonRPCCodeSchema(description string) *jsonschema.Schema {
	n := func(v int) json.Number { return json.Number(fmt.Sprint(v)) }
	return &jsonschema.Schema{Type: "integer", Minimum: n(-1 << 31), Maximum: n(1<<31 - 1),
		AnyOf: []*jsonschema.Schema{
			{Maximum: n(contract.JSONRPCReservedMin - 1)},
			{Minimum: n(contract.JSONRPCReservedMax + 1)},
			{Minimum: n(contract.JSONRPCServerMin), Maximum: n(contract.JSONRPCReservedMax)},
			{Enum: []any{contract.JSONRPCParseError, contract.JSONRPCInvalidRequest, contract.JSONRPCMethodNotFound, contract.JSONRPCInvalidParams, contract.JSONRPCInternalError}},
		},
		Description: description + " A 32-bit integer; in the range JSON-RPC 2.0 reserves (-32768 to -32000) only its defined codes (-32700, -32600 to -32603) and server errors (-32099 to -32000)."}
}

// byOriginSchema is a mapping from declared origins to values (the
// loader's byOrigin).
func byOriginSchema(value *jsonschema.Schema, description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object",
		PropertyNames: &jsonschema.Schema{Pattern: contract.ValueNamePattern,
			Description: "An origin, which must be declared under origins."},
		AdditionalProperties: value,
		Description:          description}
}

// surfacesSchema is the surfaces section: how the HTTP, problem+json and
// CLI surfaces render an envelope.
func surfacesSchema() *jsonschema.Schema {
	exitCode := func(description string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "integer", Minimum: json.Number("1"), Maximum: json.Number("125"),
			Description: description + " From 1 to 125: 0 means success, and the shell reserves codes above 125."}
	}
	forms := []any{string(contract.CLIEnvelope), string(contract.CLIWrapped)}
	cli := closedObject("How a command line tool reports a failure: what it writes on stderr and the exit code it ends with.",
		nil,
		mem("form", &jsonschema.Schema{Enum: forms,
			Description: "What the CLI writes on stderr: envelope (the envelope itself) or wrapped (labby's {\"ok\": false, \"command\": ..., \"error\": envelope}). envelope when left out."}),
		mem("default_exit_code", exitCode("The exit code of a failure whose origin has none under exit_codes. 1 when left out.")),
		mem("exit_codes", byOriginSchema(exitCode("The exit code of the origin's failures."),
			"Exit codes by origin (e.g. validation: 65, following sysexits.h); an origin left out uses default_exit_code.")),
	)
	httpReading := closedObject("How the readers of a failed HTTP response (ReadHTTP, fromHttpResponse, from_http_response, Envelope::read_http) build the envelope of a response that carries none.",
		nil,
		mem("echo_body", &jsonschema.Schema{Type: "boolean",
			Description: "Whether the message of an envelope built from a response without one quotes the start of the body's text (sanitized, at most 512 bytes) after \"HTTP <status> <status text>\". false: the message is the status line alone, and the body's text reaches only the inbound classifier. true when left out."}),
		mem("status_field", &jsonschema.Schema{Type: "string", Pattern: contract.ValueNamePattern,
			Description: "The integer context field in which an envelope built from a response without one keeps the response's HTTP status (AGENTO's details.status). None when left out."}),
	)
	rpcCode := jsonRPCCodeSchema
	mcp := closedObject("How the MCP surface reports failures besides tool results: the JSON-RPC error code of a protocol error (a prompt, resource or bridge failure, whose data member is the envelope), and the _meta key of isError tool results.",
		nil,
		mem("meta_key", &jsonschema.Schema{Type: "string", Pattern: metaKeyPattern,
			Description: "The _meta key under which isError tool results carry the envelope too (e.g. ai.dinglebear.labby/error); none when left out. A prefix whose second label is modelcontextprotocol or mcp is the MCP specification's and rejected."}),
		mem("default_error_code", rpcCode("The JSON-RPC error code of a protocol error whose kind's origin has none under error_codes. -32603 (internal error) when left out.")),
		mem("error_codes", byOriginSchema(rpcCode("The JSON-RPC error code of the origin's protocol errors."),
			"JSON-RPC error codes by origin (e.g. validation: -32602, invalid params); an origin left out uses default_error_code.")),
	)
	s := closedObject("How the HTTP, RFC 9457 problem+json, CLI and MCP surfaces render an envelope, and how the HTTP readers build one. Every key is optional.",
		nil,
		mem("problem_type_base", &jsonschema.Schema{Type: "string", Pattern: contract.AbsoluteURIPattern,
			Description: "The absolute URI a kind's name is appended to, to make its RFC 9457 problem type (e.g. https://errors.example.com/agent-error/ or urn:errgen:agent-error:kind:). urn:errgen:<contract name>: when left out."}),
		mem("cli", cli),
		mem("http", httpReading),
		mem("error_info_domain", &jsonschema.Schema{Type: "string", Pattern: `^[^\t\n\r ]+$`,
			Description: "The domain of the google.rpc ErrorInfo every envelope maps to (AIP-193): the service or product that owns the reasons, e.g. agent-error.example.com. The contract name when left out."}),
		mem("mcp", mcp),
	)
	s.Type = ""
	s.Extras = map[string]any{"type": []string{"object", "null"}}
	return s
}

// sanitizeSchema is the sanitize section: the policy of the generated
// sanitizers (docs/sanitizer.md).
func sanitizeSchema() *jsonschema.Schema {
	// A secret prefix may not occur in [REDACTED]: every substring of
	// REDACTED of two letters or more, the shortest prefix allowed.
	var inRedacted []any
	word := strings.Trim(contract.Redacted, "[]")
	for i := 0; i < len(word); i++ {
		for j := i + 2; j <= len(word); j++ {
			inRedacted = append(inRedacted, word[i:j])
		}
	}
	var charNames []any
	for _, c := range contract.SecretCharClasses {
		charNames = append(charNames, string(c))
	}
	prefixes := make([]string, 0, len(contract.BuiltinSecretPrefixes)+1)
	for _, p := range append([]string{"-----"}, contract.BuiltinSecretPrefixes...) {
		prefixes = append(prefixes, strings.NewReplacer("-", `\-`).Replace(p))
	}
	var credentialNames []any
	var pathStarts []string
	for _, n := range contract.BuiltinCredentialNames {
		credentialNames = append(credentialNames, n)
		pathStarts = append(pathStarts, regexp.QuoteMeta(strings.SplitN(n, "/", 2)[0]))
	}
	for _, p := range append(append([]string(nil), contract.HomePrefixes...), contract.KeyFileExtensions...) {
		pathStarts = append(pathStarts, regexp.QuoteMeta(p))
	}
	pattern := &jsonschema.Schema{Type: "object",
		Description: "A secret shape of the contract's own: one of the prefixes, then at least min_length characters of the class chars. The whole run of class characters is redacted.",
		Required:    []string{"prefixes", "chars", "min_length"},
		Properties:  props(), AdditionalProperties: jsonschema.FalseSchema}
	pattern.Properties.Set("description", plainString("What the secret is."))
	pattern.Properties.Set("prefixes", &jsonschema.Schema{Type: "array", MinItems: uint64p(1), UniqueItems: true,
		Description: "The literal text such a secret starts with (e.g. [acme_live_, acme_test_]); matched exactly, ASCII case included.",
		Items: &jsonschema.Schema{Type: "string", Pattern: contract.SecretPrefixPattern,
			Not:         &jsonschema.Schema{Enum: inRedacted},
			Description: "2 to 32 ASCII letters, digits, _ or -; not a part of [REDACTED], the text that replaces a secret."}})
	pattern.Properties.Set("chars", &jsonschema.Schema{Enum: charNames,
		Description: "The characters after the prefix: alnum (A-Z a-z 0-9), upper_alnum (A-Z 0-9), lower_alnum (a-z 0-9), hex, base64url (A-Z a-z 0-9 _ -), base64 (A-Z a-z 0-9 + / =), word (A-Z a-z 0-9 _) or token (A-Z a-z 0-9 . _ ~ + / = -)."})
	pattern.Properties.Set("min_length", &jsonschema.Schema{Type: "integer", Minimum: json.Number("8"), Maximum: json.Number("256"),
		Description: "How many class characters at least follow the prefix: from 8 to 256."})
	s := closedObject(fmt.Sprintf("How the generated sanitizers clean upstream-controlled text (docs/sanitizer.md). Every key is optional; left out, it keeps errgen's default (max_length %d, truncation_marker %q, the default markers, no secret patterns of the contract's own, fields message and cause, paths true and no credential names of the contract's own).",
		contract.DefaultSanitizeMaxLength, contract.DefaultTruncationMarker),
		nil,
		mem("max_length", &jsonschema.Schema{Type: "integer", Minimum: json.Number(fmt.Sprint(contract.SanitizeMinLength)), Maximum: json.Number(fmt.Sprint(contract.SanitizeMaxMaxLength)),
			Description: fmt.Sprintf("The longest output in Unicode code points, the truncation marker included: from %d to %d. %d when left out.", contract.SanitizeMinLength, contract.SanitizeMaxMaxLength, contract.DefaultSanitizeMaxLength)}),
		mem("truncation_marker", &jsonschema.Schema{Type: "string", MinLength: uint64p(2), MaxLength: uint64p(32),
			Pattern:     "^ [^\\x00-\\x7F" + forbiddenChars + "][^ \\t\\n\\r:=@" + forbiddenChars + "]*$",
			Not:         &jsonschema.Schema{Pattern: "(" + strings.Join(prefixes, "|") + ")"},
			Description: fmt.Sprintf("Appended when anything was cut off: 2 to 32 characters, a space and a non-ASCII character first, then no white space, ':', '=' or '@', no marker and no secret prefix (so it can never complete one). %q when left out.", contract.DefaultTruncationMarker)}),
		mem("markers", &jsonschema.Schema{Type: "array", UniqueItems: true,
			Description: "The prompt-injection markers removed, ASCII case ignored, until none remain; replaces the default list (" + strings.Join(contract.DefaultMarkers, " ") + "). [] for none.",
			Items: &jsonschema.Schema{Type: "string", MinLength: uint64p(2), MaxLength: uint64p(64), Pattern: "^[^ \\t\\n\\r" + forbiddenChars + "]+$",
				Description: "A marker: 2 to 64 characters without white space; it may not overlap [REDACTED]."}}),
		mem("secrets", &jsonschema.Schema{Extras: map[string]any{"type": []string{"object", "null"}},
			Description:          "Secret shapes of the contract's own, redacted besides errgen's built-in catalogue, by snake_case name.",
			PropertyNames:        &jsonschema.Schema{Pattern: contract.SnakeCase.Pattern(), Description: "The pattern's name in snake_case (e.g. acme_api_key)."},
			AdditionalProperties: pattern}),
		mem("fields", &jsonschema.Schema{Type: "array", UniqueItems: true,
			Description: "The envelope values sanitized by default: message, guidance, or context and kind-specific fields holding text (a string, an array of strings, or an object whose strings are sanitized).",
			Items:       &jsonschema.Schema{Type: "string", Pattern: contract.ValueNamePattern}}),
		mem("paths", &jsonschema.Schema{Type: "boolean",
			Description: "Whether home directories (/home/<user>, /Users/<user>, C:\\Users\\<user>) lose their user name and paths to credential files (~/.ssh/..., .aws, .netrc, id_rsa, *.pem, ...) are redacted whole. true when left out."}),
		mem("credential_names", &jsonschema.Schema{Type: "array", UniqueItems: true,
			Description: "Credential file or directory names of the contract's own, redacted besides errgen's (" + strings.Join(contract.BuiltinCredentialNames, " ") + "): a path holding a segment of such a name is redacted whole. Needs paths.",
			Items: &jsonschema.Schema{Type: "string", MinLength: uint64p(3), MaxLength: uint64p(64),
				Pattern: `^[A-Za-z0-9._~+@%$-]{3,}(/[A-Za-z0-9._~+@%$-]+)*$`,
				Not: &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
					{Enum: credentialNames},
					{Pattern: `(^|/)\.+(/|$)`},
				}},
				Description: "3 to 64 ASCII letters, digits and . _ - ~ + @ % $, in segments joined by single slashes, three characters at least before the first; not a name of errgen's own, no segment of dots only. A slash stands for one or more path separators (/ or \\)."}}),
	)
	// Path redaction off, the contract names no credentials; on (the
	// default), the marker holds no start of a path shape.
	pathsOff := props()
	pathsOff.Set("paths", &jsonschema.Schema{Const: false})
	noNames, markerFree := props(), props()
	noNames.Set("credential_names", &jsonschema.Schema{MaxItems: uint64p(0),
		Description: "paths is false, so no credential names apply."})
	markerFree.Set("truncation_marker", &jsonschema.Schema{
		Not:         &jsonschema.Schema{Pattern: "(" + strings.Join(pathStarts, "|") + ")"},
		Description: "With paths on, the marker may not hold a home prefix, a key file extension or a credential name's first segment."})
	s.AllOf = []*jsonschema.Schema{{
		If:   &jsonschema.Schema{Required: []string{"paths"}, Properties: pathsOff},
		Then: &jsonschema.Schema{Properties: noNames},
		Else: &jsonschema.Schema{Properties: markerFree},
	}}
	s.Type = ""
	s.Extras = map[string]any{"type": []string{"object", "null"}}
	return s
}

// inboundKinds constrains the kinds the inbound section names to the
// contract's naming n.
func inboundKinds(n contract.Naming) *jsonschema.Schema {
	kind := &jsonschema.Schema{Pattern: n.Pattern(),
		Description: fmt.Sprintf("A kind name, so in %s (e.g. %s).", n, n.Example())}
	rule := props()
	rule.Set("kind", kind)
	classifier := props()
	classifier.Set("default", kind)
	classifier.Set("rules", &jsonschema.Schema{Items: &jsonschema.Schema{Properties: rule},
		Description: fmt.Sprintf("Each rule names a kind, whose name is in %s.", n)})
	inbound := props()
	inbound.Set("tool_result", kind)
	inbound.Set("classifiers", &jsonschema.Schema{AdditionalProperties: &jsonschema.Schema{Properties: classifier},
		Description: fmt.Sprintf("A classifier names kinds, whose names are in %s.", n)})
	// A pattern applies to a single kind, items to a list of them.
	set := &jsonschema.Schema{Pattern: n.Pattern(), Items: kind,
		Description: fmt.Sprintf("A kind name or a list of them, in %s.", n)}
	agreement := props()
	agreement.Set("classifiers", &jsonschema.Schema{AdditionalProperties: set,
		Description: fmt.Sprintf("Each classifier of an agreement names kinds, whose names are in %s.", n)})
	inbound.Set("agreements", &jsonschema.Schema{AdditionalProperties: &jsonschema.Schema{Properties: agreement},
		Description: fmt.Sprintf("An agreement names kinds, whose names are in %s.", n)})
	return &jsonschema.Schema{Properties: inbound,
		Description: fmt.Sprintf("The inbound section names kinds, whose names are in %s.", n)}
}

// ContractSchema is the JSON Schema of a contract file (contract/kinds.yaml),
// for editors: it gives hover help and completion, and flags what the loader
// would reject in the file's shape. It mirrors the loader's rules as far as
// JSON Schema can; what it cannot say (references between sections,
// identifier collisions, reuse of retired names) the loader still checks.
func ContractSchema() *jsonschema.Schema {
	s := &jsonschema.Schema{
		Version:  draft,
		ID:       ContractSchemaID,
		Comments: marker.Text,
		Title:    "errgen error contract",
		Description: "An errgen error contract (kinds.yaml): the single source from which errgen generates code, envelope schemas and docs. " +
			"This schema checks the file's shape as you edit it; errgen's loader checks the rest (that names referred to are declared, that names stay distinct once converted to Go, TypeScript and Python identifiers, that retired names are not reused, that status ranges and retry bounds are in order) and has the final say.",
		Type:                 "object",
		Required:             []string{"contract"},
		Properties:           contractSections(),
		AdditionalProperties: jsonschema.FalseSchema,
		// $defs goes in Extras, which are written last, so that the marker stays
		// at the top of the file where the generator looks for it.
		Extras: map[string]any{"$defs": jsonschema.Definitions{
			propertyDef: fieldDefinition("A property of an object field: its type, description and whether every object carries it.", true),
		}},
	}
	s.AllOf = append(s.AllOf, importsRule(), layoutlessFieldsRule(), kindNumbersRule())
	s.AllOf = append(s.AllOf, derivedSourceRules()...)
	s.AllOf = append(s.AllOf, kindNamingRules()...)
	return s
}

// contractSections is the schema of each top-level section of a contract
// file, in the order the file is documented in.
func contractSections() *orderedmap.OrderedMap[string, *jsonschema.Schema] {
	recovery := recoverySchema()
	p := props()
	p.Set("contract", contractHeaderSchema())
	p.Set("imports", importsSchema())
	p.Set("origins", nameMap("Where a failure can arise. Each origin maps to its description and the defaults its kinds inherit: side_effects and log level, and optionally breaker attribution. At least one is required.",
		true, valueNameSchema("an origin"), originSchema()))
	p.Set("recovery_actions", nameMap("What a caller can be told to do next. Each action maps to its description and the step errgen's generated code takes for it. At least one is required.",
		true, valueNameSchema("a recovery action"), recoveryActionSchema()))
	p.Set("same_arguments", nameMap("How safe it is to repeat the identical call. Each value maps to its description and whether it permits an automatic retry. At least one is required.",
		true, valueNameSchema("a same_arguments value"), sameArgumentsSchema()))
	p.Set("side_effects", nameMap("How certain it is that nothing changed before a failure. Each value maps to its description. At least one is required.",
		true, valueNameSchema("a side_effects value"), sideEffectSchema()))
	p.Set("groups", nameMap("The groups kinds are sorted into for documentation and categories. Each group maps to its title and description. At least one is required.",
		true, valueNameSchema("a group"), groupSchema()))
	p.Set("context_fields", nameMap("Typed fields any envelope may carry to give the failure context. Each maps to its type and description. A context field is optional unless the layout requires it ({from: field, required: true} in layout.fields), never here. May be empty or left out.",
		false, fieldNameSchema(), fieldDefinition("A context field: its type and description. Context fields are always optional, so required is not allowed.", false)))
	p.Set("kinds", nameMap("Every live error kind. Each kind's name follows contract.naming and maps to its group, description, classification (origin, http status, recovery, and optional overrides of the origin's side_effects, log and breaker) and optional typed fields. At least one is required.",
		true, nil, kindSchema(recovery)))
	p.Set("fallback", fallbackSchema(recovery))
	for _, name := range extendedSections {
		// An importing contract may leave it empty (importsRule).
		sec, _ := p.Get(name)
		sec.Type, sec.Extras = "", map[string]any{"type": []string{"object", "null"}}
	}
	p.Set("retired", nameMap("Names that were once kinds and must never name a new kind, each with the reason and optionally its replacement. May be empty or left out.",
		false, valueNameSchema("a retired kind"), retiredSchema()))
	p.Set("layout", layoutSchema())
	p.Set("inbound", inboundSchema())
	p.Set("retry", retrySchema())
	p.Set("surfaces", surfacesSchema())
	p.Set("sanitize", sanitizeSchema())
	p.Set("call_error", callErrorSchema())
	return p
}

// recoverySchema is a kind's (and the fallback's) recovery advice.
func recoverySchema() *jsonschema.Schema {
	return closedObject("What the caller should do next: a recovery action, whether the identical call may be repeated, and guidance in words.",
		[]string{"action", "same_arguments", "guidance"},
		mem("action", reference("recovery_actions", "The recovery action the caller should take.")),
		mem("same_arguments", reference("same_arguments", "Whether repeating the identical call, unchanged, is safe.")),
		mem("guidance", nonBlankString("What the caller should do next, in words a person or a model can act on. Must not be blank.")),
	)
}

// contractHeaderSchema is the contract section: name, version, release and
// naming.
func contractHeaderSchema() *jsonschema.Schema {
	// version and naming are required of a contract without imports
	// (importsRule); one with imports inherits them.
	header := closedObject("Who the contract is: its name, wire version, package release and kind naming pattern. A contract that imports others inherits version and naming, and may repeat them but not change them.",
		[]string{"name"},
		mem("name", &jsonschema.Schema{Type: "string", Pattern: contract.ContractNamePattern,
			Description: "The contract's name: lower-case words of letters and digits joined by single - or _, starting with a letter (e.g. agent-error). The Go, npm and Python package names are derived from it."}),
		mem("version", &jsonschema.Schema{
			// minimum and maximum apply to the integer, pattern to the string.
			Extras:  map[string]any{"type": []string{"integer", "string"}},
			Minimum: json.Number("1"), Maximum: json.Number(fmt.Sprint(math.MaxInt64)),
			Pattern: nonBlankPattern,
			// A quoted integer would travel as a string where consumers
			// expect a number; the loader rejects it too.
			Not: &jsonschema.Schema{Type: "string", Pattern: `^[0-9]+$`},
			Description: "The wire contract version carried by every envelope: a positive integer (1), or a non-blank string with text in it for wire formats that version with text (\"0.1\"; quote it; a quoted plain integer is rejected). " +
				"Additive changes keep it; a change of meaning bumps it."}),
		mem("release", &jsonschema.Schema{Type: "string", Pattern: contract.ReleasePattern,
			Description: "The version of every generated package (npm, PyPI, the crate and the Go module's tag), MAJOR.MINOR.PATCH without a v or a suffix: bump MINOR for an additive change, PATCH for a documentation-only one (errgen compat says which). " +
				"Its major must be the version's (an integer version, or the first number of a text version that is a release number such as \"0.1\"): a breaking change bumps both. From major 2 on, the Go module path ends in /vN. Left out, it is the version's: 1 -> 1.0.0, \"0.1\" -> 0.1.0."}),
		mem("naming", &jsonschema.Schema{Enum: namingEnum(),
			Description: "The pattern every kind name must follow: snake_case (auth_failed), SCREAMING_SNAKE_CASE (AUTH_FAILED), PascalCase (AuthFailed) or kebab-case (auth-failed)."}),
		mem("description", plainString("Optional prose about the contract; it opens the description of the generated envelope schemas.")),
	)
	header.MinProperties = uint64p(1)
	return header
}

// originSchema is one entry of the origins section.
func originSchema() *jsonschema.Schema {
	return closedObject("An origin: its description and the defaults its kinds inherit.",
		[]string{"description", "side_effects", "log"},
		mem("description", nonBlankString("What failures from this origin have in common. Must not be blank.")),
		mem("side_effects", reference("side_effects", "The side_effects value this origin's kinds have unless they set their own.")),
		mem("log", logLevelSchema("The level this origin's kinds are logged at unless they set their own")),
		mem("breaker", boolSchema("Whether this origin's kinds count toward a circuit breaker unless they say otherwise; false when left out.")),
	)
}

// recoveryActionSchema is one entry of the recovery_actions section.
func recoveryActionSchema() *jsonschema.Schema {
	return closedObject("A recovery action: its description and the step the generated decision code takes for it.",
		[]string{"description", "step"},
		mem("description", nonBlankString("What the caller does for this action. Must not be blank.")),
		mem("step", &jsonschema.Schema{Enum: stepEnum(),
			Description: "The step errgen's generated decision code takes for this action, so the action itself can be named and worded freely: " + orList(stepEnum()) + "."}),
	)
}

// sameArgumentsSchema is one entry of the same_arguments section.
func sameArgumentsSchema() *jsonschema.Schema {
	return closedObject("A same_arguments value: its description, whether it permits an automatic retry and, optionally, the value it relaxes to for a tool that a repeat cannot harm.",
		[]string{"description", "retry"},
		mem("description", nonBlankString("What this value says about repeating the identical call. Must not be blank.")),
		mem("retry", boolSchema("Whether an automatic retry of the identical call is permitted. A kind is retryable when its action's step is retry and its same_arguments value permits it.")),
		mem("upgrade_to", reference("same_arguments", "The value this one becomes when the failing tool is annotated read-only or idempotent (MCP readOnlyHint or idempotentHint), since repeating it cannot cause harm (e.g. discouraged upgrades to conditional). Leave it out when the value does not change.")),
	)
}

// sideEffectSchema is one entry of the side_effects section.
func sideEffectSchema() *jsonschema.Schema {
	return closedObject("A side_effects value: its description and whether work may already have run.",
		[]string{"description"},
		mem("description", nonBlankString("What this value says about changes made before the failure. Must not be blank.")),
		mem("may_have_run", boolSchema("Whether, after a failure with this value, the requested work may already have run (in part or in full). true when left out, the safe default: generated decision code then tells agents to check state before repeating a write. Set false only on a value that promises nothing was done. It also feeds the derived source may_have_run a layout can put on the wire.")),
	)
}

// groupSchema is one entry of the groups section.
func groupSchema() *jsonschema.Schema {
	return closedObject("A group: its title, description and whether its kinds are startup failures.",
		[]string{"title", "description"},
		mem("title", nonBlankString("The group's title, a short heading for its kinds. Must not be blank.")),
		mem("description", nonBlankString("What the group's kinds have in common. Must not be blank.")),
		mem("startup", boolSchema("Whether the group's kinds are raised while starting up or loading configuration rather than returned by an operation; each kind can override it. false when left out.")),
	)
}

// kindSchema is one entry of the kinds section.
func kindSchema(recovery *jsonschema.Schema) *jsonschema.Schema {
	return closedObject("A kind: its group, description, classification and fields.",
		[]string{"group", "description", "origin", "http", "recovery"},
		mem("group", reference("groups", "The group this kind belongs to.")),
		mem("description", nonBlankString("What this kind of failure means. Must not be blank.")),
		mem("origin", reference("origins", "Where the failure arises. The kind inherits the origin's side_effects, log and breaker unless it sets them itself.")),
		mem("side_effects", reference("side_effects", "Overrides the origin's side_effects for this kind; leave it out to inherit it.")),
		mem("http", httpStatusSchema("The HTTP status this kind maps to: an error status, 400 to 599.")),
		mem("grpc", grpcCodeSchema("The canonical gRPC code (google.rpc.Code) the google.rpc mapping reports for this kind; leave it out for the default of its HTTP status")),
		mem("mcp_error_code", jsonRPCCodeSchema("The JSON-RPC error code of this kind's MCP protocol errors (e.g. -32002, resource not found); leave it out for its origin's under surfaces.mcp.")),
		mem("log", logLevelSchema("Overrides the origin's log level for this kind; leave it out to inherit it")),
		mem("breaker", boolSchema("Overrides whether this kind counts toward a circuit breaker; leave it out to inherit the origin's.")),
		mem("recovery", recovery),
		mem("startup", boolSchema("Overrides the group's startup: whether this kind is raised while starting up or loading configuration rather than returned by an operation. Leave it out to inherit the group's.")),
		mem("number", &jsonschema.Schema{Type: "integer", Minimum: json.Number("0"), Maximum: json.Number(fmt.Sprint(math.MaxInt64)),
			Description: "The kind's stable numeric code, a whole number from 0, for interfaces that exchange numbers instead of names. All or nothing: when one kind has a number every kind needs one, and no two kinds may share one."}),
		mem("fields", &jsonschema.Schema{
			Type: "object",
			Description: "Typed fields specific to this kind, each a name mapping to its definition. " +
				"A name used by several kinds is one envelope field and must have the same definition in each; it may not reuse an envelope field or a context field.",
			PropertyNames:        fieldNameSchema(),
			AdditionalProperties: fieldDefinition("A kind-specific field: its type, description and whether the kind requires it.", true),
		}),
	)
}

// fallbackSchema is the fallback section: how an unlisted kind classifies.
func fallbackSchema(recovery *jsonschema.Schema) *jsonschema.Schema {
	return closedObject("How a kind this contract does not list classifies. Clients treat an unknown kind as opaque and act on this classification.",
		[]string{"origin", "http", "recovery"},
		mem("origin", reference("origins", "The origin an unlisted kind is attributed to. Its side_effects, log and breaker apply unless set here.")),
		mem("side_effects", reference("side_effects", "Overrides the origin's side_effects for an unlisted kind.")),
		mem("http", httpStatusSchema("The HTTP status an unlisted kind maps to: an error status, 400 to 599.")),
		mem("grpc", grpcCodeSchema("The canonical gRPC code an unlisted kind maps to; leave it out for the default of its HTTP status")),
		mem("log", logLevelSchema("Overrides the origin's log level for an unlisted kind")),
		mem("breaker", boolSchema("Overrides whether an unlisted kind counts toward a circuit breaker.")),
		mem("recovery", recovery),
	)
}

// retiredSchema is one entry of the retired section.
func retiredSchema() *jsonschema.Schema {
	return closedObject("A retired name: why it was retired and, optionally, the kind that replaced it.",
		[]string{"reason"},
		mem("replaced_by", &jsonschema.Schema{Type: "string", Pattern: contract.ValueNamePattern,
			Description: "The live kind that took over this name's meaning, if any. Must be the name of a kind under kinds; leave it out when the kind was removed without a replacement."}),
		mem("reason", nonBlankString("Why the name was retired. Must not be blank.")),
	)
}

// requiredSections are the sections a contract without imports must
// write; one with imports inherits them.
var requiredSections = []string{"origins", "recovery_actions", "same_arguments", "side_effects", "groups", "kinds", "fallback"}

// inheritedSections are the sections only an imported contract may write:
// an importing contract adds kinds, groups, origins and retired names and
// inherits the rest.
var inheritedSections = contract.InheritedSections

// extendedSections are the required sections an importing contract may
// add to, or leave empty (null): the base's entries stand.
var extendedSections = []string{"origins", "groups", "kinds"}

// importsSchema is the imports section: the contracts this one builds on.
func importsSchema() *jsonschema.Schema {
	entry := closedObject("A contract to build on: path: a file relative to this one, or module: a Go module the repository's go.mod requires (and path: the file inside it, contract/kinds.yaml when left out); version: the imported contract's version this one expects.", nil,
		mem("path", &jsonschema.Schema{Type: "string", Pattern: nonBlankPattern, Not: &jsonschema.Schema{Pattern: "^/"},
			Description: "The contract file: relative to this file (e.g. ../platform/contract/kinds.yaml), or with module: inside the module (" + contract.DefaultModuleFile + " when left out). Never absolute, so the repository works wherever it is checked out."}),
		mem("module", &jsonschema.Schema{Type: "string", Pattern: contract.ModulePathPattern,
			Description: "A Go module that ships the contract (e.g. example.com/platform/errors). The repository's go.mod requires it, which pins its version, and go.sum checks it; errgen asks the go command where it is."}),
		mem("version", &jsonschema.Schema{
			Extras:      map[string]any{"type": []string{"integer", "string"}},
			Pattern:     nonBlankPattern,
			Description: "The imported contract's contract.version this one expects (e.g. 1). Optional; when written, errgen reports a mismatch, so a base's new wire version is a change the importing contract's owners make."}),
	)
	entry.AnyOf = []*jsonschema.Schema{{Required: []string{"path"}}, {Required: []string{"module"}}}
	return &jsonschema.Schema{Type: "array", MinItems: uint64p(1), Items: entry,
		Description: "The contracts this one builds on (docs/imports.md). It inherits everything they define and may add only kinds, groups, origins and retired names; its envelopes are theirs on the wire. Leave it out for a contract of its own."}
}

// importsRule requires the sections a base provides of a contract without
// imports, and keeps a contract with imports from writing what it
// inherits.
func importsRule() *jsonschema.Schema {
	inherited := props()
	for _, name := range inheritedSections {
		inherited.Set(name, &jsonschema.Schema{Not: &jsonschema.Schema{},
			Description: "This section comes from the imported contract: a contract that imports another adds only kinds, groups, origins and retired names, and inherits the rest, so that its envelopes are the base's. Remove it here."})
	}
	own := props()
	own.Set("contract", &jsonschema.Schema{Required: []string{"version", "naming"},
		Description: "A contract without imports states its wire version and its kind naming."})
	for _, name := range extendedSections {
		own.Set(name, &jsonschema.Schema{Type: "object",
			Description: "A contract without imports defines at least one entry here; one with imports may leave it empty, adding nothing to its base's."})
	}
	return &jsonschema.Schema{
		If:   &jsonschema.Schema{Required: []string{"imports"}},
		Then: &jsonschema.Schema{Properties: inherited},
		Else: &jsonschema.Schema{Required: requiredSections, Properties: own},
	}
}

// layoutlessFieldsRule keeps field names off the envelope's own members
// when there is no layout: without one, the default envelope's top-level
// members are taken.
func layoutlessFieldsRule() *jsonschema.Schema {
	hasLayout := props()
	hasLayout.Set("layout", &jsonschema.Schema{Type: "object"})
	kindFields := props()
	kindFields.Set("fields", &jsonschema.Schema{PropertyNames: reservedFieldNames(),
		Description: "Without a layout section, kind-specific fields land at the envelope's top level beside its own fields."})
	sections := props()
	sections.Set("context_fields", &jsonschema.Schema{PropertyNames: reservedFieldNames(),
		Description: "Without a layout section, context fields land at the envelope's top level beside its own fields."})
	sections.Set("kinds", &jsonschema.Schema{AdditionalProperties: &jsonschema.Schema{Properties: kindFields},
		Description: "Without a layout section, kind-specific fields land at the envelope's top level beside its own fields."})
	return &jsonschema.Schema{
		// An importing contract's layout is its base's, which the schema
		// does not see: the loader checks its fields.
		If: &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
			{Required: []string{"layout"}, Properties: hasLayout}, {Required: []string{"imports"}}}},
		Else: &jsonschema.Schema{Properties: sections},
	}
}

// kindNumbersRule says kind numbers are all or nothing: once a kind has
// one, every kind needs one. (That they are unique the loader checks.)
func kindNumbersRule() *jsonschema.Schema {
	numbered := props()
	numbered.Set("kinds", &jsonschema.Schema{Type: "object", Not: &jsonschema.Schema{
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{Type: "object", Required: []string{"number"}}}}})
	everyNumbered := props()
	everyNumbered.Set("kinds", &jsonschema.Schema{AdditionalProperties: &jsonschema.Schema{Required: []string{"number"}},
		Description: "One kind has a number, so every kind needs one."})
	return &jsonschema.Schema{
		If:   &jsonschema.Schema{Required: []string{"kinds"}, Properties: numbered},
		Then: &jsonschema.Schema{Properties: everyNumbered},
	}
}

// derivedSourceRules say a derived source needs something to derive from:
// retryable a recovery action with step retry and a same_arguments value
// with retry: true, may_have_run a side_effects value that does not say
// may_have_run: false.
func derivedSourceRules() []*jsonschema.Schema {
	// may_have_run is true unless a value says false, so the derived flag
	// lacks a source only when every value says false.
	everyFalse := props()
	everyFalse.Set("may_have_run", &jsonschema.Schema{Const: false})
	return []*jsonschema.Schema{
		derivedSourceRule(contract.SourceRetryable,
			"The layout puts retryable on the wire, which is derived from the advice: it needs a recovery action with step retry and a same_arguments value with retry: true.",
			map[string]*jsonschema.Schema{
				"recovery_actions": someEntryWith("step", string(contract.StepRetry)),
				"same_arguments":   someEntryWith("retry", true),
			}),
		derivedSourceRule(contract.SourceMayHaveRun,
			"The layout puts may_have_run on the wire, which is derived from side_effects: at least one value must leave may_have_run out (true) or set it to true.",
			map[string]*jsonschema.Schema{
				"side_effects": {Not: &jsonschema.Schema{AdditionalProperties: &jsonschema.Schema{
					Type: "object", Required: []string{"may_have_run"}, Properties: everyFalse}}},
			}),
	}
}

// someEntryWith matches a section in which some entry has key set to value.
func someEntryWith(key string, value any) *jsonschema.Schema {
	p := props()
	p.Set(key, &jsonschema.Schema{Const: value})
	return &jsonschema.Schema{Not: &jsonschema.Schema{AdditionalProperties: &jsonschema.Schema{
		Not: &jsonschema.Schema{Type: "object", Required: []string{key}, Properties: p}}}}
}

// derivedSourceRule requires the sections in needs to hold what src is
// derived from when the layout carries src.
func derivedSourceRule(src contract.Source, description string, needs map[string]*jsonschema.Schema) *jsonschema.Schema {
	fields := props()
	fields.Set("fields", &jsonschema.Schema{Type: "object", Not: &jsonschema.Schema{
		AdditionalProperties: &jsonschema.Schema{Not: carries(src)}}})
	layout := props()
	layout.Set("layout", &jsonschema.Schema{Type: "object", Required: []string{"fields"}, Properties: fields})
	then := props()
	for _, section := range []string{"recovery_actions", "same_arguments", "side_effects"} {
		if n, ok := needs[section]; ok {
			n.Description = description
			then.Set(section, n)
		}
	}
	return &jsonschema.Schema{
		If:   &jsonschema.Schema{Required: []string{"layout"}, Properties: layout},
		Then: &jsonschema.Schema{Properties: then},
	}
}

// kindNamingRules say kind names, and the kinds retired names were
// replaced by, follow the naming the contract declares: one rule a naming.
func kindNamingRules() []*jsonschema.Schema {
	var rules []*jsonschema.Schema
	for _, n := range contract.Namings {
		naming := props()
		naming.Set("naming", &jsonschema.Schema{Const: string(n)})
		header := props()
		header.Set("contract", &jsonschema.Schema{Type: "object", Required: []string{"naming"}, Properties: naming})

		replacedBy := props()
		replacedBy.Set("replaced_by", &jsonschema.Schema{Pattern: n.Pattern(),
			Description: fmt.Sprintf("A kind name, so in %s (e.g. %s).", n, n.Example())})
		then := props()
		then.Set("kinds", &jsonschema.Schema{
			Description:   fmt.Sprintf("Kind names follow the contract's naming, %s.", n),
			PropertyNames: &jsonschema.Schema{Pattern: n.Pattern(), Description: fmt.Sprintf("A kind name in %s (e.g. %s).", n, n.Example())},
		})
		then.Set("retired", &jsonschema.Schema{
			Description:          fmt.Sprintf("A retired kind is replaced by a live kind, whose name is in %s.", n),
			AdditionalProperties: &jsonschema.Schema{Properties: replacedBy},
		})
		then.Set("inbound", inboundKinds(n))
		rules = append(rules, &jsonschema.Schema{
			If:   &jsonschema.Schema{Required: []string{"contract"}, Properties: header},
			Then: &jsonschema.Schema{Properties: then},
		})
	}
	return rules
}

// mergeProps returns the properties of every map given, in order.
func mergeProps(maps ...*orderedmap.OrderedMap[string, *jsonschema.Schema]) *orderedmap.OrderedMap[string, *jsonschema.Schema] {
	out := props()
	for _, m := range maps {
		for p := m.Oldest(); p != nil; p = p.Next() {
			out.Set(p.Key, p.Value)
		}
	}
	return out
}

// callErrorSchema is the call_error section: the call error, a second wire
// shape derived from the envelope.
func callErrorSchema() *jsonschema.Schema {
	members := make([]any, len(contract.CallErrorMembers))
	for i, m := range contract.CallErrorMembers {
		members[i] = m
	}
	limit := func(max int, description string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "integer", Minimum: json.Number("1"), Maximum: json.Number(fmt.Sprint(max)), Description: description}
	}
	return closedObject("The call error: the object a sandbox's rejected tool call carries (labby's Code Mode call error), derived from the envelope and built from a completed MCP tool result flagged isError. It takes inbound.tool_result's kind and origin and never counts toward the circuit breaker. Leave it out when no sandbox reports tool calls this way.",
		[]string{"description", "members", "origins", "default_message"},
		mem("title", nonBlankString("The title of the call error's JSON Schema. \"<contract> call error\" when left out.")),
		mem("description", nonBlankString("What the call error is, for its JSON Schema and the docs.")),
		mem("members", &jsonschema.Schema{Type: "array", UniqueItems: true, Items: &jsonschema.Schema{Enum: members},
			Description: "The members the object carries, in this order: " + orList(members) + ". contract_version, kind, message, origin, recovery and side_effects are required."}),
		mem("origins", &jsonschema.Schema{Type: "array", MinItems: uint64p(1), UniqueItems: true, Items: reference("origins", "An origin a call error may name."),
			Description: "The origins a call error may name; must include the origin of inbound.tool_result's kind."}),
		mem("canonical_kinds", &jsonschema.Schema{Type: "object", AdditionalProperties: reference("kinds", "The kind reported instead."),
			Description: "Kinds that, reported inside a completed tool result, describe the tool's own failure: each maps to the kind the call error names, the reported one kept in original_kind."}),
		mem("tool_separator", nonBlankString("What joins the upstream and the tool into the tool member (\"::\" when left out).")),
		mem("default_message", nonBlankString("The message of a result that carries neither an envelope nor text.")),
		mem("safety_hints", &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{Type: "string", Pattern: "^[A-Za-z][A-Za-z0-9_]*$"},
			Description: "The members of safety (snake_case), each mapped to the boolean MCP tool annotation it copies (e.g. read_only_hint: readOnlyHint). Hints are untrusted."}),
		mem("evidence", closedObject("Caps on the evidence taken from the result's content blocks; implementation limits, not wire guarantees.", nil,
			mem("max_blocks", limit(contract.MaxCallBlocks, "How many content blocks are kept (16 when left out); the rest count in omitted_content_blocks.")),
			mem("max_text", limit(1<<20, "The most code points of a text block's sanitized text, at least 16 (2048 when left out).")),
			mem("max_resource", limit(1<<20, "The most code points of an embedded resource's sanitized text (2048 when left out).")),
			mem("binary", &jsonschema.Schema{Type: "array", UniqueItems: true, Items: &jsonschema.Schema{Type: "string", Pattern: "^[a-z][a-z0-9_]*$"},
				Description: "Block types reduced to type, MIME type, encoded size and an omission marker ([image, audio] when left out)."}),
		)),
	)
}
