//! The surfaces against the reference contract (the fixture), on inputs
//! where a port is easy to get wrong; each expectation is what the Go
//! package's ReadHTTP, WriteHTTP, ReadCLI and ExitCode answer for the same
//! input (the vectors cover the common cases).

use errgen_runtime::*;
use serde_json::Value;

fn read(
    status: u16,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (String, String, Option<i64>, String) {
    let e = Envelope::read_http(status, headers, body).unwrap();
    let promoted = e.promoted_from().to_owned();
    (
        e.kind.as_str().to_owned(),
        e.message,
        e.recovery.retry_after_ms,
        promoted,
    )
}

#[test]
fn retry_after_as_go_reads_it() {
    let date = "Wed, 21 Oct 2015 07:28:00 GMT";
    for (value, want) in [
        // Fractions of a second, the three formats, spaces and one-digit hours Go accepts.
        ("Wed, 21 Oct 2015 07:28:30.5 GMT", Some(30500)),
        ("Wednesday, 21-Oct-15 07:29:00 XYZ", Some(60000)),
        ("Wed Oct 21 07:28:10 2015", Some(10000)),
        ("Wed Oct  1 07:28:10 2015", Some(0)),
        ("Thu,  21 Oct 2015 7:28:01 GMT", Some(1000)),
        // Not GMT, no such day, in the past, past 2^64, signed, fractional.
        ("Wed, 21 Oct 2015 07:28:00 UTC", None),
        ("Wed, 31 Feb 2015 07:28:00 GMT", None),
        ("Wed, 21 Oct 2015 07:27:00 GMT", Some(0)),
        ("99999999999999999999", None),
        (" 12 ", Some(12000)),
        ("+5", None),
        ("1.5", None),
    ] {
        let got = read(503, &[("date", date), ("retry-after", value)], b"");
        assert_eq!(got.2, want, "{value:?}");
        assert_eq!(parse_retry_after(value, Some(date)), want, "{value:?}");
    }
    // Delay seconds past the longest hint are clamped to it.
    assert_eq!(
        parse_retry_after("9223372036854775807", None),
        Some(RETRY.max_hint_ms)
    );
}

#[test]
fn bodies_as_go_reads_them() {
    // Invalid UTF-8 runs become one U+FFFD; white space (NBSP included) collapses.
    let got = read(
        502,
        &[("content-type", "text/html")],
        b"  <h1>Bad\xff\xfe gateway</h1>\n\n   from \xc2\xa0the proxy  ",
    );
    assert_eq!(
        (got.0.as_str(), got.1.as_str()),
        (
            "bad_gateway",
            "HTTP 502 Bad Gateway: <h1>Bad\u{FFFD} gateway</h1> from the proxy"
        )
    );
    // A malformed or repeated media type parameter still reads JSON.
    for ct in ["application/json; a=1; a=2", "application/json; x"] {
        let got = read(
            404,
            &[("content-type", ct)],
            br#"{"kind":"unknown_action","message":"m"}"#,
        );
        assert_eq!(
            (got.0.as_str(), got.3.as_str()),
            ("unknown_action", "short_form"),
            "{ct}"
        );
    }
    // Unicode white space before the brace makes it look like JSON, which it is not.
    let got = read(
        404,
        &[],
        "\u{a0}{\"kind\":\"unknown_action\",\"message\":\"m\"}".as_bytes(),
    );
    assert_eq!((got.0.as_str(), got.3.as_str()), ("not_found", ""));
    // The quoted text stops at 512 bytes (256 two-byte characters), with an ellipsis.
    let got = read(
        500,
        &[("content-type", "text/plain")],
        "é".repeat(600).as_bytes(),
    );
    assert_eq!(
        got.1,
        format!(
            "HTTP 500 Internal Server Error: {}\u{2026}",
            "é".repeat(256)
        )
    );
    // A blank short-form message becomes the status line.
    let got = read(
        401,
        &[("content-type", "application/json")],
        br#"{"kind":"unknown_action","message":"  "}"#,
    );
    assert_eq!(
        (got.1.as_str(), got.3.as_str()),
        ("HTTP 401 Unauthorized", "short_form")
    );
    // Nothing to report in a successful response without an envelope.
    let err = Envelope::read_http(200, &[], b"fine").unwrap_err();
    assert_eq!(err.category, DecodeErrorCategory::Missing);
}

#[test]
fn write_http_as_go_writes_it() {
    let e = Envelope::new_trusted(Kind::UnknownAction, "m").with_retry_after_ms(1500);
    for (accept, media) in [
        (
            "application/problem+json;q=0x1p-1, application/json;q=0.4",
            MEDIA_TYPE_PROBLEM,
        ),
        (
            "application/problem+json;q=0_5, application/json;q=0.4",
            MEDIA_TYPE_JSON,
        ),
        ("appl\u{130}cation/problem+json", MEDIA_TYPE_PROBLEM),
    ] {
        let r = e.write_http(&[accept]);
        assert_eq!(
            (r.status, r.header("content-type"), r.header("retry-after")),
            (404, Some(media), Some("2")),
            "{accept}"
        );
    }
    // An envelope that does not encode goes out without its optional fields.
    let mut broken = Envelope::new_trusted(Kind::UnknownAction, "m").with_service("svc");
    broken.recovery.retry_after_ms = Some(-1);
    let mut evidence = serde_json::Map::new();
    evidence.insert("x".into(), Value::from(f64::NAN));
    broken.evidence = Some(evidence);
    let r = broken.write_http(&[]);
    assert_eq!(r.header("retry-after"), None);
    assert_eq!(
        String::from_utf8(r.body).unwrap(),
        Envelope::new_trusted(Kind::UnknownAction, "m")
            .to_json()
            .unwrap()
    );
    // No kind: a plain-text 500.
    let mut none = Envelope::new_trusted(Kind::UnknownAction, "m");
    none.kind = Kind::from("");
    let r = none.write_http(&[]);
    assert_eq!(
        (r.status, r.header("content-type")),
        (500, Some("text/plain; charset=utf-8"))
    );
    assert_eq!(r.body, b"agent_error: the error envelope has no kind\n");
}

#[test]
fn read_cli_errors_as_go_reports_them() {
    for (line, path, category) in [
        (
            r#"{"ok":true,"error":{}}"#,
            "ok",
            DecodeErrorCategory::Value,
        ),
        (r#"{"ok":false}"#, "error", DecodeErrorCategory::Missing),
        ("[1]", "", DecodeErrorCategory::Type),
        ("null", "", DecodeErrorCategory::Type),
        (
            r#"{"ok":false,"error":{"kind":1}}"#,
            "contract_version",
            DecodeErrorCategory::Missing,
        ),
        ("{", "", DecodeErrorCategory::Syntax),
    ] {
        let err = Envelope::read_cli(line.as_bytes()).unwrap_err();
        assert_eq!(
            (err.path.as_str(), err.category),
            (path, category),
            "{line}"
        );
    }
}

#[test]
fn exit_codes() {
    let code = |k: &str| Envelope::new_trusted(Kind::from(k), "m").exit_code();
    assert_eq!(
        (code("not_a_kind"), code("unknown_action"), code("timeout")),
        (70, 66, 69)
    );
}

#[test]
fn tool_results() {
    let e = Envelope::new_trusted(Kind::UnknownAction, "m");
    let mut r = e.to_tool_result().unwrap();
    // Neither part an envelope: the first problem, structuredContent's.
    r["structuredContent"] = serde_json::json!({"kind": 1});
    r["content"][0]["text"] = Value::from("plain words");
    assert_eq!(
        Envelope::from_tool_result(&r).unwrap_err().path,
        "contract_version"
    );
    assert_eq!(
        Envelope::from_tool_result(&serde_json::json!({}))
            .unwrap_err()
            .category,
        DecodeErrorCategory::Missing
    );
    assert_eq!(
        Envelope::from_tool_result(&serde_json::json!([]))
            .unwrap_err()
            .category,
        DecodeErrorCategory::Type
    );
}
