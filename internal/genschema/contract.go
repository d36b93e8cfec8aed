package genschema

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/invopop/jsonschema"
)

// ContractSchemaID is the $id of the contract file's schema. It names the
// schema of the file format, not of any one contract, so it carries no
// contract name; v1 is the version of the file format.
const ContractSchemaID = "urn:errgen:contract-schema:v1"

// The patterns below are the loader's regular expressions
// (internal/contract/load.go) written out for JSON Schema. They use only
// syntax that RE2 and ECMA-262 read alike. A test checks that the loader and
// this schema agree on every contract in the repository.
const (
	// contractNamePattern is contractNameRe.
	contractNamePattern = `^[a-z][a-z0-9]*([-_][a-z0-9]+)*$`
	// valueNamePattern is valueNameRe: the names of origins, recovery
	// actions, same_arguments and side_effects values, groups and fields
	// (the loader's snake_case alternative for field names is a subset of
	// it). Every reference to a declared name therefore matches it too.
	valueNamePattern = `^[A-Za-z][A-Za-z0-9]*([-_][A-Za-z0-9]+)*$`
	// nonBlankPattern matches a string holding something other than the
	// spaces, tabs and line breaks the loader counts as blank. \S would be
	// stricter than the loader: it also rejects e.g. a lone no-break space.
	nonBlankPattern = `[^ \t\n\r]`
	// wireNamePattern is wireNameRe (internal/contract/loadlayout.go): a
	// member name of the envelope, as a layout writes it.
	wireNamePattern = `[A-Za-z_$][A-Za-z0-9_$-]*`
	// wirePathPattern is a layout path: member names joined by dots.
	wirePathPattern = `^` + wireNamePattern + `(\.` + wireNamePattern + `)*$`
)

// propertyDef is the name under $defs of an object field's property, which
// may itself be an object with properties.
const propertyDef = "property"

// namingPatterns are the loader's namingRes, in contract.Namings order.
var namingPatterns = map[contract.Naming]string{
	contract.SnakeCase:          `^[a-z][a-z0-9]*(_[a-z0-9]+)*$`,
	contract.ScreamingSnakeCase: `^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`,
	contract.PascalCase:         `^[A-Z][a-zA-Z0-9]*$`,
	contract.KebabCase:          `^[a-z][a-z0-9]*(-[a-z0-9]+)*$`,
}

var namingExamples = map[contract.Naming]string{
	contract.SnakeCase:          "auth_failed",
	contract.ScreamingSnakeCase: "AUTH_FAILED",
	contract.PascalCase:         "AuthFailed",
	contract.KebabCase:          "auth-failed",
}

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
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
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
	return &jsonschema.Schema{Type: "string", Description: description}
}

// reference is a reference to a name declared in section. Whether the name is
// declared there is a cross-reference the loader checks; the schema checks
// that it is a well-formed name.
func reference(section, description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: valueNamePattern,
		Description: description + " Must be a name declared under " + section + "."}
}

func boolSchema(description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "boolean", Description: description + " Write true or false, unquoted (yes, no, on and off are strings)."}
}

func logLevelSchema(description string) *jsonschema.Schema {
	return &jsonschema.Schema{Enum: logLevelNames, Description: description + ": " + orList(logLevelNames) + "."}
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
	return &jsonschema.Schema{Pattern: valueNamePattern,
		Description: "The name of " + what + ": a letter, then letters and digits, words joined by single - or _ (e.g. retry_later)."}
}

