//! The "no secret through any path" property of issue 28, for Rust: a
//! token of every secret shape the default policy knows
//! (tests/testdata/nosecret.json), padded every way the data file lists, put
//! in every carrier a receiver may pass on (Envelope::new, the setters of
//! the fields the contract lists in sanitize.fields, with_extra, the
//! envelope every reader decodes with the text in any field or extra
//! member) and
//! observed through every output (Display, Debug, a boxed error, an
//! io::Error wrapping it, log_fields, serde, and every surface writer;
//! to_http_response and from_http_response of the http feature wrap
//! write_http and read_http) never shows more than the data file's
//! max_run consecutive characters of its body. Trusted text (new_trusted,
//! assigning a field, the setter of a field the contract does not list) is
//! the producer's own choice and out of scope: it is
//! used here only to play the upstream that writes a wire form, which a
//! reader then decodes. A module of vectors.rs, so that it shares its test
//! binary; new_env, new_env_trusted, STR_FIELDS, with_str and set_str come
//! from caller.rs (tests/rust/run.sh).
//!
//! ERRGEN_NOSECRET_SEED and ERRGEN_NOSECRET_CASES override the seed and the
//! count (make fuzz); other contracts than the reference one run a tenth of
//! the cases.

use super::{new_env, new_env_trusted, set_str, with_str, STR_FIELDS};
use contract::*;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// splitmix64: a small seeded generator, enough for drawing test data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn int(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, list: &'a [T]) -> &'a T {
        &list[self.int(list.len())]
    }
}

struct Token {
    shape: String,
    text: String,
    body: String,
    /// Every substring of max_run + 1 bytes of the body, packed, with where
    /// it first starts, sorted.
    grams: Vec<(u64, usize)>,
}

struct Gen {
    d: Value,
    r: Rng,
    max_run: usize,
    window: usize,
    cut: usize,
    shapes: Vec<Value>,
    paddings: Vec<String>,
}

fn cps(s: &str) -> usize {
    s.chars().count()
}

