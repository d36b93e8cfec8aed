# The two commands of the README: `make generate` (the main job) and
# `make test` (every test, installing what it needs first).
GO ?= go
# bash, for pipefail in test-go.
SHELL := /bin/bash
ERRGEN := bin/errgen
# Each example contract generates into its own tree beside it.
EXAMPLES := $(wildcard examples/*/kinds.yaml)
# Examples with a generation config of their own (examples/billing, a
# contract that imports the reference contract).
EXAMPLE_CONFIGS := $(wildcard examples/*/errgen.yaml)
# A target added since keeps its test suite's make rules in
# tests/<lang>/suite.mk, which names its rule in SUITES: make test runs it
# beside the others, and this file needs no line for it.
SUITES :=
-include tests/*/suite.mk
# The Go modules make test vets and tests: errgen's own; the generated
# reference package, a module of its own so that its consumers get none of
# errgen's dependencies; its grpcstatus module (errgen.yaml's go.grpc), which
# alone takes gRPC's dependencies; and tests/go, the generated package's hand-written
# tests and tools, which need errgen's internals (errgen's module never
# imports the generated one). bench/ is a module too; test and bench run it
# on their own lines.
GO_MODULES := . gen/go/agenterror gen/go/agenterror/grpcstatus tests/go

.PHONY: all generate check validate test test-go test-go-floor test-ts ts-deps py-deps test-python test-rust test-rust-sanitize test-rust-bench test-e2e sanitize-diff reader-diff protojson-aip193 reader-fuzz reader-fuzz-run bench bench-ts bench-python bench-rust bench-memory fuzz nosecret-fuzz errgen

all: test

errgen:
	@$(GO) build -o $(ERRGEN) ./cmd/errgen

## generate: regenerate every output from contract/kinds.yaml and the example contracts
generate: errgen
	$(ERRGEN) generate
	@for c in $(EXAMPLES); do echo "$(ERRGEN) generate -contract $$c -out $$(dirname $$c)"; $(ERRGEN) generate -contract $$c -out $$(dirname $$c) || exit 1; done
	@for c in $(EXAMPLE_CONFIGS); do echo "$(ERRGEN) generate -config $$c"; $(ERRGEN) generate -config $$c || exit 1; done

## check: fail with a diff when committed outputs differ from their contracts
check: errgen
	$(CHECK)

## validate: report every problem in the contracts as file:line:col
validate: errgen
	$(VALIDATE)

# The recipes of validate and check, shared with test-go, which must not run
# them through a nested make: that would build bin/errgen a second time while
# test-python, beside it, builds it too.
define VALIDATE
$(ERRGEN) validate
@for c in $(EXAMPLES); do $(ERRGEN) validate -contract $$c || exit 1; done
@for c in $(EXAMPLE_CONFIGS); do $(ERRGEN) validate -config $$c || exit 1; done
endef
define CHECK
$(ERRGEN) check
@for c in $(EXAMPLES); do echo "$(ERRGEN) check -contract $$c -out $$(dirname $$c)"; $(ERRGEN) check -contract $$c -out $$(dirname $$c) || exit 1; done
@for c in $(EXAMPLE_CONFIGS); do echo "$(ERRGEN) check -config $$c"; $(ERRGEN) check -config $$c || exit 1; done
endef

## test: every test in every language (installs Go modules, npm and pip packages first); the languages' suites run side by side, each one's output printed whole when it ends
# Every suite is parallel inside already, but each also has stretches on one
# core (npm ci, pip, tsc, the last package's tests), which the others fill.
TEST_JOBS ?= 5
test:
	@for m in $(GO_MODULES); do echo "(cd $$m && $(GO) mod download && $(GO) mod verify)"; (cd $$m && $(GO) mod download && $(GO) mod verify) || exit 1; done
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt -l reports:"; echo "$$unformatted"; exit 1; fi
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target test-go test-ts test-python test-rust test-e2e $(SUITES)

## test-go: vet, validate and check, then every Go test with every benchmark once (so they keep compiling and running; speed is judged by make bench, never here), and the bench/ module's
test-go: errgen
	@for m in $(GO_MODULES); do echo "(cd $$m && $(GO) vet ./...)"; (cd $$m && $(GO) vet ./...) || exit 1; done
	$(VALIDATE)
	$(CHECK)
	@# One run of each test binary does both, so nothing links twice.
	@# -vet=off: go vet ./... above has already run every analyzer go test would.
	@for m in $(GO_MODULES); do echo "(cd $$m && ERRGEN_BENCH_SMOKE=1 $(GO) test -count=1 -vet=off -bench . -benchtime=1x ./...)"; (cd $$m && set -o pipefail && ERRGEN_BENCH_SMOKE=1 $(GO) test -count=1 -vet=off -bench . -benchtime=1x ./... | { grep -v '^Benchmark\|^goos:\|^goarch:\|^pkg:\|^cpu:\|^PASS$$' || true; }) || exit 1; done
	@# The seed and counts of tests/go/agenterror's no-secret property.
	@cat build/nosecret.go.txt 2>/dev/null || true
	@mkdir -p build
	cd bench && $(GO) mod download && $(GO) test -count=1 -bench . -benchtime=1x ./... > ../build/bench-module.log 2>&1 || { cat ../build/bench-module.log; exit 1; }

## test-go-floor: build and vet errgen with the oldest Go its go.mod's go line names, and the generated Go package with the oldest Go its own go.mod names (gengo.GoVersion): the promise of the README's Install section. Each toolchain is fetched once through the module proxy (GOTOOLCHAIN) into the module cache; too slow for make test (see docs/testing.md), so CI runs it beside it
# The grpcstatus module's go line is grpc's own (gengo's grpcGoVersion), and
# tests/go and bench are this repository's: none of them is a promise.
test-go-floor:
	@v=$$(awk '$$1 == "go" { print $$2; exit }' go.mod); case $$v in *.*.*) ;; *) v=$$v.0;; esac; \
	echo "GOTOOLCHAIN=go$$v $(GO) build ./... && GOTOOLCHAIN=go$$v $(GO) vet ./cmd/..."; \
	GOTOOLCHAIN=go$$v $(GO) build ./... && GOTOOLCHAIN=go$$v $(GO) vet ./cmd/...
	@v=$$(awk '$$1 == "go" { print $$2; exit }' gen/go/agenterror/go.mod); case $$v in *.*.*) ;; *) v=$$v.0;; esac; \
	echo "(cd gen/go/agenterror && GOTOOLCHAIN=go$$v $(GO) build ./... && GOTOOLCHAIN=go$$v $(GO) vet ./...)"; \
	cd gen/go/agenterror && GOTOOLCHAIN=go$$v $(GO) build ./... && GOTOOLCHAIN=go$$v $(GO) vet ./...

## sanitize-diff: write the differential sanitizer vectors (seeded random inputs with Go's outputs) that test-ts and test-python compare their sanitizers against
SANITIZE_SEED ?= 20261130
SANITIZE_CASES ?= 10000
SANITIZE_DIFF := $(CURDIR)/build/sanitize-diff.vectors.json
sanitize-diff:
	cd tests/go && $(GO) run ./cmd/sanitizediff -n $(SANITIZE_CASES) -seed $(SANITIZE_SEED) -o $(SANITIZE_DIFF)

## reader-diff: write the differential reader vectors (seeded, mutated inputs for every reader — envelope, HTTP, AIP-193, CLI, MCP — with Go's answers) that test-ts, test-python and test-rust read through their own readers
READER_SEED ?= 20261207
READER_CASES ?= 2000
READER_DIFF := $(CURDIR)/build/reader-diff.vectors.json
reader-diff:
	cd tests/go && $(GO) run ./cmd/readerdiff -vectors $(CURDIR)/conformance/agent-error.vectors.json -n $(READER_CASES) -seed $(READER_SEED) -o $(READER_DIFF)

## protojson-aip193: write every contract's AIP-193 answers as protojson writes them (a google.rpc.Status with its ErrorInfo and RetryInfo, compact, indented and with the fields' proto names, in {"error": ...}), which test-ts, test-python and test-rust read through their own AIP-193 readers
PROTOJSON_AIP193 := $(CURDIR)/build/protojson-aip193.vectors.json
protojson-aip193:
	cd tests/go && $(GO) run ./cmd/protojsonaip193 -repo $(CURDIR) -o $(PROTOJSON_AIP193)

## test-ts: test every generated TypeScript package as it ships (its committed dist/) against tsc and its tests (Node 20+, npm; installs the pinned dev dependencies)
test-ts: errgen sanitize-diff reader-diff protojson-aip193 ts-deps
	cd tests/ts && ERRGEN_SANITIZE_DIFF=$(SANITIZE_DIFF) ERRGEN_READER_DIFF=$(READER_DIFF) ERRGEN_PROTOJSON_AIP193=$(PROTOJSON_AIP193) npm test

# The TypeScript tests' pinned tools (tsc among them, which test-e2e uses too).
ts-deps:
	cd tests/ts && npm ci --no-audit --no-fund

## test-python: type-check and test every generated Python package (python3 3.11+ for the pinned test tools — the generated packages themselves target 3.9+; creates tests/python/.venv and installs the pinned tools)
test-python: errgen sanitize-diff reader-diff protojson-aip193 py-deps
	ERRGEN_PY_DEPS=done ERRGEN_SANITIZE_DIFF=$(SANITIZE_DIFF) ERRGEN_READER_DIFF=$(READER_DIFF) ERRGEN_PROTOJSON_AIP193=$(PROTOJSON_AIP193) tests/python/run.sh

# The Python tests' pinned tools (build and twine among them, which test-e2e
# uses too), in tests/python/.venv, installed once for both.
py-deps:
	cd tests/python && { [ -x .venv/bin/python ] || $${PYTHON:-python3} -m venv .venv; } && .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt

# The Rust suites build every crate once from a clean build/rust/target: no
# incremental state (only ever read by a rebuild) and no debug information
# (panics still name file and line) spare about a fifth of the compiling.
test-rust test-rust-sanitize test-rust-bench: export CARGO_INCREMENTAL = 0
test-rust test-rust-sanitize test-rust-bench: export CARGO_PROFILE_DEV_DEBUG = 0

## test-rust-sanitize: the Rust runtime's sanitizer where it is written (runtime/rust/sanitize-check: cargo fmt --check, clippy -D warnings, every test and the benchmark once, against the shared and the differential vectors; cargo 1.70+ with rustfmt and clippy; fetches the locked serde_json)
RUST_SANITIZE_CHECK := runtime/rust/sanitize-check
test-rust-sanitize: sanitize-diff
	cd $(RUST_SANITIZE_CHECK) && CARGO_TARGET_DIR=$(CURDIR)/build/rust/target cargo fmt --check
	cd $(RUST_SANITIZE_CHECK) && CARGO_TARGET_DIR=$(CURDIR)/build/rust/target cargo clippy --locked --all-targets -- -D warnings
	cd $(RUST_SANITIZE_CHECK) && CARGO_TARGET_DIR=$(CURDIR)/build/rust/target ERRGEN_SANITIZE_DIFF=$(SANITIZE_DIFF) cargo test --locked --all-targets

## test-rust-bench: the Rust benchmark crate (bench/rust): cargo fmt --check, clippy -D warnings, and every benchmark once, untimed, after its checks that both sides of each comparison agree (speed is judged by make bench, never here)
RUST_BENCH := bench/rust
test-rust-bench:
	cd $(RUST_BENCH) && CARGO_TARGET_DIR=$(CURDIR)/build/rust/target cargo fmt --check
	cd $(RUST_BENCH) && CARGO_TARGET_DIR=$(CURDIR)/build/rust/target cargo clippy --locked --all-targets -- -D warnings
	cd $(RUST_BENCH) && CARGO_TARGET_DIR=$(CURDIR)/build/rust/target cargo test --locked --benches

## test-rust: format-check, lint (clippy -D warnings), document (rustdoc -D warnings) and test every generated Rust crate against its conformance vectors and the sanitizer vectors, and the runtime in place (cargo with clippy and rustfmt; one CARGO_TARGET_DIR under build/rust)
test-rust: errgen sanitize-diff reader-diff protojson-aip193 test-rust-sanitize test-rust-bench
	ERRGEN_SANITIZE_DIFF=$(SANITIZE_DIFF) ERRGEN_READER_DIFF=$(READER_DIFF) ERRGEN_PROTOJSON_AIP193=$(PROTOJSON_AIP193) tests/rust/run.sh

## bench: run every benchmark (main module, the generated package's in tests/go, the bench/ module, and the TypeScript, Python and Rust ones) with allocation counts and print one table of the targets of issues 10 and 18; raw outputs go to bench/out/ for benchstat (make bench BENCH_COUNT=6 for a benchstat-grade run)
bench:
	@mkdir -p bench/out
	@echo "nproc: $$(nproc 2>/dev/null || echo ?); CPU: $$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')"
	@echo '$(GO) test -run "^$$" -bench . -benchmem -count=$(or $(BENCH_COUNT),1) ./... > bench/out/main.txt'
	@$(GO) test -run '^$$' -bench . -benchmem -count=$(or $(BENCH_COUNT),1) ./... > bench/out/main.txt || { cat bench/out/main.txt; exit 1; }
	@echo '(cd tests/go && $(GO) test -run "^$$" -skip DecodeHostile -bench . -benchmem -count=$(or $(BENCH_COUNT),1) ./... > ../../bench/out/agenterror.txt)'
	@cd tests/go && $(GO) test -run '^$$' -skip DecodeHostile -bench . -benchmem -count=$(or $(BENCH_COUNT),1) ./... > ../../bench/out/agenterror.txt || { cat ../../bench/out/agenterror.txt; exit 1; }
	@echo '(cd bench && $(GO) test -run "^$$" -bench . -benchmem -count=$(or $(BENCH_COUNT),1) ./... > out/bench.txt)'
	@cd bench && $(GO) test -run '^$$' -bench . -benchmem -count=$(or $(BENCH_COUNT),1) ./... > out/bench.txt || { cat out/bench.txt; exit 1; }
	@echo 'TypeScript, Python and Rust micro-benchmarks > bench/out/ts.txt, bench/out/python.txt, bench/out/rust.txt'
	@$(MAKE) --no-print-directory -s bench-ts bench-python bench-rust
	@$(MAKE) --no-print-directory bench-memory
	@echo
	@cd bench && $(GO) run ./cmd/benchtable out/main.txt out/agenterror.txt out/bench.txt out/ts.txt out/python.txt out/rust.txt

# The TypeScript and Python benchmarks print Go benchmark lines; their pkg
# line is rewritten so that benchtable tells the languages apart.
bench-ts:
	@cd tests/ts && npm ci --no-audit --no-fund --silent
	@cd tests/ts && for i in $$(seq $(or $(BENCH_COUNT),1)); do node bench/bench.mjs || exit 1; done > ../../bench/out/ts.raw
	@sed 's/^pkg: .*/pkg: ts/' bench/out/ts.raw > bench/out/ts.txt

