//! The sanitizer benchmarks of issue 10, in Rust, on the inputs every
//! language's benchmarks share (bench/testdata), plus clean non-ASCII text.
//! Each result is a line in Go's benchmark format, so bench/cmd/benchtable
//! reads it beside the others:
//!
//! ```text
//! pkg: rust
//! BenchmarkRust/SanitizeClean4KiB   1000000   1234 ns/op   3319.21 MB/s   0 B/op   0 allocs/op
//! ```
//!
//! `cargo bench` times each benchmark for about a second (ERRGEN_BENCH_TIME
//! sets the seconds); without `--bench` (`cargo test --benches`) each runs
//! once, untimed, so the file keeps working. No test asserts on the numbers.
//! `cargo bench -- Clean Dirty` runs the benchmarks whose names hold a word;
//! ERRGEN_BENCH_N=n runs each n times and prints nothing (for a profiler).

use errgen_sanitize_check::{DEFAULT_POLICY, SANITIZER};
use std::alloc::{GlobalAlloc, Layout, System};
use std::borrow::Cow;
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Counting wraps the system allocator and counts allocations and bytes.
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

/// The maximum of the 4 KiB benchmarks, as in Go's: the inputs fit in it,
/// so clean text comes back unchanged instead of truncated (which would
/// time the copy).
const SMALL_MAX: usize = 4096;

fn read(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../bench/testdata")
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

/// Repeats a sentence to at most 4 KiB, whole sentences only.
fn clean_4kib(sentence: &str) -> String {
    sentence.repeat(4096 / sentence.len())
}

/// One benchmark: a name, the text, and the maximum length.
struct Bench {
    name: &'static str,
    text: String,
    max: usize,
}

fn measure(b: &Bench, n: u64) -> (Duration, u64, u64) {
    let (a0, b0) = (
        ALLOCS.load(Ordering::Relaxed),
        BYTES.load(Ordering::Relaxed),
    );
    let start = Instant::now();
    for _ in 0..n {
        black_box(SANITIZER.sanitize_max(black_box(&b.text), b.max));
    }
    let elapsed = start.elapsed();
    let (a1, b1) = (
        ALLOCS.load(Ordering::Relaxed),
        BYTES.load(Ordering::Relaxed),
    );
    (elapsed, a1 - a0, b1 - b0)
}

fn main() {
    let timed = std::env::args().any(|a| a == "--bench");
    // cargo bench -- NAME… runs the benchmarks whose names hold one of them.
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
    let clean = String::from_utf8(read("sanitize-clean-4k.txt")).expect("UTF-8");
    let dirty_bytes = read("sanitize-dirty-4k.txt");
    let huge = ten_mib(&dirty_bytes);
    let dirty = String::from_utf8(dirty_bytes).expect("UTF-8");
    // The 10 MiB input's window alone: its first 4 × max_length code points.
    let window: String = huge.chars().take(4 * DEFAULT_POLICY.max_length).collect();
    let benches = [
        Bench {
            name: "SanitizeClean4KiB",
            text: clean,
            max: SMALL_MAX,
        },
        Bench {
            name: "SanitizeCleanCJK4KiB",
            text: clean_4kib("上游服务返回了错误：请求超时，网关将在稍后重试。详情见状态页面。"),
            max: SMALL_MAX,
        },
        Bench {
            name: "SanitizeCleanCyrillic4KiB",
            text: clean_4kib(
                "Сервер вернул ошибку 503: сервис временно недоступен, повторите попытку позже. ",
            ),
            max: SMALL_MAX,
        },
        Bench {
            name: "SanitizeCleanAccented4KiB",
            text: clean_4kib(
                "Le serveur a répondu 503 : réessayez plus tard, déjà vu ; Grüße aus Köln, señor. ",
            ),
            max: SMALL_MAX,
        },
        Bench {
            name: "SanitizeDirty4KiB",
            text: dirty,
            max: SMALL_MAX,
        },
        Bench {
            name: "Sanitize10MiB",
            text: huge,
            max: DEFAULT_POLICY.max_length,
        },
        Bench {
            name: "SanitizeWindow",
            text: window,
            max: DEFAULT_POLICY.max_length,
        },
    ];
    for b in &benches {
        if b.name.starts_with("SanitizeClean") {
            assert!(
                matches!(SANITIZER.sanitize_max(&b.text, b.max), Cow::Borrowed(_)),
                "the {} input is not clean",
                b.name
            );
        }
    }
    if !timed {
        for b in &benches {
            measure(b, 1);
        }
        println!(
            "{} sanitizer benchmarks ran once (cargo bench times them)",
            benches.len()
        );
        return;
    }
    println!("pkg: rust");
    for b in &benches {
        if !filters.is_empty() && !filters.iter().any(|f| b.name.contains(f.as_str())) {
            continue;
        }
        measure(b, 10); // warm up: the tables, the caches
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
        let mbs = b.text.len() as f64 * n as f64 / d.as_secs_f64() / 1e6;
        println!(
            "{:<40} {:>10}\t{:>12.1} ns/op\t{:>10.2} MB/s\t{:>8} B/op\t{:>8} allocs/op",
            format!("BenchmarkRust/{}", b.name),
            n,
            ns,
            mbs,
            bytes / n,
            allocs / n
        );
    }
}
