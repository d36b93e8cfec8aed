package genrust

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
)

// The google.rpc mapping (runtime/rust/src/aip193.rs) is the same for
// every contract; what differs is printed here from the model
// (contract.AIP193), as gengo's aip193.go prints the Go package's: into
// src/contract.rs the ErrorInfo domain, the layout's leaves as the mapping
// reads an envelope back, the values the layout does not carry, the kinds
// by reason and Kind::reason; and each Classification's gRPC code, status
// and reason.

// withGRPC adds the google.rpc members to a Classification record of
// runtimedata's (reason is "" for the fallback). A member the record
// already has is left as it is, so that the tables may carry them too.
func withGRPC(v runtimedata.Value, cl *contract.Classification, reason string) runtimedata.Value {
	r, ok := v.(runtimedata.Record)
	if !ok {
		panic(fmt.Sprintf("genrust: a classification that is no record: %T", v))
	}
	code, status := 0, ""
	if cl.GRPC != nil {
		code, status = cl.GRPC.Number, cl.GRPC.Name
	}
	fields := append([]runtimedata.Field(nil), r.Fields...)
	has := map[string]bool{}
	for _, f := range fields {
		has[f.Name] = true
	}
	for _, f := range []runtimedata.Field{{Name: "grpc_code", Value: code}, {Name: "grpc_status", Value: status}, {Name: "reason", Value: reason}} {
		if !has[f.Name] {
			fields = append(fields, f)
		}
	}
	r.Fields = fields
	return r
}

// aipTables is the part of src/contract.rs that aip193.rs reads.
func (g *gen) aipTables() string {
	c := g.c
	var b strings.Builder
	b.WriteString("\n// The google.rpc mapping's tables (see aip193.rs).\n\n")
	fmt.Fprintf(&b, "/// The domain of the google.rpc ErrorInfo every envelope maps to (AIP-193): a reason names a kind of this contract only in this domain.\npub const ERROR_INFO_DOMAIN: &str = %s;\n\n", runtimedata.RustString(c.AIP193.Domain))

	keys := map[*contract.Leaf]*contract.MetaMember{}
	for _, m := range c.AIP193.Members {
		if m.Leaf != nil {
			keys[m.Leaf] = m
		}
	}
	fmt.Fprintf(&b, "/// The layout's leaves in wire order, each with where the google.rpc mapping takes its value from.\npub(crate) static AIP_LEAVES: [crate::aip193::AipLeaf; %d] = [\n", len(c.Layout.Leaves))
	for _, lf := range c.Layout.Leaves {
		src, key, text, raw := "Meta", "", false, ""
		switch lf.Source {
		case contract.SourceKind:
			src = "Kind"
		case contract.SourceMessage:
			src = "Message"
		case contract.SourceRetryAfterMs:
			src = "Retry"
		case contract.SourceConst:
			j, err := json.Marshal(lf.Const)
			if err != nil {
				panic("genrust: a layout constant that is not JSON: " + err.Error())
			}
			src, raw = "Const", string(j)
		default:
			m := keys[lf]
			key, text = m.Key, m.Text
		}
		fmt.Fprintf(&b, "    crate::aip193::AipLeaf { path: %s, src: crate::aip193::AipSource::%s, key: %s, text: %t, raw: %s },\n",
			runtimedata.RustString(lf.Path), src, runtimedata.RustString(key), text, runtimedata.RustString(raw))
	}
	b.WriteString("];\n\n")

	// The values the layout does not carry: written from the envelope and
	// set back as they are.
	type off struct{ key, get, set string }
	var offs []off
	enum := func(key, field, typ string) off {
		return off{key, "e." + field + ".as_str().to_owned()", "e." + field + " = " + typ + "::from(v.as_str());"}
	}
	for _, m := range c.AIP193.Members {
		if m.Leaf != nil {
			continue
		}
		switch m.Source {
		case contract.SourceVersion:
			if c.VersionIsText() {
				offs = append(offs, off{m.Key, "e.contract_version.clone()", "e.contract_version = v.clone();"})
			} else {
				offs = append(offs, off{m.Key, "e.contract_version.to_string()", "match v.parse::<i64>() {\n            Ok(n) => e.contract_version = n,\n            Err(_) => return false,\n        }"})
			}
		case contract.SourceOrigin:
			offs = append(offs, enum(m.Key, "origin", "Origin"))
		case contract.SourceAction:
			offs = append(offs, enum(m.Key, "recovery.action", "RecoveryAction"))
		case contract.SourceSameArguments:
			offs = append(offs, enum(m.Key, "recovery.same_arguments", "SameArguments"))
		case contract.SourceSideEffects:
			offs = append(offs, enum(m.Key, "side_effects", "SideEffects"))
		case contract.SourceGuidance:
			offs = append(offs, off{m.Key, "e.recovery.guidance.clone()", "e.recovery.guidance = v.clone();"})
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
		fmt.Fprintf(&b, "    if let Some(v) = meta.get(%s) {\n        %s\n    }\n", runtimedata.RustString(o.key), o.set)
	}
	if len(offs) == 0 {
		b.WriteString("    let _ = (e, meta);\n")
	}
	b.WriteString("    true\n}\n\n")

	b.WriteString("/// The kind whose ErrorInfo reason is reason, or None.\npub(crate) fn kind_by_reason(reason: &str) -> Option<Kind> {\n    match reason {\n")
	for _, k := range c.ReasonKinds() {
		fmt.Fprintf(&b, "        %s => Some(Kind::%s),\n", runtimedata.RustString(k.Reason), k.Idents.RustType)
	}
	b.WriteString("        _ => None,\n    }\n}\n\n")
	b.WriteString("impl Kind {\n    /// The kind's ErrorInfo reason (AIP-193): its words upper-cased and joined with \"_\", \"KIND\" put before a result shorter than 3 or not starting with a letter, at most 63 characters; a kind the contract lists has it without allocating.\n    pub fn reason(&self) -> Cow<'static, str> {\n        match self {\n")
	for _, k := range c.Kinds {
		fmt.Fprintf(&b, "            Kind::%s => Cow::Borrowed(%s),\n", k.Idents.RustType, runtimedata.RustString(k.Reason))
	}
	b.WriteString("            Kind::Other(s) => Cow::Owned(crate::aip193::reason(s)),\n        }\n    }\n}\n")
	return b.String()
}
