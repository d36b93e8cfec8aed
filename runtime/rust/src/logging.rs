//! The structured-log form of an envelope: the same members, in the same
//! order and bounds, as the Go package's Envelope.LogValue, the TypeScript
//! package's logFields and the Python package's log_fields (the contract's
//! LOG table; the conformance vectors' surfaces section holds the four to
//! the same fields). The same for every contract: what differs is LOG,
//! SANITIZED_FIELDS and the layout, in src/contract.rs.
//!
//! The form is a [`LogFields`], an ordered list of (name, [`LogValue`])
//! pairs rather than a serde_json Map: serde_json keeps a Map's order only
//! with its preserve_order feature, which a library cannot turn on for the
//! program that uses it, and the members' order is part of the form. The
//! names are `&'static str` (the contract's own), so a logger that takes
//! static keys gets them without a copy. LogFields serializes with serde as
//! one JSON object in that order, which is how it reaches a structured
//! logger without a dependency of this crate's: `log`'s key-values (its
//! kv_serde feature's `:serde` capture), a JSON formatter, `tracing` as one
//! field of its JSON text; anything else walks the pairs.

use std::borrow::Cow;

use serde_json::Value;

use crate::contract::{sanitize, FIELDS, LAYOUT, LOG, SANITIZED_FIELDS};
use crate::envelope::Envelope;
use crate::json;
use crate::spec::{FieldType, Member, Object, Source};

/// The type of the contract's LOG table: the members of the log form in the
/// order log_fields writes them, and the bound of its texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogForm {
    /// The members, by name, in order: errgen's, the same in every language.
    pub members: &'static [&'static str],
    /// The bound of every text of the form, in UTF-8 bytes (bound_log_text).
    pub max_bytes: usize,
    /// What ends a text cut at max_bytes.
    pub ellipsis: &'static str,
}

/// One value of the log form: text, an integer, a number, a boolean, or
/// the group of the envelope's fields (the "fields" member).
#[derive(Clone, Debug, PartialEq)]
pub enum LogValue {
    /// Text: bounded, and sanitized where the contract sanitizes it.
    Str(String),
    /// An integer: the HTTP status, the retry hint, an integer field.
    Int(i64),
    /// A number field; never NaN or infinite.
    Float(f64),
    /// A boolean: retryable, a boolean field.
    Bool(bool),
    /// The fields group: each field under its contract name, in wire order.
    Group(Vec<(&'static str, LogValue)>),
}

impl core::fmt::Display for LogValue {
    /// Text as it is, numbers and booleans as Rust writes them, the group
    /// as its compact JSON: for a logger's `%value` capture of one member.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LogValue::Str(s) => f.write_str(s),
            LogValue::Int(i) => write!(f, "{i}"),
            LogValue::Float(x) => write!(f, "{x}"),
            LogValue::Bool(b) => write!(f, "{b}"),
            LogValue::Group(_) => {
                f.write_str(&serde_json::to_string(self).map_err(|_| core::fmt::Error)?)
            }
        }
    }
}

impl serde::Serialize for LogValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LogValue::Str(x) => s.serialize_str(x),
            LogValue::Int(i) => s.serialize_i64(*i),
            LogValue::Float(x) => s.serialize_f64(*x),
            LogValue::Bool(b) => s.serialize_bool(*b),
            LogValue::Group(members) => serialize_members(members, s),
        }
    }
}

