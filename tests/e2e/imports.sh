#!/usr/bin/env bash
# End to end, contract imports (issue 32): three repositories in temporary
# directories, Go modules all, released into a file GOPROXY
# (tests/go/cmd/modproxy) and taken by version from it:
#
#   (1) a platform repository whose contract (tests/e2e/imports/platform.yaml)
#       is the base vocabulary; it generates its Go, TypeScript, Python and
#       Rust packages and releases the module, contract included, as v1.0.0;
#   (2) two service repositories, orders (A) and search (B), each go get the
#       platform at v1.0.0 (their go.mod pins it) and import its contract by
#       module (imports/orders.yaml, imports/search.yaml), adding a group and
#       kinds of their own (search an origin too); each generates its four
#       packages, and errgen check is clean; orders releases v1.0.0;
#   (3) wire agreement, for every envelope of the other side's conformance
#       vectors (every kind's, the unknown kind's, unknown members, deep
#       nesting, vocabulary from a newer contract) and every next-step case:
#       orders' packages read search's, the platform's read both services':
#       a kind the reader defines (a base kind) exactly (the same envelope
#       back, the same answers and classification as the writer's), any
#       other kind through the reader's fallback (known false, the
#       fallback's classification), and the next step the envelope's own
#       advice gives. imports/expect.py derives every answer from the
#       vectors alone; a Go consumer module requiring orders and the
#       platform by version (check.go), a Node program (check.mjs), a
#       Python program (check.py) and a Rust crate (check.rs) hold the
#       packages to it;
#   (4) a breaking base change: the platform makes upstream_timeout never
#       safe to repeat under the same contract.version (its own compat
#       fails) and releases v1.1.0 anyway; each service runs go get (go.mod's
#       diff shows the upgrade), regenerates, checks, and errgen compat
#       against its last commit fails (exit 1) with the finding in the base
#       file (example.com/e2e<run>/platform@v1.1.0/contract/kinds.yaml:LINE:COL).
#
# The errgen is this checkout's, built once. Usage: tests/e2e/imports.sh
# (make test-e2e-imports); E2E_KEEP=1 keeps the temporary directory.
set -euo pipefail

e2e=e2e-imports
. "$(dirname "$0")/lib.sh"
need node python3 cargo
here="$repo/tests/e2e/imports"

( cd "$repo" && go build -o "$work/bin/errgen" ./cmd/errgen )
errgen="$work/bin/errgen"
build_modproxy
# From here every Go module comes from the file GOPROXY: the three
# repositories need nothing else, so a release the proxy lacks fails the run.
export GOPROXY="file://$work/goproxy" GONOSUMDB="example.com/e2e$id" GOTOOLCHAIN=local
mod="example.com/e2e$id"

# release DIR VERSION: the repository's module, as go get will take it
# (the zip leaves out .git, which modproxy says; nothing else may be left out).
release() {
  "$work/modproxy" -dir "$1" -module "$(cd "$1" && go list -m)" -version "$2" -o "$work/goproxy" 2> "$work/modproxy.log" ||
    fail "releasing $1 $2: $(cat "$work/modproxy.log")"
  ! grep -v ': left out of the zip: .*/\.git (' "$work/modproxy.log" || fail "releasing $1 $2 left files out"
  git_q -C "$1" tag "$2"
}

# config NAME PKG: an errgen.yaml for contract NAME (orders-error, ...)
# generating every output, the Go package PKG inside the repository's module.
config() {
  cat > errgen.yaml <<EOF
version: 1
contract: contract/kinds.yaml
metadata:
  license: Apache-2.0
  repository: https://example.com/e2e/$1
outputs:
  go:
    dir: gen/go/$2
    import_path: $(go list -m)/gen/go/$2
  typescript:
    name: "@e2e/$1"
  python:
  rust:
  schemas:
  docs:
  conformance:
  openapi:
EOF
}

# -------------------------------------------------------------- (1) platform
step "(1) the platform repository: its contract, four packages, release v1.0.0"
platform="$work/platform"
mkdir -p "$platform/contract" && cd "$platform"
git_q init -q
go mod init "$mod/platform" >/dev/null 2>&1
cp "$here/platform.yaml" contract/kinds.yaml
config platform-error platformerrors
"$errgen" generate
"$errgen" check
go vet ./...
git_q add -A && git_q commit -qm "platform error contract"
release "$platform" v1.0.0

# -------------------------------------------------------------- (2) services
# service NAME CONTRACT PKG: a service repository importing the platform
# at v1.0.0 by module.
service() {
  local dir="$work/$1"
  mkdir -p "$dir/contract" && cd "$dir"
  git_q init -q
  go mod init "$mod/$1" >/dev/null 2>&1
  go get "$mod/platform@v1.0.0"
  sed "s|example.com/e2e/platform|$mod/platform|" "$here/$1.yaml" > contract/kinds.yaml
  config "$2" "$3"
  "$errgen" generate
  "$errgen" check
  go vet ./...
  git_q add -A && git_q commit -qm "$1 error contract on platform v1.0.0"
}
step "(2) two services import the platform by module: orders and search"
service orders orders-error ordererrors
service search search-error searcherrors
release "$work/orders" v1.0.0

