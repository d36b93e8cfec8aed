package genschema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
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
// Enums close only in the producer schema: a newer contract adding an enum
// value is additive, and an old client must not reject it.
func fieldSchema(role Role, f *contract.Field) *jsonschema.Schema {
	s := typeSchema(role, f.Type, f.Enum)
	if f.Type == contract.TypeArray {
		s.Items = typeSchema(role, f.Items, f.Enum)
	}
	if f.Type == contract.TypeObject && len(f.Properties) > 0 {
		p := props()
		var required []string
		for _, prop := range f.Properties {
			p.Set(prop.Name, fieldSchema(role, prop))
			if prop.Required {
				required = append(required, prop.Name)
			}
		}
		s.Properties, s.Required = p, required
	}
	s.Description = f.Description
	return s
}

func typeSchema(role Role, t contract.FieldType, enum []string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: string(t)}
	switch {
	case t == contract.TypeInteger:
		// The integers every generated decoder reads exactly.
		s.Minimum, s.Maximum = json.Number(strconv.Itoa(-contract.MaxSafeInteger)), json.Number(strconv.Itoa(contract.MaxSafeInteger))
	case t == contract.TypeObject:
		s.AdditionalProperties = jsonschema.TrueSchema
	case t == contract.TypeString && len(enum) > 0 && role == Producer:
		s.Enum = make([]any, len(enum))
		for i, e := range enum {
			s.Enum[i] = e
		}
	}
	return s
}

// leafSchema is the schema of one wire field of the layout.
func leafSchema(c *contract.Contract, role Role, lf *contract.Leaf) *jsonschema.Schema {
	switch lf.Source {
	case contract.SourceVersion:
		return &jsonschema.Schema{Const: c.VersionValue(), Description: "The contract version. Additive changes keep it; a semantic change changes it."}
	case contract.SourceKind:
		if role == Producer {
			enum := make([]any, len(c.Kinds))
			for i, k := range c.Kinds {
				enum[i] = k.Name
			}
			return &jsonschema.Schema{Enum: enum, Description: "The kind; one this contract version defines."}
		}
		return &jsonschema.Schema{Type: "string", MinLength: uint64p(1), Description: "The stable machine-readable tag of the failure. Any non-empty string is valid: a kind this client does not know classifies with the contract's fallback (origin " +
			c.Fallback.Origin.Name + ", recovery " + c.Fallback.Recovery.Action.Name + ", same_arguments " + c.Fallback.Recovery.SameArguments.Name + ", side_effects " + c.Fallback.SideEffects.Name + ")."}
	case contract.SourceMessage:
		return &jsonschema.Schema{Type: "string", MinLength: uint64p(1), Description: "A diagnosis for people and models that is useful on its own, even if every other field is discarded."}
	case contract.SourceOrigin:
		return closed(role, "origin (where the failure arose)", values(c.Origins, func(o *contract.Origin) *contract.Value { return &o.Value }))
	case contract.SourceAction:
		return closed(role, "recovery action", values(c.Actions, func(a *contract.Action) *contract.Value { return &a.Value }))
	case contract.SourceSameArguments:
		return closed(role, "same-arguments retry safety", values(c.SameArguments, func(s *contract.SameArguments) *contract.Value { return &s.Value }))
	case contract.SourceSideEffects:
		return closed(role, "side-effect certainty", values(c.SideEffects, func(s *contract.SideEffect) *contract.Value { return &s.Value }))
	case contract.SourceGuidance:
		return &jsonschema.Schema{Type: "string", MinLength: uint64p(1), Description: "Free text telling the caller what to do next."}
	case contract.SourceRetryAfterMs:
		if role == Producer {
			return &jsonschema.Schema{Type: "integer", Minimum: json.Number("0"), Maximum: json.Number(strconv.FormatInt(c.Retry.MaxHintMs, 10)),
				Description: fmt.Sprintf("The minimum wait before a retry, in milliseconds; producers clamp it to the contract's retry.max_hint_ms (%d).", c.Retry.MaxHintMs)}
		}
		return &jsonschema.Schema{Type: "integer", Minimum: json.Number("0"), Maximum: json.Number(strconv.Itoa(contract.MaxSafeInteger)),
			Description: fmt.Sprintf("The minimum wait before a retry, in milliseconds. A consumer waits at most the contract's retry.max_hint_ms (%d) however large it is; every decoder reads a hint up to 2^53-1.", c.Retry.MaxHintMs)}
	case contract.SourceGroup:
		s := closed(role, "group (category) of the kind", values(c.Groups, func(g *contract.Group) *contract.Value { return &g.Value }))
		if role == Consumer {
			s.MinLength = nil // an unknown kind may come without one
		}
		return s
	case contract.SourceRetryable:
		return &jsonschema.Schema{Type: "boolean", Description: "Whether an automatic retry of the identical call may succeed."}
	case contract.SourceMayHaveRun:
		return &jsonschema.Schema{Type: "boolean", Description: "Whether work may already have run before the failure; if true, check state before repeating a write."}
	case contract.SourceConst:
		return &jsonschema.Schema{Const: lf.Const, Description: "A constant of this wire format."}
	case contract.SourceField:
		s := fieldSchema(role, lf.Field)
		if lf.RequiredContext {
			// Required by the layout: present in every envelope, and never
			// empty, in both schemas (the decoders reject "" as they reject
			// an empty kind).
			s.MinLength = uint64p(1)
		}
		if lf.OmitsEmpty() && role == Producer {
			// Left out when empty (layout optional: true): a producer never
			// sends an empty list; a consumer still reads one.
			s.MinItems = uint64p(1)
		}
		return s
	}
	panic("genschema: unhandled source " + lf.Source)
}

