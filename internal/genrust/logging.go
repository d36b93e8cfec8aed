package genrust

import (
	"fmt"
	"strings"
)

// The structured-log form (runtime/rust/src/logging.rs: Envelope::log_fields)
// is the same for every contract; what differs is printed here: into
// src/contract.rs the LOG table (runtimedata's, the one the TypeScript and
// Python runtimes read) and the fields the contract sanitizes, and into
// src/envelope.rs the glue that clears a field by slot.

// logTables is the part of src/contract.rs that logging.rs reads.
func (g *gen) logTables() string {
	var b strings.Builder
	b.WriteString("\n// The structured-log form's tables (see logging.rs).\n\n")
	// The table is runtimedata's record; only Rust names its type.
	log := g.t.Log
	log.Type = "crate::logging::LogForm"
	b.WriteString("/// The structured-log form Envelope::log_fields writes, the same in every language: its members in order, and the bound in UTF-8 bytes of its texts with the ellipsis that ends a cut one.\n")
	fmt.Fprintf(&b, "pub static LOG: crate::logging::LogForm = %s;\n\n", g.p.Print(log))
	b.WriteString("/// The envelope values the contract sanitizes, by name (\"message\", \"guidance\", a field): what log_fields sanitizes however the envelope was built or received.\n")
	fmt.Fprintf(&b, "pub static SANITIZED_FIELDS: &[&str] = %s;\n", g.p.Print(g.t.SanitizedFields))
	return b.String()
}

// logGlue is the part of the Envelope's impl in src/envelope.rs that
// logging.rs calls: clearing one field, so that the fields of an envelope
// that does not encode are logged all but the one at fault.
func (g *gen) logGlue() string {
	var b strings.Builder
	b.WriteString("    /// Clears a context or kind-specific field by slot: log_fields leaves out a field that does not encode.\n    pub(crate) fn clear_slot(&mut self, slot: usize) {\n        match slot {\n")
	for i, s := range g.fields {
		if s.typ == "String" {
			fmt.Fprintf(&b, "            %d => self.%s.clear(),\n", i, s.name)
		} else {
			fmt.Fprintf(&b, "            %d => self.%s = None,\n", i, s.name)
		}
	}
	b.WriteString("            _ => {}\n        }\n    }\n\n")
	return b.String()
}

// readmeLogging is the crate README's part on the log form.
func (g *gen) readmeLogging() string {
	// The guidance is no member of the form.
	var names []string
	for _, v := range g.t.SanitizedFields {
		if v != "guidance" {
			names = append(names, "`"+v.(string)+"`")
		}
	}
	sanitized := "nothing of the message or the fields (this contract sanitizes none of them)"
	switch n := len(names); {
	case n == 1:
		sanitized = "the " + names[0] + " value"
	case n > 1:
		sanitized = "the " + strings.Join(names[:n-1], ", ") + " and " + names[n-1] + " values"
	}
	return "\n## Logging\n\n" +
		"`e.log_fields()` is the envelope's structured-log form, member for member the Go package's `LogValue`, the TypeScript package's `logFields` and the Python package's `log_fields` (`LOG.members`): `kind`, `message`, `origin`, `action`, `same_arguments`, `side_effects`, `retryable`, `http_status`, `retry_after_ms` (with a retry hint), `fields` (the context and kind-specific fields the envelope carries, under their contract names; arrays and objects as their compact JSON text) and `extra` (the members this contract does not name, as JSON text). " +
		"It never leaks what the contract sanitizes: it sanitizes " + sanitized + " however the envelope was built or received, and `extra` always; every text is bounded at `LOG.max_bytes` bytes (`bound_log_text`).\n\n" +
		"It returns `LogFields`, the members in order as `(&'static str, LogValue)` pairs, which serializes with serde as one JSON object in that order:\n\n" +
		"```rust,ignore\nlog::warn!(error:serde = e.log_fields(); \"tool call failed\"); // log, with its kv_serde feature\ntracing::warn!(error = %serde_json::to_string(&e.log_fields())?, \"tool call failed\");\nfor (key, value) in &e.log_fields() {\n    println!(\"{key}={value}\");\n}\n```\n"
}
