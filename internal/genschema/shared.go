package genschema

import (
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/targets"
	"github.com/invopop/jsonschema"
)

// SharedEnvelopeSchema is EnvelopeSchema(c, role), built once for the
// emitters of one run (targets.Shared): the schema files and the OpenAPI
// document hold the same schema. It may not be changed.
func SharedEnvelopeSchema(c *contract.Contract, role Role, s *targets.Shared) *jsonschema.Schema {
	return targets.Derive(s, schemaKey{c, role}, func() *jsonschema.Schema { return EnvelopeSchema(c, role) })
}

// SharedEnvelope is Envelope(c, role), written once for the emitters of one
// run: the schemas output and the Go package both hold the file. Its bytes
// may not be changed.
func SharedEnvelope(c *contract.Contract, role Role, s *targets.Shared) ([]byte, error) {
	data := targets.Derive(s, fileKey{c, role}, func() []byte {
		data, err := Marshal(SharedEnvelopeSchema(c, role, s))
		if err != nil {
			return nil // not shared: each asker meets the error itself
		}
		return data
	})
	if data == nil {
		return Envelope(c, role)
	}
	return data, nil
}

type schemaKey struct {
	c    *contract.Contract
	role Role
}

type fileKey struct {
	c    *contract.Contract
	role Role
}
