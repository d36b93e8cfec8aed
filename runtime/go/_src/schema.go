package agenterror

// Schema is a JSON Schema (draft 2020-12) of the envelope, as published in the contract's schemas/ directory.
type Schema struct {
	// ID is the schema's $id.
	ID string
	// JSON is the schema document; each call returns a fresh copy.
	JSON []byte
}

// ProducerSchema is the strict schema a service validates its own envelopes against: known kinds only, closed vocabularies, each kind's required fields.
func ProducerSchema() Schema {
	return Schema{
		ID:   ProducerSchemaID,
		JSON: []byte(schemaProducer),
	}
}

// ConsumerSchema is the forward-compatible schema a client validates received envelopes against: unknown kinds, values and fields are accepted.
func ConsumerSchema() Schema {
	return Schema{
		ID:   ConsumerSchemaID,
		JSON: []byte(schemaConsumer),
	}
}