fn serialize_members<S: serde::Serializer>(
    members: &[(&'static str, LogValue)],
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(members.len()))?;
    for (k, v) in members {
        m.serialize_entry(k, v)?;
    }
    m.end()
}

/// The structured-log form of an envelope (Envelope::log_fields): its
/// members in LOG's order, each once. It serializes as one JSON object in
/// that order; iterate it for a logger that takes key-value pairs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogFields(Vec<(&'static str, LogValue)>);

impl LogFields {
    /// The value of the member named name, if the form has it
    /// (retry_after_ms, fields and extra are left out when empty).
    pub fn get(&self, name: &str) -> Option<&LogValue> {
        self.0.iter().find(|(k, _)| *k == name).map(|(_, v)| v)
    }

    /// The members in order.
    pub fn iter(&self) -> core::slice::Iter<'_, (&'static str, LogValue)> {
        self.0.iter()
    }

    /// The members in order, as a slice.
    pub fn as_slice(&self) -> &[(&'static str, LogValue)] {
        &self.0
    }

    /// How many members the form has.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the form has no members (never, for an envelope's).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<LogFields> for Vec<(&'static str, LogValue)> {
    fn from(f: LogFields) -> Self {
        f.0
    }
}

impl IntoIterator for LogFields {
    type Item = (&'static str, LogValue);
    type IntoIter = std::vec::IntoIter<(&'static str, LogValue)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a LogFields {
    type Item = &'a (&'static str, LogValue);
    type IntoIter = core::slice::Iter<'a, (&'static str, LogValue)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl serde::Serialize for LogFields {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_members(&self.0, s)
    }
}

/// Cuts text longer than LOG.max_bytes bytes of UTF-8 at a character
/// boundary and ends it with LOG.ellipsis, so that no log line grows with
/// what an upstream sends. Text within the bound is borrowed.
pub fn bound_log_text(s: &str) -> Cow<'_, str> {
    if s.len() <= LOG.max_bytes {
        return Cow::Borrowed(s);
    }
    let mut n = LOG.max_bytes;
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    Cow::Owned([&s[..n], LOG.ellipsis].concat())
}

/// Whether the string forms change c: a line break or tab (written as a
/// space), or another C0 control, DEL or a C1 control (deleted).
fn not_one_line(c: char) -> bool {
    matches!(c, '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}')
}

/// s as the string forms write text: on one line and without controls.
/// Tab, line feed, carriage return, U+2028 and U+2029 become spaces; every
/// other C0 control, DEL and every C1 control is deleted, as the sanitizer
/// deletes them. Text with none of them is borrowed.
fn one_line(s: &str) -> Cow<'_, str> {
    if !s.contains(not_one_line) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .filter_map(|c| match c {
                '\t' | '\n' | '\r' | '\u{2028}' | '\u{2029}' => Some(' '),
                c if not_one_line(c) => None,
                c => Some(c),
            })
            .collect(),
    )
}

/// A text of the string forms (Display, Debug): on one line (one_line),
/// sanitized when sanitized is set (after the line breaks became spaces,
/// so a secret split by one is read whole), and bounded as the log form's
/// texts are (bound_log_text).
fn string_text(s: &str, sanitized: bool) -> String {
    let line = one_line(s);
    if !sanitized {
        return bound_log_text(&line).into_owned();
    }
    let clean = sanitize(&line);
    bound_log_text(&one_line(&clean)).into_owned()
}

impl Envelope {
    /// The kind and the message of the string form (Display), each on one
    /// line and bounded, the message sanitized when the contract sanitizes
    /// it.
    fn string_parts(&self) -> (String, String) {
        (
            string_text(self.kind.as_str(), false),
            string_text(&self.message, SANITIZED_FIELDS.contains(&"message")),
        )
    }
}

impl core::fmt::Display for Envelope {
    /// The envelope's string form, "kind: message", as the Go package's
    /// Error() writes it: on one line (tab, line feed, carriage return,
    /// U+2028 and U+2029 become spaces and the other controls go, so a
    /// message cannot forge a second log line), the message sanitized when
    /// the contract sanitizes it, however the envelope was built or
    /// received, each text bounded as log_fields bounds its texts.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let (kind, message) = self.string_parts();
        write!(f, "{kind}: {message}")
    }
}

impl core::fmt::Debug for Envelope {
    /// The kind and the message as Display writes them, never the fields
    /// as they are: `{:?}` of a received envelope, or of a Result holding
    /// one, neither leaks a secret nor spreads over lines.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let (kind, message) = self.string_parts();
        f.debug_struct("Envelope")
            .field("kind", &kind)
            .field("message", &message)
            .finish_non_exhaustive()
    }
}

