//! The sanitizer: it cleans upstream-controlled text before it goes into an
//! envelope, a log or a prompt.
//!
//! docs/sanitizer.md specifies it step by step; the Go, TypeScript and
//! Python packages implement the same steps, and the shared vectors
//! (conformance/sanitizer.vectors.json) hold all four to it. This file is
//! the same for every contract: the policy (maximum length, truncation
//! marker, markers, the contract's secrets, the path rules) is data, a
//! [`SanitizePolicy`] the crate defines. It is a port of the Go runtime's
//! sanitize.go, byte for byte: every pattern is ASCII and matched by
//! hand-written forward scans over the UTF-8 bytes, so each step is linear
//! in its input and no regular expression is needed.
//!
//! The steps, in order:
//!
//!  1. Window and clean: read at most 4 × max code points; replace each
//!     ill-formed UTF-8 subpart with U+FFFD; delete controls except tab, LF
//!     and CR, bidi controls, zero-width and invisible formatting characters.
//!  2. Markers: delete prompt-injection markers (ASCII case ignored) until
//!     none remain.
//!  3. Redact: replace secrets with `[REDACTED]` in one left-to-right scan.
//!  4. Truncate: when the text is longer than max code points or the window
//!     cut something off, keep max − len(marker) code points (fewer when
//!     the cut falls inside a `[REDACTED]`: before it) and append the
//!     truncation marker.
//!
//! When the window cut the text, its end counts as text that goes on: step
//! 2 also deletes the marker starts there, and a secret that runs to it is
//! redacted however short (edge_markers, edge_secret), so no token
//! character reaches the output (docs/sanitizer.md, the bound).
//!
//! The output is a fixpoint: sanitizing it again changes nothing.
//!
//! Speed: most text needs no change, so a quick pass first reads the byte
//! pairs at even positions against a table of the pairs that could start a
//! change, and returns the input, borrowed, when none does. Otherwise steps
//! 1 and 2 run as one pass from the first place that could change, copying
//! runs of kept characters whole, and step 3 skips pairs the same way,
//! starting where the quick pass stopped when that was at a secret. Where
//! a block of eight bytes holds a pair that could start something, one
//! table of byte pairs tells which of its positions to look at, and a shape
//! is tried there by its cheapest test first: most tries are near misses,
//! and a crafted text makes nearly every position one. None of this
//! changes a result: the steps are defined as written above (the Go
//! runtime's sanitize.go is written the same way, function for function).

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

/// Character class of a secret shape: ASCII letters and digits (`alnum`).
pub const CLASS_ALNUM: u16 = 1;
/// Character class of a secret shape: upper-case ASCII letters and digits
/// (`upper_alnum`).
pub const CLASS_UPPER_ALNUM: u16 = 1 << 1;
/// Character class of a secret shape: lower-case ASCII letters and digits
/// (`lower_alnum`).
pub const CLASS_LOWER_ALNUM: u16 = 1 << 2;
/// Character class of a secret shape: hexadecimal digits, either case
/// (`hex`).
pub const CLASS_HEX: u16 = 1 << 3;
/// Character class of a secret shape: ASCII letters, digits, `_` and `-`
/// (`base64url`).
pub const CLASS_BASE64URL: u16 = 1 << 4;
/// Character class of a secret shape: ASCII letters, digits, `+`, `/` and
/// `=` (`base64`).
pub const CLASS_BASE64: u16 = 1 << 5;
/// Character class of a secret shape: ASCII letters, digits and `_`
/// (`word`).
pub const CLASS_WORD: u16 = 1 << 6;
/// Character class of a secret shape: ASCII letters, digits and
/// `- . _ ~ + / =` (`token`, RFC 6750's b64token).
pub const CLASS_TOKEN: u16 = 1 << 7;
// The classes the shapes use internally. CLASS_KEY: the characters of a key
// name (letters, digits, _ . -).
const CLASS_KEY: u16 = 1 << 8;
// CLASS_VALUE: ASCII characters a value may start with: printable, not a
// space, quote, backslash or one of & , ; < > ( ) [ ] { }.
const CLASS_VALUE: u16 = 1 << 9;
// CLASS_USERINFO: ASCII characters of a URL's userinfo: printable, not a
// space, quote, backslash or one of / ? # @ [ ] < > { } `.
const CLASS_USERINFO: u16 = 1 << 10;
// CLASS_PATH: the bytes of a path's characters: ASCII letters, digits,
// - . _ ~ + @ % $, the separators / and \, and every byte of a non-ASCII
// character.
const CLASS_PATH: u16 = 1 << 11;
// CLASS_GAP: what may stand between a key and its separator: spaces, tabs,
// quotes and backslashes.
const CLASS_GAP: u16 = 1 << 12;

/// The text every redacted secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// A secret shape: one of the prefixes, then at least `min` characters of
/// `class` (one of the `CLASS_*` constants). The whole run of class
/// characters is redacted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecretShape {
    /// The prefixes, 2 to 32 ASCII letters, digits, `_` or `-` each.
    pub prefixes: &'static [&'static str],
    /// The character class of the run after the prefix: a `CLASS_*` constant.
    pub class: u16,
    /// The least number of class characters after the prefix.
    pub min: usize,
}

/// A contract's sanitizer policy: its `sanitize` section, or errgen's
/// defaults (docs/sanitizer.md, "The policy").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SanitizePolicy {
    /// The longest output in code points, the truncation marker included.
    pub max_length: usize,
    /// What truncated text ends with.
    pub truncation_marker: &'static str,
    /// The prompt-injection markers removed, ASCII case ignored, until none
    /// remain.
    pub markers: &'static [&'static str],
    /// The contract's own secret shapes, redacted after errgen's catalogue.
    pub contract_secrets: &'static [SecretShape],
    /// Whether home directories and credential paths are redacted.
    pub paths: bool,
    /// The credential file and directory names that make a path a
    /// credential path: errgen's, then the contract's. Read only when
    /// `paths` is on.
    pub credential_names: &'static [&'static str],
}

/// A sanitizer for one policy. Its tables are built on first use and
/// shared by every thread, so it can live in a `static`:
///
/// ```ignore
/// static SANITIZER: Sanitizer = Sanitizer::new(&SANITIZE_POLICY);
/// ```
pub struct Sanitizer {
    policy: &'static SanitizePolicy,
    tables: OnceLock<Tables>,
}

impl fmt::Debug for Sanitizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sanitizer")
            .field("policy", self.policy)
            .finish_non_exhaustive()
    }
}

impl Sanitizer {
    /// Returns a sanitizer for the policy; nothing is computed until it is
    /// first used.
    pub const fn new(policy: &'static SanitizePolicy) -> Sanitizer {
        Sanitizer {
            policy,
            tables: OnceLock::new(),
        }
    }

    /// Returns the sanitizer's policy.
    #[must_use]
    pub fn policy(&self) -> &'static SanitizePolicy {
        self.policy
    }

    /// Cleans upstream-controlled text with the policy (its maximum length,
    /// truncation marker, markers and secrets, and errgen's secret
    /// catalogue). It returns the text itself, borrowed and without
    /// allocating, when nothing changes. It is defence in depth, not a
    /// guarantee: docs/sanitizer.md lists what it does not catch.
    #[must_use]
    pub fn sanitize<'a>(&self, text: &'a str) -> Cow<'a, str> {
        self.sanitize_max(text, self.policy.max_length)
    }

    /// [`Sanitizer::sanitize`] with another maximum length in code points,
    /// the truncation marker included. A maximum shorter than the marker
    /// plus one character is raised to that.
    #[must_use]
    pub fn sanitize_max<'a>(&self, text: &'a str, max_length: usize) -> Cow<'a, str> {
        match self.run(text.as_bytes(), max_length) {
            // Text that needs no change is a prefix of the input, cut at a
            // code point boundary (the window's end).
            Cow::Borrowed(b) => Cow::Borrowed(&text[..b.len()]),
            Cow::Owned(b) => Cow::Owned(into_string(b)),
        }
    }

    /// [`Sanitizer::sanitize_max`] of raw bytes, which may be ill-formed
    /// UTF-8: each maximal subpart of an ill-formed sequence becomes one
    /// U+FFFD (Unicode §3.9), as Go's sanitizer reads a string. Only the
    /// window is read, so a huge input costs what its window does.
    #[must_use]
    pub fn sanitize_bytes<'a>(&self, bytes: &'a [u8], max_length: usize) -> Cow<'a, str> {
        match self.run(bytes, max_length) {
            // Text that needs no change holds no ill-formed sequence (step 1
            // would have replaced it), so this only checks what was read.
            Cow::Borrowed(b) => Cow::Borrowed(
                std::str::from_utf8(b).expect("the sanitizer keeps only UTF-8 unchanged"),
            ),
            Cow::Owned(b) => Cow::Owned(into_string(b)),
        }
    }

    fn run<'a>(&self, s: &'a [u8], max_length: usize) -> Cow<'a, [u8]> {
        let t = self.tables.get_or_init(|| Tables::new(self.policy));
        let max_length = max_length.max(t.marker_len + 1).min(1 << 28);
        let window = 4 * max_length;
        // Most text needs no change: one quick pass proves it, and the steps
        // run only when it finds something. Text of more than 4 bytes per
        // allowed code point is longer than max_length whatever it holds,
        // so it goes to the steps straight away.
        let (mut pristine, mut runes) = (0, 0);
        let mut q = QuietPass {
            r: Redactor::new(t, s),
            next: 0,
        };
        if s.len() <= window {
            let (p, quiet) = t.quiet(&mut q);
            if quiet {
                // Steps 1 to 3 keep s; only its length can matter.
                return t.truncate(Cow::Borrowed(s), max_length, false);
            }
            pristine = p;
            runes = rune_count(&s[..p]);
        }
        let (cleaned, cut) = t.clean(s, window, pristine, runes);
        // The quick pass stopped at the first place where a step changes
        // something. When that is a secret (steps 1 and 2 kept s), every
        // position before it was tried already, and step 3 starts there.
        // The quick pass's answers about paths and tokens hold there too.
        let kept = !cut && matches!(cleaned, Cow::Borrowed(b) if b.len() == s.len());
        let (start, memo) = if kept {
            (pristine, q.r.memo)
        } else {
            (0, Memo::default())
        };
        // The window cut the text: what lies past it could have completed a
        // marker or a secret that reaches its edge (edge_markers,
        // edge_secret).
        let cleaned = if cut {
            match cleaned {
                Cow::Borrowed(b) => Cow::Borrowed(&b[..t.edge_markers(b)]),
                Cow::Owned(mut b) => {
                    b.truncate(t.edge_markers(&b));
                    Cow::Owned(b)
                }
            }
        } else {
            cleaned
        };
        let (redacted, over) = {
            let mut r = Redactor::new(t, &cleaned);
            r.memo = memo;
            t.redact(&mut r, start, max_length)
        };
        let mut out = match (redacted, cleaned) {
            (Some(v), _) => Cow::Owned(v),
            (None, cleaned) => cleaned,
        };
        if cut && !over {
            // When step 3 stopped early (over), its output before the stop
            // is longer than step 4 keeps, and the end edge_secret would
            // redact, kept text after the last redaction, starts after it.
            let from = t.edge_secret(&out);
            if from < out.len() {
                let mut b = out.into_owned();
                b.truncate(from);
                b.extend_from_slice(REDACTED.as_bytes());
                out = Cow::Owned(b);
            }
        }
        t.truncate(out, max_length, cut || over)
    }
}

fn into_string(b: Vec<u8>) -> String {
    String::from_utf8(b).expect("the sanitizer writes UTF-8")
}

// removed_rune reports whether step 1 deletes r.
#[inline]
fn removed_rune(r: u32) -> bool {
    // Most letters lie between the ranges: Latin, Greek, Cyrillic and the
    // like below U+061C, CJK and most others between U+2070 and U+FEFF.
    if (0xAE..0x061C).contains(&r) || (0x2070..0xFEFF).contains(&r) {
        return false;
    }
    match r {
        0..=0x1F => r != 0x09 && r != 0x0A && r != 0x0D,
        0x20..=0x7E => false,
        0x7F..=0x9F
        | 0xAD
        | 0x061C
        | 0x180E
        | 0x200B..=0x200F
        | 0x202A..=0x202E
        | 0x2060..=0x2064
        | 0x2066..=0x206F
        | 0xFEFF
        | 0xFFF9..=0xFFFB
        | 0xE0000..=0xE007F => true,
        _ => false,
    }
}

