//! The JSON codec: an interpreter of the contract's LAYOUT. Decoding
//! mirrors the Go package's decoder step by step, so a malformed envelope
//! fails at the same JSON path with the same category in every language;
//! encoding writes the layout's fields in order, then the extra entries
//! sorted by key. The same for every contract.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::ser::SerializeMap;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::contract::{classification_of, owned_index, sanitize};
use crate::contract::{Kind, Origin, RecoveryAction, SameArguments, SideEffects};
use crate::contract::{FIELDS, LAYOUT};
use crate::envelope::Envelope;
use crate::json;
use crate::spec::{Const, FieldSpec, FieldType, Member, Object, Source};

/// How deeply an envelope may nest arrays and objects, the envelope's own
/// object counting as the first level. Every language's package of the
/// contract shares it: each decoder rejects a deeper document (category
/// syntax) and each encoder refuses to write one.
pub const MAX_DEPTH: usize = 128;

/// The largest integer every decoder of the contract reads exactly, 2^53-1.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// The size limit of the decoders that take a whole document
/// (Envelope::from_slice, from_json, from_aip193; RpcStatus::from_aip193),
/// 1 MiB, the same in every package of the contract and the same as the
/// body read_http reads: an envelope is a few kilobytes, and a hostile
/// document costs a decoder a multiple of its size. A longer document is a
/// syntax error with path "", found before it is read; DecodeOptions sets
/// another limit, or none.
pub const MAX_DOCUMENT_BYTES: usize = 1 << 20;

/// How the `_with` decoders read a document. `DecodeOptions::default()` is
/// what from_slice and from_aip193 use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOptions {
    /// The longest document read, in bytes; None: no limit.
    pub max_bytes: Option<usize>,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            max_bytes: Some(MAX_DOCUMENT_BYTES),
        }
    }
}

impl DecodeOptions {
    /// The size limit's error for data longer than the limit.
    pub(crate) fn check(&self, data: &[u8]) -> Result<(), DecodeError> {
        match self.max_bytes {
            Some(limit) if data.len() > limit => Err(err(
                "",
                format!("is longer than the limit of {limit} bytes"),
                DecodeErrorCategory::Syntax,
            )),
            _ => Ok(()),
        }
    }
}

const INTEGER_RANGE: &str = "must be an integer from -9007199254740991 to 9007199254740991";
const HINT_RANGE: &str = "must be an integer from 0 to 9007199254740991";

/// What kind of problem a DecodeError reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecodeErrorCategory {
    /// The input is not JSON, or JSON past the limits every decoder shares
    /// (nested deeper than MAX_DEPTH, a number past the range of a 64-bit float).
    Syntax,
    /// A value has the wrong JSON type, null where a value is required
    /// included, or the document is not an object.
    Type,
    /// A required member is absent.
    Missing,
    /// The type is right but the value is rejected (an empty kind, a
    /// negative retry hint, an integer past MAX_SAFE_INTEGER, a layout
    /// constant that differs).
    Value,
}

impl DecodeErrorCategory {
    /// The category as every language's package spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            DecodeErrorCategory::Syntax => "syntax",
            DecodeErrorCategory::Type => "type",
            DecodeErrorCategory::Missing => "missing",
            DecodeErrorCategory::Value => "value",
        }
    }
}

/// DecodeError reports why a document is not a valid envelope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The JSON path of the offending field, such as "recovery.action";
    /// empty when the document as a whole is wrong.
    pub path: String,
    /// What is wrong, such as "is required".
    pub problem: String,
    /// The kind of problem, so callers can react without parsing problem.
    pub category: DecodeErrorCategory,
}

impl core::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.path.is_empty() {
            write!(
                f,
                "{}: invalid envelope: {}",
                crate::contract::CRATE_NAME,
                self.problem
            )
        } else {
            write!(
                f,
                "{}: invalid envelope: {} {}",
                crate::contract::CRATE_NAME,
                self.path,
                self.problem
            )
        }
    }
}

impl std::error::Error for DecodeError {}

/// EncodeError reports an envelope that no decoder of the contract would
/// read back, which the encoders refuse to write: one without a kind, with
/// a retry hint out of range, an integer past MAX_SAFE_INTEGER, a float
/// JSON cannot carry, a value nested deeper than MAX_DEPTH, or an empty
/// context field the layout requires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    /// The wire path of the field at fault; empty for the envelope as a whole.
    pub path: String,
    /// What is wrong.
    pub problem: String,
}

impl core::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{}: cannot encode the envelope: ",
            crate::contract::CRATE_NAME
        )?;
        if !self.path.is_empty() {
            write!(f, "{} ", self.path)?;
        }
        f.write_str(&self.problem)
    }
}

impl std::error::Error for EncodeError {}

fn err(path: &str, problem: impl Into<String>, category: DecodeErrorCategory) -> DecodeError {
    DecodeError {
        path: path.to_owned(),
        problem: problem.into(),
        category,
    }
}

fn enc(path: &str, problem: impl Into<String>) -> EncodeError {
    EncodeError {
        path: path.to_owned(),
        problem: problem.into(),
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// Reports whether v is a number whose value is a whole number.
fn whole(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.trunc() == f),
        _ => false,
    }
}

/// The integer v holds when every decoder reads it as one: a whole number
/// of at most MAX_SAFE_INTEGER in magnitude, however it is written.
pub(crate) fn safe_int(v: &Value) -> Option<i64> {
    let Value::Number(n) = v else { return None };
    if let Some(i) = n.as_i64() {
        return (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER)
            .contains(&i)
            .then_some(i);
    }
    if n.is_u64() {
        return None;
    }
    let f = n.as_f64()?;
    (f.trunc() == f && f.abs() <= MAX_SAFE_INTEGER as f64).then_some(f as i64)
}

/// One value as the encoder writes it: the layout's objects keep their
/// member order, values of no fixed shape are written as Go writes them.
#[derive(Debug)]
#[allow(dead_code)] // Null is written by the typed objects some contracts have
pub(crate) enum Out<'a> {
    Obj(Vec<(&'a str, Out<'a>)>),
    Arr(Vec<Out<'a>>),
    Str(&'a str),
    Int(i64),
    Float(f64),
    Bool(bool),
    Json(Cow<'a, Value>),
    Map(&'a Map<String, Value>),
    Null,
}

impl Out<'_> {
    /// Whether the value is an array without elements.
    fn is_empty_array(&self) -> bool {
        match self {
            Out::Arr(a) => a.is_empty(),
            Out::Json(v) => v.as_array().is_some_and(Vec::is_empty),
            _ => false,
        }
    }

    fn write(&self, b: &mut Vec<u8>) {
        match self {
            Out::Obj(members) => {
                b.push(b'{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        b.push(b',');
                    }
                    json::write_str(b, k);
                    b.push(b':');
                    v.write(b);
                }
                b.push(b'}');
            }
            Out::Arr(items) => {
                b.push(b'[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        b.push(b',');
                    }
                    v.write(b);
                }
                b.push(b']');
            }
            Out::Str(s) => json::write_str(b, s),
            Out::Int(i) => json::write_i64(b, *i),
            Out::Float(f) => json::write_f64(b, *f),
            Out::Bool(x) => b.extend_from_slice(if *x { b"true" } else { b"false" }),
            Out::Json(v) => json::write_value(b, v, false),
            Out::Map(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                b.push(b'{');
                for (i, k) in keys.into_iter().enumerate() {
                    if i > 0 {
                        b.push(b',');
                    }
                    json::write_str(b, k);
                    b.push(b':');
                    json::write_value(b, &m[k.as_str()], true);
                }
                b.push(b'}');
            }
            Out::Null => b.extend_from_slice(b"null"),
        }
    }
}

impl serde::Serialize for Out<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Out::Obj(members) => {
                let mut m = s.serialize_map(Some(members.len()))?;
                for (k, v) in members {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
            Out::Arr(items) => {
                let mut q = s.serialize_seq(Some(items.len()))?;
                for v in items {
                    q.serialize_element(v)?;
                }
                q.end()
            }
            Out::Str(x) => s.serialize_str(x),
            Out::Int(i) => s.serialize_i64(*i),
            Out::Float(f) => s.serialize_f64(*f),
            Out::Bool(b) => s.serialize_bool(*b),
            Out::Json(v) => v.serialize(s),
            Out::Map(m) => m.serialize(s),
            Out::Null => s.serialize_unit(),
        }
    }
}

