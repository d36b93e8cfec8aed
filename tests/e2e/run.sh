#!/usr/bin/env bash
# End to end, as errgen's users work: in temporary directories outside this
# repository, every package is released to a registry and installed from it
# BY VERSION, never by path. The registries are local: a file GOPROXY of
# module zips (tests/go/cmd/modproxy) and one server on 127.0.0.1
# (tests/e2e/registry.py) for npm, PyPI and cargo. Nothing this test
# publishes is ever fetched from anywhere else.
#
#   (a) a contract owner's Go module installs errgen as a Go tool from this
#       checkout (a replace directive stands in for an errgen release), runs
#       errgen init (setting its npm scope, Python names, license and
#       repository, and grpc: true), go generate ./..., check and compat;
#   (b) release 1.0.0: each package passes its registry's pre-publish
#       checks (the module zip rules; npm pack, publint, attw; python -m
#       build, twine check --strict; cargo publish's packaging, with no
#       warning, the crate built as packaged by the Rust consumer) and is
#       published with the registry's own tool (npm publish, twine upload,
#       cargo publish; the zips written into the file GOPROXY);
#   (c) consumers take 1.x by version: a Go module (its module graph holds
#       no generator dependency) and a gRPC service's module (both Go
#       modules), a TypeScript project (^1.0.0, compiled with tsc), a Python
#       virtual environment ('>=1,<2') and a Rust crate ("1"); each prints
#       an envelope, its next step and whether it knows card_declined;
#   (d) release 1.1.0: the owner adds card_declined (compat: additive, a
#       minor release); each consumer updates within 1.x, builds its
#       unchanged code and now knows the kind;
#   (e) release 2.0.0: a breaking change (compat: a major release, the wire
#       version 2, the Go module path ending in /v2); consumers pinned to
#       1.x update and stay on 1.1.0; each then takes 2.x with the one step
#       docs/releases.md documents (Go: the /v2 import path; npm ^2.0.0; pip
#       '>=2,<3'; Cargo "2") and prints the version 2 envelope;
#   (f) this repository's own generated packages pass the same
#       pre-publish checks (its Go modules' zip check is tests/go's
#       cmd/modproxy test; tests/rust builds its crate);
#
# after which errgen check is still clean and the owner's git tree is
# unchanged: releasing and installing never dirty the drift gate. At every
# step the four languages' consumers print the same thing.
#
# Usage: tests/e2e/run.sh (make test-e2e, after ts-deps and py-deps: it uses
# tests/ts's tsc, publint and attw and tests/python/.venv's build and twine).
# E2E_KEEP=1 keeps the temporary directory (registries, consumers, owner).
# Every tool it needs is required: a missing one fails the run.
set -euo pipefail

e2e=e2e
. "$(dirname "$0")/lib.sh"
tsbin="$repo/tests/ts/node_modules"
tsc="$tsbin/typescript/bin/tsc"
pyvenv="$repo/tests/python/.venv/bin/python"
need node npm python3 cargo
for f in "$tsc" "$tsbin/publint/src/cli.js" "$tsbin/@arethetypeswrong/cli/dist/index.js"; do
  [ -f "$f" ] || { echo "e2e: $f is missing; run npm ci in tests/ts (make ts-deps)" >&2; exit 1; }
done
"$pyvenv" -c 'import build, twine, flit_core' 2>/dev/null ||
  { echo "e2e: tests/python/.venv lacks build, twine or flit_core; run make py-deps" >&2; exit 1; }

# The Go module cache (lib.sh) and cargo's registry cache are the user's (so
# that gRPC and serde are neither fetched nor compiled again): what this run
# adds to them is removed at exit, by names only this run uses.
cargo_home=${CARGO_HOME:-$HOME/.cargo}
server=
e2e_cleanup_more() {
  [ -z "$server" ] || kill "$server" 2>/dev/null || true
  if [ -n "${port:-}" ]; then
    for d in "$cargo_home"/registry/index/127.0.0.1-*; do
      if grep -qs "127.0.0.1:$port/" "$d/config.json"; then
        n=$(basename "$d")
        rm -rf "$d" "$cargo_home/registry/cache/$n" "$cargo_home/registry/src/$n"
      fi
    done
  fi
}

