//! The JSON reader and writer the codec shares with the surfaces: a reader
//! that accepts what Go's encoding/json accepts within the limits every
//! decoder of the contract shares (MAX_DEPTH, numbers a 64-bit float holds)
//! and reads strings as Go does (each byte of invalid UTF-8 and each escape
//! of a lone surrogate is U+FFFD), and a writer that writes what the Go
//! encoder writes (compact, U+2028 and U+2029 escaped, object members
//! sorted where Go sorts a map's).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::{Map, Number, Value};

use crate::codec::{DecodeError, DecodeErrorCategory, MAX_DEPTH};

/// Reads one JSON document into a value. Text that is not JSON, or is past
/// a shared limit, is a DecodeError with an empty path and category syntax;
/// a syntax error wins over a limit wherever it is, as in the Go decoder.
// The codec reads its documents in place (check, members, value_at);
// parse is for code that wants a whole document as a tree.
#[allow(dead_code)]
pub(crate) fn parse(data: &[u8]) -> Result<Value, DecodeError> {
    let at = check(data)?;
    Ok(value_at(data, at))
}

/// The value at data[at] of a document check has accepted, as a tree.
pub(crate) fn value_at(data: &[u8], at: usize) -> Value {
    Builder { data, i: at }.value()
}

/// Hands f each member of the object at data[at] of a document check has
/// accepted, in order: the name's text between its quotes, as written,
/// and the offset of its value.
pub(crate) fn members(data: &[u8], at: usize, mut f: impl FnMut(&[u8], usize)) {
    let mut i = skip_ws(data, at + 1);
    if data[i] == b'}' {
        return;
    }
    loop {
        i = skip_ws(data, i);
        let end = string_end(data, i).unwrap_or(data.len());
        let name = &data[i + 1..end - 1];
        i = skip_ws(data, end) + 1; // past ':'
        i = skip_ws(data, i);
        f(name, i);
        i = skip_ws(data, value_end(data, i));
        if data[i] == b'}' {
            return;
        }
        i += 1; // past ','
    }
}

