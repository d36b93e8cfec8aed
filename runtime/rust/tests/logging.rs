//! Envelope::log_fields against the reference contract (the fixture), on
//! what the vectors cannot show: text past the bound, secrets in what the
//! contract sanitizes, an envelope that does not encode, and the form's
//! types (the vectors hold every example envelope's form, byte for byte).

use errgen_runtime::*;
use serde_json::{json, Map, Value};

fn names(f: &LogFields) -> Vec<&'static str> {
    f.iter().map(|(k, _)| *k).collect()
}

fn text<'a>(f: &'a LogFields, name: &str) -> &'a str {
    match f.get(name) {
        Some(LogValue::Str(s)) => s,
        other => panic!("{name}: {other:?}"),
    }
}

fn group(f: &LogFields) -> &[(&'static str, LogValue)] {
    match f.get("fields") {
        Some(LogValue::Group(g)) => g,
        other => panic!("fields: {other:?}"),
    }
}

fn full() -> Envelope {
    let mut safety = Map::new();
    safety.insert("z".into(), json!(1));
    safety.insert("a".into(), json!("<&>"));
    Envelope::new_trusted(Kind::from("timeout"), "deadline passed")
        .with_retry_after_ms(1500)
        .with_tool("search")
        .with_cause("upstream hung")
        .with_safety(safety)
        .with_valid_choices(vec!["a".into(), "b\u{2028}".into()])
        .with_extra("x_note", json!({"b": 1, "a": [true, null]}))
}

#[test]
fn every_member_in_order() {
    let e = full();
    let f = e.log_fields();
    // Every member LOG lists, in its order: this envelope has each one.
    assert_eq!(names(&f), LOG.members);
    assert_eq!(text(&f, "kind"), "timeout");
    assert_eq!(f.get("retryable"), Some(&LogValue::Bool(e.is_retryable())));
    assert_eq!(
        f.get("http_status"),
        Some(&LogValue::Int(i64::from(e.http_status())))
    );
    assert_eq!(f.get("retry_after_ms"), Some(&LogValue::Int(1500)));
    assert_eq!(text(&f, "action"), e.recovery.action.as_str());
    // The fields in wire order, arrays and objects as the wire writes them.
    let wire: Value = serde_json::from_str(&e.to_json().unwrap()).unwrap();
    let g = group(&f);
    assert_eq!(
        g.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
        ["tool", "cause", "safety", "valid_choices"]
    );
    assert_eq!(g[2].1, LogValue::Str(r#"{"a":"<&>","z":1}"#.into()));
    assert_eq!(g[3].1, LogValue::Str("[\"a\",\"b\\u2028\"]".into()));
    assert_eq!(wire["valid_choices"], json!(["a", "b\u{2028}"]));
    assert_eq!(text(&f, "extra"), r#"{"x_note":{"a":[true,null],"b":1}}"#);
    // Without a retry hint, fields or extra, those members are left out.
    let bare = Envelope::new_trusted(Kind::from("timeout"), "m").log_fields();
    assert_eq!(
        names(&bare),
        [
            "kind",
            "message",
            "origin",
            "action",
            "same_arguments",
            "side_effects",
            "retryable",
            "http_status"
        ]
    );
}

#[test]
fn serializes_as_one_object_in_order() {
    let f = full().log_fields();
    let text = serde_json::to_string(&f).unwrap();
    assert!(
        text.starts_with(r#"{"kind":"timeout","message":"deadline passed","origin":"#),
        "{text}"
    );
    assert!(text.contains(r#","retryable":true,"http_status":504,"retry_after_ms":1500,"fields":{"tool":"search","cause":"upstream hung","safety":"#), "{text}");
    // Display: text as it is, the group as its JSON.
    assert_eq!(f.get("kind").unwrap().to_string(), "timeout");
    assert_eq!(f.get("retry_after_ms").unwrap().to_string(), "1500");
    assert!(f
        .get("fields")
        .unwrap()
        .to_string()
        .starts_with(r#"{"tool":"search","#));
    let pairs: Vec<(&str, LogValue)> = f.into();
    assert_eq!(pairs.len(), LOG.members.len());
}

#[test]
fn sanitizes_what_the_contract_sanitizes() {
    assert_eq!(SANITIZED_FIELDS, ["message", "cause"]);
    let secret = "password=hunter2";
    let e = Envelope::new_trusted(Kind::from("timeout"), &format!("failed: {secret}"))
        .with_tool(secret)
        .with_extra("token", json!(secret));
    let mut e = e;
    e.cause = format!("cause: {secret}"); // assigned: the setter would sanitize
    let f = e.log_fields();
    for name in ["message", "extra"] {
        assert!(
            !text(&f, name).contains("hunter2"),
            "{name}: {}",
            text(&f, name)
        );
    }
    let g = group(&f);
    assert_eq!(
        g[0],
        ("tool", LogValue::Str(secret.into())),
        "tool is not sanitized"
    );
    assert_eq!(g[1].0, "cause");
    assert!(!g[1].1.to_string().contains("hunter2"), "{:?}", g[1]);
}

#[test]
fn bounds_every_text() {
    // 3-byte characters: the bound falls inside one, so the cut is before it.
    let long = "\u{20ac}".repeat(2000);
    let mut e = Envelope::new_trusted(Kind::from(long.as_str()), "m").with_tool(&long);
    e.extra.insert("x".into(), json!("x".repeat(5000)));
    let f = e.log_fields();
    let kind = text(&f, "kind");
    assert_eq!(kind.len(), 1023 + LOG.ellipsis.len());
    assert!(kind.ends_with(LOG.ellipsis));
    assert_eq!(bound_log_text(&long), kind);
    assert_eq!(group(&f)[0].1, LogValue::Str(kind.to_owned()));
    assert!(text(&f, "extra").len() <= LOG.max_bytes + LOG.ellipsis.len());
    // At the bound, text is as it is.
    let exact = "a".repeat(LOG.max_bytes);
    assert!(matches!(bound_log_text(&exact), std::borrow::Cow::Borrowed(s) if s == exact));
}

#[test]
fn logs_the_fields_that_encode() {
    let mut deep = json!(1);
    for _ in 0..MAX_DEPTH + 2 {
        deep = json!([deep]);
    }
    let mut evidence = Map::new();
    evidence.insert("deep".into(), deep.clone());
    let mut e = Envelope::new_trusted(Kind::from(""), "m")
        .with_tool("search")
        .with_evidence(evidence)
        .with_hint("h");
    e.recovery.retry_after_ms = Some(-1);
    e.extra.insert("deep".into(), deep);
    e.extra.insert("ok".into(), json!(2));
    assert!(e.to_json().is_err());
    let f = e.log_fields();
    // The kind and retry hint as they are; the field and the extra entry
    // that do not encode left out, the others logged.
    assert_eq!(text(&f, "kind"), "");
    assert_eq!(f.get("retry_after_ms"), Some(&LogValue::Int(-1)));
    let g = group(&f);
    assert_eq!(
        g.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
        ["tool", "hint"]
    );
    assert_eq!(text(&f, "extra"), r#"{"ok":2}"#);
}

// --- issue 28: the string forms and split secrets in extra -------------------

const FORGED: &str =
    "upstream said ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8\nlevel=ERROR msg=forged";
const SPLIT: &str = "ghp_a1B2c3D4e5F6g7H8i9\u{1}J0k1L2m3N4o5P6q7R8";

fn leaks(out: &str) -> bool {
    out.contains("a1B2c3D4")
        || out.contains("J0k1L2m3")
        || out.contains(['\n', '\r', '\u{2028}', '\u{2029}'])
}

#[test]
fn string_forms_redact_built_trusted_and_assigned() {
    let built = Envelope::new(Kind::from("timeout"), FORGED);
    let trusted = Envelope::new_trusted(Kind::from("timeout"), FORGED);
    let mut assigned = Envelope::new_trusted(Kind::from("timeout"), "m");
    assigned.message = FORGED.into();
    for e in [built, trusted, assigned] {
        let err: Box<dyn std::error::Error> = Box::new(e.clone());
        let result: Result<(), Envelope> = Err(e.clone());
        for out in [
            e.to_string(),
            format!("{e:?}"),
            err.to_string(),
            format!("{result:?}"),
        ] {
            assert!(!leaks(&out), "{out}");
        }
        // {:#?} asks for lines of its own; the message is still one of them.
        assert!(!format!("{e:#?}").contains("a1B2c3D4") && !format!("{e:#?}").contains("\nlevel"));
        assert_eq!(
            e.to_string(),
            "timeout: upstream said [REDACTED] level=ERROR msg=forged"
        );
    }
}

#[test]
fn string_form_bounded() {
    let e = Envelope::new_trusted(
        Kind::from("k".repeat(3000).as_str()),
        &format!("a{}", "é".repeat(3000)),
    );
    assert_eq!(
        e.to_string(),
        format!("{}…: a{}…", "k".repeat(1024), "é".repeat(511))
    );
}

#[test]
fn extra_sanitizes_each_string_first() {
    let e = Envelope::new_trusted(Kind::from("timeout"), "m")
        .with_extra("xb_note", json!(format!("key {SPLIT}")))
        .with_extra(SPLIT, json!(1))
        .with_extra("xa_nested", json!({ SPLIT: [SPLIT, 2] }));
    let f = e.log_fields();
    assert_eq!(
        text(&f, "extra"),
        r#"{"[REDACTED]":1,"xa_nested":{"[REDACTED]":["[REDACTED]",2]},"xb_note":"key [REDACTED]"}"#
    );
    let e = Envelope::new_trusted(Kind::from("timeout"), "m")
        .with_extra("x_password", json!("hunter2"));
    assert!(!text(&e.log_fields(), "extra").contains("hunter2"));
}
