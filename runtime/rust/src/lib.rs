//! The Rust runtime's own crate root, for compiling, linting and testing
//! the runtime in place: the runtime's modules as they are written, and the
//! reference contract's modules from fixture/ (copied from
//! gen/rust/agent-error by tests/rust/run.sh), as a generated crate holds
//! them together.
#![deny(missing_docs)]
#![forbid(unsafe_code)]
#![allow(clippy::too_many_arguments)]

#[rustfmt::skip]
#[path = "../fixture/contract.rs"]
mod contract;
#[rustfmt::skip]
#[path = "../fixture/envelope.rs"]
mod envelope;
mod aip193;
mod callerror;
mod classification;
mod codec;
mod inbound;
mod json;
mod logging;
mod nextstep;
pub mod sanitize;
mod spec;
mod surfaces;
mod words;

pub use aip193::{RpcDuration, RpcStatus};
pub use callerror::{call_error_text, to_call_error, CallTool};
pub use classification::{for_tool, lookup};
pub use codec::{
    DecodeError, DecodeErrorCategory, DecodeOptions, EncodeError, MAX_DEPTH, MAX_DOCUMENT_BYTES,
    MAX_SAFE_INTEGER,
};
pub use contract::*;
pub use envelope::*;
pub use logging::{bound_log_text, LogFields, LogForm, LogValue};
pub use nextstep::next_step;
pub use spec::{
    Classification, Classified, Decision, Failure, LogLevel, RetryPolicy, Step, ToolAnnotations,
    Upstream,
};
pub use surfaces::{
    mcp_error_schema, mcp_output_schema, mcp_upstream_structured_content, parse_retry_after,
    problem_type, HttpResponse, MAX_HTTP_BODY, MEDIA_TYPE_JSON, MEDIA_TYPE_PROBLEM,
    PROMOTED_MEMBER, PROMOTED_SHORT_FORM,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_paths() {
        let e = Envelope::new_trusted(Kind::KNOWN[0].clone(), "m");
        let text = e.to_json().unwrap();
        assert_eq!(Envelope::from_json(&text).unwrap(), e);
        let err = Envelope::from_json("{\"contract_version\":\"1\"}").unwrap_err();
        assert_eq!(
            (err.path.as_str(), err.category),
            ("contract_version", DecodeErrorCategory::Type)
        );
        let err = Envelope::from_json("[").unwrap_err();
        assert_eq!(
            (err.path.as_str(), err.category),
            ("", DecodeErrorCategory::Syntax)
        );
    }

    /// The JSON text of an envelope of the first kind with a retry hint,
    /// which the reader tests build their documents around.
    fn sample_json() -> String {
        Envelope::new_trusted(Kind::KNOWN[0].clone(), "m")
            .with_retry_after_ms(5)
            .to_json()
            .unwrap()
    }

    /// from_slice reads members where they lie in the text; from_value reads
    /// the tree json::parse builds. They must agree on every document,
    /// including what only the text shows: a member given twice, names
    /// spelled with escapes or invalid UTF-8, white space, extra members
    /// nested in the layout's objects.
    #[test]
    fn in_place_reader_agrees_with_the_tree() {
        let ok = sample_json();
        let body = &ok[1..ok.len() - 1];
        let docs = [
            ok.clone(),
            format!(" \n{{ {body} , \"kind\" : \"x\" }} "),
            format!(r#"{{{body},"k\u0069nd":"\u00e9t\u00e9"}}"#),
            format!(r#"{{{body},"z":[1,{{"a":"}}"}}],"z":{{"b":2.5e3}},"\u00ff":null}}"#),
            format!(
                r#"{{{body},"recovery":{{"action":"a","same_arguments":"s","guidance":"g","retryAfterMs":7,"q":[]}}}}"#
            ),
            format!(r#"{{{body},"message":7}}"#),
            format!(r#"{{{body},"recovery":null}}"#),
            format!(r#"{{{body},"kind":""}}"#),
            format!(r#"{{{body},"na@me":1,"kind@":"y"}}"#),
            "[1]".to_owned(),
            "null".to_owned(),
            "{}".to_owned(),
        ];
        // The @ of the last document but three becomes a byte of invalid
        // UTF-8 in a member name.
        let texts: Vec<Vec<u8>> = docs
            .iter()
            .map(|d| {
                d.bytes()
                    .map(|b| if b == b'@' { 0xFF } else { b })
                    .collect()
            })
            .collect();
        // from_slice reads t as the tree reader does.
        let reads_as_tree = |t: &[u8]| {
            let tree = json::parse(t).and_then(|v| Envelope::from_value(&v));
            assert_eq!(
                Envelope::from_slice(t),
                tree,
                "{}",
                String::from_utf8_lossy(t)
            );
        };
        for t in &texts {
            reads_as_tree(t);
        }
        // from_slice checks the syntax of the layout's objects itself and
        // leaves the rest to json::skip_value: both must word and place
        // every syntax error alike, and let it win over any limit or
        // other problem. Every prefix of a document, and each byte of it
        // replaced by one that breaks or bends the syntax.
        let deep = format!(
            r#"{{"kind":"k","message":"m","z":{}1{}, "e":1e999,"recovery":{{"action":[1e999]}}}}"#,
            "[".repeat(MAX_DEPTH),
            "]".repeat(MAX_DEPTH)
        );
        for t in texts.iter().chain([deep.into_bytes()].iter()) {
            let mut cases: Vec<Vec<u8>> = (0..t.len()).map(|n| t[..n].to_vec()).collect();
            for i in 0..t.len().min(400) {
                for c in [b'}', b']', b',', b':', b'"', b'x', b' ', b'{', b'\\', b'1'] {
                    let mut v = t.clone();
                    v[i] = c;
                    cases.push(v);
                }
            }
            for v in &cases {
                reads_as_tree(v);
            }
            cases.push(t.clone());
            for v in &cases {
                serde_agrees_with_the_tree(v);
            }
        }
    }

    /// Deserialize reads the map straight into the layout; it must give
    /// what from_value gives on serde_json's tree of the same text: the
    /// same envelope, or the same error at the same place.
    fn serde_agrees_with_the_tree(v: &[u8]) {
        /// Deserialize as it was: serde_json's tree, then from_value.
        #[derive(Debug, PartialEq)]
        struct Tree(Envelope);
        impl<'de> serde::Deserialize<'de> for Tree {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let v = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
                Envelope::from_value(&v)
                    .map(Tree)
                    .map_err(serde::de::Error::custom)
            }
        }
        // Without serde_json's own depth limit, so MAX_DEPTH is the one met.
        fn read<T: serde::de::DeserializeOwned>(v: &[u8]) -> Result<T, String> {
            let mut de = serde_json::Deserializer::from_slice(v);
            de.disable_recursion_limit();
            let x = T::deserialize(&mut de).map_err(|e| e.to_string())?;
            de.end().map_err(|e| e.to_string())?;
            Ok(x)
        }
        let tree = read::<Tree>(v);
        let direct = read::<Envelope>(v).map(Tree);
        assert_eq!(direct, tree, "{}", String::from_utf8_lossy(v));
    }

    /// What only a deserializer's tree shows: duplicates of the layout's
    /// objects and of extra members, values nested past MAX_DEPTH that a
    /// later duplicate replaces, and documents that are not objects.
    #[test]
    fn serde_reads_the_layout_as_from_value() {
        let ok = sample_json();
        let body = &ok[1..ok.len() - 1];
        let deep = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        let docs = [
            ok.clone(),
            format!(r#"{{{body},"z":{deep},"z":1}}"#),
            format!(r#"{{{body},"z":1,"z":{deep}}}"#),
            format!(r#"{{{body},"z":{{"a":1}},"y":[2],"z":"s"}}"#),
            format!(
                r#"{{{body},"recovery":{{"action":"a","same_arguments":"s","guidance":"g","q":{deep}}},"recovery":{{"action":"a","same_arguments":"s","guidance":"g","r":1}}}}"#
            ),
            format!(
                r#"{{{body},"recovery":{{"action":"a","same_arguments":"s","guidance":"g","q":1}},"recovery":"x"}}"#
            ),
            format!(r#"{{{body},"message":{deep}}}"#),
            format!(
                r#"{{{body},"message":"é
"}}"#
            ),
            format!("[{deep}]"),
            "[1,2]".to_owned(),
            "\"x\"".to_owned(),
            "7".to_owned(),
            "null".to_owned(),
            "{}".to_owned(),
        ];
        for d in &docs {
            serde_agrees_with_the_tree(d.as_bytes());
        }
    }

    #[test]
    fn append_json_leaves_dst_alone_on_error() {
        let mut e = Envelope::new_trusted(Kind::KNOWN[0].clone(), "m");
        e.recovery.retry_after_ms = Some(-1);
        let mut b = b"kept".to_vec();
        assert!(e.append_json(&mut b).is_err());
        assert_eq!(b, b"kept");
        assert!(serde_json::to_string(&e).is_err());
    }

    /// write_str skips eight bytes at a time; each character that needs
    /// escaping, at every offset, must come out as Go writes it.
    #[test]
    fn write_str_escapes_at_every_offset() {
        fn reference(s: &str) -> String {
            let mut o = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => o.push_str("\\\""),
                    '\\' => o.push_str("\\\\"),
                    '\n' => o.push_str("\\n"),
                    '\r' => o.push_str("\\r"),
                    '\t' => o.push_str("\\t"),
                    '\u{2028}' => o.push_str("\\u2028"),
                    '\u{2029}' => o.push_str("\\u2029"),
                    c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
                    c => o.push(c),
                }
            }
            o.push('"');
            o
        }
        for special in [
            "\"", "\\", "\n", "\u{1}", "\u{1f}", "\u{2028}", "\u{2029}", "\u{2027}", "\u{20ac}",
            "\u{e9}", "~",
        ] {
            for pad in 0..20 {
                let s = format!(
                    "{}{special}{}{special}",
                    "a".repeat(pad),
                    "b".repeat(pad % 9)
                );
                let mut b = Vec::new();
                json::write_str(&mut b, &s);
                assert_eq!(String::from_utf8(b).unwrap(), reference(&s), "{s:?}");
            }
        }
    }

    #[test]
    fn go_float_text() {
        let mut b = Vec::new();
        json::write_f64(&mut b, 1e21);
        b.push(b' ');
        json::write_f64(&mut b, 1e-7);
        b.push(b' ');
        json::write_f64(&mut b, 0.1);
        assert_eq!(String::from_utf8(b).unwrap(), "1e+21 1e-7 0.1");
    }

    #[test]
    fn invalid_utf8_reads_byte_by_byte() {
        let v = json::parse(b"[\"a\xe2\x82c\"]").unwrap();
        assert_eq!(v[0], "a\u{FFFD}\u{FFFD}c");
    }

    #[test]
    fn open_kind_keeps_unknown_values() {
        let k = Kind::from("not_in_the_contract");
        assert!(!k.is_known());
        let c = lookup(&k);
        assert!(matches!(c, std::borrow::Cow::Owned(_)));
        assert_eq!(
            (c.kind.as_ref(), c.reason.as_ref()),
            ("not_in_the_contract", "NOT_IN_THE_CONTRACT")
        );
        assert_eq!(
            (fallback().kind.as_ref(), fallback().reason.as_ref()),
            ("", "")
        );
        assert_eq!(
            c.into_owned(),
            Classification {
                kind: k.as_str().to_owned().into(),
                reason: k.reason(),
                ..fallback().clone()
            }
        );
        assert!(matches!(
            lookup(&Kind::KNOWN[0]),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(Kind::from(Kind::KNOWN[0].as_str()), Kind::KNOWN[0]);
    }
}
