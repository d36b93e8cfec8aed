package contract

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// documentedLimit is the contract size limit docs/cli.md promises (64 MiB, "Bounds").
// It is spelled out here rather than read from MaxSize so that changing the
// limit without the documentation fails this test.
const documentedLimit = 64 << 20

// padded returns the reference contract followed by a comment that makes it
// exactly n bytes long: valid YAML of any size from about 41 kB up.
func padded(t *testing.T, n int) []byte {
	t.Helper()
	ref, err := os.ReadFile(filepath.Join("..", "..", "contract", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	data := append(ref, "# "...)
	data = append(data, bytes.Repeat([]byte("x"), n-len(data)-1)...)
	return append(data, '\n')
}

// TestContractSizeLimit (issue 15, item 7): a contract of exactly the
// documented size loads; one byte more is a positioned problem at the first
// byte past the limit, from Load and from LoadFile alike.
func TestContractSizeLimit(t *testing.T) {
	if MaxSize != documentedLimit {
		t.Fatalf("MaxSize = %d, but docs/cli.md documents %d (64 MiB)", MaxSize, documentedLimit)
	}
	if _, err := Load("kinds.yaml", padded(t, documentedLimit)); err != nil {
		t.Fatalf("a contract of exactly the limit was rejected: %v", err)
	}
	over := padded(t, documentedLimit+1)
	// The byte past the limit is the final newline, after the comment on the
	// last line.
	lastLine := over[bytes.LastIndexByte(over[:len(over)-1], '\n')+1 : len(over)-1]
	want := Pos{Line: bytes.Count(over, []byte("\n")), Col: len(lastLine) + 1}

	check := func(what string, err error) {
		t.Helper()
		var ps Problems
		if !errors.As(err, &ps) || len(ps) != 1 {
			t.Fatalf("%s: err = %v, want one problem", what, err)
		}
		if ps[0].Pos != want || !strings.Contains(ps[0].Message, "64 MiB") {
			t.Errorf("%s: %s; want a problem at %d:%d naming the 64 MiB limit", what, ps[0], want.Line, want.Col)
		}
	}
	_, err := Load("kinds.yaml", over)
	check("Load", err)

	file := filepath.Join(t.TempDir(), "kinds.yaml")
	if err := os.WriteFile(file, over, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadFile(file)
	check("LoadFile", err)
}

// TestLoadFileStopsReading (issue 15, item 7): a contract path that never
// ends (a device, a pipe) is read only up to the limit. Without the limit
// LoadFile reads /dev/zero until memory runs out; the deadline only turns
// that hang into a failure message.
func TestLoadFileStopsReading(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero")
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := LoadFile("/dev/zero")
		done <- err
	}()
	select {
	case err := <-done:
		var ps Problems
		if !errors.As(err, &ps) || len(ps) != 1 || ps[0].File != "/dev/zero" || !strings.Contains(ps[0].Message, "larger than 64 MiB") {
			t.Errorf("LoadFile(/dev/zero) = %v, want one problem naming the 64 MiB limit", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("LoadFile(/dev/zero) still reading after two minutes")
	}
}
