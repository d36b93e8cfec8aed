//! Call errors: the object a sandbox's rejected tool call carries (labby's
//! Code Mode call error), built from a completed MCP tool result flagged
//! isError, as the contract's call_error section (CALL_ERROR) describes
//! it. A completed result is the contract's tool_result kind and origin,
//! and never counts toward the circuit breaker.

use serde_json::{Map, Value};

use crate::classification::{blank, lookup};
use crate::codec::sanitize_json_value;
use crate::contract::{call_error_cause, sanitize, sanitize_max, Kind, CALL_ERROR};
use crate::envelope::Envelope;
use crate::spec::ToolAnnotations;

/// The contract's call_error section: the members a call error carries in
/// order, the origin and kind of a completed tool result, the kinds it
/// canonicalises, how the tool is named, the message of a result without
/// text, the safety hints (member, MCP annotation) and the caps on its
/// evidence.
pub(crate) struct CallErrorSpec {
    pub(crate) version: i64,
    pub(crate) members: &'static [&'static str],
    pub(crate) origin: &'static str,
    pub(crate) result_kind: &'static str,
    pub(crate) canonical: &'static [(&'static str, &'static str)],
    pub(crate) separator: &'static str,
    pub(crate) default_message: &'static str,
    pub(crate) hints: &'static [(&'static str, &'static str)],
    pub(crate) max_blocks: usize,
    pub(crate) max_text: usize,
    pub(crate) max_resource: usize,
    pub(crate) binary: &'static [&'static str],
}

/// The tool a call went to: its upstream, its name and its MCP annotations
/// (readOnlyHint, destructiveHint, ...), which a call error carries as
/// untrusted hints.
#[derive(Clone, Copy, Debug, Default)]
pub struct CallTool<'a> {
    /// The upstream the tool belongs to.
    pub upstream: &'a str,
    /// The tool's name, or its fully-qualified name when upstream is empty.
    pub name: &'a str,
    /// The tool's MCP annotations.
    pub annotations: Option<&'a Map<String, Value>>,
}

