//! The surfaces of the envelope: an MCP tool result, HTTP (the status,
//! Retry-After, the RFC 9457 problem document, a response with Accept
//! negotiation and the reader of a failed response) and the command line
//! (the exit code and one JSON line). Each mirrors the Go package
//! (ToolResult / FromToolResult, Problem / WriteHTTP / ReadHTTP, ExitCode /
//! WriteCLI / ReadCLI) and reads the contract's tables in src/contract.rs,
//! so the same text is the same for every contract. std only: the optional
//! `http` feature adds conversions to and from the http crate's types.

use std::borrow::Cow;
use std::io;

use serde_json::{Map, Value};

use crate::codec::{
    DecodeError, DecodeErrorCategory, DecodeOptions, EncodeError, MAX_SAFE_INTEGER,
};
use crate::contract::{
    classification_of, http_kind, kind_mcp_error_code, origin_exit_code, origin_mcp_error_code,
    Kind, CLI_WRAPPED, CRATE_NAME, LAYOUT, MCP_ERROR_SCHEMA_JSON, MCP_META_KEY, PROBLEM_TYPE_BASE,
    RETRY, SHORT_FORM,
};
use crate::envelope::Envelope;
use crate::json;
use crate::spec::{Const, FieldType, Member, Source};

/// The top-level member a reader adds to an envelope it built from labby's
/// short form of an error body (`{"kind": ..., "message": ...}`): the advice
/// is then the contract's classification of the kind, not the producer's.
/// No field of a contract can take the name (field names start with a
/// letter), so it travels in extra and survives encoding and decoding.
pub const PROMOTED_MEMBER: &str = "_promoted_from";

/// PROMOTED_MEMBER's value for labby's short form.
pub const PROMOTED_SHORT_FORM: &str = "short_form";

/// The media type of an envelope on HTTP.
pub const MEDIA_TYPE_JSON: &str = "application/json";

/// The media type of an RFC 9457 problem document.
pub const MEDIA_TYPE_PROBLEM: &str = "application/problem+json";

/// How much of a response body Envelope::read_http reads as an envelope,
/// 1 MiB. An envelope is a few kilobytes, while an error page from a proxy,
/// or a broken or hostile server, can be arbitrarily large or never end:
/// read at most MAX_HTTP_BODY + 1 bytes of a body and pass them on; a longer
/// body is not read as an envelope.
pub const MAX_HTTP_BODY: usize = 1 << 20;

/// How much of a body's text (in bytes) an envelope built from a response
/// quotes in its message.
const MAX_HTTP_TEXT: usize = 512;

/// The members RFC 9457 defines, in the order problem writes them.
const PROBLEM_MEMBERS: [&str; 5] = ["type", "title", "status", "detail", "instance"];

/// The problem title of a kind this contract version does not define: RFC
/// 9457 wants a title that does not change between occurrences.
const UNKNOWN_KIND_TITLE: &str = "Error of a kind this contract version does not define";

/// The members of the wrapped CLI form, labby's
/// `{"ok": false, "command": ..., "error": envelope}`.
const CLI_OK: &str = "ok";
const CLI_COMMAND: &str = "command";
const CLI_ERROR: &str = "error";

/// labby's short form of an error body, as the contract's tables describe
/// it (SHORT_FORM in src/contract.rs; None where the contract's layout is
/// not labby's).
#[derive(Debug)]
#[allow(dead_code)] // a contract without a short form reads none
pub(crate) struct ShortForm {
    pub kind_member: &'static str,
    pub message_member: &'static str,
    pub kind_pattern: NamePattern,
    pub max_kind_bytes: usize,
    /// The kinds with required fields that have an empty value, with the
    /// slots and types of those fields.
    pub empty_fields: &'static [(&'static str, &'static [(usize, FieldType)])],
}

/// The naming pattern every kind name of the contract matches, as ASCII
/// byte ranges: a first character, then characters of rest, in runs that
/// separators may join (each followed by at least one of rest). It is the
/// contract's KindPattern regular expression, which every pattern errgen
/// knows has the shape of.
#[derive(Debug)]
#[allow(dead_code)]
pub(crate) struct NamePattern {
    pub first: &'static [(u8, u8)],
    pub rest: &'static [(u8, u8)],
    pub separators: &'static [u8],
}

impl NamePattern {
    fn matches(&self, s: &str) -> bool {
        let class = |c: u8, ranges: &[(u8, u8)]| ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi);
        let b = s.as_bytes();
        let Some((&first, rest)) = b.split_first() else {
            return false;
        };
        if !class(first, self.first) {
            return false;
        }
        let mut after_separator = false;
        for &c in rest {
            if class(c, self.rest) {
                after_separator = false;
            } else if self.separators.contains(&c) && !after_separator {
                after_separator = true;
            } else {
                return false;
            }
        }
        !after_separator
    }
}

/// The RFC 9457 problem type URI of kind: PROBLEM_TYPE_BASE followed by the
/// kind.
pub fn problem_type(kind: &Kind) -> String {
    format!("{PROBLEM_TYPE_BASE}{}", kind.as_str())
}

/// What Envelope::write_http answers a request with: the status, the
/// headers in the order written, and the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    /// The HTTP status.
    pub status: u16,
    /// The response headers, names as written (Content-Type, Vary,
    /// Retry-After).
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The first value of the header name, matched ignoring ASCII case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn decode_err(
    path: &str,
    problem: impl Into<String>,
    category: DecodeErrorCategory,
) -> DecodeError {
    DecodeError {
        path: path.to_owned(),
        problem: problem.into(),
        category,
    }
}

/// The JSON object of a document, as the Go package's decodeObject reads
/// one: any other value is a type error.
pub(crate) fn object(v: Value) -> Result<Map<String, Value>, DecodeError> {
    match v {
        Value::Object(m) => Ok(m),
        Value::Null => Err(decode_err(
            "",
            "must be a JSON object, not null",
            DecodeErrorCategory::Type,
        )),
        _ => Err(decode_err(
            "",
            "must be a JSON object",
            DecodeErrorCategory::Type,
        )),
    }
}

fn const_value(c: Const) -> Value {
    match c {
        Const::Str(s) => Value::from(s),
        Const::Int(i) => Value::from(i),
        Const::Float(f) => Value::from(f),
        Const::Bool(b) => Value::from(b),
    }
}

/// The schema mcp_output_schema admits beside a tool's success schema: the
/// consumer schema of this contract's envelope (any kind, open
/// vocabularies, unknown members allowed) without its descriptions, with no
/// $ref.
pub fn mcp_error_schema() -> Value {
    // errgen wrote the text from a schema it built, so it parses.
    json::parse(MCP_ERROR_SCHEMA_JSON.as_bytes()).unwrap_or(Value::Null)
}

/// The members of a success schema that stay at the top of the widened
/// schema: its dialect, base URI and definitions.
const SCHEMA_ROOT_MEMBERS: [&str; 4] = ["$schema", "$id", "$defs", "definitions"];

/// Widens a tool's success outputSchema to "the success shape or this
/// contract's envelope": {"type": "object", "anyOf": [success,
/// mcp_error_schema()]}, for the tool's advertised outputSchema, so that a
/// client that checks an error result's structuredContent against it (the
/// 1.x TypeScript SDK's Client.callTool) accepts to_tool_result's results.
/// The success branch keeps every constraint; its $schema, $id, $defs and
/// definitions move to the top, and its other local references ("#",
/// "#/properties/...") are rewritten to point into the branch.
pub fn mcp_output_schema(success: &Map<String, Value>) -> Value {
    let mut branch = success.clone();
    let mut top = Map::new();
    for name in SCHEMA_ROOT_MEMBERS {
        if let Some(v) = branch.remove(name) {
            top.insert(name.to_owned(), v);
        }
    }
    let mut branch = Value::Object(branch);
    rebase_refs(&mut branch);
    top.insert("type".to_owned(), Value::from("object"));
    top.insert(
        "anyOf".to_owned(),
        Value::Array(vec![branch, mcp_error_schema()]),
    );
    Value::Object(top)
}

