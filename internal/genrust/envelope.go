package genrust

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
)

func trim(local string) string { return strings.TrimSuffix(local, "_") }

func (g *gen) envelope() []byte {
	var b bytes.Buffer
	b.Grow(g.envelopeSize())
	startModule(&b, "The envelope: its fields, constructors and setters, and the glue through which the runtime's codec reads and writes its context and kind-specific fields by slot.",
		"use std::collections::BTreeMap;\n\n#[allow(unused_imports)]\nuse serde_json::{Map, Value};\n\n",
		"#[allow(unused_imports)]\nuse crate::codec::{EncodeError, Item, Out, Wire};\nuse crate::contract::*;\n#[allow(unused_imports)]\nuse crate::spec::FieldSpec;\n\n")
	g.objectFieldTypes(&b)
	g.envelopeStruct(&b)
	b.WriteString("impl Envelope {\n")
	g.zeroEnvelope(&b)
	g.constructors(&b)
	g.setters(&b)
	g.slotGlue(&b)
	b.WriteString(g.surfaceGlue())
	b.WriteString(g.logGlue())
	b.WriteString("}\n")
	return b.Bytes()
}

// envelopeSize foresees the size of src/envelope.rs, a little over: for
// each kind, its constructor.
func (g *gen) envelopeSize() int {
	n := 64 << 10
	for _, k := range g.c.Kinds {
		n += len(k.Description) + 3*len(k.Idents.RustType) + 2*len(k.Name) + 256 + 128*len(k.Fields)
	}
	return n
}

// objectFieldTypes writes a struct for each object field with properties,
// with its Item reading and writing.
func (g *gen) objectFieldTypes(b *bytes.Buffer) {
	for _, f := range g.order {
		name := g.structs[f]
		doc(b, "", "///", fmt.Sprintf("The %s field. %s", f.Name, f.Description))
		b.WriteString("#[derive(Clone, Debug, Default, PartialEq)]\npub struct " + name + " {\n")
		for _, p := range f.Properties {
			doc(b, "    ", "///", fmt.Sprintf("%q. %s", p.Name, p.Description))
			fmt.Fprintf(b, "    pub %s: %s,\n", p.Idents.RustLocal, g.propType(p))
		}
		b.WriteString("}\n\n")
		fmt.Fprintf(b, "impl Item for %s {\n    fn from_item(v: &Value, _: Option<&FieldSpec>) -> Option<Self> {\n        let m = v.as_object()?;\n        let mut out = %s::default();\n", name, name)
		var names []string
		for _, p := range f.Properties {
			names = append(names, runtimedata.RustString(p.Name))
		}
		b.WriteString("        // Read as Go reads a struct: a member matches a property exactly, else ignoring ASCII case; null leaves a property alone.\n")
		fmt.Fprintf(b, "        const NAMES: [&str; %d] = [%s];\n", len(names), strings.Join(names, ", "))
		b.WriteString("        for (k, x) in m {\n            if x.is_null() {\n                continue;\n            }\n")
		b.WriteString("            let i = NAMES.iter().position(|n| *n == k).or_else(|| NAMES.iter().position(|n| n.eq_ignore_ascii_case(k)));\n            match i {\n")
		for i, p := range f.Properties {
			fmt.Fprintf(b, "                Some(%d) => out.%s = %s,\n", i, p.Idents.RustLocal, g.propDecode(p))
		}
		b.WriteString("                _ => {}\n            }\n        }\n        Some(out)\n    }\n\n    fn zero() -> Self {\n        Self::default()\n    }\n\n")
		b.WriteString("    #[allow(clippy::vec_init_then_push)]\n    fn to_item(&self, path: &str, level: usize) -> Result<Out<'_>, EncodeError> {\n        let _ = (path, level);\n        let mut out: Vec<(&str, Out<'_>)> = Vec::new();\n")
		for _, p := range f.Properties {
			b.WriteString(g.propEncode(p))
		}
		b.WriteString("        Ok(Out::Obj(out))\n    }\n}\n\n")
	}
}

