package agenterror_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gentest"
)

const sanitizerVectors = "../../../conformance/sanitizer.vectors.json"

// TestSanitizerVectors runs the hand-curated sanitizer vectors, which the
// TypeScript and Python packages run too, and checks that every output is a
// fixpoint.
func TestSanitizerVectors(t *testing.T) {
	gentest.CheckSanitizerVectors(t, sanitizerVectors, agenterror.SanitizeMaxLength, agenterror.SanitizeTruncationMarker, agenterror.SanitizeMax)
}

// TestSanitizeCleanDoesNotAllocate: text that needs no change comes back
// as it is, without an allocation.
func TestSanitizeCleanDoesNotAllocate(t *testing.T) {
	clean := strings.Repeat("upstream api.example.com:443 answered 503 (Service Unavailable); retry_after=2s, page=3 … Grüße 🚀\n", 40)
	if got := agenterror.Sanitize(clean[:2000]); got != clean[:2000] {
		t.Fatalf("clean text changed:\n%q", got)
	}
	paths := "open /srv/app/homework/x.go, /home, /Users, monkey.keyboard, sort_key, id_rsa.pub, did it, api.key.example.com, c:\\work"
	for _, s := range []string{"", "plain", clean[:2000], "status: 500, code=7, key=value, https://user@example.com/x", paths} {
		if n := testing.AllocsPerRun(100, func() { sinkString = agenterror.Sanitize(s) }); n != 0 {
			t.Errorf("Sanitize(%.40q…) allocated %.0f times, want 0", s, n)
		}
	}
}

var sinkString string

// TestSanitizeIllFormedAllocatesOnce: text whose only change is the repair
// of ill-formed UTF-8 (a character cut at the end, as byte-truncated text
// is, or bad bytes elsewhere) costs one allocation, the repaired copy, and
// gives what step 1 makes of it: U+FFFD for each maximal subpart.
func TestSanitizeIllFormedAllocatesOnce(t *testing.T) {
	clean := strings.Repeat("upstream api.example.com:443 answered 503 (Service Unavailable); retry_after=2s … Grüße → ", 20)[:1500]
	for _, c := range []struct{ in, want string }{
		{clean + "\xe2\x86", clean + "\uFFFD"},
		{clean + "\xf0\x9f\x9a", clean + "\uFFFD"},
		{"\xff" + clean, "\uFFFD" + clean},
		{clean[:700] + "\xc3\xed\xa0\x80" + clean[700:] + "\xff", clean[:700] + "\uFFFD\uFFFD\uFFFD\uFFFD" + clean[700:] + "\uFFFD"},
	} {
		if got := agenterror.Sanitize(c.in); got != c.want {
			t.Errorf("Sanitize(…%.30q) = …%.30q, want …%.30q", c.in[len(c.in)-30:], got[len(got)-30:], c.want[len(c.want)-30:])
		}
		if n := testing.AllocsPerRun(100, func() { sinkString = agenterror.Sanitize(c.in) }); n > 1 {
			t.Errorf("Sanitize(…%.30q) allocated %.0f times, want 1", c.in[len(c.in)-30:], n)
		}
	}
}

