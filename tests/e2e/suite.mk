# Included by the Makefile: make test runs test-e2e-imports beside the other
# suites (SUITES).
SUITES += test-e2e-imports
.PHONY: test-e2e-imports

## test-e2e-imports: contract imports end to end: a platform repository releases its base contract as a Go module into a file GOPROXY; two service repositories import it by module (go.mod pins the version), generate their Go, TypeScript, Python and Rust packages and check; every envelope of each side's conformance vectors is read by the other side's Go, TypeScript and Python packages (base kinds exactly, the rest through the fallback); a breaking base release fails both services' compat, positioned in the base file
test-e2e-imports:
	tests/e2e/imports.sh