// envelopeStruct writes the Recovery and Envelope structs.
func (g *gen) envelopeStruct(b *bytes.Buffer) {
	c := g.c
	b.WriteString("/// The advice an envelope carries.\n#[derive(Clone, Debug, PartialEq)]\npub struct Recovery {\n")
	b.WriteString("    /// What the caller should do.\n    pub action: RecoveryAction,\n    /// Whether the identical call may be repeated.\n    pub same_arguments: SameArguments,\n    /// Free text telling the caller what to do.\n    pub guidance: String,\n    /// The minimum wait before a retry, in milliseconds; None when the producer gave no hint.\n    pub retry_after_ms: Option<i64>,\n}\n\n")

	vt := "i64"
	if c.VersionIsText() {
		vt = "String"
	}
	b.WriteString("/// One failure as every surface (MCP, HTTP, CLI) reports it. It implements std::error::Error, and Display as \"kind: message\" on one line, the message sanitized and bounded; Debug shows the same kind and message, never the fields as they are.\n#[derive(Clone, PartialEq)]\npub struct Envelope {\n")
	fmt.Fprintf(b, "    /// The contract version the envelope follows.\n    pub contract_version: %s,\n", vt)
	b.WriteString("    /// The stable tag consumers branch on.\n    pub kind: Kind,\n    /// A diagnosis that is useful on its own.\n    pub message: String,\n    /// Where the failure comes from.\n    pub origin: Origin,\n    /// The advice.\n    pub recovery: Recovery,\n    /// Whether work may have run.\n    pub side_effects: SideEffects,\n")
	for _, f := range c.EnvelopeFields {
		text := fmt.Sprintf("%q on the wire. %s", c.Layout.FieldPath(f), f.Description)
		if c.Layout.RequiredLeaf(f) != nil {
			text += " The layout requires it: every constructor takes it, and an envelope with it empty is not encoded."
		}
		doc(b, "    ", "///", text)
		fmt.Fprintf(b, "    pub %s: %s,\n", f.Idents.RustLocal, g.fields[g.slots[f]].typ)
	}
	for _, lf := range c.Layout.Leaves {
		if s, ok := g.received[lf]; ok {
			doc(b, "    ", "///", fmt.Sprintf("%q on the wire as received, derived from %s; empty or None means: compute it from the classification.", lf.Path, lf.Source))
			fmt.Fprintf(b, "    pub %s: %s,\n", g.fields[s].name, g.fields[s].typ)
		}
	}
	b.WriteString("    /// Members this contract version does not name, keyed by their path (\"name\" at the top level, \"object.name\" inside a nested object); a field of the contract always wins over an entry of the same name when encoding.\n    pub extra: BTreeMap<String, Value>,\n}\n\n")
}

// zeroEnvelope writes Envelope::zero, the envelope decoding starts from.
func (g *gen) zeroEnvelope(b *bytes.Buffer) {
	c := g.c
	b.WriteString("    /// The envelope decoding starts from.\n    pub(crate) fn zero() -> Envelope {\n        Envelope {\n")
	if c.VersionIsText() {
		b.WriteString("            contract_version: String::new(),\n")
	} else {
		b.WriteString("            contract_version: 0,\n")
	}
	b.WriteString("            kind: Kind::Other(String::new()),\n            message: String::new(),\n            origin: Origin::Other(String::new()),\n            recovery: Recovery { action: RecoveryAction::Other(String::new()), same_arguments: SameArguments::Other(String::new()), guidance: String::new(), retry_after_ms: None },\n            side_effects: SideEffects::Other(String::new()),\n")
	for _, s := range g.fields {
		if s.typ == "String" {
			fmt.Fprintf(b, "            %s: String::new(),\n", s.name)
		} else {
			fmt.Fprintf(b, "            %s: None,\n", s.name)
		}
	}
	b.WriteString("            extra: BTreeMap::new(),\n        }\n    }\n\n")
}