/// A value a field, a property or an array element holds.
pub(crate) trait Item: Sized {
    /// The value v holds, or None when it has another type.
    fn from_item(v: &Value, spec: Option<&FieldSpec>) -> Option<Self>;
    /// What a null array element reads as, as with Go's decoder.
    fn zero() -> Self;
    /// The value as the encoder writes it; level is how many arrays and
    /// objects are around it.
    fn to_item(&self, path: &str, level: usize) -> Result<Out<'_>, EncodeError>;
}

impl Item for String {
    fn from_item(v: &Value, _: Option<&FieldSpec>) -> Option<Self> {
        v.as_str().map(str::to_owned)
    }
    fn zero() -> Self {
        String::new()
    }
    fn to_item(&self, _: &str, _: usize) -> Result<Out<'_>, EncodeError> {
        Ok(Out::Str(self))
    }
}

impl Item for i64 {
    fn from_item(v: &Value, _: Option<&FieldSpec>) -> Option<Self> {
        safe_int(v)
    }
    fn zero() -> Self {
        0
    }
    fn to_item(&self, path: &str, _: usize) -> Result<Out<'_>, EncodeError> {
        if !(-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(self) {
            return Err(enc(
                path,
                format!("{self} is not an integer from -9007199254740991 to 9007199254740991"),
            ));
        }
        Ok(Out::Int(*self))
    }
}

impl Item for f64 {
    fn from_item(v: &Value, _: Option<&FieldSpec>) -> Option<Self> {
        v.as_f64()
    }
    fn zero() -> Self {
        0.0
    }
    fn to_item(&self, path: &str, _: usize) -> Result<Out<'_>, EncodeError> {
        if !self.is_finite() {
            return Err(enc(path, format!("{self} is not a JSON number")));
        }
        Ok(Out::Float(*self))
    }
}

impl Item for bool {
    fn from_item(v: &Value, _: Option<&FieldSpec>) -> Option<Self> {
        v.as_bool()
    }
    fn zero() -> Self {
        false
    }
    fn to_item(&self, _: &str, _: usize) -> Result<Out<'_>, EncodeError> {
        Ok(Out::Bool(*self))
    }
}

impl Item for Map<String, Value> {
    fn from_item(v: &Value, _: Option<&FieldSpec>) -> Option<Self> {
        v.as_object().cloned()
    }
    fn zero() -> Self {
        Map::new()
    }
    fn to_item(&self, path: &str, level: usize) -> Result<Out<'_>, EncodeError> {
        if level >= MAX_DEPTH || !self.values().all(|x| json::within_depth(x, level + 1)) {
            return Err(enc(
                path,
                format!("it nests arrays and objects more than {MAX_DEPTH} levels deep"),
            ));
        }
        Ok(Out::Map(self))
    }
}

impl<T: Item> Item for Vec<T> {
    fn from_item(v: &Value, _: Option<&FieldSpec>) -> Option<Self> {
        let a = v.as_array()?;
        let mut out = Vec::with_capacity(a.len());
        for x in a {
            out.push(if x.is_null() {
                T::zero()
            } else {
                T::from_item(x, None)?
            });
        }
        Some(out)
    }
    fn zero() -> Self {
        Vec::new()
    }
    fn to_item(&self, path: &str, level: usize) -> Result<Out<'_>, EncodeError> {
        if level >= MAX_DEPTH {
            return Err(enc(
                path,
                format!("it nests arrays and objects more than {MAX_DEPTH} levels deep"),
            ));
        }
        let mut out = Vec::with_capacity(self.len());
        for x in self {
            out.push(x.to_item(path, level + 1)?);
        }
        Ok(Out::Arr(out))
    }
}

/// A context or kind-specific field of the envelope: its value, or its
/// absence (an empty string, None).
pub(crate) trait Wire: Sized {
    fn from_wire(v: &Value, spec: &FieldSpec) -> Option<Self>;
    fn to_wire(&self, path: &str, level: usize) -> Result<Option<Out<'_>>, EncodeError>;
}

impl Wire for String {
    fn from_wire(v: &Value, _: &FieldSpec) -> Option<Self> {
        v.as_str().map(str::to_owned)
    }
    fn to_wire(&self, _: &str, _: usize) -> Result<Option<Out<'_>>, EncodeError> {
        Ok((!self.is_empty()).then_some(Out::Str(self)))
    }
}

impl<T: Item> Wire for Option<T> {
    fn from_wire(v: &Value, spec: &FieldSpec) -> Option<Self> {
        T::from_item(v, Some(spec)).map(Some)
    }
    fn to_wire(&self, path: &str, level: usize) -> Result<Option<Out<'_>>, EncodeError> {
        match self {
            None => Ok(None),
            Some(x) => x.to_item(path, level).map(Some),
        }
    }
}

/// The contract version as the envelope keeps it: an integer, or text.
pub(crate) trait Version: Sized {
    fn decode(v: &Value, path: &str) -> Result<Self, DecodeError>;
    fn encode(&self) -> Out<'_>;
}

impl Version for i64 {
    fn decode(v: &Value, path: &str) -> Result<Self, DecodeError> {
        if !whole(v) {
            return Err(err(path, "must be an integer", DecodeErrorCategory::Type));
        }
        safe_int(v).ok_or_else(|| err(path, INTEGER_RANGE, DecodeErrorCategory::Value))
    }
    fn encode(&self) -> Out<'_> {
        Out::Int(*self)
    }
}

impl Version for String {
    fn decode(v: &Value, path: &str) -> Result<Self, DecodeError> {
        v.as_str()
            .map(str::to_owned)
            .ok_or_else(|| err(path, "must be a string", DecodeErrorCategory::Type))
    }
    fn encode(&self) -> Out<'_> {
        Out::Str(self)
    }
}

fn want(spec: &FieldSpec) -> String {
    let one = |t: FieldType| match t {
        FieldType::String => "a string",
        FieldType::Integer => "an integer",
        FieldType::Number => "a number",
        FieldType::Boolean => "a boolean",
        FieldType::Object => "an object",
        FieldType::Array => "an array",
    };
    if spec.typ == FieldType::Array {
        let items = match spec.items.unwrap_or(FieldType::String) {
            FieldType::Integer => "integers",
            FieldType::Object => "objects",
            FieldType::Number => "numbers",
            FieldType::Boolean => "booleans",
            _ => "strings",
        };
        return format!("must be an array of {items}");
    }
    format!("must be {}", one(spec.typ))
}

fn same_const(v: &Value, c: Const) -> bool {
    match c {
        Const::Str(s) => v.as_str() == Some(s),
        Const::Bool(b) => v.as_bool() == Some(b),
        Const::Int(i) => v.as_f64() == Some(i as f64),
        Const::Float(f) => v.as_f64() == Some(f),
    }
}

