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
//!     cut something off, keep max − len(marker) code points and append the
//!     truncation marker.
//!
//! The output is a fixpoint: sanitizing it again changes nothing.
//!
//! Speed: most text needs no change, so a quick pass first reads the byte
//! pairs at even positions against a table of the pairs that could start a
//! change, and returns the input, borrowed, when none does. Otherwise steps
//! 1 and 2 run as one pass from the first place that could change, copying
//! runs of plain ASCII whole, and step 3 skips pairs the same way. None of
//! this changes a result: the steps are defined as written above.

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
        if s.len() <= window {
            let (p, n, quiet) = t.quiet(s);
            if quiet {
                // Steps 1 to 3 keep s; only its length can matter.
                return t.truncate(Cow::Borrowed(s), max_length, false);
            }
            pristine = p;
            runes = n;
        }
        let (cleaned, cut) = t.clean(s, window, pristine, runes);
        let redacted = match cleaned {
            Cow::Borrowed(b) => match t.redact(b) {
                None => Cow::Borrowed(b),
                Some(v) => Cow::Owned(v),
            },
            Cow::Owned(b) => match t.redact(&b) {
                None => Cow::Owned(b),
                Some(v) => Cow::Owned(v),
            },
        };
        t.truncate(redacted, max_length, cut)
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

