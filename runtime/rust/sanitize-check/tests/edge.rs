//! Edge cases of the sanitizer through its public interface: word and
//! segment boundaries, UTF-8 handling, truncation at code-point boundaries,
//! markers re-forming after removal, the fixpoint, borrowing, the policy's
//! switches, and the classifiers' word matcher.

use errgen_sanitize_check::sanitize::{
    SanitizePolicy, Sanitizer, SecretShape, CLASS_ALNUM, CLASS_BASE64, CLASS_BASE64URL, CLASS_HEX,
    CLASS_LOWER_ALNUM, CLASS_TOKEN, CLASS_UPPER_ALNUM, CLASS_WORD, REDACTED,
};
use errgen_sanitize_check::words::{ascii_lower, has_word, word_byte};
use errgen_sanitize_check::{DEFAULT_POLICY, SANITIZER};
use std::borrow::Cow;

fn s(text: &str) -> String {
    let out = SANITIZER.sanitize(text).into_owned();
    assert_eq!(
        SANITIZER.sanitize(&out),
        out,
        "not a fixpoint: {text:?} gives {out:?}"
    );
    out
}

fn max(text: &str, max_length: usize) -> String {
    let out = SANITIZER.sanitize_max(text, max_length).into_owned();
    assert_eq!(
        SANITIZER.sanitize_max(&out, max_length),
        out,
        "not a fixpoint at {max_length}: {text:?}"
    );
    out
}

#[test]
fn clean_text_is_borrowed() {
    for text in [
        "",
        "x",
        "plain",
        "status: 500, code=7, key=value, https://user@example.com/x",
        "Grüße 🚀\n\tok",
        "上游服务返回了错误：请求超时",
        "open /srv/app/homework/x.go, /home, /Users, monkey.keyboard, sort_key, id_rsa.pub, did it, api.key.example.com, c:\\work",
    ] {
        let out = SANITIZER.sanitize(text);
        assert!(matches!(out, Cow::Borrowed(_)), "{text:?} was copied");
        assert_eq!(out.as_ptr(), text.as_ptr(), "{text:?} is not the input itself");
    }
}

#[test]
fn known_token_word_starts_at_white_space() {
    // At the start or after white space, a word starting like a known token
    // goes up to the next white space; glued to a word it does not.
    assert_eq!(s("key sk-abc!def more"), format!("key {REDACTED} more"));
    assert_eq!(s("sk-x"), REDACTED);
    assert_eq!(s("\tghp_short\nnext"), format!("\t{REDACTED}\nnext"));
    assert_eq!(s("task-x"), "task-x");
    assert_eq!(s("(sk-short)"), "(sk-short)");
    // Anywhere, a prefixed token of the minimum length: task- loses its tail.
    assert_eq!(s("task-abcdefghijklmnopqrst"), format!("ta{REDACTED}"));
    assert_eq!(s("AKIAIOSFODNN7EXAMPL"), "AKIAIOSFODNN7EXAMPL");
    assert_eq!(s("xAKIAIOSFODNN7EXAMPLE"), format!("x{REDACTED}"));
}

#[test]
fn bearer_and_assignments() {
    assert_eq!(
        s("Authorization: Bearer abcdefgh1234"),
        format!("Authorization: {REDACTED}")
    );
    assert_eq!(
        s("use bearer abcdefgh1234"),
        format!("use bearer {REDACTED}")
    );
    assert_eq!(s("xbearer abcdefgh1234"), "xbearer abcdefgh1234");
    assert_eq!(s("password=hunter2"), format!("password={REDACTED}"));
    assert_eq!(
        s("\"client_secret\": \"abc\""),
        format!("\"client_secret\": \"{REDACTED}\"")
    );
    assert_eq!(
        s("sort_key=abc primary-key: 7"),
        "sort_key=abc primary-key: 7"
    );
    assert_eq!(s("my_key=abc"), format!("my_key={REDACTED}"));
    assert_eq!(
        s("exit code=1, ?code=abc"),
        format!("exit code=1, ?code={REDACTED}")
    );
    assert_eq!(
        s("max_tokens=5 passwordless=yes"),
        "max_tokens=5 passwordless=yes"
    );
    assert_eq!(
        s("postgres://u:p@db:5432"),
        format!("postgres://{REDACTED}@db:5432")
    );
    assert_eq!(s("https://git@host"), "https://git@host");
    // A key longer than 64 characters is judged by its last 64.
    let long = format!("{}_token=abc", "k".repeat(100));
    assert_eq!(s(&long), format!("{}_token={REDACTED}", "k".repeat(100)));
}

