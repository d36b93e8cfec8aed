// Package agenterror holds the hand-written tests of the generated package
// gen/go/agenterror: behaviour, decisions, conformance vectors, schemas,
// fuzz targets (corpora in testdata/fuzz) and benchmarks. The generated
// package is a module of its own with no requirements, so that its consumers
// get nothing of errgen's dependencies; these tests need errgen's contract
// loader and gentest, so they live in the tests/go module, which requires
// both from this checkout. Errgen's own module never imports the generated
// package: requiring it would take a replace directive, which does not reach
// users who `go get -tool github.com/errgen/errgen/cmd/errgen` and which
// `go install …@version` refuses. Only the in-package, stdlib-only tests
// stay beside the generated files.
package agenterror