// decode decodes the code point at the start of s (s[0] >= 0x80). An
// ill-formed sequence yields ok false and the length of its maximal subpart
// (Unicode §3.9, as WHATWG's and Python's decoders replace it): the lead
// byte with the continuation bytes that could still have completed it.
fn decode(s: &[u8]) -> (u32, usize, bool) {
    // Well-formed two- and three-byte sequences first: most text is.
    let c = s[0];
    let cont = |i: usize| matches!(s.get(i), Some(&b) if b & 0xC0 == 0x80);
    if (0xC2..0xE0).contains(&c) && cont(1) {
        return (u32::from(c & 0x1F) << 6 | u32::from(s[1] & 0x3F), 2, true);
    }
    if (0xE0..0xF0).contains(&c) && cont(1) && cont(2) {
        let r = u32::from(c & 0x0F) << 12 | u32::from(s[1] & 0x3F) << 6 | u32::from(s[2] & 0x3F);
        if r >= 0x800 && !(0xD800..0xE000).contains(&r) {
            return (r, 3, true);
        }
    }
    let (need, mut lo, mut hi, mut r) = match c {
        0xC2..=0xDF => (1, 0x80, 0xBF, u32::from(c & 0x1F)),
        0xE0 => (2, 0xA0, 0xBF, u32::from(c & 0x0F)),
        0xED => (2, 0x80, 0x9F, u32::from(c & 0x0F)),
        0xE1..=0xEF => (2, 0x80, 0xBF, u32::from(c & 0x0F)),
        0xF0 => (3, 0x90, 0xBF, u32::from(c & 0x07)),
        0xF4 => (3, 0x80, 0x8F, u32::from(c & 0x07)),
        0xF1..=0xF3 => (3, 0x80, 0xBF, u32::from(c & 0x07)),
        _ => return (0xFFFD, 1, false),
    };
    for i in 1..=need {
        match s.get(i) {
            Some(&b) if b >= lo && b <= hi => r = r << 6 | u32::from(b & 0x3F),
            _ => return (0xFFFD, i, false),
        }
        lo = 0x80;
        hi = 0xBF;
    }
    (r, need + 1, true)
}

// What a byte means to the quick pass and to step 1, one bit each.
const BYTE_REMOVED: u8 = 1; // a C0 control other than tab, LF and CR, or DEL
const BYTE_MULTI: u8 = 1 << 1; // a byte of a multi-byte sequence (>= 0x80)
const BYTE_MARKER_END: u8 = 1 << 2; // the last byte of a marker, either ASCII case
const BYTE_ASSIGN: u8 = 1 << 3; // ':' or '=': an assignment or a URL may start here

// The kinds of shapes a fixed start begins (Head). The prefixed shapes and
// word prefixes starting with a byte are kept in catalogue order, so
// filtering by the first byte keeps the order of step 3.
const START_PEM: u8 = 1; // -----BEGIN
const START_WORD: u8 = 1 << 1; // a word prefix (sk-, eyJ, …)
const START_PREFIXED: u8 = 1 << 2; // a prefixed shape's prefix
const START_JWT: u8 = 1 << 3; // eyJ
const START_BEARER: u8 = 1 << 4; // bearer, any case
const START_HOME: u8 = 1 << 5; // /home/, /Users/
const START_NAME: u8 = 1 << 6; // a credential name or a key file extension

const fn class_table() -> [u16; 256] {
    const fn has(set: &[u8], c: u8) -> bool {
        let mut i = 0;
        while i < set.len() {
            if set[i] == c {
                return true;
            }
            i += 1;
        }
        false
    }
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 128 {
        let c = i as u8;
        let (lower, upper, digit) = (
            c.is_ascii_lowercase(),
            c.is_ascii_uppercase(),
            c.is_ascii_digit(),
        );
        let alnum = lower || upper || digit;
        let printable = c > b' ' && c < 0x7F;
        let mut v = 0;
        if alnum {
            v |= CLASS_ALNUM;
        }
        if upper || digit {
            v |= CLASS_UPPER_ALNUM;
        }
        if lower || digit {
            v |= CLASS_LOWER_ALNUM;
        }
        if c.is_ascii_hexdigit() {
            v |= CLASS_HEX;
        }
        if alnum || c == b'_' || c == b'-' {
            v |= CLASS_BASE64URL;
        }
        if alnum || c == b'+' || c == b'/' || c == b'=' {
            v |= CLASS_BASE64;
        }
        if alnum || c == b'_' {
            v |= CLASS_WORD;
        }
        if alnum || has(b"-._~+/=", c) {
            v |= CLASS_TOKEN; // RFC 6750 b64token
        }
        if alnum || c == b'_' || c == b'.' || c == b'-' {
            v |= CLASS_KEY;
        }
        if printable && !has(b"\"'`\\&,;<>()[]{}", c) {
            v |= CLASS_VALUE;
        }
        if printable && !has(b"\"'`\\/?#@[]<>{}", c) {
            v |= CLASS_USERINFO;
        }
        if alnum || has(b"-._~+@%$/\\", c) {
            v |= CLASS_PATH;
        }
        if has(b" \t\"'\\", c) {
            v |= CLASS_GAP;
        }
        t[i] = v;
        i += 1;
    }
    while i < 256 {
        t[i] = CLASS_PATH;
        i += 1;
    }
    t
}

// CLASSES holds each byte's character classes.
static CLASSES: [u16; 256] = class_table();

fn class(c: u8) -> u16 {
    CLASSES[usize::from(c)]
}

// BUILTIN_SECRETS is errgen's catalogue of token shapes.
const BUILTIN_SECRETS: &[SecretShape] = &[
    // OpenAI, Anthropic and similar API keys
    SecretShape {
        prefixes: &["sk-"],
        class: CLASS_BASE64URL,
        min: 20,
    },
    // GitHub tokens
    SecretShape {
        prefixes: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        class: CLASS_ALNUM,
        min: 36,
    },
    // GitHub fine-grained tokens
    SecretShape {
        prefixes: &["github_pat_"],
        class: CLASS_WORD,
        min: 82,
    },
    // GitLab tokens
    SecretShape {
        prefixes: &["glpat-"],
        class: CLASS_BASE64URL,
        min: 20,
    },
    // Slack tokens
    SecretShape {
        prefixes: &["xoxa-", "xoxb-", "xoxe-", "xoxp-", "xoxr-", "xoxs-"],
        class: CLASS_BASE64URL,
        min: 10,
    },
    // Tailscale keys
    SecretShape {
        prefixes: &["tskey-"],
        class: CLASS_BASE64URL,
        min: 10,
    },
    // AWS access key ids
    SecretShape {
        prefixes: &["AKIA", "ASIA"],
        class: CLASS_UPPER_ALNUM,
        min: 16,
    },
    // Google API keys
    SecretShape {
        prefixes: &["AIza"],
        class: CLASS_BASE64URL,
        min: 35,
    },
    // Stripe keys
    SecretShape {
        prefixes: &[
            "sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_", "whsec_",
        ],
        class: CLASS_ALNUM,
        min: 16,
    },
    // npm tokens
    SecretShape {
        prefixes: &["npm_"],
        class: CLASS_ALNUM,
        min: 36,
    },
];

// WORD_PREFIXES start a token that is redacted whole, up to the next white
// space, when it begins at the start or after white space.
const WORD_PREFIXES: &[&str] = &[
    "sk-",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxa-",
    "xoxb-",
    "xoxe-",
    "xoxp-",
    "xoxr-",
    "xoxs-",
    "tskey-",
    "eyJ",
];

// HOME_PREFIXES start a Unix home directory; the user name follows.
const HOME_PREFIXES: &[&str] = &["/home/", "/Users/"];

// KEY_EXTENSIONS end the name of a key or certificate store file.
const KEY_EXTENSIONS: &[&str] = &[".pem", ".key", ".p12", ".pfx", ".ppk", ".jks"];

// KEY_SUFFIXES make a key sensitive when it ends with one of them
// (lower-cased): token, secret and password keys of every spelling.
const KEY_SUFFIXES: &[&str] = &[
    "token",
    "secret",
    "password",
    "passwd",
    "apikey",
    "api_key",
    "api-key",
    "signature",
    "credential",
    "credentials",
    "authorization",
    "cookie",
    "sessionid",
    "session_id",
    "accesskey",
    "privatekey",
    "secretkey",
];

// KEY_EXACT are sensitive keys that are not a suffix rule's.
const KEY_EXACT: &[&str] = &["pwd", "pass", "auth", "session"];

// KEY_HARMLESS are keys ending in _key or -key that name no secret.
const KEY_HARMLESS: &[&str] = &[
    "sort_key",
    "cache_key",
    "idempotency_key",
    "partition_key",
    "primary_key",
    "public_key",
    "foreign_key",
    "hash_key",
    "range_key",
    "row_key",
    "object_key",
    "routing_key",
    "shard_key",
    "dedup_key",
    "dedupe_key",
    "group_key",
    "lookup_key",
    "unique_key",
    "index_key",
    "map_key",
    "s3_key",
];

// A pair set is a bit set over byte pairs, indexed by first | second << 8.
#[derive(Clone)]
struct Pairs([u64; 1024]);

impl Pairs {
    fn new() -> Box<Pairs> {
        Box::new(Pairs([0; 1024]))
    }

    fn set(&mut self, c: u8, d: u8) {
        let v = usize::from(c) | usize::from(d) << 8;
        self.0[v >> 6] |= 1 << (v & 63);
    }

    // bit reports whether the pair v is set.
    #[inline]
    fn bit(&self, v: usize) -> bool {
        self.0[(v >> 6) & 1023] & (1 << (v & 63)) != 0
    }

    // at reports whether the pair of a and b is set.
    #[inline]
    fn at(&self, a: u8, b: u8) -> bool {
        self.bit(usize::from(a) | usize::from(b) << 8)
    }

    // starts sets the pairs an even-pair scan finds a shape by, whatever its
    // position: the prefix's first two bytes and its second two, or, for a
    // prefix of two bytes, its second with each byte of the class after it.
    fn starts(&mut self, prefix: &[u8], class_bits: u16) {
        self.set(prefix[0], prefix[1]);
        if prefix.len() > 2 {
            self.set(prefix[1], prefix[2]);
            return;
        }
        for d in 0..=255u8 {
            if class(d) & class_bits != 0 {
                self.set(prefix[1], d);
            }
        }
    }

    // has reports whether the pair at s[p] is set; the last byte pairs with 0.
    #[inline]
    fn has(&self, s: &[u8], p: usize) -> bool {
        let mut v = usize::from(s[p]);
        if p + 1 < s.len() {
            v |= usize::from(s[p + 1]) << 8;
        }
        self.bit(v)
    }
}

const HIGH: u64 = 0x8080_8080_8080_8080;

// word8 returns the eight bytes of s from i (i + 8 <= s.len()) as a
// little-endian word.
#[inline]
fn word8(s: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(s[i..i + 8].try_into().expect("eight bytes"))
}

// word returns the eight bytes of s from p as a little-endian word, zero
// past the end of s. Every fixed string of the shapes is compared with it
// in one step.
#[inline]
fn word(s: &[u8], p: usize) -> u64 {
    if s.len() - p >= 8 {
        return word8(s, p);
    }
    let mut w = 0u64;
    for &c in s[p..].iter().rev() {
        w = w << 8 | u64::from(c);
    }
    w
}

// Fixed is a fixed ASCII string compared eight bytes at a time: its first
// eight bytes (fewer when it is shorter) as a little-endian word with their
// mask, and the bytes after them. fold is ORed into the text's word first:
// 0x20 at the letters of a string matched in any ASCII case (then written
// in lower case).
#[derive(Clone, Copy, PartialEq)]
struct Fixed {
    word: u64,
    mask: u64,
    fold: u64,
    n: usize,
    tail: &'static [u8],
}

impl Fixed {
    fn of(x: &'static [u8]) -> Fixed {
        let mut f = Fixed {
            word: 0,
            mask: 0,
            fold: 0,
            n: x.len(),
            tail: &[],
        };
        for (i, &c) in x.iter().take(8).enumerate() {
            f.word |= u64::from(c) << (8 * i);
            f.mask |= 0xFF << (8 * i);
        }
        if x.len() > 8 {
            f.tail = &x[8..];
        }
        f
    }

    // at reports whether s holds the string at p, given w = word(s, p).
    #[inline]
    fn at(&self, s: &[u8], p: usize, w: u64) -> bool {
        (w | self.fold) & self.mask == self.word
            && s.len() - p >= self.n
            && (self.tail.is_empty() || &s[p + 8..p + self.n] == self.tail)
    }
}

// Head is the fixed start of one or more shapes, which match_at compares
// first: where none of a byte pair's heads is, no shape starts (most tries
// are near misses), and the kinds of those that are tell which shapes to
// try.
#[derive(Clone, Copy, PartialEq)]
struct Head {
    fixed: Fixed,
    kinds: u8,
}

// Buckets holds items by a hash of their first two bytes (bucket): bucket
// b is list[start[b]..start[b + 1]].
struct Buckets<T> {
    start: Box<[u16; (1 << 12) + 1]>,
    list: Vec<T>,
}

impl<T: Clone + PartialEq> Buckets<T> {
    fn new(items: Vec<(u16, T)>) -> Buckets<T> {
        let mut buckets: Vec<Vec<T>> = vec![Vec::new(); 1 << 12];
        for (pair, x) in items {
            let b = &mut buckets[bucket(pair)];
            if !b.contains(&x) {
                b.push(x);
            }
        }
        let mut start = Box::new([0u16; (1 << 12) + 1]);
        let mut list = Vec::new();
        for (b, items) in buckets.into_iter().enumerate() {
            list.extend(items);
            start[b + 1] = u16::try_from(list.len()).expect("few items");
        }
        Buckets { start, list }
    }