/// Sanitizes every text value in o, as the constructors sanitize text:
/// the message, the guidance and every context and kind-specific field (a
/// string, an array's strings, an object's strings however deep, keys
/// kept), whatever SANITIZED_FIELDS lists, since all of it is the
/// sender's, and the kind and the enumerated values (origin, recovery
/// action, same_arguments, side_effects); a clean value, as every known one
/// is, is unchanged. A kind or required field the sanitizer leaves empty is
/// the value error an empty one is; an emptied enumerated value is kept
/// empty, as an empty one is.
fn sanitize_received(e: &mut Envelope, o: &Object) -> Result<(), DecodeError> {
    let clean = |t: &mut String| {
        if let Cow::Owned(s) = sanitize(t) {
            *t = s;
        }
    };
    for m in o.members {
        let leaf = match m {
            Member::Object(child) => {
                sanitize_received(e, child)?;
                continue;
            }
            Member::Leaf(leaf) => leaf,
        };
        match leaf.source {
            Source::Kind => {
                if let Cow::Owned(s) = sanitize(e.kind.as_str()) {
                    if s.is_empty() {
                        return Err(err(
                            leaf.path,
                            "must not be empty",
                            DecodeErrorCategory::Value,
                        ));
                    }
                    e.kind = Kind::from(s);
                }
            }
            Source::Origin => {
                if let Cow::Owned(s) = sanitize(e.origin.as_str()) {
                    e.origin = Origin::from(s);
                }
            }
            Source::Action => {
                if let Cow::Owned(s) = sanitize(e.recovery.action.as_str()) {
                    e.recovery.action = RecoveryAction::from(s);
                }
            }
            Source::SameArguments => {
                if let Cow::Owned(s) = sanitize(e.recovery.same_arguments.as_str()) {
                    e.recovery.same_arguments = SameArguments::from(s);
                }
            }
            Source::SideEffects => {
                if let Cow::Owned(s) = sanitize(e.side_effects.as_str()) {
                    e.side_effects = SideEffects::from(s);
                }
            }
            Source::Message => clean(&mut e.message),
            Source::Guidance => clean(&mut e.recovery.guidance),
            Source::Field => {
                if let Some(t) = e.slot_text_mut(leaf.slot) {
                    clean(t);
                    if leaf.required && t.is_empty() {
                        return Err(err(
                            leaf.path,
                            "must not be empty",
                            DecodeErrorCategory::Value,
                        ));
                    }
                } else if matches!(FIELDS[leaf.slot].typ, FieldType::Array | FieldType::Object) {
                    // An array or object: its strings, through its JSON value.
                    let v = match e.encode_slot(leaf.slot, leaf.path, 0) {
                        Ok(Some(out)) => serde_json::to_value(&out).ok(),
                        _ => None,
                    };
                    if let Some(mut v) = v {
                        if sanitize_json_value(&mut v, 0) {
                            e.decode_slot(leaf.slot, &v);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// How deep sanitize_json_value descends: past MAX_DEPTH, so every string
/// a decoder returns is reached.
const SANITIZE_DEPTH: usize = 160;

/// Sanitizes every string in v (not the members' names), in place; true
/// when one changed.
pub(crate) fn sanitize_json_value(v: &mut Value, depth: usize) -> bool {
    match v {
        Value::String(s) => match sanitize(s) {
            Cow::Owned(t) => {
                *s = t;
                true
            }
            Cow::Borrowed(_) => false,
        },
        Value::Array(items) if depth < SANITIZE_DEPTH => {
            let mut changed = false;
            for x in items {
                changed |= sanitize_json_value(x, depth + 1);
            }
            changed
        }
        Value::Object(members) if depth < SANITIZE_DEPTH => {
            let mut changed = false;
            for x in members.values_mut() {
                changed |= sanitize_json_value(x, depth + 1);
            }
            changed
        }
        _ => false,
    }
}

/// The envelope decoded, with what the contract sanitizes sanitized.
fn sanitized(decoded: Result<Envelope, DecodeError>) -> Result<Envelope, DecodeError> {
    let mut e = decoded?;
    let kind = e.kind.clone();
    sanitize_received(&mut e, &LAYOUT)?;
    if e.kind != kind {
        // What the layout leaves off the wire derives from the kind returned.
        fill_off_wire(&mut e);
    }
    for v in e.extra.values_mut() {
        sanitize_json_value(v, 0);
    }
    Ok(e)
}

impl Envelope {
    /// Decodes an envelope from JSON text in the contract's wire layout.
    /// A kind, origin or other value this contract version does not know is
    /// kept as it is, members the contract does not name go to extra,
    /// values the layout does not carry come from the kind's classification;
    /// malformed input is a DecodeError with the JSON path and category the
    /// Go package reports. The text is read as Go reads it: each byte of
    /// invalid UTF-8 and each escape of a lone surrogate is U+FFFD, a
    /// member given twice counts with its last value.
    ///
    /// Every text it returns (the message, the guidance, every context and
    /// kind-specific field and the strings of the extra members, listed in
    /// SANITIZED_FIELDS or not, the kind and the enumerated values) is
    /// sanitized as the constructors sanitize it, so an envelope read from
    /// an upstream can be re-emitted or logged as it is; a kind or a
    /// required field the sanitizer leaves empty is a Value error. Every reader of the crate decodes this way; from_slice_raw
    /// keeps the text as received.
    ///
    /// A document longer than MAX_DOCUMENT_BYTES is a syntax error, found
    /// before it is read; from_slice_with reads longer ones.
    pub fn from_slice(data: &[u8]) -> Result<Envelope, DecodeError> {
        Envelope::from_slice_with(data, DecodeOptions::default())
    }

    /// from_slice within the size limit of opts.
    pub fn from_slice_with(data: &[u8], opts: DecodeOptions) -> Result<Envelope, DecodeError> {
        opts.check(data)?;
        sanitized(Envelope::read_slice(data))
    }

    /// from_slice without sanitizing: the text is as the sender wrote it.
    /// Never re-emit it or show it to a model; it is for a caller that needs
    /// the exact bytes. The size limit is from_slice's.
    pub fn from_slice_raw(data: &[u8]) -> Result<Envelope, DecodeError> {
        DecodeOptions::default().check(data)?;
        Envelope::read_slice(data)
    }

    /// read_slice decodes data as it is, with no size limit and no sanitizing.
    fn read_slice(data: &[u8]) -> Result<Envelope, DecodeError> {
        // One pass checks the whole text and notes where each member the
        // layout owns lies; only then does the layout read them, so a
        // syntax error wins over any other problem wherever it is. No tree
        // is built.
        let mut scan = Scan::new(data);
        let first = json::skip_ws(data, 0);
        if first >= data.len() {
            return Err(json::eof(first));
        }
        let end = if data[first] == b'{' {
            scan.object(first, 0, 1)?
        } else {
            json::skip_value(data, first, 0, &mut scan.limit)?
        };
        let end = json::skip_ws(data, end);
        if end < data.len() {
            return Err(json::bad(end));
        }
        if let Some(l) = scan.limit.take() {
            return Err(json::syntax(l));
        }
        decode(Raw {
            scan: &scan,
            at: first,
            end,
            escaped: false,
            child: 0,
        })
    }

    /// from_slice of a string.
    pub fn from_json(text: &str) -> Result<Envelope, DecodeError> {
        Envelope::from_slice(text.as_bytes())
    }

    /// from_slice_raw of a string: the text is as the sender wrote it.
    pub fn from_json_raw(text: &str) -> Result<Envelope, DecodeError> {
        Envelope::from_slice_raw(text.as_bytes())
    }

    /// Decodes an envelope from a JSON value (from_slice after parsing,
    /// sanitizing alike): a value nested deeper than MAX_DEPTH is a syntax
    /// error.
    pub fn from_value(v: &Value) -> Result<Envelope, DecodeError> {
        sanitized(Envelope::from_value_raw(v))
    }

    /// from_value without sanitizing: the text is as the sender wrote it.
    /// Never re-emit it or show it to a model.
    pub fn from_value_raw(v: &Value) -> Result<Envelope, DecodeError> {
        if !json::within_depth(v, 0) {
            return Err(err(
                "",
                format!("nests arrays and objects more than {MAX_DEPTH} levels deep"),
                DecodeErrorCategory::Syntax,
            ));
        }
        decode(v)
    }

    /// Appends the envelope's compact JSON in the contract's wire layout to
    /// dst: the layout's fields in order, absent optional fields left out,
    /// then the extra entries sorted by key, skipping any a field of the
    /// contract owns. On error dst is unchanged.
    pub fn append_json(&self, dst: &mut Vec<u8>) -> Result<(), EncodeError> {
        let start = dst.len();
        let mut sink = Bytes {
            b: dst,
            first: true,
        };
        let r = self.check_encodable().and_then(|()| {
            sink.b.push(b'{');
            self.walk(&LAYOUT, &plan().objects[0], 1, &mut sink)
        });
        match r {
            Ok(()) => {
                dst.push(b'}');
                Ok(())
            }
            Err(e) => {
                dst.truncate(start);
                Err(e)
            }
        }
    }

    /// The envelope's compact JSON text (see append_json), as the Go
    /// encoder writes it byte for byte.
    pub fn to_json(&self) -> Result<String, EncodeError> {
        let mut b = Vec::with_capacity(512);
        self.append_json(&mut b)?;
        // The writer writes only valid UTF-8.
        Ok(String::from_utf8(b).unwrap_or_default())
    }

    /// The checks of the envelope as a whole, before any member is written.
    fn check_encodable(&self) -> Result<(), EncodeError> {
        if self.kind.as_str().is_empty() {
            return Err(enc("", "its kind is empty"));
        }
        if let Some(ms) = self.recovery.retry_after_ms {
            if !(0..=MAX_SAFE_INTEGER).contains(&ms) {
                return Err(enc(
                    "",
                    format!("its retry hint {ms} is not an integer from 0 to 9007199254740991"),
                ));
            }
        }
        Ok(())
    }

    /// Walks one object of the layout, handing each member it writes to
    /// sink in order: the layout's members, then the extra entries that
    /// belong in it (sorted by key, as the extra map keeps them). level is
    /// how many objects are around the object's members, itself included.
    /// The first problem met is the one reported, whatever the sink.
    fn walk<S: Sink>(
        &self,
        o: &'static Object,
        p: &'static PlanObject,
        level: usize,
        sink: &mut S,
    ) -> Result<(), S::Err> {
        for (m, (written, child)) in o.members.iter().zip(&p.members) {
            let leaf = match m {
                Member::Object(c) => {
                    let cp = &plan().objects[*child];
                    sink.object(self, c, cp, written, level + 1)?;
                    continue;
                }
                Member::Leaf(leaf) => leaf,
            };
            let c = || classification_of(&self.kind);
            let v = match leaf.source {
                Source::Version => Some(self.contract_version.encode()),
                Source::Kind => Some(Out::Str(self.kind.as_str())),
                Source::Message => Some(Out::Str(&self.message)),
                Source::Origin => Some(Out::Str(self.origin.as_str())),
                Source::Action => Some(Out::Str(self.recovery.action.as_str())),
                Source::SameArguments => Some(Out::Str(self.recovery.same_arguments.as_str())),
                Source::SideEffects => Some(Out::Str(self.side_effects.as_str())),
                Source::Guidance => (!(leaf.optional && self.recovery.guidance.is_empty()))
                    .then_some(Out::Str(&self.recovery.guidance)),
                Source::RetryAfterMs => self.recovery.retry_after_ms.map(Out::Int),
                Source::Group => {
                    let g = match self.slot_text(leaf.slot) {
                        Some(r) if !r.is_empty() => r,
                        _ => c().group.as_ref().map_or("", |g| g.as_str()),
                    };
                    (!(leaf.optional && g.is_empty())).then_some(Out::Str(g))
                }
                Source::Retryable | Source::MayHaveRun => {
                    let (b, received) = if leaf.source == Source::Retryable {
                        (self.is_retryable(), self.received_retryable())
                    } else {
                        (self.work_may_have_run(), self.received_may_have_run())
                    };
                    // An optional flag is written when it was received (a
                    // received false as well, so it survives a round trip)
                    // or computes true.
                    (!leaf.optional || b || received.is_some()).then_some(Out::Bool(b))
                }
                Source::Const => leaf.value.map(|c| match c {
                    Const::Str(s) => Out::Str(s),
                    Const::Int(i) => Out::Int(i),
                    Const::Float(f) => Out::Float(f),
                    Const::Bool(b) => Out::Bool(b),
                }),
                Source::Field => {
                    if leaf.required && self.slot_text(leaf.slot).map_or(true, str::is_empty) {
                        return Err(S::fail(enc(
                            leaf.path,
                            "the layout requires it, and it is empty",
                        )));
                    }
                    let v = self
                        .encode_slot(leaf.slot, leaf.path, level)
                        .map_err(S::fail)?;
                    // An array the layout marks optional is left out when
                    // empty, as when unset.
                    v.filter(|v| !(leaf.optional && v.is_empty_array()))
                }
            };
            if let Some(v) = v {
                sink.member(leaf.name, Some(written), &v)?;
            }
        }
        for (k, v) in &self.extra {
            let (path, name) = place_extra(k);
            if path == o.path && !o.owned.contains(&name) {
                if !json::within_depth(v, level) {
                    return Err(S::fail(enc(
                        k,
                        format!("it nests arrays and objects more than {MAX_DEPTH} levels deep"),
                    )));
                }
                sink.member(name, None, &Out::Json(Cow::Borrowed(v)))?;
            }
        }
        Ok(())
    }
}

/// Where walk hands the members of an object.
trait Sink {
    type Err;
    /// The error an EncodeError becomes.
    fn fail(e: EncodeError) -> Self::Err;
    /// A member with its value.
    /// written is the name as Plan wrote it ahead (a comma, the name
    /// quoted, a colon), when it is one of the layout's.
    fn member(&mut self, name: &str, written: Option<&[u8]>, v: &Out<'_>) -> Result<(), Self::Err>;
    /// A nested object of the layout: written unless it has no members
    /// and the layout does not require it.
    fn object(
        &mut self,
        e: &Envelope,
        o: &'static Object,
        p: &'static PlanObject,
        written: &[u8],
        level: usize,
    ) -> Result<(), Self::Err>;
}

/// The sink of append_json: compact JSON written straight into a buffer.
struct Bytes<'a> {
    b: &'a mut Vec<u8>,
    /// No member has been written in the current object yet.
    first: bool,
}

impl Bytes<'_> {
    fn name(&mut self, name: &str) {
        if !self.first {
            self.b.push(b',');
        }
        self.first = false;
        json::write_str(self.b, name);
        self.b.push(b':');
    }

    /// A name Plan wrote ahead, with its comma when a member came before.
    fn written(&mut self, w: &[u8]) {
        self.b
            .extend_from_slice(if self.first { &w[1..] } else { w });
        self.first = false;
    }
}

impl Sink for Bytes<'_> {
    type Err = EncodeError;
    fn fail(e: EncodeError) -> EncodeError {
        e
    }
    fn member(
        &mut self,
        name: &str,
        written: Option<&[u8]>,
        v: &Out<'_>,
    ) -> Result<(), EncodeError> {
        match written {
            Some(w) => self.written(w),
            None => self.name(name),
        }
        v.write(self.b);
        Ok(())
    }
    fn object(
        &mut self,
        e: &Envelope,
        o: &'static Object,
        p: &'static PlanObject,
        written: &[u8],
        level: usize,
    ) -> Result<(), EncodeError> {
        let (mark, first) = (self.b.len(), self.first);
        self.written(written);
        self.b.push(b'{');
        let mut inner = Bytes {
            b: self.b,
            first: true,
        };
        e.walk(o, p, level, &mut inner)?;
        if inner.first && !o.required {
            // Nothing to say: the object is left out.
            self.b.truncate(mark);
            self.first = first;
        } else {
            self.b.push(b'}');
        }
        Ok(())
    }
}

/// A sink that only notes whether an object has a member, to decide
/// before serde writes its name whether a nested object is left out.
struct Any(bool);

impl Sink for Any {
    type Err = EncodeError;
    fn fail(e: EncodeError) -> EncodeError {
        e
    }
    fn member(&mut self, _: &str, _: Option<&[u8]>, _: &Out<'_>) -> Result<(), EncodeError> {
        self.0 = true;
        Ok(())
    }
    fn object(
        &mut self,
        e: &Envelope,
        o: &'static Object,
        p: &'static PlanObject,
        _: &[u8],
        level: usize,
    ) -> Result<(), EncodeError> {
        if o.required || e.has_members(o, p, level)? {
            self.0 = true;
        }
        Ok(())
    }
}

impl Envelope {
    /// Whether the object of the layout has a member to write.
    fn has_members(
        &self,
        o: &'static Object,
        p: &'static PlanObject,
        level: usize,
    ) -> Result<bool, EncodeError> {
        let mut any = Any(false);
        self.walk(o, p, level, &mut any)?;
        Ok(any.0)
    }
}

/// The sink of the serde Serialize implementation: each member an entry
/// of the serializer's map.
struct Entries<M>(M);

impl<M: serde::ser::SerializeMap> Sink for Entries<M> {
    type Err = M::Error;
    fn fail(e: EncodeError) -> M::Error {
        serde::ser::Error::custom(e)
    }
    fn member(&mut self, name: &str, _: Option<&[u8]>, v: &Out<'_>) -> Result<(), M::Error> {
        self.0.serialize_entry(name, v)
    }
    fn object(
        &mut self,
        e: &Envelope,
        o: &'static Object,
        p: &'static PlanObject,
        _: &[u8],
        level: usize,
    ) -> Result<(), M::Error> {
        if !o.required && !e.has_members(o, p, level).map_err(Self::fail)? {
            return Ok(());
        }
        self.0.serialize_entry(o.name, &Nested { e, o, p, level })
    }
}

/// A nested object of the layout, serialized as walk finds it.
struct Nested<'a> {
    e: &'a Envelope,
    o: &'static Object,
    p: &'static PlanObject,
    level: usize,
}

impl serde::Serialize for Nested<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = Entries(s.serialize_map(None)?);
        self.e.walk(self.o, self.p, self.level, &mut m)?;
        m.0.end()
    }
}

/// Whether an extra entry's value, written where its key places it
/// (place_extra), nests no deeper than MAX_DEPTH, as the encoder checks it.
pub(crate) fn placed_within(k: &str, v: &Value) -> bool {
    let path = place_extra(k).0;
    let level = if path.is_empty() {
        1
    } else {
        2 + path.matches('.').count()
    };
    json::within_depth(v, level)
}

/// Splits an extra key into the object it belongs in (the longest object
/// path of the layout that prefixes it) and its member name there.
fn place_extra(k: &str) -> (&'static str, &str) {
    let mut best: &'static str = "";
    fn walk(o: &'static Object, k: &str, best: &mut &'static str) {
        if !o.path.is_empty()
            && o.path.len() > best.len()
            && k.len() > o.path.len()
            && k.starts_with(o.path)
            && k.as_bytes()[o.path.len()] == b'.'
        {
            *best = o.path;
        }
        for m in o.members {
            if let Member::Object(c) = m {
                walk(c, k, best);
            }
        }
    }
    walk(&LAYOUT, k, &mut best);
    if best.is_empty() {
        ("", k)
    } else {
        (best, &k[best.len() + 1..])
    }
}

/// Whether the layout carries source s.
fn on_wire(s: Source) -> bool {
    plan().on_wire & (1 << s as u32) != 0
}

/// Reads a JSON value as an envelope: the layout's objects in order, the
/// first problem met being the one the Go decoder reports. The value is a
/// tree (from_value, Deserialize) or a document's text, read where it lies
/// (from_slice): both go through the same steps.
fn decode<'a, N: Node<'a>>(v: N) -> Result<Envelope, DecodeError> {
    let mut e = Envelope::zero();
    let mut extra = BTreeMap::new();
    decode_object(&LAYOUT, v, &mut e, &mut extra)?;
    // An entry whose key places it in a nested object (a root member
    // "recovery.x" goes into recovery, a level deeper than it was read)
    // must stay within the limits there: the encoder writes it there.
    if let Some(k) = extra
        .iter()
        .find(|(k, v)| k.contains('.') && !placed_within(k, v))
        .map(|(k, _)| k)
    {
        return Err(err(
            "",
            format!(
                "places {k} where it nests arrays and objects more than {MAX_DEPTH} levels deep"
            ),
            DecodeErrorCategory::Syntax,
        ));
    }
    e.extra = extra;
    if !on_wire(Source::Version) {
        e.contract_version = crate::contract::version();
    }
    fill_off_wire(&mut e);
    Ok(e)
}

/// Sets the values the layout leaves off the wire from the kind's
/// classification.
fn fill_off_wire(e: &mut Envelope) {
    let c = classification_of(&e.kind);
    if !on_wire(Source::Origin) {
        e.origin = c.origin.clone();
    }
    if !on_wire(Source::Action) {
        e.recovery.action = c.action.clone();
    }
    if !on_wire(Source::SameArguments) {
        e.recovery.same_arguments = c.same_arguments.clone();
    }
    if !on_wire(Source::Guidance) {
        e.recovery.guidance = c.guidance.to_owned();
    }
    if !on_wire(Source::SideEffects) {
        e.side_effects = c.side_effects.clone();
    }
}

/// An open enum from decoded text, copying it only when it is not a value
/// the contract lists.
fn open<'a, T: From<&'a str> + From<String>>(s: Cow<'a, str>) -> T {
    match s {
        Cow::Borrowed(s) => T::from(s),
        Cow::Owned(s) => T::from(s),
    }
}

fn decode_object<'a, N: Node<'a>>(
    o: &'static Object,
    v: N,
    e: &mut Envelope,
    extra: &mut BTreeMap<String, Value>,
) -> Result<(), DecodeError> {
    use DecodeErrorCategory as C;
    let path = o.path;
    let obj = match v.object(o) {
        Some(m) => m,
        None if v.is_null() => return Err(err(path, "must be a JSON object, not null", C::Type)),
        None => return Err(err(path, "must be a JSON object", C::Type)),
    };
    // k is the position of m's name among o's owned names: each member's
    // name, then a leaf's aliases (see the LAYOUT table).
    let mut k = 0;
    for m in o.members {
        let at = k;
        k += match m {
            Member::Object(_) => 1,
            Member::Leaf(l) => 1 + l.aliases.len(),
        };
        let (name, required) = match m {
            Member::Object(child) => (child.name, child.required),
            Member::Leaf(l) => (
                l.name,
                l.source != Source::RetryAfterMs
                    && (l.source == Source::Const
                        || (l.source == Source::Field && l.required)
                        || (l.source != Source::Field && !l.optional)),
            ),
        };
        if let Member::Leaf(l) = m {
            if l.source == Source::RetryAfterMs {
                // The first spelling present wins.
                for (j, spelling) in core::iter::once(&l.name).chain(l.aliases).enumerate() {
                    if e.recovery.retry_after_ms.is_some() {
                        break;
                    }
                    match obj.get(spelling, at + j) {
                        None => {}
                        Some(x) if x.is_null() => {}
                        Some(x) => {
                            let x = x.value();
                            let p = || join(path, spelling);
                            if !whole(&x) {
                                return Err(err(&p(), "must be a non-negative integer", C::Type));
                            }
                            match safe_int(&x) {
                                Some(ms) if ms >= 0 => e.recovery.retry_after_ms = Some(ms),
                                _ => return Err(err(&p(), HINT_RANGE, C::Value)),
                            }
                        }
                    }
                }
                continue;
            }
        }
        debug_assert_eq!(o.owned.get(at), Some(&name));
        let x = match obj.get(name, at) {
            None if required => return Err(err(&join(path, name), "is required", C::Missing)),
            Some(x) if x.is_null() => {
                if required {
                    return Err(err(&join(path, name), "is required", C::Type));
                }
                continue;
            }
            None => continue,
            Some(x) => x,
        };
        let leaf = match m {
            Member::Object(child) => {
                decode_object(child, x, e, extra)?;
                continue;
            }
            Member::Leaf(l) => l,
        };
        let not_string = || err(&join(path, name), "must be a string", C::Type);
        match leaf.source {
            Source::Field => {
                let spec = &FIELDS[leaf.slot];
                // Text straight into its slot: no value in between.
                let text = match e.slot_text_mut(leaf.slot) {
                    Some(slot) => match x.str() {
                        Some(s) => {
                            *slot = s.into_owned();
                            true
                        }
                        None => return Err(err(leaf.path, want(spec), C::Type)),
                    },
                    None => false,
                };
                if !text {
                    let x = x.value();
                    if spec.typ == FieldType::Integer && whole(&x) && safe_int(&x).is_none() {
                        return Err(err(leaf.path, INTEGER_RANGE, C::Value));
                    }
                    if !e.decode_slot(leaf.slot, &x) {
                        return Err(err(leaf.path, want(spec), C::Type));
                    }
                }
                if leaf.required && e.slot_text(leaf.slot) == Some("") {
                    return Err(err(leaf.path, "must not be empty", C::Value));
                }
            }
            Source::Message => e.message = x.str().ok_or_else(not_string)?.into_owned(),
            Source::Origin => e.origin = open(x.str().ok_or_else(not_string)?),
            Source::SideEffects => e.side_effects = open(x.str().ok_or_else(not_string)?),
            Source::Action => e.recovery.action = open(x.str().ok_or_else(not_string)?),
            Source::SameArguments => {
                e.recovery.same_arguments = open(x.str().ok_or_else(not_string)?)
            }
            Source::Guidance => e.recovery.guidance = x.str().ok_or_else(not_string)?.into_owned(),
            Source::Kind => {
                let s = x.str().ok_or_else(not_string)?;
                if s.is_empty() {
                    return Err(err(leaf.path, "must not be empty", C::Value));
                }
                e.kind = open(s);
            }
            Source::Version => e.contract_version = Version::decode(&x.value(), leaf.path)?,
            Source::Group => {
                let x = x.value();
                if !x.is_string() {
                    return Err(not_string());
                }
                e.decode_slot(leaf.slot, &x);
            }
            Source::Retryable | Source::MayHaveRun => {
                let x = x.value();
                if !x.is_boolean() {
                    return Err(err(&join(path, name), "must be a boolean", C::Type));
                }
                e.decode_slot(leaf.slot, &x);
            }
            Source::Const => {
                if !leaf.value.is_some_and(|c| same_const(&x.value(), c)) {
                    return Err(err(leaf.path, format!("must be {}", leaf.want), C::Value));
                }
            }
            Source::RetryAfterMs => {}
        }
    }
    obj.extra(o, |k, x| {
        extra.insert(join(path, k), x);
    });
    Ok(())
}

/// A JSON value as the decoder reads it.
trait Node<'a>: Sized {
    /// The members of an object.
    type Object: Members<'a, Node = Self>;
    fn is_null(&self) -> bool;
    /// The value's members, when it is an object (the object of the layout
    /// it is read as is o).
    fn object(&self, o: &'static Object) -> Option<Self::Object>;
    /// The value's text, when it is a string.
    fn str(&self) -> Option<Cow<'a, str>>;
    /// The value as a tree.
    fn value(&self) -> Cow<'a, Value>;
}

trait Members<'a> {
    type Node;
    /// The value of the member named name (the last, if it is given
    /// twice), which is at position index among the owned names.
    fn get(&self, name: &str, index: usize) -> Option<Self::Node>;
    /// Hands each member the object of the layout does not own to f, in
    /// the order received; a member given twice, each time.
    fn extra(&self, o: &'static Object, f: impl FnMut(&str, Value));
}

impl<'a> Node<'a> for &'a Value {
    type Object = &'a Map<String, Value>;
    fn is_null(&self) -> bool {
        Value::is_null(self)
    }
    fn object(&self, _: &'static Object) -> Option<Self::Object> {
        self.as_object()
    }
    fn str(&self) -> Option<Cow<'a, str>> {
        self.as_str().map(Cow::Borrowed)
    }
    fn value(&self) -> Cow<'a, Value> {
        Cow::Borrowed(*self)
    }
}

