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
mod nextstep;
pub mod sanitize;
mod spec;
mod surfaces;
mod words;

pub use classification::for_tool;
pub use codec::{DecodeError, DecodeErrorCategory, EncodeError, MAX_DEPTH, MAX_SAFE_INTEGER};
pub use contract::*;
pub use envelope::*;
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
