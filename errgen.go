// Package errgen is the root of the errgen module. The generator lives in
// cmd/errgen and internal/; this file only carries the go:generate directive
// so `go generate ./...` regenerates every committed output.
package errgen

//go:generate go run ./cmd/errgen generate
