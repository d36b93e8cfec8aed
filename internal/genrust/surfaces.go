package genrust

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/runtimedata"
)

// The surfaces (runtime/rust/src/surfaces.rs: MCP tool results, HTTP, the
// command line) are the same for every contract; what differs is printed
// here into src/contract.rs: the problem type base, the CLI's form and exit
// codes, how a failed response without an envelope gets its kind, and the
// short form the HTTP reader accepts. The Go package's surfaces.go decides
// the same things in internal/gengo/surfaces.go.

// surfaceTables is the part of src/contract.rs that surfaces.rs reads.
func (g *gen) surfaceTables() string {
	c := g.c
	var b bytes.Buffer
	b.WriteString("\n// The surfaces' tables (see surfaces.rs).\n\n")
	fmt.Fprintf(&b, "/// The RFC 9457 problem type URI of a kind is this base followed by the kind (problem_type).\npub const PROBLEM_TYPE_BASE: &str = %s;\n\n", runtimedata.RustString(c.Surfaces.ProblemTypeBase))

	cli := c.Surfaces.CLI
	fmt.Fprintf(&b, "/// The exit status of a failure whose kind's origin the contract gives no exit code of its own (Envelope::exit_code).\npub const DEFAULT_EXIT_CODE: i32 = %d;\n\n", cli.DefaultExitCode)
	b.WriteString(originCodeFn(c, "/// The exit code the contract gives an origin, else DEFAULT_EXIT_CODE.", "origin_exit_code", "DEFAULT_EXIT_CODE", cli.ExitCodes))
	mcp := c.Surfaces.MCP
	fmt.Fprintf(&b, "/// The JSON-RPC error code of an MCP protocol error whose kind's origin the contract gives no code of its own (Envelope::mcp_error_code).\npub const DEFAULT_MCP_ERROR_CODE: i32 = %d;\n\n", mcp.DefaultErrorCode)
	b.WriteString(originCodeFn(c, "/// The JSON-RPC error code the contract gives an origin's protocol errors, else DEFAULT_MCP_ERROR_CODE.", "origin_mcp_error_code", "DEFAULT_MCP_ERROR_CODE", mcp.ErrorCodes))
	b.WriteString("/// The JSON-RPC error code a kind gives its own protocol errors (mcp_error_code), ahead of its origin's; None for the others.\npub(crate) fn kind_mcp_error_code(kind: &Kind) -> Option<i32> {\n")
	var kindArms []string
	for _, k := range c.Kinds {
		if k.MCPErrorCode != nil {
			kindArms = append(kindArms, fmt.Sprintf("        Kind::%s => Some(%d),\n", k.Idents.RustType, *k.MCPErrorCode))
		}
	}
	if len(kindArms) == 0 {
		b.WriteString("    let _ = kind;\n    None\n}\n\n")
	} else {
		b.WriteString("    match kind {\n" + strings.Join(kindArms, "") + "        _ => None,\n    }\n}\n\n")
	}
	metaKey := "None"
	if mcp.MetaKey != "" {
		metaKey = "Some(" + runtimedata.RustString(mcp.MetaKey) + ")"
	}
	fmt.Fprintf(&b, "/// The _meta key under which every isError tool result carries the envelope too; None when the contract names none.\npub const MCP_META_KEY: Option<&str> = %s;\n\n", metaKey)
	fmt.Fprintf(&b, "/// Whether the CLI form is labby's wrapped {\"ok\": false, \"command\": ..., \"error\": envelope} (else the envelope itself).\npub(crate) const CLI_WRAPPED: bool = %t;\n\n", cli.Form == contract.CLIWrapped)

	if in := c.Inbound; in != nil {
		fmt.Fprintf(&b, "/// The kind of a failed HTTP response without an envelope: the %s classifier's answer for its status and body text.\npub(crate) fn http_kind(status: u16, text: &str) -> Kind {\n    classify(&Upstream { status: i64::from(status), failure: None, text }).kind\n}\n\n", in.Classifiers[0].Name)
	} else {
		doc(&b, "", "///", fmt.Sprintf("The kind of a failed HTTP response without an envelope, for a contract without an inbound classifier. A producer of this contract always sends an envelope, so such a response comes from something else on the way (a proxy, a load balancer). The status names a kind only when exactly one kind of the contract has it; any other status becomes a kind named after it (%s), which the contract does not list: it classifies with the fallback and keeps the status visible.", c.SyntheticKind(502)))
		b.WriteString("pub(crate) fn http_kind(status: u16, text: &str) -> Kind {\n    let _ = text;\n    match status {\n")
		for _, k := range c.HTTPKinds {
			fmt.Fprintf(&b, "        %d => Kind::%s,\n", k.HTTP, k.Idents.RustType)
		}
		fmt.Fprintf(&b, "        _ => Kind::from(format!(\"{}{}\", %s, status)),\n    }\n}\n\n", runtimedata.RustString(c.SyntheticKindPrefix()))
	}

	fmt.Fprintf(&b, "/// The JSON text of the schema mcp_output_schema admits beside a tool's success schema: the consumer schema of the envelope without its descriptions (mcp_error_schema returns it as a Value).\npub(crate) const MCP_ERROR_SCHEMA_JSON: &str = %s;\n\n", runtimedata.RustString(string(g.mcpErrorSchema)))

	tool := "None"
	if c.Inbound != nil && c.Inbound.ToolResult != nil {
		tool = fmt.Sprintf("Some(Classified { kind: Kind::%s, counts_toward_breaker: false, rule: 0 })", c.Inbound.ToolResult.Idents.RustType)
	}
	fmt.Fprintf(&b, "/// The classification of a completed MCP tool result flagged as an error (isError: true), as classify_tool_result answers it; None where the contract classifies none.\npub const TOOL_RESULT: Option<Classified> = %s;\n\n", tool)

	b.WriteString("/// labby's short form of an error body, which the HTTP reader accepts; None where the layout is not labby's.\npub(crate) static SHORT_FORM: Option<crate::surfaces::ShortForm> = ")
	sf := c.ShortForm()
	if sf == nil {
		b.WriteString("None;\n")
		return b.String()
	}
	var empty []string
	for _, e := range sf.Empty {
		var fields []string
		for _, f := range e.Fields {
			fields = append(fields, fmt.Sprintf("(%d, %s)", g.slotByName(f.Name), rustTypes[f.Type].variant))
		}
		empty = append(empty, fmt.Sprintf("        (%s, &[%s]),\n", runtimedata.RustString(e.Kind.Name), strings.Join(fields, ", ")))
	}
	emptyText := "&[]"
	if len(empty) > 0 {
		emptyText = "&[\n" + strings.Join(empty, "") + "    ]"
	}
	fmt.Fprintf(&b, "Some(crate::surfaces::ShortForm {\n    kind_member: %s,\n    message_member: %s,\n    kind_pattern: %s,\n    max_kind_bytes: %d,\n    empty_fields: %s,\n});\n",
		runtimedata.RustString(sf.KindMember), runtimedata.RustString(sf.MessageMember), namePattern(sf.KindPattern), contract.ShortFormMaxKind, emptyText)
	return b.String()
}

