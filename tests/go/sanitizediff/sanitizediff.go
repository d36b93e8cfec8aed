// Package sanitizediff generates the differential sanitizer vectors: seeded
// random inputs built from the ingredients hostile upstream text is made of,
// with the Go sanitizer's outputs as the expected outputs. The TypeScript and
// Python tests run the file (make sanitize-diff writes it) and so compare
// their sanitizers with Go's on many more inputs than the hand-curated
// conformance/sanitizer.vectors.json holds. The file has exactly that file's
// format (docs/sanitizer.md, "The vector file").
package sanitizediff

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/errgen/errgen/tests/go/seeded"
)

// Config is what a run generates from.
type Config struct {
	Seed uint64
	// N is the number of cases.
	N int
	// MaxLength and Marker are the policy of the sanitizer under test.
	MaxLength int
	Marker    string
	// SanitizeMax is the reference sanitizer (Go's agenterror.SanitizeMax).
	SanitizeMax func(s string, maxLength int) string
}

// Case is one generated vector.
type Case struct {
	Name string
	// Atoms make up the input; the file writes them as a TEXT.
	Atoms []Atom
	// MaxLength is zero for the policy's maximum.
	MaxLength int
	// Input is the text as Go reads it from the file (a lone surrogate is
	// U+FFFD, hex bytes are the bytes), and Output the sanitizer's answer.
	Input, Output string
	// Ingredients names what went into the input, for coverage.
	Ingredients []string
}

// AtomKind tells how an atom is written to the file.
type AtomKind int

const (
	// AtomText is valid text, written inside a JSON string.
	AtomText AtomKind = iota
	// AtomSurrogate is a lone UTF-16 surrogate, written as a \uDXXX escape.
	// Go's JSON decoder reads it as U+FFFD; JavaScript and Python keep the
	// lone surrogate, which their sanitizers must replace.
	AtomSurrogate
	// AtomHex is raw bytes, possibly ill-formed UTF-8, written as {"hex"}.
	AtomHex
	// AtomRepeat is Text repeated Times times, written as {"repeat"}.
	AtomRepeat
)

// Atom is one piece of an input.
type Atom struct {
	Kind      AtomKind
	Text      string // AtomText, AtomRepeat
	Times     int    // AtomRepeat
	Surrogate uint16 // AtomSurrogate
	Bytes     []byte // AtomHex
}

// goValue is the atom as Go's JSON decoder and gentest.Text read it.
func (a Atom) goValue() string {
	switch a.Kind {
	case AtomSurrogate:
		return "\uFFFD"
	case AtomHex:
		return string(a.Bytes)
	case AtomRepeat:
		return strings.Repeat(a.Text, a.Times)
	}
	return a.Text
}

// Ingredients lists every ingredient a large enough run covers; the test
// checks that each occurs.
var Ingredients = []string{
	"ascii", "punct", "secret", "secret-near-miss", "word-prefix", "jwt", "jwt-near-miss",
	"bearer", "pem", "pem-near-miss", "assign-sensitive", "assign-harmless", "query", "url-userinfo",
	"authorization", "marker", "marker-split", "c0", "c1", "bidi", "zero-width", "invisible", "tag",
	"emoji", "zwj", "flag", "combining", "cjk", "fffd", "surrogate", "ill-formed", "hex-valid",
	"whitespace", "unicode-space", "long", "max-length", "beyond-window",
	"home", "credential-path", "path-near-miss",
}

// rng is the seeded stream (tests/go/seeded), salted with this
// generator's own constant.
type rng = seeded.RNG

func newRNG(seed uint64) *rng { return seeded.New(seed, 0x9E3779B97F4A7C15) }

func pick[T any](r *rng, list []T) T { return seeded.Pick(r, list) }

// Generate makes cfg.N cases; the same Config always gives the same cases.
func Generate(cfg Config) []Case {
	r := newRNG(cfg.Seed)
	cases := make([]Case, cfg.N)
	for i := range cases {
		cases[i] = generateCase(r, cfg, i)
	}
	return cases
}

// builder collects a case's atoms.
type builder struct {
	r           *rng
	atoms       []Atom
	ingredients []string
}

func (b *builder) add(ingredient string, atoms ...Atom) {
	if ingredient != "" && !slices.Contains(b.ingredients, ingredient) {
		b.ingredients = append(b.ingredients, ingredient)
	}
	for _, a := range atoms {
		b.push(a)
	}
}

func (b *builder) text(ingredient, s string) { b.add(ingredient, Atom{Kind: AtomText, Text: s}) }

// push appends an atom. Two surrogate escapes in a row that would pair up
// (a high one, then a low one) would be one valid character in JavaScript
// and Python but two U+FFFD in Go, so the low one is made high.
func (b *builder) push(a Atom) {
	if a.Kind == AtomText && a.Text == "" {
		return // it would hide a pair of surrogates from the test below
	}
	if a.Kind == AtomSurrogate && a.Surrogate >= 0xDC00 && len(b.atoms) > 0 {
		if last := b.atoms[len(b.atoms)-1]; last.Kind == AtomSurrogate && last.Surrogate < 0xDC00 {
			a.Surrogate -= 0x400
		}
	}
	b.atoms = append(b.atoms, a)
}