# bench-python runs in tests/python/.venv with the pinned pydantic of
# tests/python/bench-requirements.txt (the comparison; make test never needs it).
bench-python:
	@mkdir -p bench/out
	@cd tests/python && { [ -x .venv/bin/python ] || $${PYTHON:-python3} -m venv .venv; } && .venv/bin/python -m pip install --quiet --disable-pip-version-check -r bench-requirements.txt
	@for i in $$(seq $(or $(BENCH_COUNT),1)); do tests/python/.venv/bin/python tests/python/bench.py || exit 1; done > bench/out/python.raw
	@sed 's/^pkg: .*/pkg: python/' bench/out/python.raw > bench/out/python.txt

# The Rust benchmark crate prints "pkg: rust" itself; it is built first so
# that compiling does not share the machine with the timed runs.
bench-rust:
	@mkdir -p bench/out
	@cd $(RUST_BENCH) && CARGO_TARGET_DIR=$(CURDIR)/build/rust/target cargo bench --locked -q --bench bench --no-run
	@cd $(RUST_BENCH) && for i in $$(seq $(or $(BENCH_COUNT),1)); do CARGO_TARGET_DIR=$(CURDIR)/build/rust/target cargo bench --locked -q --bench bench || exit 1; done > $(CURDIR)/bench/out/rust.txt

