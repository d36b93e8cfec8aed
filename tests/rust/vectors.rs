//! The conformance vectors of one generated crate (ERRGEN_VECTORS), run
//! through its public API only: lookup, decode and encode, malformed input,
//! edges, next_step, the classifiers and for_tool; and the sanitizer
//! vectors (ERRGEN_SANITIZER_VECTORS) and the differential ones
//! (ERRGEN_SANITIZE_DIFF) through its public sanitize_max. The runner
//! (tests/rust/run.sh) builds one test crate per generated crate, whose
//! dependency `contract` is that crate, with its `http` feature on. The
//! surfaces (MCP tool results, HTTP, the command line) run the tool_result
//! and http sections, every envelope vector through each surface and back,
//! and the surfaces (the log form included) and accept sections; the
//! google.rpc mapping runs the five aip193 sections, and the answers
//! protojson wrote (ERRGEN_PROTOJSON_AIP193) through from_aip193.

use contract::*;
use serde_json::Value;

/// The crate's conformance vectors, read once: every test shares them, and a
/// test contract's file can be tens of megabytes (parsing it once per test
/// cost a minute in a debug build).
fn vectors() -> &'static Value {
    static VECTORS: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    VECTORS.get_or_init(|| read("ERRGEN_VECTORS"))
}

fn read(var: &str) -> Value {
    let path = std::env::var(var).unwrap_or_else(|_| panic!("{var} is not set: run tests/rust/run.sh"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    // The malformed vectors nest 129 levels deep, past serde_json's own limit.
    let text = lone_surrogates(&text);
    let mut de = serde_json::Deserializer::from_str(&text);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A lone surrogate escape becomes U+FFFD, as Go reads it (serde_json
/// refuses it).
fn lone_surrogates(json: &str) -> String {
    let b = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let (mut i, mut copied) = (0, 0);
    let hex = |i: usize| std::str::from_utf8(b.get(i..i + 4)?).ok().and_then(|h| u32::from_str_radix(h, 16).ok());
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        if b.get(i + 1) != Some(&b'u') {
            i += 2;
            continue;
        }
        let r = hex(i + 2).unwrap_or(0);
        if (0xD800..0xDC00).contains(&r) && b.get(i + 6..i + 8) == Some(b"\\u") && hex(i + 8).is_some_and(|l| (0xDC00..0xE000).contains(&l)) {
            i += 12;
            continue;
        }
        if (0xD800..0xE000).contains(&r) {
            out.push_str(&json[copied..i]);
            out.push_str("\\ufffd");
            copied = i + 6;
        }
        i += 6;
    }
    out.push_str(&json[copied..]);
    out
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' | b'-' => 62,
        _ => 63,
    };
    let data: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::new();
    for chunk in data.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= (val(c) as u32) << (18 - 6 * i);
        }
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// Compact JSON as the Go encoder writes it, from a value that keeps its
/// members' order.
fn go_json(v: &Value) -> String {
    serde_json::to_string(v).unwrap().replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029")
}

/// Whether two values are equal, numbers by value (1 and 1.0 alike).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w))),
        _ => a == b,
    }
}

fn input(v: &Value) -> Vec<u8> {
    if let Some(t) = v.get("text") {
        return t.as_str().unwrap().as_bytes().to_vec();
    }
    if let Some(b) = v.get("bytes") {
        return base64(b.as_str().unwrap());
    }
    serde_json::to_vec(v.get("input").or_else(|| v.get("envelope")).unwrap()).unwrap()
}

#[test]
fn name_version_retry() {
    let v = vectors();
    assert_eq!(v["contract"], CONTRACT_NAME);
    assert_eq!(v["version"].to_string().trim_matches('"'), CONTRACT_VERSION.to_string());
    let r = &v["retry"];
    assert_eq!(r["initial_ms"].as_i64(), Some(RETRY.initial_ms));
    assert_eq!(r["max_ms"].as_i64(), Some(RETRY.max_ms));
    assert_eq!(r["multiplier"].as_f64(), Some(RETRY.multiplier));
    assert_eq!(r["jitter"].as_f64(), Some(RETRY.jitter));
    assert_eq!(r["max_attempts"].as_i64(), Some(RETRY.max_attempts));
    assert_eq!(r["max_hint_ms"].as_i64(), Some(RETRY.max_hint_ms));
}

#[test]
fn lookup_vectors() {
    let v = vectors();
    let mut n = 0;
    for w in v["lookup"].as_array().unwrap() {
        let kind = Kind::from(w["kind"].as_str().unwrap());
        let c = lookup(&kind);
        let name = &w["kind"];
        assert_eq!(c.known, w["known"].as_bool().unwrap(), "{name}");
        assert_eq!(kind.is_known(), c.known, "{name}");
        assert_eq!(c.kind, w["kind"].as_str().unwrap(), "{name}");
        assert_eq!(c.group.as_ref().map_or("", |g| g.as_str()), w["group"], "{name}");
        assert_eq!(c.origin.as_str(), w["origin"], "{name}");
        assert_eq!(c.action.as_str(), w["action"], "{name}");
        assert_eq!(c.same_arguments.as_str(), w["same_arguments"], "{name}");
        assert_eq!(c.guidance, w["guidance"], "{name}");
        assert_eq!(c.side_effects.as_str(), w["side_effects"], "{name}");
        assert_eq!(Some(c.http_status as u64), w["http_status"].as_u64(), "{name}");
        assert_eq!(c.log_level.as_str(), w["log_level"], "{name}");
        assert_eq!(Some(c.breaker), w["breaker"].as_bool(), "{name}");
        assert_eq!(Some(c.retryable), w["retryable"].as_bool(), "{name}");
        assert_eq!(Some(c.startup), w["startup"].as_bool(), "{name}");
        assert_eq!(Some(c.number), w["number"].as_i64(), "{name}");
        assert_eq!(Some(c.grpc_code as i64), w["grpc_code"].as_i64(), "{name}");
        assert_eq!(c.grpc_status, w["grpc_status"], "{name}");
        assert_eq!(c.reason, w["reason"].as_str().unwrap(), "{name}");
        if c.number >= 0 {
            assert_eq!(kind_by_number(c.number), Some(kind.clone()));
        }
        n += 1;
    }
    assert_eq!(n, v["lookup"].as_array().unwrap().len());
    assert_eq!(Kind::KNOWN.len(), v["lookup"].as_array().unwrap().iter().filter(|w| w["known"] == true).count());
}

