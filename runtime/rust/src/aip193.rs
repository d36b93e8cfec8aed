//! The google.rpc mapping (AIP-193): an envelope as a google.rpc.Status
//! with an ErrorInfo and a RetryInfo, in its JSON form
//!
//! ```text
//! {"error":{"code":<HTTP status>,"message":...,"status":"<gRPC code name>","details":[ErrorInfo, RetryInfo]}}
//! ```
//!
//! and back, byte for byte as the Go package's aip193.go: every envelope
//! this crate writes comes back as it was; a foreign error becomes the best
//! envelope this contract gives it. The contract's side (the ErrorInfo
//! domain, the layout's leaves as the mapping reads them, the values the
//! layout does not carry, the kinds by reason) is printed into contract.rs.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::codec::{DecodeError, DecodeErrorCategory, DecodeOptions, EncodeError};
use crate::contract::{
    aip_off_wire, aip_set_off_wire, classification_of, kind_by_reason, AIP_LEAVES,
    ERROR_INFO_DOMAIN, RETRY,
};
use crate::envelope::Envelope;
use crate::json;

/// The detail types of the mapping, as "@type" names them.
const ERROR_INFO_TYPE: &str = "type.googleapis.com/google.rpc.ErrorInfo";
const RETRY_INFO_TYPE: &str = "type.googleapis.com/google.rpc.RetryInfo";

/// The longest retry hint a google.protobuf.Duration holds (315,576,000,000
/// seconds). A longer hint goes into RetryInfo as that maximum and into the
/// metadata, exactly, as META_RETRY_AFTER_MS.
const MAX_RETRY_DELAY_MS: i64 = 315_576_000_000_000;

/// The metadata keys the mapping gives the kind, the retry hint past a
/// Duration's range and the members the contract does not name; the other
/// keys are in AIP_LEAVES and aip_off_wire.
const META_KIND: &str = "kind";
const META_RETRY_AFTER_MS: &str = "retryAfterMs";
const META_EXTRA: &str = "extra";

/// google.rpc.Code's codes by number (index), each with the HTTP status
/// code.proto documents for it.
const GRPC_CODES: [(&str, u16); 17] = [
    ("OK", 200),
    ("CANCELLED", 499),
    ("UNKNOWN", 500),
    ("INVALID_ARGUMENT", 400),
    ("DEADLINE_EXCEEDED", 504),
    ("NOT_FOUND", 404),
    ("ALREADY_EXISTS", 409),
    ("PERMISSION_DENIED", 403),
    ("RESOURCE_EXHAUSTED", 429),
    ("FAILED_PRECONDITION", 400),
    ("ABORTED", 409),
    ("OUT_OF_RANGE", 400),
    ("UNIMPLEMENTED", 501),
    ("INTERNAL", 500),
    ("UNAVAILABLE", 503),
    ("DATA_LOSS", 500),
    ("UNAUTHENTICATED", 401),
];

/// RpcStatus is the google.rpc.Status an envelope maps to, field by field:
/// what to_aip193 writes as JSON, and what a gRPC library's Status is built
/// from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RpcStatus {
    /// AIP-193's "code": the kind's HTTP status; 0 when unknown (a status
    /// read from gRPC, which carries none, or one that is no error status).
    pub http_status: u16,
    /// The google.rpc.Code number; -1 for a status name that is none.
    pub code: i32,
    /// The code's name ("NOT_FOUND").
    pub status: String,
    /// The envelope's message.
    pub message: String,
    /// The ErrorInfo's reason; empty without an ErrorInfo.
    pub reason: String,
    /// The ErrorInfo's domain; empty without an ErrorInfo.
    pub domain: String,
    /// The ErrorInfo's metadata, sorted by key.
    pub metadata: BTreeMap<String, String>,
    /// The RetryInfo's retry_delay; None without a RetryInfo.
    pub retry_delay: Option<RpcDuration>,
}

/// RpcDuration is a google.protobuf.Duration. Display writes its JSON form:
/// seconds with 0, 3, 6 or 9 fractional digits and an "s" ("1.500s", "2s").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RpcDuration {
    /// Whole seconds.
    pub seconds: i64,
    /// The nanoseconds past them, with the seconds' sign.
    pub nanos: i32,
}