// constructors writes new, new_trusted and one constructor a kind, each
// taking the required context fields and the kind's required fields.
func (g *gen) constructors(b *bytes.Buffer) {
	c := g.c
	var ctxParams, ctxSet []string
	for _, f := range c.RequiredContext {
		ctxParams = append(ctxParams, ", "+f.Idents.RustLocal+": &str")
		ctxSet = append(ctxSet, fmt.Sprintf("        e.%s = %s;\n", f.Idents.RustLocal, g.sanitized(f, f.Idents.RustLocal)))
	}
	b.WriteString("    /// An envelope of any kind, classified by lookup: a kind the contract does not list gets the fallback classification. The message is sanitized (sanitize), since error text so often comes from upstreams; new_trusted skips that for text the program wrote itself. Prefer the per-kind constructors, which also take the kind's required fields.\n")
	fmt.Fprintf(b, "    pub fn new(kind: Kind, message: &str%s) -> Envelope {\n        #[allow(unused_mut)]\n        let mut e = Envelope::init(kind, message, true);\n%s        e\n    }\n\n", strings.Join(ctxParams, ""), strings.Join(ctxSet, ""))
	b.WriteString("    /// new without sanitizing the message: for text the program wrote itself, never for text that came from an upstream. Every reader sanitizes every text it returns; from_slice_raw, from_json_raw and from_value_raw are the opt-out.\n")
	var ctxTrusted []string
	for _, f := range c.RequiredContext {
		ctxTrusted = append(ctxTrusted, fmt.Sprintf("        e.%s = %s.to_owned();\n", f.Idents.RustLocal, f.Idents.RustLocal))
	}
	fmt.Fprintf(b, "    pub fn new_trusted(kind: Kind, message: &str%s) -> Envelope {\n        #[allow(unused_mut)]\n        let mut e = Envelope::init(kind, message, false);\n%s        e\n    }\n\n", strings.Join(ctxParams, ""), strings.Join(ctxTrusted, ""))
	// Written in pieces: one constructor per kind.
	for _, k := range c.Kinds {
		required := k.RequiredFields()
		doc(b, "    ", "///", "A "+k.Name+" envelope. "+k.Description+" It sanitizes the message (sanitize); new_trusted and plain assignment are the opt-out for trusted text.")
		b.WriteString("    pub fn new_")
		b.WriteString(trim(k.Idents.RustLocal))
		b.WriteString("(message: &str")
		for _, p := range ctxParams {
			b.WriteString(p)
		}
		for _, f := range required {
			b.WriteString(", " + f.Idents.RustLocal + ": " + g.paramType(f))
		}
		b.WriteString(") -> Envelope {\n        #[allow(unused_mut)]\n        let mut e = Envelope::init(Kind::")
		b.WriteString(k.Idents.RustType)
		b.WriteString(", message, true);\n")
		for _, set := range ctxSet {
			b.WriteString(set)
		}
		for _, f := range required {
			b.WriteString("        e." + f.Idents.RustLocal + " = " + g.paramValue(f) + ";\n")
		}
		b.WriteString("        e\n    }\n\n")
	}
}

// setters writes a with_ setter for each envelope field.
func (g *gen) setters(b *bytes.Buffer) {
	c := g.c
	for _, f := range c.EnvelopeFields {
		typ := g.fields[g.slots[f]].typ
		pt, val := typ, "v"
		if typ == "String" {
			pt, val = "&str", g.sanitized(f, "v")
		} else {
			pt = strings.TrimSuffix(strings.TrimPrefix(typ, "Option<"), ">")
			val = "Some(v)"
		}
		fmt.Fprintf(b, "    /// Sets %s%s.\n    #[must_use]\n    pub fn with_%s(mut self, v: %s) -> Envelope {\n        self.%s = %s;\n        self\n    }\n\n",
			f.Name, map[bool]string{true: " (sanitized; assign the field for trusted text)", false: ""}[c.Sanitize.Sanitizes(f.Name) && typ == "String"], trim(f.Idents.RustLocal), pt, f.Idents.RustLocal, val)
	}
}