#[test]
fn envelope_vectors() {
    let v = vectors();
    for w in v["envelopes"].as_array().unwrap() {
        let name = &w["name"];
        let text = input(w);
        let e = Envelope::from_slice(&text).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(e.kind.as_str(), w["kind"], "{name}");
        assert_eq!(Some(e.kind.is_known()), w["known"].as_bool(), "{name}");
        assert_eq!(Some(e.is_retryable()), w["retryable"].as_bool(), "{name}");
        assert_eq!(Some(e.http_status() as u64), w["http_status"].as_u64(), "{name}");
        // The same members in the same order as the Go encoder writes them.
        let out = e.to_json().unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(out, go_json(&w["envelope"]), "{name}");
        // serde agrees with to_json, and reads it back.
        assert_eq!(serde_json::to_string(&e).unwrap(), serde_json::to_string(&deep::<Value>(&out)).unwrap(), "{name}");
        let back: Envelope = deep(&out);
        assert_eq!(back, e, "{name}");
        assert_eq!(Envelope::from_json(&out).unwrap(), e, "{name}");
        // Display is the string form: "kind: message", each on one line
        // and bounded, the message sanitized when the contract sanitizes it.
        let message = string_form_text(&e.message, SANITIZED_FIELDS.contains(&"message"));
        assert_eq!(e.to_string(), format!("{}: {message}", string_form_text(e.kind.as_str(), false)), "{name}: Display");
    }
}

/// A text of the string form (Display), by the rule the string_forms
/// vectors hold every package to: on one line (tab, line feed, carriage
/// return, U+2028 and U+2029 become spaces; the other C0 controls, DEL and
/// the C1 controls go), sanitized when sanitized is set (then put on one
/// line again), and bounded as the log form bounds its texts.
fn string_form_text(s: &str, sanitized: bool) -> String {
    let line = |s: &str| -> String {
        s.chars()
            .filter_map(|c| match c {
                '\t' | '\n' | '\r' | '\u{2028}' | '\u{2029}' => Some(' '),
                c if c < ' ' || ('\u{7f}'..='\u{9f}').contains(&c) => None,
                c => Some(c),
            })
            .collect()
    };
    let mut text = line(s);
    if sanitized {
        text = line(&sanitize(&text));
    }
    bound_log_text(&text).into_owned()
}

#[test]
fn malformed_vectors() {
    let v = vectors();
    for w in v["malformed"].as_array().unwrap() {
        let name = &w["name"];
        let err = Envelope::from_slice(&input(w)).expect_err(&name.to_string());
        assert_eq!(err.path, w["path"], "{name}: {err}");
        assert_eq!(err.category.as_str(), w["category"], "{name}: {err}");
        assert!(!err.problem.is_empty());
        if let Some(value) = w.get("input") {
            // A parsed value: from_value and serde report the same problem.
            let err2 = Envelope::from_value(value).expect_err(&name.to_string());
            assert_eq!((err2.path.as_str(), err2.category), (err.path.as_str(), err.category), "{name}");
            if err.category != DecodeErrorCategory::Syntax {
                let serde_err = serde_json::from_value::<Envelope>(value.clone()).expect_err(&name.to_string());
                assert!(serde_err.to_string().starts_with(&err.to_string()), "{name}: {serde_err}");
            }
        }
    }
}

#[test]
fn edge_vectors() {
    let v = vectors();
    for w in v["edges"].as_array().unwrap() {
        let name = &w["name"];
        let e = Envelope::from_slice(&input(w)).unwrap_or_else(|err| panic!("{name}: {err}"));
        let out = e.to_json().unwrap();
        let got: Value = serde_json::from_str(&out).unwrap();
        assert!(same(&got, &w["envelope"]), "{name}:\n got {got}\nwant {}", w["envelope"]);
        // Written again, it reads back to the same text (a number may change
        // its JSON type: 1e-999 reads as 0.0 and is written as 0).
        assert_eq!(Envelope::from_json(&out).unwrap().to_json().unwrap(), out, "{name}");
    }
}

#[test]
fn next_step_vectors() {
    let v = vectors();
    for w in v["next_step"].as_array().unwrap() {
        let name = &w["name"];
        let e = Envelope::from_slice(&input(w)).unwrap_or_else(|err| panic!("{name}: {err}"));
        for a in w["attempts"].as_array().unwrap() {
            let d = next_step(&e, a["attempt"].as_i64().unwrap());
            let got = (d.step.as_str(), d.delay_min_ms, d.delay_max_ms, d.check_state_first, d.exhausted);
            let want = (a["step"].as_str().unwrap(), a["delay_min_ms"].as_i64().unwrap(), a["delay_max_ms"].as_i64().unwrap(), a["check_state_first"].as_bool().unwrap(), a["exhausted"].as_bool().unwrap());
            assert_eq!(got, want, "{name}, attempt {}", a["attempt"]);
        }
    }
}

#[test]
fn classify_vectors() {
    let v = vectors();
    let cases = v["classify"].as_array().cloned().unwrap_or_default();
    for w in &cases {
        let f = classifier(w["classifier"].as_str().unwrap()).unwrap_or_else(|| panic!("no classifier {}", w["classifier"]));
        let failure = w["failure"].as_str().unwrap();
        let u = Upstream { status: w["status"].as_i64().unwrap(), failure: Failure::parse(failure), text: w["text"].as_str().unwrap() };
        assert_eq!(failure.is_empty(), u.failure.is_none(), "{w}");
        let got = f(&u);
        assert_eq!((got.kind.as_str(), got.counts_toward_breaker, got.rule as u64), (w["kind"].as_str().unwrap(), w["breaker"].as_bool().unwrap(), w["rule"].as_u64().unwrap()), "{w}");
    }
}

#[test]
fn for_tool_vectors() {
    let v = vectors();
    for w in v["for_tool"].as_array().unwrap() {
        let s = SameArguments::from(w["same_arguments"].as_str().unwrap());
        let a = ToolAnnotations { read_only_hint: w["read_only"].as_bool(), idempotent_hint: w["idempotent"].as_bool() };
        assert_eq!(s.for_tool(a).as_str(), w["result"], "{w}");
        assert_eq!(for_tool(&s, a).as_str(), w["result"], "{w}");
    }
}

#[test]
fn sanitizer_vectors() {
    for var in ["ERRGEN_SANITIZER_VECTORS", "ERRGEN_SANITIZE_DIFF"] {
        let file = read(var);
        let p = &file["policy"];
        if p["max_length"].as_u64() != Some(SANITIZE_POLICY.max_length as u64) || p["truncation_marker"].as_str() != Some(SANITIZE_POLICY.truncation_marker) {
            // The vectors assume errgen's default policy; a contract with
            // another length or marker (the escaping test contract) is
            // held to them by the runtime's own tests (sanitize-check).
            println!("{var}: skipped: the contract's policy is not the one the vectors assume");
            continue;
        }
        let cases = file["cases"].as_array().unwrap();
        let min = if var == "ERRGEN_SANITIZE_DIFF" { 10000 } else { 150 };
        assert!(cases.len() >= min, "{var}: {} cases", cases.len());
        for c in cases {
            let max = c.get("max_length").and_then(Value::as_u64).map_or(SANITIZE_POLICY.max_length, |m| m as usize);
            let text = |t: &Value| String::from_utf8(vector_text(t)).ok();
            // Raw bytes that are not UTF-8 are the runtime's own tests' (sanitize-check).
            let (Some(input), Some(want)) = (text(&c["input"]), text(&c["output"])) else { continue };
            let got = sanitize_max(&input, max);
            assert_eq!(got, want, "{var}: case {}", c["name"]);
            assert_eq!(sanitize_max(&got, max), got, "{var}: case {}: not a fixpoint", c["name"]);
        }
    }
}