/// The compact JSON text t (as json::write_value writes it) sanitized as
/// the log form writes it: each string first, member names included,
/// decoded from its escapes, so that an escaped control cannot split a
/// secret the sanitizer would find in the text; then the text whole, so
/// that a secret spread over a member's name and its value
/// ("password":"…") goes too.
fn sanitize_json(t: &str) -> String {
    let data = t.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(data.len());
    let mut last = 0;
    let mut i = 0;
    while i < data.len() {
        if data[i] != b'"' {
            i += 1;
            continue;
        }
        let Some(end) = json::string_end(data, i) else {
            break;
        };
        let s = json::string_body(&data[i + 1..end - 1]);
        let clean = sanitize(&s);
        if clean != s {
            out.extend_from_slice(&data[last..i]);
            json::write_str(&mut out, &clean);
            last = end;
        }
        i = end;
    }
    out.extend_from_slice(&data[last..]);
    let strings = String::from_utf8(out).unwrap_or_default();
    sanitize(&strings).into_owned()
}

/// Text of the form: sanitized when the contract sanitizes the value
/// named name, then bounded.
fn text(s: &str, name: &str) -> LogValue {
    let s = if SANITIZED_FIELDS.contains(&name) {
        sanitize(s)
    } else {
        Cow::Borrowed(s)
    };
    LogValue::Str(bound_log_text(&s).into_owned())
}

fn plain(s: &str) -> LogValue {
    LogValue::Str(bound_log_text(s).into_owned())
}

impl Envelope {
    /// The envelope's structured-log form, for a structured logger: the
    /// members the Go package's LogValue, the TypeScript package's logFields
    /// and the Python package's log_fields write (LOG.members), in order:
    /// kind, message, origin, action, same_arguments, side_effects,
    /// retryable, http_status, retry_after_ms (only with a retry hint),
    /// fields (a group of the context and kind-specific fields the envelope
    /// carries on the wire, in wire order, under their contract names: text
    /// as it is, integers, numbers and booleans as they are, arrays and
    /// objects as their compact JSON text; only when there are any) and
    /// extra (the compact JSON text of the members this contract does not
    /// name, sorted by key; only when there are any).
    ///
    /// It never leaks what the contract sanitizes: the message and each
    /// field SANITIZED_FIELDS lists are sanitized, however the envelope was
    /// built or received, and extra always is. Every text is bounded
    /// (bound_log_text): at most LOG.max_bytes bytes of UTF-8, then
    /// LOG.ellipsis. A field that does not encode (a NaN, an integer past
    /// 2^53) is left out; the others are logged.
    ///
    /// ```rust,ignore
    /// // log, with its kv_serde feature: one structured value.
    /// log::warn!(error:serde = e.log_fields(); "tool call failed");
    /// // tracing: the form as the JSON text of one field.
    /// tracing::warn!(error = %serde_json::to_string(&e.log_fields()).unwrap_or_default(), "tool call failed");
    /// // Any key-value logger: the pairs, in order.
    /// for (key, value) in &e.log_fields() {
    ///     record.push(key, value.to_string());
    /// }
    /// ```
    pub fn log_fields(&self) -> LogFields {
        let mut out = Vec::with_capacity(LOG.members.len());
        for &member in LOG.members {
            let v = match member {
                "kind" => Some(plain(self.kind.as_str())),
                "message" => Some(text(&self.message, "message")),
                "origin" => Some(plain(self.origin.as_str())),
                "action" => Some(plain(self.recovery.action.as_str())),
                "same_arguments" => Some(plain(self.recovery.same_arguments.as_str())),
                "side_effects" => Some(plain(self.side_effects.as_str())),
                "retryable" => Some(LogValue::Bool(self.is_retryable())),
                "http_status" => Some(LogValue::Int(i64::from(self.http_status()))),
                "retry_after_ms" => self.recovery.retry_after_ms.map(LogValue::Int),
                "fields" => {
                    let group = self.log_group();
                    (!group.is_empty()).then_some(LogValue::Group(group))
                }
                "extra" => self.log_extra().map(LogValue::Str),
                _ => None,
            };
            if let Some(v) = v {
                out.push((member, v));
            }
        }
        LogFields(out)
    }

    /// The fields member: each context and kind-specific field the envelope
    /// carries on the wire, in wire order, under its contract name. Text is
    /// the field's own; any other value is read from the envelope's wire
    /// form, so an array or object is its compact JSON as the encoder
    /// writes it.
    fn log_group(&self) -> Vec<(&'static str, LogValue)> {
        let wire = self.log_wire();
        let mut out = Vec::new();
        group_of(self, &LAYOUT, Some(&wire), &mut out);
        out
    }