// slotGlue writes the methods through which the runtime's codec reads and
// writes fields by slot, and the derived flags as received.
func (g *gen) slotGlue(b *bytes.Buffer) {
	c := g.c
	b.WriteString("    /// Decodes a field's value into its slot; false when it has another type.\n    pub(crate) fn decode_slot(&mut self, slot: usize, v: &Value) -> bool {\n        match slot {\n")
	for i, s := range g.fields {
		fmt.Fprintf(b, "            %d => match Wire::from_wire(v, &FIELDS[%d]) {\n                Some(x) => {\n                    self.%s = x;\n                    true\n                }\n                None => false,\n            },\n", i, i, s.name)
	}
	b.WriteString("            _ => false,\n        }\n    }\n\n")
	b.WriteString("    /// A slot's value as the encoder writes it; None when it is absent.\n    pub(crate) fn encode_slot(&self, slot: usize, path: &str, level: usize) -> Result<Option<Out<'_>>, EncodeError> {\n        let _ = (path, level);\n        match slot {\n")
	for i, s := range g.fields {
		fmt.Fprintf(b, "            %d => self.%s.to_wire(path, level),\n", i, s.name)
	}
	b.WriteString("            _ => Ok(None),\n        }\n    }\n\n")
	b.WriteString("    /// The text of a string slot.\n    pub(crate) fn slot_text(&self, slot: usize) -> Option<&str> {\n        match slot {\n")
	for i, s := range g.fields {
		if s.text {
			fmt.Fprintf(b, "            %d => Some(&self.%s),\n", i, s.name)
		}
	}
	b.WriteString("            _ => None,\n        }\n    }\n\n")
	b.WriteString("    /// The text of a string slot, for the decoder to read a string into.\n    pub(crate) fn slot_text_mut(&mut self, slot: usize) -> Option<&mut String> {\n        match slot {\n")
	for i, s := range g.fields {
		if s.text {
			fmt.Fprintf(b, "            %d => Some(&mut self.%s),\n", i, s.name)
		}
	}
	b.WriteString("            _ => None,\n        }\n    }\n\n")
	for _, src := range []contract.Source{contract.SourceRetryable, contract.SourceMayHaveRun} {
		body := "None"
		for _, lf := range c.Layout.Leaves {
			if lf.Source == src {
				body = "self." + g.fields[g.received[lf]].name
				break
			}
		}
		fmt.Fprintf(b, "    /// The derived %s flag as received, if the layout carries one.\n    pub(crate) fn received_%s(&self) -> Option<bool> {\n        %s\n    }\n\n", src, src, body)
	}
}

// sanitized is the expression of a text argument v for field f.
func (g *gen) sanitized(f *contract.Field, v string) string {
	if g.c.Sanitize.Sanitizes(f.Name) {
		return "sanitize(" + v + ").into_owned()"
	}
	return v + ".to_owned()"
}

func (g *gen) paramType(f *contract.Field) string {
	if f.Type == contract.TypeString {
		return "&str"
	}
	return g.rustType(f, true)
}

func (g *gen) paramValue(f *contract.Field) string {
	if f.Type == contract.TypeString {
		return g.sanitized(f, f.Idents.RustLocal)
	}
	return "Some(" + f.Idents.RustLocal + ")"
}

// propType is a property's Rust type: a required scalar is always set (Go
// decodes its zero value), anything else may be absent.
func (g *gen) propType(p *contract.Field) string {
	if p.Type == contract.TypeString {
		return "String"
	}
	if p.Required && p.Type != contract.TypeArray && p.Type != contract.TypeObject {
		return g.rustType(p, true)
	}
	return g.rustType(p, false)
}

func (g *gen) propDecode(p *contract.Field) string {
	t := g.propType(p)
	if strings.HasPrefix(t, "Option<") {
		return "Some(Item::from_item(x, None)?)"
	}
	return "Item::from_item(x, None)?"
}

func (g *gen) propEncode(p *contract.Field) string {
	name, local := runtimedata.RustString(p.Name), p.Idents.RustLocal
	t := g.propType(p)
	switch {
	case t == "String" && !p.Required:
		return fmt.Sprintf("        if !self.%s.is_empty() {\n            out.push((%s, Out::Str(&self.%s)));\n        }\n", local, name, local)
	case !strings.HasPrefix(t, "Option<"):
		return fmt.Sprintf("        out.push((%s, self.%s.to_item(path, level + 1)?));\n", name, local)
	case p.Required:
		return fmt.Sprintf("        out.push((%s, match &self.%s {\n            Some(x) => x.to_item(path, level + 1)?,\n            None => Out::Null,\n        }));\n", name, local)
	case p.Type == contract.TypeArray || (p.Type == contract.TypeObject && len(p.Properties) == 0):
		return fmt.Sprintf("        if let Some(x) = self.%s.as_ref().filter(|x| !x.is_empty()) {\n            out.push((%s, x.to_item(path, level + 1)?));\n        }\n", local, name)
	default:
		return fmt.Sprintf("        if let Some(x) = &self.%s {\n            out.push((%s, x.to_item(path, level + 1)?));\n        }\n", local, name)
	}
}