/// Where an AipLeaf's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// Which variants a crate reads depends on its contract.
#[allow(dead_code)]
pub(crate) enum AipSource {
    /// The metadata entry named key.
    Meta,
    /// The metadata's kind.
    Kind,
    /// The status's message.
    Message,
    /// The retry hint.
    Retry,
    /// The layout constant raw.
    Const,
}

/// One leaf of the layout as the mapping reads an envelope back: where it
/// goes on the wire and where its value comes from.
#[derive(Debug)]
pub(crate) struct AipLeaf {
    /// The leaf's dotted wire path.
    pub path: &'static str,
    /// Where its value comes from.
    pub src: AipSource,
    /// The metadata key of a Meta leaf.
    pub key: &'static str,
    /// True when a Meta leaf's value is the text itself rather than compact JSON.
    pub text: bool,
    /// The JSON value of a Const leaf.
    pub raw: &'static str,
}

/// The number of the code named name; -1 for a name that is none.
fn grpc_code_number(name: &str) -> i32 {
    GRPC_CODES
        .iter()
        .position(|c| c.0 == name)
        .map_or(-1, |i| i as i32)
}

/// The ErrorInfo reason of a kind: its words upper-cased and joined with
/// "_", "KIND" put before a result shorter than 3 or not starting with a
/// letter, at most 63 characters.
pub(crate) fn reason(kind: &str) -> String {
    let k = kind.as_bytes();
    let mut b: Vec<u8> = Vec::with_capacity(k.len() + 8);
    let mut word = 0;
    for i in 0..k.len() {
        let c = k[i];
        if !c.is_ascii_alphanumeric() {
            word = 0;
            continue;
        }
        if c.is_ascii_uppercase() && word > 0 {
            let prev = k[i - 1];
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || prev.is_ascii_uppercase() && i + 1 < k.len() && k[i + 1].is_ascii_lowercase()
            {
                word = 0;
            }
        }
        if word == 0 && !b.is_empty() {
            b.push(b'_');
        }
        b.push(c.to_ascii_uppercase());
        word += 1;
    }
    // Only ASCII letters, digits and "_" were pushed.
    let mut r = String::from_utf8(b).unwrap_or_default();
    if r.len() < 3 || !r.as_bytes()[0].is_ascii_uppercase() {
        r = if r.is_empty() {
            "KIND".to_owned()
        } else {
            format!("KIND_{r}")
        };
    }
    if r.len() > 63 {
        r.truncate(63);
        while r.ends_with('_') {
            r.pop();
        }
    }
    r
}

/// The raw JSON of the member at the dotted path of an encoded envelope.
fn raw_at<'a>(wire: &'a [u8], path: &str) -> Option<&'a [u8]> {
    let mut cur = wire;
    for name in path.split('.') {
        let members = crate::surfaces::top_members(cur)?;
        cur = members.into_iter().rev().find(|(n, _)| n == name)?.1;
    }
    Some(cur)
}

