//! The JSON codec: an interpreter of the contract's LAYOUT. Decoding
//! mirrors the Go package's decoder step by step, so a malformed envelope
//! fails at the same JSON path with the same category in every language;
//! encoding writes the layout's fields in order, then the extra entries
//! sorted by key. The same for every contract.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::ser::SerializeMap;
use serde_json::{Map, Value};

use crate::contract::lookup;
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

impl Envelope {
    /// Decodes an envelope from JSON text in the contract's wire layout.
    /// A kind, origin or other value this contract version does not know is
    /// kept as it is, members the contract does not name go to extra,
    /// values the layout does not carry come from the kind's classification;
    /// malformed input is a DecodeError with the JSON path and category the
    /// Go package reports. The text is read as Go reads it: each byte of
    /// invalid UTF-8 and each escape of a lone surrogate is U+FFFD, a
    /// member given twice counts with its last value.
    pub fn from_slice(data: &[u8]) -> Result<Envelope, DecodeError> {
        // The whole text is checked first, so a syntax error wins over any
        // other problem wherever it is; then the layout reads the members
        // where they lie, building no tree.
        let at = json::check(data)?;
        decode(Raw { data, at })
    }

    /// from_slice of a string.
    pub fn from_json(text: &str) -> Result<Envelope, DecodeError> {
        Envelope::from_slice(text.as_bytes())
    }

