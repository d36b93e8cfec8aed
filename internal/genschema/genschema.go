// Package genschema builds the JSON Schemas (draft 2020-12) of a contract:
// a producer and a consumer schema for its envelopes, and the schema of the
// contract file itself.
//
// The schemas are built as jsonschema.Schema values directly rather than by
// reflecting Go types: every constraint that matters (closed enums, the
// pinned version, per-kind required fields, wire names) is contract data,
// which no Go struct tag can carry.
package genschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"unicode/utf8"

	"github.com/errgen/errgen/internal/config"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/targets"
	"github.com/invopop/jsonschema"
)

const draft = "https://json-schema.org/draft/2020-12/schema"

// Draft is the JSON Schema dialect of every schema errgen writes.
const Draft = draft

// Dir is where schemas go, relative to the output root.
func Dir(o targets.Options) string { return o.Dir(targets.Schemas) }

// Role distinguishes the two envelope schemas.
type Role string

const (
	// Producer is strict: services validate what they emit against it in CI.
	Producer Role = "producer"
	// Consumer is forward compatible: clients validate what they receive.
	Consumer Role = "consumer"
)

// ID returns the $id of a contract's envelope schema for role. A URN needs
// no domain the contract owner may not control, and still names the
// contract, its version and the role unambiguously.
func ID(c *contract.Contract, role Role) string {
	return fmt.Sprintf("urn:errgen:%s:v%s:%s", c.Name, c.VersionLabel(), role)
}

// FileName is the schema's file name under Dir.
func FileName(c *contract.Contract, role Role) string {
	return fmt.Sprintf("%s.%s.schema.json", c.Name, role)
}

// ContractSchemaFile is the name of the contract file's schema under Dir.
const ContractSchemaFile = "contract.schema.json"

// Generate returns the producer, consumer and contract-file schemas.
func Generate(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, role := range []Role{Producer, Consumer} {
		data, err := SharedEnvelope(c, role, o.Shared)
		if err != nil {
			return nil, err
		}
		out[path.Join(Dir(o), FileName(c, role))] = data
	}
	data, err := CallError(c)
	if err != nil {
		return nil, err
	}
	if data != nil {
		out[path.Join(Dir(o), CallErrorFileName(c))] = data
	}
	data, err = Marshal(ContractSchema())
	if err != nil {
		return nil, err
	}
	out[path.Join(Dir(o), ContractSchemaFile)] = data
	if data, err = Marshal(ConfigSchema()); err != nil {
		return nil, err
	}
	out[path.Join(Dir(o), config.SchemaFileName)] = data
	return out, nil
}

// Marshal renders a schema as indented JSON with one trailing newline.
// encoding/json escapes <, > and & for HTML; descriptions are prose, so the
// escapes are undone for readability (the JSON means the same either way).
func Marshal(s *jsonschema.Schema) ([]byte, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, escapeInvisible(unescapeHTML(raw)), "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// escapeInvisible writes the characters encoding/json leaves as they are but
// no reader can see (DEL, the C1 controls, the bidirectional controls,
// U+FEFF, the non-characters the contract schema's patterns name) as JSON escapes. Outside strings JSON
// has none of them, so a plain scan is safe.
func escapeInvisible(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r >= 0xfdd0 && r <= 0xfdef || r == 0xfeff || r == 0xfffe || r == 0xffff {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

// unescapeHTML replaces encoding/json's \u003c, \u003e and \u0026 escapes
// with the characters. It walks escapes pairwise so an escaped backslash
// followed by "u003c" in the text stays as it is.
func unescapeHTML(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			switch string(b[i+2 : i+6]) {
			case "003c":
				out = append(out, '<')
				i += 5
				continue
			case "003e":
				out = append(out, '>')
				i += 5
				continue
			case "0026":
				out = append(out, '&')
				i += 5
				continue
			}
		}
		out = append(out, b[i], b[i+1])
		i++
	}
	return out
}