impl Envelope {
    /// The google.rpc.Status of the envelope: the kind's HTTP status and
    /// gRPC code, the message, an ErrorInfo (reason from the kind, domain
    /// ERROR_INFO_DOMAIN, metadata holding the kind verbatim and every value
    /// of the envelope AIP-193 has no field for) and, with a retry hint, a
    /// RetryInfo. It fails when the envelope does not encode (to_json).
    pub fn to_rpc_status(&self) -> Result<RpcStatus, EncodeError> {
        let mut wire = Vec::with_capacity(512);
        self.append_json(&mut wire)?;
        let cl = classification_of(&self.kind);
        let mut meta = BTreeMap::new();
        meta.insert(META_KIND.to_owned(), self.kind.as_str().to_owned());
        for lf in AIP_LEAVES.iter().filter(|lf| lf.src == AipSource::Meta) {
            let Some(raw) = raw_at(&wire, lf.path) else {
                continue;
            };
            let v = match json::parse(raw) {
                Ok(Value::String(s)) if lf.text => s,
                _ => String::from_utf8_lossy(raw).into_owned(),
            };
            meta.insert(lf.key.to_owned(), v);
        }
        aip_off_wire(self, &mut meta);
        if !self.extra.is_empty() {
            meta.insert(
                META_EXTRA.to_owned(),
                json::extra_object(&self.extra).unwrap_or_else(|| "{}".to_owned()),
            );
        }
        let mut retry_delay = None;
        if let Some(ms) = self.recovery.retry_after_ms.filter(|ms| *ms >= 0) {
            let d = ms.min(MAX_RETRY_DELAY_MS);
            retry_delay = Some(RpcDuration {
                seconds: d / 1000,
                nanos: (d % 1000) as i32 * 1_000_000,
            });
            if ms > MAX_RETRY_DELAY_MS {
                meta.insert(META_RETRY_AFTER_MS.to_owned(), ms.to_string());
            }
        }
        Ok(RpcStatus {
            http_status: cl.http_status,
            code: cl.grpc_code,
            status: cl.grpc_status.to_owned(),
            message: self.message.clone(),
            reason: self.kind.reason().into_owned(),
            domain: ERROR_INFO_DOMAIN.to_owned(),
            metadata: meta,
            retry_delay,
        })
    }

    /// The envelope as an AIP-193 JSON error:
    /// `{"error":{"code","message","status","details":[ErrorInfo, RetryInfo]}}`,
    /// members in that order, the ErrorInfo's metadata sorted by key,
    /// strings escaped as the envelope's encoder escapes them: the bytes
    /// the Go package's AIP193 writes. from_aip193 reads it back into the
    /// same envelope.
    pub fn to_aip193(&self) -> Result<String, EncodeError> {
        Ok(self.to_rpc_status()?.to_aip193())
    }

    /// Reads an AIP-193 JSON error into an envelope (see from_rpc_status).
    /// It fails only when data is not a JSON object whose "error" member is
    /// an object; every member inside that is of the wrong type, and every
    /// detail that is not an object with a known "@type" and well-typed
    /// members, is ignored. A document longer than MAX_DOCUMENT_BYTES is a
    /// syntax error, found before it is read; from_aip193_with reads longer
    /// ones.
    pub fn from_aip193(data: &[u8]) -> Result<Envelope, DecodeError> {
        Envelope::from_aip193_with(data, DecodeOptions::default())
    }

    /// from_aip193 within the size limit of opts.
    pub fn from_aip193_with(data: &[u8], opts: DecodeOptions) -> Result<Envelope, DecodeError> {
        Ok(Envelope::from_rpc_status(&RpcStatus::from_aip193_with(
            data, opts,
        )?))
    }

    /// Reads a google.rpc.Status into an envelope.
    ///
    /// One to_rpc_status wrote (its ErrorInfo's domain is ERROR_INFO_DOMAIN
    /// and its metadata has a kind) comes back as the envelope it was: the
    /// metadata's values are put where the layout carries them and decoded
    /// as an envelope, the retry hint taken from retryAfterMs or RetryInfo,
    /// the values the layout does not carry and the extra members set from
    /// the metadata. When any of that fails the status is read as a foreign
    /// one.
    ///
    /// A foreign status gets the kind its reason names when its domain is
    /// ERROR_INFO_DOMAIN, else the kind a response with its HTTP status and
    /// message is read as (read_http's reading of a body without an
    /// envelope); the HTTP status is http_status when it is an error status
    /// (400-599), else the one google.rpc.Code documents for the code (code,
    /// else status), else 500. The message is "HTTP \<status\> \<status
    /// text\>: \<message\>"; the retry hint is RetryInfo's delay in whole
    /// milliseconds, rounded up, at most RETRY.max_hint_ms, none when
    /// negative.
    pub fn from_rpc_status(s: &RpcStatus) -> Envelope {
        if s.domain == ERROR_INFO_DOMAIN && s.metadata.get(META_KIND).is_some_and(|k| !k.is_empty())
        {
            if let Some(e) = from_own_rpc_status(s) {
                return e;
            }
        }
        let mut status = s.http_status;
        if !(400..=599).contains(&status) {
            status = 500;
            let mut n = s.code;
            if n <= 0 || n as usize >= GRPC_CODES.len() {
                n = grpc_code_number(&s.status);
            }
            if n > 0 && (n as usize) < GRPC_CODES.len() {
                status = GRPC_CODES[n as usize].1;
            }
        }
        let mut e = match kind_by_reason(&s.reason) {
            Some(kind) if s.domain == ERROR_INFO_DOMAIN => {
                let text = crate::surfaces::http_text(s.message.as_bytes());
                let message = crate::surfaces::upstream_message(status, &text);
                Envelope::init(kind, &message, true)
            }
            _ => crate::surfaces::classify_http(status, s.message.as_bytes()),
        };
        if let Some(ms) = s.retry_delay.and_then(|d| d.ms()) {
            e.recovery.retry_after_ms = Some(ms.min(RETRY.max_hint_ms));
        }
        e
    }
}