/// Rewrites the local references of a success schema moved to anyOf/0, but
/// those into its definitions, which stay at the top. The values of const,
/// enum, default and examples are data, not schemas: a "$ref" in them is
/// left as it is.
fn rebase_refs(v: &mut Value) {
    match v {
        Value::Array(items) => items.iter_mut().for_each(rebase_refs),
        Value::Object(members) => {
            for (k, e) in members.iter_mut() {
                match (k.as_str(), &*e) {
                    ("$ref", Value::String(s)) => {
                        if s == "#"
                            || (s.starts_with("#/")
                                && !s.starts_with("#/$defs/")
                                && !s.starts_with("#/definitions/"))
                        {
                            *e = Value::from(format!("#/anyOf/0{}", &s[1..]));
                        }
                    }
                    ("const" | "enum" | "default" | "examples", _) => {}
                    _ => rebase_refs(e),
                }
            }
        }
        _ => {}
    }
}

impl Envelope {
    // --- MCP -----------------------------------------------------------

    /// The envelope as the result of a failed MCP tool call (a
    /// CallToolResult): isError true, the envelope's JSON as the one text
    /// content item, for hosts that read only content, and as
    /// structuredContent. The error is to_json's.
    pub fn to_tool_result(&self) -> Result<Value, EncodeError> {
        let text = self.to_json()?;
        // The encoder's own output, which its parser reads back.
        let structured = json::parse(text.as_bytes()).unwrap_or(Value::Null);
        let mut item = Map::new();
        item.insert("type".to_owned(), Value::from("text"));
        item.insert("text".to_owned(), Value::from(text));
        let mut out = Map::new();
        out.insert(
            "content".to_owned(),
            Value::Array(vec![Value::Object(item)]),
        );
        with_meta(&mut out, &structured);
        out.insert("structuredContent".to_owned(), structured);
        out.insert("isError".to_owned(), Value::Bool(true));
        Ok(Value::Object(out))
    }

    /// to_tool_result for a failed call whose upstream sent structured
    /// content of its own: the structuredContent is `{"error": envelope,
    /// "upstream_structured_content": upstream}`, so the original is kept
    /// (labby's form); the text content and _meta are to_tool_result's.
    /// With upstream null (MCP's structuredContent is an object: the
    /// upstream sent none) it is to_tool_result's result.
    /// from_tool_result reads the envelope back,
    /// mcp_upstream_structured_content the original. The error is to_json's.
    pub fn to_upstream_tool_result(&self, upstream: Value) -> Result<Value, EncodeError> {
        let mut out = self.to_tool_result()?;
        if upstream.is_null() {
            return Ok(out);
        }
        if let Value::Object(r) = &mut out {
            let env = r.remove("structuredContent").unwrap_or(Value::Null);
            let mut sc = Map::new();
            sc.insert(UPSTREAM_ERROR.to_owned(), env);
            sc.insert(UPSTREAM_CONTENT.to_owned(), upstream);
            r.insert("structuredContent".to_owned(), Value::Object(sc));
        }
        Ok(out)
    }

    /// The JSON-RPC error code of the failure as an MCP protocol error: the
    /// kind's own (mcp_error_code), else the code the contract gives the origin of the kind's classification (a
    /// kind the contract does not list has the fallback's origin), else
    /// DEFAULT_MCP_ERROR_CODE.
    pub fn mcp_error_code(&self) -> i32 {
        kind_mcp_error_code(&self.kind)
            .unwrap_or_else(|| origin_mcp_error_code(&classification_of(&self.kind).origin))
    }

    /// The envelope as the error of a failed MCP protocol request (a
    /// prompt, a resource, a bridge): the JSON-RPC error object (MCP's
    /// ErrorData) with code mcp_error_code(), message the envelope's
    /// message and data the envelope. The error is to_json's.
    pub fn to_mcp_error(&self) -> Result<Value, EncodeError> {
        let text = self.to_json()?;
        let mut out = Map::new();
        out.insert("code".to_owned(), Value::from(self.mcp_error_code()));
        out.insert("message".to_owned(), Value::from(self.message.clone()));
        // The encoder's own output, which its parser reads back.
        out.insert(
            "data".to_owned(),
            json::parse(text.as_bytes()).unwrap_or(Value::Null),
        );
        Ok(Value::Object(out))
    }

    /// The whole JSON-RPC response of to_mcp_error for the request with the
    /// given id (a string or a number; null when the request's id could not
    /// be read). The error is to_json's.
    pub fn to_mcp_error_response(&self, id: Value) -> Result<Value, EncodeError> {
        let mut out = Map::new();
        out.insert("jsonrpc".to_owned(), Value::from("2.0"));
        out.insert("id".to_owned(), id);
        out.insert("error".to_owned(), self.to_mcp_error()?);
        Ok(Value::Object(out))
    }

    /// Reads the envelope of a JSON-RPC error: the error object (MCP's
    /// ErrorData) or the whole response, whose error member it is. The
    /// envelope is the error's data member, decoded and sanitized as
    /// from_value decodes one; the code and message are not looked at. The
    /// value is held to the limits every decoder shares, the envelope
    /// counting as the first level in both forms. An error without data (or
    /// with null) is a Missing error with path "data".
    pub fn from_mcp_error(value: &Value) -> Result<Envelope, DecodeError> {
        let Value::Object(obj) = value else {
            return Err(decode_err(
                "",
                if value.is_null() {
                    "must be a JSON object, not null"
                } else {
                    "must be a JSON object"
                },
                DecodeErrorCategory::Type,
            ));
        };
        // A response holds its error object one level further out.
        let response = obj.contains_key("error") && !obj.contains_key("code");
        if !within_below(value, if response { 2 } else { 1 }) {
            return Err(decode_err(
                "",
                format!(
                    "nests arrays and objects more than {} levels deep",
                    crate::codec::MAX_DEPTH
                ),
                DecodeErrorCategory::Syntax,
            ));
        }
        let (obj, path) = if response {
            match obj.get("error") {
                Some(Value::Object(e)) => (e, "error.data"),
                Some(Value::Null) => {
                    return Err(decode_err(
                        "error",
                        "must be a JSON object, not null",
                        DecodeErrorCategory::Type,
                    ))
                }
                _ => {
                    return Err(decode_err(
                        "error",
                        "must be a JSON object",
                        DecodeErrorCategory::Type,
                    ))
                }
            }
        } else {
            (obj, "data")
        };
        match obj.get("data") {
            None | Some(Value::Null) => Err(decode_err(
                path,
                "is required: a JSON-RPC error carries the envelope in its data",
                DecodeErrorCategory::Missing,
            )),
            Some(data) => Envelope::from_value(data),
        }
    }

    /// to_tool_result without structuredContent: the envelope's JSON as the
    /// one text content item only. A client that checks an error result's
    /// structuredContent against the tool's outputSchema (the 1.x
    /// TypeScript SDK's) accepts it whatever the schema; from_tool_result
    /// reads it from the text. The error is to_json's.
    pub fn to_text_tool_result(&self) -> Result<Value, EncodeError> {
        let text = self.to_json()?;
        let mut out = Map::new();
        if MCP_META_KEY.is_some() {
            // The encoder's own output, which its parser reads back.
            let structured = json::parse(text.as_bytes()).unwrap_or(Value::Null);
            with_meta(&mut out, &structured);
        }
        let mut item = Map::new();
        item.insert("type".to_owned(), Value::from("text"));
        item.insert("text".to_owned(), Value::from(text));
        out.insert(
            "content".to_owned(),
            Value::Array(vec![Value::Object(item)]),
        );
        out.insert("isError".to_owned(), Value::Bool(true));
        Ok(Value::Object(out))
    }