// TestConstructorsSanitize: New, the per-kind constructors and WithCause
// sanitize (SanitizedFields is message and cause); NewTrusted and plain
// assignment do not; clean text costs no allocation beyond the envelope.
func TestConstructorsSanitize(t *testing.T) {
	const secret, clean = "upstream said <system>: password=hunter2", "upstream said : password=[REDACTED]"
	if got := agenterror.SanitizedFields; len(got) != 2 || got[0] != "message" || got[1] != "cause" {
		t.Fatalf("SanitizedFields = %q, the test assumes message and cause", got)
	}
	for name, e := range map[string]*agenterror.Envelope{
		"New":                agenterror.New(agenterror.KindRateLimited, secret),
		"NewRateLimited":     agenterror.NewRateLimited(secret),
		"New unknown kind":   agenterror.New("not_a_kind", secret),
		"NewUpstreamError":   agenterror.NewUpstreamError(secret),
		"NewForbidden":       agenterror.NewForbidden(secret, []string{"password=x"}),
		"NewRateLimited too": agenterror.NewRateLimited(secret).WithTool("t"),
	} {
		if e.Message != clean {
			t.Errorf("%s: message %q, want %q", name, e.Message, clean)
		}
	}
	if e := agenterror.NewTrusted(agenterror.KindRateLimited, secret); e.Message != secret || e.Recovery.Guidance != agenterror.Lookup(agenterror.KindRateLimited).Guidance {
		t.Errorf("NewTrusted changed the message or the guidance: %q, %q", e.Message, e.Recovery.Guidance)
	}
	e := agenterror.NewRateLimited("rate limited").WithCause(secret)
	if e.Cause != clean {
		t.Errorf("WithCause: %q, want %q", e.Cause, clean)
	}
	e.Cause = secret
	if e.Cause != secret {
		t.Error("a plain assignment must not sanitize")
	}
	// Fields outside SanitizedFields are kept as given.
	if e := agenterror.NewForbidden("m", []string{"password=x"}).WithTool("password=x"); e.RequiredScopes[0] != "password=x" || e.Tool != "password=x" {
		t.Errorf("a field outside SanitizedFields was changed: %q, %q", e.RequiredScopes, e.Tool)
	}
	msg := "upstream github is rate limited"
	if n := testing.AllocsPerRun(100, func() { sinkSanitizedEnvelope = agenterror.NewRateLimited(msg).WithCause(msg) }); n != 1 {
		t.Errorf("a clean constructor call allocated %.0f times, want 1 (the envelope)", n)
	}
}

var sinkSanitizedEnvelope *agenterror.Envelope

// TestSanitizeBoundedWork: a 10 MiB input is read only up to its window. It
// gives what its first 64 KiB give, and allocates about as much: the work
// does not grow with the input. (BenchmarkSanitize10MiB and
// BenchmarkSanitizeWindow compare the time; tests do not time.)
func TestSanitizeBoundedWork(t *testing.T) {
	huge := strings.Repeat("password=hunter2 <sys<system>tem> \u200b", 10<<20/36)
	small := huge[:64<<10]
	if agenterror.Sanitize(huge) != agenterror.Sanitize(small) {
		t.Fatal("a 10 MiB input and its first 64 KiB sanitize differently, though both run past the window")
	}
	allocated := func(s string) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 10 {
			sinkString = agenterror.Sanitize(s)
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / 10
	}
	if h, s := allocated(huge), allocated(small); h > 2*s+4096 {
		t.Errorf("10 MiB allocated %d bytes, 64 KiB %d: the work is not bounded by the window", h, s)
	}
}