/// Reads back what to_rpc_status wrote; None when the metadata does not
/// make an envelope.
fn from_own_rpc_status(s: &RpcStatus) -> Option<Envelope> {
    let meta = &s.metadata;
    let retry = match meta.get(META_RETRY_AFTER_MS) {
        Some(v) => v.clone(),
        None => s
            .retry_delay
            .and_then(|d| d.ms())
            .map_or_else(String::new, |ms| ms.to_string()),
    };
    let mut root = WireObject::default();
    for lf in AIP_LEAVES.iter() {
        let raw: Vec<u8> = match lf.src {
            AipSource::Kind => quoted(meta.get(META_KIND).map_or("", |s| s)),
            AipSource::Message => quoted(&s.message),
            AipSource::Retry if retry.is_empty() => continue,
            AipSource::Retry => retry.as_bytes().to_vec(),
            AipSource::Const => lf.raw.as_bytes().to_vec(),
            AipSource::Meta => match meta.get(lf.key) {
                None => continue,
                Some(v) if lf.text => quoted(v),
                Some(v) => v.as_bytes().to_vec(),
            },
        };
        // A value must be one JSON value and nothing more: a metadata text
        // such as `1,"kind":"x"` would otherwise add members.
        json::check(&raw).ok()?;
        root.set(lf.path, raw);
    }
    let mut doc = Vec::new();
    root.write(&mut doc);
    // The status was within the limit; the document built from it is read
    // whatever its size.
    let mut e = Envelope::from_slice_with(&doc, DecodeOptions { max_bytes: None }).ok()?;
    if !aip_set_off_wire(&mut e, meta) {
        return None;
    }
    if let Some(v) = meta.get(META_EXTRA) {
        let Ok(Value::Object(extra)) = json::parse(v.as_bytes()) else {
            return None;
        };
        // Each entry goes where its key places it and must stay within the
        // limits there, as the encoder checks it: an envelope read back can
        // always be encoded again.
        if !extra.iter().all(|(k, v)| crate::codec::placed_within(k, v)) {
            return None;
        }
        // Their strings are the sender's: sanitized, as from_slice sanitizes extra members.
        e.extra.extend(extra.into_iter().map(|(k, mut v)| {
            crate::codec::sanitize_json_value(&mut v, 0);
            (k, v)
        }));
    }
    Some(e)
}

/// s as a JSON string.
fn quoted(s: &str) -> Vec<u8> {
    let mut b = Vec::with_capacity(s.len() + 2);
    json::write_str(&mut b, s);
    b
}

/// A JSON object built from members set by dotted path, in the order they
/// are first set.
#[derive(Default)]
struct WireObject {
    members: Vec<(String, WireValue)>,
}

/// A member of a WireObject: a raw JSON value or a nested object.
enum WireValue {
    Raw(Vec<u8>),
    Object(WireObject),
}