# -------------------------------------------------------- (3) wire agreement
step "(3) every envelope of one side's vectors, read by the other's packages (Go, TypeScript, Python, Rust)"
vectors() { echo "$work/$1/conformance/$2.vectors.json"; }
mkdir -p "$work/expect"
python3 "$here/expect.py" "$work/expect" \
  orders="$(vectors orders orders-error)" search="$(vectors search search-error)" \
  platform="$(vectors platform platform-error)" search="$(vectors search search-error)" \
  platform="$(vectors platform platform-error)" orders="$(vectors orders orders-error)"
expectations=("$work"/expect/*.json)

# Go: a consumer module that requires orders and the platform by version.
consumer="$work/consumer"
mkdir -p "$consumer" && cd "$consumer"
go mod init "$mod/consumer" >/dev/null 2>&1
sed '/^\/\/go:build ignore$/,+1d' "$here/check.go" > check.go
cat > main.go <<EOF
package main

import (
	orders "$mod/orders/gen/go/ordererrors"
	platform "$mod/platform/gen/go/platformerrors"
)

func init() {
	readers["orders"] = newReader(orders.Envelope{}, orders.Lookup, orders.NextStep)
	readers["platform"] = newReader(platform.Envelope{}, platform.Lookup, platform.NextStep)
}
EOF
go get "$mod/orders@v1.0.0" "$mod/platform@v1.0.0"
go run . "${expectations[@]}" || fail "a Go package does not read the other side's envelopes as expected"

# Node and Python: each package as it ships (the TypeScript package's dist,
# the Python package's directory), from the repositories' trees.
node "$here/check.mjs" orders="$work/orders/gen/ts" platform="$work/platform/gen/ts" -- "${expectations[@]}" ||
  fail "a TypeScript package does not read the other side's envelopes as expected"
python3 -I "$here/check.py" orders="$work/orders/gen/python:orders_error" platform="$work/platform/gen/python:platform_error" -- "${expectations[@]}" ||
  fail "a Python package does not read the other side's envelopes as expected"

# Rust: a crate depending on the two crates by path, built in the Rust
# suites' target directory with their Cargo.lock and build profile, so that
# serde is the one already built (as run.sh's Rust consumer does).
checkrs="$work/checkrs"
mkdir -p "$checkrs/src"
cp "$here/check.rs" "$checkrs/src/main.rs"
cp "$repo/tests/rust/Cargo.lock" "$checkrs/"
cat > "$checkrs/Cargo.toml" <<EOF
[package]
name = "e2e-imports-check"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
orders = { package = "orders-error", path = "$work/orders/gen/rust/orders-error" }
platform = { package = "platform-error", path = "$work/platform/gen/rust/platform-error" }
serde = "1"
serde_json = { version = "1", features = ["preserve_order", "unbounded_depth"] }
EOF
( cd "$checkrs" && CARGO_TARGET_DIR="$repo/build/rust/target" CARGO_INCREMENTAL=0 CARGO_PROFILE_DEV_DEBUG=0 \
  cargo run -q -- "${expectations[@]}" ) || fail "a Rust crate does not read the other side's envelopes as expected"

# ------------------------------------------------- (4) a breaking base change
step "(4) the platform makes upstream_timeout never safe to repeat (breaking, same contract.version), v1.1.0"
cd "$platform"
python3 - contract/kinds.yaml <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
old = """      action: retry_later
      same_arguments: safe
      guidance: Wait a little and repeat the call; the upstream may recover.
"""
assert s.count(old) == 1 and "  version: 1\n" in s
open(p, "w").write(s.replace(old, old.replace("safe", "never")))
EOF
"$errgen" generate
"$errgen" check
# The platform's own compat calls it breaking; the platform releases it
# anyway, as a minor version of its module.
rc=0
"$errgen" compat --against HEAD:contract/kinds.yaml > "$work/compat-platform.txt" || rc=$?
cat "$work/compat-platform.txt"
[ "$rc" = 1 ] || fail "the platform's compat exited $rc, not 1"
finding=$(grep -o '^contract/kinds\.yaml:[0-9]*:[0-9]*: BREAKING KIND_SAME_ARGUMENTS_CHANGED upstream_timeout:' "$work/compat-platform.txt") ||
  fail "the platform's compat did not report upstream_timeout's same_arguments"
git_q commit -qam "upstream_timeout: never repeat the same arguments"
release "$platform" v1.1.0

for s in orders search; do
  step "(4) $s takes platform v1.1.0: go get, generate, check; compat against its last commit fails in the base file"
  cd "$work/$s"
  go get "$mod/platform@v1.1.0"
  # The upgrade is a change to review: go.mod's diff shows it.
  git_q diff --exit-code go.mod && fail "$s: go get changed nothing in go.mod"
  "$errgen" generate
  "$errgen" check
  rc=0
  "$errgen" compat --against HEAD:contract/kinds.yaml > "$work/compat-$s.txt" 2>&1 || rc=$?
  cat "$work/compat-$s.txt"
  [ "$rc" = 1 ] || fail "$s: errgen compat exited $rc, not 1 (breaking)"
  # The finding is the platform's, positioned in the base file the service
  # imports; the upgrade itself is reported too.
  grep -qF "$mod/platform@v1.1.0/$finding" "$work/compat-$s.txt" ||
    fail "$s: compat does not report the base's change at $mod/platform@v1.1.0/${finding%%: BREAKING*}"
  grep -q "IMPORT_CHANGED .*$mod/platform@v1\.1\.0/contract/kinds\.yaml.* instead of $mod/platform@v1\.0\.0/" "$work/compat-$s.txt" ||
    fail "$s: compat does not report the upgrade of the import from v1.0.0 to v1.1.0"
done

step "ok"
