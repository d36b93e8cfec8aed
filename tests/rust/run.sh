#!/bin/sh
# Tests every generated Rust crate: gen/rust/* under the repository root and
# under each examples/<name>/, and the internal/gengo/testdata contracts
# generated into build/rust/_contracts/<case> with bin/errgen. For each
# crate: cargo fmt --check, cargo clippy --all-targets -D warnings, cargo doc
# (RUSTDOCFLAGS=-D warnings), and tests/rust/vectors.rs over its
# conformance vectors and the sanitizer vectors, in a test crate
# (build/rust/tests/<crate>) whose dependency `contract` is the crate.
# First, the runtime in place: runtime/rust with the reference contract's
# modules copied into runtime/rust/fixture. One CARGO_TARGET_DIR under
# build/rust keeps serde compiled once. ERRGEN_SANITIZE_DIFF names the
# differential vectors (make sanitize-diff); ERRGEN_READER_DIFF the
# differential reader vectors (make reader-diff), which tests/rust/readerdiff.rs
# runs through the reference contract's crate (the file is written for it);
# ERRGEN_PROTOJSON_AIP193 the AIP-193 answers protojson wrote for every
# contract (make protojson-aip193), which vectors.rs reads.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build="$repo/build/rust"
export CARGO_TARGET_DIR="$build/target"
export RUSTDOCFLAGS="-D warnings"
# ERRGEN_READER_ONLY=1 (make reader-fuzz) runs only the reader differential,
# and ERRGEN_NOSECRET_ONLY=1 (make nosecret-fuzz) only nosecret.rs, each on
# the reference crate, without the runtime, the lints and the other tests.
reader_only=${ERRGEN_READER_ONLY:-}
nosecret_only=${ERRGEN_NOSECRET_ONLY:-}
only="$reader_only$nosecret_only"
[ -n "$only" ] || : "${ERRGEN_SANITIZE_DIFF:?set ERRGEN_SANITIZE_DIFF (make sanitize-diff)}"
[ -n "$nosecret_only" ] || : "${ERRGEN_READER_DIFF:?set ERRGEN_READER_DIFF (make reader-diff)}"
[ -n "$only" ] || : "${ERRGEN_PROTOJSON_AIP193:?set ERRGEN_PROTOJSON_AIP193 (make protojson-aip193)}"
export ERRGEN_PROTOJSON_AIP193="${ERRGEN_PROTOJSON_AIP193:-}"
export ERRGEN_READER_DIFF="${ERRGEN_READER_DIFF:-}"
export ERRGEN_SANITIZE_DIFF="${ERRGEN_SANITIZE_DIFF:-}" ERRGEN_SANITIZER_VECTORS="$repo/conformance/sanitizer.vectors.json"
# The data of nosecret.rs (a module of vectors.rs).
export ERRGEN_NOSECRET_DATA="$repo/tests/testdata/nosecret.json"
started=$(date +%s)

if [ -z "$only" ]; then
echo "rust: the runtime in place (runtime/rust)"
rm -rf "$repo/runtime/rust/fixture" && mkdir -p "$repo/runtime/rust/fixture"
# -p keeps the files' times: cargo then finds the runtime fresh when they have
# not changed since its last build (a new copy each run rebuilt it: about 10
# CPU-seconds), and stale when make generate has rewritten them.
cp -p "$repo/gen/rust/agent-error/src/contract.rs" "$repo/gen/rust/agent-error/src/envelope.rs" "$repo/runtime/rust/fixture/"
(cd "$repo/runtime/rust" && cargo fmt --check && cargo clippy -q --all-targets -- -D warnings && cargo clippy -q --all-targets --all-features -- -D warnings && cargo test -q --all-features)
fi

errgen="$repo/bin/errgen"
[ -x "$errgen" ] || (cd "$repo" && go build -o bin/errgen ./cmd/errgen)
roots="$repo"
[ -n "$only" ] || for d in "$repo"/examples/*/; do roots="$roots ${d%/}"; done
[ -n "$only" ] || for c in "$repo"/internal/gengo/testdata/*/kinds.yaml; do
	case=$(basename "$(dirname "$c")")
	out="$build/_contracts/$case"
	mkdir -p "$out"
	"$errgen" generate -contract "$c" -out "$out" >/dev/null
	roots="$roots $out"
done