impl<'a> Members<'a> for &'a Map<String, Value> {
    type Node = &'a Value;
    fn get(&self, name: &str, _: usize) -> Option<&'a Value> {
        Map::get(self, name)
    }
    fn extra(&self, o: &'static Object, mut f: impl FnMut(&str, Value)) {
        for (k, x) in *self {
            if !o.owned.contains(&k.as_str()) {
                f(k, x.clone());
            }
        }
    }
}

/// The layout's shape as the codec walks it, worked out once from LAYOUT.
struct Plan {
    /// The layout's objects in pre-order, the envelope's own first: the
    /// numbering contract::owned_index matches member names by.
    objects: Vec<PlanObject>,
    /// One slot per owned name of every object: where the decoder notes
    /// the member of that name.
    slots: usize,
    /// The sources the layout carries, a bit each.
    on_wire: u32,
}

struct PlanObject {
    /// The slot of the object's first owned name.
    base: usize,
    /// Past the last slot of the object and the objects in it.
    end: usize,
    /// Past the number of the last object in it.
    last: usize,
    /// For each owned name, the number of the layout object its member
    /// is; NONE for a leaf.
    child: Vec<usize>,
    /// For each member, its name as the encoder writes it after another
    /// member (a comma, the name quoted and escaped, a colon: escaped once
    /// here, not at each encoding), and the number of the layout object
    /// it is (NONE for a leaf).
    members: Vec<(Vec<u8>, usize)>,
}

