package agenterror_test

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// The sanitizer benchmarks of issue 10, on the inputs every language's
// benchmarks share (bench/testdata): clean text must cost little and not
// allocate, dirty text must stay fast, and a huge input must cost about
// what its bounded window does.

func readBenchInput(b *testing.B, name string) string {
	b.Helper()
	data, err := os.ReadFile("../../../bench/testdata/" + name)
	if err != nil {
		b.Fatal(err)
	}
	return string(data)
}

// hugeInput is the dirty text repeated to 10 MiB, cut at a code point
// boundary.
func hugeInput(b *testing.B) string {
	dirty := readBenchInput(b, "sanitize-dirty-4k.txt")
	s := strings.Repeat(dirty, 10<<20/len(dirty)+1)[:10<<20]
	i := len(s) - 1
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	if !utf8.FullRuneInString(s[i:]) {
		s = s[:i]
	}
	return s
}

func benchSanitize(b *testing.B, s string, maxLength int) {
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		sinkString = agenterror.SanitizeMax(s, maxLength)
	}
}

// The 4 KiB inputs are sanitized with a maximum of 4096 code points, which
// they fit in: with the default maximum (2048) the clean text would be
// truncated, which is a change, and the benchmark would time the copy.

func BenchmarkSanitizeClean4KiB(b *testing.B) {
	s := readBenchInput(b, "sanitize-clean-4k.txt")
	if agenterror.SanitizeMax(s, 4096) != s {
		b.Fatal("the clean input is not clean")
	}
	benchSanitize(b, s, 4096)
}

func BenchmarkSanitizeDirty4KiB(b *testing.B) {
	benchSanitize(b, readBenchInput(b, "sanitize-dirty-4k.txt"), 4096)
}

// BenchmarkSanitize10MiB reads only its window, 4 × SanitizeMaxLength code
// points; compare its ns/op with BenchmarkSanitizeWindow's.
func BenchmarkSanitize10MiB(b *testing.B) {
	benchSanitize(b, hugeInput(b), agenterror.SanitizeMaxLength)
}

// BenchmarkSanitizeWindow is the 10 MiB input's window alone: its first
// 4 × SanitizeMaxLength code points.
func BenchmarkSanitizeWindow(b *testing.B) {
	s := hugeInput(b)
	i, n := 0, 0
	for ; n < 4*agenterror.SanitizeMaxLength && i < len(s); n++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	benchSanitize(b, s[:i], agenterror.SanitizeMaxLength)
}
