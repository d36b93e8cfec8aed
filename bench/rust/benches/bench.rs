//! The Rust rows of `make bench` (issue 18): the generated reference crate
//! beside serde_json on a hand-written `#[derive(Serialize, Deserialize)]`
//! struct of the same envelope, and the crate's sanitizer on the inputs
//! every language's benchmarks share (bench/testdata). Each result is a
//! line in Go's benchmark format, so bench/cmd/benchtable reads it beside
//! the others:
//!
//! ```text
//! pkg: rust
//! BenchmarkRust/Decode/impl=from_slice   1000000   612.3 ns/op   300 B/op   5 allocs/op
//! ```
//!
//! The envelope is the typical one of the Go benchmarks
//! (tests/go/agenterror/bench_test.go): rate_limited, a message, recovery
//! with retry_after_ms, three context fields; its bytes are
//! bench/testdata/envelope.json, which the TypeScript and Python benchmarks
//! parse too. Both sides of each pair do the same work: decode those bytes
//! into an envelope, or encode an envelope built once into the same bytes.
//!
//! `cargo bench` times each benchmark for about a second
//! (ERRGEN_BENCH_TIME sets the seconds); without `--bench`
//! (`cargo test --benches`, which make test runs) each runs once, untimed,
//! after the checks that both sides agree. No check asserts on a number.
//! `cargo bench -- Decode` runs the benchmarks whose names hold a word
//! (`colon$`: end with it);
//! ERRGEN_BENCH_N=n runs each n times and prints nothing (for a profiler).