const NONE: usize = usize::MAX;

fn plan() -> &'static Plan {
    static PLAN: OnceLock<Plan> = OnceLock::new();
    PLAN.get_or_init(|| {
        let mut p = Plan {
            objects: Vec::new(),
            slots: 0,
            on_wire: 0,
        };
        p.add(&LAYOUT);
        p
    })
}

impl Plan {
    fn add(&mut self, o: &'static Object) -> usize {
        let id = self.objects.len();
        let base = self.slots;
        self.slots += o.owned.len();
        self.objects.push(PlanObject {
            base,
            end: 0,
            last: 0,
            child: vec![NONE; o.owned.len()],
            members: Vec::with_capacity(o.members.len()),
        });
        let mut k = 0;
        for m in o.members {
            let name = match m {
                Member::Object(c) => c.name,
                Member::Leaf(l) => l.name,
            };
            debug_assert_eq!(o.owned.get(k), Some(&name));
            let mut n = vec![b','];
            json::write_str(&mut n, name);
            n.push(b':');
            match m {
                Member::Object(c) => {
                    let child = self.add(c);
                    self.objects[id].child[k] = child;
                    self.objects[id].members.push((n, child));
                    k += 1;
                }
                Member::Leaf(l) => {
                    self.objects[id].members.push((n, NONE));
                    self.on_wire |= 1 << l.source as u32;
                    k += 1 + l.aliases.len();
                }
            }
        }
        self.objects[id].end = self.slots;
        self.objects[id].last = self.objects.len();
        // The generated matcher and the owned list agree (the first
        // position of a name given twice is the one that counts).
        for n in o.owned {
            debug_assert_eq!(
                owned_index(id, n.as_bytes()),
                o.owned.iter().position(|x| x == n),
                "owned_index({id}, {n:?})"
            );
        }
        id
    }
}

