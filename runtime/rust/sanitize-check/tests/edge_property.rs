//! The property of docs/sanitizer.md ("What it does not do", the bound): a
//! secret of any shape the default policy knows, whatever padding is put
//! around and inside it (characters step 1 deletes, of any length,
//! controls, markers, earlier secrets that shrink the text when redacted,
//! so that the window's edge reaches the output, text that puts it at the
//! truncation edge), never leaves a character of its token in the output:
//! at most a part of its fixed start. Step 4 never cuts a [REDACTED] in
//! half, and the output is a fixpoint. The generator is the one of the Go,
//! TypeScript and Python tests (xorshift32, the same draws in the same
//! order), so a seed gives the same cases in each.

use errgen_sanitize_check::SANITIZER;

struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
    fn intn(&mut self, n: usize) -> usize {
        (self.next() % n as u32) as usize
    }
}

const PREFIXES: &[&str] = &[
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
    "AKIA",
    "ASIA",
    "AIza",
    "sk_live_",
    "sk_test_",
    "rk_live_",
    "rk_test_",
    "pk_live_",
    "pk_test_",
    "whsec_",
    "npm_",
];

// The shapes: the fixed start (which may survive, cut short by the window)
// and what completes the shape.
fn shapes() -> Vec<(&'static str, &'static str)> {
    let mut list: Vec<(&str, &str)> = PREFIXES.iter().map(|p| (*p, "")).collect();
    list.extend([
        ("eyJ", ""),
        ("Bearer ", ""),
        ("password=", ""),
        ("Authorization: Basic ", ""),
        ("https://user:", "@db.example.com"),
        (
            "-----BEGIN RSA PRIVATE KEY-----\n",
            "\n-----END RSA PRIVATE KEY-----",
        ),
        ("/home/", "/project"),
    ]);
    list
}

const UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const DELETABLE: &[&str] = &[
    "\u{200b}",
    "\u{00ad}",
    "\u{E0041}",
    "\u{1}",
    "\u{85}",
    "\u{feff}",
    "\u{202e}",
    "\u{7f}",
];
const WORDS: &[&str] = &[
    "error ",
    "upstream: ",
    "timeout, ",
    "a\tb\n",
    "x",
    "=",
    "é",
    "日本 ",
];
const MARKERS: &[&str] = &["<system>", "[INST]", "###", "<|im_start|>", "<<"];

// token is upper-case letters and digits with a digit second: no padding
// holds either, so two of its characters in a row in the output are a leak.
fn token(r: &mut Rng, n: usize) -> String {
    let mut b: Vec<u8> = (0..n).map(|_| UPPER[r.intn(UPPER.len())]).collect();
    b[1] = UPPER[26 + r.intn(10)];
    String::from_utf8(b).unwrap()
}

fn lower(r: &mut Rng, n: usize) -> String {
    (0..n).map(|_| (b'a' + r.intn(26) as u8) as char).collect()
}

fn count(s: &str) -> usize {
    s.chars().count()
}

// one makes a case: the input, its maximum, the fixed start and the token.
fn one(r: &mut Rng, shapes: &[(&'static str, &'static str)]) -> (String, usize, String, String) {
    let mut max = 64 + r.intn(240);
    if r.intn(8) == 0 {
        max = 2048;
    }
    let (fixed, tail) = shapes[r.intn(shapes.len())];
    let n = 82 + r.intn(16);
    let mut tok = token(r, n);
    if fixed == "eyJ" {
        tok = format!("{}.{}.{}", token(r, 17), token(r, 20), token(r, 20));
    }
    let mut secret = format!("{fixed}{tok}");
    if r.intn(2) == 0 {
        let k = r.intn(secret.len());
        let mut ins = DELETABLE[r.intn(DELETABLE.len())].repeat(1 + r.intn(4));
        if r.intn(2) == 0 {
            ins = MARKERS[r.intn(MARKERS.len())].to_string();
        }
        secret.insert_str(k, &ins);
    }
    secret.push_str(tail);
    let mut pre = String::new();
    for _ in 0..r.intn(6) {
        match r.intn(4) {
            0 => pre.push_str(WORDS[r.intn(WORDS.len())]),
            1 => pre.push_str(MARKERS[r.intn(MARKERS.len())]),
            _ => {
                let n = 40 + r.intn(80);
                pre.push_str(&format!(" sk-{} ", lower(r, n)));
            }
        }
    }
    let mut joiner = " ";
    if fixed.len() <= 11 && !["Bearer ", "password=", "/home/", "https://user:"].contains(&fixed) {
        joiner = ["", " ", "x", ":", "\t"][r.intn(5)];
    }
    let mut have = count(&pre);
    if r.intn(3) < 2 {
        // At the window's edge.
        let target = 4 * max - r.intn(count(&secret) + 8);
        if r.intn(3) == 0 {
            while have + 120 < target - count(joiner) && r.intn(40) != 0 {
                let s = lower(r, 116);
                pre.push_str(&format!("sk-{s} "));
                have += 120;
            }
        }
        let unit = DELETABLE[r.intn(DELETABLE.len())];
        let fill = target as isize - have as isize - count(joiner) as isize;
        if fill > 0 {
            pre.push_str(&unit.repeat(fill as usize));
        }
    } else {
        // At the truncation edge.
        let target = max as isize - 14 - r.intn(count(&secret) + 4) as isize;
        while (have as isize) < target {
            pre.push('w');
            have += 1;
        }
    }
    let mut after = String::new();
    if r.intn(2) == 0 {
        let n = r.intn(4 * max);
        after = format!(" and more text after it {}", "z".repeat(n));
    }
    (
        format!("{pre}{joiner}{secret}{after}"),
        max,
        fixed.to_string(),
        tok,
    )
}

#[test]
fn no_secret_at_the_edges() {
    let seed: u32 = std::env::var("SANITIZE_EDGE_SEED")
        .map(|s| s.parse().expect("SANITIZE_EDGE_SEED: a number"))
        .unwrap_or(20261207);
    let cases = 400;
    let shapes = shapes();
    let mut r = Rng(seed | 1);
    let (mut leaks, mut cuts) = (0, 0);
    let mut failures = Vec::new();
    for i in 0..cases {
        let (input, max, fixed, tok) = one(&mut r, &shapes);
        let out = SANITIZER.sanitize_max(&input, max).into_owned();
        if out.contains(&tok[..2]) || out.contains(&format!("{fixed}{}", &tok[..1])) {
            leaks += 1;
            failures.push(format!(
                "case {i} (max {max}): a token of {fixed:?} survives: {out:?}"
            ));
        }
        if let Some(kept) = out.strip_suffix(" …[truncated]") {
            if (1..10).any(|j| kept.ends_with(&"[REDACTED]"[..j])) {
                cuts += 1;
                failures.push(format!(
                    "case {i} (max {max}): truncation cut a marker: {out:?}"
                ));
            }
        }
        let again = SANITIZER.sanitize_max(&out, max);
        if again != out {
            failures.push(format!(
                "case {i} (max {max}): not a fixpoint: {out:?} {again:?}"
            ));
        }
    }
    println!(
        "sanitizer edge property: seed {seed}, {cases} cases, {leaks} leaks, {cuts} markers cut"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