    #[inline]
    fn of(&self, pair: u16) -> &[T] {
        let b = bucket(pair);
        &self.list[usize::from(self.start[b])..usize::from(self.start[b + 1])]
    }
}

// bucket returns the bucket of a pair (first | second << 8).
#[inline]
fn bucket(v: u16) -> usize {
    (u32::from(v).wrapping_mul(0x9E37_79B1) >> 20) as usize
}

// Name is a credential name split at its first '/': the bytes before it,
// compared as a fixed string, and the rest, matched by name_at (empty for
// a name of one segment).
#[derive(Clone, Copy, PartialEq)]
struct Name {
    head: Fixed,
    rest: &'static [u8],
}

// Marker is a marker (ASCII letters lower-cased) with its last eight bytes
// (fewer when it is shorter) as the top bytes of a little-endian word,
// their mask, and 0x20 at its letters: the last eight bytes of a text, ORed
// with fold and masked, equal word when the text ends with them in any
// ASCII case (no other byte ORed with 0x20 becomes a lower-case letter).
#[derive(Clone, PartialEq)]
struct Marker {
    m: Box<[u8]>,
    word: u64,
    mask: u64,
    fold: u64,
}

impl Marker {
    fn of(m: Box<[u8]>) -> Marker {
        let (mut word, mut mask, mut fold) = (0u64, 0u64, 0u64);
        for k in 0..m.len().min(8) {
            let (c, shift) = (m[m.len() - 1 - k], 8 * (7 - k));
            word |= u64::from(c) << shift;
            mask |= 0xFF << shift;
            if c.is_ascii_lowercase() {
                fold |= 0x20 << shift;
            }
        }
        Marker {
            m,
            word,
            mask,
            fold,
        }
    }
}

// What a byte pair means to the scans, one bit each (Tables::pair_info).
// The quick pass reads the first two, step 3 the last two (a pair at
// SHIFT_QUIET or SHIFT_SECRET), both the middle two.
const PAIR_STARTS: u8 = 1; // a change may start at the first byte (look)
const PAIR_ENDS: u8 = 1 << 1; // one may end at the second (look_after)
const PAIR_KEY: u8 = 1 << 2; // the pair may end a key (key_ends)
const PAIR_SEP: u8 = 1 << 3; // the second byte is ':' or '='
const PAIR_SECRET_STARTS: u8 = 1 << 4; // a secret may start at the first byte (look_secret)
const PAIR_GAP_SEP: u8 = 1 << 5; // white space, a quote or a backslash, then ':' or '='
const SHIFT_QUIET: u32 = 0;
const SHIFT_SECRET: u32 = 4;

// What a byte pair at an even position means to the scans, one bit each
// (Tables::even_pairs): the quick pass looks around it (look2, look2_multi),
// step 3 does (look_secret2).
const EVEN_QUIET: u8 = 1;
const EVEN_SECRET: u8 = 1 << 1;

// What reaching a node of the key trie means: the key read so far (its
// end) is one of the suffixes, the whole key would be one of the exact
// keys, or the key ends with _key or -key.
const KEY_SUFFIX: u8 = 1;
const KEY_WHOLE: u8 = 1 << 1;
const KEY_UNDER_KEY: u8 = 1 << 2;

#[derive(Clone, Copy)]
struct KeyNode {
    next: [u8; 40],
    flags: u8,
}

impl KeyNode {
    const EMPTY: KeyNode = KeyNode {
        next: [0; 40],
        flags: 0,
    };
}

#[derive(Clone, Copy)]
struct Prefixed {
    prefix: Fixed,
    class: u16,
    min: usize,
}

// EdgeTrie holds the proper starts of the markers, ASCII lower-cased,
// reversed: node 0 is the root, and a node's start tells that the bytes read
// to reach it, backwards, are one of the starts.
struct EdgeTrie {
    nodes: Vec<EdgeNode>,
}

#[derive(Default)]
struct EdgeNode {
    edges: Vec<(u8, usize)>,
    start: bool,
}

impl EdgeTrie {
    fn new(markers: &[&str]) -> EdgeTrie {
        let mut t = EdgeTrie {
            nodes: vec![EdgeNode::default()],
        };
        for m in markers {
            let m = m.as_bytes().to_ascii_lowercase();
            for j in 1..m.len() {
                let mut n = 0;
                for &c in m[..j].iter().rev() {
                    let mut next = t.child(n, c);
                    if next == 0 {
                        next = t.nodes.len();
                        t.nodes.push(EdgeNode::default());
                        t.nodes[n].edges.push((c, next));
                    }
                    n = next;
                }
                t.nodes[n].start = true;
            }
        }
        t
    }

    // child returns the node after n by c, 0 for none.
    fn child(&self, n: usize, c: u8) -> usize {
        self.nodes[n]
            .edges
            .iter()
            .find(|e| e.0 == c)
            .map_or(0, |e| e.1)
    }
}

// Tables are the policy's lookup tables, built once per sanitizer.
struct Tables {
    paths: bool,
    // The proper starts of the markers (edge_markers) and the contract's
    // secret shapes (edge_secret).
    edge_trie: EdgeTrie,
    // edge_mask holds the classes edge_runs reads (bit 15: base64url
    // characters and dots).
    edge_mask: u16,
    contract_secrets: &'static [SecretShape],
    marker: &'static [u8],
    // marker_len is the truncation marker's length in code points.
    marker_len: usize,
    // bytes holds each byte's BYTE_* bits; markers_by_end the markers by
    // their last byte, either case; marker_pairs the last two bytes of the
    // markers, in either ASCII case.
    bytes: [u8; 256],
    markers_by_end: Vec<Vec<Marker>>,
    marker_pairs: Box<Pairs>,
    // The prefixed shapes and word prefixes by their first byte, and the
    // fixed starts of every shape but those at ':' and '=' and the names.
    prefixed: Vec<Vec<Prefixed>>,
    words: Vec<Vec<Fixed>>,
    heads: Buckets<Head>,
    // The pair sets of the quick pass, which looks for every change, and of
    // step 3, which looks for secrets (see look_pairs), and those of the
    // bytes before a position (look_after_pairs).
    look: Box<Pairs>,
    look2: Box<Pairs>,
    look_secret: Box<Pairs>,
    look_secret2: Box<Pairs>,
    look_after: Box<Pairs>,
    look_after_secret: Box<Pairs>,
    look2_multi: Box<Pairs>,
    // look_back holds the third and fourth bytes of the credential names of
    // four bytes or more that start with a letter or digit: at an even pair
    // of these, the scans look from two bytes back, where such a name may
    // start.
    look_back: Box<Pairs>,
    // key_ends holds the last two bytes of the sensitive and query-only
    // keys, in either ASCII case.
    key_ends: Box<Pairs>,
    quiet_leads: [u64; 256],
    quiet_thirds: Box<[u64; 1024]>,
    pair_info: Box<[u8; 1 << 16]>,
    even_pairs: Box<[u8; 1 << 16]>,
    // The credential names by a hash of their first two bytes, the first
    // two bytes of the names (name_pairs) and of the key file extensions
    // too (name_starts), the extensions as words, the home prefixes.
    names: Buckets<Name>,
    name_pairs: Box<Pairs>,
    name_starts: Box<Pairs>,
    extensions: Vec<u32>,
    homes: Vec<Fixed>,
    drives: [Fixed; 3],
    pem: Fixed,
    // The sensitive keys reversed (key_sym numbers the key bytes from 1),
    // and the harmless words by their length.
    key_sym: [u8; 256],
    key_trie: Vec<KeyNode>,
    harmless: Vec<Vec<&'static [u8]>>,
}

fn separator(c: u8) -> bool {
    c == b'/' || c == b'\\'
}

fn space(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\n' || c == b'\r'
}

// fourth returns the bytes a name's fourth byte matches: a '/' stands for
// either separator.
fn fourth(n: &[u8]) -> Vec<u8> {
    if n[3] == b'/' {
        vec![b'/', b'\\']
    } else {
        vec![n[3]]
    }
}

// removed_ranges are the code points from U+0080 that step 1 deletes, as
// removed_rune tells them.
const REMOVED_RANGES: [(u32, u32); 11] = [
    (0x80, 0x9F),
    (0xAD, 0xAD),
    (0x061C, 0x061C),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0xE0000, 0xE007F),
];

// quiet_leads holds, for each lead byte (0xC0 and up), the second bytes (by
// their low six bits) after which every character is well-formed and one
// that step 1 keeps, whatever continuation bytes complete it; all of them
// (every bit) for the lead bytes of most scripts, and for the bytes that
// lead no character (ASCII and continuation bytes).
fn quiet_leads() -> [u64; 256] {
    let mut t = [0u64; 256];
    for (c, bits) in t.iter_mut().enumerate() {
        let n = match c {
            0..=0xBF => {
                *bits = !0;
                continue;
            }
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => continue,
        };
        for d in 0x80..0xC0u8 {
            // The character's first code point (its last bytes 0x80), and
            // then every code point these two bytes may start.
            let seq = [c as u8, d, 0x80, 0x80];
            let (r, size, ok) = decode(&seq[..n]);
            if !ok || size != n {
                continue;
            }
            let last = r + (1 << (6 * (n - 2))) - 1;
            if REMOVED_RANGES
                .iter()
                .all(|&(lo, hi)| !(lo <= last && r <= hi))
            {
                *bits |= 1 << (d & 63);
            }
        }
    }
    t
}

impl Tables {
    fn new(policy: &'static SanitizePolicy) -> Tables {
        let names: &'static [&'static str] = if policy.paths {
            policy.credential_names
        } else {
            &[]
        };
        let mut bytes = [0u8; 256];
        for (c, b) in bytes.iter_mut().enumerate() {
            if c < 0x20 && c != 0x09 && c != 0x0A && c != 0x0D || c == 0x7F {
                *b |= BYTE_REMOVED;
            } else if c >= 0x80 {
                *b |= BYTE_MULTI;
            }
        }
        bytes[usize::from(b':')] |= BYTE_ASSIGN;
        bytes[usize::from(b'=')] |= BYTE_ASSIGN;
        let mut markers_by_end: Vec<Vec<Marker>> = vec![Vec::new(); 256];
        let mut marker_pairs = Pairs::new();
        for m in policy.markers {
            let m: Box<[u8]> = m.as_bytes().to_ascii_lowercase().into();
            let (x, y) = (m[m.len() - 2], m[m.len() - 1]);
            for a in [x, x.to_ascii_uppercase()] {
                for b in [y, y.to_ascii_uppercase()] {
                    marker_pairs.set(a, b);
                }
            }
            for c in [y, y.to_ascii_uppercase()] {
                bytes[usize::from(c)] |= BYTE_MARKER_END;
                let list = &mut markers_by_end[usize::from(c)];
                if !list.iter().any(|x| x.m == m) {
                    list.push(Marker::of(m.clone()));
                }
            }
        }

        // second holds, per first byte, the bytes that can follow it in a
        // shape, so most letters are passed over without trying one.
        let mut second = [[0u64; 4]; 256];
        let mut follow = |first: u8, next: u8| {
            second[usize::from(first)][usize::from(next >> 6)] |= 1 << (next & 63)
        };
        let mut prefixed: Vec<Vec<Prefixed>> = vec![Vec::new(); 256];
        let mut words: Vec<Vec<Fixed>> = vec![Vec::new(); 256];
        let mut heads: Vec<(u16, Head)> = Vec::new();
        let mut head = |c: u8, f: Fixed, kinds: u8, follow: &mut dyn FnMut(u8, u8)| {
            let d = (f.word >> 8) as u8;
            // Bearer's second byte in either case.
            for d in [d, d & !((f.fold >> 8) as u8)] {
                follow(c, d);
                heads.push((u16::from(c) | u16::from(d) << 8, Head { fixed: f, kinds }));
            }
        };
        for sec in BUILTIN_SECRETS.iter().chain(policy.contract_secrets) {
            for p in sec.prefixes {
                let p: &'static [u8] = p.as_bytes();
                let f = Fixed::of(p);
                prefixed[usize::from(p[0])].push(Prefixed {
                    prefix: f,
                    class: sec.class,
                    min: sec.min,
                });
                head(p[0], f, START_PREFIXED, &mut follow);
            }
        }
        for w in WORD_PREFIXES {
            let w: &'static [u8] = w.as_bytes();
            words[usize::from(w[0])].push(Fixed::of(w));
            head(w[0], Fixed::of(w), START_WORD, &mut follow);
        }
        let pem = Fixed::of(b"-----BEGIN ");
        let mut bearer = Fixed::of(b"bearer");
        bearer.fold = 0x2020_2020_2020;
        head(b'-', pem, START_PEM, &mut follow);
        head(b'e', Fixed::of(b"eyJ"), START_JWT, &mut follow);
        head(b'b', bearer, START_BEARER, &mut follow);
        head(b'B', bearer, START_BEARER, &mut follow);
        follow(b':', b'/');
        if policy.paths {
            follow(b':', b'\\');
            for h in HOME_PREFIXES {
                let h: &'static [u8] = h.as_bytes();
                head(h[0], Fixed::of(h), START_HOME, &mut follow);
            }
            // The credential names and key file extensions are found by
            // their first two bytes (name_starts), then compared by
            // credential_at.
            for n in names.iter().chain(KEY_EXTENSIONS) {
                let n = n.as_bytes();
                follow(n[0], n[1]);
            }
        }
        // Merge the heads that are the same string, their kinds together.
        let mut merged: Vec<(u16, Head)> = Vec::new();
        for (pair, h) in heads {
            match merged
                .iter_mut()
                .find(|(p, x)| *p == pair && x.fixed == h.fixed)
            {
                Some((_, x)) => x.kinds |= h.kinds,
                None => merged.push((pair, h)),
            }
        }
        let heads = Buckets::new(merged);

