//! The google.rpc mapping (aip193.rs) against the reference contract (the
//! fixture), on what the vectors cannot show: the Duration form's edges, a
//! status that comes from gRPC (a code number and no HTTP status), metadata
//! that tries to add members, text that needs escaping, and the extra
//! members (the vectors hold every kind's AIP-193 bytes and the foreign
//! errors).

use errgen_runtime::*;
use serde_json::{json, Value};

#[test]
fn duration_form() {
    for (ms, text) in [
        (0, "0s"),
        (1, "0.001s"),
        (1500, "1.500s"),
        (2000, "2s"),
        (86_400_000, "86400s"),
    ] {
        let d = RpcDuration {
            seconds: ms / 1000,
            nanos: (ms % 1000) as i32 * 1_000_000,
        };
        assert_eq!(d.to_string(), text);
        assert_eq!(RpcDuration::parse(text), Some(d), "{text}");
        assert_eq!(d.ms(), Some(ms));
    }
    let micro = RpcDuration {
        seconds: 1,
        nanos: 1000,
    };
    assert_eq!(micro.to_string(), "1.000001s");
    assert_eq!(
        micro.ms(),
        Some(1001),
        "rounded up: a client never retries early"
    );
    let nano = RpcDuration {
        seconds: -1,
        nanos: -5,
    };
    assert_eq!(nano.to_string(), "-1.000000005s");
    assert_eq!(RpcDuration::parse("-1.000000005s"), Some(nano));
    assert_eq!(nano.ms(), None);
    assert_eq!(
        RpcDuration::parse("315576000000s").map(|d| d.seconds),
        Some(315_576_000_000)
    );
    for bad in [
        "",
        "s",
        "1",
        "1.s",
        ".5s",
        "+1s",
        "1.0000000001s",
        "315576000001s",
        "1e3s",
        "-s",
        " 1s",
        "1.5S",
    ] {
        assert_eq!(RpcDuration::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn grpc_status_without_http() {
    let s = RpcStatus {
        code: 5,
        status: "NOT_FOUND".into(),
        message: "no shelf".into(),
        retry_delay: Some(RpcDuration {
            seconds: 2,
            nanos: 500_000_000,
        }),
        ..RpcStatus::default()
    };
    let e = Envelope::from_rpc_status(&s);
    assert_eq!(e.http_status(), 404);
    assert_eq!(e.message, "HTTP 404 Not Found: no shelf");
    assert_eq!(e.recovery.retry_after_ms, Some(2500));
    // A code past google.rpc.Code's falls back to the status name, then 500.
    let s = RpcStatus {
        code: 99,
        status: "UNAVAILABLE".into(),
        ..RpcStatus::default()
    };
    assert_eq!(
        Envelope::from_rpc_status(&s).message,
        "HTTP 503 Service Unavailable"
    );
    let s = RpcStatus {
        code: 99,
        ..RpcStatus::default()
    };
    assert_eq!(
        Envelope::from_rpc_status(&s).message,
        "HTTP 500 Internal Server Error"
    );
}

#[test]
fn own_status_round_trips() {
    let k = Kind::KNOWN[0].clone();
    let e = Envelope::new_trusted(k.clone(), "line\u{2028}sep \"q\" <&> \u{1} é")
        .with_retry_after_ms(1234)
        .with_extra("z", json!({"a": "x", "b": [1, 2.5, null]}))
        .with_extra("a", json!(true));
    let s = e.to_rpc_status().unwrap();
    assert_eq!(s.domain, ERROR_INFO_DOMAIN);
    assert_eq!(s.reason, k.reason());
    assert_eq!(s.code, lookup(&k).grpc_code);
    assert_eq!(s.metadata["kind"], k.as_str());
    assert_eq!(
        s.metadata["extra"],
        r#"{"a":true,"z":{"a":"x","b":[1,2.5,null]}}"#
    );
    let text = e.to_aip193().unwrap();
    assert!(
        text.contains(r#""message":"line\u2028sep \"q\" <&> \u0001 é""#),
        "{text}"
    );
    assert!(text.ends_with(
        r#"{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1.234s"}]}}"#
    ));
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["error"]["details"][0]["metadata"]["kind"], k.as_str());
    // The reader sanitizes the message (the trusted text's control
    // character goes), as every reader does.
    let back = Envelope::from_aip193(text.as_bytes()).unwrap();
    let mut want = e.clone();
    want.message = sanitize(&e.message).into_owned();
    assert_eq!(want.message, "line\u{2028}sep \"q\" <&>  é");
    assert_eq!(back.to_json().unwrap(), want.to_json().unwrap());
    assert_eq!(RpcStatus::from_aip193(text.as_bytes()).unwrap(), s);
}

#[test]
fn metadata_that_adds_members_is_foreign() {
    let k = Kind::KNOWN[0].clone();
    let e = Envelope::new_trusted(k.clone(), "m");
    let mut s = e.to_rpc_status().unwrap();
    // contractVersion is JSON text; a value that is more than one JSON
    // value must not smuggle members into the document.
    s.metadata
        .insert("contractVersion".into(), r#"1,"message":"x""#.into());
    let got = Envelope::from_rpc_status(&s);
    assert_ne!(got.message, "x");
    assert!(got.message.starts_with("HTTP "), "{}", got.message);
    // The kind's reason in this domain still names the kind.
    assert_eq!(got.kind, k);
    // Extra that is no object makes it foreign too.
    let mut s = e.to_rpc_status().unwrap();
    s.metadata.insert("extra".into(), "[1]".into());
    assert!(Envelope::from_rpc_status(&s).message.starts_with("HTTP "));
    // Another domain's reason names nothing here.
    let mut s = e.to_rpc_status().unwrap();
    s.domain = "example.com".into();
    let got = Envelope::from_rpc_status(&s);
    assert!(got.message.starts_with("HTTP "));
}

#[test]
fn retry_hint_past_a_duration() {
    // with_retry_after_ms bounds a hint at RETRY.max_hint_ms; a decoded
    // envelope keeps what it received.
    let mut e = Envelope::new_trusted(Kind::KNOWN[0].clone(), "m");
    e.recovery.retry_after_ms = Some(315_576_000_000_001);
    let s = e.to_rpc_status().unwrap();
    assert_eq!(s.metadata["retryAfterMs"], "315576000000001");
    assert_eq!(s.retry_delay.unwrap().to_string(), "315576000000s");
    let back = Envelope::from_rpc_status(&s);
    assert_eq!(back.recovery.retry_after_ms, Some(315_576_000_000_001));
}

#[test]
fn reasons() {
    assert_eq!(Kind::from("HTTPError").reason(), "HTTP_ERROR");
    assert_eq!(Kind::from("").reason(), "KIND");
    for k in Kind::KNOWN.iter() {
        assert_eq!(lookup(k).reason, k.reason());
        assert_eq!(
            Kind::from(k.as_str().to_uppercase()).reason(),
            k.reason(),
            "{k}"
        );
    }
    assert_eq!(FALLBACK.reason, "");
}
