//! The Rust runtime's sanitizer, compiled and tested where it is written:
//! `runtime/rust/src/sanitize.rs` and `words.rs` are included by path, as
//! modules, the way a generated crate holds them, with errgen's default
//! policy beside them.
#![deny(missing_docs)]

#[path = "../../src/sanitize.rs"]
pub mod sanitize;

#[path = "../../src/words.rs"]
pub mod words;

pub mod default_policy;

pub use default_policy::{DEFAULT_POLICY, SANITIZER};