        let mut name_list = Vec::new();
        let mut name_pairs = Pairs::new();
        for n in names {
            let n: &'static [u8] = n.as_bytes();
            let (head, rest) = match n.iter().position(|&c| c == b'/') {
                Some(i) => (&n[..i], &n[i..]),
                None => (n, &n[n.len()..]),
            };
            name_list.push((
                u16::from(n[0]) | u16::from(n[1]) << 8,
                Name {
                    head: Fixed::of(head),
                    rest,
                },
            ));
            name_pairs.set(n[0], n[1]);
        }
        let mut name_starts = name_pairs.clone();
        for x in KEY_EXTENSIONS {
            let x = x.as_bytes();
            name_starts.set(x[0], x[1]);
        }
        let extensions = KEY_EXTENSIONS
            .iter()
            .map(|x| Fixed::of(x.as_bytes()).word as u32)
            .collect();
        let homes = HOME_PREFIXES
            .iter()
            .map(|h| Fixed::of(h.as_bytes()))
            .collect();
        let drives = [
            b":\\users\\" as &'static [u8],
            b":\\\\users\\\\",
            b":/users/",
        ]
        .map(|d| {
            let mut f = Fixed::of(d);
            let k = d.windows(5).position(|w| w == b"users").expect("users");
            f.fold = 0x20_2020_2020 << (8 * k);
            f
        });

        let mut look_back = Pairs::new();
        for n in names {
            let n = n.as_bytes();
            if n.len() >= 4 && class(n[0]) & CLASS_ALNUM != 0 {
                for d in fourth(n) {
                    look_back.set(n[2], d);
                }
            }
        }

        let mut key_ends = Pairs::new();
        for n in ["_key", "-key", "code", "sig"]
            .iter()
            .chain(KEY_EXACT)
            .chain(KEY_SUFFIXES)
        {
            let n = n.as_bytes();
            let (p, l) = (n[n.len() - 2], n[n.len() - 1]);
            for a in [p, p.to_ascii_uppercase()] {
                for b in [l, l.to_ascii_uppercase()] {
                    key_ends.set(a, b);
                }
            }
        }
        let mut key_sym = [0u8; 256];
        let key_bytes = b"abcdefghijklmnopqrstuvwxyz0123456789_.-";
        for (i, &c) in key_bytes.iter().enumerate() {
            key_sym[usize::from(c)] = (i + 1) as u8;
            key_sym[usize::from(c.to_ascii_uppercase())] = (i + 1) as u8;
        }
        let mut key_trie = vec![KeyNode::EMPTY];
        let mut add = |name: &str, flag: u8| {
            let mut n = 0;
            for &c in name.as_bytes().iter().rev() {
                let c = usize::from(key_sym[usize::from(c)]);
                if key_trie[n].next[c] == 0 {
                    assert!(key_trie.len() < 256, "the key trie has too many nodes");
                    key_trie[n].next[c] = key_trie.len() as u8;
                    key_trie.push(KeyNode::EMPTY);
                }
                n = usize::from(key_trie[n].next[c]);
            }
            key_trie[n].flags |= flag;
        };
        for k in KEY_SUFFIXES {
            add(k, KEY_SUFFIX);
        }
        for k in KEY_EXACT {
            add(k, KEY_WHOLE);
        }
        add("_key", KEY_UNDER_KEY);
        add("-key", KEY_UNDER_KEY);
        let mut harmless: Vec<Vec<&'static [u8]>> = vec![Vec::new(); 16];
        for h in KEY_HARMLESS {
            let w = &h.as_bytes()[..h.len() - 4];
            harmless[w.len()].push(w);
        }

        let quiet_leads = quiet_leads();
        let mut quiet_thirds = Box::new([0u64; 1024]);
        for c in 0xE0..0xF0usize {
            for d in 0x80..0xC0u8 {
                if quiet_leads[c] & (1 << (d & 63)) != 0 {
                    continue; // read only where the first two bytes do not tell
                }
                for e in 0x80..0xC0u8 {
                    let (r, size, ok) = decode(&[c as u8, d, e]);
                    if ok && size == 3 && !removed_rune(r) {
                        quiet_thirds[(c & 0x0F) << 6 | usize::from(d & 0x3F)] |= 1 << (e & 63);
                    }
                }
            }
        }

        let build = LookBuild {
            bytes: &bytes,
            second: &second,
            policy,
            names,
        };
        let (look, look2) = build.pairs(!0);
        let (look_secret, look_secret2) = build.pairs(BYTE_ASSIGN);
        let mut look_after = Pairs::new();
        let mut look_after_secret = Pairs::new();
        for c in 0..=255u8 {
            for sep in [b':', b'='] {
                if class(c) & CLASS_GAP != 0 {
                    look_after.set(c, sep);
                }
                if class(c) & (CLASS_GAP | CLASS_KEY) != 0 {
                    look_after_secret.set(c, sep);
                }
            }
        }
        for (a, b) in look_after.0.iter_mut().zip(marker_pairs.0.iter()) {
            *a |= b;
        }
        let mut look2_multi = Pairs::new();
        for c in 0..=255u8 {
            for d in 0..=255u8 {
                if d >= 0xC0 && quiet_leads[usize::from(d)] != !0
                    || c >= 0xC0
                        && d & 0xC0 == 0x80
                        && quiet_leads[usize::from(c)] & (1 << (d & 63)) == 0
                {
                    look2_multi.set(c, d);
                }
            }
        }
        let mut pair_info = Box::new([0u8; 1 << 16]);
        let mut even_pairs = Box::new([0u8; 1 << 16]);
        for v in 0..(1usize << 16) {
            let (first, second) = (v & 0xFF, v >> 8);
            let mut bits = 0;
            if look.bit(v) {
                bits |= PAIR_STARTS;
            }
            if look_after.bit(v) {
                bits |= PAIR_ENDS;
            }
            if key_ends.bit(v) {
                bits |= PAIR_KEY;
            }
            if bytes[second] & BYTE_ASSIGN != 0 {
                bits |= PAIR_SEP;
                if class(first as u8) & CLASS_GAP != 0 {
                    bits |= PAIR_GAP_SEP;
                }
            }
            if look_secret.bit(v) {
                bits |= PAIR_SECRET_STARTS;
            }
            pair_info[v] = bits;
            let mut even = 0;
            if look2.bit(v) || look2_multi.bit(v) {
                even |= EVEN_QUIET;
            }
            if look_secret2.bit(v) {
                even |= EVEN_SECRET;
            }
            even_pairs[v] = even;
        }
        Tables {
            paths: policy.paths,
            edge_trie: EdgeTrie::new(policy.markers),
            edge_mask: BUILTIN_SECRETS
                .iter()
                .chain(policy.contract_secrets)
                .fold(1 << 15 | CLASS_TOKEN | CLASS_USERINFO, |m, sec| {
                    m | sec.class
                }),
            contract_secrets: policy.contract_secrets,
            marker: policy.truncation_marker.as_bytes(),
            marker_len: policy.truncation_marker.chars().count(),
            bytes,
            markers_by_end,
            marker_pairs,
            prefixed,
            words,
            heads,
            look,
            look2,
            look_secret,
            look_secret2,
            look_after,
            look_after_secret,
            look2_multi,
            look_back,
            key_ends,
            quiet_leads,
            quiet_thirds,
            pair_info,
            even_pairs,
            names: Buckets::new(name_list),
            name_pairs,
            name_starts,
            extensions,
            homes,
            drives,
            pem,
            key_sym,
            key_trie,
            harmless,
        }
    }
}

// LookBuild holds what the pair sets are built from.
struct LookBuild<'b> {
    bytes: &'b [u8; 256],
    second: &'b [[u64; 4]; 256],
    policy: &'static SanitizePolicy,
    names: &'static [&'static str],
}

impl LookBuild<'_> {
    // pairs builds the pair sets of the scans that look for what may start
    // at a position: one a byte with one of the bits in bytes, one a secret
    // shape. look holds each pair that starts something. look2 serves a
    // scan that reads only the pairs at even positions: every shape that
    // starts with a byte pair starts with at least three fixed bytes, or
    // two and a class character, so whatever its position an even pair lies
    // inside its start; look2 holds the first two bytes and the second two.
    // A byte with one of the bits marks every pair it is in, first or
    // second. An assignment and a marker are looked for by the byte before
    // their last byte (look_after), a URL or a Windows home by the byte
    // after its ':'. The path shapes are tried where their fixed bytes are
    // (shape 9's span may start before its name): a home prefix and a key
    // file extension are found like the others; a credential name that
    // starts with punctuation by its first two bytes and by the byte before
    // it with its first (the name starts a segment, so that byte is a
    // separator or no path character); one that starts with a letter or
    // digit by its second and third bytes and its third and fourth, looked
    // at from two bytes back (look_back). A Windows home starts at ':',
    // which is always looked at. A byte of a multi-byte character marks no
    // pair of look2: the quick pass checks the UTF-8 structure itself, and
    // what the structure does not show with look2_multi.
    fn pairs(&self, bits: u8) -> (Box<Pairs>, Box<Pairs>) {
        let mut look = Pairs::new();
        let mut look2 = Pairs::new();
        let pair_bits = bits & !BYTE_MULTI;
        let look_bits = bits & !(BYTE_ASSIGN | BYTE_MARKER_END);
        for c in 0..=255u8 {
            for d in 0..=255u8 {
                if self.bytes[usize::from(c)] & look_bits != 0
                    || self.second[usize::from(c)][usize::from(d >> 6)] & (1 << (d & 63)) != 0
                {
                    look.set(c, d);
                }
                if self.bytes[usize::from(c)] & pair_bits != 0
                    || self.bytes[usize::from(d)] & pair_bits != 0
                {
                    look2.set(c, d);
                }
            }
        }
        for sec in BUILTIN_SECRETS.iter().chain(self.policy.contract_secrets) {
            for p in sec.prefixes {
                look2.starts(p.as_bytes(), sec.class);
            }
        }
        for w in WORD_PREFIXES {
            look2.starts(w.as_bytes(), 0);
        }
        look2.starts(b"-----BEGIN ", 0);
        look2.starts(b"eyJ", 0);
        for b in [b'b', b'B'] {
            for e in [b'e', b'E'] {
                for a in [b'a', b'A'] {
                    look2.starts(&[b, e, a], 0);
                }
            }
        }
        if self.policy.paths {
            // A Windows home starts at ':', which every scan looks at anyway.
            for n in HOME_PREFIXES.iter().chain(KEY_EXTENSIONS) {
                look2.starts(n.as_bytes(), 0);
            }
            for n in self.names {
                let n = n.as_bytes();
                if class(n[0]) & CLASS_ALNUM != 0 {
                    if n.len() < 4 {
                        look2.starts(n, 0);
                        continue;
                    }
                    // A name starting with a letter or digit (id_rsa): its
                    // second and third bytes, and its third and fourth ones,
                    // which the scans look at two bytes back from
                    // (look_back): "id" is common in text, "d_" and "_r" are
                    // not.
                    look2.set(n[1], n[2]);
                    for d in fourth(n) {
                        look2.set(n[2], d);
                    }
                    continue;
                }
                // A name starting with punctuation (.ssh, _netrc) starts a
                // segment, so the byte before it is a separator or no path
                // character: that pair is far rarer in text than the name's
                // second and third bytes ("ss" in "class", "ne" in "one").
                // The redact scan tries the position after a redaction
                // itself, where the byte before is "]" in the output but not
                // in s.
                look2.set(n[0], n[1]);
                for c in 0..=255u8 {
                    if separator(c) || class(c) & CLASS_PATH == 0 {
                        look2.set(c, n[0]);
                    }
                }
            }
        }
        (look, look2)
    }
}

// run counts the bytes of the class from s[i].
fn run(s: &[u8], i: usize, class_bits: u16) -> usize {
    s[i.min(s.len())..]
        .iter()
        .take_while(|&&c| class(c) & class_bits != 0)
        .count()
}

