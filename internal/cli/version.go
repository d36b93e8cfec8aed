package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// readBuildInfo is debug.ReadBuildInfo, replaced by tests.
var readBuildInfo = debug.ReadBuildInfo

// Version is errgen's version as the go command recorded it in the binary:
// the module version for `go install …@v1.2.3`, `go run …@version` and
// `go tool errgen` in a module that requires a release; "(devel)" for a build
// from a checkout, then followed by the VCS revision when the build recorded
// one.
func Version() string {
	bi, ok := readBuildInfo()
	if !ok {
		return "(devel)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	if v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " revision " + rev
		if modified == "true" {
			v += " with local changes"
		}
	}
	return v
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "errgen version: unexpected argument %q\nUsage: errgen version\n", args[0])
		return ExitUsage
	}
	fmt.Fprintf(stdout, "errgen %s %s %s/%s\n", Version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return ExitOK
}