    /// Reads the envelope of an MCP tool result (a CallToolResult as JSON):
    /// its structuredContent when that is an envelope (or keeps an
    /// upstream's own beside it, as to_upstream_tool_result writes it: the
    /// envelope is its error member), else the first text
    /// content item that is (trimmed of JSON's white space only, as read_cli
    /// trims a line). It does not look at isError. When no envelope
    /// is found, the error is the first decoding problem met (category
    /// missing when there was nothing to decode).
    pub fn from_tool_result(result: &Value) -> Result<Envelope, DecodeError> {
        let Value::Object(r) = result else {
            return Err(decode_err(
                "",
                "tool result must be an object",
                DecodeErrorCategory::Type,
            ));
        };
        let mut first = None;
        let sc = r.get("structuredContent");
        let sc = sc.and_then(upstream_wrapped).map(|(e, _)| e).or(sc);
        if let Some(sc) = sc.filter(|v| !v.is_null()) {
            match Envelope::from_value(sc) {
                Ok(e) => return Ok(e),
                Err(err) => first = Some(err),
            }
        }
        if let Some(Value::Array(items)) = r.get("content") {
            for item in items {
                if item.get("type").and_then(Value::as_str) != Some("text") {
                    continue;
                }
                let Some(text) = item.get("text").and_then(Value::as_str) else {
                    continue;
                };
                match Envelope::from_slice(trim_json_space(text.as_bytes())) {
                    Ok(e) => return Ok(e),
                    Err(err) => {
                        first.get_or_insert(err);
                    }
                }
            }
        }
        Err(first.unwrap_or_else(|| {
            decode_err(
                "",
                "tool result carries no envelope",
                DecodeErrorCategory::Missing,
            )
        }))
    }

