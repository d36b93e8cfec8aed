//! The word matcher of the inbound classifiers. Its rules are deliberately
//! simple so the Go, TypeScript, Python and Rust classifiers agree on every
//! input: only ASCII letters are folded, and a word boundary is any
//! character that is not an ASCII letter, digit or underscore.

use std::borrow::Cow;

/// Returns the text with its ASCII letters lower-cased, borrowed when it
/// has none in upper case.
#[must_use]
pub fn ascii_lower(s: &str) -> Cow<'_, str> {
    if s.bytes().any(|c| c.is_ascii_uppercase()) {
        Cow::Owned(s.to_ascii_lowercase())
    } else {
        Cow::Borrowed(s)
    }
}

/// Reports whether the byte is a word character: an ASCII letter, digit or
/// underscore.
pub fn word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Reports whether `lower` (already lower-cased with [`ascii_lower`])
/// contains any of the phrases as a whole word: not preceded or followed by
/// a word character.
pub fn has_word(lower: &str, phrases: &[&str]) -> bool {
    let text = lower.as_bytes();
    phrases.iter().any(|p| {
        let p = p.as_bytes();
        let mut from = 0;
        while from + p.len() <= text.len() {
            let Some(i) = find(&text[from..], p).map(|i| from + i) else {
                break;
            };
            let end = i + p.len();
            if (i == 0 || !word_byte(text[i - 1])) && (end == text.len() || !word_byte(text[end])) {
                return true;
            }
            from = i + 1;
        }
        false
    })
}

// find returns where needle first occurs in hay (the empty needle at 0).
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len()).position(|w| w == needle)
}
