package runtime

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/errgen/errgen/internal/contract"
)

// The Rust runtime's sanitizer is compiled and tested in place by
// runtime/rust/sanitize-check (make test-rust-sanitize), with errgen's
// default policy written out in a fixture. These tests hold the fixture and
// the lists the sanitizer carries equal to internal/contract's definitions,
// as runtime_test.go does for the other languages.

const (
	rustSanitizer     = "rust/src/sanitize.rs"
	rustDefaultPolicy = "rust/sanitize-check/src/default_policy.rs"
)

func readRust(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rustString writes s as a Rust string literal.
func rustString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7F:
			fmt.Fprintf(&b, `\u{%x}`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// rustDefaultPolicyText is the fixture as rustfmt prints it, rebuilt from
// the default policy.
func rustDefaultPolicyText() string {
	var b strings.Builder
	b.WriteString(`//! errgen's default sanitizer policy, which the shared and the differential
//! vectors assume. runtime/rust_sanitize_test.go rebuilds this file from
//! internal/contract's defaults and fails when it differs.

use crate::sanitize::{SanitizePolicy, Sanitizer};

/// errgen's default policy: the policy of a contract without a ` + "`sanitize`" + `
/// section.
pub static DEFAULT_POLICY: SanitizePolicy = SanitizePolicy {
`)
	list := func(xs []string) {
		b.WriteString("&[\n")
		for _, x := range xs {
			fmt.Fprintf(&b, "        %s,\n", rustString(x))
		}
		b.WriteString("    ],\n")
	}
	s := contract.DefaultSanitize(&contract.Contract{})
	fmt.Fprintf(&b, "    max_length: %d,\n", s.MaxLength)
	fmt.Fprintf(&b, "    truncation_marker: %s,\n", rustString(s.TruncationMarker))
	b.WriteString("    markers: ")
	list(s.Markers)
	b.WriteString("    contract_secrets: &[],\n")
	fmt.Fprintf(&b, "    paths: %t,\n", s.Paths)
	b.WriteString("    credential_names: ")
	list(s.AllCredentialNames())
	b.WriteString(`};

/// The sanitizer of the default policy.
pub static SANITIZER: Sanitizer = Sanitizer::new(&DEFAULT_POLICY);
`)
	return b.String()
}

// TestRustDefaultPolicy: the sanitize-check crate's fixture is errgen's
// default policy, which the vector files assume.
func TestRustDefaultPolicy(t *testing.T) {
	if got, want := readRust(t, rustDefaultPolicy), rustDefaultPolicyText(); got != want {
		t.Errorf("%s is not errgen's default policy; write it as\n%s", rustDefaultPolicy, want)
	}
}

// TestRustSanitizerLists: the Rust sanitizer carries the key file
// extensions and home prefixes the loader checks a truncation marker
// against, the built-in secret prefixes, and the text of a redaction; its
// removed characters are the loader's (each range's ends are written out).
func TestRustSanitizerLists(t *testing.T) {
	text := readRust(t, rustSanitizer)
	var lists []string
	lists = append(lists, contract.KeyFileExtensions...)
	lists = append(lists, contract.HomePrefixes...)
	lists = append(lists, contract.BuiltinSecretPrefixes...)
	lists = append(lists, contract.Redacted)
	for _, x := range lists {
		if !strings.Contains(text, rustString(x)) {
			t.Errorf("%s does not list %s", rustSanitizer, rustString(x))
		}
	}
	// The removed characters: every start and end of a run of them (above
	// the C0 controls, which the file tests by their exceptions) is
	// written in the file's removed_rune as a hex literal.
	for r := rune(0x7F); r <= 0xE00FF; r++ {
		if !contract.SanitizeRemoved(r) {
			continue
		}
		first := !contract.SanitizeRemoved(r - 1)
		last := !contract.SanitizeRemoved(r + 1)
		if (first || last) && !strings.Contains(text, fmt.Sprintf("0x%04X", r)) && !strings.Contains(text, fmt.Sprintf("0x%X", r)) {
			t.Errorf("%s does not write U+%04X, an end of a run of removed characters", rustSanitizer, r)
		}
	}
}