/// The position among the owned names of layout object id of a member
/// name as the document spells it (escaped: it holds a backslash); names
/// are compared as Go compares them, escapes decoded and each byte of
/// invalid UTF-8 read as U+FFFD.
#[inline]
fn member_index(id: usize, raw: &[u8], escaped: bool) -> Option<usize> {
    if !escaped {
        // Text without escapes that matches is the name itself; text that
        // does not match and is ASCII reads as itself, so matches nothing.
        if let Some(k) = owned_index(id, raw) {
            return Some(k);
        }
        if raw.is_ascii() {
            return None;
        }
    }
    owned_index(id, json::string_body(raw).as_bytes())
}

/// Where a member the layout owns lies in the text: the offset of its
/// value plus one (0 when absent), the offset after it, and whether a
/// string value holds an escape.
#[derive(Clone, Copy, Default)]
struct Slot {
    at: usize,
    end: usize,
    escaped: bool,
}

/// How many slots Scan keeps without allocating; a layout that owns more
/// names allocates its table.
const SLOTS_INLINE: usize = 48;

/// from_slice's single pass over the text: it checks the syntax of the
/// whole document as json::check does (same errors, same offsets) and, in
/// the layout's objects, notes in each owned name's slot where the member
/// of the name lies (the last, if it is given twice).
struct Scan<'a> {
    data: &'a [u8],
    plan: &'static Plan,
    inline: [Slot; SLOTS_INLINE],
    more: Vec<Slot>,
    /// Bit id is set when layout object id (below 64) has a member it
    /// does not own; objects from 64 on are always looked at.
    extra: u64,
    limit: json::Limit,
}

