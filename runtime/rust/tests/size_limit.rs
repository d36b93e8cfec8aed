//! The size limit of the direct decoders (issue 28, docs/conformance.md: "What every
//! decoder accepts"): a document longer than the limit is a syntax error
//! with path "", found before it is read; DecodeOptions sets another limit,
//! or none.

use errgen_runtime::*;

const ENVELOPE: &str = r#"{"contract_version":1,"kind":"rate_limited","message":"m","origin":"budget","recovery":{"action":"retry_later","same_arguments":"conditional","guidance":"g"},"side_effects":"none_expected"}"#;
const AIP193: &str = r#"{"error":{"code":8,"message":"m","status":"RESOURCE_EXHAUSTED"}}"#;

/// doc with whitespace after its first byte, to n bytes.
fn padded(doc: &str, n: usize) -> Vec<u8> {
    format!("{}{}{}", &doc[..1], " ".repeat(n - doc.len()), &doc[1..]).into_bytes()
}

fn too_long<T: std::fmt::Debug>(what: &str, r: Result<T, DecodeError>, limit: usize) {
    let e = r.expect_err(what);
    assert_eq!(
        (e.path.as_str(), e.category, e.problem.as_str()),
        (
            "",
            DecodeErrorCategory::Syntax,
            format!("is longer than the limit of {limit} bytes").as_str()
        ),
        "{what}"
    );
}

#[test]
fn size_limit() {
    assert_eq!(MAX_DOCUMENT_BYTES, 1 << 20);
    let (at, over) = (
        padded(ENVELOPE, MAX_DOCUMENT_BYTES),
        padded(ENVELOPE, MAX_DOCUMENT_BYTES + 1),
    );
    Envelope::from_slice(&at).expect("a document of MAX_DOCUMENT_BYTES");
    too_long(
        "from_slice",
        Envelope::from_slice(&over),
        MAX_DOCUMENT_BYTES,
    );
    too_long(
        "from_json",
        Envelope::from_json(std::str::from_utf8(&over).unwrap()),
        MAX_DOCUMENT_BYTES,
    );
    Envelope::from_aip193(&padded(AIP193, MAX_DOCUMENT_BYTES)).expect("AIP-193 at the limit");
    too_long(
        "from_aip193",
        Envelope::from_aip193(&padded(AIP193, MAX_DOCUMENT_BYTES + 1)),
        MAX_DOCUMENT_BYTES,
    );
    too_long(
        "RpcStatus::from_aip193",
        RpcStatus::from_aip193(&padded(AIP193, MAX_DOCUMENT_BYTES + 1)),
        MAX_DOCUMENT_BYTES,
    );

    // The CLI reader refuses such a line in either form.
    too_long("read_cli", Envelope::read_cli(&over), MAX_DOCUMENT_BYTES);
    let wrapped = format!(r#"{{"ok":false,"command":"c","error":{ENVELOPE}}}"#);
    too_long(
        "read_cli, wrapped",
        Envelope::read_cli(&padded(&wrapped, MAX_DOCUMENT_BYTES + 1)),
        MAX_DOCUMENT_BYTES,
    );

    // Another limit, lower or none.
    let low = DecodeOptions {
        max_bytes: Some(300),
    };
    let e = Envelope::from_slice_with(&padded(ENVELOPE, 300), low).expect("300 bytes within 300");
    assert_eq!(e.kind.as_str(), "rate_limited");
    too_long(
        "from_slice_with 300",
        Envelope::from_slice_with(&padded(ENVELOPE, 301), low),
        300,
    );
    too_long(
        "from_aip193_with 300",
        Envelope::from_aip193_with(&padded(AIP193, 301), low),
        300,
    );
    let none = DecodeOptions { max_bytes: None };
    Envelope::from_slice_with(&over, none).expect("no limit");
    Envelope::from_aip193_with(&padded(AIP193, MAX_DOCUMENT_BYTES + 1), none)
        .expect("no limit, AIP-193");
    assert_eq!(DecodeOptions::default().max_bytes, Some(MAX_DOCUMENT_BYTES));
    // The limit comes first: an over-long document that is not JSON either
    // is refused for its length.
    too_long(
        "not JSON",
        Envelope::from_slice_with("{".repeat(301).as_bytes(), low),
        300,
    );
}