// index returns where needle first occurs in hay; needle is short.
fn index(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

// eq_fold reports whether s is the lower-case x, ignoring ASCII case.
fn eq_fold(s: &[u8], x: &[u8]) -> bool {
    s.len() == x.len() && s.iter().zip(x).all(|(c, x)| c.to_ascii_lowercase() == *x)
}

// char_start returns where the character holding s[p] starts, in text that
// is well-formed before p.
fn char_start(s: &[u8], mut p: usize) -> usize {
    while p > 0 && s[p] & 0xC0 == 0x80 {
        p -= 1;
    }
    p
}

// rune_count counts the code points of well-formed text: its bytes that are
// not continuation bytes, eight at a time.
fn rune_count(s: &[u8]) -> usize {
    let mut n = s.len();
    let mut chunks = s.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("eight bytes"));
        let hi = w & HIGH;
        if hi != 0 {
            n -= (hi & !(w << 1)).count_ones() as usize;
        }
    }
    n - chunks
        .remainder()
        .iter()
        .filter(|&&c| c & 0xC0 == 0x80)
        .count()
}

// rune_offset returns where the code point after the first n of well-formed
// text starts (s.len() when it has no more): its n-th byte that is no
// continuation byte, counted eight bytes at a time.
fn rune_offset(s: &[u8], mut n: usize) -> usize {
    let mut i = 0;
    while i + 8 <= s.len() {
        let w = word8(s, i);
        let starts = 8 - (w & HIGH & !(w << 1)).count_ones() as usize;
        if starts > n {
            break;
        }
        n -= starts;
        i += 8;
    }
    while i < s.len() {
        if s[i] & 0xC0 != 0x80 {
            if n == 0 {
                return i;
            }
            n -= 1;
        }
        i += 1;
    }
    s.len()
}

// lone_byte reports whether s[i] is the whole of an ill-formed sequence's
// maximal subpart: a byte that leads no character, or a lead byte that no
// continuation byte follows.
#[inline]
fn lone_byte(s: &[u8], i: usize) -> bool {
    let c = s[i];
    c >= 0x80 && (!(0xC2..=0xF4).contains(&c) || i + 1 == s.len() || s[i + 1] & 0xC0 != 0x80)
}

// GUARD is the number of zero bytes step 1's output buffer starts with,
// before the output: the last eight bytes of the buffer are always there to
// compare with the markers (no marker holds a NUL).
const GUARD: usize = 8;

impl Tables {
    // kept_size returns the size of the multi-byte character at s[p] when
    // its first two bytes tell that it is well-formed and kept by step 1
    // (quiet_leads), or its first three for one of three (quiet_thirds),
    // and its continuation bytes are all there, without decoding it; else 0.
    fn kept_size(&self, s: &[u8], p: usize) -> usize {
        let c = s[p];
        if c < 0xC0 || p + 1 >= s.len() || s[p + 1] & 0xC0 != 0x80 {
            return 0;
        }
        let d = s[p + 1];
        if self.quiet_leads[usize::from(c)] & (1 << (d & 63)) == 0 {
            // A character of three bytes may tell by its third.
            if c & 0xF0 == 0xE0
                && p + 2 < s.len()
                && s[p + 2] & 0xC0 == 0x80
                && self.quiet_thirds[usize::from(c & 0x0F) << 6 | usize::from(d & 0x3F)]
                    & (1 << (s[p + 2] & 63))
                    != 0
            {
                return 3;
            }
            return 0;
        }
        match c {
            0xC0..=0xDF => 2,
            0xE0..=0xEF if p + 2 < s.len() && s[p + 2] & 0xC0 == 0x80 => 3,
            0xF0..=0xFF
                if p + 3 < s.len() && s[p + 2] & 0xC0 == 0x80 && s[p + 3] & 0xC0 == 0x80 =>
            {
                4
            }
            _ => 0,
        }
    }

    // kept_at reports whether the multi-byte character at s[p] (a lead byte)
    // is well-formed and kept as its first two bytes tell, or its first
    // three for one of three; false also when it is cut off by the end.
    fn kept_at(&self, s: &[u8], p: usize) -> bool {
        if p + 1 >= s.len() {
            return false;
        }
        let (c, d) = (s[p], s[p + 1]);
        if self.quiet_leads[usize::from(c)] & (1 << (d & 63)) != 0 {
            return true;
        }
        c & 0xF0 == 0xE0
            && d & 0xC0 == 0x80
            && p + 2 < s.len()
            && self.quiet_thirds[usize::from(c & 0x0F) << 6 | usize::from(d & 0x3F)]
                & (1 << (s[p + 2] & 63))
                != 0
    }

    // pair_mask returns a bit for each position of the eight bytes w of s
    // from i (bit k: position i+k) where a scan looks closer: for the quick
    // pass (SHIFT_QUIET), where at's first test fails: the pair there may
    // start a change, the pair ending there may end one, or a ':' or '='
    // follows two bytes that may end a key; for step 3 (SHIFT_SECRET), where
    // may holds, as far as s tells (what was redacted before flushed + 2 is
    // not in s). i >= 2. It reads the ten pairs from the one at i-2 to the
    // one at i+7 in pair_info, and works on their bits for all eight
    // positions at once: byte k of x holds the bits of the pair at position
    // k, of y of the pair ending at k, of z of the pair ending at k-1.
    #[inline]
    fn pair_mask(&self, s: &[u8], i: usize, w: u64, shift: u32) -> u32 {
        let after = if i + 8 < s.len() {
            u64::from(s[i + 8])
        } else {
            0
        };
        let t = &self.pair_info;
        let (b1, b2) = (u64::from(s[i - 1]), u64::from(s[i - 2]));
        let e = |v: u64| u64::from(t[usize::from(v as u16)]);
        let x = e(w)
            | e(w >> 8) << 8
            | e(w >> 16) << 16
            | e(w >> 24) << 24
            | e(w >> 32) << 32
            | e(w >> 40) << 40
            | e(w >> 48) << 48
            | e(w >> 56 | after << 8) << 56;
        let y = x << 8 | e(b1 | w << 8);
        let z = y << 8 | e(b2 | b1 << 8);
        const ONES: u64 = 0x0101_0101_0101_0101;
        let m = x >> shift | y >> (shift + 1) | y >> 3 & z >> 2;
        // Byte k's low bit to bit k.
        ((m & ONES).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    }

    // quiet is the quick pass over text no longer than the window in bytes:
    // it reports quiet when steps 1 to 3 would keep s as it is. Otherwise
    // s[..pristine] is text that steps 1 and 2 keep as it is, so step 1 can
    // start after it.
    //
    // It reads eight bytes at a time: their four pairs at even positions
    // against even_pairs, which holds the pairs that could start a change,
    // and, when a byte is not ASCII, their UTF-8 structure, all bytes at
    // once: each continuation byte must be one that a lead byte before it
    // owes, and each byte a lead byte owes must be a continuation byte. What
    // the structure does not show (an overlong or surrogate encoding, a code
    // point past U+10FFFF, a character step 1 deletes) is told by a
    // character's first two bytes (quiet_leads), checked where a pair of
    // look2_multi holds a lead byte, so valid text in any script goes by
    // eight bytes at a time. Around a pair that could start a change, and at
    // a lead byte that does not show its character kept, the characters are
    // looked at one by one; where the structure breaks, all of the block's.
    fn quiet(&self, q: &mut QuietPass<'_, '_>) -> (usize, bool) {
        let s = q.r.s;
        // owed marks, in the bytes of the block at i (0x80 each), the
        // continuation bytes a character that starts before i owes.
        let mut owed = 0u64;
        let mut i = 0;
        while i + 8 <= s.len() {
            let w = word8(s, i);
            let mut next = 0u64; // what the block's characters owe the next block
            let hi = w & HIGH;
            if hi | owed != 0 {
                let lead = hi & (w << 1); // 11xxxxxx: a lead byte (bit 7 of each byte)
                let three = lead & (w << 2); // 111xxxxx: of three bytes or more
                let four = three & (w << 3); // 1111xxxx: of four
                if hi ^ lead != (lead << 8) | (three << 16) | (four << 24) | owed {
                    // Ill-formed (hi^lead holds the continuation bytes): each
                    // character from the one holding i-2 (a pair flags what may
                    // start up to two bytes before it) to the one holding i+7,
                    // from the one owing bytes to this block.
                    let mut p = char_start(s, i.saturating_sub(2)).max(q.next);
                    while p < i + 8 {
                        if !q.at(p) {
                            return (p, false);
                        }
                        p = q.next;
                    }
                    // Go on with the even pair that holds next.
                    i = q.next & !1;
                    owed = 0;
                    if i < q.next && s[i] >= 0x80 {
                        owed = 0x80;
                    }
                    continue;
                }
                next = (lead >> 56) | (three >> 48) | (four >> 40);
            }
            // Most blocks have no pair to look around: four loads tell.
            let t = &self.even_pairs;
            let e = |v: u64| t[usize::from(v as u16)];
            if (e(w) | e(w >> 16) | e(w >> 32) | e(w >> 48)) & EVEN_QUIET != 0 {
                if let Err(p) = q.block(i, w) {
                    return (p, false);
                }
            }
            i += 8;
            owed = next;
        }
        let mut p = char_start(s, i.saturating_sub(2)).max(q.next);
        while p < s.len() {
            if !q.at(p) {
                return (p, false);
            }
            p = q.next;
        }
        (s.len(), true)
    }

    // marker_ending returns the length of the first marker (in the order of
    // markers_by_end) that out ends with, or 0.
    fn marker_ending(&self, out: &[u8]) -> usize {
        let n = out.len();
        if n < 2 || !self.marker_pairs.at(out[n - 2], out[n - 1]) {
            return 0;
        }
        // The last eight bytes, the last one at the top (zero below the
        // start: no marker holds a NUL).
        let w = if n >= 8 {
            word8(out, n - 8)
        } else {
            let mut w = 0u64;
            for k in 0..n {
                w |= u64::from(out[n - 1 - k]) << (8 * (7 - k));
            }
            w
        };
        for m in &self.markers_by_end[usize::from(out[n - 1])] {
            if (w | m.fold) & m.mask == m.word && (m.m.len() <= 8 || ends_with_fold(out, &m.m)) {
                return m.m.len();
            }
        }
        0
    }

    // marker_at reports whether the text ends with a marker.
    fn marker_at(&self, out: &[u8]) -> bool {
        self.marker_ending(out) > 0
    }

    // drop_marker takes a marker off the end of b, if b ends with one.
    fn drop_marker(&self, b: &mut Vec<u8>) {
        let n = self.marker_ending(b);
        b.truncate(b.len() - n);
    }

    // clean is steps 1 and 2 in one pass: window, replace ill-formed UTF-8,
    // delete removed characters, and feed what is left to the marker rule:
    // characters are appended to the output one by one, and whenever the
    // output ends with a marker, the marker is taken off again. The output
    // thus never holds a marker, however markers were nested
    // (<sys<system>tem> leaves nothing). s[..pristine] holding runes code
    // points needs no change. It reports whether the window cut text off.
    fn clean<'a>(
        &self,
        s: &'a [u8],
        window: usize,
        pristine: usize,
        runes: usize,
    ) -> (Cow<'a, [u8]>, bool) {
        const LOOK: u8 = BYTE_REMOVED | BYTE_MULTI | BYTE_MARKER_END;
        // None while the output is s[..i]; the buffer starts with GUARD
        // zero bytes.
        let mut b: Option<Vec<u8>> = None;
        let finish = |b: Option<Vec<u8>>, i: usize| match b {
            None => Cow::Borrowed(&s[..i]),
            Some(mut b) => {
                b.drain(..GUARD);
                Cow::Owned(b)
            }
        };
        let mut n = runes;
        let mut i = pristine;
        while i < s.len() {
            if n == window {
                return (finish(b, i), true);
            }
            // A run of characters that need no look, up to the window: ASCII
            // without a look bit, eight bytes at a time, and characters whose
            // first two bytes tell that step 1 keeps them and whose last byte
            // ends no marker.
            let c = s[i];
            let bits = self.bytes[usize::from(c)] & LOOK;
            let (mut j, mut k) = (i, n); // k: the code points up to j
            while bits & !BYTE_MULTI == 0 && j < s.len() && k < window {
                if s[j] < 0x80 {
                    let (j0, end) = (j, s.len().min(j + window - k));
                    while j + 8 <= end && word8(s, j) & HIGH == 0 {
                        let t = &self.bytes;
                        let b = &s[j..j + 8];
                        if (t[usize::from(b[0])]
                            | t[usize::from(b[1])]
                            | t[usize::from(b[2])]
                            | t[usize::from(b[3])]
                            | t[usize::from(b[4])]
                            | t[usize::from(b[5])]
                            | t[usize::from(b[6])]
                            | t[usize::from(b[7])])
                            & LOOK
                            != 0
                        {
                            break;
                        }
                        j += 8;
                    }
                    while j < end && self.bytes[usize::from(s[j])] & LOOK == 0 {
                        j += 1;
                    }
                    k += j - j0;
                    if j == j0 || j < s.len() && s[j] < 0x80 {
                        break; // at the window, or at ASCII that needs a look
                    }
                    continue;
                }
                if j + 1 >= s.len() {
                    break;
                }
                // A character of two bytes or more, read as kept_size does
                // (written out: it is the common case of most scripts).
                let (c, d) = (s[j], s[j + 1]);
                if c < 0xC0 || d & 0xC0 != 0x80 {
                    break;
                }
                let size = if self.quiet_leads[usize::from(c)] & (1 << (d & 63)) == 0 {
                    if c & 0xF0 != 0xE0
                        || j + 2 >= s.len()
                        || s[j + 2] & 0xC0 != 0x80
                        || self.quiet_thirds[usize::from(c & 0x0F) << 6 | usize::from(d & 0x3F)]
                            & (1 << (s[j + 2] & 63))
                            == 0
                    {
                        break;
                    }
                    3
                } else {
                    match self.kept_size(s, j) {
                        0 => break,
                        size => size,
                    }
                };
                if self.bytes[usize::from(s[j + size - 1])] & BYTE_MARKER_END != 0 {
                    break;
                }
                j += size;
                k += 1;
            }
            if j > i {
                if let Some(b) = b.as_mut() {
                    if j - i == 1 {
                        b.push(c);
                    } else {
                        b.extend_from_slice(&s[i..j]);
                    }
                }
                n = k;
                i = j;
                continue;
            }
            if lone_byte(s, i) {
                // Bytes that are an ill-formed sequence alone (they lead no
                // character, or no continuation byte follows them): one
                // U+FFFD each, as many as follow one another.
                let out = b.get_or_insert_with(|| start(s, i, window));
                while i < s.len() && n < window && lone_byte(s, i) {
                    out.extend_from_slice("\u{FFFD}".as_bytes());
                    if self.bytes[0xBD] & BYTE_MARKER_END != 0 {
                        self.drop_marker(out);
                    }
                    i += 1;
                    n += 1;
                }
                continue;
            }
            n += 1;
            if bits & BYTE_REMOVED != 0 {
                b.get_or_insert_with(|| start(s, i, window));
                i += 1;
                continue;
            }
            let mut size = 1;
            let mut bits = bits;
            if bits & BYTE_MULTI != 0 {
                size = self.kept_size(s, i);
                if size == 0 {
                    let (r, sz, ok) = decode(&s[i..]);
                    size = sz;
                    if !ok {
                        let out = b.get_or_insert_with(|| start(s, i, window));
                        out.extend_from_slice("\u{FFFD}".as_bytes());
                        i += size;
                        if self.bytes[usize::from(out[out.len() - 1])] & BYTE_MARKER_END != 0 {
                            self.drop_marker(out);
                        }
                        continue;
                    }
                    if removed_rune(r) {
                        b.get_or_insert_with(|| start(s, i, window));
                        i += size;
                        continue;
                    }
                }
                bits = self.bytes[usize::from(s[i + size - 1])];
            }
            if let Some(b) = b.as_mut() {
                if size == 1 {
                    b.push(c);
                } else {
                    b.extend_from_slice(&s[i..i + size]);
                }
            }
            i += size;
            if bits & BYTE_MARKER_END != 0 {
                match b.as_mut() {
                    Some(out) => self.drop_marker(out),
                    None => {
                        if self.marker_at(&s[..i]) {
                            let mut out = start(s, i, window);
                            self.drop_marker(&mut out);
                            b = Some(out);
                        }
                    }
                }
            }
        }
        let cut = false;
        (finish(b, s.len()), cut)
    }

