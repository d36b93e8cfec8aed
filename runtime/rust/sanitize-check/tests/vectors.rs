//! The hand-curated vectors every language runs
//! (conformance/sanitizer.vectors.json), and the differential vectors of
//! `make sanitize-diff`: seeded random inputs with the Go package's outputs.

mod common;

use common::{check, check_policy, read, repo};

#[test]
fn sanitizer_vectors() {
    let file = read(&repo().join("conformance/sanitizer.vectors.json"));
    check_policy(&file);
    let default_max = file["policy"]["max_length"].as_u64().unwrap() as usize;
    let cases = file["cases"].as_array().expect("cases is a list");
    assert!(
        cases.len() >= 150,
        "{} cases, the file holds at least 150",
        cases.len()
    );
    let failures: Vec<String> = cases.iter().filter_map(|c| check(c, default_max)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// The three other sanitizers are held to agree on at least this many
/// random inputs.
const MIN_DIFF_CASES: usize = 10000;

#[test]
fn sanitizer_differential_vectors() {
    let path = std::env::var_os("ERRGEN_SANITIZE_DIFF").unwrap_or_default();
    assert!(
        !path.is_empty(),
        "ERRGEN_SANITIZE_DIFF is not set: run make sanitize-diff, then make test-rust-sanitize \
         (or set it to the absolute path of build/sanitize-diff.vectors.json)"
    );
    let path = std::path::PathBuf::from(path);
    assert!(
        path.exists(),
        "{} is missing: run make sanitize-diff",
        path.display()
    );
    let file = read(&path);
    check_policy(&file);
    let default_max = file["policy"]["max_length"].as_u64().unwrap() as usize;
    let cases = file["cases"].as_array().expect("cases is a list");
    assert!(
        cases.len() >= MIN_DIFF_CASES,
        "{} holds {} cases, fewer than {MIN_DIFF_CASES}: run make sanitize-diff",
        path.display(),
        cases.len()
    );
    for (passed, c) in cases.iter().enumerate() {
        if let Some(failure) = check(c, default_max) {
            panic!(
                "first mismatch after {passed} of {} cases passed, {failure}",
                cases.len()
            );
        }
    }
    println!(
        "sanitizer differential vectors: {} of {} cases passed ({})",
        cases.len(),
        cases.len(),
        path.display()
    );
}