/// A sanitizer vector's text as bytes: a string; {repeat, times}; {hex}; or
/// a list of these, concatenated (docs/sanitizer.md).
fn vector_text(t: &Value) -> Vec<u8> {
    match t {
        Value::String(s) => s.as_bytes().to_vec(),
        Value::Array(parts) => parts.iter().flat_map(vector_text).collect(),
        Value::Object(o) if o.contains_key("repeat") => o["repeat"].as_str().unwrap().repeat(o["times"].as_u64().unwrap() as usize).into_bytes(),
        Value::Object(o) if o.contains_key("hex") => {
            let hex: Vec<u8> = o["hex"].as_str().unwrap().bytes().filter(|&c| c != b' ').collect();
            hex.chunks(2).map(|d| u8::from_str_radix(std::str::from_utf8(d).unwrap(), 16).unwrap()).collect()
        }
        _ => panic!("not a vector text: {t}"),
    }
}

/// Deserializes text with serde_json, past its own nesting limit (the
/// vectors reach MAX_DEPTH, 128 levels; serde_json stops at 127).
fn deep<T: serde::de::DeserializeOwned>(text: &str) -> T {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    T::deserialize(&mut de).unwrap_or_else(|e| panic!("{e}"))
}

// --- the surfaces ----------------------------------------------------------

// caller_sets(e, want) sets the context fields the layout requires, which a
// failed response cannot say, from want, as the caller of read_http does
// before passing the envelope on: run.sh writes it from the crate's
// Envelope::new, whose parameters after the message are those fields.
include!(concat!(env!("CARGO_MANIFEST_DIR"), "/caller.rs"));

// The "no secret through any path" property (issue 28), in this binary.
#[path = "nosecret.rs"]
mod nosecret;

#[test]
fn tool_result_vector() {
    let v = vectors();
    let w = &v["tool_result"];
    match &TOOL_RESULT {
        None => assert!(w.is_null(), "the vectors classify a tool result: {w}"),
        Some(c) => {
            assert_eq!(c.kind.as_str(), w["kind"], "{w}");
            assert_eq!(Some(c.counts_toward_breaker), w["breaker"].as_bool(), "{w}");
            assert_eq!(c.rule, 0);
        }
    }
}

fn header_pairs(h: &Value) -> Vec<(&str, &str)> {
    h.as_object().unwrap().iter().map(|(k, x)| (k.as_str(), x.as_str().unwrap())).collect()
}

#[test]
fn http_vectors() {
    let v = vectors();
    let cases = v["http"].as_array().unwrap();
    assert!(!cases.is_empty(), "no http vectors");
    for w in cases {
        let name = &w["name"];
        let mut headers = header_pairs(&w["headers"]);
        // A repeated header: more lines, in order.
        for l in w["header_lines"].as_array().unwrap() {
            headers.push((l[0].as_str().unwrap(), l[1].as_str().unwrap()));
        }
        let status = w["status"].as_u64().unwrap() as u16;
        let body = w["body"].as_str().unwrap().as_bytes();
        let got = Envelope::read_http(status, &headers, body);
        // The http feature's reader answers the same.
        let mut resp = http::Response::new(body.to_vec());
        *resp.status_mut() = http::StatusCode::from_u16(status).unwrap();
        for (k, x) in &headers {
            resp.headers_mut().append(http::HeaderName::from_bytes(k.as_bytes()).unwrap(), http::HeaderValue::from_str(x).unwrap());
        }
        assert_eq!(Envelope::from_http_response(&resp), got, "{name}");
        // Header names are matched ignoring case.
        let upper: Vec<(String, &str)> = headers.iter().map(|(k, x)| (k.to_ascii_uppercase(), *x)).collect();
        let upper: Vec<(&str, &str)> = upper.iter().map(|(k, x)| (k.as_str(), *x)).collect();
        assert_eq!(Envelope::read_http(status, &upper, body), got, "{name}");
        if w["envelope"].is_null() {
            let err = got.expect_err(&name.to_string());
            assert_eq!(Some(err.category.as_str()), w["error"].as_str(), "{name}");
            continue;
        }
        let want = Envelope::from_value(&w["envelope"]).unwrap_or_else(|err| panic!("{name}: {err}"));
        let e = caller_sets(got.unwrap_or_else(|err| panic!("{name}: {err}")), &want);
        assert_eq!(e.to_json().unwrap_or_else(|err| panic!("{name}: {err}")), go_json(&w["envelope"]), "{name}");
        // (A decoded envelope keeps the derived values it received; one read
        // from a response computes them, so the two compare as decoded.)
        assert_eq!(Envelope::from_json(&e.to_json().unwrap()).unwrap(), want, "{name}");
        let mark = w["envelope"].get(PROMOTED_MEMBER).and_then(Value::as_str).unwrap_or("");
        assert_eq!(e.promoted_from(), mark, "{name}");
        // The mark survives encoding and decoding.
        assert_eq!(Envelope::from_json(&e.to_json().unwrap()).unwrap().promoted_from(), mark, "{name}");
    }
}

/// mcp_error_schema: the consumer schema as a subschema, without its $id
/// and descriptions (mcp_output_schema_vectors checks the widening).
#[test]
fn mcp_error_schema_is_bare() {
    let errors = mcp_error_schema();
    assert_eq!(errors["type"], "object");
    assert!(errors.get("$id").is_none(), "{errors}");
    // Every layout's members (agento's and ovstorage's name the kind otherwise).
    let members = errors["properties"].as_object().expect("properties");
    let described: Vec<&String> = members.iter().filter(|(_, m)| m.get("description").is_some()).map(|(name, _)| name).collect();
    assert!(!members.is_empty() && described.is_empty(), "described: {described:?}");
}

