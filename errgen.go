// Package errgen is the root of the errgen module. The generator lives in
// cmd/errgen and internal/; this file only carries the go:generate
// directives, so `go generate ./...` regenerates every committed output.
package errgen

//go:generate go run ./cmd/errgen generate
//go:generate go run ./cmd/errgen generate -contract examples/agento/kinds.yaml -out examples/agento
//go:generate go run ./cmd/errgen generate -contract examples/ovstorage/kinds.yaml -out examples/ovstorage