// length is the input's length in code points as Go counts them (an
// ill-formed byte as one; close enough to aim at a limit).
func (b *builder) length() int {
	n := 0
	for _, a := range b.atoms {
		n += utf8.RuneCountInString(a.goValue())
	}
	return n
}

func generateCase(r *rng, cfg Config, i int) Case {
	b := &builder{r: r}
	c := Case{}
	max := cfg.MaxLength
	if r.Chance(10) {
		c.MaxLength = r.Between(64, 300)
		max = c.MaxLength
		b.add("max-length")
	}
	// Most inputs are short mixes; some are long, aimed at the truncation
	// limit or the window's edge.
	long := r.Chance(5)
	if c.MaxLength != 0 {
		long = r.Chance(40)
	}
	n := r.Between(1, 12)
	for j := 0; j < n; j++ {
		if j > 0 {
			switch r.Intn(4) {
			case 0, 1:
				b.text("", " ")
			case 2:
				b.text("", pick(r, []string{"\n", ", ", "; ", "\t", " - ", "&", "?", "/", ":", "=", ""}))
			}
		}
		ingredient(b)
	}
	if long {
		targets := []int{max - 1, max, max + 1, 4*max - 1, 4 * max, 4*max + 1, 4*max + r.Between(2, 3*max)}
		target := pick(r, targets) + r.Between(-3, 3)
		fill := target - b.length()
		if fill > 0 {
			unit := pick(r, fillers)
			times := fill / utf8.RuneCountInString(unit)
			if times > 0 {
				filler := Atom{Kind: AtomRepeat, Text: unit, Times: times}
				tail := []Atom{filler}
				if r.Chance(50) {
					// Something to find right at the limit.
					at := len(b.atoms)
					ingredient(b)
					tail = append(tail, b.atoms[at:]...)
					b.atoms = b.atoms[:at]
				}
				if r.Chance(50) {
					b.add("long", tail...)
				} else {
					head := append([]Atom(nil), b.atoms...)
					b.atoms = nil
					b.add("long", tail...)
					for _, a := range head {
						b.push(a)
					}
				}
			}
		}
	}
	if b.length() > 4*max {
		b.add("beyond-window")
	}
	c.Atoms = b.atoms
	c.Ingredients = b.ingredients
	var in strings.Builder
	for _, a := range c.Atoms {
		in.WriteString(a.goValue())
	}
	c.Input = in.String()
	if c.MaxLength != 0 {
		c.Output = cfg.SanitizeMax(c.Input, c.MaxLength)
	} else {
		c.Output = cfg.SanitizeMax(c.Input, cfg.MaxLength)
	}
	c.Name = fmt.Sprintf("diff %d: %s", i+1, strings.Join(c.Ingredients, " "))
	return c
}

// CraftedPatterns are the inputs that cost sanitizers the most per byte,
// each a short pattern repeated: the shapes that made a step quadratic in
// one language or another (homes in one path, a bearer without white
// space, a marker start, one punctuation character), and the slowest the
// Go benchmark's search finds (tests/go/agenterror, BenchmarkSanitizeCrafted
// repeats these to 64 KiB). Crafted writes each at a few KiB into the
// differential file, so that every language must give Go's outputs on them.
var CraftedPatterns = []struct{ Name, Pattern string }{
	{"homes-in-one-path", "/home/."},
	{"homes-in-one-path-macos", "/Users/."},
	{"bearer-without-space", "=Bearer"},
	{"key-file-extension", ".pem"},
	{"credential-name-assign", ".sshc="},
	{"colon", ":"},
	{"dash-colon", "-:"},
	{"assign-colon", "a:"},
	{"assign-equals", "a="},
	{"ill-formed-byte-key", "\xff_key="},
	{"jwt-start", "eyJ "},
	{"pem-begin", "-----BEGIN "},
	{"marker-start", "<|"},
	{"ill-formed-byte", "\xff"},
	{"ill-formed-byte-colon", "\xff:"},
	{"colon-backslash", ":\\"},
	{"lead-byte-alone", "\xc3"},
	{"hash", "#"},
	{"hash-pair", "##"},
	{"less-than", "<"},
	{"slash", "/"},
	{"credential-name", ".ssh"},
	{"secret-prefix", "sk-"},
	{"scheme", "x://"},
}

// craftedSize is the length each crafted pattern is repeated to, in bytes.
const craftedSize = 3 << 10

// Crafted makes two cases per crafted pattern, repeated to craftedSize
// bytes: with the policy's maximum, and with a maximum of the input's
// length in code points, so that nothing is cut off and what a shape does
// at the text's end (a key file extension repeated matches only there)
// shows in the output. A pattern that is not valid UTF-8 is written as
// {"hex"}.
func Crafted(cfg Config) []Case {
	var cases []Case
	for _, c := range CraftedPatterns {
		times := craftedSize / len(c.Pattern)
		in := strings.Repeat(c.Pattern, times)
		atom := Atom{Kind: AtomRepeat, Text: c.Pattern, Times: times}
		if !utf8.ValidString(c.Pattern) {
			atom = Atom{Kind: AtomHex, Bytes: []byte(in)}
		}
		for _, max := range []int{0, utf8.RuneCountInString(in)} {
			k := Case{Atoms: []Atom{atom}, MaxLength: max, Input: in, Ingredients: []string{"crafted"}}
			k.Name = fmt.Sprintf("crafted: %s x%d", c.Name, times)
			k.Output = cfg.SanitizeMax(in, cfg.MaxLength)
			if max != 0 {
				k.Name += fmt.Sprintf(" (max_length %d)", max)
				k.Output = cfg.SanitizeMax(in, max)
			}
			cases = append(cases, k)
		}
	}
	return cases
}

