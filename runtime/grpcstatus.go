package runtime

import (
	"bytes"
	_ "embed"
	"fmt"
	"regexp"
	"strconv"
)

// grpcStatus is the grpcstatus module's one file, a real Go file written for
// the reference package: it imports the package by its path, under its name,
// in an import group of its own, and names it nowhere else but in code
// (agenterror.Envelope) and prose. Its test is the reference module's
// (gen/go/agenterror/grpcstatus/grpcstatus_test.go), which runs on the copy
// make generate writes, the same text under errgen's header.
//
//go:embed go/_grpcstatus/grpcstatus.go
var grpcStatus []byte

const (
	grpcStatusImport = `"github.com/errgen/errgen/gen/go/agenterror"`
	grpcStatusName   = "agenterror"
)

var grpcStatusNamed = regexp.MustCompile(`\b` + grpcStatusName + `\b`)

// GRPCStatus returns the grpcstatus module's file for the Go package named
// pkg at importPath, header (a comment line) on top. Renaming the package
// changes no line's layout: the import stands alone in its group, and no
// name of the package is aligned with another line.
func GRPCStatus(header, importPath, pkg string) ([]byte, error) {
	parts := bytes.Split(grpcStatus, []byte(grpcStatusImport))
	if len(parts) != 2 {
		return nil, fmt.Errorf("runtime: go/_grpcstatus/grpcstatus.go imports %s %d times, not once", grpcStatusImport, len(parts)-1)
	}
	out := make([]byte, 0, len(grpcStatus)+len(header)+len(importPath)+64)
	out = append(append(out, header...), "\n\n"...)
	for i, part := range parts {
		if i > 0 {
			out = strconv.AppendQuote(out, importPath)
		}
		out = append(out, grpcStatusNamed.ReplaceAll(part, []byte(pkg))...)
	}
	return out, nil
}
