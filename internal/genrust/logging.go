package genrust

import (
	"bytes"
	"fmt"
)

// The structured-log form (runtime/rust/src/logging.rs: Envelope::log_fields)
// is the same for every contract; what differs is printed here: into
// src/contract.rs the LOG table (runtimedata's, the one the TypeScript and
// Python runtimes read) and the fields the contract sanitizes, and into
// src/envelope.rs the glue that clears a field by slot.

// logTables is the part of src/contract.rs that logging.rs reads.
func (g *gen) logTables() string {
	var b bytes.Buffer
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
	var b bytes.Buffer
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