for root in $roots; do
	for crate in "$root"/gen/rust/*/; do
		[ -d "$crate" ] || continue # an example without a Rust package (examples/billing)
		crate=${crate%/}
		name=$(sed -n 's/^name = "\(.*\)"/\1/p' "$crate/Cargo.toml" | head -1)
		echo "rust: $name ($crate)"
		# A generated crate is a library and ships no lock; the lint and doc
		# runs inside it use the tests' pinned versions (git ignores the copy).
		cp "$here/Cargo.lock" "$crate/Cargo.lock"
		[ -n "$only" ] || (cd "$crate" && cargo fmt --check && cargo clippy -q --all-targets --all-features -- -D warnings && cargo doc -q --no-deps --all-features)
		t="$build/tests/$name"
		mkdir -p "$t"
		[ -f "$here/Cargo.lock" ] && cp "$here/Cargo.lock" "$t/Cargo.lock"
		cat > "$t/Cargo.toml" <<TOML
[package]
name = "vectors-of-$name"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
contract = { package = "$name", path = "$crate", features = ["http"] }
http = "1"
serde = "1"
serde_json = { version = "1", features = ["preserve_order", "unbounded_depth"] }

[[test]]
name = "vectors"
path = "$here/vectors.rs"

[workspace]
TOML
		if [ "$crate" = "$repo/gen/rust/agent-error" ]; then
			printf '\n[[test]]\nname = "readerdiff"\npath = "%s/readerdiff.rs"\n' "$here" >> "$t/Cargo.toml"
		fi
		# caller_sets for vectors.rs: the context fields the layout requires,
		# which Envelope::new takes after the message.
		ctx=$(sed -n 's/^    pub fn new(kind: Kind, message: &str\(.*\)) -> Envelope {$/\1/p' "$crate/src/envelope.rs" | tr ',' '\n' | sed -n 's/^ *\([A-Za-z0-9_#]*\): &str$/\1/p')
		{
			echo "/// Sets the context fields the layout requires from want where e has none (written by tests/rust/run.sh)."
			echo "fn caller_sets(mut e: Envelope, want: &Envelope) -> Envelope {"
			for f in $ctx; do echo "    if e.$f.is_empty() { e.$f = want.$f.clone(); }"; done
			echo "    let _ = want;"
			echo "    e"
			echo "}"
			# For nosecret.rs: the constructors with that context filled in,
			# and the string fields that have a setter (with_str sets one
			# through it, set_str assigns it as a producer's trusted text).
			args=""
			for f in $ctx; do args="$args, \"example $f\""; done
			echo "fn new_env(kind: Kind, message: &str) -> Envelope { Envelope::new(kind, message$args) }"
			echo "fn new_env_trusted(kind: Kind, message: &str) -> Envelope { Envelope::new_trusted(kind, message$args) }"
			pairs=$(awk '/^    pub fn with_[A-Za-z0-9_]*\(mut self, v: &str\) -> Envelope \{$/ { n = $3; sub(/^with_/, "", n); sub(/\(.*/, "", n); getline; f = $1; sub(/^self\./, "", f); print n ":" f }' "$crate/src/envelope.rs")
			printf 'const STR_FIELDS: &[&str] = &['
			for p in $pairs; do printf '"%s", ' "${p%%:*}"; done
			echo '];'
			echo "fn with_str(e: Envelope, f: &str, s: &str) -> Envelope {"
			echo "    match f {"
			for p in $pairs; do echo "        \"${p%%:*}\" => e.with_${p%%:*}(s),"; done
			echo "        _ => e,"
			echo "    }"
			echo "}"
			echo "fn set_str(e: &mut Envelope, f: &str, s: &str) {"
			echo "    match f {"
			for p in $pairs; do echo "        \"${p%%:*}\" => e.${p#*:} = s.to_owned(),"; done
			echo "        _ => {}"
			echo "    }"
			echo "}"
		} > "$t/caller.rs.new"
		# Replaced only when it differs, so that cargo finds the test fresh
		# when nothing has changed since the last run (the tests still run).
		if cmp -s "$t/caller.rs.new" "$t/caller.rs"; then rm "$t/caller.rs.new"; else mv "$t/caller.rs.new" "$t/caller.rs"; fi
		vectors=$(ls "$root"/conformance/*.vectors.json | grep -v sanitizer | head -1)
		if [ -z "$reader_only" ]; then
			rm -f "$t/nosecret.txt"
			(cd "$t" && ERRGEN_VECTORS="$vectors" cargo test -q --test vectors ${nosecret_only:+nosecret} 2>&1) | tee "$t/test.log" | grep -E "^test result|FAILED|panicked" || true
			# nosecret.rs's seed and counts.
			[ -f "$t/nosecret.txt" ] && sed 's/^/  /' "$t/nosecret.txt"
			grep -q "test result: ok" "$t/test.log" || { echo "rust: $name: vector tests failed (see $t/test.log)"; exit 1; }
		fi
		if [ -z "$nosecret_only" ] && grep -q readerdiff "$t/Cargo.toml"; then
			(cd "$t" && ERRGEN_READER_DIFF_REPORT="$t/reader-diff.txt" cargo test -q --test readerdiff 2>&1) > "$t/readerdiff.log" || { cat "$t/readerdiff.log"; echo "rust: $name: the reader differential failed"; exit 1; }
			sed 's/^/  /' "$t/reader-diff.txt"
		fi
	done
done
echo "rust: every crate passed in $(( $(date +%s) - started ))s"