impl Gen {
    fn str_of<'a>(v: &'a Value, k: &str) -> &'a str {
        v[k].as_str().unwrap_or("")
    }
    fn num(v: &Value, k: &str) -> usize {
        v[k].as_u64().unwrap_or(0) as usize
    }
    fn run_of(&mut self, class: &str, n: usize) -> String {
        let chars: Vec<char> = self.d["classes"][class].as_str().unwrap().chars().collect();
        (0..n).map(|_| chars[self.r.int(chars.len())]).collect()
    }
    fn token(&mut self) -> Token {
        let s = self.shapes[self.r.int(self.shapes.len())].clone();
        let (min, max) = (Gen::num(&s, "min"), Gen::num(&s, "max"));
        let n = min + self.r.int(max - min + 1);
        let body = match Gen::str_of(&s, "class") {
            "jwt" => {
                let m = 4 + self.r.int(max - 3);
                let mut b = self.run_of("base64url", n) + "." + &self.run_of("base64url", m);
                if self.r.int(2) == 0 {
                    let m = 4 + self.r.int(max - 3);
                    b = b + "." + &self.run_of("base64url", m);
                }
                b
            }
            "userinfo" => self.run_of("alnum", 4) + ":" + &self.run_of("alnum", n - 5),
            c => self.run_of(c, n),
        };
        let prefixes = s["prefixes"].as_array().unwrap();
        let prefix = self.r.pick(prefixes).as_str().unwrap().to_owned();
        let text = format!("{}{}{}{}", Gen::str_of(&s, "lead"), prefix, body, Gen::str_of(&s, "tail"));
        let b = body.as_bytes();
        let mut grams: Vec<(u64, usize)> = (0..b.len().saturating_sub(self.max_run)).map(|i| (pack(&b[i..=i + self.max_run]), i)).collect();
        grams.sort();
        grams.dedup_by_key(|g| g.0);
        Token {
            shape: Gen::str_of(&s, "name").to_owned(),
            text,
            body,
            grams,
        }
    }
    fn words(&mut self, n: usize) -> String {
        if n == 0 {
            return String::new();
        }
        let mut b = vec![b' '; n];
        let mut next = 3 + self.r.int(6);
        for (i, c) in b.iter_mut().enumerate() {
            if i == next {
                next = i + 3 + self.r.int(6);
            } else {
                *c = b'a' + self.r.int(26) as u8;
            }
        }
        b[n - 1] = b' ';
        String::from_utf8(b).unwrap()
    }
    fn dels(&mut self, n: usize) -> String {
        let ranges = self.d["deletable"].as_array().unwrap().clone();
        (0..n)
            .map(|_| {
                let r = self.r.pick(&ranges);
                let (lo, hi) = (r[0].as_u64().unwrap() as u32, r[1].as_u64().unwrap() as u32);
                char::from_u32(lo + self.r.int((hi - lo + 1) as usize) as u32).unwrap()
            })
            .collect()
    }
    fn inside(&mut self, s: &str) -> String {
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && self.r.int(3) == 0 {
                let n = 1 + self.r.int(3);
                out += &self.dels(n);
            }
            out.push(c);
        }
        out
    }
    fn shrink(&mut self, mut n: usize) -> String {
        let shrinkers = self.d["shrinkers"].as_array().unwrap().clone();
        let mut out = String::new();
        while n > 0 {
            let s = self.r.pick(&shrinkers);
            let mut m = n;
            if n > 400 && self.r.int(2) == 0 {
                m = 200 + self.r.int(n - 200);
            }
            let (open, fill, close) = (Gen::str_of(s, "open"), Gen::str_of(s, "fill"), Gen::str_of(s, "close"));
            let k = m.saturating_sub(cps(open) + cps(close));
            if k < 12 {
                out += &" ".repeat(m);
                break;
            }
            out += open;
            out += &fill.repeat(k);
            out += close;
            n -= m;
        }
        out
    }
    fn text(&mut self, padding: &str) -> (String, Vec<Token>) {
        let t = self.token();
        let w = 1 + self.r.int(12);
        let after = " ".to_owned() + &self.words(w);
        let edge = self.r.int(cps(&t.text) + 2);
        let before = match padding {
            "none" => {
                let n = self.r.int(40);
                self.words(n)
            }
            "deletable_before" => {
                let (d, w) = (self.r.int(9001), self.r.int(20));
                self.dels(d) + &self.words(w)
            }
            "deletable_inside" => {
                let n = self.r.int(40);
                let w = self.words(n);
                let inside = self.inside(&t.text);
                return (w + &inside + &after, vec![t]);
            }
            "window_deletable" | "window_shrink" => {
                let n = self.r.int(30);
                let w = self.words(n);
                let fill = self.window.saturating_sub(edge + w.len());
                let pad = if padding == "window_deletable" { self.dels(fill) } else { self.shrink(fill) };
                pad + &w
            }
            "truncation_edge" => self.words(self.cut.saturating_sub(edge)),
            "shrink_truncation" => {
                let n = 100 + self.r.int(5000);
                let s = self.shrink(n);
                let k = self.r.int(40);
                s + &self.words(self.cut.saturating_sub(edge + k))
            }
            _ => {
                let (mut text, mut toks) = (String::new(), Vec::new());
                let parts = 2 + self.r.int(4);
                for _ in 0..parts {
                    let p = *self.r.pick(&["none", "deletable_before", "deletable_inside"]);
                    let (s, ts) = self.text(p);
                    text += &s;
                    toks.extend(ts);
                }
                return (text, toks);
            }
        };
        (before + &t.text + &after, vec![t])
    }
}

/// The n bytes at s, packed into an integer (n <= 8).
fn pack(s: &[u8]) -> u64 {
    s.iter().fold(0, |x, &c| x << 8 | u64::from(c))
}

/// The longest run of consecutive body characters out shows, and where,
/// when longer than max_run; (0, 0) otherwise. Only places where max_run + 1
/// characters a body may hold end are looked up.
fn run_in(out: &str, t: &Token, max_run: usize) -> (usize, usize) {
    let (o, b) = (out.as_bytes(), t.body.as_bytes());
    let n = max_run + 1;
    let (mut best, mut at) = (0, 0);
    let mut run = 0;
    for (end, &c) in o.iter().enumerate() {
        run = if c.is_ascii_alphanumeric() || b"_-.~+/=:".contains(&c) { run + 1 } else { 0 };
        if run < n {
            continue;
        }
        let i = end + 1 - n;
        let Ok(g) = t.grams.binary_search_by_key(&pack(&o[i..=end]), |&(x, _)| x) else {
            continue;
        };
        let bi = t.grams[g].1;
        let mut k = n;
        while i + k < o.len() && bi + k < b.len() && o[i + k] == b[bi + k] {
            k += 1;
        }
        if k > best {
            (best, at) = (k, i);
        }
    }
    (best, at)
}