// EdgeCount is the number of cases Edge makes.
const EdgeCount = 300

// Edge makes the hostile cases of issue 28 (the same in every run): a
// secret of every shape the catalogue and step 3 know, at the window's
// edge (after characters step 1 deletes, of any length, or after earlier
// secrets that shrink the text when redacted, so that the window's tail
// reaches the output), with deletable characters or a marker inside it,
// glued to text or after white space, or at the truncation edge, under a
// maximum of 64 to 303 or the policy's. docs/sanitizer.md bounds what of
// each may survive, and tests/go/agenterror checks that bound; here every
// language must give Go's outputs on them.
func Edge(cfg Config) []Case {
	r := newRNG(cfg.Seed ^ 0xED6E)
	cases := make([]Case, EdgeCount)
	for i := range cases {
		b := &builder{r: r}
		max := 64 + r.Intn(240)
		c := Case{MaxLength: max}
		if r.Chance(12) {
			max, c.MaxLength = cfg.MaxLength, 0
		}
		fixed, tail := pick(r, edgeShapes), ""
		switch fixed {
		case "https://user:":
			tail = "@db.example.com"
		case "-----BEGIN RSA PRIVATE KEY-----\n":
			tail = "\n-----END RSA PRIVATE KEY-----"
		case "/home/":
			tail = "/project"
		}
		secret := fixed + run(r, classUpperAlnum, r.Between(82, 97))
		if fixed == "eyJ" {
			secret = fixed + run(r, classBase64URL, 17) + "." + run(r, classBase64URL, 20) + "." + run(r, classBase64URL, 20)
		}
		if r.Chance(50) {
			k := r.Intn(len(secret))
			ins := strings.Repeat(pick(r, edgeDeletable), r.Between(1, 4))
			if r.Chance(50) {
				ins = pick(r, edgeMarkers)
			}
			secret = secret[:k] + ins + secret[k:]
		}
		secret += tail
		for n := r.Intn(6); n > 0; n-- {
			switch r.Intn(4) {
			case 0:
				b.text("", pick(r, []string{"error ", "upstream: ", "a\tb\n", "x", "=", "é", "日本 "}))
			case 1:
				b.text("", pick(r, edgeMarkers))
			default:
				b.text("", " sk-"+run(r, "abcdefghijklmnopqrstuvwxyz", r.Between(40, 119))+" ")
			}
		}
		joiner := " "
		if len(fixed) <= 11 && !slices.Contains([]string{"Bearer ", "password=", "/home/", "https://user:"}, fixed) {
			joiner = pick(r, []string{"", " ", "x", ":", "\t"})
		}
		secretLen, joinerLen := utf8.RuneCountInString(secret), utf8.RuneCountInString(joiner)
		if r.Chance(67) {
			// At the window's edge.
			target := 4*max - r.Intn(secretLen+8)
			if r.Chance(33) {
				for b.length()+120 < target-joinerLen && !r.Chance(3) {
					b.text("", "sk-"+run(r, "abcdefghijklmnopqrstuvwxyz", 116)+" ")
				}
			}
			unit := pick(r, edgeDeletable)
			if fill := target - b.length() - joinerLen; fill > 0 {
				b.add("", Atom{Kind: AtomRepeat, Text: unit, Times: fill})
			}
		} else if fill := max - 14 - r.Intn(secretLen+4) - b.length(); fill > 0 {
			// At the truncation edge.
			b.add("", Atom{Kind: AtomRepeat, Text: "w", Times: fill})
		}
		b.text("", joiner)
		b.text("", secret)
		if r.Chance(50) {
			b.text("", " and more text after it ")
			if n := r.Intn(4 * max); n > 0 {
				b.add("", Atom{Kind: AtomRepeat, Text: "z", Times: n})
			}
		}
		c.Atoms = b.atoms
		var in strings.Builder
		for _, a := range c.Atoms {
			in.WriteString(a.goValue())
		}
		c.Input = in.String()
		c.Output = cfg.SanitizeMax(c.Input, max)
		c.Ingredients = []string{"edge"}
		c.Name = fmt.Sprintf("edge %d: %q at max_length %d", i+1, fixed, max)
		cases[i] = c
	}
	return cases
}

// The shapes, deletable characters and markers of Edge.
var (
	edgeShapes = func() (list []string) {
		for _, sh := range catalogue {
			list = append(list, sh.prefixes...)
		}
		return append(list, "eyJ", "Bearer ", "password=", "Authorization: Basic ", "https://user:",
			"-----BEGIN RSA PRIVATE KEY-----\n", "/home/")
	}()
	edgeDeletable = []string{"\u200b", "\u00ad", "\U000E0041", "\x01", "\u0085", "\ufeff", "\u202e", "\x7f"}
	edgeMarkers   = []string{"<system>", "[INST]", "###", "<|im_start|>", "<<"}
)