// objectSchema is the schema of one object of the layout. Every object
// allows members it does not name: the contract permits additive fields.
func objectSchema(c *contract.Contract, role Role, o *contract.Object) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: props(), AdditionalProperties: jsonschema.TrueSchema}
	for _, m := range o.Members {
		if m.Object != nil {
			s.Properties.Set(m.Object.Name, objectSchema(c, role, m.Object))
			if m.Object.Required {
				s.Required = append(s.Required, m.Object.Name)
			}
			continue
		}
		lf := m.Leaf
		s.Properties.Set(lf.Name, leafSchema(c, role, lf))
		if lf.Required() {
			s.Required = append(s.Required, lf.Name)
		}
		if role == Consumer {
			for _, alias := range lf.Aliases {
				as := leafSchema(c, role, lf)
				as.Description = "A fallback spelling of " + lf.Name + " that some producers emit; read it when " + lf.Name + " is absent."
				s.Properties.Set(alias, as)
			}
		}
	}
	return s
}

// nested wraps a schema for the object at path in the objects above it.
func nested(path string, inner *jsonschema.Schema) *jsonschema.Schema {
	if path == "" {
		return inner
	}
	segs := strings.Split(path, ".")
	for i := len(segs) - 1; i >= 0; i-- {
		p := props()
		p.Set(segs[i], inner)
		inner = &jsonschema.Schema{Properties: p, Required: []string{segs[i]}}
	}
	return inner
}

// Envelope renders the producer or consumer schema of c's envelope, the
// file under Dir.
func Envelope(c *contract.Contract, role Role) ([]byte, error) {
	return Marshal(EnvelopeSchema(c, role))
}

// EnvelopeSchema builds the producer or consumer schema of c's envelope.
// The OpenAPI document (internal/genopenapi) embeds the very same schema,
// so the two cannot drift.
func EnvelopeSchema(c *contract.Contract, role Role) *jsonschema.Schema {
	lo := c.Layout
	s := objectSchema(c, role, lo.Root)
	s.Version = draft
	s.ID = jsonschema.ID(ID(c, role))
	s.Comments = marker.Text + " Source: the " + c.Name + " contract, version " + c.VersionLabel() + "."
	s.Title = fmt.Sprintf("%s envelope, version %s (%s schema)", c.Name, c.VersionLabel(), role)
	switch role {
	case Producer:
		s.Description = "Strict schema for services that emit envelopes: validate your own output against it in CI. " +
			"The kind must be one this contract version defines, the closed vocabularies must hold one of their values, " +
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
	if role == Producer {
		kindLeaf := lo.Leaf(contract.SourceKind)
		retryLeaf := lo.Leaf(contract.SourceRetryable)
		for _, k := range c.Kinds {
			// A kind's required fields are enforced at their place in the
			// layout, when the kind field names that kind.
			byObject := map[string][]string{}
			var order []string
			for _, f := range k.RequiredFields() {
				lf := lo.FieldLeaf(f)
				if lf == nil {
					lf = lo.FieldLeaf(c.KindField(f.Name))
				}
				if lf == nil {
					continue
				}
				if _, ok := byObject[lf.Object.Path]; !ok {
					order = append(order, lf.Object.Path)
				}
				byObject[lf.Object.Path] = append(byObject[lf.Object.Path], lf.Name)
			}
			then := &jsonschema.Schema{}
			for _, path := range order {
				then.AllOf = append(then.AllOf, nested(path, &jsonschema.Schema{Required: byObject[path]}))
			}
			if retryLeaf != nil {
				// retryable is the kind's classification: a producer never
				// sends another value (ovstorage's NotFound is never
				// retryable). Left out when false where it is optional.
				v := k.Retryable()
				pin := props()
				pin.Set(retryLeaf.Name, &jsonschema.Schema{Const: v})
				var req []string
				if v || retryLeaf.Required() {
					req = []string{retryLeaf.Name}
				}
				then.AllOf = append(then.AllOf, nested(retryLeaf.Object.Path, &jsonschema.Schema{Properties: pin, Required: req}))
			}
			if len(then.AllOf) == 0 {
				continue
			}
			ifKind := props()
			ifKind.Set(kindLeaf.Name, &jsonschema.Schema{Const: k.Name})
			cond := nested(kindLeaf.Object.Path, &jsonschema.Schema{Properties: ifKind, Required: []string{kindLeaf.Name}})
			if len(then.AllOf) == 1 {
				then = then.AllOf[0]
			}
			s.AllOf = append(s.AllOf, &jsonschema.Schema{If: cond, Then: then})
		}
	}
	return s
}
