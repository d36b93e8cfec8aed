# The two commands of the README: `make generate` (the main job) and
# `make test` (every test, installing what it needs first).
GO ?= go

.PHONY: all generate check validate test bench tidy

all: test

## generate: regenerate every output from contract/kinds.yaml
generate:
	$(GO) run ./cmd/errgen generate

## check: fail with a diff when committed outputs differ from the contract
check:
	$(GO) run ./cmd/errgen check

## validate: report every problem in the contract as file:line:col
validate:
	$(GO) run ./cmd/errgen validate

## test: every test in every language (installs Go modules first)
test:
	$(GO) mod download
	$(GO) mod verify
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt -l reports:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) run ./cmd/errgen validate
	$(GO) run ./cmd/errgen check
	$(GO) test -count=1 ./...

## bench: run every benchmark with allocation counts
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