/// Every output of e; a writer that refuses it shows nothing.
fn outputs(e: &Envelope) -> Vec<(&'static str, String)> {
    let mut out = vec![("Display", format!("{e}")), ("Debug", format!("{e:?}"))];
    let boxed: Box<dyn std::error::Error> = Box::new(e.clone());
    out.push(("Box<dyn Error>", boxed.to_string()));
    let wrapped = std::io::Error::other(e.clone());
    out.push(("io::Error::other", format!("{wrapped} {wrapped:?}")));
    out.push(("log_fields", serde_json::to_string(&e.log_fields()).unwrap_or_default()));
    out.push((
        "log_fields(Display)",
        e.log_fields().iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" "),
    ));
    if let Ok(s) = e.to_json() {
        out.push(("to_json", s));
    }
    if let Ok(s) = serde_json::to_string(e) {
        out.push(("serde", s));
    }
    for (name, accept) in [("http", &[][..]), ("http(problem)", &["application/problem+json"][..])] {
        let r = e.write_http(accept);
        out.push((
            if name == "http" { "http.body" } else { "http(problem).body" },
            String::from_utf8_lossy(&r.body).into_owned(),
        ));
        out.push((
            if name == "http" { "http.headers" } else { "http(problem).headers" },
            format!("{:?}", r.headers),
        ));
    }
    if let Ok(s) = e.problem("/x") {
        out.push(("problem", s));
    }
    if let Ok(v) = e.to_tool_result() {
        out.push(("mcp", v.to_string()));
    }
    if let Ok(s) = e.to_aip193() {
        out.push(("aip193", s));
    }
    if let Ok(s) = e.to_rpc_status() {
        out.push(("grpc", format!("{s:?}")));
    }
    let mut cli = Vec::new();
    if e.write_cli(&mut cli, "deploy").is_ok() {
        out.push(("cli", String::from_utf8_lossy(&cli).into_owned()));
    }
    out
}

type Make = Box<dyn Fn(&mut Rng, &str) -> Option<Envelope>>;

fn kinds() -> Vec<Kind> {
    let known: Vec<Kind> = ["upstream_error", "auth_failed", "not_found", "timeout"]
        .iter()
        .map(|&k| Kind::from(k))
        .filter(Kind::is_known)
        .collect();
    if known.is_empty() {
        vec![Kind::KNOWN[0].clone()]
    } else {
        known
    }
}

fn nested(s: &str) -> Value {
    json!({"list": ["a", {"text": s}]})
}