impl WireObject {
    fn set(&mut self, path: &str, raw: Vec<u8>) {
        let (name, rest) = match path.split_once('.') {
            Some((n, r)) => (n, Some(r)),
            None => (path, None),
        };
        if let Some((_, v)) = self.members.iter_mut().find(|(n, _)| n == name) {
            if let (Some(rest), WireValue::Object(o)) = (rest, v) {
                o.set(rest, raw);
            }
            return;
        }
        let v = match rest {
            None => WireValue::Raw(raw),
            Some(rest) => {
                let mut child = WireObject::default();
                child.set(rest, raw);
                WireValue::Object(child)
            }
        };
        self.members.push((name.to_owned(), v));
    }

    fn write(&self, b: &mut Vec<u8>) {
        b.push(b'{');
        for (i, (name, v)) in self.members.iter().enumerate() {
            if i > 0 {
                b.push(b',');
            }
            json::write_str(b, name);
            b.push(b':');
            match v {
                WireValue::Raw(raw) => b.extend_from_slice(raw),
                WireValue::Object(o) => o.write(b),
            }
        }
        b.push(b'}');
    }
}

impl RpcStatus {
    /// The AIP-193 JSON form of the status (see Envelope::to_aip193).
    pub fn to_aip193(&self) -> String {
        let mut b = Vec::with_capacity(256 + self.message.len());
        b.extend_from_slice(b"{\"error\":{\"code\":");
        json::write_i64(&mut b, i64::from(self.http_status));
        b.extend_from_slice(b",\"message\":");
        json::write_str(&mut b, &self.message);
        b.extend_from_slice(b",\"status\":");
        json::write_str(&mut b, &self.status);
        b.extend_from_slice(b",\"details\":[{\"@type\":\"");
        b.extend_from_slice(ERROR_INFO_TYPE.as_bytes());
        b.extend_from_slice(b"\",\"reason\":");
        json::write_str(&mut b, &self.reason);
        b.extend_from_slice(b",\"domain\":");
        json::write_str(&mut b, &self.domain);
        b.extend_from_slice(b",\"metadata\":{");
        for (i, (k, v)) in self.metadata.iter().enumerate() {
            if i > 0 {
                b.push(b',');
            }
            json::write_str(&mut b, k);
            b.push(b':');
            json::write_str(&mut b, v);
        }
        b.extend_from_slice(b"}}");
        if let Some(d) = self.retry_delay {
            b.extend_from_slice(b",{\"@type\":\"");
            b.extend_from_slice(RETRY_INFO_TYPE.as_bytes());
            b.extend_from_slice(b"\",\"retryDelay\":");
            json::write_str(&mut b, &d.to_string());
            b.push(b'}');
        }
        b.extend_from_slice(b"]}}");
        // The writer writes only valid UTF-8.
        String::from_utf8_lossy(&b).into_owned()
    }

    /// Reads the google.rpc.Status of an AIP-193 JSON error: the first
    /// ErrorInfo and the first RetryInfo of its details. It fails only
    /// when data is not a JSON object whose "error" member is an object, or
    /// longer than MAX_DOCUMENT_BYTES (from_aip193_with reads longer ones).
    pub fn from_aip193(data: &[u8]) -> Result<RpcStatus, DecodeError> {
        RpcStatus::from_aip193_with(data, DecodeOptions::default())
    }

