package cli

import (
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/mod/modfile"
)

// errgenTool is the package path a Go module's tool directive names when the
// module takes errgen as a tool (go get -tool).
const errgenTool = "github.com/errgen/errgen/cmd/errgen"

// commandName is errgen's command as the user runs it in dir, for the
// commands errgen's hints suggest: "go tool errgen" when the Go module
// holding dir takes errgen as a tool (its go.mod has a tool directive for
// it; such a user need not have errgen on PATH, and go tool errgen works
// there whether or not they do), else "errgen". The executable's own path
// cannot tell: go tool and go run both run a binary from the build cache or
// a temporary directory.
func commandName(dir string) string {
	if _, modDir := goModule(dir); modDir != "" {
		data, err := os.ReadFile(filepath.Join(modDir, "go.mod"))
		if err == nil && declaresTool(data) {
			return "go tool errgen"
		}
	}
	return "errgen"
}

// declaresTool reports whether go.mod data has a tool directive naming
// errgen's command, as a line or in a block. The tool directive is newer
// than the modfile package errgen builds with, which reads it as an unknown
// directive, kept in the syntax tree.
func declaresTool(data []byte) bool {
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return false
	}
	names := func(tokens []string) bool {
		if len(tokens) != 1 {
			return false
		}
		p := tokens[0]
		if q, err := strconv.Unquote(p); err == nil {
			p = q
		}
		return p == errgenTool
	}
	for _, stmt := range f.Syntax.Stmt {
		switch x := stmt.(type) {
		case *modfile.Line:
			if len(x.Token) > 0 && x.Token[0] == "tool" && names(x.Token[1:]) {
				return true
			}
		case *modfile.LineBlock:
			if len(x.Token) == 1 && x.Token[0] == "tool" {
				for _, l := range x.Line {
					if names(l.Token) {
						return true
					}
				}
			}
		}
	}
	return false
}

// repoPath is file as a path from the root of the git repository holding
// it (the form REV:path takes), or file itself, slash-separated, outside
// one.
func repoPath(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			if rel, err := filepath.Rel(d, abs); err == nil {
				return filepath.ToSlash(rel)
			}
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return filepath.ToSlash(filepath.Clean(file))
}