    /// The form a reader promoted the envelope from, as
    /// `extra[PROMOTED_MEMBER]` records it (PROMOTED_SHORT_FORM), whether set
    /// by read_http or decoded from an envelope encoded after it; "" for an
    /// envelope its producer sent whole.
    pub fn promoted_from(&self) -> &str {
        self.extra
            .get(PROMOTED_MEMBER)
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    // --- HTTP ----------------------------------------------------------

    /// The retry hint as a Retry-After header value: whole seconds, rounded
    /// up so a client never retries early; None without a hint or with a
    /// negative one.
    pub fn retry_after_seconds(&self) -> Option<i64> {
        match self.recovery.retry_after_ms {
            Some(ms) if ms > 0 => Some((ms - 1) / 1000 + 1),
            Some(0) => Some(0),
            _ => None,
        }
    }

    /// The envelope as an RFC 9457 problem document: type is
    /// problem_type(kind), title the kind's description (a generic title for
    /// a kind this contract version does not define), status the kind's HTTP
    /// status, detail the message and instance the given URI reference (left
    /// out when empty). The envelope's own top-level members follow as
    /// extension members, in wire order, so a reader gets the envelope back
    /// (from_problem); an envelope member, or a top-level extra entry, named
    /// like a problem member gives way to it. The error is to_json's.
    pub fn problem(&self, instance: &str) -> Result<String, EncodeError> {
        let mut env = Vec::with_capacity(512);
        self.append_json(&mut env)?;
        let c = classification_of(&self.kind);
        let title = if c.known {
            c.description
        } else {
            UNKNOWN_KIND_TITLE
        };
        let mut b =
            Vec::with_capacity(env.len() + title.len() + self.message.len() + instance.len() + 160);
        b.extend_from_slice(b"{\"type\":");
        json::write_str(&mut b, &problem_type(&self.kind));
        b.extend_from_slice(b",\"title\":");
        json::write_str(&mut b, title);
        b.extend_from_slice(b",\"status\":");
        b.extend_from_slice(c.http_status.to_string().as_bytes());
        b.extend_from_slice(b",\"detail\":");
        json::write_str(&mut b, &self.message);
        if !instance.is_empty() {
            b.extend_from_slice(b",\"instance\":");
            json::write_str(&mut b, instance);
        }
        for (name, raw) in top_members(&env).unwrap_or_default() {
            if PROBLEM_MEMBERS.contains(&name.as_ref()) {
                continue;
            }
            b.push(b',');
            json::write_str(&mut b, &name);
            b.push(b':');
            b.extend_from_slice(raw);
        }
        b.push(b'}');
        // Only valid UTF-8 was written.
        Ok(String::from_utf8(b).unwrap_or_default())
    }

    /// Reads an envelope back from the problem document problem renders:
    /// the problem members are dropped, the envelope members they replaced
    /// are restored where the problem says what they were (the kind from
    /// the problem type, the message from detail, a layout constant, the
    /// contract version, the rest from the kind's classification), and the
    /// remaining members are decoded as the envelope.
    pub fn from_problem(data: &[u8]) -> Result<Envelope, DecodeError> {
        from_problem(json::parse(data)?)
    }

    /// The answer to an HTTP request for this failure, as the Go package's
    /// WriteHTTP writes it. accept holds the request's Accept header values
    /// (empty when it has none). The status is http_status(); a retry hint
    /// becomes a Retry-After header (retry_after_seconds). The body is the
    /// envelope (Content-Type: application/json) unless Accept ranks
    /// application/problem+json above application/json (RFC 9110, section
    /// 12.5.1), in which case it is problem("") (Content-Type:
    /// application/problem+json); a missing Accept header, */*, a tie and an
    /// Accept header naming neither type all get the envelope, and Vary:
    /// Accept says the choice depends on it.
    ///
    /// An envelope that does not encode (a number JSON cannot carry, an
    /// extra value nested too deeply) is sent without its extra entries and
    /// the context and kind-specific fields the layout does not require
    /// rather than not at all; one that still does not encode (an empty
    /// field the layout requires) goes out with its status and headers but
    /// no body. A negative retry hint is left out; one past
    /// MAX_SAFE_INTEGER (set by hand: the producers clamp hints to
    /// RETRY.max_hint_ms), which no encoder writes, is sent as
    /// MAX_SAFE_INTEGER, in the Retry-After header and the body alike, as
    /// every language's HTTP writer sends it. An envelope without a kind,
    /// which no client could read, is answered with a plain-text 500.
    pub fn write_http(&self, accept: &[&str]) -> HttpResponse {
        if self
            .recovery
            .retry_after_ms
            .is_some_and(|ms| ms > MAX_SAFE_INTEGER)
        {
            let mut clamped = self.clone();
            clamped.recovery.retry_after_ms = Some(MAX_SAFE_INTEGER);
            return clamped.write_http(accept);
        }
        if self.kind.as_str().is_empty() {
            return HttpResponse {
                status: 500,
                headers: vec![
                    ("Content-Type", "text/plain; charset=utf-8".to_owned()),
                    ("X-Content-Type-Options", "nosniff".to_owned()),
                ],
                body: format!("{CRATE_NAME}: the error envelope has no kind\n").into_bytes(),
            };
        }
        let problem = prefers_problem(accept);
        let media = if problem {
            MEDIA_TYPE_PROBLEM
        } else {
            MEDIA_TYPE_JSON
        };
        let mut headers = vec![
            ("Content-Type", media.to_owned()),
            ("Vary", "Accept".to_owned()),
        ];
        if let Some(s) = self.retry_after_seconds() {
            headers.push(("Retry-After", s.to_string()));
        }
        HttpResponse {
            status: self.http_status(),
            headers,
            body: self.http_body(problem),
        }
    }

    /// The body write_http sends.
    fn http_body(&self, problem: bool) -> Vec<u8> {
        let render = |e: &Envelope| {
            if problem {
                e.problem("").map(String::into_bytes)
            } else {
                e.to_json().map(String::into_bytes)
            }
        };
        if let Ok(b) = render(self) {
            return b;
        }
        let mut safe = self.clone();
        safe.extra.clear();
        if safe.recovery.retry_after_ms.is_some_and(|ms| ms < 0) {
            safe.recovery.retry_after_ms = None;
        }
        safe.clear_optional_fields();
        render(&safe).unwrap_or_default()
    }

    /// Reads the envelope of a failed HTTP response from its status, its
    /// headers (name and value pairs, names matched ignoring ASCII case, the
    /// first match winning) and its body, as the Go package's ReadHTTP does.
    /// A JSON body (application/json, application/problem+json, another
    /// +json type, or no Content-Type and a body that opens an object) that
    /// decodes as an envelope, directly or as the problem document problem
    /// renders, is returned as it is (what the contract sanitizes
    /// sanitized, as from_slice sanitizes it).
    ///
    /// Where the contract reads labby's short form, a JSON body of a failed
    /// response (status 300 or more) that is neither, but an object whose
    /// kind member is a string of at most 128 bytes matching the contract's
    /// kind names and whose message member is a string, yields an envelope
    /// that keeps that kind and message: the message sanitized as the
    /// constructors sanitize one (empty or blank, it becomes
    /// `"HTTP <status> <status text>"`), the advice classified from the kind
    /// (the fallback for a kind the contract does not list, never from the
    /// status), the kind's required collections empty, and
    /// `extra[PROMOTED_MEMBER]` set to PROMOTED_SHORT_FORM (promoted_from).
    /// Any other member of the short form is ignored.
    ///
    /// Any other body (not JSON, not an envelope, empty, or longer than
    /// MAX_HTTP_BODY) yields an envelope built from the response: the
    /// contract's first inbound classifier picks the kind from the status
    /// and the body's text (without one: the only kind with that status,
    /// else one named after it); the message is
    /// `"HTTP <status> <status text>"` followed by the start of the body's
    /// text. Such an envelope carries no context: a context field the layout
    /// requires is for the caller to set before passing it on.
    ///
    /// A Retry-After header (delay seconds, or an HTTP date measured from
    /// the Date header when there is one; the first value of a repeated
    /// one) fills the retry hint when the body carried none. A response
    /// below 300 without an envelope is an error (category missing): there
    /// is no failure to report.
    pub fn read_http(
        status: u16,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Envelope, DecodeError> {
        let header = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map_or("", |(_, v)| *v)
        };
        let mut body = body;
        let mut e = None;
        if body.len() <= MAX_HTTP_BODY {
            e = envelope_from_body(header("content-type"), body, status);
        } else {
            body = &body[..MAX_HTTP_BODY];
        }
        let mut e = match e {
            Some(e) => e,
            None if status < 300 => {
                return Err(decode_err(
                    "",
                    format!("HTTP {status} response carries no envelope"),
                    DecodeErrorCategory::Missing,
                ))
            }
            None => {
                let mut e = classify_http(status, body);
                if let Some(slot) = crate::contract::HTTP_STATUS_SLOT {
                    // surfaces.http.status_field: the envelope keeps the
                    // response's status.
                    e.decode_slot(slot, &Value::from(status));
                }
                e
            }
        };
        if e.recovery.retry_after_ms.is_none() {
            e.recovery.retry_after_ms =
                parse_retry_after(header("retry-after"), Some(header("date")));
        }
        Ok(e)
    }

    // --- CLI -----------------------------------------------------------

    /// The exit status a command line reports the failure with: the exit
    /// code the contract gives the origin of the kind's classification (a
    /// kind the contract does not list has the fallback's origin), else the
    /// contract's default.
    pub fn exit_code(&self) -> i32 {
        origin_exit_code(&classification_of(&self.kind).origin)
    }

    /// Writes the failure as one JSON line in the contract's CLI form:
    /// labby's wrapped `{"ok":false,"command":command,"error":envelope}`,
    /// or the envelope itself (command is then not written). An envelope
    /// that does not encode is an error of kind InvalidData carrying the
    /// EncodeError, and nothing is written.
    pub fn write_cli<W: io::Write + ?Sized>(&self, w: &mut W, command: &str) -> io::Result<()> {
        let mut env = Vec::with_capacity(512);
        self.append_json(&mut env)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        if !CLI_WRAPPED {
            env.push(b'\n');
            return w.write_all(&env);
        }
        let mut b = Vec::with_capacity(env.len() + command.len() + 48);
        b.push(b'{');
        json::write_str(&mut b, CLI_OK);
        b.extend_from_slice(b":false,");
        json::write_str(&mut b, CLI_COMMAND);
        b.push(b':');
        json::write_str(&mut b, command);
        b.push(b',');
        json::write_str(&mut b, CLI_ERROR);
        b.push(b':');
        b.extend_from_slice(&env);
        b.extend_from_slice(b"}\n");
        w.write_all(&b)
    }

    /// Reads back a line write_cli wrote. It accepts both CLI forms, the
    /// envelope itself and the wrapped `{"ok":false,"command":...,"error":envelope}`,
    /// trying the contract's own form first; the error returned is that of
    /// the contract's own form. Only JSON's white space (space, tab, line
    /// feed, carriage return) is trimmed from either end: a line that starts
    /// or ends with any other character (a byte order mark, a no-break
    /// space, U+0085, U+2028) is not a CLI line. The whole line is held to
    /// the limits every decoder shares, the wrapped form's object counting
    /// as level 0. A line longer than MAX_DOCUMENT_BYTES is refused before
    /// it is read, in either form.
    pub fn read_cli(line: &[u8]) -> Result<Envelope, DecodeError> {
        let line = trim_json_space(line);
        DecodeOptions::default().check(line)?;
        let (own, other) = if CLI_WRAPPED {
            (read_cli_wrapped(line), Envelope::from_slice(line))
        } else {
            (Envelope::from_slice(line), read_cli_wrapped(line))
        };
        own.or_else(|err| other.map_err(|_| err))
    }
}

/// The members of a structuredContent that keeps an upstream's own beside
/// the envelope, labby's `{"error": envelope, "upstream_structured_content": original}`.
const UPSTREAM_ERROR: &str = "error";
const UPSTREAM_CONTENT: &str = "upstream_structured_content";

/// The envelope member and the original of structured content that keeps an
/// upstream's own (exactly those two members); None for any other.
fn upstream_wrapped(sc: &Value) -> Option<(&Value, &Value)> {
    let Value::Object(m) = sc else {
        return None;
    };
    if m.len() != 2 {
        return None;
    }
    Some((m.get(UPSTREAM_ERROR)?, m.get(UPSTREAM_CONTENT)?))
}

/// The upstream's own structured content that an isError tool result keeps
/// beside the envelope (Envelope::to_upstream_tool_result), or None when it
/// keeps none.
pub fn mcp_upstream_structured_content(result: &Value) -> Option<&Value> {
    if result.get("isError") != Some(&Value::Bool(true)) {
        return None;
    }
    upstream_wrapped(result.get("structuredContent")?).map(|(_, original)| original)
}

/// Adds the contract's _meta member, the envelope under MCP_META_KEY, to an
/// isError tool result; nothing when the contract names no key.
fn with_meta(out: &mut Map<String, Value>, structured: &Value) {
    if let Some(key) = MCP_META_KEY {
        let mut meta = Map::new();
        meta.insert(key.to_owned(), structured.clone());
        out.insert("_meta".to_owned(), Value::Object(meta));
    }
}

/// Reports whether v, inside `wrappers` levels of objects and arrays that
/// do not count (a JSON-RPC error object or response around an envelope),
/// nests no deeper than MAX_DEPTH below them.
fn within_below(v: &Value, wrappers: usize) -> bool {
    if wrappers == 0 {
        return json::within_depth(v, 0);
    }
    match v {
        Value::Array(a) => a.iter().all(|x| within_below(x, wrappers - 1)),
        Value::Object(m) => m.values().all(|x| within_below(x, wrappers - 1)),
        _ => true,
    }
}

/// Reads the wrapped CLI form `{"ok":false,"command":...,"error":envelope}`.
/// The envelope is decoded from its own text, so it may nest as deeply as
/// any envelope (MAX_DEPTH levels below the line's object), as in Go.
fn read_cli_wrapped(line: &[u8]) -> Result<Envelope, DecodeError> {
    let Some(members) = top_members(line) else {
        // Not an object: the parser's or the type's error.
        return Err(object(json::parse(line)?)
            .err()
            .unwrap_or_else(|| decode_err("", "is not valid JSON", DecodeErrorCategory::Syntax)));
    };
    let mut ok = None;
    let mut env = None;
    for (name, raw) in members {
        match name.as_ref() {
            // The whole line is JSON within the limits before anything in
            // it is looked at, as in Go: a syntax error in the envelope
            // comes before a wrong "ok" (its limits count from its own
            // object, MAX_DEPTH levels below the line's).
            CLI_ERROR => {
                json::check(raw)?;
                env = Some(raw);
            }
            CLI_OK => ok = Some(json::parse(raw)?),
            _ => {
                json::parse(raw)?;
            }
        }
    }
    if ok.is_some_and(|ok| ok != Value::Bool(false)) {
        return Err(decode_err(
            CLI_OK,
            "must be false in a failure line",
            DecodeErrorCategory::Value,
        ));
    }
    match env {
        Some(raw) => Envelope::from_slice(raw),
        None => Err(decode_err(
            CLI_ERROR,
            "is required in the wrapped CLI form",
            DecodeErrorCategory::Missing,
        )),
    }
}

/// The members of the JSON object data, in document order, each with its
/// value's text; None when data is not an object, or not JSON at the
/// object's own level (the values are only delimited here, not parsed).
pub(crate) fn top_members(data: &[u8]) -> Option<Vec<(Cow<'_, str>, &[u8])>> {
    let mut out = Vec::new();
    let mut i = skip_ws(data, 0);
    if data.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(data, i + 1);
    if data.get(i) == Some(&b'}') {
        return (skip_ws(data, i + 1) == data.len()).then_some(out);
    }
    loop {
        if data.get(i) != Some(&b'"') {
            return None;
        }
        let name_end = skip_value(data, i);
        let name = match json::parse(&data[i..name_end]) {
            Ok(Value::String(s)) => Cow::Owned(s),
            _ => return None,
        };
        i = skip_ws(data, name_end);
        if data.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(data, i + 1);
        let end = skip_value(data, start);
        if end <= start {
            return None;
        }
        out.push((name, &data[start..end]));
        i = skip_ws(data, end);
        match data.get(i) {
            Some(b',') => i = skip_ws(data, i + 1),
            Some(b'}') => return (skip_ws(data, i + 1) == data.len()).then_some(out),
            _ => return None,
        }
    }
}

fn skip_ws(data: &[u8], mut i: usize) -> usize {
    while matches!(data.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The end of the JSON value starting at i, which is well formed.
fn skip_value(data: &[u8], start: usize) -> usize {
    let mut i = start;
    let mut depth = 0usize;
    let mut in_string = false;
    while i < data.len() {
        let c = data[i];
        i += 1;
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' if depth == 0 => return i,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth == 0 => return i - 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            b',' | b' ' | b'\t' | b'\n' | b'\r' if depth == 0 => return i - 1,
            _ => {}
        }
    }
    data.len()
}

/// from_problem of a parsed document: drops the problem members and
/// restores the envelope members the layout names like one of them.
fn from_problem(doc: Value) -> Result<Envelope, DecodeError> {
    let mut obj = object(doc)?;
    let typ = obj
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let detail = obj.get("detail").cloned();
    for p in PROBLEM_MEMBERS {
        obj.remove(p);
    }
    let kind = typ.strip_prefix(PROBLEM_TYPE_BASE);
    let c = classification_of(&Kind::from(kind.unwrap_or(&typ)));
    for m in LAYOUT.members {
        let Member::Leaf(leaf) = m else { continue };
        if !PROBLEM_MEMBERS.contains(&leaf.name) {
            continue;
        }
        let required = !leaf.optional;
        let v = match leaf.source {
            Source::Const => leaf.value.map(const_value),
            Source::Version => Some(Value::from(crate::contract::version())),
            Source::Kind => kind.filter(|k| !k.is_empty()).map(Value::from),
            Source::Message => detail.clone(),
            Source::Origin => Some(Value::from(c.origin.as_str())),
            Source::Action => Some(Value::from(c.action.as_str())),
            Source::SameArguments => Some(Value::from(c.same_arguments.as_str())),
            Source::Guidance => Some(Value::from(c.guidance)),
            Source::SideEffects => Some(Value::from(c.side_effects.as_str())),
            Source::Group if required => {
                Some(Value::from(c.group.as_ref().map_or("", |g| g.as_str())))
            }
            Source::Retryable if required => Some(Value::from(c.retryable)),
            Source::MayHaveRun if required => Some(Value::from(c.side_effects.may_have_run())),
            _ => None,
        };
        if let Some(v) = v {
            obj.insert(leaf.name.to_owned(), v);
        }
    }
    Envelope::from_value(&Value::Object(obj))
}

/// The envelope a response body carries; None when its media type is not
/// JSON or it is not an envelope. A problem document is read as one first;
/// any other JSON first as the envelope itself, then as a problem document
/// served under another media type; JSON that is neither, as the short form
/// when the response failed.
fn envelope_from_body(content_type: &str, body: &[u8], status: u16) -> Option<Envelope> {
    let mt = media_type(content_type);
    let problem = mt == MEDIA_TYPE_PROBLEM;
    let is_json = problem
        || mt == MEDIA_TYPE_JSON
        || mt.ends_with("+json")
        || (mt.is_empty() && opens_object(body));
    if !is_json {
        return None;
    }
    let v = json::parse(body).ok()?;
    let direct = |v: &Value| Envelope::from_value(v).ok();
    let as_problem = |v: &Value| from_problem(v.clone()).ok();
    let e = if problem {
        as_problem(&v).or_else(|| direct(&v))
    } else {
        direct(&v).or_else(|| as_problem(&v))
    };
    if e.is_some() {
        return e;
    }
    if status >= 300 {
        return from_short_form(&v, status);
    }
    None
}

/// labby's short form of an error body, in which SDK and subsystem errors
/// promote their stable kind to the top level; None for any other value,
/// and for every value where the contract reads no short form. Every other
/// member is ignored: it is unchecked upstream data.
fn from_short_form(v: &Value, status: u16) -> Option<Envelope> {
    let sf = SHORT_FORM.as_ref()?;
    let obj = v.as_object()?;
    let kind = obj.get(sf.kind_member)?.as_str()?;
    // A kind the sanitizer would change (a lowercase token matches the
    // pattern) is received text, not a kind: not a short form.
    if kind.len() > sf.max_kind_bytes
        || !sf.kind_pattern.matches(kind)
        || matches!(crate::contract::sanitize(kind), Cow::Owned(_))
    {
        return None;
    }
    let message = obj.get(sf.message_member)?.as_str()?;
    // Received text: sanitized whatever the contract lists.
    let mut message = crate::contract::sanitize(message).into_owned();
    if crate::classification::blank(&message) {
        // A message says what happened when every other member is
        // discarded; an empty one says nothing, and the producer schema
        // rejects it.
        message = status_line(status);
    }
    let mut e = Envelope::init(Kind::from(kind), &message, false);
    if let Some((_, fields)) = sf.empty_fields.iter().find(|(k, _)| *k == kind) {
        for &(slot, typ) in *fields {
            let empty = if typ == FieldType::Array {
                Value::Array(Vec::new())
            } else {
                Value::Object(Map::new())
            };
            e.decode_slot(slot, &empty);
        }
    }
    e.extra
        .insert(PROMOTED_MEMBER.to_owned(), Value::from(PROMOTED_SHORT_FORM));
    Some(e)
}

/// The envelope of a failed response without one, from its status and the
/// body's text. The sanitizing constructor's path: the text is upstream's.
pub(crate) fn classify_http(status: u16, body: &[u8]) -> Envelope {
    let text = http_text(body);
    let message = upstream_message(status, &text);
    Envelope::init(http_kind(status, &text), &message, true)
}

/// The message of an envelope built from a failed response without one
/// (`Envelope::read_http`, `Envelope::from_aip193` of a foreign status): the
/// status line, then `": "` and text, the start of the body as `http_text`
/// quotes it, when there is any. A contract with `surfaces.http.echo_body`
/// false (`ECHO_BODY`) never echoes upstream text: the status line alone.
pub(crate) fn upstream_message(status: u16, text: &str) -> String {
    let mut message = status_line(status);
    if crate::contract::ECHO_BODY && !text.is_empty() {
        message.push_str(": ");
        message.push_str(text);
    }
    message
}

/// How a message built from a response starts: `"HTTP <status> <status
/// text>"`, or `"HTTP <status>"` for a status without a text.
pub(crate) fn status_line(status: u16) -> String {
    match status_text(status) {
        "" => format!("HTTP {status}"),
        t => format!("HTTP {status} {t}"),
    }
}

/// Go's net/http status texts, so messages read as the Go package's.
fn status_text(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        101 => "Switching Protocols",
        102 => "Processing",
        103 => "Early Hints",
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        203 => "Non-Authoritative Information",
        204 => "No Content",
        205 => "Reset Content",
        206 => "Partial Content",
        207 => "Multi-Status",
        208 => "Already Reported",
        226 => "IM Used",
        300 => "Multiple Choices",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        305 => "Use Proxy",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        407 => "Proxy Authentication Required",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        411 => "Length Required",
        412 => "Precondition Failed",
        413 => "Request Entity Too Large",
        414 => "Request URI Too Long",
        415 => "Unsupported Media Type",
        416 => "Requested Range Not Satisfiable",
        417 => "Expectation Failed",
        418 => "I'm a teapot",
        421 => "Misdirected Request",
        422 => "Unprocessable Entity",
        423 => "Locked",
        424 => "Failed Dependency",
        425 => "Too Early",
        426 => "Upgrade Required",
        428 => "Precondition Required",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        451 => "Unavailable For Legal Reasons",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        506 => "Variant Also Negotiates",
        507 => "Insufficient Storage",
        508 => "Loop Detected",
        510 => "Not Extended",
        511 => "Network Authentication Required",
        _ => "",
    }
}

/// The first character of b and its length in bytes; None when b does not
/// open with valid UTF-8.
fn first_char(b: &[u8]) -> Option<(char, usize)> {
    let n = match *b.first()? {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    let s = std::str::from_utf8(b.get(..n)?).ok()?;
    s.chars().next().map(|c| (c, n))
}

/// b without JSON's white space (space, tab, line feed, carriage return)
/// at either end, and nothing else trimmed: what every language's CLI
/// reader trims.
fn trim_json_space(mut b: &[u8]) -> &[u8] {
    while let [b' ' | b'\t' | b'\n' | b'\r', rest @ ..] = b {
        b = rest;
    }
    while let [rest @ .., b' ' | b'\t' | b'\n' | b'\r'] = b {
        b = rest;
    }
    b
}

/// b without leading and trailing white space (Go's bytes.TrimSpace:
/// Unicode white space in UTF-8).
fn trim_bytes(mut b: &[u8]) -> &[u8] {
    while let Some((c, n)) = first_char(b) {
        if !c.is_whitespace() {
            break;
        }
        b = &b[n..];
    }
    loop {
        let start = (1..=4.min(b.len()))
            .map(|k| b.len() - k)
            .find(|&i| first_char(&b[i..]).is_some_and(|(_, n)| i + n == b.len()));
        match start.and_then(|i| first_char(&b[i..]).map(|(c, _)| (i, c))) {
            Some((i, c)) if c.is_whitespace() => b = &b[..i],
            _ => return b,
        }
    }
}

/// Whether the body, past leading white space, opens a JSON object.
fn opens_object(body: &[u8]) -> bool {
    trim_bytes(body).first() == Some(&b'{')
}

/// Go's unicode.ToLower of a string, one character for one: the media
/// types compared are ASCII, and a character that lower-cases to one of
/// them must match as Go matches it.
fn lower(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c == '\u{130}' {
                'i'
            } else {
                c.to_lowercase().next().unwrap_or(c)
            }
        })
        .collect()
}