// fillers are the units long inputs repeat.
var fillers = []string{"x", "ab ", "é", "🚀", "日本", "word ", "a\u0301", "password=x ", "<sys", "#", " ", "sk-", "eyJ",
	"AKIA", "key=value&", "\u200b", "\ufffd"}

var words = []string{"error", "upstream", "timeout", "connection", "refused", "request", "failed", "status",
	"retry", "the", "a", "GET", "POST", "/v1/items/42", "api.example.com", "500", "503", "Service", "Unavailable",
	"rate", "limit", "exceeded", "token", "key", "secret", "auth", "session", "code", "sig", "bearer", "Bearer",
	"task", "desk", "ask", "SYS", "system", "INST", "im_start", "eyJ", "pass", "sk", "npm", "begin", "PRIVATE"}

var puncts = []string{".", ",", ";", ":", "=", "!", "?", "(", ")", "[", "]", "{", "}", "<", ">", "\"", "'", "`",
	"\\", "/", "@", "#", "$", "%", "^", "&", "*", "-", "_", "+", "|", "~", "://", "--", "-----", "|>", "<|"}

// The catalogue of docs/sanitizer.md, step 3's table.
type shape struct {
	prefixes []string
	class    string
	min      int
}

var catalogue = []shape{
	{[]string{"sk-"}, classBase64URL, 20},
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, classAlnum, 36},
	{[]string{"github_pat_"}, classWord, 82},
	{[]string{"glpat-"}, classBase64URL, 20},
	{[]string{"xoxa-", "xoxb-", "xoxe-", "xoxp-", "xoxr-", "xoxs-"}, classBase64URL, 10},
	{[]string{"tskey-"}, classBase64URL, 10},
	{[]string{"AKIA", "ASIA"}, classUpperAlnum, 16},
	{[]string{"AIza"}, classBase64URL, 35},
	{[]string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_", "whsec_"}, classAlnum, 16},
	{[]string{"npm_"}, classAlnum, 36},
}

const (
	alnum           = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	classAlnum      = alnum
	classUpperAlnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	classBase64URL  = alnum + "_-"
	classWord       = alnum + "_"
	classToken      = alnum + "-._~+/="
	classValue      = alnum + "!#$%*+-./:=?@^_|~"
)

func run(r *rng, class string, n int) string {
	var s strings.Builder
	for range n {
		s.WriteByte(class[r.Intn(len(class))])
	}
	return s.String()
}

var wordPrefixes = []string{"sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
	"xoxa-", "xoxb-", "xoxe-", "xoxp-", "xoxr-", "xoxs-", "tskey-", "eyJ"}

var sensitiveKeys = []string{"token", "secret", "password", "passwd", "apikey", "api_key", "api-key", "signature",
	"credential", "credentials", "authorization", "cookie", "sessionid", "session_id", "accesskey", "privatekey",
	"secretkey", "pwd", "pass", "auth", "session", "aws_secret_access_key", "client_secret", "X-Amz-Signature",
	"X-Amz-Credential", "X-Amz-Security-Token", "X-Goog-Signature", "access_token", "refresh_token", "id_token",
	"nextPageToken", "SecretAccessKey", "Cookie", "Set-Cookie", "stripe_key", "my-key", "db.password", "PASSWORD"}

var harmlessKeys = []string{"versionId", "prefix", "page", "max_tokens", "token_type", "signature_version",
	"X-Amz-Date", "X-Amz-Expires", "passwordless", "sort_key", "cache_key", "idempotency_key", "partition_key",
	"primary_key", "public_key", "foreign_key", "hash_key", "range_key", "row_key", "object_key", "routing_key",
	"shard_key", "dedup_key", "dedupe_key", "group_key", "lookup_key", "unique_key", "index_key", "map_key",
	"s3_key", "my.sort-key", "code", "sig", "exit code", "status code", "mykey", "key", "turnkey", "passing"}

var markers = []string{"<system>", "</system>", "[INST]", "[/INST]", "###", "<<", "<|im_start|>", "<|im_end|>",
	"<|system|>", "<|user|>", "<|assistant|>", "<|endoftext|>", "<|eot_id|>", "<|start_header_id|>", "<|end_header_id|>"}

// randomCase flips the case of some ASCII letters.
func randomCase(r *rng, s string) string {
	b := []byte(s)
	for i, c := range b {
		if r.Chance(30) {
			switch {
			case c >= 'a' && c <= 'z':
				b[i] = c - 32
			case c >= 'A' && c <= 'Z':
				b[i] = c + 32
			}
		}
	}
	return string(b)
}

func runes(r *rng, lo, hi rune, n int) string {
	var s strings.Builder
	for range n {
		s.WriteRune(lo + rune(r.Intn(int(hi-lo)+1)))
	}
	return s.String()
}