#[test]
fn paths() {
    assert_eq!(
        s("open /home/alice/project/x.go"),
        format!("open /home/{REDACTED}/project/x.go")
    );
    assert_eq!(s("/homework /home /home/ x"), "/homework /home /home/ x");
    assert_eq!(
        s("open /root/.ssh/id_rsa: denied"),
        format!("open {REDACTED}: denied")
    );
    assert_eq!(
        s("file:///home/alice/.ssh/id_rsa"),
        format!("file://{REDACTED}")
    );
    assert_eq!(
        s("C:\\Users\\alice\\x"),
        format!("C:\\Users\\{REDACTED}\\x")
    );
    assert_eq!(s("server.key and .pem"), format!("{REDACTED} and .pem"));
    assert_eq!(s("id_rsa.pub id_rsa_old"), "id_rsa.pub id_rsa_old");
    // A credential name ends its segment before white space only when ASCII
    // or the end follows: the truncation marker cannot make one.
    assert_eq!(s("id_rsa …x"), "id_rsa …x");
    assert_eq!(s("id_rsa x"), format!("{REDACTED} x"));
    // The segment boundary seen in the output: after an earlier redaction.
    assert_eq!(
        s("/srv/AKIAIOSFODNN7EXAMPLE/id_rsa"),
        format!("/srv/{REDACTED}{REDACTED}")
    );
    // At every byte alignment.
    for pad in 0..4 {
        let a = "a".repeat(pad);
        assert_eq!(
            s(&format!("{a} x/.kube//config end")),
            format!("{a} {REDACTED} end")
        );
        assert_eq!(
            s(&format!("{a} AKIAIOSFODNN7EXAMPLEid_ed25519 end")),
            format!("{a} {REDACTED}{REDACTED} end")
        );
    }
}

#[test]
fn markers_reform_after_removal() {
    assert_eq!(s("<sys<system>tem>"), "");
    assert_eq!(s("<sy###stem>"), "");
    assert_eq!(s("<sys\u{200b}tem>"), "");
    assert_eq!(s("#<<##"), "");
    assert_eq!(s("####"), "#");
    assert_eq!(s("<<SYS>>"), "SYS>>");
    assert_eq!(s("a <SyStEm> b"), "a  b");
    assert_eq!(s("[/in[INST]st]"), "");
    // Full-width lookalikes are no markers.
    assert_eq!(s("＜system＞"), "＜system＞");
}