## bench-memory: the decoders' memory benchmark (issue 28): each language's JSON decoder, no size limit, on hostile documents of DECODE_MEM_SIZE bytes (64 MiB; one shape at a time, each in a process of its own), peak and kept memory as multiples of the input > bench/out/memory.txt
DECODE_MEM_SIZE ?= 67108864
HOSTILE_DIR := $(CURDIR)/build/hostile
bench-memory:
	@mkdir -p bench/out
	cd tests/go && $(GO) run ./cmd/hostiledocs -size $(DECODE_MEM_SIZE) -o $(HOSTILE_DIR)
	@cd $(RUST_BENCH) && CARGO_TARGET_DIR=$(CURDIR)/build/rust/target cargo bench --locked -q --bench memory --no-run
	@cd tests/ts && [ -d node_modules ] || $(MAKE) --no-print-directory -s -C $(CURDIR) ts-deps
	@{ echo 'pkg: go'; cd tests/go && for s in members nested_arrays nested_objects strings numbers; do \
		ERRGEN_DECODE_MEM_SIZE=$(DECODE_MEM_SIZE) $(GO) test -run '^$$' -bench "DecodeHostile/shape=$$s/" -benchmem -benchtime=1x ./agenterror | grep '^Benchmark' || exit 1; done; } > bench/out/memory.txt
	@cd tests/ts && node bench/memory.mjs $(HOSTILE_DIR) >> ../../bench/out/memory.txt
	@$$( [ -x tests/python/.venv/bin/python ] && echo tests/python/.venv/bin/python || echo $${PYTHON:-python3} ) tests/python/bench_memory.py $(HOSTILE_DIR) >> bench/out/memory.txt
	@echo 'pkg: rust' >> bench/out/memory.txt
	@cd $(RUST_BENCH) && for s in members nested_arrays nested_objects strings numbers; do ERRGEN_HOSTILE_DIR=$(HOSTILE_DIR) ERRGEN_HOSTILE_SHAPE=$$s CARGO_TARGET_DIR=$(CURDIR)/build/rust/target cargo bench --locked -q --bench memory | grep '^Benchmark' || exit 1; done >> $(CURDIR)/bench/out/memory.txt
	@cat bench/out/memory.txt