// ingredient adds one random ingredient.
func ingredient(b *builder) {
	r := b.r
	switch r.Intn(39) {
	case 0, 1, 2:
		var ws []string
		for range r.Between(1, 5) {
			ws = append(ws, pick(r, words))
		}
		b.text("ascii", strings.Join(ws, pick(r, []string{" ", "_", "-", ".", ""})))
	case 3:
		var s strings.Builder
		for range r.Between(1, 6) {
			s.WriteString(pick(r, puncts))
		}
		b.text("punct", s.String())
	case 4, 5:
		sh := pick(r, catalogue)
		b.text("secret", pick(r, sh.prefixes)+run(r, sh.class, sh.min+r.Between(0, 12)))
	case 6, 7:
		b.text("secret-near-miss", nearMiss(r))
	case 8:
		tail := run(r, classValue+"\"'(){}[]<>,;&", r.Between(0, 20))
		if r.Chance(30) {
			tail += pick(r, []string{"é", "日本", "🚀", "\u200b"})
		}
		b.text("word-prefix", pick(r, wordPrefixes)+tail)
	case 9:
		b.text("jwt", "eyJ"+run(r, classBase64URL, r.Between(7, 30))+"."+run(r, classBase64URL, r.Between(4, 40))+
			pick(r, []string{"", ".", "." + run(r, classBase64URL, r.Between(1, 40))}))
	case 10:
		b.text("jwt-near-miss", pick(r, []string{
			"eyJ" + run(r, classBase64URL, r.Between(0, 6)) + "." + run(r, classBase64URL, r.Between(4, 10)),
			"eyJ" + run(r, classBase64URL, r.Between(7, 20)) + "." + run(r, classBase64URL, r.Between(0, 3)),
			"eyJ" + run(r, classBase64URL, r.Between(7, 20)) + run(r, "!:/", 1),
			"x" + "eyJ" + run(r, classBase64URL, r.Between(7, 20)) + ".abc",
			"EYJ" + run(r, classBase64URL, r.Between(7, 20)) + "." + run(r, classBase64URL, 8),
		}))
	case 11:
		b.text("bearer", pick(r, []string{"", "Authorization ", "x", "1", "-", "(", "\n"})+randomCase(r, "bearer")+
			pick(r, []string{" ", "  ", "\t", "", " \t", "\n", ": "})+run(r, classToken, r.Between(4, 40)))
	case 12:
		b.text("pem", pemBlock(r, true))
	case 13:
		b.text("pem-near-miss", pemBlock(r, false))
	case 14, 15:
		b.text("assign-sensitive", assignment(r, pick(r, sensitiveKeys)))
	case 16:
		b.text("assign-harmless", assignment(r, pick(r, harmlessKeys)))
	case 17:
		var q strings.Builder
		q.WriteString(pick(r, []string{"https://api.example.com/v1/x", "/cb", "", "s3://bucket/o", "?"}))
		for range r.Between(1, 4) {
			q.WriteString(pick(r, []string{"?", "&", "#", ";", "&amp;"}))
			key := pick(r, append([]string{"code", "sig", "state", "page", "X-Amz-Signature", "access_token", "Code", "SIG"}, harmlessKeys[:5]...))
			q.WriteString(key + pick(r, []string{"=", "=", "= ", ":"}) + run(r, classValue, r.Between(0, 24)))
		}
		b.text("query", q.String())
	case 18:
		b.text("url-userinfo", pick(r, []string{"postgres", "https", "redis", "ftp", "x", ""})+"://"+
			pick(r, []string{"user:pa%40ss", "u:p", "git", ":", "user:", ":pw", "a:b:c", "us er:pw", "user:p/w", "üser:pw"})+
			pick(r, []string{"@", "@", "", "@@", " @"})+pick(r, []string{"db:5432/x", "host", "", "[::1]"}))
	case 19:
		b.text("authorization", randomCase(r, pick(r, []string{"Authorization", "proxy-authorization", "X-Authorization", "authorization"}))+
			pick(r, []string{": ", "=", ":", " = ", "\": \""})+pick(r, []string{"Bearer ", "Basic ", "Digest ", "AWS4-HMAC-SHA256 ", "", "Bearer", "Bearer\t"})+
			run(r, classValue, r.Between(1, 30))+pick(r, []string{"", ", SignedHeaders=host", " x"}))
	case 20, 21:
		b.text("marker", randomCase(r, pick(r, markers)))
	case 22:
		b.text("marker-split", splitMarker(b))
	case 23:
		b.text("c0", string(rune(pick(r, []int{0, 1, 7, 8, 0x0B, 0x0C, 0x1B, 0x1F, 0x7F, 9, 10, 13}))))
	case 24:
		b.text("c1", runes(r, 0x80, 0x9F, r.Between(1, 3)))
	case 25:
		b.text("bidi", string(pick(r, []rune{0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C}))+pick(r, words))
	case 26:
		b.text("zero-width", pick(r, words)[:1]+string(pick(r, []rune{0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF}))+pick(r, words))
	case 27:
		b.text("invisible", string(pick(r, []rune{0xAD, 0x180E, 0x2061, 0x2064, 0x206A, 0x206F, 0xFFF9, 0xFFFB, 0x2065, 0xFFFC, 0x2028, 0x2029})))
	case 28:
		b.text("tag", runes(r, 0xE0000, 0xE007F, r.Between(1, 5))+pick(r, []string{"", "🏴"}))
	case 29:
		switch r.Intn(3) {
		case 0:
			b.text("emoji", pick(r, []string{"🚀", "🔥", "❤\ufe0f", "👍🏽", "😀", "🙂"}))
		case 1:
			b.text("zwj", pick(r, []string{"👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "👩🏽\u200d💻", "🧑\u200d🤝\u200d🧑"}))
		default:
			b.text("flag", pick(r, []string{"🇩🇪", "🇯🇵", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", "🇺"}))
		}
	case 30:
		b.text("combining", pick(r, []string{"e", "a", "Z", "n", "#", "<"})+runes(r, 0x0300, 0x036F, r.Between(1, 4)))
	case 31:
		b.text("cjk", runes(r, 0x4E00, 0x9FFF, r.Between(1, 6))+pick(r, []string{"", "。", "：", "＝", "＜system＞"}))
	case 32:
		if r.Chance(50) {
			b.text("fffd", "\uFFFD")
		} else {
			s := Atom{Kind: AtomSurrogate, Surrogate: uint16(r.Between(0xD800, 0xDFFF))}
			b.add("surrogate", s)
		}
	case 33:
		b.add("ill-formed", Atom{Kind: AtomHex, Bytes: illFormed(r)})
	case 34:
		if r.Chance(50) {
			b.add("hex-valid", Atom{Kind: AtomHex, Bytes: []byte(pick(r, []string{"é", "€", "𝄞", "ok", "日"}))})
		} else {
			var s strings.Builder
			for range r.Between(2, 12) {
				s.WriteString(pick(r, []string{" ", "\t", "\n", "\r", "\r\n"}))
			}
			b.text("whitespace", s.String())
		}
	case 35:
		b.text("unicode-space", string(pick(r, []rune{0xA0, 0x202F, 0x3000, 0x2028, 0x2029, 0x1680, 0x2003, 0x85})))
	case 36:
		b.text("home", homePath(r))
	case 37:
		b.text("credential-path", credentialPath(r))
	case 38:
		s := pick(r, pathNearMisses)
		if r.Chance(20) {
			s = randomCase(r, s)
		}
		b.text("path-near-miss", pick(r, pathContext)+s+pick(r, pathTails))
	}
}

// The path shapes of docs/sanitizer.md (step 3, shapes 8 and 9): what may
// stand before a path, the home prefixes in their spellings and near
// misses, user names, segments, credential names and key files, and what
// may follow a path (the ends a name must tell apart).
var (
	pathContext = []string{"", "", " ", "\"", "'", "(", "=", "x", "日", ":", "]", "[REDACTED]", "password=", "Bearer ", "AKIAIOSFODNN7EXAMPLE", "\\\""}
	homes       = []string{"/home/", "/Users/", "C:\\Users\\", "c:/users/", "D:\\\\Users\\\\", "file:///home/", "file:///C:/Users/", "C:\\USERS\\",
		"/var/home/", "x/home/", "/homework/", "/users/", "https://home/", "//home/", ":////home/", "C:\\Users/", "1:\\Users\\"}
	users = []string{"alice", "bob.smith", "jörg", "田中", "a", "", "[x]", "u-1_2", "$USER", "%USERNAME%", "john smith", "id_rsa", "x.pem"}
	segs  = []string{"project", "src", "x.go", "AppData", "Local", ".config", "..", ".", "日本", "a b", "", "AKIAIOSFODNN7EXAMPLE", "sk-abcdefghijklmnopqrstuv"}
	creds = []string{".ssh", ".gnupg", ".aws", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk",
		".netrc", "_netrc", ".pgpass", ".git-credentials", ".npmrc", ".pypirc", ".vault-token", ".kube/config", ".docker/config.json",
		"server.key", "tls.pem", "a.p12", "b.pfx", "c.ppk", "d.jks", ".ssh/id_rsa", ".aws/credentials", ".kube\\config",
		".kube//config", ".docker\\\\config.json", "x.key.pem"}
	credDirs = []string{"", "~/", "/root/", "/home/u/", "$HOME/", "%USERPROFILE%\\", "C:\\Users\\u\\", "./", "x/", "/etc/ssl/private/",
		"file:///root/", "日本/", "\\\\srv\\"}
	pathTails = []string{"", "", ".", "..", ". Next", ":", ":12:5", ": denied", "\n", " ", " \t ", " …", " 日本", "日本", "[0]", "\\\"", "\\",
		"\"", ")", "x", "_old", ".pub", ".bak", "AKIAIOSFODNN7EXAMPLE", "/", "\r\n."}
	pathNearMisses = []string{"monkey.keyboard", "sort_key", "api.key.example.com", "my.ssh/x", ".sshd/x", "id_rsa.pub", "id_rsa_old",
		"ID_RSA", "x.PEM", ".pem", "/homework", "/home", "/home/", "/Users", "https://example.com/home/x", ".kube/cache", ".kube",
		".docker/config.jsonx", "a.pemx", "key.value", "/root/x", "/var/home/x", "my_id_rsa", "id_rsa-cert", "a.aws/x"}
)

// homePath is a home directory, or a near miss of one, perhaps holding a
// credential name.
func homePath(r *rng) string {
	prefix := pick(r, homes)
	sep := "/"
	switch {
	case strings.Contains(prefix, "\\\\"):
		sep = "\\\\"
	case strings.Contains(prefix, "\\"):
		sep = "\\"
	}
	var b strings.Builder
	b.WriteString(pick(r, pathContext))
	b.WriteString(prefix)
	b.WriteString(pick(r, users))
	for range r.Intn(4) {
		b.WriteString(sep + pick(r, segs))
	}
	if r.Chance(25) {
		b.WriteString(sep + strings.ReplaceAll(pick(r, creds), "/", sep))
	}
	b.WriteString(pick(r, pathTails))
	return b.String()
}

// credentialPath is a path ending in, or passing through, a credential
// name or a key file.
func credentialPath(r *rng) string {
	var b strings.Builder
	b.WriteString(pick(r, pathContext))
	b.WriteString(pick(r, credDirs))
	b.WriteString(pick(r, creds))
	if r.Chance(20) {
		b.WriteString("/" + pick(r, segs))
	}
	b.WriteString(pick(r, pathTails))
	return b.String()
}

// nearMiss is a catalogue shape that just fails: one character short, a
// character outside the class, or a prefix in the wrong case.
func nearMiss(r *rng) string {
	sh := pick(r, catalogue)
	p := pick(r, sh.prefixes)
	switch r.Intn(4) {
	case 0:
		return p + run(r, sh.class, sh.min-1)
	case 1:
		k := r.Between(0, sh.min-1)
		return p + run(r, sh.class, k) + pick(r, []string{"!", " ", ".", "é", "\u200b", "+"}) + run(r, sh.class, sh.min-k)
	case 2:
		return randomCase(r, p) + run(r, sh.class, sh.min+2)
	default:
		return p[:len(p)-1] + run(r, sh.class, sh.min+2)
	}
}

func pemBlock(r *rng, private bool) string {
	body := run(r, classBase64URL+"+/=\n", r.Between(0, 80))
	if private {
		label := pick(r, []string{"RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "PGP PRIVATE KEY BLOCK"})
		end := pick(r, []string{"\n-----END " + label + "-----", "", "\n-----END ", "-----END X-----", "\n-----END " + label + "----"})
		return "-----BEGIN " + label + "-----\n" + body + end
	}
	label := pick(r, []string{"CERTIFICATE", "PUBLIC KEY", "private key", "RSA  PRIVATE  KEY", strings.Repeat("A", 60) + " PRIVATE KEY"})
	return pick(r, []string{"-----BEGIN ", "----BEGIN ", "-----BEGIN", "-----begin "}) + label + "-----\n" + body + "\n-----END " + label + "-----"
}

func assignment(r *rng, key string) string {
	if r.Chance(40) {
		key = randomCase(r, key)
	}
	pre := pick(r, []string{"", "", "\"", "'", "\\\"", "x_", "my", "aws_", "?", "&", " ", "#", ";", "."})
	q := pick(r, []string{"", "", "\"", "'", "\\\"", "\"\"", "''\"", "`"})
	sep := pick(r, []string{"=", ":", ": ", " = ", "\t:\t", "=\"", ":  '", "=\\\"", "=<", "=(", "= [", ":\"\"\""})
	val := pick(r, []string{
		run(r, classValue, r.Between(1, 24)),
		"hunter2", "é" + run(r, alnum, 3), "a,b", "x;y", "[masked]", "", "p@ss wörd", "Bearer " + run(r, classToken, 12),
		"\"quoted\"", "ä" + run(r, alnum, 4) + "ö",
	})
	return pre + key + q + sep + val
}

// splitMarker hides a marker: split by another marker, a removed
// character, or overlapping markers.
func splitMarker(b *builder) string {
	r := b.r
	m := pick(r, markers)
	k := r.Between(1, len(m)-1)
	switch r.Intn(5) {
	case 0:
		return m[:k] + pick(r, markers) + m[k:]
	case 1:
		return m[:k] + string(pick(r, []rune{0x200B, 0x00AD, 0x202E, 0xFEFF, 0x0007, 0xE0041})) + m[k:]
	case 2:
		inner := pick(r, markers)
		j := r.Between(1, len(inner)-1)
		return m[:k] + inner[:j] + pick(r, markers) + inner[j:] + m[k:]
	case 3:
		return pick(r, []string{"#<<##", "####", "<<SYS>>", "<<<", "#####", "[[INST]INST]", "<|im_<|user|>start|>", "<sy###stem>"})
	default:
		return randomCase(r, m[:k]) + " " + m[k:]
	}
}

// illFormed returns bytes that are not well-formed UTF-8, of the kinds the
// maximal-subpart rule distinguishes.
func illFormed(r *rng) []byte {
	cases := [][]byte{
		{0x80}, {0xBF}, {0xC0, 0xAF}, {0xC1, 0xBF}, {0xC2}, {0xE2, 0x82}, {0xE2, 0x82, 0x41}, {0xE0, 0x80, 0x80},
		{0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF}, {0xF0, 0x9F, 0x98}, {0xF0, 0x80, 0x80, 0x80}, {0xF4, 0x90, 0x80, 0x80},
		{0xF5, 0x80}, {0xFF}, {0xFE, 0xFF}, {0xF8, 0x88, 0x80, 0x80, 0x80}, {0xE1, 0x80, 0xE2, 0xF0, 0x91, 0x92, 0xF1, 0xBF, 0x41},
		{0xEF, 0xBF}, {0xC3, 0x28}, {0x61, 0xF0, 0x28, 0x8C, 0xBC},
	}
	out := append([]byte(nil), pick(r, cases)...)
	if r.Chance(30) {
		out = append(out, pick(r, cases)...)
	}
	return out
}

// Write writes the cases in the format of conformance/sanitizer.vectors.json.
func Write(w io.Writer, cfg Config, cases []Case) error {
	var b bytes.Buffer
	b.WriteString("{\n  \"about\": [\n")
	about := []string{
		fmt.Sprintf("Differential sanitizer vectors written by go run ./cmd/sanitizediff -seed %d -n %d in tests/go (make sanitize-diff). Do not edit; do not commit.", cfg.Seed, cfg.N),
		"The outputs are the Go package's (gen/go/agenterror); the TypeScript and Python tests must give the same, and every output must sanitize to itself.",
		"The format is conformance/sanitizer.vectors.json's (docs/sanitizer.md, \"The vector file\"). A \\uDXXX escape is a lone surrogate: Go reads it as U+FFFD.",
	}
	for i, a := range about {
		b.WriteString("    ")
		writeString(&b, a)
		if i < len(about)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ],\n  \"policy\": {\"max_length\": ")
	b.WriteString(strconv.Itoa(cfg.MaxLength))
	b.WriteString(", \"truncation_marker\": ")
	writeString(&b, cfg.Marker)
	b.WriteString("},\n  \"cases\": [\n")
	for i, c := range cases {
		b.WriteString("    {\"name\": ")
		writeString(&b, c.Name)
		b.WriteString(", \"input\": ")
		writeText(&b, c.Atoms)
		b.WriteString(", \"output\": ")
		writeString(&b, c.Output)
		if c.MaxLength != 0 {
			b.WriteString(", \"max_length\": ")
			b.WriteString(strconv.Itoa(c.MaxLength))
		}
		b.WriteByte('}')
		if i < len(cases)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		if b.Len() > 1<<20 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	b.WriteString("  ]\n}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// writeText writes atoms as a TEXT: text and surrogates share JSON strings,
// hex and repeat atoms are objects, and more than one part makes a list.
// Adjacent hex atoms are merged, so that a decoder that decodes each part
// on its own sees the same bytes as Go, which concatenates first.
func writeText(b *bytes.Buffer, atoms []Atom) {
	type part struct {
		str   []Atom // text and surrogates
		hex   []byte
		isHex bool
		rep   *Atom
	}
	var parts []part
	for _, a := range atoms {
		last := len(parts) - 1
		switch a.Kind {
		case AtomText, AtomSurrogate:
			if last >= 0 && parts[last].str != nil {
				parts[last].str = append(parts[last].str, a)
			} else {
				parts = append(parts, part{str: []Atom{a}})
			}
		case AtomHex:
			if last >= 0 && parts[last].isHex {
				parts[last].hex = append(parts[last].hex, a.Bytes...)
			} else {
				parts = append(parts, part{isHex: true, hex: append([]byte(nil), a.Bytes...)})
			}
		case AtomRepeat:
			parts = append(parts, part{rep: &a})
		}
	}
	if len(parts) == 0 {
		b.WriteString(`""`)
		return
	}
	if len(parts) > 1 {
		b.WriteByte('[')
	}
	for i, p := range parts {
		if i > 0 {
			b.WriteString(", ")
		}
		switch {
		case p.isHex:
			b.WriteString(`{"hex": "`)
			for j, c := range p.hex {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(hex.EncodeToString([]byte{c}))
			}
			b.WriteString(`"}`)
		case p.rep != nil:
			b.WriteString(`{"repeat": `)
			writeString(b, p.rep.Text)
			b.WriteString(`, "times": `)
			b.WriteString(strconv.Itoa(p.rep.Times))
			b.WriteByte('}')
		default:
			b.WriteByte('"')
			for _, a := range p.str {
				if a.Kind == AtomSurrogate {
					fmt.Fprintf(b, `\u%04x`, a.Surrogate)
				} else {
					writeStringBody(b, a.Text)
				}
			}
			b.WriteByte('"')
		}
	}
	if len(parts) > 1 {
		b.WriteByte(']')
	}
}

func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	writeStringBody(b, s)
	b.WriteByte('"')
}

// writeStringBody writes valid UTF-8 as the inside of a JSON string. Every
// character a reader could not see (controls, format characters, separators,
// U+FFFD) is a \u escape, so the file shows exactly what a case holds.
func writeStringBody(b *bytes.Buffer, s string) {
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x7F && r >= 0x20:
			b.WriteByte(byte(r))
		case r == utf8.RuneError || !unicode.IsPrint(r) || unicode.Is(unicode.Mn, r):
			if r > 0xFFFF {
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(b, `\u%04x\u%04x`, hi, lo)
			} else {
				fmt.Fprintf(b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
}