#[test]
fn utf8() {
    // Each maximal subpart of an ill-formed sequence becomes one U+FFFD.
    let cases: &[(&[u8], &str)] = &[
        (b"\xe2\x82A", "\u{FFFD}A"),
        (b"\xed\xa0\x80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"a\xffb", "a\u{FFFD}b"),
        (b"\xf0\x9f\x98", "\u{FFFD}"),
        (b"\xf4\x90\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\xc0\xaf", "\u{FFFD}\u{FFFD}"),
        (b"\xe0\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ("\u{FFFD} kept".as_bytes(), "\u{FFFD} kept"),
        (b"pass\x00word=x", "password=[REDACTED]"),
    ];
    for (input, want) in cases {
        let got = SANITIZER.sanitize_bytes(input, DEFAULT_POLICY.max_length);
        assert_eq!(got, *want, "{input:x?}");
    }
    // Valid bytes that need no change are borrowed too.
    let clean = "Grüße".as_bytes();
    assert!(matches!(
        SANITIZER.sanitize_bytes(clean, 2048),
        Cow::Borrowed("Grüße")
    ));
    // Deleted: controls, bidi, zero-width, invisible formatting, tags.
    assert_eq!(s("a\u{0}\u{7}\u{7f}\u{85}\u{ad}\u{61c}\u{180e}\u{200b}\u{200d}\u{202e}\u{2066}\u{2064}\u{feff}\u{fffa}\u{e0041}b"), "ab");
    // Kept: tab, LF, CR, U+2028, no-break space, combining marks, private use.
    let kept = "a\t\n\r\u{2028}\u{a0}e\u{301}\u{e000}\u{fe0f}";
    assert_eq!(s(kept), kept);
    assert_eq!(s("👨\u{200d}👩\u{200d}👧"), "👨👩👧");
}

#[test]
fn truncation_counts_code_points() {
    let marker = DEFAULT_POLICY.truncation_marker;
    let marker_len = marker.chars().count();
    let long = "ab🚀".repeat(DEFAULT_POLICY.max_length);
    let out = s(&long);
    assert_eq!(out.chars().count(), DEFAULT_POLICY.max_length);
    assert!(out.ends_with(marker));
    // A maximum below the marker plus one character is raised to that.
    for m in [0, 1, marker_len] {
        assert_eq!(max(&long, m).chars().count(), marker_len + 1, "max {m}");
    }
    // Exactly the maximum is kept; one more is truncated, never inside a
    // code point.
    for m in [20, 21, 22, 23, 64] {
        let text: String = "é🚀x".chars().cycle().take(m).collect();
        assert_eq!(max(&text, m), text);
        let more: String = "é🚀x".chars().cycle().take(m + 1).collect();
        let out = max(&more, m);
        assert_eq!(out.chars().count(), m);
        let kept: String = more.chars().take(m - marker_len).collect();
        assert_eq!(out, kept + marker);
    }
    // Text beyond the window (4 × max code points) is never read and counts
    // as cut off.
    let huge = format!("{}{}", "x".repeat(4 * 64), "\u{0}".repeat(100));
    assert!(max(&huge, 64).ends_with(marker));
    let huge_bytes = [vec![b'x'; 4 * 64], vec![0xff; 100]].concat();
    let out = SANITIZER.sanitize_bytes(&huge_bytes, 64);
    assert_eq!(out, format!("{}{marker}", "x".repeat(64 - marker_len)));
    // Truncation never cuts a [REDACTED] short: it cuts before it; the
    // output is still a fixpoint.
    let cut = format!("{}password=hunter2 {}", "x".repeat(40), "y".repeat(20));
    assert_eq!(
        max(&cut, 65),
        format!("{}password={marker}", "x".repeat(40))
    );
}

#[test]
fn policies() {
    static SECRET: SecretShape = SecretShape {
        prefixes: &["acme_live_", "ak"],
        class: CLASS_HEX,
        min: 8,
    };
    static POLICY: SanitizePolicy = SanitizePolicy {
        max_length: 64,
        truncation_marker: " …cut",
        markers: &["<X>"],
        contract_secrets: std::slice::from_ref(&SECRET),
        paths: false,
        credential_names: &[".ssh", "id_rsa"],
    };
    static CUSTOM: Sanitizer = Sanitizer::new(&POLICY);
    let c = |t: &str| CUSTOM.sanitize(t).into_owned();
    assert_eq!(CUSTOM.policy().max_length, 64);
    assert_eq!(c("a <x> <system> b"), "a  <system> b");
    assert_eq!(
        c("key acme_live_deadBEEF end"),
        format!("key {REDACTED} end")
    );
    assert_eq!(c("key acme_live_deadBEE end"), "key acme_live_deadBEE end");
    assert_eq!(c("akdeadbeef0"), REDACTED);
    // Paths off: homes and credential names are kept, the catalogue is not.
    assert_eq!(c("/home/alice/.ssh/id_rsa"), "/home/alice/.ssh/id_rsa");
    assert_eq!(c("AKIAIOSFODNN7EXAMPLE"), REDACTED);
    let long = "y".repeat(100);
    assert_eq!(c(&long), format!("{} …cut", "y".repeat(59)));
    // Every class constant is distinct and the documented bit.
    let classes = [
        CLASS_ALNUM,
        CLASS_UPPER_ALNUM,
        CLASS_LOWER_ALNUM,
        CLASS_HEX,
        CLASS_BASE64URL,
        CLASS_BASE64,
        CLASS_WORD,
        CLASS_TOKEN,
    ];
    for (i, c) in classes.iter().enumerate() {
        assert_eq!(*c, 1 << i);
    }
}

#[test]
fn shared_between_threads() {
    let handles: Vec<_> = (0..4)
        .map(|i| {
            std::thread::spawn(move || SANITIZER.sanitize(&format!("t{i} password=x")).into_owned())
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        assert_eq!(h.join().unwrap(), format!("t{i} password={REDACTED}"));
    }
}

#[test]
fn words() {
    assert!(matches!(ascii_lower("already lower, ÄÖ"), Cow::Borrowed(_)));
    assert_eq!(ascii_lower("Rate LIMITED Ä"), "rate limited Ä");
    assert!(word_byte(b'_') && word_byte(b'a') && word_byte(b'Z') && word_byte(b'9'));
    assert!(!word_byte(b'-') && !word_byte(b' ') && !word_byte(0xc3));
    assert!(has_word("rate limited", &["limited"]));
    assert!(has_word("429: too many requests", &["nope", "too many"]));
    assert!(!has_word("unlimited", &["limited"]));
    assert!(!has_word("limited_x", &["limited"]));
    assert!(has_word("limited-x", &["limited"]));
    // A later occurrence can be whole where the first is not.
    assert!(has_word("unlimited, limited", &["limited"]));
    // Only ASCII counts as a word character: é is a boundary.
    assert!(has_word("élimitedé", &["limited"]));
    assert!(!has_word("", &["x"]));
}

/// A seeded mix of the fragments that matter, for the properties below.
fn mixed(seed: u64, n: usize) -> Vec<String> {
    const PARTS: &[&str] = &[
        "a",
        "x ",
        " ",
        "\t",
        "\n",
        "é",
        "🚀",
        "上",
        "\u{200b}",
        "\u{0}",
        "\u{85}",
        "<sys",
        "tem>",
        "<system>",
        "#",
        "<",
        "[INST]",
        "password",
        "=",
        ": ",
        "\"",
        "token",
        "_key",
        "sk-",
        "AKIA",
        "ghp_",
        "eyJ",
        "abcdefghij",
        "0123456789",
        ".",
        "bearer ",
        "://",
        "u:p@",
        "/home/",
        "/Users/",
        "C:\\Users\\",
        "~/",
        ".ssh",
        "id_rsa",
        ".pem",
        "/",
        "\\",
        "-----BEGIN RSA PRIVATE KEY-----",
        "-----END ",
        "-----",
        "[REDACTED]",
        "[",
        "]",
        "?code=",
        "&",
        "…",
    ];
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..n)
        .map(|_| {
            let len = (next() % 40) as usize;
            (0..len)
                .map(|_| PARTS[(next() % PARTS.len() as u64) as usize])
                .collect()
        })
        .collect()
}

#[test]
fn fixpoint_and_quick_pass_agree() {
    for text in mixed(0x9E3779B97F4A7C15, 20000) {
        let once = s(&text);
        // A deleted character in front stops the quick pass at once, so the
        // steps run on everything: they must give what the quick pass let
        // through.
        let slow = SANITIZER.sanitize(&format!("\u{0}{text}")).into_owned();
        assert_eq!(
            slow, once,
            "the quick pass and the steps disagree on {text:?}"
        );
        for m in [14, 20, 33] {
            let out = max(&text, m);
            assert!(out.chars().count() <= m, "{text:?} at {m}: {out:?}");
        }
    }
}