    // redact is step 3: at each position the shapes are tried in the order
    // of match_at; the first that matches is replaced and the scan goes on
    // after it. The scan reads the byte pairs at even positions, eight bytes
    // at a time, and tries the positions around a pair that could start a
    // shape. No shape starts before start (the quick pass tried every
    // position before it, in the same text). It returns None when nothing
    // was redacted.
    //
    // Once the output holds more than max_length code points, step 4 will
    // keep only its start, which no later redaction changes: the scan stops
    // there and reports over, returning the output so far.
    fn redact(
        &self,
        r: &mut Redactor<'_, '_>,
        start: usize,
        max_length: usize,
    ) -> (Option<Vec<u8>>, bool) {
        let s = r.s;
        let (mut runes, mut counted) = (0, 0); // the code points of the output's first counted bytes
        let mut next = start; // the first position not tried yet
        let mut i = start & !1;
        while i + 1 < s.len() {
            if s.len() - i >= 8 {
                let (t, w) = (&self.even_pairs, word8(s, i));
                let e = |v: u64| t[usize::from(v as u16)];
                if (e(w) | e(w >> 16) | e(w >> 32) | e(w >> 48)) & EVEN_SECRET == 0 {
                    i += 8;
                    continue;
                }
            } else {
                let mut any = false;
                let mut j = i;
                while j + 1 < s.len() {
                    any |= self.look_secret2.at(s[j], s[j + 1]);
                    j += 2;
                }
                if !any {
                    i += 8;
                    continue;
                }
            }
            // The positions that may start a secret from the two before the
            // block (a pair flags what starts up to two bytes before it) to
            // its end: at the text's start and end one by one, else the
            // block's from pair_mask.
            let mut matched = false;
            if i < 2 || s.len() - i < 8 {
                let mut p = next.max(i.saturating_sub(2));
                while p < (i + 8).min(s.len()) && !matched {
                    next = p + 1;
                    if r.may(p) {
                        matched = self.try_at(r, p, &mut next);
                    }
                    p = (p + 1).max(next);
                }
            } else {
                let mut p = next.max(i - 2);
                while p < i && !matched {
                    next = p + 1;
                    if r.may(p) {
                        matched = self.try_at(r, p, &mut next);
                    }
                    p = (p + 1).max(next);
                }
                let mut m = self.pair_mask(s, i, word8(s, i), SHIFT_SECRET);
                while m != 0 && !matched {
                    let p = i + m.trailing_zeros() as usize;
                    m &= m - 1;
                    if p < next || p < r.flushed + 2 && !r.may(p) {
                        continue;
                    }
                    next = p + 1;
                    matched = self.try_at(r, p, &mut next);
                }
            }
            if matched {
                // The output's bytes bound its code points from above: they
                // are counted only past max_length.
                if r.b.len() > max_length {
                    runes += rune_count(&r.b[counted..]);
                    counted = r.b.len();
                    if runes > max_length {
                        return (Some(std::mem::take(&mut r.b)), true);
                    }
                }
                // Go on with the even pair that holds next.
                i = next & !1;
                continue;
            }
            next = next.max(i + 8);
            i += 8;
        }
        if !r.dirty {
            return (None, false);
        }
        r.b.extend_from_slice(&s[r.flushed..]);
        (Some(std::mem::take(&mut r.b)), false)
    }

    // try_at tries the shapes at p and goes on after what it redacted; it
    // reports whether it redacted.
    fn try_at(&self, r: &mut Redactor<'_, '_>, p: usize, next: &mut usize) -> bool {
        let Some((from, to)) = r.match_at(p) else {
            return false;
        };
        r.redact(from, to);
        *next = to;
        // At an odd next, the even pair holding it has a byte of the
        // redacted text, which the output no longer has: a credential name
        // starting at next may not be flagged there (see LookBuild::pairs),
        // so next is tried now.
        let s = r.s;
        while *next & 1 != 0 && *next < s.len() && r.may(*next) {
            match r.match_at(*next) {
                None => {
                    *next += 1;
                    break;
                }
                Some((from, to)) => {
                    r.redact(from, to);
                    *next = to;
                }
            }
        }
        true
    }

    // edge_markers is step 2's end when the window cut the text: the text
    // past the window could complete a marker that starts before its edge,
    // and then another, so the longest end of t made of proper starts of
    // markers (ASCII case ignored), one after another, is deleted. It
    // returns the length kept. A secret glued to a marker cut in half
    // (ghp_…<sys) thus reaches the edge. The starts are read backwards from
    // each place the end can be deleted from, down edge_trie.
    fn edge_markers(&self, t: &[u8]) -> usize {
        let mut lo = t.len(); // the earliest position the end can be deleted from
        let mut reach: Vec<bool> = Vec::new();
        let mut b = t.len();
        while b >= lo {
            if b == t.len() || reach[b] {
                let mut n = 0;
                for i in (0..b).rev() {
                    n = self.edge_trie.child(n, t[i].to_ascii_lowercase());
                    if n == 0 {
                        break;
                    }
                    if self.edge_trie.nodes[n].start {
                        if reach.is_empty() {
                            reach = vec![false; t.len() + 1];
                        }
                        reach[i] = true;
                        lo = lo.min(i);
                    }
                }
            }
            if b == 0 {
                break;
            }
            b -= 1;
        }
        lo
    }

    // edge_secret is step 3's end when the window cut the text: a secret
    // that runs to the edge may go on past it, below its shape's minimum
    // length, so the end of o is redacted from the earliest start of one of
    // these that runs to the end (the position returned; o.len() for
    // none): a prefixed shape's prefix, then characters of its class (none
    // or more); eyJ, then base64url characters and dots; the token
    // characters after "bearer" (any ASCII case, not after a letter or
    // digit) and spaces or tabs; the userinfo after "://" when it holds a
    // ':'.
    fn edge_secret(&self, o: &[u8]) -> usize {
        let mut from = o.len();
        let runs = self.edge_runs(o);
        let bit = |class_bits: u16| class_bits.trailing_zeros() as usize & 15;
        for sec in BUILTIN_SECRETS.iter().chain(self.contract_secrets) {
            let r = runs[bit(sec.class)];
            for p in sec.prefixes {
                let p = p.as_bytes();
                let lo = r.saturating_sub(p.len());
                if let Some(i) = index(&o[lo..], p) {
                    from = from.min(lo + i);
                }
            }
        }
        if let Some(i) = index(&o[runs[15]..], b"eyJ") {
            from = from.min(runs[15] + i);
        }
        let r = runs[bit(CLASS_TOKEN)];
        if r < o.len() {
            let mut w = r;
            while w > 0 && (o[w - 1] == b' ' || o[w - 1] == b'\t') {
                w -= 1;
            }
            if w < r
                && w >= 6
                && eq_fold(&o[w - 6..w], b"bearer")
                && (w == 6 || class(o[w - 7]) & CLASS_ALNUM == 0)
            {
                from = from.min(r);
            }
        }
        let r = runs[bit(CLASS_USERINFO)];
        if r < o.len() && r >= 3 && &o[r - 3..r] == b"://" && o[r..].contains(&b':') {
            from = from.min(r);
        }
        from
    }

    // edge_runs returns where the run of each class's characters at the end
    // of o starts, by the class's bit (bit 15: base64url characters and
    // dots), for the classes edge_secret reads, in one backward pass.
    fn edge_runs(&self, o: &[u8]) -> [usize; 16] {
        let mut starts = [0usize; 16];
        let mut mask = self.edge_mask;
        let mut j = o.len();
        while j > 0 && mask != 0 {
            let c = o[j - 1];
            let mut b = class(c);
            if c == b'.' || b & CLASS_BASE64URL != 0 {
                b |= 1 << 15;
            }
            let mut gone = mask & !b;
            while gone != 0 {
                starts[gone.trailing_zeros() as usize] = j;
                gone &= gone - 1;
            }
            mask &= b;
            j -= 1;
        }
        while mask != 0 {
            starts[mask.trailing_zeros() as usize] = j;
            mask &= mask - 1;
        }
        starts
    }

    // truncate is step 4.
    fn truncate<'a>(&self, s: Cow<'a, [u8]>, max_length: usize, cut: bool) -> Cow<'a, [u8]> {
        // The text is UTF-8 here: its code points are its bytes that are not
        // continuation bytes.
        if !cut && (s.len() <= max_length || rune_count(&s) <= max_length) {
            return s;
        }
        let mut i = rune_offset(&s, max_length - self.marker_len);
        // Never inside a [REDACTED]: before it.
        let n = REDACTED.len();
        let lo = (i + 1).saturating_sub(n);
        if let Some(k) = index(&s[lo..(i + n - 1).min(s.len())], REDACTED.as_bytes()) {
            i = lo + k;
        }
        let mut out = Vec::with_capacity(i + self.marker.len());
        out.extend_from_slice(&s[..i]);
        out.extend_from_slice(self.marker);
        Cow::Owned(out)
    }
}

// ends_with_fold reports whether out ends with the lower-cased marker m,
// ignoring ASCII case.
fn ends_with_fold(out: &[u8], m: &[u8]) -> bool {
    out.len() >= m.len()
        && out[out.len() - m.len()..]
            .iter()
            .zip(m)
            .all(|(c, m)| c.to_ascii_lowercase() == *m)
}

// start begins step 1's output buffer holding s[..i] after GUARD zero
// bytes: room for the text, or for a window of mostly ASCII.
fn start(s: &[u8], i: usize, window: usize) -> Vec<u8> {
    let mut b = Vec::with_capacity(s.len().min(2 * window) + 16 + GUARD);
    b.resize(GUARD, 0);
    b.extend_from_slice(&s[..i]);
    b
}

