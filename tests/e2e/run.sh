#!/usr/bin/env bash
# End to end, as errgen's users work: in temporary directories outside this
# repository, with no network beyond the package registries,
#
#   (a) a contract owner's Go module installs errgen as a Go tool from this
#       checkout (a replace directive stands in for a release), runs
#       errgen init, go generate ./..., errgen check and errgen compat;
#   (b) a Go consumer module imports the owner's generated package, and its
#       module graph holds nothing of errgen's (no generator dependency);
#   (c) a TypeScript project npm-installs the generated package from its
#       directory and from a packed tarball, compiles a script with tsc and
#       runs it;
#   (d) a Python virtual environment pip-installs the generated package from
#       its directory and from git (#subdirectory=), and runs a script;
#   (e) a Rust consumer crate depends on the generated crate by path (the
#       owner's errgen.yaml, as errgen init writes it, selects rust), builds
#       and runs: it constructs an envelope, encodes and decodes it, and
#       prints it with its next step and exit code;
#   (f) the owner turns on the grpcstatus module (the line errgen init
#       suggests), tidies it and commits; a gRPC service's module requires
#       both modules (replace directives stand in for releases: the one in
#       grpcstatus's own go.mod applies only there) and turns an envelope
#       into a status error and back;
#
# after which errgen check is still clean and the owner's git tree is
# unchanged: installing and building never dirty the drift gate. The four
# languages' consumers print the same envelope, which is compared.
#
# Usage: tests/e2e/run.sh (make test runs it after test-ts, whose tsc it
# reuses). Every tool it needs is required: a missing one fails the run.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
tsc="$repo/tests/ts/node_modules/typescript/bin/tsc"
for tool in go git node npm python3 cargo; do
  command -v "$tool" >/dev/null || { echo "e2e: $tool is not installed" >&2; exit 1; }
done
[ -f "$tsc" ] || { echo "e2e: $tsc is missing; run npm ci in tests/ts (make test-ts does)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/errgen-e2e.XXXXXX")
trap 'rm -rf "$work"' EXIT
step() { printf '\n== e2e: %s\n' "$*"; }
fail() { echo "e2e: FAIL: $*" >&2; exit 1; }

# The tool and module caches are the user's; GOFLAGS from the environment
# (e.g. -mod=vendor) would change what is tested.
export GOFLAGS= GOWORK=off
git_q() { git -c user.name=e2e -c user.email=e2e@example.com -c init.defaultBranch=main "$@"; }

# ---------------------------------------------------------------- (a) owner
step "(a) owner module: go get -tool errgen, errgen init, go generate, check, compat"
owner="$work/payments"
mkdir -p "$owner" && cd "$owner"
git_q init -q
go mod init example.com/payments >/dev/null 2>&1
# With a release this is `go get -tool github.com/errgen/errgen/cmd/errgen@vX.Y.Z`.
# Here this checkout stands in for the release: the requirement is replaced
# by the directory, and the tool directive is added the way go get -tool
# adds it (go get itself would first ask the registry for a module named
# like the command's package path, which no registry has).
go mod edit -require=github.com/errgen/errgen@v0.0.0 -replace="github.com/errgen/errgen=$repo" -tool=github.com/errgen/errgen/cmd/errgen
go mod tidy
go tool errgen version
go tool errgen init
# The team publishes under its npm scope and its own Python names: uncomment
# and set the names init suggested.
sed -i -e 's|^    # name: "@your-scope/payments-errors".*|    name: "@acme/payments-errors"|' \
  -e 's|^    # distribution: payments-errors .*|    distribution: acme-payments-errors|' \
  -e 's|^    # package: payments_errors .*|    package: acme_payments_errors|' errgen.yaml
grep -q '^    name: "@acme/payments-errors"$' errgen.yaml && grep -q '^    package: acme_payments_errors$' errgen.yaml ||
  fail "errgen init's config no longer suggests the names this test sets:
$(cat errgen.yaml)"
go tool errgen validate -v
cat > generate.go <<'EOF'
// Package payments owns the payments error contract.
package payments

//go:generate go tool errgen generate
EOF
go generate ./...
go tool errgen check -v
go vet ./...
( cd gen/go/paymentserrors && go vet ./... )
git_q add -A && git_q commit -qm "payments error contract"
go tool errgen compat --against HEAD:contract/kinds.yaml
# An additive change passes compat with the minor release it needs (init
# writes release: 1.0.0); it is committed like any other.
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
assert anchor in s and "\n  release: 1.0.0\n" in s
s = s.replace("\n  release: 1.0.0\n", "\n  release: 1.1.0\n", 1)
open(p, "w").write(s.replace(anchor, kind + anchor, 1))
EOF
go generate ./...
go tool errgen check
go tool errgen compat --against HEAD:contract/kinds.yaml
git_q add -A && git_q commit -qm "card_declined"