use agent_error::sanitize::Sanitizer;
use agent_error::{sanitize, sanitize_max, Envelope, SANITIZE_POLICY};
use serde::{Deserialize, Serialize};
use std::alloc::{GlobalAlloc, Layout, System};
use std::borrow::Cow;
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Counting wraps the system allocator and counts allocations and bytes
/// (a realloc counts as one allocation of its new size, as Go counts it).
struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(new_size as u64, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What a team would write by hand without errgen: the envelope's members
/// as plain fields, the classification as strings (as the Go benchmark's
/// hand-written struct has them), absent context left out.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct HandEnvelope {
    contract_version: i64,
    kind: String,
    message: String,
    origin: String,
    recovery: HandRecovery,
    side_effects: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    service: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    tool: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    upstream: String,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct HandRecovery {
    action: String,
    same_arguments: String,
    guidance: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    retry_after_ms: Option<i64>,
}

/// The typical envelope, as the Go benchmarks build it.
fn typical() -> Envelope {
    Envelope::new_rate_limited("upstream github is rate limited")
        .with_retry_after(Duration::from_millis(1500))
        .with_tool("search_issues")
        .with_upstream("github")
        .with_service("gateway")
}

/// The same envelope written by hand, the classification as literals.
fn hand_typical() -> HandEnvelope {
    HandEnvelope {
        contract_version: 1,
        kind: "rate_limited".into(),
        message: "upstream github is rate limited".into(),
        origin: "budget".into(),
        recovery: HandRecovery {
            action: "retry_later".into(),
            same_arguments: "conditional".into(),
            guidance: "Wait at least retry_after_ms when it is present, lower your request rate or concurrency, then retry.".into(),
            retry_after_ms: Some(1500),
        },
        side_effects: "none_expected".into(),
        service: "gateway".into(),
        tool: "search_issues".into(),
        upstream: "github".into(),
    }
}

fn read(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The dirty text repeated to 10 MiB (10,485,760 bytes), cut back to a
/// code point boundary, as every language's benchmark builds it.
fn ten_mib(dirty: &[u8]) -> String {
    let mut b: Vec<u8> = dirty.iter().copied().cycle().take(10 << 20).collect();
    let mut start = b.len() - 1; // where the last code point starts
    while start > 0 && b[start] & 0xC0 == 0x80 {
        start -= 1;
    }
    if std::str::from_utf8(&b[start..]).is_err() {
        b.truncate(start); // a code point cut in half
    }
    String::from_utf8(b).expect("the dirty text is UTF-8")
}

/// One benchmark: its name (after "BenchmarkRust/"), the bytes one run
/// processes (for MB/s; 0 for none, as a Go benchmark without SetBytes),
/// and one run.
/// The crafted worst cases of tests/go/sanitizediff (CraftedPatterns, which
/// a test there holds this list to): patterns that cost sanitizers the most
/// per byte.
const CRAFTED: &[(&str, &[u8])] = &[
    ("homes-in-one-path", b"/home/."),
    ("homes-in-one-path-macos", b"/Users/."),
    ("bearer-without-space", b"=Bearer"),
    ("key-file-extension", b".pem"),
    ("credential-name-assign", b".sshc="),
    ("colon", b":"),
    ("dash-colon", b"-:"),
    ("assign-colon", b"a:"),
    ("assign-equals", b"a="),
    ("ill-formed-byte-key", b"\xff_key="),
    ("jwt-start", b"eyJ "),
    ("pem-begin", b"-----BEGIN "),
    ("marker-start", b"<|"),
    ("ill-formed-byte", b"\xff"),
    ("ill-formed-byte-colon", b"\xff:"),
    ("colon-backslash", b":\\"),
    ("lead-byte-alone", b"\xc3"),
    ("hash", b"#"),
    ("hash-pair", b"##"),
    ("less-than", b"<"),
    ("slash", b"/"),
    ("credential-name", b".ssh"),
    ("secret-prefix", b"sk-"),
    ("scheme", b"x://"),
];

/// The crate's sanitizer, for raw bytes (sanitize_bytes).
static BYTES_SANITIZER: Sanitizer = Sanitizer::new(&SANITIZE_POLICY);

/// Repeats a pattern to about n bytes, cut before a character's start, as
/// Go's repeatTo does.
fn repeat_to(pattern: &[u8], n: usize) -> Vec<u8> {
    let s = pattern.repeat(n / pattern.len() + 1);
    let mut n = n;
    while n > 0 && s[n] & 0xC0 == 0x80 {
        n -= 1;
    }
    s[..n].to_vec()
}

struct Bench<'a> {
    name: &'static str,
    bytes: usize,
    run: Box<dyn FnMut() + 'a>,
}

fn measure(b: &mut Bench, n: u64) -> (Duration, u64, u64) {
    let (a0, b0) = (
        ALLOCS.load(Ordering::Relaxed),
        BYTES.load(Ordering::Relaxed),
    );
    let start = Instant::now();
    for _ in 0..n {
        (b.run)();
    }
    let elapsed = start.elapsed();
    let (a1, b1) = (
        ALLOCS.load(Ordering::Relaxed),
        BYTES.load(Ordering::Relaxed),
    );
    (elapsed, a1 - a0, b1 - b0)
}

/// The checks that make the comparisons fair: both sides write the same
/// bytes, which are bench/testdata/envelope.json, and read them back to
/// the same envelope; the clean texts are clean.
fn check(data: &[u8], clean: &str) {
    let env = typical();
    let ours = env.to_json().expect("the typical envelope encodes");
    let theirs = serde_json::to_string(&hand_typical()).expect("the hand-written struct encodes");
    assert_eq!(ours, theirs, "to_json and the hand-written struct differ");
    assert_eq!(
        serde_json::to_string(&env).expect("Serialize"),
        ours,
        "Serialize and to_json differ"
    );
    assert_eq!(
        ours.as_bytes(),
        data,
        "bench/testdata/envelope.json is not the typical envelope"
    );
    assert_eq!(Envelope::from_slice(data).expect("from_slice"), env);
    assert_eq!(
        serde_json::from_slice::<Envelope>(data).expect("Deserialize"),
        env
    );
    assert_eq!(
        serde_json::from_slice::<HandEnvelope>(data).expect("the hand-written struct decodes"),
        hand_typical()
    );
    assert!(
        matches!(sanitize_max(clean, 4096), Cow::Borrowed(_)),
        "the clean text is not clean"
    );
}

fn main() {
    let timed = std::env::args().any(|a| a == "--bench");
    // cargo bench -- NAME… runs the benchmarks whose names hold one of them
    // (end with it, when it ends with '$').
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let target = Duration::from_secs_f64(
        std::env::var("ERRGEN_BENCH_TIME")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1.0),
    );

    let mut data = read("envelope.json");
    while data.last().is_some_and(u8::is_ascii_whitespace) {
        data.pop();
    }
    let clean = String::from_utf8(read("sanitize-clean-4k.txt")).expect("UTF-8");
    let dirty_bytes = read("sanitize-dirty-4k.txt");
    let huge = ten_mib(&dirty_bytes);
    let dirty = String::from_utf8(dirty_bytes).expect("UTF-8");
    // The 10 MiB input's window alone: its first 4 × max_length code points.
    let window: String = huge.chars().take(4 * SANITIZE_POLICY.max_length).collect();
    check(&data, &clean);

    let env = typical();
    let hand = hand_typical();
    let mut buf: Vec<u8> = Vec::with_capacity(1024);
    let mut buf2: Vec<u8> = Vec::with_capacity(1024);
    let mut buf3: Vec<u8> = Vec::with_capacity(1024);
    let d = &data[..];
    let crafted: Vec<(&'static str, Vec<u8>)> = CRAFTED
        .iter()
        .map(|&(name, pattern)| {
            let name: &'static str =
                Box::leak(format!("SanitizeCrafted/pattern={name}").into_boxed_str());
            (name, repeat_to(pattern, 64 << 10))
        })
        .collect();
    // Sanitizer benchmarks use a maximum of 4096 for the 4 KiB inputs, as
    // Go's do, so clean text fits and comes back unchanged.
    let mut benches: Vec<Bench> = vec![
        // Decoding the typical envelope's bytes.
        Bench {
            name: "Decode/impl=from_slice",
            bytes: d.len(),
            run: Box::new(|| {
                black_box(Envelope::from_slice(black_box(d)).unwrap());
            }),
        },
        Bench {
            name: "Decode/impl=serde",
            bytes: d.len(),
            run: Box::new(|| {
                black_box(serde_json::from_slice::<Envelope>(black_box(d)).unwrap());
            }),
        },
        Bench {
            name: "Decode/impl=serde_derive",
            bytes: d.len(),
            run: Box::new(|| {
                black_box(serde_json::from_slice::<HandEnvelope>(black_box(d)).unwrap());
            }),
        },
        // Encoding an envelope built once into a buffer reused from one
        // run to the next (serde_json's to_writer into a cleared Vec).
        Bench {
            name: "Encode/impl=append_json",
            bytes: d.len(),
            run: Box::new(|| {
                buf.clear();
                black_box(&env).append_json(&mut buf).unwrap();
                black_box(&buf);
            }),
        },
        Bench {
            name: "Encode/impl=serde",
            bytes: d.len(),
            run: Box::new(|| {
                buf2.clear();
                serde_json::to_writer(&mut buf2, black_box(&env)).unwrap();
                black_box(&buf2);
            }),
        },
        Bench {
            name: "Encode/impl=serde_derive",
            bytes: d.len(),
            run: Box::new(|| {
                buf3.clear();
                serde_json::to_writer(&mut buf3, black_box(&hand)).unwrap();
                black_box(&buf3);
            }),
        },
        // Both allocating their output.
        Bench {
            name: "Encode/impl=to_json",
            bytes: d.len(),
            run: Box::new(|| {
                black_box(black_box(&env).to_json().unwrap());
            }),
        },
        Bench {
            name: "Encode/impl=serde_derive_to_vec",
            bytes: d.len(),
            run: Box::new(|| {
                black_box(serde_json::to_vec(black_box(&hand)).unwrap());
            }),
        },
        // The sanitizer.
        Bench {
            name: "SanitizeClean4KiB",
            bytes: clean.len(),
            run: Box::new(|| {
                black_box(sanitize_max(black_box(&clean), 4096));
            }),
        },
        Bench {
            name: "SanitizeDirty4KiB",
            bytes: dirty.len(),
            run: Box::new(|| {
                black_box(sanitize_max(black_box(&dirty), 4096));
            }),
        },
        Bench {
            name: "Sanitize10MiB",
            bytes: 0, // it reads only the window: MB/s would mislead
            run: Box::new(|| {
                black_box(sanitize(black_box(&huge)));
            }),
        },
        Bench {
            name: "SanitizeWindow",
            bytes: window.len(),
            run: Box::new(|| {
                black_box(sanitize(black_box(&window)));
            }),
        },
    ];
    // The crafted worst cases, as Go's BenchmarkSanitizeCrafted times them:
    // each pattern repeated to 64 KiB, with a maximum of its length (raw
    // bytes, some of them ill-formed, through sanitize_bytes).
    for (name, text) in &crafted {
        benches.push(Bench {
            name,
            bytes: text.len(),
            run: Box::new(|| {
                black_box(BYTES_SANITIZER.sanitize_bytes(black_box(text), text.len()));
            }),
        });
    }

    if !timed {
        for b in &mut benches {
            measure(b, 1);
        }
        println!(
            "{} Rust benchmarks ran once (cargo bench times them)",
            benches.len()
        );
        return;
    }
    println!("pkg: rust");
    for b in &mut benches {
        let named = |f: &String| match f.strip_suffix('$') {
            Some(end) => b.name.ends_with(end),
            None => b.name.contains(f.as_str()),
        };
        if !filters.is_empty() && !filters.iter().any(named) {
            continue;
        }
        measure(b, 10); // warm up: the tables, the caches, the buffers
        if let Some(n) = std::env::var("ERRGEN_BENCH_N")
            .ok()
            .and_then(|s| s.parse().ok())
        {
            // A fixed count, untimed: for a profiler's instruction counts.
            measure(b, n);
            continue;
        }
        // Grow n until a run takes a tenth of the target, then run for the
        // target, as Go's testing package does.
        let mut n = 1u64;
        loop {
            let (d, _, _) = measure(b, n);
            if d >= target / 10 || n >= 1 << 40 {
                let per = d.as_secs_f64() / n as f64;
                n = ((target.as_secs_f64() / per.max(1e-9)) as u64).max(1);
                break;
            }
            n *= 10;
        }
        let (d, allocs, bytes) = measure(b, n);
        let ns = d.as_nanos() as f64 / n as f64;
        let mbs = if b.bytes == 0 {
            String::new()
        } else {
            let mbs = b.bytes as f64 * n as f64 / d.as_secs_f64() / 1e6;
            format!("\t{mbs:>10.2} MB/s")
        };
        println!(
            "{:<44} {:>10}\t{:>12.1} ns/op{mbs}\t{:>8} B/op\t{:>8} allocs/op",
            format!("BenchmarkRust/{}", b.name),
            n,
            ns,
            bytes / n,
            allocs / n
        );
    }
}