/// Whether c may be part of a token (RFC 2045): ASCII, not a control
/// character, a space or a tspecial.
fn tchar(c: u8) -> bool {
    c > 0x20 && c < 0x7F && !b"()<>@,;:\\\"/[]?=".contains(&c)
}

fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(tchar)
}

/// The lower-cased media type of a Content-Type value, or "" when it has
/// none or it is malformed, as Go's mime.ParseMediaType reads it (a
/// malformed parameter keeps the type; a repeated one makes it ""). The
/// first value of a list counts: a comma before any parameter ends the
/// media type, as fetch joins repeated lines ("text/plain,
/// application/json") and the first line counts here.
fn media_type(content_type: &str) -> String {
    let content_type = match content_type.find([',', ';']) {
        Some(i) if content_type.as_bytes()[i] == b',' => &content_type[..i],
        _ => content_type,
    };
    let (base, params) = match content_type.find(';') {
        Some(i) => (&content_type[..i], &content_type[i..]),
        None => (content_type, ""),
    };
    let base = lower(base).trim().to_owned();
    let ok = match base.find('/') {
        None => is_token(&base),
        Some(i) => is_token(&base[..i]) && is_token(&base[i + 1..]),
    };
    if !ok || repeats_parameter(params) {
        return String::new();
    }
    base
}