# ------------------------------------------------------------- (b) Go consumer
step "(b) Go consumer: imports the generated package; its module graph holds no generator dependency"
gocons="$work/checkout-go"
mkdir -p "$gocons" && cd "$gocons"
go mod init example.com/checkout >/dev/null 2>&1
go mod edit -require=example.com/payments/gen/go/paymentserrors@v0.0.0 \
  -replace="example.com/payments/gen/go/paymentserrors=$owner/gen/go/paymentserrors"
cat > main.go <<'EOF'
package main

import (
	"encoding/json"
	"fmt"

	"example.com/payments/gen/go/paymentserrors"
)

func main() {
	e := paymentserrors.NewCardDeclined("the issuer said no")
	data, err := json.Marshal(e)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(data))
	fmt.Println(paymentserrors.NextStep(e, 1).Step)
}
EOF
go mod tidy
graph=$(go mod graph)
echo "go mod graph: ${graph:-(empty: no dependencies)}"
if grep -E 'errgen/errgen|jennifer|yaml|jsonschema|strcase|golang.org/x' <<<"$graph"; then
  fail "the consumer's module graph holds generator dependencies"
fi
GOPROXY=off go list -m all
go run . > "$work/go.out"
cat "$work/go.out"

# ------------------------------------------------------- (c) TypeScript project
step "(c) TypeScript project: npm install from the directory and from a tarball, tsc, node"
for how in dir tarball; do
  tscons="$work/checkout-ts-$how"
  mkdir -p "$tscons" && cd "$tscons"
  echo '{"name": "checkout", "private": true, "type": "module"}' > package.json
  if [ "$how" = dir ]; then
    npm install --no-audit --no-fund "$owner/gen/ts"
  else
    ( cd "$owner/gen/ts" && npm pack --silent --pack-destination "$work" >/dev/null )
    npm install --no-audit --no-fund "$work"/acme-payments-errors-*.tgz
  fi
  cat > main.ts <<'EOF'
import { newCardDeclined, nextStep, serializeEnvelope, type Envelope } from "@acme/payments-errors";

const e: Envelope = newCardDeclined("the issuer said no");
console.log(serializeEnvelope(e));
console.log(nextStep(e, 1).step);
EOF
  node "$tsc" --strict --module nodenext --moduleResolution nodenext --target es2022 --outDir out main.ts
  node out/main.js > "$work/ts-$how.out"
  cat "$work/ts-$how.out"
done

# ------------------------------------------------------------ (d) Python venv
step "(d) Python: pip install from the directory and from git, then a script"
python3 -m venv "$work/venv"
pip=("$work/venv/bin/python" -m pip --disable-pip-version-check --quiet)
cat > "$work/main.py" <<'EOF'
import acme_payments_errors as pe

e = pe.new_card_declined("the issuer said no")
print(e.to_json())
print(pe.next_step(e, 1).step.value)
EOF
"${pip[@]}" install "$owner/gen/python"
"$work/venv/bin/python" "$work/main.py" > "$work/py.out"
cat "$work/py.out"
"${pip[@]}" uninstall -y acme-payments-errors
"${pip[@]}" install "git+file://$owner#subdirectory=gen/python"
"$work/venv/bin/python" "$work/main.py" > "$work/py-git.out"
cmp "$work/py.out" "$work/py-git.out" || fail "the package installed from git behaves differently"