// TestSanitizePathsAtEveryAlignment: every credential name, key file
// extension and home prefix is found at each byte alignment, in clean text
// (the quick pass must not miss it) and right after a redaction (where the
// output's "]" starts a segment that the input's bytes do not show).
func TestSanitizePathsAtEveryAlignment(t *testing.T) {
	const redacted = "[REDACTED]"
	check := func(in, want string) {
		t.Helper()
		if got := agenterror.Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
	for pad := range 4 {
		a := strings.Repeat("a", pad)
		for _, n := range contract.BuiltinCredentialNames {
			for _, sep := range []string{"/", "\\"} {
				name := strings.ReplaceAll(n, "/", sep)
				check(a+" x"+sep+name+" end", a+" "+redacted+" end")
				check(a+" "+name+" end", a+" "+redacted+" end")
				check(a+" AKIAIOSFODNN7EXAMPLE"+name+" end", a+" "+redacted+redacted+" end")
			}
		}
		for _, x := range contract.KeyFileExtensions {
			check(a+" server"+x+" end", a+" "+redacted+" end")
			check(a+" server"+x+"x end", a+" server"+x+"x end")
		}
		for _, h := range contract.HomePrefixes {
			check(a+" "+h+"alice end", a+" "+h+redacted+" end")
		}
		check(a+" C:\\Users\\alice end", a+" C:\\Users\\"+redacted+" end")
	}
}

// The planted secrets of the fuzz target: each must be gone from the
// output whatever surrounds it, as long as it lies inside the kept text.
var plantedSecrets = []string{
	"AKIAIOSFODNN7EXAMPLE",
	"ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
	"AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
	"sk_live_4eC39HqLyjWDarjtT1zdp7dc",
	"xoxb-1234567890-abcdefghij",
	"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
}

// plantedPaths are the sensitive paths of the fuzz target, each with what
// must be gone from the output: a user name, a credential's location. (A
// Windows home is left out: after "password= " the assignment takes its
// "C:" and the home is not seen, a documented limit.)
var plantedPaths = []struct{ path, gone string }{
	{"/home/zqalice/.ssh/id_rsa", "zqalice"},
	{"/home/zqalice/.ssh/id_rsa", ".ssh"},
	{"/Users/zqbob/src/main.go", "zqbob"},
	{"~/.aws/credentials", ".aws"},
	{"/etc/ssl/private/zqserver.key:443", "zqserver"},
}

// FuzzSanitize: Sanitize never panics; its output is valid UTF-8, within
// SanitizeMaxLength code points, free of controls and markers, and a
// fixpoint; a secret or a sensitive path planted between spaces does not
// survive; and a deleted character in front changes nothing (so the quick
// pass, which the character stops, agrees with the steps).
func FuzzSanitize(f *testing.F) {
	for _, c := range gentest.ReadSanitizerVectors(f, sanitizerVectors).Cases {
		if len(c.Input.Value) <= 4096 {
			f.Add(c.Input.Value, uint8(0), uint16(0))
		}
	}
	f.Add("<sys<system>tem>", uint8(1), uint16(3))
	f.Add("password=", uint8(2), uint16(9))
	f.Fuzz(func(t *testing.T, s string, secret uint8, at uint16) {
		check := func(in string) string {
			out := agenterror.Sanitize(in)
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 output %+q for %+q", out, in)
			}
			if n := utf8.RuneCountInString(out); n > agenterror.SanitizeMaxLength {
				t.Fatalf("output of %d code points for %+q", n, in)
			}
			if again := agenterror.Sanitize(out); again != out {
				t.Fatalf("not a fixpoint:\ninput  %+q\nonce   %+q\ntwice  %+q", in, out, again)
			}
			for _, r := range out {
				if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r >= 0x7F && r <= 0x9F || r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200B || r == 0xFEFF {
					t.Fatalf("output %+q of %+q keeps %U", out, in, r)
				}
			}
			lower := strings.ToLower(out)
			for _, m := range []string{"<system>", "[inst]", "###", "<<", "<|im_start|>"} {
				if strings.Contains(lower, m) {
					t.Fatalf("output %+q of %+q keeps the marker %s", out, in, m)
				}
			}
			return out
		}
		out := check(s)
		if utf8.RuneCountInString(s) < agenterror.SanitizeMaxLength {
			if slow := agenterror.Sanitize("\x00" + s); slow != out {
				t.Fatalf("the quick pass and the steps disagree:\ninput  %+q\nquick  %+q\nsteps  %+q", s, out, slow)
			}
		}
		// Plant a catalogue secret or a sensitive path, set off by spaces,
		// inside the input.
		k := int(secret) % (len(plantedSecrets) + len(plantedPaths))
		sec, gone := "", ""
		if k < len(plantedSecrets) {
			sec, gone = plantedSecrets[k], plantedSecrets[k]
		} else {
			sec, gone = plantedPaths[k-len(plantedSecrets)].path, plantedPaths[k-len(plantedSecrets)].gone
		}
		cut := int(at) % (len(s) + 1)
		for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut--
		}
		if utf8.RuneCountInString(s[:cut]) > 1000 {
			return
		}
		out = check(s[:cut] + " " + sec + " " + s[cut:])
		if strings.Contains(out, gone) && !strings.Contains(s, gone) {
			t.Fatalf("%s of the planted %s survived in %+q", gone, sec, out)
		}
	})
}

