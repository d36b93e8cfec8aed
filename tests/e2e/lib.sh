# The parts the end-to-end scripts share (tests/e2e/run.sh, imports.sh),
# sourced after `set -euo pipefail` with e2e set to the script's name for
# its messages. It sets repo (this checkout), work (the run's temporary
# directory, removed at exit unless E2E_KEEP=1), id (in every Go module
# path the run publishes, example.com/e2e$id/..., so that what it adds to
# the user's module cache is removed at exit by names only this run uses)
# and gomodcache, and defines:
#
#   step TEXT        a step's header, with the wall and CPU time so far
#   fail TEXT        the run fails with TEXT
#   need TOOL...     each TOOL is on PATH, or the run fails
#   git_q ARGS...    git with an identity and main as the default branch
#   build_modproxy   builds tests/go's modproxy into $work/modproxy
#
# A script with more to undo at exit defines e2e_cleanup_more, which runs
# first.

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

fail() { echo "$e2e: FAIL: $*" >&2; exit 1; }
need() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$e2e: $tool is not installed" >&2; exit 1; }
  done
}
need go git

work=$(mktemp -d "${TMPDIR:-/tmp}/errgen-$e2e.XXXXXX")
# Each step's header shows the wall time and the CPU time (user, system) the
# run's commands have taken so far, for make test's budget.
start=$SECONDS
step() {
  times > "$work/times"
  printf '\n== %s: %s [%ds; cpu %s]\n' "$e2e" "$*" $((SECONDS - start)) "$(tail -1 "$work/times")"
}

id=$(date +%s%N)
export GOFLAGS=-modcacherw GOWORK=off
gomodcache=$(go env GOMODCACHE)
cleanup() {
  if declare -F e2e_cleanup_more >/dev/null; then e2e_cleanup_more || true; fi
  rm -rf "$gomodcache/example.com/e2e$id" "$gomodcache/cache/download/example.com/e2e$id"
  if [ -n "${E2E_KEEP:-}" ]; then echo "$e2e: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
git_q() { git -c user.name=e2e -c user.email=e2e@example.com -c init.defaultBranch=main "$@"; }

# modproxy -dir DIR -module PATH -version vX.Y.Z -o PROXYDIR releases a
# module into a file GOPROXY after the module zip rules' checks.
build_modproxy() { ( cd "$repo/tests/go" && go build -o "$work/modproxy" ./cmd/modproxy ); }