fn carriers() -> Vec<(String, Make)> {
    let ks = kinds();
    let k0 = ks[0].clone();
    let mut cs: Vec<(String, Make)> = Vec::new();
    {
        let ks = ks.clone();
        cs.push(("Envelope::new".into(), Box::new(move |r, s| Some(new_env(r.pick(&ks).clone(), s)))));
    }
    if SANITIZED_FIELDS.contains(&"guidance") {
        let k = k0.clone();
        cs.push((
            "with_guidance".into(),
            Box::new(move |_, s| Some(new_env(k.clone(), "upstream failed").with_guidance(s))),
        ));
    }
    let k = k0.clone();
    cs.push((
        "with_extra".into(),
        Box::new(move |_, s| Some(new_env(k.clone(), "upstream failed").with_extra("x_note", Value::from(s)))),
    ));
    let k = k0.clone();
    cs.push((
        "with_extra(nested)".into(),
        Box::new(move |_, s| Some(new_env(k.clone(), "upstream failed").with_extra("x_obj", nested(s)))),
    ));
    // The sanitized string fields with a setter (the setter of one the
    // contract does not list takes the producer's own text), and one that
    // is not sanitized, which every reader reads back sanitized.
    let mut fields: Vec<String> = STR_FIELDS.iter().filter(|f| SANITIZED_FIELDS.contains(f)).map(|f| f.to_string()).collect();
    for f in &fields {
        let (k, f2) = (k0.clone(), f.clone());
        cs.push((
            format!("with_{f}"),
            Box::new(move |_, s| Some(with_str(new_env(k.clone(), "upstream failed"), &f2, s))),
        ));
    }

    if let Some(f) = STR_FIELDS.iter().find(|f| !SANITIZED_FIELDS.contains(f)) {
        fields.push(f.to_string());
    }
    // The kind and the enumerated values are the sender's too (a reader
    // sanitizes them as any text).
    let mut wire_fields: Vec<String> = ["message", "guidance", "extra", "extra(nested)", "kind", "origin", "action", "same_arguments", "side_effects"].iter().map(|s| s.to_string()).collect();
    wire_fields.extend(fields.iter().cloned());
    let upstream = move |k: &Kind, field: &str, s: &str| -> Envelope {
        let mut e = new_env_trusted(k.clone(), "upstream failed");
        match field {
            "message" => e.message = s.to_owned(),
            "guidance" => e.recovery.guidance = s.to_owned(),
            "kind" => e.kind = Kind::from(s.to_owned()),
            "origin" => e.origin = Origin::from(s.to_owned()),
            "action" => e.recovery.action = RecoveryAction::from(s.to_owned()),
            "same_arguments" => e.recovery.same_arguments = SameArguments::from(s.to_owned()),
            "side_effects" => e.side_effects = SideEffects::from(s.to_owned()),
            "extra" => {
                e.extra.insert("x_note".into(), Value::from(s));
            }
            "extra(nested)" => {
                e.extra.insert("x_obj".into(), nested(s));
            }
            f => set_str(&mut e, f, s),
        }
        e
    };
    type Read = fn(&Envelope) -> Option<Envelope>;
    fn http(e: &Envelope, accept: &[&str]) -> Option<Envelope> {
        let r = e.write_http(accept);
        let headers: Vec<(&str, &str)> = r.headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        Envelope::read_http(r.status, &headers, &r.body).ok()
    }
    let readers: Vec<(&str, Read)> = vec![
        ("from_json", |e| Envelope::from_json(&e.to_json().ok()?).ok()),
        ("from_slice", |e| Envelope::from_slice(e.to_json().ok()?.as_bytes()).ok()),
        ("serde", |e| serde_json::from_str::<Envelope>(&e.to_json().ok()?).ok()),
        ("http", |e| http(e, &[])),
        ("http(problem)", |e| http(e, &["application/problem+json"])),
        ("from_problem", |e| Envelope::from_problem(e.problem("").ok()?.as_bytes()).ok()),
        ("aip193", |e| Envelope::from_aip193(e.to_aip193().ok()?.as_bytes()).ok()),
        ("grpc", |e| Some(Envelope::from_rpc_status(&e.to_rpc_status().ok()?))),
        ("cli", |e| {
            let mut b = Vec::new();
            e.write_cli(&mut b, "deploy").ok()?;
            Envelope::read_cli(&b).ok()
        }),
        ("mcp", |e| Envelope::from_tool_result(&e.to_tool_result().ok()?).ok()),
    ];
    let upstream = std::rc::Rc::new(upstream);
    for (name, read) in readers {
        for f in &wire_fields {
            let (k, f2, up) = (k0.clone(), f.clone(), upstream.clone());
            cs.push((format!("read.{name}.{f}"), Box::new(move |_, s| read(&up(&k, &f2, s)))));
        }
    }
    let short = ks.get(1).unwrap_or(&k0).as_str().to_owned();
    cs.push((
        "read.http(short).message".into(),
        Box::new(move |_, s| {
            let body = json!({"kind": short, "message": s}).to_string();
            Envelope::read_http(401, &[("Content-Type", "application/json")], body.as_bytes()).ok()
        }),
    ));
    cs.push((
        "read.http(text).message".into(),
        Box::new(|_, s| Envelope::read_http(502, &[("Content-Type", "text/plain")], s.as_bytes()).ok()),
    ));
    cs
}

#[derive(Default)]
struct Leak {
    count: usize,
    shapes: BTreeSet<String>,
    paddings: BTreeSet<String>,
    run: usize,
    example: String,
}

