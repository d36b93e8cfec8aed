package genrust

import (
	"bytes"
	"fmt"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
)

// The google.rpc mapping (runtime/rust/src/aip193.rs) is the same for
// every contract; what differs is printed here from runtimedata's tables,
// as every language's is: into src/contract.rs the ErrorInfo domain, the
// layout's leaves as the mapping reads an envelope back, the values the
// layout does not carry, the kinds by reason and Kind::reason (each
// Classification's gRPC code, status and reason are in its record).

// aipTables writes the part of src/contract.rs that aip193.rs reads.
func (g *gen) aipTables(b *bytes.Buffer) {
	c := g.c
	b.WriteString("\n// The google.rpc mapping's tables (see aip193.rs).\n\n")
	fmt.Fprintf(b, "/// The domain of the google.rpc ErrorInfo every envelope maps to (AIP-193): a reason names a kind of this contract only in this domain.\npub const ERROR_INFO_DOMAIN: &str = %s;\n\n", g.p.Print(g.t.AIPDomain))
	fmt.Fprintf(b, "/// The layout's leaves in wire order, each with where the google.rpc mapping takes its value from.\npub(crate) static AIP_LEAVES: [crate::aip193::AipLeaf; %d] = [\n", len(g.t.AIPLeaves))
	for _, lf := range g.t.AIPLeaves {
		b.WriteString("    " + g.p.Print(lf) + ",\n")
	}
	b.WriteString("];\n\n")

	// The values the layout does not carry: written from the envelope and
	// set back as they are.
	type off struct{ key, get, set string }
	var offs []off
	// Read from an upstream, an enumerated value is sanitized as the
	// decoder sanitizes one on the wire.
	enum := func(key, field, typ string) off {
		return off{key, "e." + field + ".as_str().to_owned()", "e." + field + " = " + typ + "::from(crate::contract::sanitize(v).into_owned());"}
	}
	for _, row := range g.t.AIPOffWire {
		r := row.(runtimedata.Record)
		key := r.Get("key").(string)
		switch contract.Source(r.Get("source").(string)) {
		case contract.SourceVersion:
			if c.VersionIsText() {
				offs = append(offs, off{key, "e.contract_version.clone()", "e.contract_version = v.clone();"})
			} else {
				offs = append(offs, off{key, "e.contract_version.to_string()", "match v.parse::<i64>() {\n            Ok(n) => e.contract_version = n,\n            Err(_) => return false,\n        }"})
			}
		case contract.SourceOrigin:
			offs = append(offs, enum(key, "origin", "Origin"))
		case contract.SourceAction:
			offs = append(offs, enum(key, "recovery.action", "RecoveryAction"))
		case contract.SourceSameArguments:
			offs = append(offs, enum(key, "recovery.same_arguments", "SameArguments"))
		case contract.SourceSideEffects:
			offs = append(offs, enum(key, "side_effects", "SideEffects"))
		case contract.SourceGuidance:
			// Read from an upstream, it is sanitized as the decoder
			// sanitizes guidance on the wire.
			set := "e.recovery.guidance = crate::contract::sanitize(v).into_owned();"
			offs = append(offs, off{key, "e.recovery.guidance.clone()", set})
		}
	}
	b.WriteString("/// Adds to meta the envelope's values its layout does not carry (an empty guidance is left out).\n")
	b.WriteString("pub(crate) fn aip_off_wire(e: &crate::envelope::Envelope, meta: &mut std::collections::BTreeMap<String, String>) {\n")
	for _, o := range offs {
		line := fmt.Sprintf("meta.insert(%s.to_owned(), %s);", runtimedata.RustString(o.key), o.get)
		if o.key == contract.MetaGuidance {
			line = "if !e.recovery.guidance.is_empty() {\n        " + line + "\n    }"
		}
		b.WriteString("    " + line + "\n")
	}
	if len(offs) == 0 {
		b.WriteString("    let _ = (e, meta);\n")
	}
	b.WriteString("}\n\n")
	b.WriteString("/// Sets the values the layout does not carry from meta, where it has them; false when one does not read.\n")
	b.WriteString("pub(crate) fn aip_set_off_wire(e: &mut crate::envelope::Envelope, meta: &std::collections::BTreeMap<String, String>) -> bool {\n")
	for _, o := range offs {
		fmt.Fprintf(b, "    if let Some(v) = meta.get(%s) {\n        %s\n    }\n", runtimedata.RustString(o.key), o.set)
	}
	if len(offs) == 0 {
		b.WriteString("    let _ = (e, meta);\n")
	}
	b.WriteString("    true\n}\n\n")

	b.WriteString("/// The kind whose ErrorInfo reason is reason, or None.\npub(crate) fn kind_by_reason(reason: &str) -> Option<Kind> {\n    match reason {\n")
	for _, e := range g.t.AIPReasons {
		b.WriteString("        ")
		g.p.Write(b, e.Key)
		b.WriteString(" => Some(Kind::")
		b.WriteString(c.Kind(e.Value.(string)).Idents.RustType)
		b.WriteString("),\n")
	}
	b.WriteString("        _ => None,\n    }\n}\n\n")
	b.WriteString("impl Kind {\n    /// The kind's ErrorInfo reason (AIP-193): its words upper-cased and joined with \"_\", \"KIND\" put before a result shorter than 3 or not starting with a letter, at most 63 characters; a kind the contract lists has it without allocating.\n    pub fn reason(&self) -> Cow<'static, str> {\n        match self {\n")
	for _, k := range c.Kinds {
		b.WriteString("            Kind::")
		b.WriteString(k.Idents.RustType)
		b.WriteString(" => Cow::Borrowed(")
		runtimedata.WriteRustString(b, k.Reason)
		b.WriteString("),\n")
	}
	b.WriteString("            Kind::Other(s) => Cow::Owned(crate::aip193::reason(s)),\n        }\n    }\n}\n")
}