/// Every envelope vector through each surface and back.
#[test]
fn surface_round_trips() {
    let v = vectors();
    for w in v["envelopes"].as_array().unwrap() {
        let name = &w["name"];
        let e = Envelope::from_slice(&input(w)).unwrap_or_else(|err| panic!("{name}: {err}"));
        let text = e.to_json().unwrap();

        // MCP: structuredContent, or the text content alone.
        let r = e.to_tool_result().unwrap();
        assert_eq!(r["isError"], true, "{name}");
        assert_eq!(r["content"][0]["type"], "text", "{name}");
        assert_eq!(r["content"][0]["text"], text.as_str(), "{name}");
        assert_eq!(Envelope::from_tool_result(&r).as_ref(), Ok(&e), "{name}");
        let mut text_only = r.clone();
        text_only.as_object_mut().unwrap().remove("structuredContent");
        assert_eq!(e.to_text_tool_result().unwrap(), text_only, "{name}");
        assert_eq!(Envelope::from_tool_result(&text_only).as_ref(), Ok(&e), "{name}");
        // A structuredContent that is no envelope is that error, if no text is one.
        let broken = serde_json::json!({"structuredContent": {"kind": 1}, "content": [{"type": "text", "text": "plain words"}]});
        let err = Envelope::from_tool_result(&broken).unwrap_err();
        assert_eq!(err, Envelope::from_value(&broken["structuredContent"]).unwrap_err(), "{name}");

        // HTTP: the envelope, and the problem document when Accept asks for it.
        for (accept, media) in [(vec![], MEDIA_TYPE_JSON), (vec!["application/problem+json"], MEDIA_TYPE_PROBLEM)] {
            let resp = e.write_http(&accept);
            assert_eq!(resp.status, e.http_status(), "{name}");
            assert_eq!(resp.header("content-type"), Some(media), "{name}");
            assert_eq!(resp.header("vary"), Some("Accept"), "{name}");
            assert_eq!(resp.header("retry-after").map(|s| s.parse::<i64>().unwrap()), e.retry_after_seconds(), "{name}");
            let body = String::from_utf8(resp.body.clone()).unwrap();
            if media == MEDIA_TYPE_JSON {
                assert_eq!(body, text, "{name}");
            } else {
                assert_eq!(body, e.problem("").unwrap(), "{name}");
            }
            let headers: Vec<(&str, &str)> = resp.headers.iter().map(|(k, x)| (*k, x.as_str())).collect();
            let back = Envelope::read_http(resp.status, &headers, &resp.body).unwrap_or_else(|err| panic!("{name}: {err}"));
            let wire: Value = deep(&text);
            let collides = ["type", "title", "status", "detail", "instance"].iter().any(|m| wire.get(*m).is_some());
            if media == MEDIA_TYPE_JSON || !collides {
                assert_eq!(back, e, "{name}: {media}");
            }
            // The http feature's response is the same answer.
            let req = accept.iter().fold(http::Request::builder(), |b, a| b.header("accept", *a)).body(()).unwrap();
            let hr = e.to_http_response(&req);
            assert_eq!((hr.status().as_u16(), hr.body()), (resp.status, &resp.body), "{name}");
            for (k, x) in &resp.headers {
                assert_eq!(hr.headers().get(*k).map(|h| h.to_str().unwrap()), Some(x.as_str()), "{name}: {k}");
            }
        }
        let doc: Value = deep(&e.problem("/calls/7").unwrap());
        assert_eq!(doc["type"], problem_type(&e.kind).as_str(), "{name}");
        assert_eq!(doc["status"].as_u64(), Some(e.http_status() as u64), "{name}");
        assert_eq!(doc["detail"], e.message.as_str(), "{name}");
        assert_eq!(doc["instance"], "/calls/7", "{name}");

        // The command line: one line, read back in either form.
        let mut line = Vec::new();
        e.write_cli(&mut line, "deploy --target \"staging\"").unwrap();
        assert_eq!(line.iter().filter(|&&c| c == b'\n').count(), 1, "{name}");
        assert_eq!(line.last(), Some(&b'\n'), "{name}");
        assert_eq!(Envelope::read_cli(&line).as_ref(), Ok(&e), "{name}");
        assert_eq!(Envelope::read_cli(text.as_bytes()).as_ref(), Ok(&e), "{name}");
        let wrapped = format!("{{\"ok\":false,\"command\":\"x\",\"error\":{text}}}");
        assert_eq!(Envelope::read_cli(wrapped.as_bytes()).as_ref(), Ok(&e), "{name}");
        assert!(e.exit_code() > 0, "{name}");
    }
}

/// The surfaces section (issue 19): each envelope's HTTP answer, problem
/// document, exit code and CLI line, byte for byte, and read back; and its
/// structured-log form (Envelope::log_fields).
#[test]
fn surfaces_vectors() {
    let v = vectors();
    let cases = v["surfaces"].as_array().expect("the vectors have a surfaces section (errgen generate writes it)");
    for w in cases {
        let name = &w["name"];
        let e = Envelope::from_value(&w["envelope"]).unwrap_or_else(|err| panic!("{name}: {err}"));
        for (form, accept) in [("http", vec![]), ("problem", vec!["application/problem+json"])] {
            let want = &w[form];
            let resp = e.write_http(&accept);
            assert_eq!(Some(resp.status as u64), want["status"].as_u64(), "{name}: {form}");
            let mut got: Vec<(String, &str)> = resp.headers.iter().map(|(k, x)| (k.to_ascii_lowercase(), x.as_str())).collect();
            got.sort();
            let mut expect: Vec<(String, &str)> = header_pairs(&want["headers"]).into_iter().map(|(k, x)| (k.to_owned(), x)).collect();
            expect.sort();
            assert_eq!(got, expect, "{name}: {form}");
            assert_eq!(std::str::from_utf8(&resp.body).unwrap(), want["body"], "{name}: {form}");
            let back = Envelope::read_http(resp.status, &header_pairs(&want["headers"]), want["body"].as_str().unwrap().as_bytes()).unwrap_or_else(|err| panic!("{name}: {form}: {err}"));
            let back = caller_sets(back, &e);
            assert_eq!(back.to_json().unwrap(), go_json(&want["envelope"]), "{name}: {form}");
        }
        assert_eq!(Some(e.exit_code() as i64), w["exit_code"].as_i64(), "{name}");
        let mut line = Vec::new();
        e.write_cli(&mut line, w["command"].as_str().unwrap()).unwrap();
        assert_eq!(std::str::from_utf8(&line).unwrap(), w["cli"], "{name}");
        assert_eq!(Envelope::read_cli(w["cli"].as_str().unwrap().as_bytes()).as_ref(), Ok(&e), "{name}");
        // The log form, unless a text it sanitizes is one a sanitizer policy
        // might change (null): member order and value types included, as
        // the JSON text of both.
        if !w["log"].is_null() {
            let got = e.log_fields();
            assert_eq!(serde_json::to_string(&got).unwrap(), serde_json::to_string(&w["log"]).unwrap(), "{name}: log");
            assert!(got.iter().map(|(k, _)| *k).all(|k| LOG.members.contains(&k)), "{name}: log");
        }
    }
}

