package genschema

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"
)

func uint64p(n uint64) *uint64 { return &n }

func props() *orderedmap.OrderedMap[string, *jsonschema.Schema] { return jsonschema.NewProperties() }

// closed is an enum of the vocabulary's values for the producer; the
// consumer accepts any non-empty string, since a newer contract adding a
// value is an additive change an old client must survive.
func closed(role Role, what string, values []*contract.Value) *jsonschema.Schema {
	names := make([]string, len(values))
	enum := make([]any, len(values))
	for i, v := range values {
		names[i] = v.Name
		enum[i] = v.Name
	}
	if role == Producer {
		return &jsonschema.Schema{Enum: enum, Description: fmt.Sprintf("The %s; one of the contract's values.", what)}
	}
	return &jsonschema.Schema{Type: "string", MinLength: uint64p(1),
		Description: fmt.Sprintf("The %s. Known values: %s. Treat any other value as unknown rather than invalid: a newer contract may add values.", what, strings.Join(names, ", "))}
}

func values[T any](list []T, get func(T) *contract.Value) []*contract.Value {
	out := make([]*contract.Value, len(list))
	for i, x := range list {
		out[i] = get(x)
	}
	return out
}

// fieldSchema is the schema of a context or kind-specific field's value.
func fieldSchema(f *contract.Field) *jsonschema.Schema {
	s := typeSchema(f.Type)
	if f.Type == contract.TypeArray {
		s.Items = typeSchema(f.Items)
	}
	s.Description = f.Description
	return s
}

func typeSchema(t contract.FieldType) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: string(t)}
	if t == contract.TypeObject {
		s.AdditionalProperties = jsonschema.TrueSchema
	}
	return s
}

// Envelope builds the producer or consumer schema of c's envelope.
func Envelope(c *contract.Contract, role Role) ([]byte, error) {
	w := c.Wire
	s := &jsonschema.Schema{
		Version:  draft,
		ID:       jsonschema.ID(ID(c, role)),
		Comments: Header + " Source: the " + c.Name + " contract, version " + fmt.Sprint(c.Version) + ".",
		Title:    fmt.Sprintf("%s envelope, version %d (%s schema)", c.Name, c.Version, role),
		Type:     "object",
		Required: w.Reserved(),
	}
	switch role {
	case Producer:
		s.Description = "Strict schema for services that emit envelopes: validate your own output against it in CI. " +
			"The kind must be one this contract version defines, the closed vocabularies (origin, recovery action, same_arguments, side_effects) must hold one of their values, " +
			"and each kind's required fields must be present. Fields beyond the contract are still allowed, as the contract permits additive fields. " +
			"Clients must not use this schema to validate what they receive: use the consumer schema (" + ID(c, Consumer) + ")."
	case Consumer:
		s.Description = "Forward-compatible schema for clients that receive envelopes. " +
			"Any non-empty kind is valid (an unknown kind classifies with the contract's fallback), values of the vocabularies are open strings, and unknown fields are allowed everywhere, " +
			"so nothing an additive contract change introduces makes an old client reject a new envelope. " +
			"Services validating their own output should use the stricter producer schema (" + ID(c, Producer) + ")."
	}
	if c.Description != "" {
		s.Description = c.Description + "\n\n" + s.Description
	}

	kind := &jsonschema.Schema{Type: "string", MinLength: uint64p(1)}
	if role == Producer {
		enum := make([]any, len(c.Kinds))
		for i, k := range c.Kinds {
			enum[i] = k.Name
		}
		kind = &jsonschema.Schema{Enum: enum, Description: "The kind; one this contract version defines."}
	} else {
		kind.Description = "The stable machine-readable tag of the failure. Any non-empty string is valid: a kind this client does not know classifies with the contract's fallback (origin " +
			c.Fallback.Origin.Name + ", recovery " + c.Fallback.Recovery.Action.Name + ", same_arguments " + c.Fallback.Recovery.SameArguments.Name + ", side_effects " + c.Fallback.SideEffects.Name + ")."
	}

	recovery := props()
	recovery.Set(w.Action, closed(role, "recovery action", values(c.Actions, func(a *contract.Action) *contract.Value { return &a.Value })))
	recovery.Set(w.SameArguments, closed(role, "same-arguments retry safety", values(c.SameArguments, func(s *contract.SameArguments) *contract.Value { return &s.Value })))
	recovery.Set(w.Guidance, &jsonschema.Schema{Type: "string", MinLength: uint64p(1), Description: "Free text telling the caller what to do next."})
	retry := &jsonschema.Schema{Type: "integer", Minimum: json.Number("0"), Description: "The minimum wait before a retry, in milliseconds."}
	recovery.Set(w.RetryAfterMs, retry)
	if role == Consumer {
		for _, alias := range w.RetryAfterMsAliases {
			recovery.Set(alias, &jsonschema.Schema{Type: "integer", Minimum: json.Number("0"),
				Description: "A fallback spelling of " + w.RetryAfterMs + " that some producers emit; read it when " + w.RetryAfterMs + " is absent."})
		}
	}

	p := props()
	p.Set(w.ContractVersion, &jsonschema.Schema{Const: c.Version, Description: "The contract version. Additive changes keep it; a semantic change bumps it."})
	p.Set(w.Kind, kind)
	p.Set(w.Message, &jsonschema.Schema{Type: "string", MinLength: uint64p(1), Description: "A diagnosis for people and models that is useful on its own, even if every other field is discarded."})
	p.Set(w.Origin, closed(role, "origin (where the failure arose)", values(c.Origins, func(o *contract.Origin) *contract.Value { return &o.Value })))
	p.Set(w.Recovery, &jsonschema.Schema{
		Type:                 "object",
		Description:          "What the caller should do next.",
		Required:             []string{w.Action, w.SameArguments, w.Guidance},
		Properties:           recovery,
		AdditionalProperties: jsonschema.TrueSchema,
	})
	p.Set(w.SideEffects, closed(role, "side-effect certainty", c.SideEffects))
	for _, f := range c.ContextFields {
		p.Set(f.Name, fieldSchema(f))
	}
	for _, f := range c.KindFields {
		p.Set(f.Name, fieldSchema(f))
	}
	s.Properties = p
	s.AdditionalProperties = jsonschema.TrueSchema

	if role == Producer {
		for _, k := range c.Kinds {
			var required []string
			for _, f := range k.RequiredFields() {
				required = append(required, f.Name)
			}
			if len(required) == 0 {
				continue
			}
			ifKind := props()
			ifKind.Set(w.Kind, &jsonschema.Schema{Const: k.Name})
			s.AllOf = append(s.AllOf, &jsonschema.Schema{
				If:   &jsonschema.Schema{Properties: ifKind, Required: []string{w.Kind}},
				Then: &jsonschema.Schema{Required: required},
			})
		}
	}
	return Marshal(s)
}