## test-e2e: an owner module takes errgen as a Go tool, inits, generates, checks and runs compat, and releases 1.0.0, an additive 1.1.0 and a breaking 2.0.0 to local registries (a file GOPROXY; npm, PyPI and cargo on 127.0.0.1) after each registry's pre-publish checks; Go, TypeScript, Python and Rust consumers install them by version; this repository's packages pass the same checks (uses tests/ts's tsc, publint and attw and tests/python/.venv's build and twine)
test-e2e: ts-deps py-deps
	tests/e2e/run.sh

## fuzz: the no-secret property with a new seed and NOSECRET_CASES cases in every language (nosecret-fuzz), each fuzz target for FUZZTIME (make test runs their committed seeds), then the reader differential with READER_FUZZ_CASES cases and a new seed (reader-fuzz)
FUZZTIME ?= 5m
# The generated package's targets are in tests/go (their corpora in
# tests/go/agenterror/testdata/fuzz).
fuzz: nosecret-fuzz
	cd tests/go && $(GO) test ./agenterror -run '^$$' -fuzz '^FuzzSanitize$$' -fuzztime $(FUZZTIME)
	cd tests/go && $(GO) test ./agenterror -run '^$$' -fuzz '^FuzzSanitizeMax$$' -fuzztime $(FUZZTIME)
	cd tests/go && $(GO) test ./agenterror -run '^$$' -fuzz '^FuzzDecodeAgreesWithEncodingJSON$$' -fuzztime $(FUZZTIME)
	cd tests/go && $(GO) test ./agenterror -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME)
	cd tests/go && $(GO) test ./agenterror -run '^$$' -fuzz '^FuzzEncodeString$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/contract -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/contract -run '^$$' -fuzz '^FuzzImports$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/contract -run '^$$' -fuzz '^FuzzSplitParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/naming -run '^$$' -fuzz '^FuzzAll$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/generate -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/tsdecl -run '^$$' -fuzz '^FuzzEmit$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/tscompile -run '^$$' -fuzz '^FuzzJSLiterals$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/genopenapi -run '^$$' -fuzz '^FuzzWriter$$' -fuzztime $(FUZZTIME)
	@$(MAKE) --no-print-directory reader-fuzz