// fieldDefinition is the definition of a context field, or with required of a
// kind-specific field.
func fieldDefinition(what string, required bool) *jsonschema.Schema {
	keys := []member{
		mem("type", &jsonschema.Schema{Enum: fieldTypeEnum(true),
			Description: "The JSON type of the field's value: " + orList(fieldTypeEnum(true)) + ". An array also needs items."}),
		mem("items", &jsonschema.Schema{Enum: fieldTypeEnum(false),
			Description: "The type of the array's elements: " + orList(fieldTypeEnum(false)) + ". Required when type is array and not allowed otherwise; arrays of arrays are not supported."}),
		mem("description", nonBlankString("What the field holds; it becomes the field's documentation in generated code and schemas. Must not be blank.")),
	}
	if required {
		keys = append(keys, mem("required", boolSchema("Whether every envelope of this kind must carry the field; the generated constructor then takes it as an argument. Leave it out for an optional field.")))
	}
	s := closedObject(what, []string{"type", "description"}, keys...)
	isArray := props()
	isArray.Set("type", &jsonschema.Schema{Const: string(contract.TypeArray)})
	s.If = &jsonschema.Schema{Required: []string{"type"}, Properties: isArray}
	s.Then = &jsonschema.Schema{Required: []string{"items"}}
	s.Else = &jsonschema.Schema{Not: &jsonschema.Schema{Required: []string{"items"}}}
	return s
}

// fieldNameSchema constrains the names of context or kind-specific fields: well-formed,
// and not one of the envelope's own fields.
func fieldNameSchema() *jsonschema.Schema {
	reserved := contract.DefaultTopLevel()
	enum := make([]any, len(reserved))
	for i, r := range reserved {
		enum[i] = r
	}
	return &jsonschema.Schema{
		Pattern: valueNamePattern,
		Not:     &jsonschema.Schema{Enum: enum},
		Description: "The field's name on the wire: a letter, then letters and digits, words joined by single - or _ (e.g. request_id). " +
			"It may not be one of the envelope's own fields (" + strings.Join(reserved, ", ") + ").",
	}
}