// QuietPass is the quick pass's state.
struct QuietPass<'t, 's> {
    r: Redactor<'t, 's>,
    // next is the first position not looked at yet.
    next: usize,
}

impl QuietPass<'_, '_> {
    // block looks at the characters of the block of eight bytes w at i,
    // whose UTF-8 structure is sound, where a pair of look2 or look2_multi
    // may start a change; it returns the position of the first change it
    // finds.
    fn block(&mut self, i: usize, w: u64) -> Result<(), usize> {
        let t = self.r.t;
        let s = self.r.s;
        if w & HIGH == 0 && i >= 2 {
            // ASCII: every position of the block at once. The two before it,
            // which a pair flags too, are looked at first unless the block
            // before looked at them.
            let mut p = self.next.max(char_start(s, i - 2));
            while p < i {
                if !self.at(p) {
                    return Err(p);
                }
                p = self.next;
            }
            let done = self.next.saturating_sub(i).min(31);
            let mut m = t.pair_mask(s, i, w, SHIFT_QUIET) & !((1u32 << done) - 1);
            while m != 0 {
                let p = i + m.trailing_zeros() as usize;
                m &= m - 1;
                if !self.ascii(p) {
                    return Err(p);
                }
            }
            self.next = self.next.max(i + 8);
            return Ok(());
        }
        let v = |k: u32| (w >> (16 * k)) as u16 as usize;
        // fl: bit k/2 for each pair at an even k around which to look.
        let mut fl = 0u32;
        for k in 0..4 {
            if t.look2.bit(v(k)) {
                fl |= 1 << k;
            }
        }
        if w & HIGH != 0 {
            // A pair holding a lead byte whose second byte may tell that its
            // character changes: the lead bytes are checked (the rest of the
            // structure was).
            for k in 0..4 {
                if fl & (1 << k) != 0 || !t.look2_multi.bit(v(k)) {
                    continue;
                }
                let j = i + 2 * k as usize;
                if s[j] >= 0xC0 && !t.kept_at(s, j) || s[j + 1] >= 0xC0 && !t.kept_at(s, j + 1) {
                    fl |= 1 << k;
                }
            }
        }
        // The characters around each pair that could start a change.
        while fl != 0 {
            let k = 2 * fl.trailing_zeros() as usize;
            fl &= fl - 1;
            let v = (w >> (8 * k)) as u16 as usize;
            let j = i + k;
            let lo = if t.look_back.bit(v) {
                j.saturating_sub(2)
            } else {
                j.saturating_sub(1)
            };
            let mut p = self.next.max(char_start(s, lo));
            while p <= j + 1 {
                if !self.at(p) {
                    return Err(p);
                }
                p = self.next;
            }
        }
        Ok(())
    }

    // at looks at the character at p and reports false when a step would
    // change it or start a change there.
    fn at(&mut self, p: usize) -> bool {
        let t = self.r.t;
        let s = self.r.s;
        let c = s[p];
        if c < 0x80
            && !t.look.has(s, p)
            && (p == 0 || !t.look_after.at(s[p - 1], c))
            && (self.r.t.bytes[usize::from(c)] & BYTE_ASSIGN == 0 || !self.r.key_before(p))
        {
            self.next = p + 1;
            return true;
        }
        let mut bits = t.bytes[usize::from(c)];
        let mut size = 1;
        if bits & BYTE_REMOVED != 0 {
            return false;
        }
        if bits & BYTE_MULTI != 0 {
            let mut n = t.kept_size(s, p);
            if n == 0 {
                let (r, sz, ok) = decode(&s[p..]);
                if !ok || removed_rune(r) {
                    return false;
                }
                n = sz;
            }
            size = n;
            bits = t.bytes[usize::from(s[p + n - 1])];
        }
        if bits & BYTE_MARKER_END != 0 && t.marker_at(&s[..p + size]) {
            return false;
        }
        // Only an assignment starts where the pair at p starts no shape.
        if size == 1
            && p + 1 < s.len()
            && (t.look.has(s, p) || bits & BYTE_ASSIGN != 0 && self.r.key_before(p))
            && self.r.match_at(p).is_some()
        {
            return false;
        }
        self.next = p + size;
        true
    }

    // ascii is at for an ASCII character that fails at's first test.
    fn ascii(&mut self, p: usize) -> bool {
        let t = self.r.t;
        let s = self.r.s;
        let bits = t.bytes[usize::from(s[p])];
        if bits & BYTE_REMOVED != 0 || bits & BYTE_MARKER_END != 0 && t.marker_at(&s[..p + 1]) {
            return false;
        }
        // Only an assignment starts where the pair at p starts no shape.
        if p + 1 < s.len()
            && (t.look.has(s, p) || bits & BYTE_ASSIGN != 0 && self.r.assignment_may(p))
            && self.r.match_at(p).is_some()
        {
            return false;
        }
        self.next = p + 1;
        true
    }
}

// Memo is what the scans of a text remember about it, whatever they
// redacted.
#[derive(Clone, Copy, Default)]
struct Memo {
    // no_jwt: no JWT starts before this position. A JWT attempt that fails
    // after a run of base64url would fail at every eyJ inside that run too
    // (the run ends at the same character), so they are not tried again:
    // this keeps the scan linear without changing what it finds.
    no_jwt: usize,
    // The path scans remember their last answer, which holds for every
    // later start inside the same path: a text of many home directories in
    // one path (/home/./home/./home/.…) is read once, not once per home.
    // path_from..path_run is a run of path characters that ends at
    // path_run; no credential name is at any position from cred_from to
    // cred_end but cred_at (None: none).
    path_from: usize,
    path_run: usize,
    cred_from: usize,
    cred_end: usize,
    cred_at: Option<usize>,
}

// Redactor is step 3's state. The output is b (once anything was redacted)
// or s[..flushed], followed by s[flushed..] up to the scan position.
struct Redactor<'t, 's> {
    t: &'t Tables,
    s: &'s [u8],
    b: Vec<u8>,
    dirty: bool,
    flushed: usize,
    memo: Memo,
}

impl<'t, 's> Redactor<'t, 's> {
    fn new(t: &'t Tables, s: &'s [u8]) -> Self {
        Redactor {
            t,
            s,
            b: Vec::new(),
            dirty: false,
            flushed: 0,
            memo: Memo::default(),
        }
    }

    // back returns the k-th byte (k >= 1) before position p of the output.
    #[inline]
    fn back(&self, p: usize, k: usize) -> Option<u8> {
        let own = p - self.flushed;
        if k <= own {
            return Some(self.s[p - k]);
        }
        let k = k - own;
        if !self.dirty {
            return if k <= self.flushed {
                Some(self.s[self.flushed - k])
            } else {
                None
            };
        }
        // The output before flushed ends with [REDACTED]. No backward scan
        // reads past its ']' (white space, quotes and key characters only),
        // so b itself is never read.
        let r = REDACTED.as_bytes();
        if k <= r.len() {
            Some(r[r.len() - k])
        } else {
            None
        }
    }

    fn redact(&mut self, from: usize, to: usize) {
        if !self.dirty {
            self.b.reserve(self.s.len() + 16);
            self.dirty = true;
        }
        self.b.extend_from_slice(&self.s[self.flushed..from]);
        self.b.extend_from_slice(REDACTED.as_bytes());
        self.flushed = to;
    }

    // may reports whether a shape may start at p: the pair there starts one,
    // or p is an assignment's separator with what a key needs before it
    // (the output's byte before p is s[p-1] after flushed, and "]" at
    // flushed).
    fn may(&self, p: usize) -> bool {
        let s = self.s;
        self.t.look_secret.has(s, p)
            || p > self.flushed && self.t.look_after_secret.at(s[p - 1], s[p]) && self.key_before(p)
    }

    // key_before reports whether the ':' or '=' at p may end a key: the
    // key's last two bytes are one of the pairs of key_ends, or white space,
    // a quote or a backslash stands between the key and p. As in assignment,
    // only s[flushed..p] can hold these bytes.
    fn key_before(&self, p: usize) -> bool {
        let s = self.s;
        if p < self.flushed + 1 {
            return false;
        }
        if class(s[p - 1]) & CLASS_GAP != 0 {
            return true;
        }
        p >= self.flushed + 2 && self.t.key_ends.at(s[p - 2], s[p - 1])
    }

    // match_at tries every shape at p and returns the span to redact. Every
    // fixed string is compared against the eight bytes at p in one step,
    // and each shape's cheapest condition comes first: most tries are near
    // misses.
    fn match_at(&mut self, p: usize) -> Option<(usize, usize)> {
        let t = self.t;
        let s = self.s;
        let c = s[p];
        if c == b':' || c == b'=' {
            return self.match_separator(p);
        }
        let w = word(s, p);
        let mut kinds = 0u8;
        for h in t.heads.of(w as u16) {
            if h.fixed.at(s, p, w) {
                kinds |= h.kinds;
            }
        }
        if t.paths && t.name_starts.bit(usize::from(w as u16)) {
            kinds |= START_NAME;
        }
        if kinds == 0 {
            return None;
        }
        // A private key block, through its END line or to the end of the text.
        if kinds & START_PEM != 0 {
            let j = p + t.pem.n;
            let mut k = j;
            while k < s.len()
                && k - j < 64
                && (s[k].is_ascii_uppercase() || s[k].is_ascii_digit() || s[k] == b' ')
            {
                k += 1;
            }
            if index(&s[j..k], b"PRIVATE KEY").is_some() && s[k..].starts_with(b"-----") {
                let mut end = s.len();
                if let Some(e) = index(&s[k + 5..], b"-----END ") {
                    let e = e + k + 5 + b"-----END ".len();
                    if let Some(f) = index(&s[e..], b"-----") {
                        end = e + f + 5;
                    }
                }
                return Some((p, end));
            }
        }
        // A token starting like a known secret, redacted up to white space.
        if kinds & START_WORD != 0 && self.back(p, 1).map_or(true, space) {
            if let Some(word) = t.words[usize::from(c)].iter().find(|x| x.at(s, p, w)) {
                let e = p + word.n + s[p + word.n..].iter().take_while(|&&c| !space(c)).count();
                return Some((p, e));
            }
        }
        // Prefixed token shapes, anywhere.
        if kinds & START_PREFIXED != 0 {
            for sec in &t.prefixed[usize::from(c)] {
                if sec.prefix.at(s, p, w) {
                    let n = run(s, p + sec.prefix.n, sec.class);
                    if n >= sec.min {
                        return Some((p, p + sec.prefix.n + n));
                    }
                }
            }
        }
        // A JSON Web Token: eyJ… . … (. …).
        if kinds & START_JWT != 0 && p >= self.memo.no_jwt {
            let n1 = run(s, p, CLASS_BASE64URL);
            if n1 >= 10 && p + n1 < s.len() && s[p + n1] == b'.' {
                let mut e = p + n1 + 1;
                let n2 = run(s, e, CLASS_BASE64URL);
                if n2 >= 4 {
                    e += n2;
                    if e < s.len() && s[e] == b'.' {
                        e += 1;
                        e += run(s, e, CLASS_BASE64URL);
                    }
                    return Some((p, e));
                }
            }
            self.memo.no_jwt = p + n1;
        }
        // Bearer <token>: the token.
        if kinds & START_BEARER != 0
            && self
                .back(p, 1)
                .map_or(true, |prev| class(prev) & CLASS_ALNUM == 0)
        {
            let mut e = p + 6;
            while e < s.len() && (s[e] == b' ' || s[e] == b'\t') {
                e += 1;
            }
            // The token's run only after white space: read at every "bearer"
            // of a text like "=Bearer=Bearer…", the run to its end made the
            // scan quadratic.
            if e > p + 6 {
                let n = run(s, e, CLASS_TOKEN);
                if n >= 8 {
                    return Some((e, e + n));
                }
            }
        }
        // A home directory: its user name, or the whole path when it holds a
        // credential name.
        if kinds & START_HOME != 0 {
            if let Some(span) = self.home(p, w) {
                return Some(span);
            }
        }
        // A credential name: the whole path holding it.
        if kinds & START_NAME != 0 && t.credential_at(s, p, w, self.back(p, 1)) {
            let end = self.path_end(p + 1);
            return Some((self.path_start(p), end));
        }
        None
    }

    // match_separator is match_at at a ':' or '=', where only the
    // assignment, the URL and the Windows home directory start, in that
    // order.
    fn match_separator(&mut self, p: usize) -> Option<(usize, usize)> {
        let s = self.s;
        // key = value and key: value for a sensitive key. Tried before the URL
        // rule, which starts at the same ':' but redacts less: were the URL
        // rule first, a second pass could redact the "//" it skipped.
        if self.assignment_may(p) {
            if let Some(span) = self.assignment(p) {
                return Some(span);
            }
        }
        if s[p] != b':' || p + 1 >= s.len() || !separator(s[p + 1]) {
            return None;
        }
        // URL userinfo holding a password: scheme://user:password@host.
        if p + 2 < s.len() && s[p + 1] == b'/' && s[p + 2] == b'/' {
            let j = p + 3;
            let n = run(s, j, CLASS_USERINFO);
            if n > 0 && j + n < s.len() && s[j + n] == b'@' && s[j..j + n].contains(&b':') {
                return Some((j, j + n));
            }
        }
        // A Windows home directory: its user name, or the whole path when it
        // holds a credential name.
        if self.t.paths && self.t.drive_users(&s[p..]) > 0 {
            return self.home(p, word(s, p));
        }
        None
    }