    /// from_aip193 within the size limit of opts.
    pub fn from_aip193_with(data: &[u8], opts: DecodeOptions) -> Result<RpcStatus, DecodeError> {
        opts.check(data)?;
        let top = crate::surfaces::object(json::parse(data)?)?;
        let obj = match top.get("error") {
            None => {
                return Err(decode_err(
                    "error",
                    "is required",
                    DecodeErrorCategory::Missing,
                ))
            }
            Some(Value::Object(o)) => o,
            Some(Value::Null) => {
                return Err(decode_err(
                    "error",
                    "must be a JSON object, not null",
                    DecodeErrorCategory::Type,
                ))
            }
            Some(_) => {
                return Err(decode_err(
                    "error",
                    "must be a JSON object",
                    DecodeErrorCategory::Type,
                ))
            }
        };
        let text = |m: &Map<String, Value>, k: &str| -> Option<String> {
            m.get(k).and_then(Value::as_str).map(str::to_owned)
        };
        let mut s = RpcStatus::default();
        // The code is read by value, as the envelope's integers are (404.0
        // is 404); it counts only when it is an error status.
        if let Some(code) = obj.get("code").and_then(Value::as_f64) {
            if (400.0..=599.0).contains(&code) && code.fract() == 0.0 {
                s.http_status = code as u16;
            }
        }
        s.message = text(obj, "message").unwrap_or_default();
        s.status = text(obj, "status").unwrap_or_default();
        s.code = grpc_code_number(&s.status);
        let details = obj.get("details").and_then(Value::as_array);
        let (mut seen_info, mut seen_retry) = (false, false);
        for d in details.into_iter().flatten() {
            let Some(detail) = d.as_object() else {
                continue;
            };
            match detail.get("@type").and_then(Value::as_str) {
                Some(ERROR_INFO_TYPE) if !seen_info => {
                    seen_info = true;
                    s.reason = text(detail, "reason").unwrap_or_default();
                    s.domain = text(detail, "domain").unwrap_or_default();
                    if let Some(meta) = detail.get("metadata").and_then(Value::as_object) {
                        for (k, v) in meta {
                            if let Some(v) = v.as_str() {
                                s.metadata.insert(k.clone(), v.to_owned());
                            }
                        }
                    }
                }
                Some(RETRY_INFO_TYPE) if !seen_retry => {
                    seen_retry = true;
                    // The proto field name, which protobuf's JSON readers
                    // accept as well, counts when the JSON name is absent.
                    s.retry_delay = detail
                        .get("retryDelay")
                        .or_else(|| detail.get("retry_delay"))
                        .and_then(Value::as_str)
                        .and_then(RpcDuration::parse);
                }
                _ => {}
            }
        }
        Ok(s)
    }
}

fn decode_err(path: &str, problem: &str, category: DecodeErrorCategory) -> DecodeError {
    DecodeError {
        path: path.to_owned(),
        problem: problem.to_owned(),
        category,
    }
}

impl RpcDuration {
    /// Reads a Duration's JSON form: an optional "-", whole seconds (at
    /// most 315,576,000,000), optionally "." and 1 to 9 digits, and "s".
    /// None for anything else.
    pub fn parse(s: &str) -> Option<RpcDuration> {
        let body = s.strip_suffix('s')?;
        let (neg, body) = match body.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, body),
        };
        let (whole, frac) = match body.split_once('.') {
            Some((w, f)) => (w, Some(f)),
            None => (body, None),
        };
        let digits = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
        if whole.is_empty() || whole.len() > 12 || !digits(whole) {
            return None;
        }
        if let Some(f) = frac {
            if f.is_empty() || f.len() > 9 || !digits(f) {
                return None;
            }
        }
        let mut seconds: i64 = whole.parse().ok()?;
        if seconds > MAX_RETRY_DELAY_MS / 1000 {
            return None;
        }
        let mut nanos: i32 = match frac {
            Some(f) => format!("{f:0<9}").parse().ok()?,
            None => 0,
        };
        if neg {
            seconds = -seconds;
            nanos = -nanos;
        }
        Some(RpcDuration { seconds, nanos })
    }

    /// The duration in whole milliseconds, rounded up (a client never
    /// retries early); None for a negative one.
    pub fn ms(self) -> Option<i64> {
        if self.seconds < 0 || self.nanos < 0 {
            return None;
        }
        Some(self.seconds * 1000 + (i64::from(self.nanos) + 999_999) / 1_000_000)
    }
}

impl core::fmt::Display for RpcDuration {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let neg = self.seconds < 0 || self.nanos < 0;
        let sec = self.seconds.unsigned_abs();
        let nanos = i64::from(self.nanos).unsigned_abs();
        if neg {
            f.write_str("-")?;
        }
        write!(f, "{sec}")?;
        if nanos == 0 {
        } else if nanos % 1_000_000 == 0 {
            write!(f, ".{:03}", nanos / 1_000_000)?;
        } else if nanos % 1000 == 0 {
            write!(f, ".{:06}", nanos / 1000)?;
        } else {
            write!(f, ".{nanos:09}")?;
        }
        f.write_str("s")
    }
}
