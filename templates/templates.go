// Package templates embeds the text templates errgen renders. It sits at the
// repository root so contract owners find the templates next to the
// contract; //go:embed cannot reach parent directories, hence this package.
package templates

import "embed"

// FS holds every template, by path relative to this directory: every file
// of every subdirectory, so a new target's templates/<lang> needs no line
// here.
//
//go:embed */*
var FS embed.FS
