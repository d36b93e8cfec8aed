//! The differential reader vectors of `make reader-diff`
//! (tests/go/readerdiff, ERRGEN_READER_DIFF): seeded, mutated inputs for
//! every reader with the Go package's answers. Each case is read through the
//! same reader here (from_slice, read_http, from_aip193, read_cli,
//! from_tool_result) and must be accepted or rejected as Go did, with Go's
//! error category; an accepted envelope must equal Go's as a JSON value
//! (objects unordered, numbers as 64-bit floats, -0 as 0), encode again
//! (to_json), write_http must send exactly that encoding and to_aip193
//! must encode it. Every disagreement is listed by class; the test fails on
//! any. tests/rust/run.sh runs it for the reference contract's crate only,
//! the one the file is written for.

use contract::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// A lone surrogate escape becomes U+FFFD, as a host that reads a tool
/// result before the reader (and Go's decoder) reads it; serde_json refuses
/// it.
fn lone_surrogates(json: &str) -> String {
    let b = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let (mut i, mut copied) = (0, 0);
    let hex = |i: usize| {
        std::str::from_utf8(b.get(i..i + 4)?)
            .ok()
            .and_then(|h| u32::from_str_radix(h, 16).ok())
    };
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
        if (0xD800..0xDC00).contains(&r)
            && b.get(i + 6..i + 8) == Some(b"\\u")
            && hex(i + 8).is_some_and(|l| (0xDC00..0xE000).contains(&l))
        {
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
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            _ => 63,
        }
    };
    let data: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(data.len() * 3 / 4);
    for chunk in data.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c) << (18 - 6 * i);
        }
        out.push((n >> 16) as u8);
        if chunk.len() > 2 {
            out.push((n >> 8) as u8);
        }
        if chunk.len() > 3 {
            out.push(n as u8);
        }
    }
    out
}

fn parse(text: &str) -> Result<Value, serde_json::Error> {
    let text = lone_surrogates(text);
    let mut de = serde_json::Deserializer::from_str(&text);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de)
}

/// Two JSON values are the same: objects without regard to member order,
/// numbers as doubles (-0 equals 0).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// The first difference between two JSON values, with both values there.
fn place(a: &Value, b: &Value, path: &str) -> String {
    if let (Value::Object(x), Value::Object(y)) = (a, b) {
        for k in x.keys().chain(y.keys()) {
            let at = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
            match (x.get(k), y.get(k)) {
                (Some(p), Some(q)) if !same(p, q) => return place(p, q, &at),
                (Some(p), None) => return format!("at {at}: Go {}, here (absent)", short(&p.to_string())),
                (None, Some(q)) => return format!("at {at}: Go (absent), here {}", short(&q.to_string())),
                _ => {}
            }
        }
    }
    let at = if path.is_empty() { "the top" } else { path };
    format!("at {at}: Go {}, here {}", short(&a.to_string()), short(&b.to_string()))
}

fn short(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() <= 300 {
        return format!("{s:?}");
    }
    let head: String = chars[..140].iter().collect();
    let tail: String = chars[chars.len() - 100..].iter().collect();
    format!("{head:?} … ({} characters) … {tail:?}", chars.len())
}

/// Runs a case through the crate's reader.
fn read(c: &Value, input: &[u8]) -> Result<Envelope, String> {
    let r = c["reader"].as_str().unwrap_or_default();
    let result = match r {
        "envelope" => Envelope::from_slice(input),
        "http" => {
            let pairs: Vec<(String, String)> = c["headers"]
                .as_array()
                .map(|hs| {
                    hs.iter()
                        .map(|h| (h[0].as_str().unwrap_or_default().to_owned(), h[1].as_str().unwrap_or_default().to_owned()))
                        .collect()
                })
                .unwrap_or_default();
            let headers: Vec<(&str, &str)> = pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
            let status = c["status"].as_u64().and_then(|s| u16::try_from(s).ok()).expect("a status");
            Envelope::read_http(status, &headers, input)
        }
        "aip193" => Envelope::from_aip193(input),
        "cli" => Envelope::read_cli(input),
        "mcp" => {
            let Ok(result) = std::str::from_utf8(input).map_err(|_| ()).and_then(|t| parse(t).map_err(|_| ())) else {
                return Err("host".to_owned());
            };
            Envelope::from_tool_result(&result)
        }
        _ => panic!("no reader {r}"),
    };
    result.map_err(|e| e.category.as_str().to_owned())
}