    // assignment_may makes assignment's first tests at the separator at p,
    // the ones that reject most separators: white space and up to two quotes
    // or backslashes before it, then two bytes that may end a key
    // (key_ends), and after it white space, up to two quotes or backslashes,
    // then a value character.
    fn assignment_may(&self, p: usize) -> bool {
        let (s, lo) = (self.s, self.flushed);
        let q = key_end(s, lo, p);
        if q < lo + 2 || !self.t.key_ends.at(s[q - 2], s[q - 1]) {
            return false;
        }
        let v = value_start(s, p + 1);
        v < s.len() && class(s[v]) & CLASS_VALUE != 0
    }

    // home matches a home directory at p: /home/ or /Users/ at '/', or a
    // drive letter's :\Users\, :\\Users\\ or :/Users/ (Users in any ASCII
    // case) at ':'. The path must start at a boundary. The user name is
    // redacted, or the whole path when it holds a credential name. w is
    // word(s, p).
    fn home(&mut self, p: usize, w: u64) -> Option<(usize, usize)> {
        let s = self.s;
        let (start, seg) = if s[p] == b'/' {
            let h = self.t.homes.iter().find(|h| h.at(s, p, w))?;
            (p, p + h.n)
        } else {
            let n = if separator((w >> 8) as u8) {
                self.t.drive_users(&s[p..])
            } else {
                0
            };
            if n == 0
                || !self
                    .back(p, 1)
                    .is_some_and(|c| (c | 0x20).is_ascii_lowercase())
            {
                return None;
            }
            (p - 1, p + n)
        };
        if !self.path_boundary(start) {
            return None;
        }
        let e = seg
            + s[seg..]
                .iter()
                .take_while(|&&c| class(c) & CLASS_PATH != 0 && !separator(c))
                .count();
        if e == seg {
            return None;
        }
        let end = self.path_end(e);
        if self.credential(seg, end) {
            return Some((start, end));
        }
        Some((seg, e))
    }

    // credential reports whether a credential name is at a position from seg
    // to end, in a path whose character seg-1 is a separator.
    fn credential(&mut self, seg: usize, end: usize) -> bool {
        let s = self.s;
        let m = &self.memo;
        if end == m.cred_end && seg >= m.cred_from && m.cred_at.map_or(true, |a| a >= seg) {
            return m.cred_at.is_some();
        }
        self.memo.cred_from = seg;
        self.memo.cred_end = end;
        self.memo.cred_at = None;
        for i in seg..end {
            if i + 1 < s.len()
                && self.t.name_starts.at(s[i], s[i + 1])
                && self.t.credential_at(s, i, word(s, i), Some(s[i - 1]))
            {
                self.memo.cred_at = Some(i);
                return true;
            }
        }
        false
    }

    // path_boundary reports whether a home directory's path may start at p:
    // at the start of the output, after a character that is no path
    // character, or after "://" or ":///" (file:///home/…).
    fn path_boundary(&self, p: usize) -> bool {
        let c = match self.back(p, 1) {
            Some(c) if class(c) & CLASS_PATH != 0 => c,
            _ => return true,
        };
        let d = self.back(p, 2).unwrap_or(0);
        if c != b'/' || d != b'/' {
            return false;
        }
        let e = self.back(p, 3).unwrap_or(0);
        let f = self.back(p, 4).unwrap_or(0);
        e == b':' || e == b'/' && f == b':'
    }

    // path_start returns where the path holding p starts: after the output's
    // last character before p that is no path character (the "]" of an
    // earlier redaction at the latest), at its first ASCII character. The
    // output before flushed ends with the "]" of [REDACTED], or is empty:
    // the path starts at flushed at the earliest.
    fn path_start(&self, p: usize) -> usize {
        let (s, lo) = (self.s, self.flushed);
        let mut q = p;
        while q >= lo + 8 && s[q - 8..q].iter().all(|&c| class(c) & CLASS_PATH != 0) {
            q -= 8;
        }
        while q > lo && class(s[q - 1]) & CLASS_PATH != 0 {
            q -= 1;
        }
        while s[q] >= 0x80 {
            q += 1;
        }
        q
    }

    // path_end returns the end of the path whose character i-1 is no
    // backslash: the end of the path characters from i, less the backslashes
    // that end them (those of an escaped quote, as in {\"path\":\"…\"}).
    fn path_end(&mut self, i: usize) -> usize {
        let s = self.s;
        if i < self.memo.path_from || i > self.memo.path_run {
            self.memo.path_from = i;
            let mut j = i;
            while j + 8 <= s.len() && s[j..j + 8].iter().all(|&c| class(c) & CLASS_PATH != 0) {
                j += 8;
            }
            while j < s.len() && class(s[j]) & CLASS_PATH != 0 {
                j += 1;
            }
            self.memo.path_run = j;
        }
        let mut i = self.memo.path_run;
        while s[i - 1] == b'\\' {
            i -= 1;
        }
        i
    }

    // assignment matches a sensitive key's value around the separator at p:
    // key, up to two quotes or backslashes, spaces, the separator, spaces,
    // up to two quotes or backslashes, then the value.
    fn assignment(&self, p: usize) -> Option<(usize, usize)> {
        let s = self.s;
        let t = self.t;
        // The output before flushed is empty or ends with the "]" of
        // [REDACTED], which is neither a key byte nor white space nor a
        // quote: the key and what stands before it lie in s[flushed..p].
        let lo = self.flushed;
        let mut q = key_end(s, lo, p);
        let gap = p - q;
        // Most keys are told apart by their last two bytes, before the scan.
        if q < lo + 2 || !t.key_ends.at(s[q - 2], s[q - 1]) {
            return None;
        }
        // The value's start, which a value character must be, before the key.
        let v = value_start(s, p + 1);
        if v >= s.len() || class(s[v]) & CLASS_VALUE == 0 {
            return None;
        }
        // The key, s[q..end], compared in lower case.
        let end = q;
        while q > lo && class(s[q - 1]) & CLASS_KEY != 0 {
            q -= 1;
        }
        let key = &s[q..end];
        let query_only = (eq_fold(key, b"code") || eq_fold(key, b"sig"))
            && gap == 0
            && s[p] == b'='
            && q > lo
            && b"?&#;".contains(&s[q - 1]);
        if !t.sensitive_key(key) && !query_only {
            return None;
        }
        let mut e = value_end(s, v);
        if key.len() >= 13
            && eq_fold(&key[key.len() - 13..], b"authorization")
            && run(s, v, CLASS_ALNUM | CLASS_BASE64URL) == e - v
        {
            // A scheme (Bearer, Basic, AWS4-HMAC-SHA256, …) and its
            // credentials.
            let mut w = e;
            while w < s.len() && (s[w] == b' ' || s[w] == b'\t') {
                w += 1;
            }
            if w > e {
                let f = value_end(s, w);
                if f > w {
                    e = f;
                }
            }
        }
        Some((v, e))
    }
}

impl Tables {
    // credential_at reports whether a credential name is at p, given w =
    // word(s, p) and the output's character before it (None at the start):
    // a listed name as a whole segment, or a key file extension ending a
    // segment that has more before it.
    fn credential_at(&self, s: &[u8], p: usize, w: u64, prev: Option<u8>) -> bool {
        match prev {
            Some(c) if class(c) & CLASS_PATH != 0 && !separator(c) => {
                s.len() - p >= 4 && self.extensions.contains(&(w as u32)) && name_ends(s, p + 4)
            }
            _ => {
                if !self.name_pairs.bit(usize::from(w as u16)) {
                    return false;
                }
                self.names.of(w as u16).iter().any(|name| {
                    name.head.at(s, p, w)
                        && (if name.rest.is_empty() {
                            Some(p + name.head.n)
                        } else {
                            name_at(s, p + name.head.n, name.rest)
                        })
                        .is_some_and(|e| name_ends(s, e))
                })
            }
        }
    }

    // sensitive_key reports whether a key (of key bytes, any ASCII case)
    // names a secret: it is one of KEY_EXACT, ends with one of KEY_SUFFIXES,
    // or ends with _key or -key after no harmless word. It reads the key
    // once from its end, through the key trie.
    fn sensitive_key(&self, key: &[u8]) -> bool {
        let mut node = 0;
        let mut key_end = false;
        for i in (0..key.len()).rev() {
            node = usize::from(
                self.key_trie[node].next[usize::from(self.key_sym[usize::from(key[i])])],
            );
            if node == 0 {
                break;
            }
            let f = self.key_trie[node].flags;
            if f & KEY_SUFFIX != 0 || f & KEY_WHOLE != 0 && i == 0 {
                return true;
            }
            if f & KEY_UNDER_KEY != 0 {
                key_end = true;
            }
        }
        if !key_end {
            return false;
        }
        // A harmless name is a word and "_key", whole or after '_' or '.',
        // with '-' read as '_': the word is what lies between "_key" and the
        // '_', '-' or '.' before it (no harmless word holds one).
        let n = key.len();
        let start = key[..n - 4]
            .iter()
            .rposition(|&c| c == b'_' || c == b'-' || c == b'.')
            .map_or(0, |j| j + 1);
        let word = &key[start..n - 4];
        !self
            .harmless
            .get(word.len())
            .is_some_and(|list| list.iter().any(|h| eq_fold(word, h)))
    }

    // drive_users returns the length of :\Users\, :\\Users\\ or :/Users/
    // (Users in any ASCII case) at the start of rest, or 0.
    fn drive_users(&self, rest: &[u8]) -> usize {
        // The byte after the separator is U, u or a second backslash.
        if rest.len() < 8 || rest[2] | 0x20 != b'u' && rest[2] != b'\\' {
            return 0;
        }
        let w = word(rest, 0);
        self.drives
            .iter()
            .find(|d| d.at(rest, 0, w))
            .map_or(0, |d| d.n)
    }
}

// name_at matches a credential name at i, where a '/' in the name stands for
// one or more separators, and returns where it ends.
fn name_at(s: &[u8], mut i: usize, name: &[u8]) -> Option<usize> {
    for &c in name {
        if c == b'/' {
            if i >= s.len() || !separator(s[i]) {
                return None;
            }
            while i < s.len() && separator(s[i]) {
                i += 1;
            }
            continue;
        }
        if i >= s.len() || s[i] != c {
            return None;
        }
        i += 1;
    }
    Some(i)
}

// name_ends reports whether a name that ends at e ends its segment: after
// any full stops comes a separator, the end, or an ASCII character that is
// neither a path character nor '['; or white space, when an ASCII character
// or the end follows it. So neither the truncation marker (a space and a
// non-ASCII character) nor a [REDACTED] after a name that goes on ever
// makes one.
fn name_ends(s: &[u8], mut e: usize) -> bool {
    while e < s.len() && s[e] == b'.' {
        e += 1;
    }
    let Some(&c) = s.get(e) else {
        return true;
    };
    if separator(c) {
        return true;
    }
    if c == b'[' {
        return false;
    }
    if space(c) {
        while e < s.len() && space(s[e]) {
            e += 1;
        }
        return e == s.len() || s[e] < 0x80;
    }
    class(c) & CLASS_PATH == 0
}

// key_end returns where an assignment's key may end before its separator
// at p, reading back no further than lo: past spaces and tabs, then past up
// to two quotes or backslashes (value_start's mirror).
fn key_end(s: &[u8], lo: usize, mut q: usize) -> usize {
    while q > lo && (s[q - 1] == b' ' || s[q - 1] == b'\t') {
        q -= 1;
    }
    let mut n = 0;
    while n < 2 && q > lo && matches!(s[q - 1], b'"' | b'\'' | b'\\') {
        q -= 1;
        n += 1;
    }
    q
}

// value_start returns where an assignment's value may start after its
// separator, v being the byte after it: past spaces and tabs, then past up
// to two quotes or backslashes.
fn value_start(s: &[u8], mut v: usize) -> usize {
    while v < s.len() && (s[v] == b' ' || s[v] == b'\t') {
        v += 1;
    }
    let mut n = 0;
    while n < 2 && v < s.len() && matches!(s[v], b'"' | b'\'' | b'\\') {
        v += 1;
        n += 1;
    }
    v
}

// value_end returns the end of the value starting at v: it must start with
// an ASCII value character and runs up to white space, a quote, a backslash
// or one of & , ; < > ( ) [ ] { }; other non-ASCII characters belong to it.
fn value_end(s: &[u8], v: usize) -> usize {
    if v >= s.len() || class(s[v]) & CLASS_VALUE == 0 {
        return v;
    }
    v + s[v..]
        .iter()
        .take_while(|&&c| c >= 0x80 || class(c) & CLASS_VALUE != 0)
        .count()
}
