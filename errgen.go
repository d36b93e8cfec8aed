// Package errgen is the root of the errgen module. The generator lives in
// cmd/errgen and internal/; this file carries the go:generate directives, so
// `go generate ./...` regenerates every committed output, and embeds the
// contracts that `errgen init` offers as starters, since //go:embed cannot
// reach them from internal/.
package errgen

import "embed"

// Starters holds the reference contract (labby's vocabulary) and the example
// contracts (AGENTO's, ovstorage's), by path relative to the repository root.
//
//go:embed contract/kinds.yaml examples/agento/kinds.yaml examples/ovstorage/kinds.yaml
var Starters embed.FS

//go:generate go run ./cmd/errgen generate
//go:generate go run ./cmd/errgen generate -contract examples/agento/kinds.yaml -out examples/agento
//go:generate go run ./cmd/errgen generate -contract examples/ovstorage/kinds.yaml -out examples/ovstorage