impl<'a> Scan<'a> {
    fn new(data: &'a [u8]) -> Scan<'a> {
        let plan = plan();
        Scan {
            data,
            plan,
            inline: [Slot::default(); SLOTS_INLINE],
            more: if plan.slots > SLOTS_INLINE {
                vec![Slot::default(); plan.slots]
            } else {
                Vec::new()
            },
            extra: 0,
            limit: None,
        }
    }

    fn slots(&self) -> &[Slot] {
        if self.more.is_empty() {
            &self.inline
        } else {
            &self.more
        }
    }

    fn slots_mut(&mut self) -> &mut [Slot] {
        if self.more.is_empty() {
            &mut self.inline
        } else {
            &mut self.more
        }
    }

    /// Scans the object at data[i] as layout object id, depth levels deep
    /// (itself included), and returns the offset after it. The syntax is
    /// checked token by token as json::skip_value checks it; values that
    /// are not layout objects are checked by it.
    fn object(&mut self, i: usize, id: usize, depth: usize) -> Result<usize, DecodeError> {
        let data = self.data;
        json::note_depth(&mut self.limit, depth, i);
        let (base, end) = (self.plan.objects[id].base, self.plan.objects[id].end);
        // A later occurrence of the object replaces an earlier one.
        for s in &mut self.slots_mut()[base..end] {
            s.at = 0;
        }
        if id < 64 {
            self.extra &= !(1 << id);
        }
        let mut i = json::skip_ws(data, i + 1);
        if i >= data.len() {
            return Err(json::eof(i));
        }
        if data[i] == b'}' {
            return Ok(i + 1);
        }
        loop {
            if data[i] != b'"' {
                return Err(json::bad(i));
            }
            let (name_end, escaped) = json::string_scan(data, i).ok_or_else(|| json::bad(i))?;
            let name = &data[i + 1..name_end - 1];
            let colon = json::skip_ws(data, name_end);
            if colon >= data.len() || data[colon] != b':' {
                return Err(json::bad(colon));
            }
            let v = json::skip_ws(data, colon + 1);
            if v >= data.len() {
                return Err(json::eof(v));
            }
            match member_index(id, name, escaped) {
                Some(k) => {
                    let child = self.plan.objects[id].child[k];
                    let (end, escaped) = match data[v] {
                        b'{' if child != NONE => (self.object(v, child, depth + 1)?, false),
                        b'"' => json::string_scan(data, v).ok_or_else(|| json::bad(v))?,
                        _ => (json::skip_value(data, v, depth, &mut self.limit)?, false),
                    };
                    self.slots_mut()[base + k] = Slot {
                        at: v + 1,
                        end,
                        escaped,
                    };
                    i = end;
                }
                None => {
                    if id < 64 {
                        self.extra |= 1 << id;
                    }
                    i = json::skip_value(data, v, depth, &mut self.limit)?;
                }
            }
            i = json::skip_ws(data, i);
            if i >= data.len() {
                return Err(json::eof(i));
            }
            match data[i] {
                b',' => {
                    i = json::skip_ws(data, i + 1);
                    if i >= data.len() {
                        return Err(json::eof(i));
                    }
                }
                b'}' => return Ok(i + 1),
                _ => return Err(json::bad(i)),
            }
        }
    }
}

/// A value in a document's text that Scan has accepted: where it lies and,
/// when it is a member of a layout object, what Scan noted.
#[derive(Clone, Copy)]
struct Raw<'a, 's> {
    scan: &'s Scan<'a>,
    at: usize,
    end: usize,
    escaped: bool,
    /// The number of the layout object the value is read as; NONE for a leaf.
    child: usize,
}

/// A layout object in a document's text: the slots Scan filled for it.
struct RawObject<'a, 's> {
    scan: &'s Scan<'a>,
    id: usize,
    at: usize,
}

impl<'a, 's> Node<'a> for Raw<'a, 's> {
    type Object = RawObject<'a, 's>;
    fn is_null(&self) -> bool {
        self.scan.data[self.at] == b'n'
    }
    fn object(&self, _: &'static Object) -> Option<RawObject<'a, 's>> {
        (self.scan.data[self.at] == b'{' && self.child != NONE).then_some(RawObject {
            scan: self.scan,
            id: self.child,
            at: self.at,
        })
    }
    fn str(&self) -> Option<Cow<'a, str>> {
        let data = self.scan.data;
        if data[self.at] != b'"' {
            return None;
        }
        let body = &data[self.at + 1..self.end - 1];
        if !self.escaped {
            if let Ok(s) = core::str::from_utf8(body) {
                return Some(Cow::Borrowed(s));
            }
        }
        Some(json::string_body(body))
    }
    fn value(&self) -> Cow<'a, Value> {
        Cow::Owned(json::value_at(self.scan.data, self.at))
    }
}

impl<'a, 's> Members<'a> for RawObject<'a, 's> {
    type Node = Raw<'a, 's>;
    fn get(&self, _: &str, index: usize) -> Option<Raw<'a, 's>> {
        let o = &self.scan.plan.objects[self.id];
        let s = self.scan.slots()[o.base + index];
        (s.at != 0).then(|| Raw {
            scan: self.scan,
            at: s.at - 1,
            end: s.end,
            escaped: s.escaped,
            child: o.child[index],
        })
    }
    fn extra(&self, _: &'static Object, mut f: impl FnMut(&str, Value)) {
        if self.id < 64 && self.scan.extra & (1 << self.id) == 0 {
            return;
        }
        let data = self.scan.data;
        json::members(data, self.at, |name, value| {
            if member_index(self.id, name, name.contains(&b'\\')).is_none() {
                f(&json::string_body(name), json::value_at(data, value));
            }
        });
    }
}

impl serde::Serialize for Envelope {
    /// Serializes the envelope in the contract's wire layout, member order
    /// included (see to_json); an envelope to_json refuses is an error.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.check_encodable().map_err(serde::ser::Error::custom)?;
        let mut m = Entries(s.serialize_map(None)?);
        self.walk(&LAYOUT, &plan().objects[0], 1, &mut m)?;
        m.0.end()
    }
}

impl<'de> serde::Deserialize<'de> for Envelope {
    /// Deserializes an envelope in the contract's wire layout, with the
    /// checks, the problems and the sanitizing of from_value (the message of the error is
    /// the DecodeError's). Text that is not valid UTF-8, or escapes a lone
    /// surrogate, is the deserializer's to judge (serde_json refuses it,
    /// as it refuses nesting of 128 levels): from_slice reads it as Go does.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // The map is read straight into the layout's slots (strings
        // borrowed where the deserializer lends them, no tree of the
        // envelope); the problems wait until the whole value is read, so
        // the deserializer's own errors win, then depth, then the layout's
        // checks in the layout's order, as from_value has them.
        let plan = plan();
        let mut t = Held {
            plan,
            slots: (0..plan.slots).map(|_| None).collect(),
            extras: Vec::new(),
            deep: false,
        };
        let top = d.deserialize_any(Top(&mut t))?;
        if t.deep || (top == TopKind::Object && !t.within_depth(0, 0)) {
            return Err(serde::de::Error::custom(err(
                "",
                format!("nests arrays and objects more than {MAX_DEPTH} levels deep"),
                DecodeErrorCategory::Syntax,
            )));
        }
        let value = match top {
            TopKind::Object => Kept::Obj,
            TopKind::Null => Kept::Other(Value::Null),
            TopKind::Other => Kept::Other(Value::Bool(false)),
        };
        // Sanitized as from_value sanitizes (there is no raw Deserialize:
        // from_value_raw is the opt-out).
        sanitized(decode(Keeps {
            t: &t,
            kept: &value,
            child: 0,
        }))
        .map_err(serde::de::Error::custom)
    }
}

/// A member's value as Deserialize keeps it until the layout reads it.
enum Kept<'de> {
    Str(Cow<'de, str>),
    /// A layout object, read into the slots of its number.
    Obj,
    Other(Value),
}

/// What Deserialize has read: a value for each slot (see Plan), the
/// members no layout object owns, and whether a value nests too deeply.
struct Held<'de> {
    plan: &'static Plan,
    slots: Vec<Option<Kept<'de>>>,
    /// (object number, name, value) of each member an object does not own,
    /// the last value of a name given twice.
    extras: Vec<(usize, String, Value)>,
    deep: bool,
}

