package agenterror_test

import (
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// The sanitizer benchmarks of issue 33: text with ill-formed bytes, which
// should cost only their repair, and clean text full of URLs, which should
// stay on the clean text's fast path. Each is measured beside its clean
// twin in the same run, and benchtable compares the two.

// illFormedTexts are the clean 4 KiB text and the same text with one
// ill-formed sequence: at its end (a character cut in the middle, as
// byte-truncated upstream text is), or in the middle. The clean text's
// last three bytes are replaced by a three-byte character (→), whose first
// two bytes are the cut one.
func illFormedTexts(b *testing.B) (clean, end, middle string) {
	text := readBenchInput(b, "sanitize-clean-4k.txt")
	clean = text[:len(text)-3] + "→"
	end = clean[:len(clean)-1]
	middle = clean[:len(clean)/2] + "\xff" + clean[len(clean)/2+1:]
	return clean, end, middle
}

// BenchmarkSanitizeIllFormed: where=none is the clean text; where=end cuts
// its last character in the middle, where=middle replaces a byte in its
// middle with \xff. Each is sanitized with a maximum of 4096 code points,
// which it fits in.
func BenchmarkSanitizeIllFormed(b *testing.B) {
	clean, end, middle := illFormedTexts(b)
	if agenterror.SanitizeMax(clean, 4096) != clean {
		b.Fatal("the clean input is not clean")
	}
	if agenterror.SanitizeMax(end, 4096) != end[:len(end)-2]+"\uFFFD" {
		b.Fatal("the cut input does not end in U+FFFD")
	}
	b.Run("where=none", func(b *testing.B) { benchSanitize(b, clean, 4096) })
	b.Run("where=end", func(b *testing.B) { benchSanitize(b, end, 4096) })
	b.Run("where=middle", func(b *testing.B) { benchSanitize(b, middle, 4096) })
}

// BenchmarkAppendSanitizeIllFormed: the texts of BenchmarkSanitizeIllFormed
// through AppendSanitizeMax into one reused buffer, as a hot logging path
// would call it. Sanitize must return a new string for text that changes,
// and on a small heap its cost is mostly the collector's and the fresh
// pages' (docs/benchmarks.md); here the output goes to memory already in
// use. where=none copies the clean text too.
func BenchmarkAppendSanitizeIllFormed(b *testing.B) {
	clean, end, middle := illFormedTexts(b)
	for _, c := range []struct{ where, s string }{{"none", clean}, {"end", end}, {"middle", middle}} {
		if got := string(agenterror.AppendSanitizeMax(nil, c.s, 4096)); got != agenterror.SanitizeMax(c.s, 4096) {
			b.Fatalf("where=%s: AppendSanitizeMax differs from SanitizeMax", c.where)
		}
		b.Run("where="+c.where, func(b *testing.B) {
			buf := make([]byte, 0, 2*len(c.s))
			b.SetBytes(int64(len(c.s)))
			b.ReportAllocs()
			for b.Loop() {
				buf = agenterror.AppendSanitizeMax(buf[:0], c.s, 4096)
			}
			sinkBytes = buf
		})
	}
}

// urlLines are lines of ordinary upstream error text full of URLs, query
// strings and ports, with no secret in them.
var urlLines = []string{
	"GET https://api.github.com/repos/acme/widgets/issues?state=open&per_page=100&page=3&sort=updated returned 502\n",
	"upstream https://storage.example.com/v1/b/logs/o/2026%2F12%2F01%2Fapp.log?alt=media&generation=17 failed: reset\n",
	"redirect to https://login.example.org/oauth/authorize?client_id=web&response_type=code&scope=read&state=xyz\n",
	"fetch http://10.0.0.12:8080/healthz?verbose=1&format=json -> 503; see https://status.example.com/incidents/1234\n",
	"retry s3://backups/daily/db.tar.gz?versionId=3&part=2 then ftp://mirror.example.net/pub/app?lang=en&v=2\n",
}

// BenchmarkSanitizeURLs: text=urls is about 4 KiB of urlLines; text=plain
// the clean 4 KiB text. Neither holds anything to change.
func BenchmarkSanitizeURLs(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 4<<10-128; i++ {
		sb.WriteString(urlLines[i%len(urlLines)])
	}
	urls, plain := sb.String(), readBenchInput(b, "sanitize-clean-4k.txt")
	for _, s := range []string{urls, plain} {
		if agenterror.SanitizeMax(s, 4096) != s {
			b.Fatalf("the input is not clean: %q", agenterror.SanitizeMax(s, 4096))
		}
	}
	b.Run("text=urls", func(b *testing.B) { benchSanitize(b, urls, 4096) })
	b.Run("text=plain", func(b *testing.B) { benchSanitize(b, plain, 4096) })
}
