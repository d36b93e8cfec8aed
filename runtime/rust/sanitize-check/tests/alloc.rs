//! Clean text costs no allocation: a counting global allocator (its own test
//! binary, one test, so no other thread allocates while it counts).

use errgen_sanitize_check::SANITIZER;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations(f: impl Fn()) -> usize {
    let before = ALLOCS.load(Ordering::SeqCst);
    for _ in 0..100 {
        f();
    }
    (ALLOCS.load(Ordering::SeqCst) - before) / 100
}

#[test]
fn clean_text_does_not_allocate() {
    // The tables are built on first use, once.
    let _ = SANITIZER.sanitize("warm up");
    let clean = "upstream api.example.com:443 answered 503 (Service Unavailable); retry_after=2s, page=3 … Grüße 🚀\n"
        .repeat(40);
    let clean = &clean[..clean
        .char_indices()
        .take_while(|(i, _)| *i < 2000)
        .last()
        .unwrap()
        .0];
    let paths = "open /srv/app/homework/x.go, /home, /Users, monkey.keyboard, sort_key, id_rsa.pub, did it, api.key.example.com, c:\\work";
    let cjk = "上游服务返回了错误：请求超时，网关将在稍后重试。".repeat(20);
    for text in [
        "",
        "plain",
        clean,
        "status: 500, code=7, key=value, https://user@example.com/x",
        paths,
        &cjk,
    ] {
        assert_eq!(SANITIZER.sanitize(text), text);
        let n = allocations(|| {
            std::hint::black_box(SANITIZER.sanitize(std::hint::black_box(text)));
        });
        assert_eq!(
            n,
            0,
            "sanitize({:?}…) allocated {n} times",
            &text[..text.len().min(40)]
        );
        let n = allocations(|| {
            std::hint::black_box(
                SANITIZER.sanitize_bytes(std::hint::black_box(text.as_bytes()), 2048),
            );
        });
        assert_eq!(
            n,
            0,
            "sanitize_bytes({:?}…) allocated {n} times",
            &text[..text.len().min(40)]
        );
    }
    // The counter counts: dirty text allocates its output.
    let n = allocations(|| {
        std::hint::black_box(SANITIZER.sanitize(std::hint::black_box("password=hunter2")));
    });
    assert!(n >= 1, "a changed text allocated {n} times");
}
