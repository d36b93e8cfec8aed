// The Rust checker of tests/e2e/imports.sh, the main.rs of a crate whose
// dependencies `orders` and `platform` are those repositories' generated
// crates (by path), serde and serde_json (with the features tests/rust
// uses, so that make test builds it once):
//
//   cargo run -q -- EXPECTATION.json...
//
// holds the crate each expectation file of imports/expect.py names as its
// reader to it, as check.go does the Go packages. Exits 1 on any difference.
use serde_json::{json, Value};

/// deep parses JSON text past serde_json's own nesting limit (the vectors
/// reach 128 levels; serde_json stops at 127), as tests/rust/vectors.rs does.
fn deep(text: &str) -> Value {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de).expect("JSON")
}

macro_rules! checker {
    ($name:ident, $p:ident) => {
        fn $name(x: &Value) -> Vec<String> {
            let mut problems = Vec::new();
            for v in x["envelopes"].as_array().expect("envelopes") {
                let name = v["name"].as_str().expect("name");
                let text = v["text"].as_str().expect("text");
                let e = match $p::Envelope::from_json(text) {
                    Ok(e) => e,
                    Err(err) => {
                        problems.push(format!("{name}: {err}"));
                        continue;
                    }
                };
                // The same JSON value: a free-form object's members come back
                // in serde_json's order, which is theirs only with its
                // preserve_order feature.
                let back = e.to_json().expect("encodes");
                if deep(&back) != deep(text) {
                    problems.push(format!("{name}: decoded and encoded again:\n got {back}\nwant {text}"));
                }
                let got = json!([e.kind.as_str(), e.kind.is_known(), e.is_retryable(), e.http_status()]);
                let want = json!([v["kind"], v["known"], v["retryable"], v["http_status"]]);
                if got != want {
                    problems.push(format!("{name}: kind, known, retryable, HTTP status {got}, want {want}"));
                }
                let c = $p::lookup(&e.kind);
                let c = json!({
                    "kind": c.kind, "known": c.known, "group": c.group.as_ref().map_or("", |g| g.as_str()),
                    "origin": c.origin.as_str(), "action": c.action.as_str(), "same_arguments": c.same_arguments.as_str(),
                    "guidance": c.guidance, "side_effects": c.side_effects.as_str(), "http_status": c.http_status,
                    "log_level": c.log_level.as_str(), "breaker": c.breaker, "retryable": c.retryable,
                    "startup": c.startup, "number": c.number, "grpc_code": c.grpc_code,
                    "grpc_status": c.grpc_status, "reason": c.reason,
                });
                for (member, want) in v["lookup"].as_object().expect("lookup") {
                    if c[member] != *want {
                        problems.push(format!("{name}: lookup({}).{member} = {}, want {want}", e.kind, c[member]));
                    }
                }
            }
            for v in x["next_step"].as_array().expect("next_step") {
                let name = v["name"].as_str().expect("name");
                let Ok(e) = $p::Envelope::from_json(v["text"].as_str().expect("text")) else {
                    problems.push(format!("next step {name}: does not decode"));
                    continue;
                };
                for a in v["attempts"].as_array().expect("attempts") {
                    let d = $p::next_step(&e, a["attempt"].as_i64().expect("attempt"));
                    let got = json!({
                        "attempt": a["attempt"], "step": d.step.as_str(), "delay_min_ms": d.delay_min_ms,
                        "delay_max_ms": d.delay_max_ms, "check_state_first": d.check_state_first, "exhausted": d.exhausted,
                    });
                    if got != *a {
                        problems.push(format!("next step {name}: {got}, want {a}"));
                    }
                }
            }
            problems
        }
    };
}

checker!(check_orders, orders);
checker!(check_platform, platform);

fn main() {
    let mut failed = false;
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("reads the expectation file");
        let x: Value = serde_json::from_str(&text).expect("an expectation file");
        let (reader, source) = (
            x["reader"].as_str().unwrap_or(""),
            x["source"].as_str().unwrap_or(""),
        );
        let problems = match reader {
            "orders" => check_orders(&x),
            "platform" => check_platform(&x),
            _ => panic!("{path}: no crate for the reader {reader:?}"),
        };
        for p in &problems {
            eprintln!("rust: {reader} reading {source}: {p}");
        }
        failed |= !problems.is_empty();
        println!(
            "rust: {reader} reads {source}'s {} envelopes and {} next-step cases: {} differences",
            x["envelopes"].as_array().map_or(0, |a| a.len()),
            x["next_step"].as_array().map_or(0, |a| a.len()),
            problems.len()
        );
    }
    std::process::exit(i32::from(failed));
}