// slotByName is the slot of the envelope field named name: a kind's own
// declaration of a field shared by several kinds is not the pointer the
// slots are keyed by.
func (g *gen) slotByName(name string) int {
	for f, s := range g.slots {
		if f.Name == name {
			return s
		}
	}
	panic("genrust: no envelope field " + name)
}

// surfaceGlue is the part of the Envelope's impl in src/envelope.rs that
// surfaces.rs calls: the HTTP writer's last resort for an envelope that
// does not encode, as the Go package's httpBody clears the same fields.
func (g *gen) surfaceGlue() string {
	var b bytes.Buffer
	b.WriteString("    /// Clears every context and kind-specific field the layout does not require: the HTTP writer's last resort for an envelope that does not encode.\n    pub(crate) fn clear_optional_fields(&mut self) {\n")
	for _, f := range g.c.EnvelopeFields {
		if g.c.Layout.RequiredLeaf(f) != nil {
			continue // a string, which always encodes, and the envelope needs it
		}
		zero := "None"
		if g.fields[g.slots[f]].typ == "String" {
			zero = "String::new()"
		}
		fmt.Fprintf(&b, "        self.%s = %s;\n", f.Idents.RustLocal, zero)
	}
	b.WriteString("    }\n\n")
	return b.String()
}

// namePatternRe reads the kind naming patterns errgen knows (see
// contract.KindPattern): a first character class, a class repeated, and
// optionally runs of that class joined by a separator (a character or a
// class).
var namePatternRe = regexp.MustCompile(`^\^\[([^\]]+)\]\[([^\]]+)\]\*(?:\((\[[^\]]+\]|[^\[\]()*+]+)\[([^\]]+)\]\+\)\*)?\$$`)

// namePattern prints a kind pattern as a NamePattern literal, so that the
// crate matches kind names without a regular expression engine.
func namePattern(p string) string {
	first, rest, seps := nameClasses(p)
	return fmt.Sprintf("crate::surfaces::NamePattern { first: %s, rest: %s, separators: b%s }", rangesLit(first), rangesLit(rest), strconv.Quote(string(seps)))
}

// nameClasses reads a kind pattern into NamePattern's parts: the first
// character's class, the class of the rest, and the separators. A pattern
// of another shape is a change to errgen's own patterns that this printer
// must learn first.
func nameClasses(p string) (first, rest string, seps []byte) {
	m := namePatternRe.FindStringSubmatch(p)
	if m == nil || (m[4] != "" && m[4] != m[2]) {
		panic("genrust: a kind pattern of a shape the Rust printer does not know: " + p)
	}
	for _, r := range byteRanges(strings.TrimSuffix(strings.TrimPrefix(m[3], "["), "]")) {
		for c := r[0]; c <= r[1]; c++ {
			seps = append(seps, c)
		}
	}
	return m[1], m[2], seps
}

// byteRanges reads a character class body (a-z0-9, -_) as ASCII ranges.
func byteRanges(class string) [][2]byte {
	var out [][2]byte
	for i := 0; i < len(class); i++ {
		if i+2 < len(class) && class[i+1] == '-' {
			out = append(out, [2]byte{class[i], class[i+2]})
			i += 2
			continue
		}
		out = append(out, [2]byte{class[i], class[i]})
	}
	return out
}

func rangesLit(class string) string {
	var parts []string
	for _, r := range byteRanges(class) {
		parts = append(parts, fmt.Sprintf("(b'%c', b'%c')", r[0], r[1]))
	}
	return "&[" + strings.Join(parts, ", ") + "]"
}

// originCodeFn is a Rust function from an origin to the code codes gives it
// (an exit code, a JSON-RPC error code), else the constant named fallback.
func originCodeFn(c *contract.Contract, doc, name, fallback string, codes map[*contract.Origin]int) string {
	head := doc + "\npub(crate) fn " + name + "(origin: &Origin) -> i32 {\n"
	var arms []string
	for _, o := range c.Origins {
		if code, ok := codes[o]; ok {
			arms = append(arms, fmt.Sprintf("        Origin::%s => %d,\n", o.Idents.RustType, code))
		}
	}
	if len(arms) == 0 {
		return head + "    let _ = origin;\n    " + fallback + "\n}\n\n"
	}
	return head + "    match origin {\n" + strings.Join(arms, "") + "        _ => " + fallback + ",\n    }\n}\n\n"
}