impl Held<'_> {
    /// Whether the values layout object id, level levels deep (the
    /// envelope's own object 0), holds are within MAX_DEPTH, as
    /// json::within_depth judges a tree of them.
    fn within_depth(&self, id: usize, level: usize) -> bool {
        let o = &self.plan.objects[id];
        for (k, c) in self.slots[o.base..].iter().zip(&o.child) {
            let ok = match k {
                Some(Kept::Other(v)) => json::within_depth(v, level + 1),
                Some(Kept::Obj) if *c != NONE => self.within_depth(*c, level + 1),
                _ => true,
            };
            if !ok {
                return false;
            }
        }
        self.extras
            .iter()
            .all(|(x, _, v)| *x != id || json::within_depth(v, level + 1))
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TopKind {
    Object,
    Null,
    Other,
}

/// Reads the document's value: an object into the slots of layout object
/// 0; anything else is only noted (and read through, so the deserializer
/// judges its syntax).
struct Top<'t, 'de>(&'t mut Held<'de>);

impl<'de> serde::de::Visitor<'de> for Top<'_, 'de> {
    type Value = TopKind;
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, m: A) -> Result<TopKind, A::Error> {
        read_object(self.0, 0, 0, m)?;
        Ok(TopKind::Object)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut s: A) -> Result<TopKind, A::Error> {
        while let Some(v) = s.next_element::<Value>()? {
            if !json::within_depth(&v, 1) {
                self.0.deep = true;
            }
        }
        Ok(TopKind::Other)
    }
    fn visit_unit<E>(self) -> Result<TopKind, E> {
        Ok(TopKind::Null)
    }
    fn visit_none<E>(self) -> Result<TopKind, E> {
        Ok(TopKind::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<TopKind, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_bool<E>(self, _: bool) -> Result<TopKind, E> {
        Ok(TopKind::Other)
    }
    fn visit_i64<E>(self, _: i64) -> Result<TopKind, E> {
        Ok(TopKind::Other)
    }
    fn visit_u64<E>(self, _: u64) -> Result<TopKind, E> {
        Ok(TopKind::Other)
    }
    fn visit_f64<E>(self, _: f64) -> Result<TopKind, E> {
        Ok(TopKind::Other)
    }
    fn visit_str<E>(self, _: &str) -> Result<TopKind, E> {
        Ok(TopKind::Other)
    }
}

/// Reads a map as layout object id into its slots: a later occurrence of
/// the object replaces an earlier one, members and extra entries alike.
fn read_object<'de, A: serde::de::MapAccess<'de>>(
    t: &mut Held<'de>,
    id: usize,
    level: usize,
    mut m: A,
) -> Result<(), A::Error> {
    let plan = t.plan;
    let o = &plan.objects[id];
    for s in &mut t.slots[o.base..o.end] {
        *s = None;
    }
    t.extras.retain(|(x, _, _)| !(id..o.last).contains(x));
    while let Some(key) = m.next_key_seed(KeySeed(id))? {
        match key {
            Key::Owned(k) => {
                let child = o.child[k];
                let v = m.next_value_seed(MemberSeed { t, child, level })?;
                t.slots[o.base + k] = Some(v);
            }
            Key::Extra(name) => {
                let v: Value = m.next_value()?;
                match t.extras.iter_mut().find(|(x, n, _)| *x == id && *n == name) {
                    Some(e) => e.2 = v,
                    None => t.extras.push((id, name, v)),
                }
            }
        }
    }
    Ok(())
}

/// A member name: the position among the owned names, or an extra one.
enum Key {
    Owned(usize),
    Extra(String),
}

/// Reads a member name of layout object .0.
struct KeySeed(usize);

impl<'de> serde::de::DeserializeSeed<'de> for KeySeed {
    type Value = Key;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> serde::de::Visitor<'de> for KeySeed {
    type Value = Key;
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E>(self, s: &str) -> Result<Key, E> {
        Ok(match owned_index(self.0, s.as_bytes()) {
            Some(k) => Key::Owned(k),
            None => Key::Extra(s.to_owned()),
        })
    }
    fn visit_string<E>(self, s: String) -> Result<Key, E> {
        Ok(match owned_index(self.0, s.as_bytes()) {
            Some(k) => Key::Owned(k),
            None => Key::Extra(s),
        })
    }
}

/// Reads the value of a member the object owns: a string as it is (borrowed
/// when the deserializer lends it), a map into the slots of the layout
/// object child (when the member is one), anything else as a tree.
struct MemberSeed<'t, 'de> {
    t: &'t mut Held<'de>,
    child: usize,
    /// How many objects are around the member.
    level: usize,
}

impl<'de> serde::de::DeserializeSeed<'de> for MemberSeed<'_, 'de> {
    type Value = Kept<'de>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Kept<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for MemberSeed<'_, 'de> {
    type Value = Kept<'de>;
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Kept<'de>, E> {
        Ok(Kept::Str(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Kept<'de>, E> {
        Ok(Kept::Str(Cow::Owned(s.to_owned())))
    }
    fn visit_string<E>(self, s: String) -> Result<Kept<'de>, E> {
        Ok(Kept::Str(Cow::Owned(s)))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, m: A) -> Result<Kept<'de>, A::Error> {
        if self.child == NONE {
            let v = Value::deserialize(serde::de::value::MapAccessDeserializer::new(m))?;
            return Ok(Kept::Other(v));
        }
        read_object(self.t, self.child, self.level + 1, m)?;
        Ok(Kept::Obj)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, s: A) -> Result<Kept<'de>, A::Error> {
        let v = Value::deserialize(serde::de::value::SeqAccessDeserializer::new(s))?;
        Ok(Kept::Other(v))
    }
    fn visit_unit<E>(self) -> Result<Kept<'de>, E> {
        Ok(Kept::Other(Value::Null))
    }
    fn visit_none<E>(self) -> Result<Kept<'de>, E> {
        Ok(Kept::Other(Value::Null))
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Kept<'de>, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Kept<'de>, E> {
        Ok(Kept::Other(Value::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Kept<'de>, E> {
        Ok(Kept::Other(Value::from(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Kept<'de>, E> {
        Ok(Kept::Other(Value::from(v)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Kept<'de>, E> {
        Ok(Kept::Other(Value::from(v)))
    }
}

/// A value Deserialize has kept, as the layout reads it.
#[derive(Clone, Copy)]
struct Keeps<'t, 'de> {
    t: &'t Held<'de>,
    kept: &'t Kept<'de>,
    /// The number of the layout object the value is read as; NONE for a leaf.
    child: usize,
}

/// A layout object Deserialize has read: its slots.
struct KeptObject<'t, 'de> {
    t: &'t Held<'de>,
    id: usize,
}

impl<'t, 'de: 't> Node<'t> for Keeps<'t, 'de> {
    type Object = KeptObject<'t, 'de>;
    fn is_null(&self) -> bool {
        matches!(self.kept, Kept::Other(Value::Null))
    }
    fn object(&self, _: &'static Object) -> Option<KeptObject<'t, 'de>> {
        (matches!(self.kept, Kept::Obj) && self.child != NONE).then_some(KeptObject {
            t: self.t,
            id: self.child,
        })
    }
    fn str(&self) -> Option<Cow<'t, str>> {
        match self.kept {
            Kept::Str(s) => Some(Cow::Borrowed(&**s)),
            _ => None,
        }
    }
    fn value(&self) -> Cow<'t, Value> {
        match self.kept {
            Kept::Str(s) => Cow::Owned(Value::String(s.to_string())),
            Kept::Other(v) => Cow::Borrowed(v),
            // The layout reads its objects with object(), never as a value.
            Kept::Obj => Cow::Owned(Value::Null),
        }
    }
}

impl<'t, 'de: 't> Members<'t> for KeptObject<'t, 'de> {
    type Node = Keeps<'t, 'de>;
    fn get(&self, _: &str, index: usize) -> Option<Keeps<'t, 'de>> {
        let o = &self.t.plan.objects[self.id];
        self.t.slots[o.base + index].as_ref().map(|kept| Keeps {
            t: self.t,
            kept,
            child: o.child[index],
        })
    }
    fn extra(&self, _: &'static Object, mut f: impl FnMut(&str, Value)) {
        for (x, name, v) in &self.t.extras {
            if *x == self.id {
                f(name, v.clone());
            }
        }
    }
}
