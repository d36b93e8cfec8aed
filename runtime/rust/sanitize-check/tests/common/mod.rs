//! Reading the sanitizer vector files (docs/sanitizer.md, "The vector
//! file") and checking a case the way every language's tests do.

use errgen_sanitize_check::SANITIZER;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The repository's root, three directories up from this crate.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// Reads a vector file. A lone surrogate escape ("\ud800") becomes U+FFFD
/// first, as Go's JSON decoder reads it (serde_json rejects it in a
/// string), so the inputs are the ones Go sanitized.
pub fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&lone_surrogates(&text))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn hex4(b: &[u8]) -> Option<u32> {
    std::str::from_utf8(b.get(..4)?)
        .ok()
        .and_then(|h| u32::from_str_radix(h, 16).ok())
}

/// Rewrites every \u escape of a lone surrogate as \ufffd. Backslashes occur
/// only in JSON strings, each starting an escape of its own.
fn lone_surrogates(json: &str) -> String {
    let b = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let (mut i, mut copied) = (0, 0);
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        if b.get(i + 1) != Some(&b'u') {
            i += 2;
            continue;
        }
        let u = hex4(&b[i + 2..]).expect("a \\u escape has four hex digits");
        if (0xD800..0xDC00).contains(&u) && b.get(i + 6..i + 8) == Some(b"\\u") {
            if let Some(low) = hex4(&b[i + 8..]) {
                if (0xDC00..0xE000).contains(&low) {
                    i += 12; // a pair: one code point
                    continue;
                }
            }
        }
        if (0xD800..0xE000).contains(&u) {
            out.push_str(&json[copied..i]);
            out.push_str("\\ufffd");
            copied = i + 6;
        }
        i += 6;
    }
    out.push_str(&json[copied..]);
    out
}

/// A vector's TEXT as bytes: a string; {repeat, times}; {hex}, raw bytes;
/// or a list of these, concatenated.
pub fn text(t: &Value) -> Vec<u8> {
    match t {
        Value::String(s) => s.as_bytes().to_vec(),
        Value::Array(parts) => parts.iter().flat_map(text).collect(),
        Value::Object(o) if o.len() == 2 && o.contains_key("repeat") => {
            let times = o["times"]
                .as_u64()
                .filter(|&n| n >= 1)
                .expect("times is a count of at least 1");
            o["repeat"]
                .as_str()
                .expect("repeat is a string")
                .repeat(times as usize)
                .into_bytes()
        }
        Value::Object(o) if o.len() == 1 && o.contains_key("hex") => {
            let hex: Vec<u8> = o["hex"]
                .as_str()
                .expect("hex is a string")
                .bytes()
                .filter(|&c| c != b' ')
                .collect();
            assert!(hex.len() % 2 == 0, "odd hex text {t}");
            hex.chunks(2)
                .map(|d| {
                    u8::from_str_radix(std::str::from_utf8(d).unwrap(), 16)
                        .unwrap_or_else(|_| panic!("bad hex text {t}"))
                })
                .collect()
        }
        _ => panic!("a text is a string, {{repeat, times}}, {{hex}} or a list of them, found {t}"),
    }
}

/// Quotes text for a failure message, eliding the middle of a long one.
pub fn short(s: &[u8]) -> String {
    let s = String::from_utf8_lossy(s);
    let n = s.chars().count();
    if n <= 400 {
        return format!("{s:?}");
    }
    let head: String = s.chars().take(180).collect();
    let tail: String = s.chars().skip(n - 180).collect();
    format!("{head:?} … ({n} code points) … {tail:?}")
}

/// Checks that the file's policy is the default policy the tests use.
pub fn check_policy(file: &Value) {
    let p = &file["policy"];
    let d = &errgen_sanitize_check::DEFAULT_POLICY;
    assert_eq!(
        p["max_length"].as_u64(),
        Some(d.max_length as u64),
        "the vectors assume another max_length"
    );
    assert_eq!(
        p["truncation_marker"].as_str(),
        Some(d.truncation_marker),
        "the vectors assume another truncation marker"
    );
}

/// Runs one case: the output, and that the output sanitizes to itself.
/// Text that is UTF-8 goes through sanitize_max and sanitize_bytes, which
/// must agree; raw bytes that are not go through sanitize_bytes. It returns
/// a failure message, or None.
pub fn check(c: &Value, default_max: usize) -> Option<String> {
    let name = c["name"].as_str().unwrap_or("?");
    let max = c
        .get("max_length")
        .and_then(Value::as_u64)
        .map_or(default_max, |m| m as usize);
    let input = text(&c["input"]);
    let want = text(&c["output"]);
    let got = SANITIZER.sanitize_bytes(&input, max);
    if let Ok(s) = std::str::from_utf8(&input) {
        let via_str = SANITIZER.sanitize_max(s, max);
        if via_str != got {
            return Some(format!(
                "case {name:?}: sanitize_max {} and sanitize_bytes {} differ",
                short(via_str.as_bytes()),
                short(got.as_bytes())
            ));
        }
    }
    if got.as_bytes() != want {
        return Some(format!(
            "case {name:?} (max_length {max}):\ninput  {}\ngot    {}\nwant   {}",
            short(&input),
            short(got.as_bytes()),
            short(&want)
        ));
    }
    let again = SANITIZER.sanitize_max(&got, max);
    if again != got {
        return Some(format!(
            "case {name:?}: not a fixpoint:\nonce   {}\ntwice  {}",
            short(got.as_bytes()),
            short(again.as_bytes())
        ));
    }
    None
}
