package genschema

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/errgen/errgen/internal/contract"
	"github.com/invopop/jsonschema"
)

// ProblemSchema builds the schema of the RFC 9457 problem document every
// HTTP surface renders from an envelope (application/problem+json): the
// problem members, then the envelope's top-level members as extension
// members, each with its consumer schema from objectSchema, so the problem
// and the envelope schemas are one model's. A member of the envelope named
// like a problem member gives way to it, as it does on the wire.
//
// It has the consumer form only: a producer renders the problem document
// from an envelope it can validate with the producer envelope schema, and
// the producer schema's per-kind requirements cannot always carry over (the
// kind, or a required field, may be a member the problem document replaces).
func ProblemSchema(c *contract.Contract) *jsonschema.Schema {
	env := objectSchema(c, Consumer, c.Layout.Root)
	s := &jsonschema.Schema{Type: "object", Properties: props(), AdditionalProperties: jsonschema.TrueSchema}
	s.Title = fmt.Sprintf("%s problem document, version %s (consumer schema)", c.Name, c.VersionLabel())
	s.Description = "The RFC 9457 problem document (application/problem+json) of an envelope: the problem members, " +
		"then the envelope's top-level members as extension members, so that a reader gets the envelope back; " +
		"an envelope member named like a problem member gives way to it. " +
		"Forward compatible like the consumer envelope schema (" + ID(c, Consumer) + "): any non-empty kind, open vocabularies, unknown members allowed."
	s.Properties.Set("type", &jsonschema.Schema{Type: "string", Pattern: "^" + regexp.QuoteMeta(c.Surfaces.ProblemTypeBase),
		Description: "The problem type: " + c.Surfaces.ProblemTypeBase + " followed by the kind. A reader restores the kind from it."})
	s.Properties.Set("title", &jsonschema.Schema{Type: "string",
		Description: fmt.Sprintf("The kind's description; %q for a kind this contract version does not define.", contract.UnknownKindTitle)})
	s.Properties.Set("status", &jsonschema.Schema{Type: "integer",
		Description: fmt.Sprintf("The response's HTTP status: the kind's, or %d for a kind this contract version does not define.", c.Fallback.HTTP)})
	s.Properties.Set("detail", &jsonschema.Schema{Type: "string", MinLength: uint64p(1), Description: "The envelope's message."})
	s.Properties.Set("instance", &jsonschema.Schema{Type: "string", Description: "A URI reference to this occurrence; left out when the producer names none."})
	s.Required = []string{"type", "title", "status", "detail"}
	for pair := env.Properties.Oldest(); pair != nil; pair = pair.Next() {
		if slices.Contains(contract.ProblemMembers, pair.Key) {
			continue
		}
		s.Properties.Set(pair.Key, pair.Value)
		if slices.Contains(env.Required, pair.Key) {
			s.Required = append(s.Required, pair.Key)
		}
	}
	return s
}