    /// Decodes an envelope from a JSON value (from_slice after parsing): a
    /// value nested deeper than MAX_DEPTH is a syntax error.
    pub fn from_value(v: &Value) -> Result<Envelope, DecodeError> {
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
            self.walk(&LAYOUT, 1, &mut sink)
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
    fn walk<S: Sink>(&self, o: &'static Object, level: usize, sink: &mut S) -> Result<(), S::Err> {
        for m in o.members {
            let leaf = match m {
                Member::Object(child) => {
                    sink.object(self, child, level + 1)?;
                    continue;
                }
                Member::Leaf(leaf) => leaf,
            };
            let c = || lookup(&self.kind);
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
                    let b = if leaf.source == Source::Retryable {
                        self.is_retryable()
                    } else {
                        self.work_may_have_run()
                    };
                    (!leaf.optional || b).then_some(Out::Bool(b))
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
                    self.encode_slot(leaf.slot, leaf.path, level)
                        .map_err(S::fail)?
                }
            };
            if let Some(v) = v {
                sink.member(leaf.name, &v)?;
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
                sink.member(name, &Out::Json(Cow::Borrowed(v)))?;
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
    fn member(&mut self, name: &str, v: &Out<'_>) -> Result<(), Self::Err>;
    /// A nested object of the layout: written unless it has no members
    /// and the layout does not require it.
    fn object(&mut self, e: &Envelope, o: &'static Object, level: usize) -> Result<(), Self::Err>;
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
}

impl Sink for Bytes<'_> {
    type Err = EncodeError;
    fn fail(e: EncodeError) -> EncodeError {
        e
    }
    fn member(&mut self, name: &str, v: &Out<'_>) -> Result<(), EncodeError> {
        self.name(name);
        v.write(self.b);
        Ok(())
    }
    fn object(
        &mut self,
        e: &Envelope,
        o: &'static Object,
        level: usize,
    ) -> Result<(), EncodeError> {
        let (mark, first) = (self.b.len(), self.first);
        self.name(o.name);
        self.b.push(b'{');
        let mut inner = Bytes {
            b: self.b,
            first: true,
        };
        e.walk(o, level, &mut inner)?;
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
    fn member(&mut self, _: &str, _: &Out<'_>) -> Result<(), EncodeError> {
        self.0 = true;
        Ok(())
    }
    fn object(
        &mut self,
        e: &Envelope,
        o: &'static Object,
        level: usize,
    ) -> Result<(), EncodeError> {
        if o.required || e.has_members(o, level)? {
            self.0 = true;
        }
        Ok(())
    }
}

impl Envelope {
    /// Whether the object of the layout has a member to write.
    fn has_members(&self, o: &'static Object, level: usize) -> Result<bool, EncodeError> {
        let mut any = Any(false);
        self.walk(o, level, &mut any)?;
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
    fn member(&mut self, name: &str, v: &Out<'_>) -> Result<(), M::Error> {
        self.0.serialize_entry(name, v)
    }
    fn object(&mut self, e: &Envelope, o: &'static Object, level: usize) -> Result<(), M::Error> {
        if !o.required && !e.has_members(o, level).map_err(Self::fail)? {
            return Ok(());
        }
        self.0.serialize_entry(o.name, &Nested { e, o, level })
    }
}

/// A nested object of the layout, serialized as walk finds it.
struct Nested<'a> {
    e: &'a Envelope,
    o: &'static Object,
    level: usize,
}

impl serde::Serialize for Nested<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = Entries(s.serialize_map(None)?);
        self.e.walk(self.o, self.level, &mut m)?;
        m.0.end()
    }
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
fn on_wire(o: &'static Object, s: Source) -> bool {
    o.members.iter().any(|m| match m {
        Member::Object(c) => on_wire(c, s),
        Member::Leaf(l) => l.source == s,
    })
}

/// Reads a JSON value as an envelope: the layout's objects in order, the
/// first problem met being the one the Go decoder reports. The value is a
/// tree (from_value, Deserialize) or a document's text, read where it lies
/// (from_slice): both go through the same steps.
fn decode<'a, N: Node<'a>>(v: N) -> Result<Envelope, DecodeError> {
    let mut e = Envelope::zero();
    let mut extra = BTreeMap::new();
    decode_object(&LAYOUT, v, &mut e, &mut extra)?;
    e.extra = extra;
    if !on_wire(&LAYOUT, Source::Version) {
        e.contract_version = crate::contract::version();
    }
    let c = lookup(&e.kind);
    if !on_wire(&LAYOUT, Source::Origin) {
        e.origin = c.origin.clone();
    }
    if !on_wire(&LAYOUT, Source::Action) {
        e.recovery.action = c.action.clone();
    }
    if !on_wire(&LAYOUT, Source::SameArguments) {
        e.recovery.same_arguments = c.same_arguments.clone();
    }
    if !on_wire(&LAYOUT, Source::Guidance) {
        e.recovery.guidance = c.guidance.to_owned();
    }
    if !on_wire(&LAYOUT, Source::SideEffects) {
        e.side_effects = c.side_effects.clone();
    }
    Ok(e)
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
    for m in o.members {
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
                for spelling in core::iter::once(&l.name).chain(l.aliases) {
                    if e.recovery.retry_after_ms.is_some() {
                        break;
                    }
                    match obj.get(spelling) {
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
        let x = match obj.get(name) {
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
    /// The value of the member named name (the last, if it is given twice).
    fn get(&self, name: &str) -> Option<Self::Node>;
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
    fn get(&self, name: &str) -> Option<&'a Value> {
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

/// A value in a document's text that json::check has accepted: the offset
/// of its first byte.
#[derive(Clone, Copy)]
struct Raw<'a> {
    data: &'a [u8],
    at: usize,
}

/// How many names of an object of the layout RawObject tracks without
/// allocating; an object that owns more allocates its table.
const OWNED_INLINE: usize = 32;

/// The members of an object in a document's text: for each name the layout's
/// object owns, where the value of its last occurrence starts (plus one; 0
/// when absent), and whether any member is not owned.
struct RawObject<'a> {
    data: &'a [u8],
    at: usize,
    o: &'static Object,
    inline: [usize; OWNED_INLINE],
    table: Vec<usize>,
    extra: bool,
}

impl<'a> Node<'a> for Raw<'a> {
    type Object = RawObject<'a>;
    fn is_null(&self) -> bool {
        self.data[self.at] == b'n'
    }
    fn object(&self, o: &'static Object) -> Option<RawObject<'a>> {
        if self.data[self.at] != b'{' {
            return None;
        }
        let mut r = RawObject {
            data: self.data,
            at: self.at,
            o,
            inline: [0; OWNED_INLINE],
            table: Vec::new(),
            extra: false,
        };
        if o.owned.len() > OWNED_INLINE {
            r.table = vec![0; o.owned.len()];
        }
        let mut extra = false;
        let table = if o.owned.len() > OWNED_INLINE {
            &mut r.table[..]
        } else {
            &mut r.inline[..]
        };
        json::members(self.data, self.at, |name, value| {
            match owned_index(o, name) {
                Some(i) => table[i] = value + 1,
                None => extra = true,
            }
        });
        r.extra = extra;
        Some(r)
    }
    fn str(&self) -> Option<Cow<'a, str>> {
        (self.data[self.at] == b'"').then(|| json::string_at(self.data, self.at))
    }
    fn value(&self) -> Cow<'a, Value> {
        Cow::Owned(json::value_at(self.data, self.at))
    }
}

/// The position among o's owned names of a member name as the document
/// spells it (escapes decoded, as Go reads a name).
fn owned_index(o: &'static Object, raw: &[u8]) -> Option<usize> {
    if raw.contains(&b'\\') || !raw.is_ascii() {
        let name = json::string_body(raw);
        return o.owned.iter().position(|n| *n == name);
    }
    o.owned.iter().position(|n| n.as_bytes() == raw)
}

impl<'a> Members<'a> for RawObject<'a> {
    type Node = Raw<'a>;
    fn get(&self, name: &str) -> Option<Raw<'a>> {
        let i = self.o.owned.iter().position(|n| *n == name)?;
        let table = if self.table.is_empty() {
            &self.inline[..]
        } else {
            &self.table[..]
        };
        match table[i] {
            0 => None,
            at => Some(Raw {
                data: self.data,
                at: at - 1,
            }),
        }
    }
    fn extra(&self, o: &'static Object, mut f: impl FnMut(&str, Value)) {
        if !self.extra {
            return;
        }
        json::members(self.data, self.at, |name, value| {
            if owned_index(o, name).is_none() {
                f(&json::string_body(name), json::value_at(self.data, value));
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
        self.walk(&LAYOUT, 1, &mut m)?;
        m.0.end()
    }
}

impl<'de> serde::Deserialize<'de> for Envelope {
    /// Deserializes an envelope in the contract's wire layout, with the
    /// checks and the problems of from_value (the message of the error is
    /// the DecodeError's). Text that is not valid UTF-8, or escapes a lone
    /// surrogate, is the deserializer's to judge (serde_json refuses it,
    /// as it refuses nesting of 128 levels): from_slice reads it as Go does.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Envelope::from_value(&v).map_err(serde::de::Error::custom)
    }
}