# ------------------------------------------------------------ the registries
python3 "$repo/tests/e2e/registry.py" --root "$work/registry" --port-file "$work/port" 2>"$work/registry.log" &
server=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port" 2>/dev/null) || fail "the registry server did not start: $(cat "$work/registry.log")"
reg="http://127.0.0.1:$port"
token=e2e-token
# Go: the file GOPROXY the owner publishes to, then the module cache as a
# second one (errgen's and gRPC's modules, which make test downloads first):
# no Go module comes from the network, so a release the file GOPROXY lacks
# fails the run instead of being looked for elsewhere.
( cd "$repo" && go mod download ) && ( cd "$repo/gen/go/agenterror/grpcstatus" && go mod download )
export GOPROXY="file://$work/goproxy,file://$gomodcache/cache/download" GONOSUMDB="example.com/e2e$id"
# npm: the @acme scope's registry, and where it takes a token.
export NPM_CONFIG_USERCONFIG="$work/npmrc" npm_config_cache="$work/npm-cache" \
  npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
printf '@acme:registry=%s/npm/\n//127.0.0.1:%s/npm/:_authToken=%s\n' "$reg" "$port" "$token" > "$work/npmrc"
# PyPI: the index only (no links of the environment's).
unset PIP_FIND_LINKS PIP_INDEX_URL PIP_EXTRA_INDEX_URL
pip=("$pyvenv" -m pip --disable-pip-version-check --quiet --no-cache-dir)
# Cargo: the registry e2e, for every crate under $work.
mkdir -p "$work/.cargo"
printf '[registries.e2e]\nindex = "sparse+%s/cargo/"\n' "$reg" > "$work/.cargo/config.toml"
# The Rust builds share the Rust suites' target directory and build profile
# (packaging, which builds nothing, has one of its own: make test's Rust
# suite holds the shared one's lock while it builds).
export CARGO_TARGET_DIR="$repo/build/rust/target" CARGO_INCREMENTAL=0 CARGO_PROFILE_DEV_DEBUG=0

# ---------------------------------------------------------------- (a) owner
step "(a) owner module: go get -tool errgen, errgen init, go generate, check, compat"
owner="$work/payments"
mkdir -p "$owner" && cd "$owner"
git_q init -q
go mod init "example.com/e2e$id/payments" >/dev/null 2>&1
# The owner's module is at the oldest Go the README promises; taking errgen
# as a tool must leave its go line there (issue 29: errgen's go line was
# higher, and tidy raised the owner's to it).
floor=$(sed -n 's/^With Go \(1\.[0-9.]*\) or later.*/\1/p' "$repo/README.md" | head -n 1)
[ -n "$floor" ] || fail "README.md no longer says \"With Go 1.N or later\""
go mod edit -go="$floor"
# With a release this is `go get -tool github.com/errgen/errgen/cmd/errgen@vX.Y.Z`.
# Here this checkout stands in for the release: the requirement is replaced
# by the directory, and the tool directive is added the way go get -tool
# adds it (go get itself would first ask the registry for a module named
# like the command's package path, which no registry has).
go mod edit -require=github.com/errgen/errgen@v0.0.0 -replace="github.com/errgen/errgen=$repo" -tool=github.com/errgen/errgen/cmd/errgen
go mod tidy
grep -qx "go $floor" go.mod || fail "taking errgen as a tool raised the owner's go line from $floor to $(sed -n 's/^go //p' go.mod)"
go tool errgen version
go tool errgen init
# The team publishes under its npm scope and its own Python names, with its
# license and repository, and the grpcstatus module: uncomment and set the
# lines init suggested.
sed -i -e 's|^    # name: "@your-scope/payments-errors".*|    name: "@acme/payments-errors"|' \
  -e 's|^    # distribution: payments-errors .*|    distribution: acme-payments-errors|' \
  -e 's|^    # package: payments_errors .*|    package: acme_payments_errors|' \
  -e 's|^    # grpc: true .*|    grpc: true|' \
  -e 's|^# metadata:$|metadata:|' -e 's|^#   license: .*|  license: Apache-2.0|' \
  -e 's|^#   repository: .*|  repository: https://example.com/acme/payments|' errgen.yaml
for want in '    name: "@acme/payments-errors"' '    package: acme_payments_errors' '    grpc: true' '  license: Apache-2.0'; do
  grep -qxF "$want" errgen.yaml || fail "errgen init's config no longer suggests the line this test sets ($want):
$(cat errgen.yaml)"
done
go tool errgen validate -v
cat > generate.go <<'EOF'
// Package payments owns the payments error contract.
package payments