// utf8_len is the length of the sequence a lead byte of valid UTF-8 starts.
fn utf8_len(c: u8) -> usize {
    match c {
        0..=0x7F => 1,
        0x80..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

// What a byte means to the quick pass and to step 1, one bit each.
const BYTE_REMOVED: u8 = 1; // a C0 control other than tab, LF and CR, or DEL
const BYTE_MULTI: u8 = 1 << 1; // a byte of a multi-byte sequence (>= 0x80)
const BYTE_MARKER_END: u8 = 1 << 2; // the last byte of a marker, either ASCII case
const BYTE_ASSIGN: u8 = 1 << 3; // ':' or '=': an assignment or a URL may start here

// What may start at a byte besides the prefixed shapes and word prefixes.
const START_PEM: u8 = 1; // -----BEGIN
const START_JWT: u8 = 1 << 1; // eyJ
const START_BEARER: u8 = 1 << 2; // bearer, any case
const START_URL: u8 = 1 << 3; // ://
const START_ASSIGN: u8 = 1 << 4; // : or =
const START_HOME: u8 = 1 << 5; // /home/, /Users/, or a drive's :\Users\
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
struct Pairs([u64; 1024]);

impl Pairs {
    fn new() -> Box<Pairs> {
        Box::new(Pairs([0; 1024]))
    }

    fn set(&mut self, c: u8, d: u8) {
        let v = usize::from(c) | usize::from(d) << 8;
        self.0[v >> 6] |= 1 << (v & 63);
    }

    // bit returns 1 when the pair v is set, else 0.
    fn bit(&self, v: usize) -> u64 {
        (self.0[v >> 6] >> (v & 63)) & 1
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
    fn has(&self, s: &[u8], p: usize) -> bool {
        let mut v = usize::from(s[p]);
        if p + 1 < s.len() {
            v |= usize::from(s[p + 1]) << 8;
        }
        self.bit(v) != 0
    }
}

// skip returns the first even position from i where fewer than eight bytes
// are left or one of the next four pairs is in the set: the scans read
// eight bytes at a time, and most text has nothing to look at in them.
#[inline]
fn skip(set: &Pairs, s: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = s.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let hit = set.bit((x & 0xFFFF) as usize)
            | set.bit((x >> 16 & 0xFFFF) as usize)
            | set.bit((x >> 32 & 0xFFFF) as usize)
            | set.bit((x >> 48) as usize);
        if hit != 0 {
            break;
        }
        i += 8;
    }
    i
}

// pair returns the pair at s[i] and s[i+1].
fn pair(s: &[u8], i: usize) -> usize {
    usize::from(s[i]) | usize::from(s[i + 1]) << 8
}

#[derive(Clone, Copy)]
struct Prefixed {
    prefix: &'static [u8],
    class: u16,
    min: usize,
}

// Tables are the policy's lookup tables, built once per sanitizer.
struct Tables {
    marker: &'static [u8],
    // marker_len is the truncation marker's length in code points.
    marker_len: usize,
    // bytes holds each byte's BYTE_* bits; markers_by_end the markers (ASCII
    // letters lower-cased) by their last byte, either case.
    bytes: [u8; 256],
    markers_by_end: [Vec<Box<[u8]>>; 256],
    // What may start at a byte: the prefixed shapes and word prefixes
    // starting with it (in catalogue order, so filtering by the first byte
    // keeps the order of step 3), and flags for the other shapes.
    flags: [u8; 256],
    prefixed: [Vec<Prefixed>; 256],
    words: [Vec<&'static [u8]>; 256],
    // fixed holds the distinct prefixes of prefixed and words, and the
    // first three bytes of the credential names and key file extensions,
    // by their first byte: where the byte has no flag but START_NAME and
    // none of them starts, no shape does, which match_at checks first (most
    // tries are near misses).
    fixed: [Vec<&'static [u8]>; 256],
    // The pair sets of the quick pass, which looks for every change, and of
    // step 3, which looks for secrets (see look_pairs).
    look: Box<Pairs>,
    look2: Box<Pairs>,
    look_secret: Box<Pairs>,
    look_secret2: Box<Pairs>,
    // look_back holds the third and fourth bytes of the credential names of
    // four bytes or more that start with a letter or digit: at an even pair
    // of these, the scans look from two bytes back, where such a name may
    // start.
    look_back: Box<Pairs>,
    // names_by_first holds the credential names by their first byte;
    // name_heads the distinct first three bytes of the names and key file
    // extensions, which most candidates fail.
    names_by_first: [Vec<&'static [u8]>; 256],
    name_heads: [Vec<&'static [u8]>; 256],
    // key_suffixes_by_end holds KEY_SUFFIXES by their last byte; key_ends,
    // for each last byte of a sensitive or query-only key, the bytes that
    // can precede it: most keys are rejected by their last two bytes
    // without comparing any name.
    key_suffixes_by_end: [Vec<&'static [u8]>; 256],
    key_ends: [Vec<u8>; 256],
}

fn lists<T>() -> [Vec<T>; 256] {
    std::array::from_fn(|_| Vec::new())
}

fn push_new<T: PartialEq>(v: &mut Vec<T>, x: T) {
    if !v.contains(&x) {
        v.push(x);
    }
}

fn separator(c: u8) -> bool {
    c == b'/' || c == b'\\'
}

fn space(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\n' || c == b'\r'
}

// fourth returns the bytes a name's fourth byte matches: a '/' stands for
// either separator.
fn fourth(n: &[u8]) -> &'static [u8] {
    if n[3] == b'/' {
        b"/\\"
    } else {
        std::slice::from_ref(&BYTE_VALUES[usize::from(n[3])])
    }
}

// BYTE_VALUES holds every byte value, so that fourth can return a static
// slice of one.
static BYTE_VALUES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

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
        let mut markers_by_end: [Vec<Box<[u8]>>; 256] = lists();
        for m in policy.markers {
            let m: Box<[u8]> = m.as_bytes().to_ascii_lowercase().into();
            let last = m[m.len() - 1];
            for c in [last, last.to_ascii_uppercase()] {
                bytes[usize::from(c)] |= BYTE_MARKER_END;
                push_new(&mut markers_by_end[usize::from(c)], m.clone());
            }
        }

        let mut flags = [0u8; 256];
        let mut prefixed: [Vec<Prefixed>; 256] = lists();
        let mut words: [Vec<&'static [u8]>; 256] = lists();
        let mut fixed: [Vec<&'static [u8]>; 256] = lists();
        // second holds, per first byte, the bytes that can follow it in a
        // shape, so most letters are passed over without trying one.
        let mut second = [[0u64; 4]; 256];
        let mut follow = |first: u8, next: u8| {
            second[usize::from(first)][usize::from(next >> 6)] |= 1 << (next & 63)
        };
        for sec in BUILTIN_SECRETS.iter().chain(policy.contract_secrets) {
            for p in sec.prefixes {
                let p = p.as_bytes();
                prefixed[usize::from(p[0])].push(Prefixed {
                    prefix: p,
                    class: sec.class,
                    min: sec.min,
                });
                follow(p[0], p[1]);
            }
        }
        for w in WORD_PREFIXES {
            let w = w.as_bytes();
            words[usize::from(w[0])].push(w);
            follow(w[0], w[1]);
        }
        for c in 0..256 {
            for sp in &prefixed[c] {
                push_new(&mut fixed[c], sp.prefix);
            }
            for w in &words[c] {
                push_new(&mut fixed[c], w);
            }
        }
        flags[usize::from(b'-')] |= START_PEM;
        flags[usize::from(b'e')] |= START_JWT;
        flags[usize::from(b'b')] |= START_BEARER;
        flags[usize::from(b'B')] |= START_BEARER;
        flags[usize::from(b':')] |= START_URL | START_ASSIGN;
        flags[usize::from(b'=')] |= START_ASSIGN;
        for f in ["--", "ey", "be", "bE", "Be", "BE", ":/"] {
            let f = f.as_bytes();
            follow(f[0], f[1]);
        }
        if policy.paths {
            flags[usize::from(b':')] |= START_HOME;
            for h in HOME_PREFIXES {
                let h = h.as_bytes();
                flags[usize::from(h[0])] |= START_HOME;
                follow(h[0], h[1]);
            }
            for n in names.iter().chain(KEY_EXTENSIONS) {
                let n: &'static [u8] = n.as_bytes();
                flags[usize::from(n[0])] |= START_NAME;
                follow(n[0], n[1]);
                push_new(&mut fixed[usize::from(n[0])], &n[..3]);
            }
        }

        let mut names_by_first: [Vec<&'static [u8]>; 256] = lists();
        let mut name_heads: [Vec<&'static [u8]>; 256] = lists();
        for n in names {
            let n = n.as_bytes();
            names_by_first[usize::from(n[0])].push(n);
        }
        for n in names.iter().chain(KEY_EXTENSIONS) {
            let n: &'static [u8] = n.as_bytes();
            push_new(&mut name_heads[usize::from(n[0])], &n[..3]);
        }

        let mut look_back = Pairs::new();
        for n in names {
            let n = n.as_bytes();
            if n.len() >= 4 && class(n[0]) & CLASS_ALNUM != 0 {
                for &d in fourth(n) {
                    look_back.set(n[2], d);
                }
            }
        }

        let mut key_suffixes_by_end: [Vec<&'static [u8]>; 256] = lists();
        for suf in KEY_SUFFIXES {
            let suf = suf.as_bytes();
            key_suffixes_by_end[usize::from(suf[suf.len() - 1])].push(suf);
        }
        let mut key_ends: [Vec<u8>; 256] = lists();
        for n in ["_key", "-key", "code", "sig"]
            .iter()
            .chain(KEY_EXACT)
            .chain(KEY_SUFFIXES)
        {
            let n = n.as_bytes();
            push_new(&mut key_ends[usize::from(n[n.len() - 1])], n[n.len() - 2]);
        }

        let build = LookBuild {
            bytes: &bytes,
            second: &second,
            policy,
            names,
        };
        let (look, look2) = build.pairs(!0);
        let (look_secret, look_secret2) = build.pairs(BYTE_ASSIGN);
        Tables {
            marker: policy.truncation_marker.as_bytes(),
            marker_len: policy.truncation_marker.chars().count(),
            bytes,
            markers_by_end,
            flags,
            prefixed,
            words,
            fixed,
            look,
            look2,
            look_secret,
            look_secret2,
            look_back,
            names_by_first,
            name_heads,
            key_suffixes_by_end,
            key_ends,
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
    // second. The path shapes are tried where their fixed bytes are (shape
    // 9's span may start before its name): a home prefix and a key file
    // extension are found like the others; a credential name that starts
    // with punctuation by its first two bytes and by the byte before it with
    // its first (the name starts a segment, so that byte is a separator or
    // no path character); one that starts with a letter or digit by its
    // second and third bytes and its third and fourth, looked at from two
    // bytes back (look_back). A Windows home starts at ':', which is always
    // looked at.
    fn pairs(&self, bits: u8) -> (Box<Pairs>, Box<Pairs>) {
        let mut look = Pairs::new();
        let mut look2 = Pairs::new();
        for c in 0..=255u8 {
            for d in 0..=255u8 {
                if self.bytes[usize::from(c)] & bits != 0
                    || self.second[usize::from(c)][usize::from(d >> 6)] & (1 << (d & 63)) != 0
                {
                    look.set(c, d);
                }
                if self.bytes[usize::from(c)] & bits != 0 || self.bytes[usize::from(d)] & bits != 0
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
                    for &d in fourth(n) {
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

// has_prefix reports whether s starts with a prefix of two or more bytes,
// comparing the second byte first: most candidates differ there.
fn has_prefix(s: &[u8], prefix: &[u8]) -> bool {
    s.len() >= prefix.len() && s[1] == prefix[1] && &s[..prefix.len()] == prefix
}

// any_prefix reports whether s starts with one of the prefixes.
fn any_prefix(s: &[u8], prefixes: &[&[u8]]) -> bool {
    prefixes.iter().any(|p| has_prefix(s, p))
}

// has_prefix_fold reports whether s starts with the lower-case prefix,
// ignoring ASCII case.
fn has_prefix_fold(s: &[u8], prefix: &[u8]) -> bool {
    s.len() >= prefix.len()
        && s.iter()
            .zip(prefix)
            .all(|(c, p)| c.to_ascii_lowercase() == *p)
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

// run counts the bytes of the class from s[i].
fn run(s: &[u8], i: usize, class_bits: u16) -> usize {
    s[i.min(s.len())..]
        .iter()
        .take_while(|&&c| class(c) & class_bits != 0)
        .count()
}

// none_or reports whether c is None or satisfies f (Option::is_none_or is
// newer than the crate's Rust).
fn none_or(c: Option<u8>, f: impl Fn(u8) -> bool) -> bool {
    match c {
        None => true,
        Some(c) => f(c),
    }
}

// index returns where needle first occurs in hay; needle is short.
fn index(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

impl Tables {
    // quiet is the quick pass over text no longer than the window in bytes:
    // it reports quiet when steps 1 to 3 would keep s as it is. Otherwise
    // s[..pristine] is text that steps 1 and 2 keep as it is, holding runes
    // code points, so step 1 can start after it. It reads the byte pairs at
    // even positions, and looks closer only around a pair that could start
    // a change.
    fn quiet(&self, s: &[u8]) -> (usize, usize, bool) {
        let look2 = &*self.look2;
        let mut q = QuietPass {
            r: Redactor::new(self, s),
            next: 0,
            extra: 0,
        };
        let mut i = 0;
        loop {
            // A pair wholly before next has nothing left to look at (at
            // skips runs of non-ASCII characters); then four pairs at a
            // time, as most text has nothing to look at in them.
            i = skip(look2, s, i.max(q.next & !1));
            if s.len() - i < 2 {
                break;
            }
            let v = pair(s, i);
            let at = i;
            i += 2;
            if look2.bit(v) == 0 {
                continue;
            }
            let lo = if self.look_back.bit(v) != 0 {
                at.saturating_sub(2)
            } else {
                at.saturating_sub(1)
            };
            let mut p = q.next.max(lo);
            while p <= at + 1 {
                if !q.at(p) {
                    return (q.next, q.next - q.extra, false);
                }
                p = q.next;
            }
        }
        let mut p = q.next.max(s.len().saturating_sub(1));
        while p < s.len() {
            if !q.at(p) {
                return (q.next, q.next - q.extra, false);
            }
            p = q.next;
        }
        (s.len(), s.len() - q.extra, true)
    }

    // marker_at reports whether the text ends with a marker.
    fn marker_at(&self, out: &[u8]) -> bool {
        self.markers_by_end[usize::from(out[out.len() - 1])]
            .iter()
            .any(|m| ends_with_fold(out, m))
    }

    // drop_marker takes a marker off the end of b, if b ends with one.
    fn drop_marker(&self, b: &mut Vec<u8>) {
        if let Some(m) = self.markers_by_end[usize::from(b[b.len() - 1])]
            .iter()
            .find(|m| ends_with_fold(b, m))
        {
            b.truncate(b.len() - m.len());
        }
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
        let mut b: Option<Vec<u8>> = None; // None while the output is s[..i]
        let mut n = runes;
        let mut i = pristine;
        while i < s.len() {
            if n == window {
                return (b.map_or(Cow::Borrowed(&s[..i]), Cow::Owned), true);
            }
            let mut bits = self.bytes[usize::from(s[i])] & LOOK;
            if bits == 0 {
                // A run of ASCII that needs no look, up to the window.
                let end = s.len().min(i + window - n);
                let mut j = i + 1;
                while j < end && self.bytes[usize::from(s[j])] & LOOK == 0 {
                    j += 1;
                }
                if let Some(b) = b.as_mut() {
                    b.extend_from_slice(&s[i..j]);
                }
                n += j - i;
                i = j;
                continue;
            }
            n += 1;
            if bits & BYTE_REMOVED != 0 {
                b.get_or_insert_with(|| start(s, i, window));
                i += 1;
                continue;
            }
            let mut size = 1;
            if bits & BYTE_MULTI != 0 {
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
                bits = self.bytes[usize::from(s[i + size - 1])];
            }
            if let Some(b) = b.as_mut() {
                b.extend_from_slice(&s[i..i + size]);
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
        (b.map_or(Cow::Borrowed(s), Cow::Owned), false)
    }

    // redact is step 3: at each position the shapes are tried in the order
    // of match_at; the first that matches is replaced and the scan goes on
    // after it. The scan reads the byte pairs at even positions and tries
    // the positions around a pair that could start a shape. It returns None
    // when nothing was redacted.
    fn redact(&self, s: &[u8]) -> Option<Vec<u8>> {
        let look2 = &*self.look_secret2;
        let mut r = Redactor::new(self, s);
        let mut next = 0; // the first position not tried yet
        let mut i = 0;
        loop {
            i = skip(look2, s, i);
            if s.len() - i < 2 {
                break;
            }
            let v = pair(s, i);
            let at = i;
            i += 2;
            if look2.bit(v) == 0 {
                continue;
            }
            let lo = if self.look_back.bit(v) != 0 {
                at.saturating_sub(2)
            } else {
                at.saturating_sub(1)
            };
            let mut p = next.max(lo);
            while p <= at + 1 && p < s.len() {
                next = p + 1;
                if self.look_secret.has(s, p) {
                    if let Some((from, to)) = r.match_at(p) {
                        r.redact(from, to);
                        next = to;
                        // At an odd next, the even pair holding it has a byte
                        // of the redacted text, which the output no longer
                        // has: a credential name starting at next may not be
                        // flagged there (see LookBuild::pairs), so next is
                        // tried now.
                        while next & 1 != 0 && next < s.len() && self.look_secret.has(s, next) {
                            match r.match_at(next) {
                                None => {
                                    next += 1;
                                    break;
                                }
                                Some((from, to)) => {
                                    r.redact(from, to);
                                    next = to;
                                }
                            }
                        }
                        // Go on with the even pair that holds next.
                        i = next & !1;
                        break;
                    }
                }
                p = next;
            }
        }
        if !r.dirty {
            return None;
        }
        r.b.extend_from_slice(&s[r.flushed..]);
        Some(r.b)
    }

    // truncate is step 4.
    fn truncate<'a>(&self, s: Cow<'a, [u8]>, max_length: usize, cut: bool) -> Cow<'a, [u8]> {
        // The text is UTF-8 here: its code points are its bytes that are not
        // continuation bytes.
        if !cut
            && (s.len() <= max_length
                || s.iter().filter(|&&c| !(0x80..0xC0).contains(&c)).count() <= max_length)
        {
            return s;
        }
        let keep = max_length - self.marker_len;
        let mut i = 0;
        let mut c = 0;
        while c < keep && i < s.len() {
            i += utf8_len(s[i]);
            c += 1;
        }
        let mut out = Vec::with_capacity(i + self.marker.len());
        out.extend_from_slice(&s[..i]);
        out.extend_from_slice(self.marker);
        Cow::Owned(out)
    }
}

// start begins step 1's output buffer holding s[..i]: room for the text, or
// for a window of mostly ASCII.
fn start(s: &[u8], i: usize, window: usize) -> Vec<u8> {
    let mut b = Vec::with_capacity(s.len().min(2 * window) + 16);
    b.extend_from_slice(&s[..i]);
    b
}

// QuietPass is the quick pass's state.
struct QuietPass<'t, 's> {
    r: Redactor<'t, 's>,
    // next is the first position not looked at yet; extra counts the bytes
    // of multi-byte characters past their first.
    next: usize,
    extra: usize,
}

impl QuietPass<'_, '_> {
    // at looks at the character at p, and at the non-ASCII characters that
    // follow it when it is one: every pair holding a byte of such a
    // character is looked at, so the scan would look at each of them in
    // turn, and this only spares it the pairs. It reports false when a step
    // would change a character or start a change there; next is then that
    // character's position.
    fn at(&mut self, p: usize) -> bool {
        let s = self.r.s;
        if !self.one(p) {
            self.next = p;
            return false;
        }
        if self.next - p > 1 {
            while self.next < s.len() && s[self.next] >= 0x80 {
                let q = self.next;
                if !self.one(q) {
                    self.next = q;
                    return false;
                }
            }
        }
        true
    }

    // one looks at the character at p alone.
    fn one(&mut self, p: usize) -> bool {
        let t = self.r.t;
        let s = self.r.s;
        if !t.look.has(s, p) {
            self.next = p + 1;
            return true;
        }
        let mut bits = t.bytes[usize::from(s[p])];
        let mut size = 1;
        if bits & BYTE_REMOVED != 0 {
            return false;
        }
        if bits & BYTE_MULTI != 0 {
            let (r, n, ok) = decode(&s[p..]);
            if !ok || removed_rune(r) {
                return false;
            }
            size = n;
            bits = t.bytes[usize::from(s[p + n - 1])];
        }
        if bits & BYTE_MARKER_END != 0 && t.marker_at(&s[..p + size]) {
            return false;
        }
        if size == 1 && p + 1 < s.len() && self.r.match_at(p).is_some() {
            return false;
        }
        self.extra += size - 1;
        self.next = p + size;
        true
    }
}

// Redactor is step 3's state. The output is b (once anything was redacted)
// or s[..flushed], followed by s[flushed..] up to the scan position.
struct Redactor<'t, 's> {
    t: &'t Tables,
    s: &'s [u8],
    b: Vec<u8>,
    dirty: bool,
    flushed: usize,
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
    // cred_end but cred_at.
    path_from: usize,
    path_run: usize,
    cred_from: usize,
    cred_end: usize,
    cred_at: Option<usize>,
}

impl<'t, 's> Redactor<'t, 's> {
    fn new(t: &'t Tables, s: &'s [u8]) -> Self {
        Redactor {
            t,
            s,
            b: Vec::new(),
            dirty: false,
            flushed: 0,
            no_jwt: 0,
            path_from: 0,
            path_run: 0,
            cred_from: 0,
            cred_end: 0,
            cred_at: None,
        }
    }

    // back returns the k-th byte (k >= 1) before position p of the output.
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

    // match_at tries every shape at p and returns the span to redact.
    fn match_at(&mut self, p: usize) -> Option<(usize, usize)> {
        let t = self.t;
        let s = self.s;
        let rest = &s[p..];
        let c = usize::from(s[p]);
        let flags = t.flags[c];
        if flags & !START_NAME == 0 && !any_prefix(rest, &t.fixed[c]) {
            return None;
        }
        // A private key block, through its END line or to the end of the text.
        if flags & START_PEM != 0 && rest.starts_with(b"-----BEGIN ") {
            let j = p + b"-----BEGIN ".len();
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
        let words = &t.words[c];
        if !words.is_empty() && none_or(self.back(p, 1), space) {
            if let Some(w) = words.iter().find(|w| has_prefix(rest, w)) {
                let e = p + w.len() + s[p + w.len()..].iter().take_while(|&&c| !space(c)).count();
                return Some((p, e));
            }
        }
        // Prefixed token shapes, anywhere.
        for sec in &t.prefixed[c] {
            if has_prefix(rest, sec.prefix) {
                let n = run(s, p + sec.prefix.len(), sec.class);
                if n >= sec.min {
                    return Some((p, p + sec.prefix.len() + n));
                }
            }
        }
        // A JSON Web Token: eyJ… . … (. …).
        if flags & START_JWT != 0 && p >= self.no_jwt && rest.starts_with(b"eyJ") {
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
            self.no_jwt = p + n1;
        }
        // Bearer <token>: the token.
        if flags & START_BEARER != 0
            && has_prefix_fold(rest, b"bearer")
            && none_or(self.back(p, 1), |prev| class(prev) & CLASS_ALNUM == 0)
        {
            let mut e = p + 6;
            while e < s.len() && (s[e] == b' ' || s[e] == b'\t') {
                e += 1;
            }
            // The token's run only after white space: read at every
            // "bearer" of a text like "=Bearer=Bearer…", the run to its end
            // made the scan quadratic (as Go's was).
            if e > p + 6 {
                let n = run(s, e, CLASS_TOKEN);
                if n >= 8 {
                    return Some((e, e + n));
                }
            }
        }
        // key = value and key: value for a sensitive key. Tried before the
        // URL rule, which starts at the same ':' but redacts less: were the
        // URL rule first, a second pass could redact the "//" it skipped.
        if flags & START_ASSIGN != 0 {
            if let Some(span) = self.assignment(p) {
                return Some(span);
            }
        }
        // URL userinfo holding a password: scheme://user:password@host.
        if flags & START_URL != 0 && rest.starts_with(b"://") {
            let j = p + 3;
            let n = run(s, j, CLASS_USERINFO);
            if n > 0 && j + n < s.len() && s[j + n] == b'@' && s[j..j + n].contains(&b':') {
                return Some((j, j + n));
            }
        }
        // A home directory: its user name, or the whole path when it holds a
        // credential name.
        if flags & START_HOME != 0 {
            if let Some(span) = self.home(p) {
                return Some(span);
            }
        }
        // A credential name: the whole path holding it.
        if flags & START_NAME != 0
            && any_prefix(rest, &t.name_heads[c])
            && t.credential_at(s, p, self.back(p, 1))
        {
            return Some((self.path_start(p), self.path_end(p + 1)));
        }
        None
    }

    // home matches a home directory at p: /home/ or /Users/ at '/', or a
    // drive letter's :\Users\, :\\Users\\ or :/Users/ (Users in any ASCII
    // case) at ':'. The path must start at a boundary. The user name is
    // redacted, or the whole path when it holds a credential name.
    fn home(&mut self, p: usize) -> Option<(usize, usize)> {
        let s = self.s;
        let (start, seg) = if s[p] == b'/' {
            let h = HOME_PREFIXES
                .iter()
                .find(|h| has_prefix(&s[p..], h.as_bytes()))?;
            (p, p + h.len())
        } else {
            let n = drive_users(&s[p..]);
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

    // credential reports whether a credential name is at a position from
    // seg to end, in a path whose character seg-1 is a separator.
    fn credential(&mut self, seg: usize, end: usize) -> bool {
        if end == self.cred_end
            && seg >= self.cred_from
            && self.cred_at.map_or(true, |at| at >= seg)
        {
            return self.cred_at.is_some();
        }
        let s = self.s;
        (self.cred_from, self.cred_end, self.cred_at) = (seg, end, None);
        for i in seg..end {
            if self.t.flags[usize::from(s[i])] & START_NAME != 0
                && self.t.credential_at(s, i, Some(s[i - 1]))
            {
                self.cred_at = Some(i);
                return true;
            }
        }
        false
    }

    // path_end returns the end of the path whose character i-1 is no
    // backslash: the end of the path characters from i, less the
    // backslashes that end them (those of an escaped quote, as in
    // {\"path\":\"…\"}).
    fn path_end(&mut self, i: usize) -> usize {
        let s = self.s;
        if i < self.path_from || i > self.path_run {
            self.path_from = i;
            self.path_run = i + s[i..]
                .iter()
                .take_while(|&&c| class(c) & CLASS_PATH != 0)
                .count();
        }
        let mut i = self.path_run;
        while s[i - 1] == b'\\' {
            i -= 1;
        }
        i
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

    // path_start returns where the path holding p starts: after the
    // output's last character before p that is no path character (the "]"
    // of an earlier redaction at the latest), at its first ASCII character.
    fn path_start(&self, p: usize) -> usize {
        let mut q = p;
        let mut k = 1;
        while let Some(c) = self.back(p, k) {
            if class(c) & CLASS_PATH == 0 {
                break;
            }
            q = p - k;
            k += 1;
        }
        while self.s[q] >= 0x80 {
            q += 1;
        }
        q
    }

    // assignment matches a sensitive key's value around the separator at p:
    // key, up to two quotes or backslashes, spaces, the separator, spaces,
    // up to two quotes or backslashes, then the value.
    fn assignment(&self, p: usize) -> Option<(usize, usize)> {
        let s = self.s;
        let t = self.t;
        let mut k = 1;
        while matches!(self.back(p, k), Some(b' ' | b'\t')) {
            k += 1;
        }
        let mut gap = k - 1;
        for _ in 0..2 {
            if matches!(self.back(p, k), Some(b'"' | b'\'' | b'\\')) {
                k += 1;
                gap += 1;
            }
        }
        // Most keys are told apart by their last two bytes, before the scan.
        let last = self.back(p, k)?;
        let prev = self.back(p, k + 1)?;
        if class(last) & CLASS_KEY == 0
            || class(prev) & CLASS_KEY == 0
            || !t.key_ends[usize::from(last.to_ascii_lowercase())]
                .contains(&prev.to_ascii_lowercase())
        {
            return None;
        }
        // The key, lower-cased: its last 64 bytes suffice for every test. A
        // longer key starts with a NUL, so that it matches no name exactly.
        let mut buf = [0u8; 65];
        let mut n = 0;
        while let Some(c) = self.back(p, k) {
            if class(c) & CLASS_KEY == 0 {
                break;
            }
            if n < 64 {
                buf[64 - n] = c.to_ascii_lowercase();
            }
            n += 1;
            k += 1;
        }
        if n == 0 {
            return None;
        }
        let key = if n > 64 { &buf[..] } else { &buf[65 - n..] };
        let before = self.back(p, k);
        let query_only = (key == b"code" || key == b"sig")
            && gap == 0
            && s[p] == b'='
            && before.is_some_and(|c| b"?&#;".contains(&c));
        if !t.sensitive_key(key) && !query_only {
            return None;
        }
        let mut v = p + 1;
        while v < s.len() && (s[v] == b' ' || s[v] == b'\t') {
            v += 1;
        }
        let mut q = 0;
        while q < 2 && v < s.len() && (s[v] == b'"' || s[v] == b'\'' || s[v] == b'\\') {
            v += 1;
            q += 1;
        }
        let mut e = value_end(s, v);
        if e == v {
            return None;
        }
        if key.ends_with(b"authorization") && run(s, v, CLASS_ALNUM | CLASS_BASE64URL) == e - v {
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
    // credential_at reports whether a credential name is at p, given the
    // output's character before it (None at the start): a listed name as a
    // whole segment, or a key file extension ending a segment that has more
    // before it.
    fn credential_at(&self, s: &[u8], p: usize, prev: Option<u8>) -> bool {
        match prev {
            Some(c) if class(c) & CLASS_PATH != 0 && !separator(c) => {
                s[p] == b'.'
                    && KEY_EXTENSIONS
                        .iter()
                        .any(|x| has_prefix(&s[p..], x.as_bytes()) && name_ends(s, p + x.len()))
            }
            _ => self.names_by_first[usize::from(s[p])]
                .iter()
                .any(|name| name_at(s, p, name).is_some_and(|e| name_ends(s, e))),
        }
    }

    // sensitive_key reports whether a lower-cased key names a secret.
    fn sensitive_key(&self, key: &[u8]) -> bool {
        let Some(&last) = key.last() else {
            return false;
        };
        if KEY_EXACT.iter().any(|k| key == k.as_bytes()) {
            return true;
        }
        if self.key_suffixes_by_end[usize::from(last)]
            .iter()
            .any(|suf| key.ends_with(suf))
        {
            return true;
        }
        if key.ends_with(b"_key") || key.ends_with(b"-key") {
            // Compared with '-' read as '_'.
            let norm = |c: &u8| if *c == b'-' { b'_' } else { *c };
            for h in KEY_HARMLESS {
                let h = h.as_bytes();
                if key.len() >= h.len()
                    && key[key.len() - h.len()..]
                        .iter()
                        .map(norm)
                        .eq(h.iter().copied())
                    && (key.len() == h.len()
                        || b"_.".contains(&norm(&key[key.len() - h.len() - 1])))
                {
                    return false;
                }
            }
            return true;
        }
        false
    }
}

// drive_users returns the length of :\Users\, :\\Users\\ or :/Users/ (Users
// in any ASCII case) at the start of rest, or 0.
fn drive_users(rest: &[u8]) -> usize {
    if rest.len() < 8 || !separator(rest[1]) {
        return 0;
    }
    let sep = if rest[1] == b'\\' && rest[2] == b'\\' {
        &rest[1..3]
    } else {
        &rest[1..2]
    };
    let n = 1 + sep.len();
    if rest.len() >= n + 5 + sep.len()
        && has_prefix_fold(&rest[n..], b"users")
        && &rest[n + 5..n + 5 + sep.len()] == sep
    {
        return n + 5 + sep.len();
    }
    0
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