## reader-fuzz: the reader differential of make test at length: READER_FUZZ_CASES seeded cases (a new seed each run, printed; READER_SEED_FUZZ=<seed> repeats one) through the Go, TypeScript, Python and Rust readers
READER_FUZZ_CASES ?= 50000
reader-fuzz: errgen ts-deps
	@seed=$${READER_SEED_FUZZ:-$$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')}; \
	echo "reader-fuzz: seed $$seed, $(READER_FUZZ_CASES) cases (make reader-fuzz READER_SEED_FUZZ=$$seed repeats it)"; \
	$(MAKE) --no-print-directory reader-diff READER_SEED=$$seed READER_CASES=$(READER_FUZZ_CASES) READER_DIFF=$(CURDIR)/build/reader-fuzz.vectors.json && \
	$(MAKE) --no-print-directory reader-fuzz-run READER_DIFF=$(CURDIR)/build/reader-fuzz.vectors.json

# The three comparisons alone, without the rest of each language's suite;
# each runs even when one before it finds a disagreement.
reader-fuzz-run:
	@failed=""; \
	(set -o pipefail; cd tests/ts && ERRGEN_TS_NAME=agent-error ERRGEN_TS_ROOT=$(CURDIR) ERRGEN_TS_SRC=$(CURDIR)/gen/ts ERRGEN_TS_PKG=$(CURDIR)/gen/ts/dist/index.js ERRGEN_READER_DIFF=$(READER_DIFF) \
		node --test --test-reporter=tap test/readerdiff.test.mjs | grep -E '^# (reader differential|grpc:|mcp: the tool|  [a-z0-9]+: .*case\(s\))|^not ok') || failed="$$failed typescript"; \
	(cd tests/python && { [ -x .venv/bin/python ] || $${PYTHON:-python3} -m venv .venv; } && .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt && mkdir -p build/reader-fuzz && \
		ERRGEN_PY_NAME=agent_error ERRGEN_PY_ROOT=$(CURDIR) ERRGEN_PY_SRC=$(CURDIR)/gen/python ERRGEN_PY_BUILD=$(CURDIR)/tests/python/build/reader-fuzz ERRGEN_PY_CONTRACT=$(CURDIR)/contract/kinds.yaml ERRGEN_READER_DIFF=$(READER_DIFF) \
		.venv/bin/python -m pytest -q -p no:cacheprovider test/test_readerdiff.py > build/reader-fuzz/pytest.log 2>&1; code=$$?; cat build/reader-fuzz/reader-diff.txt; grep -E '^  [a-z0-9]+: .*case\(s\)' build/reader-fuzz/pytest.log; exit $$code) || failed="$$failed python"; \
	ERRGEN_READER_ONLY=1 ERRGEN_SANITIZE_DIFF=unused ERRGEN_READER_DIFF=$(READER_DIFF) CARGO_INCREMENTAL=0 CARGO_PROFILE_DEV_DEBUG=0 tests/rust/run.sh || failed="$$failed rust"; \
	if [ -n "$$failed" ]; then echo "reader-fuzz: disagreements with Go in:$$failed"; exit 1; fi; echo "reader-fuzz: no disagreement"

## nosecret-fuzz: the "no secret through any path" property of every language (tests/testdata/nosecret.json) with NOSECRET_CASES cases and a new seed (printed; NOSECRET_SEED=<seed> repeats a run); make test runs it bounded, with a fixed seed
NOSECRET_CASES ?= 5000
nosecret-fuzz: errgen ts-deps
	@seed=$${NOSECRET_SEED:-$$(date +%s)}; \
	echo "no secret through any path: seed $$seed, $(NOSECRET_CASES) cases in each language (NOSECRET_SEED=$$seed repeats it)"; \
	export ERRGEN_NOSECRET_SEED=$$seed ERRGEN_NOSECRET_CASES=$(NOSECRET_CASES); status=0; \
	(cd tests/go && $(GO) test ./agenterror -count=1 -run '^TestNoSecretThroughAnyPath$$') || status=1; cat build/nosecret.go.txt; \
	(cd tests/ts && ERRGEN_TS_NAME=agent-error ERRGEN_TS_ROOT=$(CURDIR) ERRGEN_TS_SRC=$(CURDIR)/gen/ts ERRGEN_TS_PKG=$(CURDIR)/gen/ts/dist/index.js node --test test/nosecret.test.mjs) || status=1; \
	{ [ -x tests/python/.venv/bin/python ] || $${PYTHON:-python3} -m venv tests/python/.venv; } && tests/python/.venv/bin/python -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt; \
	mkdir -p build/nosecret-python; \
	(cd tests/python && ERRGEN_PY_NAME=agent_error ERRGEN_PY_SRC=$(CURDIR)/gen/python ERRGEN_PY_ROOT=$(CURDIR) ERRGEN_PY_BUILD=$(CURDIR)/build/nosecret-python ERRGEN_PY_CONTRACT=$(CURDIR)/contract/kinds.yaml .venv/bin/python -m pytest -q -p no:cacheprovider test/test_nosecret.py) || status=1; cat build/nosecret-python/nosecret.txt; \
	CARGO_INCREMENTAL=0 CARGO_PROFILE_DEV_DEBUG=0 ERRGEN_NOSECRET_ONLY=1 tests/rust/run.sh || status=1; \
	exit $$status
