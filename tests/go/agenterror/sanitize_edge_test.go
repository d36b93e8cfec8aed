package agenterror_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/errgen/errgen/gen/go/agenterror"
)

// The property of docs/sanitizer.md ("What it does not do", the bound): a
// secret of any shape the default policy knows, whatever padding is put
// around and inside it (characters step 1 deletes, of any length, controls,
// markers, earlier secrets that shrink the text when redacted, so that the
// window's edge reaches the output, text that puts it at the truncation
// edge), never leaves a character of its token in the output: at most a
// part of its fixed start. The generator is the same in the Go, TypeScript,
// Python and Rust tests (xorshift32, the same draws in the same order), so
// a seed gives the same cases in each.

// edgeRNG is xorshift32.
type edgeRNG struct{ x uint32 }

func (r *edgeRNG) next() uint32 {
	r.x ^= r.x << 13
	r.x ^= r.x >> 17
	r.x ^= r.x << 5
	return r.x
}

func (r *edgeRNG) intn(n int) int { return int(r.next() % uint32(n)) }

// edgeShape is a secret: its fixed start (which may survive, cut short by
// the window), its token (which never may), and what completes the shape.
type edgeShape struct{ fixed, tail string }

var edgeShapes = func() (list []edgeShape) {
	for _, p := range []string{"sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
		"xoxa-", "xoxb-", "xoxe-", "xoxp-", "xoxr-", "xoxs-", "tskey-", "AKIA", "ASIA", "AIza",
		"sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_", "whsec_", "npm_"} {
		list = append(list, edgeShape{p, ""})
	}
	return append(list,
		edgeShape{"eyJ", ""}, // a JSON Web Token: the token is made below
		edgeShape{"Bearer ", ""},
		edgeShape{"password=", ""},
		edgeShape{"Authorization: Basic ", ""},
		edgeShape{"https://user:", "@db.example.com"},
		edgeShape{"-----BEGIN RSA PRIVATE KEY-----\n", "\n-----END RSA PRIVATE KEY-----"},
		edgeShape{"/home/", "/project"},
	)
}()

const edgeUpper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

var (
	edgeDeletable = []string{"\u200b", "\u00ad", "\U000E0041", "\x01", "\u0085", "\ufeff", "\u202e", "\x7f"}
	edgeWords     = []string{"error ", "upstream: ", "timeout, ", "a\tb\n", "x", "=", "é", "日本 "}
	edgeMarkers   = []string{"<system>", "[INST]", "###", "<|im_start|>", "<<"}
)

// edgeToken is a token of upper-case letters and digits with a digit
// second: no padding holds either, so two of its characters in a row in
// the output are a leak. Its length is 82 or more, every catalogue
// shape's minimum.
func edgeToken(r *edgeRNG, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = edgeUpper[r.intn(len(edgeUpper))]
	}
	b[1] = edgeUpper[26+r.intn(10)]
	return string(b)
}

func edgeLower(r *edgeRNG, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + r.intn(26))
	}
	return string(b)
}

