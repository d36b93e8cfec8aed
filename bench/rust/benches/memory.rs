//! The Rust rows of the decoders' memory benchmark (issue 28, `make
//! bench-memory`): `Envelope::from_slice` on the hostile documents that
//! tests/go/cmd/hostiledocs writes (ERRGEN_HOSTILE_DIR, one `<shape>.json`
//! each), with no size limit. A counting allocator tracks the bytes in use;
//! each result is a line in Go's benchmark format:
//!
//! ```text
//! pkg: rust
//! BenchmarkRustDecodeHostile/shape=members/impl=errgen   1   2.1e9 ns/op   23.1 peak-x   9.8 kept-x   1.2e9 B/op
//! ```
//!
//! peak-x is the most the decode held at once over the input's size,
//! kept-x what the decoded envelope holds, B/op every byte allocated.
//! impl=serde_json is the baseline: `serde_json::from_slice::<Value>` of
//! the same bytes.
//! Without ERRGEN_HOSTILE_DIR (`cargo test --benches`, which make test runs)
//! it decodes one small document of distinct members, so the code keeps
//! running. No check asserts on a number.

use agent_error::{DecodeOptions, Envelope};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Counting wraps the system allocator and keeps the bytes in use, their
/// high-water mark and the bytes ever allocated.
struct Counting;

static IN_USE: AtomicU64 = AtomicU64::new(0);
static PEAK: AtomicU64 = AtomicU64::new(0);
static TOTAL: AtomicU64 = AtomicU64::new(0);

fn grew(n: u64) {
    let now = IN_USE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
    TOTAL.fetch_add(n, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size() as u64);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        IN_USE.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        grew(new_size as u64);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// small is the document decoded without ERRGEN_HOSTILE_DIR: 1,000
/// distinct extra members.
fn small() -> Vec<u8> {
    let mut s = String::from(
        r#"{"contract_version":1,"kind":"rate_limited","message":"m","origin":"budget","recovery":{"action":"retry_later","same_arguments":"conditional","guidance":"g"},"side_effects":"none_expected""#,
    );
    for i in 0..1000 {
        s.push_str(&format!(",\"m{i}\":0"));
    }
    s.push_str(r#","tool":"t"}"#);
    s.into_bytes()
}

fn main() {
    let docs: Vec<(String, Vec<u8>)> = match std::env::var("ERRGEN_HOSTILE_DIR") {
        Ok(dir) => {
            let only = std::env::var("ERRGEN_HOSTILE_SHAPE").ok();
            [
                "members",
                "nested_arrays",
                "nested_objects",
                "strings",
                "numbers",
            ]
            .iter()
            .filter(|s| only.as_deref().map_or(true, |o| o == **s))
            .map(|s| {
                let path = format!("{dir}/{s}.json");
                let data = std::fs::read(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
                (s.to_string(), data)
            })
            .collect()
        }
        Err(_) => vec![("small".to_string(), small())],
    };
    println!("pkg: rust");
    for (shape, data) in docs {
        measure(&shape, "errgen", &data, || {
            let env =
                Envelope::from_slice_with(black_box(&data), DecodeOptions { max_bytes: None })
                    .expect("a hostile document decodes");
            assert_eq!(env.tool, "t");
            assert!(!env.extra.is_empty());
            Box::new(env)
        });
        // serde_json refuses documents nested 128 levels deep (its
        // recursion limit), so the nested shapes have no baseline.
        if !shape.starts_with("nested") {
            measure(&shape, "serde_json", &data, || {
                let v: serde_json::Value =
                    serde_json::from_slice(black_box(&data)).expect("serde_json reads it");
                assert_eq!(v["tool"], "t");
                Box::new(v)
            });
        }
    }
}

/// measure runs decode once and prints its line.
fn measure(shape: &str, imp: &str, data: &[u8], decode: impl FnOnce() -> Box<dyn std::any::Any>) {
    let base = IN_USE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let total = TOTAL.load(Ordering::Relaxed);
    let start = Instant::now();
    let v = decode();
    let took = start.elapsed();
    let peak = PEAK.load(Ordering::Relaxed) - base;
    let kept = IN_USE.load(Ordering::Relaxed) - base;
    let all = TOTAL.load(Ordering::Relaxed) - total;
    drop(black_box(v));
    let n = data.len() as f64;
    println!(
        "BenchmarkRustDecodeHostile/shape={shape}/impl={imp}\t1\t{} ns/op\t{:.3} peak-x\t{:.3} kept-x\t{all} B/op",
        took.as_nanos(),
        peak as f64 / n,
        kept as f64 / n,
    );
}