/// The string_forms section (issue 28): envelopes received with a secret,
/// a forged log line or controls in them; Display (the string form) and
/// Debug on one line, redacted and bounded, as every package writes them,
/// and the log form's message and extra.
#[test]
fn string_form_vectors() {
    let v = vectors();
    let cases = v["string_forms"].as_array().expect("the vectors have a string_forms section (errgen generate writes it)");
    for w in cases {
        let name = &w["name"];
        let e = Envelope::from_json(w["text"].as_str().unwrap()).unwrap_or_else(|err| panic!("{name}: {err}"));
        let want = w["string"].as_str().unwrap();
        assert_eq!(e.to_string(), want, "{name}: Display");
        let err: Box<dyn std::error::Error> = Box::new(e.clone());
        assert_eq!(err.to_string(), want, "{name}: Box<dyn Error>");
        let (kind, message) = want.split_once(": ").unwrap();
        assert_eq!(format!("{e:?}"), format!("Envelope {{ kind: {kind:?}, message: {message:?}, .. }}"), "{name}: Debug");
        let got = e.log_fields();
        assert_eq!(got.get("message"), Some(&LogValue::Str(w["log_message"].as_str().unwrap().to_owned())), "{name}: log message");
        assert_eq!(got.get("extra"), w["log_extra"].as_str().map(|x| LogValue::Str(x.to_owned())).as_ref(), "{name}: log extra");
    }
}

/// The writes section (issue 28): envelopes changed by hand as no decoder
/// gives them. A Rust string cannot hold text that is not well-formed, so
/// the ill-formed vector's U+FFFD stays what it is: Rust writes it as the
/// character where the vectors (after Go, which writes a byte that is not
/// UTF-8) hold the escape \ufffd, and the JSON texts are compared so. A
/// retry hint past MAX_SAFE_INTEGER is set as the vector says.
#[test]
fn writes_vectors() {
    let v = vectors();
    let cases = v["writes"].as_array().expect("the vectors have a writes section (errgen generate writes it)");
    assert!(!cases.is_empty(), "no writes vectors");
    let escaped = |s: &str| s.replace('\u{FFFD}', "\\ufffd");
    for w in cases {
        let name = &w["name"];
        let mut e = Envelope::from_value(&w["envelope"]).unwrap_or_else(|err| panic!("{name}: {err}"));
        if let Some(ms) = w["retry_after_ms"].as_str() {
            e.recovery.retry_after_ms = Some(ms.parse().unwrap());
        }
        for (form, accept) in [("http", vec![]), ("problem", vec!["application/problem+json"])] {
            let want = &w[form];
            let resp = e.write_http(&accept);
            assert_eq!(Some(resp.status as u64), want["status"].as_u64(), "{name}: {form}");
            let mut got: Vec<(String, &str)> = resp.headers.iter().map(|(k, x)| (k.to_ascii_lowercase(), x.as_str())).collect();
            got.sort();
            let mut expect: Vec<(String, &str)> = header_pairs(&want["headers"]).into_iter().map(|(k, x)| (k.to_owned(), x)).collect();
            expect.sort();
            assert_eq!(got, expect, "{name}: {form}");
            let body = std::str::from_utf8(&resp.body).unwrap();
            assert_eq!(escaped(body), want["body"], "{name}: {form}");
            let back = Envelope::read_http(resp.status, &header_pairs(&want["headers"]), &resp.body).unwrap_or_else(|err| panic!("{name}: {form}: {err}"));
            assert_eq!(deep::<Value>(&back.to_json().unwrap()), want["envelope"], "{name}: {form}");
        }
        if let Some(cli) = w["cli"].as_str() {
            assert_eq!(escaped(&e.problem("").unwrap()), w["problem"]["body"], "{name}");
            let mut line = Vec::new();
            e.write_cli(&mut line, w["command"].as_str().unwrap()).unwrap();
            assert_eq!(escaped(std::str::from_utf8(&line).unwrap()), cli, "{name}");
            assert_eq!(escaped(e.to_tool_result().unwrap()["content"][0]["text"].as_str().unwrap()), w["http"]["body"], "{name}");
        }
        if !w["log"].is_null() {
            assert_eq!(serde_json::to_string(&e.log_fields()).unwrap(), serde_json::to_string(&w["log"]).unwrap(), "{name}: log");
        }
        if let Some(aip) = w["aip193"].as_str() {
            // Metadata holds JSON text, whose \ufffd the character stands for here.
            fn unescaped(v: Value) -> Value {
                match v {
                    Value::String(s) => Value::String(s.replace("\\ufffd", "\u{FFFD}")),
                    Value::Array(a) => Value::Array(a.into_iter().map(unescaped).collect()),
                    Value::Object(o) => Value::Object(o.into_iter().map(|(k, x)| (k, unescaped(x))).collect()),
                    x => x,
                }
            }
            assert_eq!(unescaped(deep(&e.to_aip193().unwrap())), unescaped(deep(aip)), "{name}: AIP-193");
        }
    }
}

/// The accept section (issue 19): which Accept headers get the problem document.
#[test]
fn accept_vectors() {
    let v = vectors();
    let cases = v["accept"].as_array().expect("the vectors have a accept section (errgen generate writes it)");
    let e = Envelope::from_slice(&input(&v["envelopes"][0])).unwrap();
    for w in cases {
        let accept: Vec<&str> = w["accept"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
        let media = if w["problem"] == true { MEDIA_TYPE_PROBLEM } else { MEDIA_TYPE_JSON };
        assert_eq!(e.write_http(&accept).header("content-type"), Some(media), "{w}");
    }
}

// --- the google.rpc mapping (AIP-193) ----------------------------------------

/// The vectors' section named name, which must be there and not empty.
fn aip_section<'a>(v: &'a Value, name: &str) -> &'a Vec<Value> {
    let s = v[name].as_array().unwrap_or_else(|| panic!("the vectors have no {name} section (errgen generate writes it)"));
    assert!(!s.is_empty(), "the {name} section is empty");
    s
}

/// The aip193_domain, aip193_kinds and aip193_reasons sections: the
/// ErrorInfo domain, each kind's HTTP status, gRPC code and reason through
/// lookup, and the reasons' edges through Kind::reason of kinds the
/// contract may not define, which computes them.
#[test]
fn aip193_tables_vectors() {
    let v = vectors();
    assert_eq!(v["aip193_domain"].as_str(), Some(ERROR_INFO_DOMAIN), "the vectors have an aip193_domain section");
    for w in aip_section(&v, "aip193_kinds") {
        let kind = Kind::from(w["kind"].as_str().unwrap());
        let c = lookup(&kind);
        let name = &w["kind"];
        assert_eq!(Some(c.http_status as u64), w["http_status"].as_u64(), "{name}");
        assert_eq!(Some(c.grpc_code as i64), w["grpc_code"].as_i64(), "{name}");
        assert_eq!(c.grpc_status, w["grpc_status"], "{name}");
        assert_eq!(kind.reason(), w["reason"].as_str().unwrap(), "{name}");
        assert_eq!(c.reason, w["reason"].as_str().unwrap(), "{name}");
    }
    for w in aip_section(&v, "aip193_reasons") {
        let kind = Kind::from(w["kind"].as_str().unwrap());
        assert_eq!(kind.reason(), w["reason"].as_str().unwrap(), "{}", w["kind"]);
    }
}