/// Whether the parameters (each after a ';') name one parameter twice,
/// which Go's mime.ParseMediaType rejects; scanning stops at the first
/// malformed parameter, as Go's does.
fn repeats_parameter(mut params: &str) -> bool {
    let mut seen: Vec<String> = Vec::new();
    loop {
        params = params.trim_start();
        let Some(rest) = params.strip_prefix(';') else {
            return false;
        };
        let rest = rest.trim_start();
        let key_len = rest.bytes().take_while(|&c| tchar(c)).count();
        if key_len == 0 {
            return false;
        }
        let key = lower(&rest[..key_len]);
        let Some(rest) = rest[key_len..].trim_start().strip_prefix('=') else {
            return false;
        };
        let rest = rest.trim_start();
        let Some(value_len) = param_value_len(rest) else {
            return false;
        };
        if seen.contains(&key) {
            return true;
        }
        seen.push(key);
        params = &rest[value_len..];
    }
}

/// The length of a parameter value at the start of s: a token or a quoted
/// string.
fn param_value_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.first() != Some(&b'"') {
        let n = b.iter().take_while(|&&c| tchar(c)).count();
        return (n > 0).then_some(n);
    }
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    None
}

/// Whether the Accept header values rank application/problem+json above
/// application/json (RFC 9110, section 12.5.1): each takes the quality of
/// the most specific media range that matches it, and on equal quality
/// problem+json wins only when it is matched more specifically.
fn prefers_problem(accept: &[&str]) -> bool {
    let (mut json_q, mut json_s) = (0.0, -1);
    let (mut problem_q, mut problem_s) = (0.0, -1);
    for header in accept {
        for item in header.split(',') {
            let Some((rng, q)) = media_range(item) else {
                continue;
            };
            let s = range_specificity(&rng, MEDIA_TYPE_JSON);
            if s > json_s {
                (json_q, json_s) = (q, s);
            }
            let s = range_specificity(&rng, MEDIA_TYPE_PROBLEM);
            if s > problem_s {
                (problem_q, problem_s) = (q, s);
            }
        }
    }
    if problem_q != json_q {
        return problem_q > json_q;
    }
    problem_q > 0.0 && problem_s > json_s
}

/// One element of an Accept header: its media range in lower case and its
/// quality; None for an empty or malformed element, which is ignored.
fn media_range(item: &str) -> Option<(String, f64)> {
    let mut params = item.split(';');
    let rng = lower(params.next().unwrap_or("").trim());
    if rng.is_empty() || rng.matches('/').count() != 1 {
        return None;
    }
    let mut q = 1.0;
    for p in params {
        let (name, value) = p.split_once('=').unwrap_or((p, ""));
        if !name.trim().eq_ignore_ascii_case("q") {
            continue;
        }
        let v = go_float(value.trim()).filter(|v| (0.0..=1.0).contains(v))?;
        q = v;
    }
    Some((rng, q))
}