//go:generate go tool errgen generate
EOF
go generate ./...
gomod="$owner/gen/go/paymentserrors"
crate_dir=$(ls -d "$owner"/gen/rust/*/ 2>/dev/null | head -1)
[ -n "$crate_dir" ] || fail "errgen init's config did not select rust: no gen/rust/<crate> in the owner's tree"
crate=$(sed -n 's/^name = "\(.*\)"/\1/p' "$crate_dir/Cargo.toml" | head -1)
# The grpcstatus module's go.sum is the owner's: tidied once, as docs/grpc.md says.
( cd "$gomod/grpcstatus" && go mod tidy && go vet ./... )
( cd "$gomod" && go vet ./... )
go vet ./...
go tool errgen check -v
git_q add -A && git_q commit -qm "payments error contract, release 1.0.0"
go tool errgen compat --against HEAD:contract/kinds.yaml

# attw TARBALL: Are the types wrong? The package is ES modules only, by
# design: the esm-only profile leaves out require() from CommonJS.
attw() {
  node "$tsbin/@arethetypeswrong/cli/dist/index.js" --profile esm-only --quiet "$1" ||
    { node "$tsbin/@arethetypeswrong/cli/dist/index.js" --profile esm-only "$1"; fail "attw: $1"; }
}

# cargo_quiet ARGS...: cargo ARGS, failing on any warning it prints (cargo
# package warns of a manifest a registry would refuse; -q would hide it)
# but one matching $allow_warning.
cargo_quiet() {
  local log="$work/cargo.log"
  cargo "$@" > "$log" 2>&1 || { cat "$log"; fail "cargo $*"; }
  if grep '^warning' "$log" | grep -qv "${allow_warning:-^$}"; then
    cat "$log"
    fail "cargo $* warns"
  fi
}

# release VERSION [first]: the owner's release of all four packages, each
# after its registry's pre-publish checks; attw only on the first (the
# package's layout and exports map are the same in every release). cargo
# publish packages the crate without building it: every release is built
# as packaged by the Rust consumer, from the registry.
release() {
  local v=$1 first=${2:-} path tgz crate
  step "release $v: pre-publish checks, then publish to the local registries"
  cd "$owner"
  # Go: the module zip rules; the release is the tag of each module's directory.
  for d in "$gomod" "$gomod/grpcstatus"; do
    path=$(cd "$d" && go list -m)
    "$work/modproxy" -dir "$d" -module "$path" -version "v$v" -o "$work/goproxy"
    git_q tag "${d#"$owner/"}/v$v"
  done
  # npm: the tarball npm publish uploads, linted as it is.
  mkdir -p "$work/dist/npm"
  tgz="$work/dist/npm/$(cd gen/ts && npm pack --silent --pack-destination "$work/dist/npm")"
  node "$tsbin/publint/src/cli.js" run --strict "$tgz"
  [ -z "$first" ] || attw "$tgz"
  # npm publish warns when it rewrites package.json (it "auto-corrected" a
  # repository URL errgen once wrote): a warning fails the release too.
  npm publish --registry "$reg/npm/" "$tgz" > "$work/npm-publish.log" 2>&1 || fail "npm publish: $(cat "$work/npm-publish.log")"
  ! grep -i 'npm warn' "$work/npm-publish.log" || fail "npm publish warns"
  # PyPI: the wheel and sdist, built with the pinned backend, checked as the
  # index renders them.
  "$pyvenv" -m build --no-isolation --outdir "$work/dist/py-$v" gen/python > "$work/build.log" 2>&1 || fail "python -m build: $(cat "$work/build.log")"
  "$pyvenv" -m twine check --strict "$work/dist/py-$v"/*
  TWINE_USERNAME=__token__ TWINE_PASSWORD=$token "$pyvenv" -m twine upload --non-interactive --disable-progress-bar \
    --repository-url "$reg/pypi/" "$work/dist/py-$v"/* >/dev/null
  # crates: cargo publish packages the crate (with no warning); from a
  # copy with the Rust suites' Cargo.lock, so no lock file lands in the
  # owner's tree and serde is the one already built.
  crate="$work/crate-$v"
  cp -r "$crate_dir" "$crate"
  cp "$repo/tests/rust/Cargo.lock" "$crate/"
  ( cd "$crate" && CARGO_TARGET_DIR="$work/cargo-package" CARGO_REGISTRIES_E2E_TOKEN=$token cargo_quiet publish --registry e2e --no-verify )
}

# run_consumers TAG: every consumer's program, each printing an envelope,
# its next step and whether it knows card_declined; all must agree.
run_consumers() {
  local tag=$1
  ( cd "$work/checkout-go" && go run . ) > "$work/go-$tag.out"
  ( cd "$work/checkout-ts" && node "$tsc" -p . && node out/main.js ) > "$work/ts-$tag.out"
  "$work/venv/bin/python" -I "$work/main.py" > "$work/py-$tag.out"
  ( cd "$work/checkout-rust" && cargo run -q ) > "$work/rust-$tag.out"
  python3 - "$work"/{go,ts,py,rust}-"$tag".out <<'EOF'
import json, sys
outs = []
for p in sys.argv[1:]:
    lines = open(p).read().splitlines()
    outs.append((json.loads(lines[0]), lines[1].strip().lower(), lines[2].strip().lower()))
if any(o != outs[0] for o in outs):
    for p, o in zip(sys.argv[1:], outs):
        print(p, o, file=sys.stderr)
    sys.exit("e2e: FAIL: the languages disagree")
print("agree:", json.dumps(outs[0][0], sort_keys=True), outs[0][1], "card_declined known:", outs[0][2])
EOF
}
# expect TAG VERSION KNOWN: the consumers printed the wire version VERSION
# and KNOWN (true or false) for card_declined.
expect() {
  python3 - "$work/go-$1.out" "$2" "$3" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
v, known = json.loads(lines[0])["contract_version"], lines[2].strip().lower()
if (str(v), known) != (sys.argv[2], sys.argv[3]):
    sys.exit(f"e2e: FAIL: contract_version {v} and card_declined known {known}, want {sys.argv[2]} and {sys.argv[3]}")
EOF
}

build_modproxy
release 1.0.0 first

# ------------------------------------------------------------ (c) consumers
step "(c) consumers take 1.x by version from the registries"
gopath=$(cd "$gomod" && go list -m)
gocons="$work/checkout-go"
mkdir -p "$gocons" && cd "$gocons"
go mod init example.com/checkout >/dev/null 2>&1
cat > main.go <<EOF
package main

import (
	"encoding/json"
	"fmt"

	pe "$gopath"
)

func main() {
	e := pe.NewNotFound("no such charge")
	data, err := json.Marshal(e)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(data))
	fmt.Println(pe.NextStep(e, 1).Step)
	fmt.Println(pe.Lookup("card_declined").Known)
}
EOF
go get "$gopath@v1.0.0"
go mod tidy
graph=$(go mod graph)
echo "go mod graph: $graph"
if grep -E 'errgen/errgen|jennifer|yaml|jsonschema|strcase|golang.org/x' <<<"$graph"; then
  fail "the consumer's module graph holds generator dependencies"
fi

grpccons="$work/checkout-grpc"
mkdir -p "$grpccons" && cd "$grpccons"
go mod init example.com/checkoutgrpc >/dev/null 2>&1
write_grpc() {
  cat > main.go <<EOF
package main

import (
	"encoding/json"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pe "$1"
	"$2"
)

func main() {
	e := pe.NewNotFound("no such charge")
	err := grpcstatus.Error(e) // what a handler returns
	st, ok := status.FromError(err)
	cl := pe.Lookup(e.Kind)
	if !ok || st.Code() != codes.Code(cl.GRPCCode) {
		panic(fmt.Sprintf("status %v, want the kind's code %s", st, cl.GRPCStatus))
	}
	back, ok := grpcstatus.FromError(err) // what a client reads
	if !ok {
		panic("FromError did not read the status")
	}
	want, _ := json.Marshal(e)
	got, _ := json.Marshal(back)
	if string(got) != string(want) {
		panic(fmt.Sprintf("round trip through a status:\n got %s\nwant %s", got, want))
	}
	fmt.Println(string(got))
}
EOF
}
write_grpc "$gopath" "$gopath/grpcstatus"
# Only the grpcstatus module is asked for: it requires the package at its
# own release, so the package comes with it.
go get "$gopath/grpcstatus@v1.0.0"
go mod tidy
if go mod graph | grep -E 'errgen/errgen|jennifer|yaml|jsonschema|strcase'; then
  fail "the gRPC service's module graph holds generator dependencies"
fi
go run . > "$work/grpc-1.0.0.out"

tscons="$work/checkout-ts"
mkdir -p "$tscons" && cd "$tscons"
echo '{"name": "checkout", "private": true, "type": "module"}' > package.json
# skipLibCheck, as tsc --init writes it: tests/ts type-checks the package's
# declarations; this checks the program against them.
cat > tsconfig.json <<'EOF'
{"compilerOptions": {"strict": true, "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022", "outDir": "out", "types": [], "skipLibCheck": true}, "files": ["main.ts"]}
EOF
cat > main.ts <<'EOF'
import { isKnownKind, newNotFound, nextStep, serializeEnvelope, type Envelope } from "@acme/payments-errors";

const e: Envelope = newNotFound("no such charge");
console.log(serializeEnvelope(e));
console.log(nextStep(e, 1).step);
console.log(isKnownKind("card_declined"));
EOF
npm install --silent "@acme/payments-errors@^1.0.0"
[ "$(node -p 'require("./package.json").dependencies["@acme/payments-errors"]')" = "^1.0.0" ] || fail "npm did not record ^1.0.0: $(cat package.json)"

python3 -m venv --without-pip "$work/venv"
"${pip[@]}" --python "$work/venv/bin/python" install --index-url "$reg/pypi/simple/" 'acme-payments-errors>=1,<2'
cat > "$work/main.py" <<'EOF'
import acme_payments_errors as pe

e = pe.new_not_found("no such charge")
print(e.to_json())
print(pe.next_step(e, 1).step.value)
print(pe.is_known_kind("card_declined"))
EOF

rscons="$work/checkout-rust"
mkdir -p "$rscons/src"
cat > "$rscons/Cargo.toml" <<EOF
[package]
name = "checkout"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
payments = { package = "$crate", version = "1", registry = "e2e" }
EOF
cat > "$rscons/src/main.rs" <<'EOF'
use payments::{Envelope, Kind};

fn main() {
    let e = Envelope::new_not_found("no such charge");
    let text = e.to_json().expect("encodes");
    let back = Envelope::from_json(&text).expect("decodes");
    assert_eq!(back, e);
    println!("{text}");
    println!("{}", back.next_step(1).step.as_str());
    println!("{}", Kind::from("card_declined").is_known());
    // The CLI surface: the line a command writes on stderr, read back.
    let mut line = Vec::new();
    back.write_cli(&mut line, "charge").expect("writes");
    assert_eq!(Envelope::read_cli(&line).expect("reads"), e);
}
EOF
# The crates the repository's Rust tests pin, so that serde is the one
# already built; cargo adds the registry's crate to it.
cp "$repo/tests/rust/Cargo.lock" "$rscons/Cargo.lock"

run_consumers 1.0.0
expect 1.0.0 1 false
[ "$(head -1 "$work/grpc-1.0.0.out")" = "$(head -1 "$work/go-1.0.0.out")" ] || fail "the envelope read back from a status is not the Go consumer's"

# ------------------------------------------------------------- (d) 1.1.0
step "(d) an additive change: card_declined, release 1.1.0; consumers update within 1.x"
cd "$owner"
python3 - contract/kinds.yaml <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
anchor = "  internal_error:\n"
kind = """  card_declined:
    group: request
    description: The card issuer declined the charge.
    origin: validation
    http: 402
    recovery:
      action: fix_arguments
      same_arguments: never
      guidance: Ask the customer for another card.
"""
assert anchor in s and "  release: 1.0.0\n" in s
s = s.replace(anchor, kind + anchor, 1).replace("  release: 1.0.0\n", "  release: 1.1.0\n", 1)
open(p, "w").write(s)
EOF
go generate ./...
go tool errgen check
go tool errgen compat --against HEAD:contract/kinds.yaml | tee "$work/compat-1.1.0.txt"
grep -q 'needs a minor release' "$work/compat-1.1.0.txt" || fail "compat did not call card_declined a minor release"
git_q add -A && git_q commit -qm "card_declined, release 1.1.0"
release 1.1.0

( cd "$gocons" && go get -u "$gopath" )
( cd "$tscons" && npm update --silent )
"${pip[@]}" --python "$work/venv/bin/python" install --index-url "$reg/pypi/simple/" --upgrade 'acme-payments-errors>=1,<2'
( cd "$rscons" && cargo update -q -p "$crate" )
run_consumers 1.1.0
expect 1.1.0 1 true

# ------------------------------------------------------------- (e) 2.0.0
step "(e) a breaking change, release 2.0.0; 1.x consumers stay on 1.1.0, then take 2.x in one step"
cd "$owner"
python3 - contract/kinds.yaml <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
old = """      action: retry_later
      same_arguments: safe
      guidance: Wait a little and repeat the call; the service may recover.
"""
assert s.count(old) == 1 and "  version: 1\n" in s and "  release: 1.1.0\n" in s
s = s.replace(old, old.replace("same_arguments: safe", "same_arguments: never"))
s = s.replace("  version: 1\n", "  version: 2\n", 1).replace("  release: 1.1.0\n", "  release: 2.0.0\n", 1)
open(p, "w").write(s)
EOF
go generate ./...
( cd "$gomod/grpcstatus" && go mod tidy )
go tool errgen check
go tool errgen compat --against HEAD:contract/kinds.yaml | tee "$work/compat-2.0.0.txt"
grep -q 'BREAKING' "$work/compat-2.0.0.txt" && grep -q 'needs a major release' "$work/compat-2.0.0.txt" ||
  fail "compat did not call the change breaking, a major release"
[ "$(cd "$gomod" && go list -m)" = "$gopath/v2" ] || fail "release 2.0.0's Go module path is $(cd "$gomod" && go list -m), not $gopath/v2"
git_q add -A && git_q commit -qm "upstream_unavailable: never repeat the same arguments (breaking), release 2.0.0"
release 2.0.0

# Pinned to 1.x, an update finds nothing newer: 1.1.0 stays, and builds.
( cd "$gocons" && go get -u "$gopath" && go list -m "$gopath" ) | grep -qx "$gopath v1.1.0" || fail "go get -u left 1.x"
( cd "$tscons" && npm update --silent && node -p 'require("./node_modules/@acme/payments-errors/package.json").version' ) | grep -qx 1.1.0 || fail "npm update left ^1"
"${pip[@]}" --python "$work/venv/bin/python" install --index-url "$reg/pypi/simple/" --upgrade 'acme-payments-errors>=1,<2'
"$work/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("acme-payments-errors"))' | grep -qx 1.1.0 || fail "pip left >=1,<2"
( cd "$rscons" && cargo update -q -p "$crate" && cargo tree -q --depth 1 -e normal ) | grep -q "$crate v1.1.0" || fail "cargo update left \"1\""
# (Nothing they build changed, so they build as they did on 1.1.0.)

# The one step of each language's README: Go, the /v2 import path.
cd "$gocons"
sed -i "s|pe \"$gopath\"|pe \"$gopath/v2\"|" main.go
go get "$gopath/v2@v2.0.0"
go mod tidy
cd "$grpccons"
write_grpc "$gopath/v2" "$gopath/grpcstatus/v2"
go get "$gopath/grpcstatus/v2@v2.0.0"
go mod tidy
# The round trip ran on 1.0.0: here the v2 modules resolve and type-check
# together (linking gRPC again would double this step's time).
go vet .
( cd "$tscons" && npm install --silent "@acme/payments-errors@^2.0.0" )
"${pip[@]}" --python "$work/venv/bin/python" install --index-url "$reg/pypi/simple/" 'acme-payments-errors>=2,<3'
sed -i 's|version = "1", registry = "e2e"|version = "2", registry = "e2e"|' "$rscons/Cargo.toml"
run_consumers 2.0.0
expect 2.0.0 2 true
grep -q 'v1\.' "$gocons/go.mod" && fail "the Go consumer still requires 1.x: $(cat "$gocons/go.mod")"

# ------------------------------------------- (f) this repository's packages
step "(f) this repository's generated packages pass the pre-publish checks"
# The reference contract's (the examples' are the same templates, and
# tests/ts, tests/python and tests/rust test each package as it ships).
dist="$work/repo-dist"
mkdir -p "$dist"
tgz="$dist/$(cd "$repo/gen/ts" && npm pack --silent --pack-destination "$dist")"
node "$tsbin/publint/src/cli.js" run --strict "$tgz"
attw "$tgz"
"$pyvenv" -m build --no-isolation --outdir "$dist" "$repo/gen/python" > "$work/build.log" 2>&1 || fail "python -m build: $(cat "$work/build.log")"
"$pyvenv" -m twine check --strict "$dist"/*.whl "$dist"/*.tar.gz
cp -r "$repo"/gen/rust/*/ "$dist/crate"
cp "$repo/tests/rust/Cargo.lock" "$dist/crate/"
# errgen.yaml names no license (metadata.license), which Rust's public
# registry alone requires: cargo warns of that, and of nothing else.
( cd "$dist/crate" && CARGO_TARGET_DIR="$work/cargo-package" allow_warning='manifest has no license' cargo_quiet package --no-verify )

# ----------------------------------------------------------------- the end
step "the owner's tree is clean"
cd "$owner"
go tool errgen check -v
dirty=$(git status --porcelain --ignored)
[ -z "$dirty" ] || fail "releasing or installing left files in the owner's repository:
$dirty"
step "ok"
