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

pub use classification::for_tool;
pub use codec::{DecodeError, DecodeErrorCategory, EncodeError, MAX_DEPTH, MAX_SAFE_INTEGER};
pub use contract::*;
pub use envelope::*;
pub use logging::{bound_log_text, LogFields, LogForm, LogValue};
pub use nextstep::next_step;
pub use spec::{
    Classification, Classified, Decision, Failure, LogLevel, RetryPolicy, Step, ToolAnnotations,
    Upstream,
};
pub use surfaces::{
    parse_retry_after, problem_type, HttpResponse, MAX_HTTP_BODY, MEDIA_TYPE_JSON,
    MEDIA_TYPE_PROBLEM, PROMOTED_MEMBER, PROMOTED_SHORT_FORM,
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

    /// from_slice reads members where they lie in the text; from_value reads
    /// the tree json::parse builds. They must agree on every document,
    /// including what only the text shows: a member given twice, names
    /// spelled with escapes or invalid UTF-8, white space, extra members
    /// nested in the layout's objects.
    #[test]
    fn in_place_reader_agrees_with_the_tree() {
        let ok = Envelope::new_trusted(Kind::KNOWN[0].clone(), "m")
            .with_retry_after_ms(5)
            .to_json()
            .unwrap();
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
        for t in &texts {
            let tree = json::parse(t).and_then(|v| Envelope::from_value(&v));
            assert_eq!(
                Envelope::from_slice(t),
                tree,
                "{}",
                String::from_utf8_lossy(t)
            );
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
        assert_eq!(lookup(&k), fallback());
        assert_eq!(Kind::from(Kind::KNOWN[0].as_str()), Kind::KNOWN[0]);
    }
}