/// How specifically the media range rng matches media: 2 when it names it,
/// 1 for its type's wildcard (application/*), 0 for */* and -1 when it does
/// not match.
fn range_specificity(rng: &str, media: &str) -> i32 {
    if rng == media {
        2
    } else if rng == "*/*" {
        0
    } else if rng.ends_with("/*") && media.starts_with(&rng[..rng.len() - 1]) {
        1
    } else {
        -1
    }
}

/// A number as Go's strconv.ParseFloat reads it: decimal or hexadecimal
/// (0x1p-1), underscores between digits; None where Go reports an error.
/// Infinities and NaN count as errors: no quality can be one.
fn go_float(s: &str) -> Option<f64> {
    if s.contains('_') && !underscore_ok(s) {
        return None;
    }
    let t: String = s.chars().filter(|&c| c != '_').collect();
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t.as_str()),
    };
    if body.len() > 2 && (body.starts_with("0x") || body.starts_with("0X")) {
        let v = hex_float(&body[2..])?;
        return Some(if neg { -v } else { v });
    }
    if !body
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        return None;
    }
    let v: f64 = t.parse().ok()?;
    v.is_finite().then_some(v)
}

/// A hexadecimal float after its 0x: digits with an optional point, then a
/// mandatory binary exponent (p-1).
fn hex_float(s: &str) -> Option<f64> {
    let p = s.find(['p', 'P'])?;
    let (mant, exp) = (&s[..p], &s[p + 1..]);
    let mut v = 0.0f64;
    let mut digits = 0;
    let mut frac: i64 = 0;
    let mut point = false;
    for c in mant.chars() {
        if c == '.' && !point {
            point = true;
            continue;
        }
        let d = c.to_digit(16)?;
        v = v * 16.0 + f64::from(d);
        digits += 1;
        if point {
            frac += 4;
        }
    }
    if digits == 0 {
        return None;
    }
    let (eneg, edigits) = match exp.as_bytes().first() {
        Some(b'-') => (true, &exp[1..]),
        Some(b'+') => (false, &exp[1..]),
        _ => (false, exp),
    };
    if edigits.is_empty() || !edigits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let e: i64 = edigits.parse::<i64>().unwrap_or(i64::MAX / 2).min(10_000);
    let e = if eneg { -e } else { e } - frac;
    let v = v * 2f64.powi(e.clamp(-2_000, 2_000) as i32);
    v.is_finite().then_some(v)
}

/// Go's underscoreOK: underscores only between digits, or between a base
/// prefix and a digit.
fn underscore_ok(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let mut saw = b'^';
    let mut hex = false;
    if b.len() >= i + 2 && b[i] == b'0' && matches!(b[i + 1] | 0x20, b'b' | b'o' | b'x') {
        hex = b[i + 1] | 0x20 == b'x';
        i += 2;
        saw = b'0';
    }
    for &c in &b[i..] {
        if c.is_ascii_digit() || hex && matches!(c | 0x20, b'a'..=b'f') {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
    }
    saw != b'_'
}

/// The start of a body as one line of sanitized text, at most
/// MAX_HTTP_TEXT bytes, with an ellipsis when cut. Past 4 × MAX_HTTP_TEXT
/// bytes the body is cut; each run of invalid UTF-8 becomes one U+FFFD. The
/// text is sanitized; when the body was cut, the run of characters a secret
/// can be made of that ends it (printable ASCII but quotes, backslash and
/// brackets) is dropped, so that no part of a secret the cut went through
/// is shown. Then each run of white space becomes one space; then, past MAX_HTTP_TEXT bytes, it is cut at a character
/// boundary, before a `[REDACTED]` the cut would split. Sanitizing first
/// means no white space the sanitizer deletes (vertical tab, form feed,
/// NEL) can split a secret into harmless looking words. Every language
/// quotes a body so.
pub(crate) fn http_text(body: &[u8]) -> String {
    let mut cut = body.len() > 4 * MAX_HTTP_TEXT;
    let body = &body[..body.len().min(4 * MAX_HTTP_TEXT)];
    let valid = valid_utf8(body);
    let clean = crate::contract::sanitize(&valid);
    let clean = if cut {
        clean.trim_end_matches(|c: char| c.is_ascii_graphic() && !"\"'`\\<>[]{}".contains(c))
    } else {
        &clean
    };
    let mut s = clean.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.len() > MAX_HTTP_TEXT {
        let mut n = MAX_HTTP_TEXT;
        while n > 0 && !s.is_char_boundary(n) {
            n -= 1;
        }
        // A [REDACTED] the cut splits goes whole.
        const REDACTED: &str = "[REDACTED]";
        let from = n.saturating_sub(REDACTED.len() - 1);
        if let Some(i) = (from..n)
            .rev()
            .find(|&i| s.as_bytes()[i..].starts_with(REDACTED.as_bytes()))
        {
            n = i;
        }
        s.truncate(n);
        cut = true;
    }
    if cut && !s.is_empty() {
        s.push('\u{2026}');
    }
    s
}

/// b as text, each run of invalid UTF-8 one U+FFFD (Go's
/// strings.ToValidUTF8).
fn valid_utf8(mut b: &[u8]) -> Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(b) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(b.len() + 3);
    let mut in_bad = false;
    while !b.is_empty() {
        match std::str::from_utf8(b) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let good = e.valid_up_to();
                if good > 0 {
                    // Only valid UTF-8 before valid_up_to.
                    out.push_str(std::str::from_utf8(&b[..good]).unwrap_or_default());
                    in_bad = false;
                }
                if !in_bad {
                    out.push('\u{FFFD}');
                    in_bad = true;
                }
                b = &b[good + e.error_len().unwrap_or(b.len() - good)..];
            }
        }
    }
    Cow::Owned(out)
}

/// The first value of a Retry-After field, which holds a list when a
/// response repeats the header and a client joins the lines with commas:
/// the text before the first comma, or before the second when the text
/// before the first is ASCII letters only, the day name of an HTTP date
/// ("Wed, 21 Oct 2015 07:28:00 GMT" holds one comma). Every language reads
/// the field so, and only that value.
fn retry_after_value(v: &str) -> &str {
    let Some(i) = v.find(',') else {
        return v;
    };
    let day = v[..i].trim_matches(|c| c == ' ' || c == '\t');
    if day.is_empty() || !day.bytes().all(|c| c.is_ascii_alphabetic()) {
        return &v[..i];
    }
    match v[i + 1..].find(',') {
        Some(j) => &v[..i + 1 + j],
        None => v,
    }
}

/// Reads a Retry-After header value (RFC 9110, section 10.2.3) as
/// milliseconds: its first value (retry_after_value; a repeated header's
/// lines joined by commas are a list), delay seconds, or an HTTP date
/// (IMF-fixdate, RFC 850 or asctime, as Go's http.ParseTime reads them)
/// measured from date, the
/// response's Date header, when it is one (so a skewed clock does not
/// matter), and from now otherwise. A date in the past means no wait; a
/// wait longer than RETRY.max_hint_ms is clamped to it. None when the value
/// is empty or malformed.
pub fn parse_retry_after(value: &str, date: Option<&str>) -> Option<i64> {
    let value = retry_after_value(value).trim();
    if value.is_empty() {
        return None;
    }
    if value.bytes().all(|c| c.is_ascii_digit()) {
        if let Ok(secs) = value.parse::<u64>() {
            if secs <= i64::MAX as u64 {
                let secs = secs.min((i64::MAX / 1000) as u64) as i64;
                return Some((secs * 1000).min(RETRY.max_hint_ms));
            }
        }
    }
    let at = http_date_nanos(value)?;
    let now = date
        .and_then(|d| http_date_nanos(d.trim()))
        .unwrap_or_else(|| {
            match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
                Ok(d) => d.as_nanos() as i128,
                Err(e) => -(e.duration().as_nanos() as i128),
            }
        });
    let ms = (at - now) / 1_000_000;
    Some(ms.clamp(0, i128::from(RETRY.max_hint_ms)) as i64)
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const DAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const LONG_DAYS: [&str; 7] = [
    "sunday",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
];