# -------------------------------------------------------------- (e) Rust crate
step "(e) Rust: a consumer crate depends on the generated crate by path, builds and runs"
crate_dir=$(ls -d "$owner"/gen/rust/*/ 2>/dev/null | head -1)
[ -n "$crate_dir" ] || fail "errgen init's config did not select rust: no gen/rust/<crate> in the owner's tree"
crate_dir=${crate_dir%/}
crate=$(sed -n 's/^name = "\(.*\)"/\1/p' "$crate_dir/Cargo.toml" | head -1)
rscons="$work/checkout-rust"
mkdir -p "$rscons/src"
cat > "$rscons/Cargo.toml" <<EOF
[package]
name = "checkout"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
payments = { package = "$crate", path = "$crate_dir" }

[workspace]
EOF
cat > "$rscons/src/main.rs" <<'EOF'
use payments::{Envelope, Kind};

fn main() {
    let e = Envelope::new_card_declined("the issuer said no");
    assert_eq!(e.kind, Kind::CardDeclined);
    let text = e.to_json().expect("encodes");
    let back = Envelope::from_json(&text).expect("decodes");
    assert_eq!(back, e);
    println!("{text}");
    println!("{}", back.next_step(1).step.as_str());
    // The CLI surface: the line a command writes on stderr, read back.
    let mut line = Vec::new();
    back.write_cli(&mut line, "charge").expect("writes");
    assert_eq!(Envelope::read_cli(&line).expect("reads"), e);
    println!("exit {}", back.exit_code());
}
EOF
# The crates the repository's Rust tests pin, and their build cache
# (build/rust/target), so that serde is compiled once for every Rust run.
cp "$repo/tests/rust/Cargo.lock" "$rscons/Cargo.lock"
( cd "$rscons" && CARGO_TARGET_DIR="$repo/build/rust/target" cargo run -q > "$work/rust.out" )
cat "$work/rust.out"
sed -n 3p "$work/rust.out" | grep -qx 'exit [0-9][0-9]*' || fail "the Rust consumer printed no exit code"

# ------------------------------------------------------------ (f) gRPC service
step "(f) gRPC: the owner turns on grpcstatus; a service module converts an envelope to a status and back"
cd "$owner"
sed -i 's|^    # grpc: true .*|    grpc: true|' errgen.yaml
grep -q '^    grpc: true$' errgen.yaml || fail "errgen init's config no longer suggests grpc: true:
$(cat errgen.yaml)"
go generate ./...
# Its go.sum is the owner's: tidied once, as the README says.
( cd gen/go/paymentserrors/grpcstatus && go mod tidy && go vet ./... )
go tool errgen check
git_q add -A && git_q commit -qm "grpcstatus"
grpccons="$work/checkout-grpc"
mkdir -p "$grpccons" && cd "$grpccons"
go mod init example.com/checkoutgrpc >/dev/null 2>&1
go mod edit -require=example.com/payments/gen/go/paymentserrors@v0.0.0 \
  -replace="example.com/payments/gen/go/paymentserrors=$owner/gen/go/paymentserrors" \
  -require=example.com/payments/gen/go/paymentserrors/grpcstatus@v0.0.0 \
  -replace="example.com/payments/gen/go/paymentserrors/grpcstatus=$owner/gen/go/paymentserrors/grpcstatus"
cat > main.go <<'GO'
package main

import (
	"encoding/json"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"example.com/payments/gen/go/paymentserrors"
	"example.com/payments/gen/go/paymentserrors/grpcstatus"
)

func main() {
	e := paymentserrors.NewCardDeclined("the issuer said no")
	err := grpcstatus.Error(e) // what a handler returns
	st, ok := status.FromError(err)
	cl := paymentserrors.Lookup(e.Kind)
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
	fmt.Println(cl.GRPCStatus)
}
GO
go mod tidy
if go mod graph | grep -E 'errgen/errgen|jennifer|yaml|jsonschema|strcase'; then
  fail "the gRPC service's module graph holds generator dependencies"
fi
go run . > "$work/grpc.out"
cat "$work/grpc.out"
[ "$(head -1 "$work/grpc.out")" = "$(head -1 "$work/go.out")" ] || fail "the envelope read back from a status is not the Go consumer's"

# ----------------------------------------------------------------- agreement
step "every consumer printed the same envelope and step; the owner's tree is clean"
python3 - "$work"/go.out "$work"/ts-dir.out "$work"/ts-tarball.out "$work"/py.out "$work"/rust.out <<'EOF'
import json, sys
outs = []
for p in sys.argv[1:]:
    lines = open(p).read().splitlines()
    outs.append((json.loads(lines[0]), lines[1].strip().lower()))
if any(o != outs[0] for o in outs):
    for p, o in zip(sys.argv[1:], outs):
        print(p, o, file=sys.stderr)
    sys.exit("e2e: FAIL: the languages disagree")
print("agree:", json.dumps(outs[0][0], sort_keys=True), outs[0][1])
EOF
cd "$owner"
go tool errgen check -v
dirty=$(git status --porcelain --ignored)
[ -z "$dirty" ] || fail "installing or building left files in the owner's repository:
$dirty"
echo "e2e: ok"