    /// The envelope's wire form for log_group. An envelope that does not
    /// encode is written without what stops it: its kind, retry hint and
    /// extra entries (which the group does not show), a required field that
    /// is empty, and each field that does not encode.
    fn log_wire(&self) -> Vec<u8> {
        let mut b = Vec::new();
        if self.append_json(&mut b).is_ok() {
            return b;
        }
        let mut e = self.clone();
        e.kind = "-".into();
        e.recovery.retry_after_ms = None;
        e.extra.clear();
        // Each round clears the field at fault; a field's error names its path.
        for _ in 0..=FIELDS.len() {
            let err = match e.append_json(&mut b) {
                Ok(()) => return b,
                Err(err) => err,
            };
            match field_leaf(&LAYOUT, &err.path) {
                Some(leaf)
                    if leaf.required && e.slot_text(leaf.slot).is_some_and(str::is_empty) =>
                {
                    // Its text is never logged (it is empty): a placeholder lets the rest encode.
                    if let Some(t) = e.slot_text_mut(leaf.slot) {
                        t.push('-');
                    }
                }
                Some(leaf) => e.clear_slot(leaf.slot),
                None => break,
            }
        }
        Vec::new()
    }

    /// The extra member: the compact JSON text of the extra entries, sorted
    /// by key, sanitized and bounded; None without any. An entry nested
    /// past MAX_DEPTH, which JSON readers refuse, is left out.
    fn log_extra(&self) -> Option<String> {
        let s = json::extra_object(&self.extra)?;
        Some(bound_log_text(&sanitize_json(&s)).into_owned())
    }
}

/// The layout leaf of the field at path, if a field is there.
fn field_leaf(o: &'static Object, path: &str) -> Option<&'static crate::spec::Leaf> {
    o.members.iter().find_map(|m| match m {
        Member::Object(child) => field_leaf(child, path),
        Member::Leaf(leaf) => (leaf.source == Source::Field && leaf.path == path).then_some(leaf),
    })
}

/// Appends the fields of layout object o to out, in layout order; wire is
/// the object's JSON text (None when the wire form lacks it).
fn group_of(
    e: &Envelope,
    o: &'static Object,
    wire: Option<&[u8]>,
    out: &mut Vec<(&'static str, LogValue)>,
) {
    let members = wire
        .and_then(crate::surfaces::top_members)
        .unwrap_or_default();
    let raw = |name: &str| {
        members
            .iter()
            .find(|(k, _)| k.as_ref() == name)
            .map(|(_, v)| *v)
    };
    for m in o.members {
        let leaf = match m {
            Member::Object(child) => {
                group_of(e, child, raw(child.name), out);
                continue;
            }
            Member::Leaf(leaf) if leaf.source == Source::Field => leaf,
            Member::Leaf(_) => continue,
        };
        let spec = &FIELDS[leaf.slot];
        if let Some(s) = e.slot_text(leaf.slot) {
            if !s.is_empty() {
                out.push((spec.name, text(s, spec.name)));
            }
            continue;
        }
        let Some(raw) = raw(leaf.name) else { continue };
        let v = match spec.typ {
            FieldType::Integer | FieldType::Number | FieldType::Boolean => {
                match serde_json::from_slice::<Value>(raw) {
                    Ok(Value::Bool(b)) => LogValue::Bool(b),
                    Ok(Value::Number(n))
                        if spec.typ == FieldType::Integer && n.as_i64().is_some() =>
                    {
                        LogValue::Int(n.as_i64().unwrap_or_default())
                    }
                    Ok(Value::Number(n)) => match n.as_f64() {
                        Some(x) if x.is_finite() => LogValue::Float(x),
                        _ => continue,
                    },
                    _ => continue,
                }
            }
            _ if raw == b"null" => continue,
            // An array or object: its compact JSON text, whose strings a
            // sanitized field has sanitized one by one first (sanitize_json).
            // The encoder writes only valid UTF-8.
            _ if SANITIZED_FIELDS.contains(&spec.name) => LogValue::Str(
                bound_log_text(&sanitize_json(&String::from_utf8_lossy(raw))).into_owned(),
            ),
            _ => text(&String::from_utf8_lossy(raw), spec.name),
        };
        out.push((spec.name, v));
    }
}