#[test]
fn no_secret_through_any_path() {
    let path = std::env::var("ERRGEN_NOSECRET_DATA").expect("ERRGEN_NOSECRET_DATA is not set: run tests/rust/run.sh");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let d: Value = serde_json::from_str(&text).unwrap();
    let seed: u64 = std::env::var("ERRGEN_NOSECRET_SEED")
        .ok()
        .filter(|s| !s.is_empty())
        .map_or(20261207, |s| s.parse().expect("ERRGEN_NOSECRET_SEED"));
    let mut cases: usize = std::env::var("ERRGEN_NOSECRET_CASES")
        .ok()
        .filter(|s| !s.is_empty())
        .map_or(d["cases"]["rust"].as_u64().unwrap() as usize, |s| s.parse().expect("ERRGEN_NOSECRET_CASES"));
    if CONTRACT_NAME != "agent-error" {
        cases = (cases / 10).max(1);
    }
    let max_len = SANITIZE_POLICY.max_length;
    let shapes = d["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| SANITIZE_POLICY.paths || !matches!(s["name"].as_str(), Some("home_dir" | "credential_path")))
        .cloned()
        .collect();
    let paddings = d["paddings"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let max_run = d["bound"]["max_run"].as_u64().unwrap() as usize;
    assert!(
        (1..8).contains(&max_run),
        "bound.max_run {max_run}: this harness packs max_run + 1 bytes into a u64"
    );
    let mut g = Gen {
        d,
        r: Rng(seed),
        max_run,
        window: 4 * max_len,
        cut: max_len - cps(SANITIZE_POLICY.truncation_marker),
        shapes,
        paddings,
    };
    let cs = carriers();
    let mut leaks: BTreeMap<(String, &'static str), Leak> = BTreeMap::new();
    let (mut observations, mut unread, mut leaking) = (0, 0, 0);
    for i in 0..cases {
        let (name, make) = &cs[i % cs.len()];
        let padding = g.paddings[g.r.int(g.paddings.len())].clone();
        let (text, toks) = g.text(&padding);
        let Some(e) = make(&mut g.r, &text) else {
            unread += 1;
            continue;
        };
        for (output, o) in outputs(&e) {
            observations += 1;
            for t in &toks {
                let (n, at) = run_in(&o, t, max_run);
                if n == 0 {
                    continue;
                }
                leaking += 1;
                let l = leaks.entry((name.clone(), output)).or_default();
                l.count += 1;
                l.shapes.insert(t.shape.clone());
                l.paddings.insert(padding.clone());
                if n > l.run {
                    l.run = n;
                    let lo = (0..=at.saturating_sub(24)).rev().find(|&j| o.is_char_boundary(j)).unwrap_or(0);
                    let hi = (at + n + 16..=o.len()).find(|&j| o.is_char_boundary(j)).unwrap_or(o.len());
                    l.example = format!(
                        "case {i}: {n} of {} body characters of {} in {output}: {:?}",
                        t.body.len(),
                        t.shape,
                        &o[lo..hi.min(o.len())]
                    );
                }
                break;
            }
        }
    }
    let summary = format!(
        "nosecret (rust {CONTRACT_NAME}): seed {seed}, cases {cases}, carriers {}, observations {observations}, unread {unread}, leaks {leaking}",
        cs.len()
    );
    let _ = std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/nosecret.txt"), format!("{summary}\n"));
    println!("{summary}");
    if leaks.is_empty() {
        return;
    }
    // Outputs, leaks, the longest run and its example, by carrier and signature.
    type Group<'a> = (Vec<&'a str>, usize, usize, String);
    let mut groups: BTreeMap<(String, String), Group> = BTreeMap::new();
    for ((carrier, output), l) in &leaks {
        let sig = format!(
            "shapes {}; paddings {}",
            l.shapes.iter().cloned().collect::<Vec<_>>().join(","),
            l.paddings.iter().cloned().collect::<Vec<_>>().join(",")
        );
        let gr = groups.entry((carrier.clone(), sig)).or_default();
        gr.0.push(output);
        gr.1 += l.count;
        if l.run > gr.2 {
            gr.2 = l.run;
            gr.3 = l.example.clone();
        }
    }
    let lines: Vec<String> = groups
        .iter()
        .map(|((c, sig), (outs, count, _, ex))| format!("  {c} -> {}: {count} ({sig})\n      e.g. {ex}", outs.join(",")))
        .collect();
    panic!(
        "{} leak classes (carrier | output) in {} lines (carrier -> outputs: leaks (shapes; paddings)); seed {seed}:\n{}",
        leaks.len(),
        groups.len(),
        lines.join("\n")
    );
}