// edgeCase makes one case: the input, its maximum, and the token that must
// not leak with its shape's fixed start.
func edgeCase(r *edgeRNG) (in string, maxLen int, fixed, token string) {
	maxLen = 64 + r.intn(240)
	if r.intn(8) == 0 {
		maxLen = 2048
	}
	sh := edgeShapes[r.intn(len(edgeShapes))]
	fixed = sh.fixed
	token = edgeToken(r, 82+r.intn(16))
	if fixed == "eyJ" {
		token = edgeToken(r, 17) + "." + edgeToken(r, 20) + "." + edgeToken(r, 20)
	}
	// The secret, perhaps with deletable characters or a marker inside.
	secret := fixed + token
	if r.intn(2) == 0 {
		k := r.intn(len(secret))
		ins := strings.Repeat(edgeDeletable[r.intn(len(edgeDeletable))], 1+r.intn(4))
		if r.intn(2) == 0 {
			ins = edgeMarkers[r.intn(len(edgeMarkers))]
		}
		secret = secret[:k] + ins + secret[k:]
	}
	secret += sh.tail
	// The padding before it: words, markers and earlier secrets that
	// shrink when redacted.
	var pre strings.Builder
	for n := r.intn(6); n > 0; n-- {
		switch r.intn(4) {
		case 0:
			pre.WriteString(edgeWords[r.intn(len(edgeWords))])
		case 1:
			pre.WriteString(edgeMarkers[r.intn(len(edgeMarkers))])
		default:
			pre.WriteString(" sk-" + edgeLower(r, 40+r.intn(80)) + " ")
		}
	}
	joiner := " "
	if len(fixed) <= 11 && fixed != "Bearer " && fixed != "password=" && fixed != "/home/" && fixed != "https://user:" {
		joiner = []string{"", " ", "x", ":", "\t"}[r.intn(5)]
	}
	have := utf8.RuneCountInString(pre.String())
	switch r.intn(3) {
	case 0, 1:
		// At the window's edge: deletable characters (or shrinking
		// secrets, then deletable characters) up to 4 × max less a few.
		target := 4*maxLen - r.intn(utf8.RuneCountInString(secret)+8)
		if r.intn(3) == 0 {
			for have+120 < target-utf8.RuneCountInString(joiner) && r.intn(40) != 0 {
				pre.WriteString("sk-" + edgeLower(r, 116) + " ")
				have += 120
			}
		}
		unit := edgeDeletable[r.intn(len(edgeDeletable))]
		if fill := target - have - utf8.RuneCountInString(joiner); fill > 0 {
			pre.WriteString(strings.Repeat(unit, fill))
		}
	default:
		// At the truncation edge: text up to about max less the marker.
		target := maxLen - 14 - r.intn(utf8.RuneCountInString(secret)+4)
		for have < target {
			pre.WriteString("w")
			have++
		}
	}
	after := ""
	if r.intn(2) == 0 {
		after = " and more text after it " + strings.Repeat("z", r.intn(4*maxLen))
	}
	return pre.String() + joiner + secret + after, maxLen, fixed, token
}

// TestSanitizeNoSecretAtEdges checks the bound on seeded cases.
func TestSanitizeNoSecretAtEdges(t *testing.T) {
	seed := uint32(20261207)
	if s := os.Getenv("SANITIZE_EDGE_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		seed = uint32(v)
	}
	const cases = 400
	r := &edgeRNG{seed | 1}
	leaks, cuts := 0, 0
	for i := 0; i < cases; i++ {
		in, maxLen, fixed, token := edgeCase(r)
		out := agenterror.SanitizeMax(in, maxLen)
		if strings.Contains(out, token[:2]) || strings.Contains(out, fixed+token[:1]) {
			leaks++
			t.Errorf("case %d (max %d): a token of %q survives:\n  input  %.300q…\n  output …%q", i, maxLen, fixed, in, out[max(0, len(out)-300):])
		}
		// Step 4 never cuts a [REDACTED] in half (the padding holds no
		// other "[" that could end the kept text).
		if kept, ok := strings.CutSuffix(out, agenterror.SanitizeTruncationMarker); ok {
			for j := 1; j < len("[REDACTED]"); j++ {
				if strings.HasSuffix(kept, "[REDACTED]"[:j]) {
					cuts++
					t.Errorf("case %d (max %d): truncation cut a marker: …%q", i, maxLen, out[len(out)-min(len(out), 60):])
				}
			}
		}
		if again := agenterror.SanitizeMax(out, maxLen); again != out {
			t.Errorf("case %d (max %d): not a fixpoint:\n  %q\n  %q", i, maxLen, out, again)
		}
	}
	t.Logf("sanitizer edge property: seed %d, %d cases, %d leaks, %d markers cut", seed, cases, leaks, cuts)
}
