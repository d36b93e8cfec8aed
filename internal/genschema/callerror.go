package genschema

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/invopop/jsonschema"
)

// CallErrorID is the $id of a contract's call-error schema.
func CallErrorID(c *contract.Contract) string {
	return fmt.Sprintf("urn:errgen:%s:v%s:call-error", c.Name, c.VersionLabel())
}

// CallErrorFileName is the call-error schema's file name under Dir.
func CallErrorFileName(c *contract.Contract) string {
	return c.Name + ".call-error.schema.json"
}

// CallError returns the JSON Schema of the contract's call error (its
// call_error section), or nil when it declares none. Unknown members are
// allowed: consumers ignore additive fields within a version.
func CallError(c *contract.Contract) ([]byte, error) {
	if c.CallError == nil {
		return nil, nil
	}
	return Marshal(CallErrorSchema(c))
}

// CallErrorSchema is the call-error schema as a value.
func CallErrorSchema(c *contract.Contract) *jsonschema.Schema {
	ce := c.CallError
	str := func(min uint64, description string) *jsonschema.Schema {
		s := &jsonschema.Schema{Type: "string", Description: description}
		if min > 0 {
			s.MinLength = uint64p(min)
		}
		return s
	}
	origins := make([]any, len(ce.Origins))
	for i, o := range ce.Origins {
		origins[i] = o.Name
	}
	enumOf := func(vs []*contract.Value) []any {
		out := make([]any, len(vs))
		for i, v := range vs {
			out[i] = v.Name
		}
		return out
	}
	recovery := props()
	recovery.Set("action", &jsonschema.Schema{Enum: enumOf(values(c.Actions, func(a *contract.Action) *contract.Value { return &a.Value })), Description: "The recovery action."})
	recovery.Set("same_arguments", &jsonschema.Schema{Enum: enumOf(values(c.SameArguments, func(s *contract.SameArguments) *contract.Value { return &s.Value })), Description: "Whether repeating the identical call is safe."})
	recovery.Set("guidance", str(1, "What to do next."))
	recovery.Set("retry_after_ms", &jsonschema.Schema{Type: "integer", Minimum: json.Number("0"), Description: "The least wait before a retry, in milliseconds."})
	safety := props()
	for _, h := range ce.SafetyHints {
		safety.Set(h.Name, &jsonschema.Schema{Type: "boolean", Description: "The tool's " + h.Annotation + " annotation: an untrusted hint."})
	}
	evidence := props()
	evidence.Set("content", &jsonschema.Schema{Type: "array", MaxItems: uint64p(uint64(ce.Evidence.MaxBlocks)),
		Items:       &jsonschema.Schema{Type: "object", Required: []string{"type"}},
		Description: fmt.Sprintf("Sanitized evidence from up to %d content blocks.", ce.Evidence.MaxBlocks)})
	evidence.Set("structured_content", &jsonschema.Schema{Description: "The result's structuredContent, sanitized."})
	evidence.Set("parsed_error", &jsonschema.Schema{Type: "object", Description: "The JSON object of the first text block, sanitized."})
	evidence.Set("omitted_content_blocks", &jsonschema.Schema{Type: "integer", Minimum: json.Number("0"), Description: "Blocks whose content is not carried: binary ones, and those past the cap."})
	all := map[string]*jsonschema.Schema{
		"contract_version": {Const: c.VersionValue(), Description: "The contract's version."},
		"kind":             str(1, "The canonical kind."),
		"message":          str(1, "A standalone, sanitized message."),
		"tool":             {Type: "string", Pattern: "^.+" + regexp.QuoteMeta(ce.ToolSeparator) + ".+$", Description: "The fully-qualified tool: upstream" + ce.ToolSeparator + "tool."},
		"origin":           {Enum: origins, Description: "Where the failure arose."},
		"recovery":         {Type: "object", Required: []string{"action", "same_arguments", "guidance"}, Properties: recovery, Description: "What the caller should do next."},
		"side_effects":     {Enum: enumOf(values(c.SideEffects, func(s *contract.SideEffect) *contract.Value { return &s.Value })), Description: "Whether work may have happened."},
		"original_kind":    str(0, "The kind the result reported before it was canonicalised."),
		"cause":            str(0, "A sanitized account of the underlying cause."),
		"safety":           {Type: "object", Properties: safety, Description: "The tool's annotations, as untrusted hints."},
		"evidence":         {Type: "object", Properties: evidence, Description: "Sanitized evidence from the result."},
	}
	p := props()
	var required []string
	for _, m := range ce.Members {
		p.Set(m, all[m])
		for _, r := range contract.CallErrorRequired {
			if r == m {
				required = append(required, m)
			}
		}
	}
	return &jsonschema.Schema{
		Version:     draft,
		ID:          jsonschema.ID(CallErrorID(c)),
		Comments:    marker.Text + " Source: the " + c.Name + " contract, version " + c.VersionLabel() + ", section call_error.",
		Title:       ce.Title,
		Description: ce.Description,
		Type:        "object",
		Required:    required,
		Properties:  p,
	}
}