// FuzzSanitizeMax drives the window and the truncation with short maximum
// lengths: the output stays within the maximum, ends with the marker when
// text was cut off, and is a fixpoint.
func FuzzSanitizeMax(f *testing.F) {
	for _, c := range gentest.ReadSanitizerVectors(f, sanitizerVectors).Cases {
		if len(c.Input.Value) <= 4096 {
			f.Add(c.Input.Value, uint8(c.MaxLength))
		}
	}
	markerLen := utf8.RuneCountInString(agenterror.SanitizeTruncationMarker)
	f.Fuzz(func(t *testing.T, s string, max uint8) {
		limit := markerLen + 1 + int(max)%64
		out := agenterror.SanitizeMax(s, limit)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 output %+q for %+q", out, s)
		}
		if n := utf8.RuneCountInString(out); n > limit {
			t.Fatalf("output of %d code points, max %d, for %+q: %+q", n, limit, s, out)
		}
		// (Only for valid input: the window counts an ill-formed subpart of
		// several bytes as one code point, RuneCountInString as several.)
		if utf8.ValidString(s) && utf8.RuneCountInString(s) > 4*limit && !strings.HasSuffix(out, agenterror.SanitizeTruncationMarker) {
			t.Fatalf("input beyond the window, but no truncation marker: %+q", out)
		}
		if again := agenterror.SanitizeMax(out, limit); again != out {
			t.Fatalf("not a fixpoint at max %d:\ninput  %+q\nonce   %+q\ntwice  %+q", limit, s, out, again)
		}
		// AppendSanitizeMax appends the same, into room after a prefix.
		buf := append(make([]byte, 0, 8+4*len(s)+64), "prefix: "...)
		if got := agenterror.AppendSanitizeMax(buf, s, limit); string(got[:8]) != "prefix: " || string(got[8:]) != out {
			t.Fatalf("AppendSanitizeMax at max %d:\ninput  %+q\ngot    %+q\nwant   prefix: %+q", limit, s, got, out)
		}
	})
}

// repetitive are inputs that would make a backtracking or rescanning step
// quadratic: each pattern repeated to about 600,000 bytes.
var repetitive = []string{"eyJ", "eyJaaaaaaaaaa.", "AKIA123", "bearer ", "://a:b", "a=", "\" =", "-----BEGIN ",
	"-----BEGIN RSA PRIVATE KEY-----", "<sys", "#<", " sk", "authorization: Bearer ", ":", "-", "password=\"", "sk-",
	":///home/a", "/home/a/", " /home/a", "//home/a", "id_rsa ", "id_rsa.", "x.pem.", ".kube/", "/", " .ssh", "c:\\Users\\a",
	// Homes in one path: each home's path runs to the end of the text.
	"/home/.", "/Users/.", "c:\\Users\\.",
	// A bearer with no white space after it, in one run of token characters.
	"=Bearer", "_bearer"}

// TestSanitizeRepetitive runs the repetitive inputs with a 1 MiB window. It
// asserts no time (BenchmarkSanitizeRepetitive measures that); a quadratic
// step would take hours here and trip the test timeout.
func TestSanitizeRepetitive(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	for _, p := range repetitive {
		s := "x" + strings.Repeat(p, 600000/len(p))
		out := agenterror.SanitizeMax(s, 1<<20)
		if again := agenterror.SanitizeMax(out, 1<<20); again != out {
			t.Errorf("%q repeated: the output is not a fixpoint", p)
		}
	}
}

// BenchmarkSanitizeRepetitive times each repetitive input at two sizes;
// linear steps take about twice as long for the larger one.
func BenchmarkSanitizeRepetitive(b *testing.B) {
	for i, p := range repetitive {
		for _, n := range []int{300000, 600000} {
			s := "x" + strings.Repeat(p, n/len(p))
			b.Run(fmt.Sprintf("pattern=%d/bytes=%d", i, n), func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				for b.Loop() {
					sinkString = agenterror.SanitizeMax(s, 1<<20)
				}
			})
		}
	}
}