/// The aip193_encode section: each envelope's AIP-193 JSON byte for byte,
/// and from_aip193 reading it back into the envelope.
#[test]
fn aip193_encode_vectors() {
    let v = vectors();
    for w in aip_section(&v, "aip193_encode") {
        let name = &w["name"];
        let e = Envelope::from_value(&w["envelope"]).unwrap_or_else(|err| panic!("{name}: {err}"));
        let got = e.to_aip193().unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(got, w["aip193"].as_str().unwrap(), "{name}");
        assert_eq!(e.to_rpc_status().unwrap().to_aip193(), got, "{name}");
        let back = Envelope::from_aip193(got.as_bytes()).unwrap_or_else(|err| panic!("{name}: {err}"));
        let text = back.to_json().unwrap_or_else(|err| panic!("{name}: {err}"));
        assert!(same(&deep::<Value>(&text), &w["envelope"]), "{name}: from_aip193:\ngot  {text}\nwant {}", w["envelope"]);
    }
}

/// The aip193_decode section: foreign AIP-193 errors read into their
/// envelopes; null means from_aip193 must fail.
#[test]
fn aip193_decode_vectors() {
    let v = vectors();
    for w in aip_section(&v, "aip193_decode") {
        let name = &w["name"];
        let got = Envelope::from_aip193(w["aip193"].as_str().unwrap().as_bytes());
        if w["envelope"].is_null() {
            let err = got.expect_err(&format!("{name}: from_aip193 returned an envelope, want an error"));
            if let Some(category) = w.get("category") {
                // The error the envelope decoder gives for the same problem.
                assert_eq!((err.path.as_str(), err.category.as_str()), (w["path"].as_str().unwrap(), category.as_str().unwrap()), "{name}: {err}");
            }
            continue;
        }
        let want = Envelope::from_value(&w["envelope"]).unwrap_or_else(|err| panic!("{name}: {err}"));
        let e = caller_sets(got.unwrap_or_else(|err| panic!("{name}: {err}")), &want);
        let text = e.to_json().unwrap_or_else(|err| panic!("{name}: {err}"));
        assert!(same(&deep::<Value>(&text), &w["envelope"]), "{name}: from_aip193:\ngot  {text}\nwant {}", w["envelope"]);
        // Whatever a reader returns can be written again, as an AIP-193 error too.
        e.to_aip193().unwrap_or_else(|err| panic!("{name}: to_aip193: {err}"));
    }
}