/// Builds the call error of result, a completed MCP tool result flagged
/// isError (a CallToolResult as JSON), for a call to tool: a JSON object
/// whose members are named as on the wire. Its kind is the envelope the
/// result carries (Envelope::from_tool_result), canonicalised, or the
/// contract's tool_result kind; its recovery and side_effects are the
/// contract's classification of that kind, the same_arguments advice
/// relaxed for the tool's annotations (for_tool). It fails when the
/// contract declares no call_error, or result is not an object with isError
/// true and a content array.
pub fn to_call_error(result: &Value, tool: &CallTool<'_>) -> Result<Value, &'static str> {
    let Some(p) = CALL_ERROR.as_ref() else {
        return Err("this contract declares no call_error");
    };
    let Some(r) = result
        .as_object()
        .filter(|r| r.get("isError") == Some(&Value::Bool(true)))
    else {
        return Err("the tool result is not flagged isError");
    };
    let empty = Vec::new();
    let content = match r.get("content") {
        None | Some(Value::Null) => &empty,
        Some(Value::Array(items)) => items,
        Some(_) => return Err("the tool result's content is not an array"),
    };
    let texts: Vec<&str> = content
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    let structured = r.get("structuredContent").filter(|v| !v.is_null());
    let mut read = Map::new();
    read.insert(
        "content".to_owned(),
        Value::Array(
            texts
                .iter()
                .map(|t| serde_json::json!({"type": "text", "text": t}))
                .collect(),
        ),
    );
    if let Some(sc) = structured {
        read.insert("structuredContent".to_owned(), sc.clone());
    }
    let (mut kind, mut message, mut cause, mut retry_after) =
        (p.result_kind.to_owned(), String::new(), String::new(), None);
    match Envelope::from_tool_result(&Value::Object(read)) {
        Ok(env) => {
            kind = env.kind.as_str().to_owned();
            message = env.message.clone();
            cause = call_error_cause(&env).to_owned();
            retry_after = env.recovery.retry_after_ms.filter(|ms| *ms >= 0);
        }
        Err(_) => {
            if let Some(t) = texts.first() {
                message = sanitize(t).into_owned();
            }
        }
    }
    if blank(&message) {
        message = p.default_message.to_owned();
    }
    let mut original_kind = String::new();
    if let Some((_, to)) = p.canonical.iter().find(|(from, _)| *from == kind) {
        original_kind = std::mem::replace(&mut kind, (*to).to_owned());
    }
    let mut tool_name = String::new();
    if !tool.upstream.is_empty() && !tool.name.is_empty() {
        tool_name = format!("{}{}{}", tool.upstream, p.separator, tool.name);
    } else if let Some(i) = tool.name.find(p.separator) {
        if i > 0 && i + p.separator.len() < tool.name.len() {
            tool_name = tool.name.to_owned();
        }
    }
    let hint = |n: &str| {
        tool.annotations
            .and_then(|a| a.get(n))
            .and_then(Value::as_bool)
    };
    let mut safety = Map::new();
    for (member, annotation) in p.hints {
        if let Some(b) = hint(annotation) {
            safety.insert((*member).to_owned(), Value::Bool(b));
        }
    }
    let cl = lookup(&Kind::from(kind.as_str()));
    let same = cl.same_arguments.for_tool(ToolAnnotations {
        read_only_hint: hint("readOnlyHint"),
        idempotent_hint: hint("idempotentHint"),
    });
    let mut recovery = Map::new();
    recovery.insert("action".to_owned(), cl.action.as_str().into());
    recovery.insert("same_arguments".to_owned(), same.as_str().into());
    recovery.insert("guidance".to_owned(), cl.guidance.into());
    if let Some(ms) = retry_after {
        recovery.insert("retry_after_ms".to_owned(), ms.into());
    }
    let mut out = Map::new();
    for m in p.members {
        let v: Option<Value> = match *m {
            "contract_version" => Some(p.version.into()),
            "kind" => Some(kind.as_str().into()),
            "message" => Some(message.as_str().into()),
            "tool" => (!tool_name.is_empty()).then(|| tool_name.as_str().into()),
            "origin" => Some(p.origin.into()),
            "recovery" => Some(Value::Object(recovery.clone())),
            "side_effects" => Some(cl.side_effects.as_str().into()),
            "original_kind" => (!original_kind.is_empty()).then(|| original_kind.as_str().into()),
            "cause" => (!cause.is_empty()).then(|| cause.as_str().into()),
            "safety" => (!safety.is_empty()).then(|| Value::Object(safety.clone())),
            "evidence" => Some(evidence(p, content, &texts, structured)),
            _ => None,
        };
        if let Some(v) = v {
            out.insert((*m).to_owned(), v);
        }
    }
    Ok(Value::Object(out))
}

/// The call error's JSON text, which a sandbox puts in the message of the
/// error its call rejects with.
pub fn call_error_text(call_error: &Value) -> String {
    call_error.to_string()
}

fn evidence(
    p: &CallErrorSpec,
    content: &[Value],
    texts: &[&str],
    structured: Option<&Value>,
) -> Value {
    let mut blocks = Vec::new();
    let mut omitted = 0usize;
    let str_of = |o: Option<&Value>, key: &str| -> Option<String> {
        o.and_then(|o| o.get(key))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    for (i, b) in content.iter().enumerate() {
        if i >= p.max_blocks {
            omitted += content.len() - i;
            break;
        }
        let typ = if b.is_object() {
            str_of(Some(b), "type").unwrap_or_default()
        } else {
            String::new()
        };
        let mut out = Map::new();
        out.insert("type".to_owned(), sanitize(&typ).into_owned().into());
        let mut omit = |out: &mut Map<String, Value>| {
            out.insert("omitted".to_owned(), Value::Bool(true));
            omitted += 1;
        };
        if typ.is_empty() {
            out.insert("type".to_owned(), "unknown".into());
            omit(&mut out);
        } else if typ == "text" {
            let t = str_of(Some(b), "text").unwrap_or_default();
            out.insert(
                "text".to_owned(),
                sanitize_max(&t, p.max_text).into_owned().into(),
            );
        } else if typ == "resource" {
            let res = b.get("resource");
            if let Some(uri) = str_of(res, "uri") {
                out.insert("uri".to_owned(), sanitize(&uri).into_owned().into());
            }
            if let Some(mt) = str_of(res, "mimeType") {
                out.insert("mime_type".to_owned(), sanitize(&mt).into_owned().into());
            }
            if let Some(t) = str_of(res, "text") {
                out.insert(
                    "text".to_owned(),
                    sanitize_max(&t, p.max_resource).into_owned().into(),
                );
            } else {
                let n = str_of(res, "blob").map_or(0, |s| s.len());
                out.insert("encoded_bytes".to_owned(), n.into());
                omit(&mut out);
            }
        } else if typ == "resource_link" {
            if let Some(uri) = str_of(Some(b), "uri") {
                out.insert("uri".to_owned(), sanitize(&uri).into_owned().into());
            }
        } else if p.binary.contains(&typ.as_str()) {
            if let Some(mt) = str_of(Some(b), "mimeType") {
                out.insert("mime_type".to_owned(), sanitize(&mt).into_owned().into());
            }
            let n = str_of(Some(b), "data").map_or(0, |s| s.len());
            out.insert("encoded_bytes".to_owned(), n.into());
            omit(&mut out);
        } else {
            omit(&mut out);
        }
        blocks.push(Value::Object(out));
    }
    let mut ev = Map::new();
    ev.insert("content".to_owned(), Value::Array(blocks));
    if let Some(sc) = structured {
        let mut v = sc.clone();
        sanitize_json_value(&mut v, 0);
        ev.insert("structured_content".to_owned(), v);
    }
    for t in texts {
        if let Ok(mut v @ Value::Object(_)) =
            serde_json::from_str::<Value>(t.trim_matches([' ', '\t', '\n', '\r']))
        {
            sanitize_json_value(&mut v, 0);
            ev.insert("parsed_error".to_owned(), v);
            break;
        }
    }
    ev.insert("omitted_content_blocks".to_owned(), omitted.into());
    Value::Object(ev)
}