#[test]
fn reader_differential_vectors() {
    let path = std::env::var("ERRGEN_READER_DIFF").unwrap_or_default();
    assert!(
        !path.is_empty(),
        "ERRGEN_READER_DIFF is not set: run make reader-diff, then make test-rust (or set it to build/reader-diff.vectors.json)"
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}: run make reader-diff"));
    let diff = parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(diff["contract"].as_str(), Some(CONTRACT_NAME), "{path} is written for {}", diff["contract"]);
    let cases = diff["cases"].as_array().expect("cases");
    assert!(cases.len() >= 2000, "{path} holds {} cases, fewer than 2000: run make reader-diff", cases.len());
    let mut classes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let (mut accepted, mut rejected, mut disagreements) = (0, 0, 0);
    for c in cases {
        let input = match (c["text"].as_str(), c["base64"].as_str()) {
            (Some(t), _) => t.as_bytes().to_vec(),
            (None, Some(b)) => base64(b),
            _ => panic!("a case without input: {c}"),
        };
        let go_ok = c["ok"].as_bool().expect("ok");
        let go_category = c["category"].as_str().unwrap_or_default();
        let mut disagree = |cls: String, ours: String| {
            disagreements += 1;
            let shown = c["text"].as_str().map_or_else(|| format!("base64:{}", c["base64"].as_str().unwrap_or_default()), str::to_owned);
            let http = if c["reader"] == "http" { format!(" status {} headers {}", c["status"], c["headers"]) } else { String::new() };
            let go = if go_ok { format!("accepted {}", short(&c["value"].to_string())) } else { format!("rejected ({go_category})") };
            classes
                .entry(format!("{}: {cls}", c["reader"].as_str().unwrap_or_default()))
                .or_default()
                .push(format!("{}\n      input: {}{http}\n      Go: {go}\n      Rust: {ours}", c["name"].as_str().unwrap_or_default(), short(&shown)));
        };
        match read(c, &input) {
            Ok(e) => {
                accepted += 1;
                let json = match e.to_json() {
                    Ok(j) => j,
                    Err(err) => {
                        disagree("accepted, but to_json fails".to_owned(), format!("accepted, to_json: {err}"));
                        continue;
                    }
                };
                let body = e.write_http(&[]).body;
                if body != json.as_bytes() {
                    disagree("accepted, but write_http sends another body".to_owned(), format!("accepted, body {}", short(&String::from_utf8_lossy(&body))));
                    continue;
                }
                if let Err(err) = e.to_aip193() {
                    disagree("accepted, but to_aip193 fails".to_owned(), format!("accepted, to_aip193: {err}"));
                    continue;
                }
                let ours = parse(&json).expect("to_json writes JSON");
                if !go_ok {
                    disagree("Go rejects, Rust accepts".to_owned(), format!("accepted {}", short(&json)));
                } else if !c["value"].is_null() && !same(&c["value"], &ours) {
                    disagree("both accept, different envelopes".to_owned(), format!("accepted, {}", place(&c["value"], &ours, "")));
                }
            }
            Err(category) => {
                rejected += 1;
                if go_ok {
                    disagree("Go accepts, Rust rejects".to_owned(), format!("rejected ({category})"));
                } else if category != go_category {
                    disagree(format!("rejected as {go_category} in Go, {category} here"), format!("rejected ({category})"));
                }
            }
        }
    }
    let show: usize = std::env::var("ERRGEN_READER_DIFF_SHOW").ok().and_then(|s| s.parse().ok()).unwrap_or(2);
    let mut report = vec![
        format!(
            "reader differential vectors ({path}): seed {}, {} cases, {accepted} accepted, {rejected} rejected, {disagreements} disagreements with Go",
            diff["seed"],
            cases.len()
        ),
        "mcp: the tool result is parsed by serde_json, the host's parser, before Envelope::from_tool_result sees it (lone surrogate escapes read as U+FFFD first, as serde_json refuses them); its structuredContent never holds a member given twice, which hosts read differently (Go keeps it raw), and a refusal by the host would count as category host".to_owned(),
        "grpc: not compared here: Rust has no gRPC status reader; Envelope::from_rpc_status, which reads the google.rpc.Status Go's grpcstatus.FromStatus builds, is compared through the aip193 cases".to_owned(),
    ];
    for (cls, list) in &classes {
        report.push(format!("  {cls}: {} case(s); first:\n    {}", list.len(), list[..list.len().min(show)].join("\n    ")));
    }
    // cargo test shows a passing test's output only with --nocapture: run.sh
    // prints this file.
    if let Ok(out) = std::env::var("ERRGEN_READER_DIFF_REPORT") {
        std::fs::write(&out, report[..3].join("\n") + "\n").unwrap_or_else(|e| panic!("{out}: {e}"));
    }
    println!("{}", report.join("\n"));
    assert_eq!(disagreements, 0, "{}", report.join("\n"));
}