/// A cursor over a date, read as Go's time.Parse reads its layout.
struct Cursor<'a>(&'a str);

impl<'a> Cursor<'a> {
    /// A space of the layout: one or more spaces.
    fn space(&mut self) -> Option<()> {
        let t = self.0.trim_start_matches(' ');
        (t.len() < self.0.len()).then(|| self.0 = t)
    }

    fn lit(&mut self, s: &str) -> Option<()> {
        self.0 = self.0.strip_prefix(s)?;
        Some(())
    }

    /// A name from names, ignoring ASCII case; its index.
    fn name(&mut self, names: &[&str]) -> Option<usize> {
        let i = names.iter().position(|n| {
            self.0
                .get(..n.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(n))
        })?;
        self.0 = &self.0[names[i].len()..];
        Some(i)
    }

    /// A number of exactly n digits, or of one or two when n is 0.
    fn num(&mut self, n: usize) -> Option<i64> {
        let digits = self.0.bytes().take_while(u8::is_ascii_digit).count();
        let take = if n == 0 { digits.min(2) } else { n };
        if take == 0 || digits < take {
            return None;
        }
        let v = self.0[..take].parse().ok()?;
        self.0 = &self.0[take..];
        Some(v)
    }

    /// The fraction of a second Go accepts after the seconds, in nanoseconds.
    fn fraction(&mut self) -> i128 {
        let b = self.0.as_bytes();
        if b.len() < 2 || !matches!(b[0], b'.' | b',') || !b[1].is_ascii_digit() {
            return 0;
        }
        let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let mut ns: i128 = 0;
        for (i, &c) in b[1..1 + digits].iter().enumerate().take(9) {
            ns += i128::from(c - b'0') * 10i128.pow(8 - i as u32);
        }
        self.0 = &self.0[1 + digits..];
        ns
    }

    /// A time zone abbreviation as Go reads one (offset zero): three upper
    /// case letters, or four or five ending in T.
    fn zone(&mut self) -> Option<()> {
        let n = self
            .0
            .bytes()
            .take(6)
            .take_while(u8::is_ascii_uppercase)
            .count();
        let ok = match n {
            3 => true,
            4 | 5 => self.0.as_bytes()[n - 1] == b'T' || &self.0[..4] == "WITA",
            _ => false,
        };
        if !ok {
            return None;
        }
        self.0 = &self.0[n..];
        Some(())
    }

    /// Hours, minutes and seconds (15:04:05, the hour one or two digits) as
    /// nanoseconds.
    fn clock(&mut self) -> Option<(i64, i64, i64, i128)> {
        let h = self.num(0)?;
        self.lit(":")?;
        let m = self.num(2)?;
        self.lit(":")?;
        let s = self.num(2)?;
        Some((h, m, s, self.fraction()))
    }
}

/// An HTTP date in one of the three formats Go's http.ParseTime accepts
/// (IMF-fixdate, RFC 850, asctime), as nanoseconds since the epoch.
fn http_date_nanos(v: &str) -> Option<i128> {
    // Mon, 02 Jan 2006 15:04:05 GMT
    let imf = || {
        let mut c = Cursor(v);
        c.name(&DAYS)?;
        c.lit(",")?;
        c.space()?;
        let day = c.num(2)?;
        c.space()?;
        let month = c.name(&MONTHS)?;
        c.space()?;
        let year = c.num(4)?;
        c.space()?;
        let (h, m, s, ns) = c.clock()?;
        c.space()?;
        c.lit("GMT")?;
        c.0.is_empty().then_some(())?;
        instant(year, month, day, h, m, s, ns)
    };
    // Monday, 02-Jan-06 15:04:05 MST
    let rfc850 = || {
        let mut c = Cursor(v);
        c.name(&LONG_DAYS)?;
        c.lit(",")?;
        c.space()?;
        let day = c.num(2)?;
        c.lit("-")?;
        let month = c.name(&MONTHS)?;
        c.lit("-")?;
        let yy = c.num(2)?;
        c.space()?;
        let (h, m, s, ns) = c.clock()?;
        c.space()?;
        c.zone()?;
        c.0.is_empty().then_some(())?;
        instant(
            if yy >= 69 { 1900 + yy } else { 2000 + yy },
            month,
            day,
            h,
            m,
            s,
            ns,
        )
    };
    // Mon Jan _2 15:04:05 2006
    let asctime = || {
        let mut c = Cursor(v);
        c.name(&DAYS)?;
        c.space()?;
        let month = c.name(&MONTHS)?;
        c.space()?;
        let day = c.num(0)?;
        c.space()?;
        let (h, m, s, ns) = c.clock()?;
        c.space()?;
        let year = c.num(4)?;
        c.0.is_empty().then_some(())?;
        instant(year, month, day, h, m, s, ns)
    };
    imf().or_else(rfc850).or_else(asctime)
}

/// The instant as nanoseconds since the epoch, proleptic Gregorian, UTC;
/// None for a date or time that does not exist.
fn instant(year: i64, month: usize, day: i64, h: i64, m: i64, s: i64, ns: i128) -> Option<i128> {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let len = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ][month];
    if day < 1 || day > len || h > 23 || m > 59 || s > 59 {
        return None;
    }
    // Days from the civil date (H. Hinnant's algorithm).
    let mo = month as i64 + 1;
    let y = if mo <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let doy = (153 * (if mo > 2 { mo - 3 } else { mo + 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(i128::from(((days * 24 + h) * 60 + m) * 60 + s) * 1_000_000_000 + ns)
}

/// Conversions to and from the http crate's types (the `http` feature).
#[cfg(feature = "http")]
mod http_types {
    use super::{DecodeError, Envelope, HttpResponse};

    impl From<HttpResponse> for http::Response<Vec<u8>> {
        /// The response with its status, headers and body. A status the
        /// http crate refuses (none Envelope::write_http writes) becomes 500.
        fn from(r: HttpResponse) -> Self {
            let mut out = http::Response::new(r.body);
            *out.status_mut() = http::StatusCode::from_u16(r.status)
                .unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
            for (name, value) in r.headers {
                if let Ok(v) = http::HeaderValue::from_str(&value) {
                    out.headers_mut().append(name, v);
                }
            }
            out
        }
    }

    /// The header values of headers that are text (a value of other bytes
    /// is read as Latin-1 would not be: it is skipped).
    fn pairs(headers: &http::HeaderMap) -> Vec<(&str, &str)> {
        headers
            .iter()
            .filter_map(|(n, v)| Some((n.as_str(), std::str::from_utf8(v.as_bytes()).ok()?)))
            .collect()
    }

    impl Envelope {
        /// write_http for the request: its Accept headers pick the body,
        /// and the answer is an http::Response.
        pub fn to_http_response<B>(&self, request: &http::Request<B>) -> http::Response<Vec<u8>> {
            let accept: Vec<&str> = request
                .headers()
                .get_all(http::header::ACCEPT)
                .iter()
                .filter_map(|v| std::str::from_utf8(v.as_bytes()).ok())
                .collect();
            self.write_http(&accept).into()
        }

        /// read_http of an http::Response whose body has been read (at most
        /// MAX_HTTP_BODY + 1 bytes of it are needed).
        pub fn from_http_response<B: AsRef<[u8]>>(
            response: &http::Response<B>,
        ) -> Result<Envelope, DecodeError> {
            Envelope::read_http(
                response.status().as_u16(),
                &pairs(response.headers()),
                response.body().as_ref(),
            )
        }
    }
}
