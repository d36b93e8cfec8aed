//! errgen's default sanitizer policy, which the shared and the differential
//! vectors assume. runtime/rust_sanitize_test.go rebuilds this file from
//! internal/contract's defaults and fails when it differs.

use crate::sanitize::{SanitizePolicy, Sanitizer};

/// errgen's default policy: the policy of a contract without a `sanitize`
/// section.
pub static DEFAULT_POLICY: SanitizePolicy = SanitizePolicy {
    max_length: 2048,
    truncation_marker: " …[truncated]",
    markers: &[
        "<system>",
        "</system>",
        "[INST]",
        "[/INST]",
        "###",
        "<<",
        "<|im_start|>",
        "<|im_end|>",
        "<|system|>",
        "<|user|>",
        "<|assistant|>",
        "<|endoftext|>",
        "<|eot_id|>",
        "<|start_header_id|>",
        "<|end_header_id|>",
    ],
    contract_secrets: &[],
    paths: true,
    credential_names: &[
        ".ssh",
        ".gnupg",
        ".aws",
        "id_rsa",
        "id_dsa",
        "id_ecdsa",
        "id_ed25519",
        "id_ecdsa_sk",
        "id_ed25519_sk",
        ".netrc",
        "_netrc",
        ".pgpass",
        ".git-credentials",
        ".npmrc",
        ".pypirc",
        ".vault-token",
        ".kube/config",
        ".docker/config.json",
    ],
};

/// The sanitizer of the default policy.
pub static SANITIZER: Sanitizer = Sanitizer::new(&DEFAULT_POLICY);