/// AIP-193 answers written by the real protobuf library (issue 29): `make
/// protojson-aip193` (tests/go/cmd/protojsonaip193, ERRGEN_PROTOJSON_AIP193)
/// has protojson write a google.rpc.Status with its ErrorInfo and RetryInfo
/// for every envelope of every contract's aip193_encode vectors, compact,
/// indented and with proto names, inside {"error": ...}; from_aip193 reads each back into the
/// envelope.
#[test]
fn aip193_protojson_answers() {
    let f = read("ERRGEN_PROTOJSON_AIP193");
    let answers = f["contracts"][CONTRACT_NAME].as_array().unwrap_or_else(|| panic!("ERRGEN_PROTOJSON_AIP193 has no answers of {CONTRACT_NAME}: run make protojson-aip193"));
    assert!(!answers.is_empty(), "no protojson answers of {CONTRACT_NAME}");
    let mut wrong = Vec::new();
    for a in answers {
        let name = a["name"].as_str().unwrap_or_default();
        match Envelope::from_aip193(a["aip193"].as_str().unwrap_or_default().as_bytes()) {
            Err(err) => wrong.push(format!("{name}: {err}")),
            Ok(e) => {
                let text = e.to_json().unwrap_or_else(|err| panic!("{name}: {err}"));
                if !same(&deep::<Value>(&text), &a["envelope"]) {
                    wrong.push(format!("{name}:\ngot  {text}\nwant {}", a["envelope"]));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{} of {} answers read wrong:\n{}", wrong.len(), answers.len(), wrong.join("\n"));
}

/// The mcp_text section: a tool result's one text item, which
/// from_tool_result reads (the envelope) or rejects (null).
#[test]
fn mcp_text_vectors() {
    let v = vectors();
    let cases = v["mcp_text"].as_array().expect("the vectors have an mcp_text section (errgen generate writes it)");
    assert!(!cases.is_empty(), "no mcp_text vectors");
    for w in cases {
        let name = &w["name"];
        let result = serde_json::json!({"content": [{"type": "text", "text": w["text"]}], "isError": true});
        let got = Envelope::from_tool_result(&result);
        if w["envelope"].is_null() {
            assert!(got.is_err(), "{name}: from_tool_result returned an envelope, want an error");
            continue;
        }
        let e = got.unwrap_or_else(|err| panic!("{name}: {err}"));
        let text = e.to_json().unwrap_or_else(|err| panic!("{name}: {err}"));
        assert!(same(&deep::<Value>(&text), &w["envelope"]), "{name}: from_tool_result:\ngot  {text}\nwant {}", w["envelope"]);
    }
}

/// The envelope e encodes to, as a JSON value.
fn wire_of(e: &Envelope) -> Value {
    deep(&e.to_json().unwrap())
}

/// The mcp_errors section: every envelope's MCP protocol error (the
/// JSON-RPC error object and the response around it, read back by
/// from_mcp_error), the _meta of its isError tool results, and the tool
/// result that keeps an upstream's structured content.
#[test]
fn mcp_errors_vectors() {
    let v = vectors();
    let cases = v["mcp_errors"].as_array().expect("the vectors have an mcp_errors section (errgen generate writes it)");
    assert!(!cases.is_empty(), "no mcp_errors vectors");
    for w in cases {
        let name = &w["name"];
        let e = Envelope::from_value(&w["envelope"]).unwrap_or_else(|err| panic!("{name}: {err}"));
        let error = e.to_mcp_error().unwrap();
        assert!(same(&error, &w["error"]), "{name}: to_mcp_error:\ngot  {error}\nwant {}", w["error"]);
        assert_eq!(Value::from(e.mcp_error_code()), w["error"]["code"], "{name}");
        let response = e.to_mcp_error_response(Value::from("req-1")).unwrap();
        let want = serde_json::json!({"jsonrpc": "2.0", "id": "req-1", "error": w["error"]});
        assert!(same(&response, &want), "{name}: to_mcp_error_response:\ngot  {response}\nwant {want}");
        for form in [&error, &response] {
            let back = Envelope::from_mcp_error(form).unwrap_or_else(|err| panic!("{name}: {err}"));
            assert!(same(&wire_of(&back), &w["envelope"]), "{name}: from_mcp_error");
        }
        // Every isError tool result carries the contract's _meta, or none.
        for r in [e.to_tool_result().unwrap(), e.to_text_tool_result().unwrap()] {
            assert!(same(r.get("_meta").unwrap_or(&Value::Null), &w["meta"]), "{name}: _meta {r}");
        }
        let up = e.to_upstream_tool_result(w["upstream"].clone()).unwrap();
        assert_eq!(up["isError"], true, "{name}");
        assert!(same(&deep::<Value>(up["content"][0]["text"].as_str().unwrap()), &w["envelope"]), "{name}");
        assert!(same(&up["structuredContent"], &w["structured_content"]), "{name}: {up}");
        assert!(same(up.get("_meta").unwrap_or(&Value::Null), &w["meta"]), "{name}: {up}");
        let bare = serde_json::json!({"content": [], "structuredContent": w["structured_content"], "isError": true});
        for r in [&up, &bare] {
            let back = Envelope::from_tool_result(r).unwrap_or_else(|err| panic!("{name}: {err}"));
            assert!(same(&wire_of(&back), &w["envelope"]), "{name}: from_tool_result");
            assert_eq!(mcp_upstream_structured_content(r), Some(&w["upstream"]), "{name}");
        }
        assert_eq!(mcp_upstream_structured_content(&e.to_tool_result().unwrap()), None, "{name}");
        // An upstream that sent no structured content leaves the plain result.
        assert_eq!(e.to_upstream_tool_result(Value::Null).unwrap(), e.to_tool_result().unwrap(), "{name}");
    }
}

/// The mcp_error_read section: JSON-RPC errors, the error object or the
/// whole response, which from_mcp_error reads (the envelope) or rejects
/// (null).
#[test]
fn mcp_error_read_vectors() {
    let v = vectors();
    let cases = v["mcp_error_read"].as_array().expect("the vectors have an mcp_error_read section (errgen generate writes it)");
    assert!(!cases.is_empty(), "no mcp_error_read vectors");
    for w in cases {
        let name = &w["name"];
        let got = Envelope::from_mcp_error(&w["input"]);
        if w["envelope"].is_null() {
            assert!(got.is_err(), "{name}: from_mcp_error returned an envelope, want an error");
            continue;
        }
        let e = got.unwrap_or_else(|err| panic!("{name}: {err}"));
        assert!(same(&wire_of(&e), &w["envelope"]), "{name}: from_mcp_error");
    }
}

/// The mcp_output_schema section: a tool's success outputSchema and its
/// widening by mcp_output_schema, compared as JSON values.
#[test]
fn mcp_output_schema_vectors() {
    let v = vectors();
    let cases = v["mcp_output_schema"].as_array().expect("the vectors have an mcp_output_schema section (errgen generate writes it)");
    assert!(!cases.is_empty(), "no mcp_output_schema vectors");
    for w in cases {
        let success = w["success"].as_object().expect("a success schema is an object");
        assert_eq!(mcp_output_schema(success), w["widened"], "{}", w["name"]);
    }
}

/// The cli_read section: lines read_cli reads (the envelope) or rejects
/// (null).
#[test]
fn cli_read_vectors() {
    let v = vectors();
    let cases = v["cli_read"].as_array().expect("the vectors have a cli_read section (errgen generate writes it)");
    assert!(!cases.is_empty(), "no cli_read vectors");
    for w in cases {
        let name = &w["name"];
        let line = match w.get("bytes") {
            Some(b) => base64(b.as_str().unwrap()),
            None => w["line"].as_str().unwrap().as_bytes().to_vec(),
        };
        let got = Envelope::read_cli(&line);
        if w["envelope"].is_null() {
            assert!(got.is_err(), "{name}: read_cli returned an envelope, want an error");
            continue;
        }
        let e = got.unwrap_or_else(|err| panic!("{name}: {err}"));
        let text = e.to_json().unwrap_or_else(|err| panic!("{name}: {err}"));
        assert!(same(&deep::<Value>(&text), &w["envelope"]), "{name}: read_cli:\ngot  {text}\nwant {}", w["envelope"]);
    }
}

/// The received section (issue 28): an envelope from an upstream with
/// secrets in what the contract sanitizes. The raw decoder keeps them; the
/// decoder and every reader, given what each surface writes for the raw
/// envelope, redact them; and no surface writing the redacted envelope
/// holds one.
#[test]
fn received_vectors() {
    let v = vectors();
    let Some(cases) = v["received"].as_array() else { panic!("the vectors have no received section (errgen generate writes it)") };
    for w in cases {
        let name = &w["name"];
        let doc = go_json(&w["document"]);
        let raw = Envelope::from_json_raw(&doc).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(Envelope::from_value_raw(&w["document"]).as_ref(), Ok(&raw), "{name}");
        assert!(same(&deep::<Value>(&raw.to_json().unwrap()), &w["raw"]), "{name}: from_json_raw");
        let e = Envelope::from_json(&doc).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(Envelope::from_value(&w["document"]).as_ref(), Ok(&e), "{name}");
        assert_eq!(deep::<Envelope>(&doc), e, "{name}: serde::Deserialize");
        assert!(same(&deep::<Value>(&e.to_json().unwrap()), &w["envelope"]), "{name}: from_json:\ngot  {}\nwant {}", e.to_json().unwrap(), w["envelope"]);
        let secrets: Vec<&str> = w["secrets"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        // A top-level member named like a problem member gives way to it, so
        // the problem document reads back without it.
        let collides = ["type", "title", "status", "detail", "instance"].iter().any(|m| w["envelope"].get(*m).is_some());
        for (which, x) in [("raw", &raw), ("read", &e)] {
            let mut forms: Vec<(&str, String, Result<Envelope, DecodeError>, bool)> = Vec::new();
            for accept in [vec![], vec!["application/problem+json"]] {
                let resp = x.write_http(&accept);
                let headers: Vec<(&str, &str)> = resp.headers.iter().map(|(k, y)| (*k, y.as_str())).collect();
                let back = Envelope::read_http(resp.status, &headers, &resp.body);
                forms.push(("write_http", String::from_utf8(resp.body.clone()).unwrap(), back, !accept.is_empty()));
            }
            let r = x.to_tool_result().unwrap();
            forms.push(("to_tool_result", r.to_string(), Envelope::from_tool_result(&r), false));
            let mut line = Vec::new();
            x.write_cli(&mut line, "cmd").unwrap();
            forms.push(("write_cli", String::from_utf8(line.clone()).unwrap(), Envelope::read_cli(&line), false));
            let aip = x.to_aip193().unwrap();
            forms.push(("to_aip193", aip.clone(), Envelope::from_aip193(aip.as_bytes()), false));
            for (form, text, back, problem) in forms {
                let back = back.unwrap_or_else(|err| panic!("{name}: {form} of the {which} envelope, read back: {err}"));
                if !(problem && collides) {
                    assert!(same(&deep::<Value>(&back.to_json().unwrap()), &w["envelope"]), "{name}: {form} of the {which} envelope, read back: {}", back.to_json().unwrap());
                }
                if which == "read" {
                    for s in &secrets {
                        assert!(!text.contains(s), "{name}: {form} of the envelope read holds {s}: {text}");
                    }
                }
            }
        }
    }
}

/// How the call_errors vectors compare: every member want gives equals
/// got's (null: absent), arrays item by item, numbers by value.
fn call_error_matches(want: &Value, got: &Value, path: &str) -> Result<(), String> {
    match want {
        Value::Object(w) => {
            let Value::Object(g) = got else { return Err(format!("{path}: want an object, got {got}")) };
            for (k, wv) in w {
                match (wv, g.get(k)) {
                    (Value::Null, None) => {}
                    (Value::Null, Some(gv)) => return Err(format!("{path}.{k}: want it absent, got {gv}")),
                    (_, None) => return Err(format!("{path}.{k}: missing")),
                    (_, Some(gv)) => call_error_matches(wv, gv, &format!("{path}.{k}"))?,
                }
            }
            Ok(())
        }
        Value::Array(w) => match got {
            Value::Array(g) if g.len() == w.len() => {
                for (i, (wv, gv)) in w.iter().zip(g).enumerate() {
                    call_error_matches(wv, gv, &format!("{path}[{i}]"))?;
                }
                Ok(())
            }
            _ => Err(format!("{path}: want {want}, got {got}")),
        },
        _ if same(want, got) => Ok(()),
        _ => Err(format!("{path}: want {want}, got {got}")),
    }
}

/// The call_errors vectors through to_call_error and call_error_text: every
/// kind and the edge cases (the Go, TypeScript and Python suites also
/// validate the same vectors' call errors against labby's published schema).
#[test]
fn call_error_vectors() {
    let vs = vectors()["call_errors"].as_array().unwrap();
    if vs.is_empty() {
        let r = serde_json::json!({"content": [], "isError": true});
        assert!(to_call_error(&r, &CallTool::default()).is_err(), "a call error without a call_error section");
    }
    for v in vs {
        let name = v["name"].as_str().unwrap();
        let t = &v["tool"];
        let tool = CallTool { upstream: t["upstream"].as_str().unwrap(), name: t["name"].as_str().unwrap(), annotations: t["annotations"].as_object() };
        let r = to_call_error(&v["result"], &tool);
        if v["error"] == true {
            assert!(r.is_err(), "{name}: built a call error, want none: {r:?}");
            continue;
        }
        let text = call_error_text(&r.unwrap_or_else(|e| panic!("{name}: {e}")));
        let got: Value = serde_json::from_str(&text).unwrap();
        if let Err(e) = call_error_matches(&v["expect"], &got, name) {
            panic!("{e}\n{text}");
        }
        if v["exact"] == true {
            for k in got.as_object().unwrap().keys() {
                assert!(v["expect"].get(k).is_some(), "{name}: unexpected member {k}");
            }
        }
        for a in v["absent"].as_array().unwrap() {
            assert!(!text.contains(a.as_str().unwrap()), "{name}: the call error holds {a}");
        }
    }
}

/// Checks v against schema, the subset of JSON Schema labby's published
/// call-error schema uses (type, required, properties, additionalProperties,
/// enum, const, minLength, minimum, items, $ref into $defs, and patterns of
/// the form ^.+SEP.+$); a keyword outside it fails the test, so that a
/// newer schema cannot pass unchecked.
fn schema_problems(root: &Value, schema: &Value, v: &Value, path: &str, out: &mut Vec<String>) {
    let Value::Object(s) = schema else { panic!("{path}: a schema that is not an object: {schema}") };
    for (k, w) in s {
        match k.as_str() {
            "$schema" | "$id" | "$comment" | "title" | "description" | "$defs" | "additionalProperties" => {}
            "$ref" => {
                let name = w.as_str().unwrap().strip_prefix("#/$defs/").unwrap_or_else(|| panic!("{path}: $ref {w}"));
                schema_problems(root, &root["$defs"][name], v, path, out);
            }
            "type" => {
                let ok = match w.as_str().unwrap() {
                    "object" => v.is_object(),
                    "string" => v.is_string(),
                    "integer" => v.is_i64() || v.is_u64(),
                    "boolean" => v.is_boolean(),
                    "array" => v.is_array(),
                    t => panic!("{path}: type {t}"),
                };
                if !ok {
                    out.push(format!("{path}: not of type {w}: {v}"));
                }
            }
            "required" => {
                for r in w.as_array().unwrap() {
                    if v.is_object() && v.get(r.as_str().unwrap()).is_none() {
                        out.push(format!("{path}: missing {r}"));
                    }
                }
            }
            "properties" => {
                if let Value::Object(o) = v {
                    for (name, sub) in w.as_object().unwrap() {
                        if let Some(x) = o.get(name) {
                            schema_problems(root, sub, x, &format!("{path}.{name}"), out);
                        }
                    }
                }
            }
            "items" => {
                if let Value::Array(items) = v {
                    for (i, x) in items.iter().enumerate() {
                        schema_problems(root, w, x, &format!("{path}[{i}]"), out);
                    }
                }
            }
            "enum" if !w.as_array().unwrap().contains(v) => out.push(format!("{path}: {v} is not one of {w}")),
            "const" if !same(w, v) => out.push(format!("{path}: {v} is not {w}")),
            "minLength" if v.as_str().is_some_and(|t| (t.chars().count() as u64) < w.as_u64().unwrap()) => out.push(format!("{path}: shorter than {w}")),
            "minimum" if v.as_f64().is_some_and(|n| n < w.as_f64().unwrap()) => out.push(format!("{path}: below {w}")),
            "pattern" => {
                let p = w.as_str().unwrap();
                let sep = p.strip_prefix("^.+").and_then(|r| r.strip_suffix(".+$")).unwrap_or_else(|| panic!("{path}: pattern {p}"));
                let matched = v.as_str().is_some_and(|t| t.char_indices().any(|(i, _)| i > 0 && t[i..].starts_with(sep) && t.len() > i + sep.len()));
                if !matched && v.is_string() {
                    out.push(format!("{path}: {v} does not match {p}"));
                }
            }
            "enum" | "const" | "minLength" | "minimum" => {}
            _ => panic!("{path}: the schema uses {k}, which this check does not know"),
        }
    }
}

/// Every call error the reference crate builds from the call_errors vectors
/// validates against labby's published Code Mode call-error schema
/// (vendored in tests/testdata/labby).
#[test]
fn call_errors_validate_against_labbys_schema() {
    if vectors()["contract"] != "agent-error" {
        return;
    }
    let file = std::path::Path::new(file!()).parent().unwrap().join("../testdata/labby/code-mode-call-error.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))).unwrap();
    let vs = vectors()["call_errors"].as_array().unwrap();
    assert!(!vs.is_empty());
    for v in vs.iter().filter(|v| v["error"] != true) {
        let t = &v["tool"];
        let tool = CallTool { upstream: t["upstream"].as_str().unwrap(), name: t["name"].as_str().unwrap(), annotations: t["annotations"].as_object() };
        let got = to_call_error(&v["result"], &tool).unwrap();
        let mut problems = Vec::new();
        schema_problems(&schema, &schema, &got, "", &mut problems);
        assert!(problems.is_empty(), "{}: {problems:?}\n{got}", v["name"]);
    }
}