#[inline]
pub(crate) fn skip_ws(data: &[u8], mut i: usize) -> usize {
    while i < data.len() && matches!(data[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// The offset after the value at data[i] of a document check has accepted.
fn value_end(data: &[u8], mut i: usize) -> usize {
    match data[i] {
        b'"' => string_end(data, i).unwrap_or(data.len()),
        b'{' | b'[' => {
            let mut depth = 0usize;
            loop {
                match data[i] {
                    b'"' => {
                        i = string_end(data, i).unwrap_or(data.len());
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        b't' | b'n' => i + 4,
        b'f' => i + 5,
        _ => number_end(data, i).map_or(data.len(), |(end, _)| end),
    }
}

pub(crate) fn syntax(problem: String) -> DecodeError {
    DecodeError {
        path: String::new(),
        problem,
        category: DecodeErrorCategory::Syntax,
    }
}

const PAST_FLOAT: &str = "holds a number past the range of a 64-bit float";

/// Nest is check's stack of open arrays and objects: a bit per level
/// (set for an object) up to INLINE levels, a vector past them, so that a
/// document nested within the limits is checked without allocating.
struct Nest {
    len: usize,
    bits: [u64; NEST_WORDS],
    more: Vec<u8>,
}

const NEST_WORDS: usize = 4;
const INLINE: usize = NEST_WORDS * 64;

impl Nest {
    fn push(&mut self, c: u8) {
        if self.len < INLINE {
            let (w, b) = (self.len / 64, self.len % 64);
            if c == b'{' {
                self.bits[w] |= 1 << b;
            } else {
                self.bits[w] &= !(1 << b);
            }
        } else {
            self.more.push(c);
        }
        self.len += 1;
    }

    fn pop(&mut self) {
        if self.len > INLINE {
            self.more.pop();
        }
        self.len = self.len.saturating_sub(1);
    }

    fn len(&self) -> usize {
        self.len
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn last(&self) -> Option<&u8> {
        match self.len {
            0 => None,
            n if n <= INLINE => {
                let (w, b) = ((n - 1) / 64, (n - 1) % 64);
                Some(if self.bits[w] >> b & 1 == 1 {
                    &b'{'
                } else {
                    &b'['
                })
            }
            _ => self.more.last(),
        }
    }
}

/// A syntax error at offset i: a character that cannot stand there.
pub(crate) fn bad(i: usize) -> DecodeError {
    syntax(format!(
        "is not valid JSON: invalid character at offset {i}"
    ))
}

/// A syntax error: the text ends at offset i, before the document does.
pub(crate) fn eof(i: usize) -> DecodeError {
    syntax(format!(
        "is not valid JSON: unexpected end of JSON input at offset {i}"
    ))
}

/// The first problem past the syntax that a document has, in document
/// order: a value nested deeper than MAX_DEPTH, or a number past the range
/// of a 64-bit float. It is reported only when the whole text is JSON.
pub(crate) type Limit = Option<String>;

/// Notes that the array or object opening at offset i is depth levels
/// deep, when that is past MAX_DEPTH and no limit was met before.
#[inline]
pub(crate) fn note_depth(limit: &mut Limit, depth: usize, i: usize) {
    if depth > MAX_DEPTH && limit.is_none() {
        *limit = Some(format!(
            "nests arrays and objects more than {MAX_DEPTH} levels deep at offset {i}"
        ));
    }
}

/// check validates the whole document without recursion, so no input can
/// exhaust the stack: the syntax first, then the limits. It returns the
/// offset where the document's value starts.
pub(crate) fn check(data: &[u8]) -> Result<usize, DecodeError> {
    let mut limit = None;
    let first = skip_ws(data, 0);
    if first >= data.len() {
        return Err(eof(first));
    }
    let end = skip_ws(data, skip_value(data, first, 0, &mut limit)?);
    if end < data.len() {
        return Err(bad(end));
    }
    match limit {
        Some(l) => Err(syntax(l)),
        None => Ok(first),
    }
}

/// Checks the value starting at data[i] (not white space, i < data.len())
/// with depth arrays and objects around it, and returns the offset after
/// it; the first limit it passes goes to limit. Syntax errors are worded
/// and placed as the Go decoder's. No recursion: nesting is a bit stack.
pub(crate) fn skip_value(
    data: &[u8],
    mut i: usize,
    depth: usize,
    limit: &mut Limit,
) -> Result<usize, DecodeError> {
    // A scalar needs no stack.
    match data[i] {
        b'{' | b'[' => {}
        _ => return skip_scalar(data, i, limit),
    }
    let mut stack = Nest {
        len: 0,
        bits: [0; NEST_WORDS],
        more: Vec::new(),
    };
    // expect: 0 a value, 1 a member name or '}', 2 ',' or a closer, 3 a
    // member name (after a comma), 4 a value or ']'.
    let mut expect = 0u8;
    loop {
        i = skip_ws(data, i);
        if i >= data.len() {
            return Err(eof(i));
        }
        let c = data[i];
        match expect {
            0 | 4 => {
                if expect == 4 && c == b']' {
                    stack.pop();
                    i += 1;
                    expect = 2;
                } else if c == b'{' || c == b'[' {
                    stack.push(c);
                    note_depth(limit, depth + stack.len(), i);
                    i += 1;
                    expect = if c == b'{' { 1 } else { 4 };
                    continue;
                } else {
                    i = skip_scalar(data, i, limit)?;
                    expect = 2;
                }
            }
            1 | 3 => {
                if expect == 1 && c == b'}' {
                    stack.pop();
                    i += 1;
                    expect = 2;
                } else {
                    i = skip_name(data, i)?;
                    expect = 0;
                    continue;
                }
            }
            _ => {
                match (c, stack.last()) {
                    (b',', Some(b'{')) => expect = 3,
                    (b',', Some(b'[')) => expect = 0,
                    (b'}', Some(b'{')) | (b']', Some(b'[')) => {
                        stack.pop();
                    }
                    _ => return Err(bad(i)),
                }
                i += 1;
            }
        }
        if expect == 2 && stack.is_empty() {
            return Ok(i);
        }
    }
}

/// Checks the string, number, true, false or null at data[i] and returns
/// the offset after it.
#[inline]
pub(crate) fn skip_scalar(data: &[u8], i: usize, limit: &mut Limit) -> Result<usize, DecodeError> {
    match data[i] {
        b'"' => string_end(data, i).ok_or_else(|| bad(i)),
        b'-' | b'0'..=b'9' => match number_end(data, i) {
            Some((end, huge)) => {
                if huge && limit.is_none() && parse_f64(&data[i..end]).is_infinite() {
                    *limit = Some(format!("{PAST_FLOAT} at offset {i}"));
                }
                Ok(end)
            }
            None => Err(bad(i)),
        },
        b't' if data[i..].starts_with(b"true") => Ok(i + 4),
        b'f' if data[i..].starts_with(b"false") => Ok(i + 5),
        b'n' if data[i..].starts_with(b"null") => Ok(i + 4),
        _ => Err(bad(i)),
    }
}

/// Checks the member name at data[i] and the colon after it, and returns
/// the offset past the colon.
#[inline]
pub(crate) fn skip_name(data: &[u8], i: usize) -> Result<usize, DecodeError> {
    if data[i] != b'"' {
        return Err(bad(i));
    }
    let end = skip_ws(data, string_end(data, i).ok_or_else(|| bad(i))?);
    if end >= data.len() || data[end] != b':' {
        return Err(bad(end));
    }
    Ok(end + 1)
}

/// string_end returns the offset after the string starting at i, or None
/// when it is not a valid JSON string (invalid UTF-8 is read, not refused).
#[inline]
pub(crate) fn string_end(data: &[u8], i: usize) -> Option<usize> {
    string_scan(data, i).map(|(end, _)| end)
}

/// string_scan is string_end that also tells whether the string holds an
/// escape (a backslash).
#[inline]
pub(crate) fn string_scan(data: &[u8], mut i: usize) -> Option<(usize, bool)> {
    let mut escaped = false;
    i += 1;
    while i < data.len() {
        // Eight bytes at a time past text that is neither a quote, a
        // backslash nor a control.
        while let Some(chunk) = data.get(i..i + 8) {
            let m = special(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
            if m != 0 {
                // The lowest byte flagged is the first that is special.
                i += (m.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        if i >= data.len() {
            break;
        }
        match data[i] {
            b'"' => return Some((i + 1, escaped)),
            b'\\' => {
                escaped = true;
                match data.get(i + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                    b'u' => {
                        hex4(data.get(i + 2..i + 6)?)?;
                        i += 6;
                    }
                    _ => return None,
                }
            }
            c if c < 0x20 => return None,
            _ => i += 1,
        }
    }
    None
}

/// Flags the high bit of each of the eight bytes of w (little-endian) that
/// is a quote, a backslash or below 0x20; 0 when there is none. A borrow
/// can flag a byte above a flagged one, never below, so the lowest flag is
/// exact.
#[inline]
fn special(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let below = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    below | zero(w ^ (ONES * b'"' as u64)) | zero(w ^ (ONES * b'\\' as u64))
}

/// number_end returns the offset after the number at i and whether it
/// needs a closer look at its range (an exponent, or more than 308 digits).
fn number_end(data: &[u8], mut i: usize) -> Option<(usize, bool)> {
    if data[i] == b'-' {
        i += 1;
    }
    let digits = i;
    match data.get(i)? {
        b'0' => i += 1,
        b'1'..=b'9' => {
            while i < data.len() && data[i].is_ascii_digit() {
                i += 1;
            }
        }
        _ => return None,
    }
    let mut huge = i - digits > 308;
    if i < data.len() && data[i] == b'.' {
        i += 1;
        if !data.get(i)?.is_ascii_digit() {
            return None;
        }
        while i < data.len() && data[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i < data.len() && (data[i] == b'e' || data[i] == b'E') {
        huge = true;
        i += 1;
        if i < data.len() && (data[i] == b'+' || data[i] == b'-') {
            i += 1;
        }
        if !data.get(i)?.is_ascii_digit() {
            return None;
        }
        while i < data.len() && data[i].is_ascii_digit() {
            i += 1;
        }
    }
    Some((i, huge))
}

fn parse_f64(text: &[u8]) -> f64 {
    // The text is a valid JSON number, so it is ASCII and Rust's float
    // syntax accepts it.
    core::str::from_utf8(text)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(f64::NAN)
}

fn hex4(b: &[u8]) -> Option<u32> {
    let mut r = 0u32;
    for &c in b.iter().take(4) {
        r = r * 16 + (c as char).to_digit(16)?;
    }
    Some(r)
}

/// Builder reads a document check has accepted.
struct Builder<'a> {
    data: &'a [u8],
    i: usize,
}

impl Builder<'_> {
    fn ws(&mut self) {
        while self.i < self.data.len() && matches!(self.data[self.i], b' ' | b'\t' | b'\n' | b'\r')
        {
            self.i += 1;
        }
    }

    fn value(&mut self) -> Value {
        match self.data[self.i] {
            b'{' => {
                self.i += 1;
                let mut m = Map::new();
                self.ws();
                if self.data[self.i] == b'}' {
                    self.i += 1;
                    return Value::Object(m);
                }
                loop {
                    self.ws();
                    let k = self.string();
                    self.ws();
                    self.i += 1; // ':'
                    self.ws();
                    let v = self.value();
                    // A member given twice counts once, with its last value.
                    m.insert(k, v);
                    self.ws();
                    let c = self.data[self.i];
                    self.i += 1;
                    if c == b'}' {
                        return Value::Object(m);
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut a = Vec::new();
                self.ws();
                if self.data[self.i] == b']' {
                    self.i += 1;
                    return Value::Array(a);
                }
                loop {
                    self.ws();
                    a.push(self.value());
                    self.ws();
                    let c = self.data[self.i];
                    self.i += 1;
                    if c == b']' {
                        // Without the room growing left: an array of one
                        // value nested at every level would otherwise
                        // hold four (issue 28: 62 times its text, now 16).
                        a.shrink_to_fit();
                        return Value::Array(a);
                    }
                }
            }
            b'"' => Value::String(self.string()),
            b't' => {
                self.i += 4;
                Value::Bool(true)
            }
            b'f' => {
                self.i += 5;
                Value::Bool(false)
            }
            b'n' => {
                self.i += 4;
                Value::Null
            }
            _ => {
                let start = self.i;
                let (end, _) = number_end(self.data, start).unwrap_or((self.data.len(), false));
                self.i = end;
                number(&self.data[start..end])
            }
        }
    }

    /// string reads a string as Go does (see string_at).
    fn string(&mut self) -> String {
        let s = string_at(self.data, self.i);
        self.i = string_end(self.data, self.i).unwrap_or(self.data.len());
        s.into_owned()
    }
}

/// The string whose opening quote is at data[at], read as Go reads it:
/// escapes decoded, each escape of a lone surrogate and each byte of
/// invalid UTF-8 read as U+FFFD. Text that needs none of that is borrowed.
pub(crate) fn string_at(data: &[u8], at: usize) -> Cow<'_, str> {
    let end = string_end(data, at).unwrap_or(data.len()) - 1;
    string_body(&data[at + 1..end])
}

/// A string's text between its quotes, read as string_at reads it.
pub(crate) fn string_body(body: &[u8]) -> Cow<'_, str> {
    if !body.contains(&b'\\') {
        if let Ok(s) = core::str::from_utf8(body) {
            return Cow::Borrowed(s);
        }
    }
    Cow::Owned(decode_body(body))
}

fn decode_body(body: &[u8]) -> String {
    {
        let mut out = String::with_capacity(body.len());
        let mut i = 0;
        while i < body.len() {
            let c = body[i];
            if c == b'\\' {
                let e = body[i + 1];
                i += 2;
                match e {
                    b'b' => out.push('\u{8}'),
                    b'f' => out.push('\u{c}'),
                    b'n' => out.push('\n'),
                    b'r' => out.push('\r'),
                    b't' => out.push('\t'),
                    b'u' => {
                        let r = hex4(&body[i..i + 4]).unwrap_or(0xFFFD);
                        i += 4;
                        if (0xD800..0xE000).contains(&r) {
                            // A pair when a valid low half follows; otherwise
                            // the escape alone stands for U+FFFD.
                            let low = if r < 0xDC00 && body.get(i..i + 2) == Some(b"\\u") {
                                hex4(&body[i + 2..i + 6]).filter(|l| (0xDC00..0xE000).contains(l))
                            } else {
                                None
                            };
                            match low {
                                Some(l) => {
                                    i += 6;
                                    out.push(
                                        char::from_u32(
                                            0x10000 + ((r - 0xD800) << 10) + (l - 0xDC00),
                                        )
                                        .unwrap_or('\u{FFFD}'),
                                    );
                                }
                                None => out.push('\u{FFFD}'),
                            }
                        } else {
                            out.push(char::from_u32(r).unwrap_or('\u{FFFD}'));
                        }
                    }
                    other => out.push(other as char),
                }
                continue;
            }
            let (ch, size) = decode_rune(&body[i..]);
            out.push(ch);
            i += size;
        }
        out
    }
}

/// decode_rune decodes the first character of b as Go's utf8.DecodeRune
/// does: an invalid sequence is U+FFFD of one byte.
fn decode_rune(b: &[u8]) -> (char, usize) {
    let c0 = b[0];
    if c0 < 0x80 {
        return (c0 as char, 1);
    }
    let (n, lo, hi) = match c0 {
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xF0 => (4, 0x90, 0xBF),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        _ => return ('\u{FFFD}', 1),
    };
    if b.len() < n || b[1] < lo || b[1] > hi || b[2..n].iter().any(|&c| !(0x80..=0xBF).contains(&c))
    {
        return ('\u{FFFD}', 1);
    }
    match core::str::from_utf8(&b[..n])
        .ok()
        .and_then(|s| s.chars().next())
    {
        Some(ch) => (ch, n),
        None => ('\u{FFFD}', 1),
    }
}

/// number is a JSON number as a value: an integer written as one is kept
/// exactly when 64 bits hold it, every other number as a 64-bit float.
fn number(text: &[u8]) -> Value {
    let s = core::str::from_utf8(text).unwrap_or("0");
    let integer = !s.contains(['.', 'e', 'E']);
    if integer {
        if let Ok(v) = s.parse::<i64>() {
            return Value::Number(v.into());
        }
        if let Ok(v) = s.parse::<u64>() {
            return Value::Number(v.into());
        }
    }
    Number::from_f64(parse_f64(text)).map_or(Value::Null, Value::Number)
}

/// Reports whether v nests arrays and objects no deeper than MAX_DEPTH
/// with level of them around it.
pub(crate) fn within_depth(v: &Value, level: usize) -> bool {
    match v {
        Value::Array(a) => level < MAX_DEPTH && a.iter().all(|x| within_depth(x, level + 1)),
        Value::Object(m) => level < MAX_DEPTH && m.values().all(|x| within_depth(x, level + 1)),
        _ => true,
    }
}

/// The compact JSON object of an envelope's extra entries, sorted by key,
/// unsanitized and unbounded, as the log form's extra and the AIP-193
/// metadata's extra write them. An entry nested past MAX_DEPTH, which JSON
/// readers refuse, is left out; None when no entry is left.
pub(crate) fn extra_object(extra: &BTreeMap<String, Value>) -> Option<String> {
    let mut b = vec![b'{'];
    for (k, v) in extra {
        if !within_depth(v, 1) {
            continue;
        }
        if b.len() > 1 {
            b.push(b',');
        }
        write_str(&mut b, k);
        b.push(b':');
        write_value(&mut b, v, false);
    }
    if b.len() == 1 {
        return None;
    }
    b.push(b'}');
    String::from_utf8(b).ok()
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The bytes write_str looks at: controls, the quote, the backslash, and
/// 0xE2, with which U+2028 and U+2029 start.
static NOTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[0xE2] = true;
    t
};

/// Flags the high bit of each of the eight bytes of w (little-endian) that
/// NOTE holds; the lowest flag is exact, as with special.
#[inline]
fn noted(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let x = w ^ (ONES * 0xE2);
    special(w) | (x.wrapping_sub(ONES) & !x & HIGH)
}

/// Appends s as a JSON string as the Go encoder writes it: U+2028 and
/// U+2029 escaped, other non-ASCII text as it is, <, > and & left alone.
pub(crate) fn write_str(b: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    b.reserve(bytes.len() + 2);
    b.push(b'"');
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Most text needs nothing: skip to the next byte that may, eight
        // bytes at a time, then one by one.
        while let Some(chunk) = bytes.get(i..i + 8) {
            let m = noted(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
            if m != 0 {
                i += (m.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        while i < bytes.len() && !NOTE[bytes[i] as usize] {
            i += 1;
        }
        if i == bytes.len() {
            break;
        }
        let c = bytes[i];
        let esc: Option<&[u8]> = match c {
            b'"' => Some(b"\\\""),
            b'\\' => Some(b"\\\\"),
            b'\n' => Some(b"\\n"),
            b'\r' => Some(b"\\r"),
            b'\t' => Some(b"\\t"),
            0..=0x1F => None,
            0xE2 if bytes.get(i + 1) == Some(&0x80)
                && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) =>
            {
                b.extend_from_slice(&bytes[start..i]);
                b.extend_from_slice(if bytes[i + 2] == 0xA8 {
                    b"\\u2028"
                } else {
                    b"\\u2029"
                });
                i += 3;
                start = i;
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        };
        b.extend_from_slice(&bytes[start..i]);
        match esc {
            Some(e) => b.extend_from_slice(e),
            None => b.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[(c >> 4) as usize],
                HEX[(c & 0xF) as usize],
            ]),
        }
        i += 1;
        start = i;
    }
    b.extend_from_slice(&bytes[start..]);
    b.push(b'"');
}

/// Appends an integer in decimal, without allocating.
pub(crate) fn write_i64(b: &mut Vec<u8>, i: i64) {
    write_u64(b, i.unsigned_abs(), i < 0);
}

fn write_u64(b: &mut Vec<u8>, mut u: u64, negative: bool) {
    let mut digits = [0u8; 21];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if negative {
        at -= 1;
        digits[at] = b'-';
    }
    b.extend_from_slice(&digits[at..]);
}

/// Appends a float as Go's encoding/json writes it: the shortest text that
/// reads back, with an exponent below 1e-6 and from 1e21 up.
pub(crate) fn write_f64(b: &mut Vec<u8>, f: f64) {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let s = format!("{f:e}");
        match s.split_once('e') {
            Some((m, e)) if !e.starts_with('-') => {
                b.extend_from_slice(format!("{m}e+{e}").as_bytes())
            }
            _ => b.extend_from_slice(s.as_bytes()),
        }
    } else {
        b.extend_from_slice(format!("{f}").as_bytes());
    }
}

/// Appends a value of no fixed shape. sorted: object members sorted by
/// name, as Go writes a map (a free-form field); else in the order the
/// value's map keeps, as Go writes a member it kept as received (an extra
/// entry): the order received with serde_json's preserve_order feature,
/// sorted without it.
pub(crate) fn write_value(b: &mut Vec<u8>, v: &Value, sorted: bool) {
    match v {
        Value::Null => b.extend_from_slice(b"null"),
        Value::Bool(x) => b.extend_from_slice(if *x { b"true" } else { b"false" }),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                write_i64(b, i);
            } else if let Some(u) = n.as_u64() {
                write_u64(b, u, false);
            } else {
                write_f64(b, n.as_f64().unwrap_or(0.0));
            }
        }
        Value::String(s) => write_str(b, s),
        Value::Array(a) => {
            b.push(b'[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    b.push(b',');
                }
                write_value(b, x, sorted);
            }
            b.push(b']');
        }
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            if sorted {
                keys.sort();
            }
            b.push(b'{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    b.push(b',');
                }
                write_str(b, k);
                b.push(b':');
                write_value(b, &m[k.as_str()], sorted);
            }
            b.push(b'}');
        }
    }
}
