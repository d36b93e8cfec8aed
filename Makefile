# The two commands of the README: `make generate` (the main job) and
# `make test` (every test, installing what it needs first).
GO ?= go
ERRGEN := bin/errgen
# Each example contract generates into its own tree beside it.
EXAMPLES := $(wildcard examples/*/kinds.yaml)

.PHONY: all generate check validate test test-ts test-python sanitize-diff bench bench-ts bench-python fuzz errgen

all: test

errgen:
	@$(GO) build -o $(ERRGEN) ./cmd/errgen

## generate: regenerate every output from contract/kinds.yaml and the example contracts
generate: errgen
	$(ERRGEN) generate
	@for c in $(EXAMPLES); do echo "$(ERRGEN) generate -contract $$c -out $$(dirname $$c)"; $(ERRGEN) generate -contract $$c -out $$(dirname $$c) || exit 1; done

## check: fail with a diff when committed outputs differ from their contracts
check: errgen
	$(ERRGEN) check
	@for c in $(EXAMPLES); do echo "$(ERRGEN) check -contract $$c -out $$(dirname $$c)"; $(ERRGEN) check -contract $$c -out $$(dirname $$c) || exit 1; done

## validate: report every problem in the contracts as file:line:col
validate: errgen
	$(ERRGEN) validate
	@for c in $(EXAMPLES); do $(ERRGEN) validate -contract $$c || exit 1; done

## test: every test in every language (installs Go modules first)
test:
	$(GO) mod download
	$(GO) mod verify
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt -l reports:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(MAKE) --no-print-directory validate check
	$(GO) test -count=1 ./...
	@# Every Go benchmark once, so they keep compiling and running (speed is judged by make bench, never
	@# here), and the bench/ module's tests; the output is shown only when something fails.
	@mkdir -p build
	$(GO) test -count=1 -run '^$$' -bench . -benchtime=1x ./... > build/bench-once.log 2>&1 || { cat build/bench-once.log; exit 1; }
	cd bench && $(GO) mod download && $(GO) test -count=1 -bench . -benchtime=1x ./... > ../build/bench-module.log 2>&1 || { cat ../build/bench-module.log; exit 1; }
	$(MAKE) --no-print-directory test-ts
	$(MAKE) --no-print-directory test-python

## sanitize-diff: write the differential sanitizer vectors (seeded random inputs with Go's outputs) that test-ts and test-python compare their sanitizers against
SANITIZE_SEED ?= 20261130
SANITIZE_CASES ?= 10000
SANITIZE_DIFF := $(CURDIR)/build/sanitize-diff.vectors.json
sanitize-diff:
	$(GO) run ./internal/tools/sanitizediff -n $(SANITIZE_CASES) -seed $(SANITIZE_SEED) -o build/sanitize-diff.vectors.json

## test-ts: test every generated TypeScript package as it ships (its committed dist/) against tsc and its tests (Node 20+, npm; installs the pinned dev dependencies)
test-ts: sanitize-diff
	cd tests/ts && npm ci --no-audit --no-fund && ERRGEN_SANITIZE_DIFF=$(SANITIZE_DIFF) npm test

## test-python: type-check and test every generated Python package (python3 3.9+; creates tests/python/.venv and installs the pinned tools)
test-python: errgen sanitize-diff
	ERRGEN_SANITIZE_DIFF=$(SANITIZE_DIFF) tests/python/run.sh

## bench: run every benchmark (main module and the bench/ module) with allocation counts and print one table of issue 10's targets; raw outputs go to bench/out/ for benchstat (make bench BENCH_COUNT=6 for a benchstat-grade run)
bench:
	@mkdir -p bench/out
	@echo "nproc: $$(nproc 2>/dev/null || echo ?); CPU: $$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')"
	@echo '$(GO) test -run "^$$" -bench . -benchmem -count=$(or $(BENCH_COUNT),1) ./... > bench/out/main.txt'
	@$(GO) test -run '^$$' -bench . -benchmem -count=$(or $(BENCH_COUNT),1) ./... > bench/out/main.txt || { cat bench/out/main.txt; exit 1; }
	@echo '(cd bench && $(GO) test -run "^$$" -bench . -benchmem -count=$(or $(BENCH_COUNT),1) ./... > out/bench.txt)'
	@cd bench && $(GO) test -run '^$$' -bench . -benchmem -count=$(or $(BENCH_COUNT),1) ./... > out/bench.txt || { cat out/bench.txt; exit 1; }
	@echo 'TypeScript and Python micro-benchmarks > bench/out/ts.txt, bench/out/python.txt'
	@$(MAKE) --no-print-directory -s bench-ts bench-python
	@echo
	@cd bench && $(GO) run ./cmd/benchtable out/main.txt out/bench.txt out/ts.txt out/python.txt

# The TypeScript and Python benchmarks print Go benchmark lines; their pkg
# line is rewritten so that benchtable tells the languages apart.
bench-ts:
	@cd tests/ts && npm ci --no-audit --no-fund --silent
	@cd tests/ts && for i in $$(seq $(or $(BENCH_COUNT),1)); do node bench/bench.mjs || exit 1; done > ../../bench/out/ts.raw
	@sed 's/^pkg: .*/pkg: ts/' bench/out/ts.raw > bench/out/ts.txt

bench-python:
	@for i in $$(seq $(or $(BENCH_COUNT),1)); do python3 tests/python/bench.py || exit 1; done > bench/out/python.raw
	@sed 's/^pkg: .*/pkg: python/' bench/out/python.raw > bench/out/python.txt

## fuzz: run each fuzz target for FUZZTIME (make test runs their committed seeds)
FUZZTIME ?= 5m
fuzz:
	$(GO) test ./gen/go/agenterror -run '^$$' -fuzz '^FuzzSanitize$$' -fuzztime $(FUZZTIME)
	$(GO) test ./gen/go/agenterror -run '^$$' -fuzz '^FuzzSanitizeMax$$' -fuzztime $(FUZZTIME)
	$(GO) test ./gen/go/agenterror -run '^$$' -fuzz '^FuzzDecodeAgreesWithEncodingJSON$$' -fuzztime $(FUZZTIME)
	$(GO) test ./gen/go/agenterror -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME)
	$(GO) test ./gen/go/agenterror -run '^$$' -fuzz '^FuzzEncodeString$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/contract -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/generate -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/tsdecl -run '^$$' -fuzz '^FuzzEmit$$' -fuzztime $(FUZZTIME)