// ContractSchema is the JSON Schema of a contract file (contract/kinds.yaml),
// for editors: it gives hover help and completion, and flags what the loader
// would reject in the file's shape. It mirrors the loader's rules as far as
// JSON Schema can; what it cannot say (references between sections,
// identifier collisions, reuse of retired names) the loader still checks.
func ContractSchema() *jsonschema.Schema {
	recovery := closedObject("What the caller should do next: a recovery action, whether the identical call may be repeated, and guidance in words.",
		[]string{"action", "same_arguments", "guidance"},
		mem("action", reference("recovery_actions", "The recovery action the caller should take.")),
		mem("same_arguments", reference("same_arguments", "Whether repeating the identical call, unchanged, is safe.")),
		mem("guidance", nonBlankString("What the caller should do next, in words a person or a model can act on. Must not be blank.")),
	)

	header := closedObject("Who the contract is: its name, wire version and kind naming pattern.",
		[]string{"name", "version", "naming"},
		mem("name", &jsonschema.Schema{Type: "string", Pattern: contractNamePattern,
			Description: "The contract's name: lower-case words of letters and digits joined by single - or _, starting with a letter (e.g. agent-error). The Go, npm and Python package names are derived from it."}),
		mem("version", &jsonschema.Schema{Type: "integer", Minimum: json.Number("1"), Maximum: json.Number(fmt.Sprint(math.MaxInt64)),
			Description: "The wire contract version, a positive integer carried by every envelope. Additive changes keep it; a change of meaning bumps it."}),
		mem("naming", &jsonschema.Schema{Enum: namingEnum(),
			Description: "The pattern every kind name must follow: snake_case (auth_failed), SCREAMING_SNAKE_CASE (AUTH_FAILED), PascalCase (AuthFailed) or kebab-case (auth-failed)."}),
		mem("description", plainString("Optional prose about the contract; it opens the description of the generated envelope schemas.")),
	)
	header.MinProperties = uint64p(1)

	origin := closedObject("An origin: its description and the defaults its kinds inherit.",
		[]string{"description", "side_effects", "log"},
		mem("description", nonBlankString("What failures from this origin have in common. Must not be blank.")),
		mem("side_effects", reference("side_effects", "The side_effects value this origin's kinds have unless they set their own.")),
		mem("log", logLevelSchema("The level this origin's kinds are logged at unless they set their own")),
		mem("breaker", boolSchema("Whether this origin's kinds count toward a circuit breaker unless they say otherwise; false when left out.")),
	)
	action := closedObject("A recovery action: its description and the step the generated decision code takes for it.",
		[]string{"description", "step"},
		mem("description", nonBlankString("What the caller does for this action. Must not be blank.")),
		mem("step", &jsonschema.Schema{Enum: stepEnum(),
			Description: "The step errgen's generated decision code takes for this action, so the action itself can be named and worded freely: " + orList(stepEnum()) + "."}),
	)
	same := closedObject("A same_arguments value: its description and whether it permits an automatic retry.",
		[]string{"description", "retry"},
		mem("description", nonBlankString("What this value says about repeating the identical call. Must not be blank.")),
		mem("retry", boolSchema("Whether an automatic retry of the identical call is permitted. A kind is retryable when its action's step is retry and its same_arguments value permits it.")),
	)
	sideEffect := closedObject("A side_effects value and its description.",
		[]string{"description"},
		mem("description", nonBlankString("What this value says about changes made before the failure. Must not be blank.")),
	)
	group := closedObject("A group: its title and description.",
		[]string{"title", "description"},
		mem("title", nonBlankString("The group's title, a short heading for its kinds. Must not be blank.")),
		mem("description", nonBlankString("What the group's kinds have in common. Must not be blank.")),
	)

	kindKeys := []member{
		mem("group", reference("groups", "The group this kind belongs to.")),
		mem("description", nonBlankString("What this kind of failure means. Must not be blank.")),
		mem("origin", reference("origins", "Where the failure arises. The kind inherits the origin's side_effects, log and breaker unless it sets them itself.")),
		mem("side_effects", reference("side_effects", "Overrides the origin's side_effects for this kind; leave it out to inherit it.")),
		mem("http", httpStatusSchema("The HTTP status this kind maps to: an error status, 400 to 599.")),
		mem("log", logLevelSchema("Overrides the origin's log level for this kind; leave it out to inherit it")),
		mem("breaker", boolSchema("Overrides whether this kind counts toward a circuit breaker; leave it out to inherit the origin's.")),
		mem("recovery", recovery),
		mem("fields", &jsonschema.Schema{
			Type: "object",
			Description: "Typed fields specific to this kind, each a name mapping to its definition. " +
				"A name used by several kinds is one envelope field and must have the same type in each; it may not reuse an envelope field or a context field.",
			PropertyNames:        fieldNameSchema(),
			AdditionalProperties: fieldDefinition("A kind-specific field: its type, description and whether the kind requires it.", true),
		}),
	}
	kind := closedObject("A kind: its group, description, classification and fields.",
		[]string{"group", "description", "origin", "http", "recovery"}, kindKeys...)

	fallback := closedObject("How a kind this contract does not list classifies. Clients treat an unknown kind as opaque and act on this classification.",
		[]string{"origin", "http", "recovery"},
		mem("origin", reference("origins", "The origin an unlisted kind is attributed to. Its side_effects, log and breaker apply unless set here.")),
		mem("side_effects", reference("side_effects", "Overrides the origin's side_effects for an unlisted kind.")),
		mem("http", httpStatusSchema("The HTTP status an unlisted kind maps to: an error status, 400 to 599.")),
		mem("log", logLevelSchema("Overrides the origin's log level for an unlisted kind")),
		mem("breaker", boolSchema("Overrides whether an unlisted kind counts toward a circuit breaker.")),
		mem("recovery", recovery),
	)

	retired := closedObject("A retired name: why it was retired and, optionally, the kind that replaced it.",
		[]string{"reason"},
		mem("replaced_by", &jsonschema.Schema{Type: "string", Pattern: valueNamePattern,
			Description: "The live kind that took over this name's meaning, if any. Must be the name of a kind under kinds; leave it out when the kind was removed without a replacement."}),
		mem("reason", nonBlankString("Why the name was retired. Must not be blank.")),
	)

	p := props()
	p.Set("contract", header)
	p.Set("origins", nameMap("Where a failure can arise. Each origin maps to its description and the defaults its kinds inherit: side_effects and log level, and optionally breaker attribution. At least one is required.",
		true, valueNameSchema("an origin"), origin))
	p.Set("recovery_actions", nameMap("What a caller can be told to do next. Each action maps to its description and the step errgen's generated code takes for it. At least one is required.",
		true, valueNameSchema("a recovery action"), action))
	p.Set("same_arguments", nameMap("How safe it is to repeat the identical call. Each value maps to its description and whether it permits an automatic retry. At least one is required.",
		true, valueNameSchema("a same_arguments value"), same))
	p.Set("side_effects", nameMap("How certain it is that nothing changed before a failure. Each value maps to its description. At least one is required.",
		true, valueNameSchema("a side_effects value"), sideEffect))
	p.Set("groups", nameMap("The groups kinds are sorted into for documentation and categories. Each group maps to its title and description. At least one is required.",
		true, valueNameSchema("a group"), group))
	p.Set("context_fields", nameMap("Optional typed fields any envelope may carry to give the failure context. Each maps to its type and description; context fields are never required. May be empty or left out.",
		false, fieldNameSchema(), fieldDefinition("A context field: its type and description. Context fields are always optional, so required is not allowed.", false)))
	p.Set("kinds", nameMap("Every live error kind. Each kind's name follows contract.naming and maps to its group, description, classification (origin, http status, recovery, and optional overrides of the origin's side_effects, log and breaker) and optional typed fields. At least one is required.",
		true, nil, kind))
	p.Set("fallback", fallback)
	p.Set("retired", nameMap("Names that were once kinds and must never name a new kind, each with the reason and optionally its replacement. May be empty or left out.",
		false, valueNameSchema("a retired kind"), retired))

	s := &jsonschema.Schema{
		Version:  draft,
		ID:       ContractSchemaID,
		Comments: Header,
		Title:    "errgen error contract",
		Description: "An errgen error contract (kinds.yaml): the single source from which errgen generates code, envelope schemas and docs. " +
			"This schema checks the file's shape as you edit it; errgen's loader checks the rest (that names referred to are declared, that names stay distinct once converted to Go, TypeScript and Python identifiers, that retired names are not reused) and has the final say.",
		Type:                 "object",
		Required:             []string{"contract", "origins", "recovery_actions", "same_arguments", "side_effects", "groups", "kinds", "fallback"},
		Properties:           p,
		AdditionalProperties: jsonschema.FalseSchema,
	}

	// Kind names, and the kinds retired names were replaced by, follow the
	// naming the contract declares.
	for _, n := range contract.Namings {
		naming := props()
		naming.Set("naming", &jsonschema.Schema{Const: string(n)})
		header := props()
		header.Set("contract", &jsonschema.Schema{Type: "object", Required: []string{"naming"}, Properties: naming})

		replacedBy := props()
		replacedBy.Set("replaced_by", &jsonschema.Schema{Pattern: namingPatterns[n],
			Description: fmt.Sprintf("A kind name, so in %s (e.g. %s).", n, namingExamples[n])})
		then := props()
		then.Set("kinds", &jsonschema.Schema{
			Description:   fmt.Sprintf("Kind names follow the contract's naming, %s.", n),
			PropertyNames: &jsonschema.Schema{Pattern: namingPatterns[n], Description: fmt.Sprintf("A kind name in %s (e.g. %s).", n, namingExamples[n])},
		})
		then.Set("retired", &jsonschema.Schema{
			Description:          fmt.Sprintf("A retired kind is replaced by a live kind, whose name is in %s.", n),
			AdditionalProperties: &jsonschema.Schema{Properties: replacedBy},
		})
		s.AllOf = append(s.AllOf, &jsonschema.Schema{
			If:   &jsonschema.Schema{Required: []string{"contract"}, Properties: header},
			Then: &jsonschema.Schema{Properties: then},
		})
	}
	return s
}
