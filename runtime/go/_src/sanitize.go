package agenterror

import (
	"encoding/json"
	"maps"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// The sanitizer. docs/sanitizer.md specifies it step by step; the
// TypeScript and Python packages implement the same steps, and the shared
// vectors (conformance/sanitizer.vectors.json) hold all three to it. Every
// pattern is ASCII and matched by hand-written forward scans, so each step
// is linear in its input and no language needs a regular expression.
//
// The steps, in order:
//
//  1. Window and clean: read at most 4×max code points; replace each
//     ill-formed UTF-8 subpart with U+FFFD; delete controls except tab, LF
//     and CR, bidi controls, zero-width and invisible formatting characters.
//  2. Markers: delete prompt-injection markers (ASCII case ignored) until
//     none remain.
//  3. Redact: replace secrets with [REDACTED] in one left-to-right scan.
//  4. Truncate: when the text is longer than max code points or the window
//     cut something off, keep max − len(marker) code points (fewer when
//     the cut falls inside a [REDACTED]: before it) and append the
//     truncation marker.
//
// When the window cut the text, its end counts as text that goes on: step
// 2 also deletes the marker starts there, and a secret that runs to it is
// redacted however short (sanitizeEdgeMarkers, sanitizeEdgeSecret), so no
// token character reaches the output (docs/sanitizer.md, the bound).
//
// The output is a fixpoint: Sanitize(Sanitize(s)) == Sanitize(s).
//
// Speed: most text needs no change, so a quick pass (sanitizeQuiet) first
// reads the byte pairs at even positions against a table of the pairs that
// could start a change, and returns s when none does. Otherwise steps 1
// and 2 run as one pass from the first place that could change, copying
// runs of kept characters whole, and step 3 skips pairs the same way,
// starting where the quick pass stopped when that was at a secret. Where a
// block of eight bytes holds a pair that could start something, one table
// of byte pairs (sanitizePairInfo) tells which of its positions to look
// at, and a shape is tried there by its cheapest test first: most tries
// are near misses, and a crafted text makes nearly every position one.
// None of this changes a result: the steps are defined as written above.

// Sanitize cleans upstream-controlled text with the contract's policy
// (SanitizeMaxLength, SanitizeTruncationMarker, the markers and the secret
// catalogue). It returns s itself, without allocating, when nothing changes.
// It is defence in depth, not a guarantee: see docs/sanitizer.md for what
// it does not catch.
func Sanitize(s string) string { return SanitizeMax(s, SanitizeMaxLength) }

// SanitizeMax is Sanitize with another maximum length in code points, the
// truncation marker included. A maximum shorter than the marker plus one
// character is raised to that.
func SanitizeMax(s string, maxLength int) string {
	out, marker, _ := sanitizeMax(nil, s, maxLength, false)
	if marker {
		return out + SanitizeTruncationMarker
	}
	return out
}

// AppendSanitize appends Sanitize(s) to dst and returns the extended
// buffer, as strconv.AppendQuote does: for a hot path (a log line, a
// field of each response) that reuses one buffer. It allocates nothing
// when dst has room for the output and s needs no change but its length
// (truncation) or a few ill-formed UTF-8 sequences replaced; text with a
// secret, a marker or a control allocates as Sanitize does.
func AppendSanitize(dst []byte, s string) []byte {
	return AppendSanitizeMax(dst, s, SanitizeMaxLength)
}

// AppendSanitizeMax is AppendSanitize with another maximum length, as
// SanitizeMax is Sanitize's.
func AppendSanitizeMax(dst []byte, s string, maxLength int) []byte {
	n := len(dst)
	out, marker, d := sanitizeMax(dst, s, maxLength, true)
	// out is s, a part of s, a new string, or the start of d[n:], where
	// the repaired text was written (then it is in place already).
	if len(out) > 0 && len(out) <= len(d)-n && unsafe.StringData(out) == &d[n] {
		d = d[:n+len(out)]
	} else {
		d = append(d[:n], out...)
	}
	if marker {
		d = append(d, SanitizeTruncationMarker...)
	}
	return d
}

// sanitizeMax is SanitizeMax: it returns the output but the truncation
// marker, and whether the marker follows. When appending (AppendSanitizeMax)
// ill-formed sequences are repaired into dst's room after its length,
// which the output may then be part of, and dst is returned grown;
// otherwise dst is not used.
func sanitizeMax(dst []byte, s string, maxLength int, appending bool) (out string, marker bool, d []byte) {
	if min := sanitizeMarkerLen + 1; maxLength < min {
		maxLength = min
	}
	if maxLength > 1<<28 {
		maxLength = 1 << 28
	}
	// Most text needs no change: one quick pass proves it, and the steps
	// run only when it finds something. Text of more than 4 bytes per
	// allowed code point is longer than maxLength whatever it holds, so it
	// goes to the steps straight away.
	pristine, runes := 0, 0
	var q sanitizeQuietPass
	if len(s) <= 4*maxLength {
		var quiet bool
		pristine, runes, quiet = sanitizeQuiet(s, &q)
		if !quiet && s[pristine] >= utf8.RuneSelf {
			if _, _, ok := sanitizeDecode(s[pristine:]); !ok {
				// An ill-formed sequence: s is sanitized as the text
				// with each one replaced by U+FFFD, which step 1 makes
				// of it, and the quick pass goes on in that text (when
				// there are few of them).
				if r, ok := sanitizeRepairScan(s, pristine); ok {
					if appending {
						n := len(dst)
						dst = r.appendTo(dst, s)
						// dst[n:] is not written again before the
						// caller has copied what it needs of it.
						s = unsafe.String(&dst[n], len(dst)-n)
					} else {
						s = r.build(s)
					}
					pristine, runes, quiet = q.resume(s, pristine, runes)
				}
			}
		}
		if quiet {
			// Steps 1 to 3 keep s; only its length can matter, and the
			// quick pass counted its code points.
			if runes <= maxLength {
				return s, false, dst
			}
			out, marker = sanitizeTruncate(s, maxLength, true)
			return out, marker, dst
		}
	}
	t, cut := sanitizeClean(s, 4*maxLength, pristine, runes)
	// The quick pass stopped at the first place where a step changes
	// something. When that is a secret (steps 1 and 2 kept s), every
	// position before it was tried already, and step 3 starts there.
	// The quick pass's answers about paths and tokens hold there too.
	r := sanitizeRedactor{s: t}
	start := 0
	if !cut && len(t) == len(s) && t == s {
		start, r.sanitizeMemo = pristine, q.r.sanitizeMemo
	}
	if cut {
		// The window cut the text: what lies past it could have completed
		// a marker or a secret that reaches its edge (sanitizeEdgeMarkers,
		// sanitizeEdgeSecret).
		t = sanitizeEdgeMarkers(t)
		r.s = t
	}
	t, over := sanitizeRedact(&r, start, maxLength)
	if cut && !over {
		// When step 3 stopped early (over), its output before the stop is
		// longer than step 4 keeps, and the end sanitizeEdgeSecret would
		// redact, kept text after the last redaction, starts after it.
		t = sanitizeEdgeSecret(t)
	}
	out, marker = sanitizeTruncate(t, maxLength, cut || over)
	return out, marker, dst
}

// sanitizeEdgeMarkers is step 2's end when the window cut the text: the
// text past the window could complete a marker that starts before its
// edge, and then another, so the longest end of t made of proper starts of
// markers (ASCII case ignored), one after another, is deleted. A secret
// glued to a marker cut in half (ghp_…<sys) thus reaches the edge. The
// starts are read backwards from each place the end can be deleted from,
// down sanitizeEdgeTrie.
func sanitizeEdgeMarkers(t string) string {
	lo := len(t) // the earliest position the end can be deleted from
	var reach []bool
	for b := len(t); b >= lo; b-- {
		if b < len(t) && !reach[b] {
			continue
		}
		n := int32(0)
		for i := b - 1; i >= 0; i-- {
			if n = sanitizeEdgeTrie.child(n, sanitizeFold(t[i])); n == 0 {
				break
			}
			if sanitizeEdgeTrie.nodes[n].start {
				if reach == nil {
					reach = make([]bool, len(t)+1)
				}
				reach[i] = true
				lo = min(lo, i)
			}
		}
	}
	return t[:lo]
}

// sanitizeEdgeTrie holds the proper starts of the markers, ASCII
// lower-cased, reversed: node 0 is the root, and a node's start tells that
// the bytes read to reach it, backwards, are one of the starts.
var sanitizeEdgeTrie = func() (t sanitizeTrie) {
	t.nodes = make([]sanitizeTrieNode, 1)
	for _, m := range sanitizeMarkers {
		m = sanitizeLower(m)
		for j := 1; j < len(m); j++ {
			n := int32(0)
			for i := j - 1; i >= 0; i-- {
				c := t.child(n, m[i])
				if c == 0 {
					c = int32(len(t.nodes))
					t.nodes = append(t.nodes, sanitizeTrieNode{})
					t.nodes[n].edges = append(t.nodes[n].edges, sanitizeTrieEdge{m[i], c})
				}
				n = c
			}
			t.nodes[n].start = true
		}
	}
	return t
}()

type sanitizeTrie struct{ nodes []sanitizeTrieNode }

type sanitizeTrieNode struct {
	edges []sanitizeTrieEdge
	start bool
}

type sanitizeTrieEdge struct {
	c  byte
	to int32
}

// child returns the node after n by c, 0 for none.
func (t *sanitizeTrie) child(n int32, c byte) int32 {
	for _, e := range t.nodes[n].edges {
		if e.c == c {
			return e.to
		}
	}
	return 0
}

// sanitizeEdgeSecret is step 3's end when the window cut the text: a secret
// that runs to the edge may go on past it, below its shape's minimum
// length, so the end of o is redacted from the earliest start of one of
// these that runs to the end: a prefixed shape's prefix, then characters
// of its class (none or more); eyJ, then base64url characters and dots;
// the token characters after "bearer" (any ASCII case, not after a letter
// or digit) and spaces or tabs; the userinfo after "://" when it holds a
// ':'.
func sanitizeEdgeSecret(o string) string {
	from := len(o)
	runs := sanitizeEdgeRuns(o)
	for _, list := range [][]sanitizeSecret{sanitizeBuiltinSecrets, sanitizeContractSecrets} {
		for _, sec := range list {
			r := runs[bits.TrailingZeros16(sec.Class)]
			for _, p := range sec.Prefixes {
				lo := max(0, r-len(p))
				if i := strings.Index(o[lo:], p); i >= 0 {
					from = min(from, lo+i)
				}
			}
		}
	}
	if i := strings.Index(o[runs[15]:], "eyJ"); i >= 0 {
		from = min(from, runs[15]+i)
	}
	if r := runs[bits.TrailingZeros16(sanitizeClassToken)]; r < len(o) {
		w := r
		for w > 0 && (o[w-1] == ' ' || o[w-1] == '\t') {
			w--
		}
		if w < r && w >= 6 && sanitizeEqualFold(o[w-6:w], "bearer") && (w == 6 || sanitizeClasses[o[w-7]]&sanitizeClassAlnum == 0) {
			from = min(from, r)
		}
	}
	if r := runs[bits.TrailingZeros16(sanitizeClassUserinfo)]; r < len(o) && r >= 3 && o[r-3:r] == "://" && strings.IndexByte(o[r:], ':') >= 0 {
		from = min(from, r)
	}
	if from == len(o) {
		return o
	}
	return o[:from] + sanitizeRedacted
}

// sanitizeEdgeRuns returns where the run of each class's characters at the
// end of o starts, by the class's bit (bit 15: base64url characters and
// dots), for the classes sanitizeEdgeSecret reads, in one backward pass.
func sanitizeEdgeRuns(o string) (starts [16]int) {
	mask := sanitizeEdgeMask
	j := len(o)
	for ; j > 0 && mask != 0; j-- {
		c := o[j-1]
		b := sanitizeClasses[c]
		if c == '.' || b&sanitizeClassBase64URL != 0 {
			b |= 1 << 15
		}
		for gone := mask &^ b; gone != 0; gone &= gone - 1 {
			starts[bits.TrailingZeros16(gone)] = j
		}
		mask &= b
	}
	for ; mask != 0; mask &= mask - 1 {
		starts[bits.TrailingZeros16(mask)] = j
	}
	return starts
}

// sanitizeEdgeMask holds the classes sanitizeEdgeRuns reads.
var sanitizeEdgeMask = func() uint16 {
	m := uint16(1<<15) | sanitizeClassToken | sanitizeClassUserinfo
	for _, list := range [][]sanitizeSecret{sanitizeBuiltinSecrets, sanitizeContractSecrets} {
		for _, sec := range list {
			m |= sec.Class
		}
	}
	return m
}()

const sanitizeRedacted = "[REDACTED]"

var sanitizeMarkerLen = utf8.RuneCountInString(SanitizeTruncationMarker)

// sanitizeRemovedRune reports whether step 1 deletes r.
func sanitizeRemovedRune(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n' && r != '\r'
	case r < 0x7F:
		return false
	case r <= 0x9F, r == 0xAD, r == 0x061C, r == 0x180E,
		r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E,
		r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x206F,
		r == 0xFEFF, r >= 0xFFF9 && r <= 0xFFFB, r >= 0xE0000 && r <= 0xE007F:
		return true
	}
	return false
}

// sanitizeDecode decodes the code point at the start of s (s[0] >= 0x80).
// An ill-formed sequence yields ok false and the length of its maximal
// subpart (Unicode §3.9, as WHATWG's and Python's decoders replace it): the
// lead byte with the continuation bytes that could still have completed it.
func sanitizeDecode(s string) (r rune, size int, ok bool) {
	if c := s[0]; c < 0xC2 || c > 0xF4 {
		return utf8.RuneError, 1, false // no lead byte
	}
	r, size = utf8.DecodeRuneInString(s)
	if r != utf8.RuneError || size == 3 {
		return r, size, true
	}
	c := s[0]
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	default:
		return utf8.RuneError, 1, false
	}
	i := 1
	for ; i <= need && i < len(s); i++ {
		if b := s[i]; b < lo || b > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return utf8.RuneError, i, false
}

// What a byte means to the quick pass and to step 1, one bit each.
const (
	sanitizeByteRemoved   = 1 << iota // a C0 control other than tab, LF and CR, or DEL
	sanitizeByteMulti                 // a byte of a multi-byte sequence (>= 0x80)
	sanitizeByteMarkerEnd             // the last byte of a marker, either ASCII case
	sanitizeByteAssign                // ':' or '=': an assignment or a URL may start here
)

// sanitizeBytes holds each byte's bits; sanitizeMarkersByEnd the markers
// by their last byte, either case.
var sanitizeBytes, sanitizeMarkersByEnd = func() (t [256]uint8, ends [256][]sanitizeMarker) {
	for c := 0; c < 256; c++ {
		switch {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r', c == 0x7F:
			t[c] |= sanitizeByteRemoved
		case c >= utf8.RuneSelf:
			t[c] |= sanitizeByteMulti
		}
	}
	t[':'] |= sanitizeByteAssign
	t['='] |= sanitizeByteAssign
	for _, m := range sanitizeMarkers {
		m = sanitizeLower(m)
		last := m[len(m)-1]
		for _, c := range []byte{last, sanitizeUpper(last)} {
			t[c] |= sanitizeByteMarkerEnd
			if !slices.ContainsFunc(ends[c], func(x sanitizeMarker) bool { return x.m == m }) {
				ends[c] = append(ends[c], sanitizeMarkerOf(m))
			}
		}
	}
	return t, ends
}()

// A pair set is a bit set over byte pairs, indexed by first | second<<8.
type sanitizePairs [1 << 16 / 64]uint64

func (t *sanitizePairs) set(c, d byte) {
	v := int(c) | int(d)<<8
	t[v>>6] |= 1 << (v & 63)
}

// has reports whether the pair at s[p] is set; the last byte pairs with 0.
func (t *sanitizePairs) has(s string, p int) bool {
	v := uint16(s[p])
	if p+1 < len(s) {
		v |= uint16(s[p+1]) << 8
	}
	return t[v>>6]&(1<<(v&63)) != 0
}

// sanitizeLookPairs builds the pair sets of the scans that look for what
// may start at a position: one a byte with one of the bits in sanitizeBytes,
// one a secret shape. look holds each pair that starts something. look2
// serves a scan that reads only the pairs at even positions: every shape
// that starts with a byte pair starts with at least three fixed bytes, or
// two and a class character, so whatever its position an even pair lies
// inside its start; look2 holds the first two bytes and the second two. A
// byte with one of the bits marks every pair it is in, first or second.
// The path shapes are tried where their fixed bytes are (shape 9's span may
// start before its name): a home prefix and a key file extension are found
// like the others; a credential name that starts with punctuation by its
// first two bytes and by the byte before it with its first (the name starts
// a segment, so that byte is a separator or no path character); one that
// starts with a letter or digit by its second and third bytes and its third
// and fourth, looked at from two bytes back (sanitizeLookBack). A Windows
// home starts at ':', which is always looked at.
//
// A byte of a multi-byte character (sanitizeByteMulti) marks no pair of
// look2: the quick pass checks the UTF-8 structure itself, and what the
// structure does not show with sanitizeLook2Multi.
func sanitizeLookPairs(bits uint8) (look, look2 sanitizePairs) {
	pairBits := bits &^ sanitizeByteMulti
	// An assignment and a marker are looked for by the byte before their
	// last byte (sanitizeLookAfterPairs); a URL or a Windows home by the
	// byte after its ':'.
	lookBits := bits &^ (sanitizeByteAssign | sanitizeByteMarkerEnd)
	for c := 0; c < 256; c++ {
		for d := 0; d < 256; d++ {
			if sanitizeBytes[c]&lookBits != 0 || sanitizeStarts.second[c][d>>6]&(1<<(d&63)) != 0 {
				look.set(byte(c), byte(d))
			}
			if sanitizeBytes[c]&pairBits != 0 || sanitizeBytes[d]&pairBits != 0 {
				look2.set(byte(c), byte(d))
			}
		}
	}
	starts := func(prefix string, class uint16) {
		look2.set(prefix[0], prefix[1])
		if len(prefix) > 2 {
			look2.set(prefix[1], prefix[2])
			return
		}
		for d := 0; d < 256; d++ {
			if sanitizeClasses[d]&class != 0 {
				look2.set(prefix[1], byte(d))
			}
		}
	}
	for _, list := range [][]sanitizeSecret{sanitizeBuiltinSecrets, sanitizeContractSecrets} {
		for _, sec := range list {
			for _, p := range sec.Prefixes {
				starts(p, sec.Class)
			}
		}
	}
	for _, w := range sanitizeWordPrefixes {
		starts(w, 0)
	}
	starts("-----BEGIN ", 0)
	starts("eyJ", 0)
	if sanitizePaths {
		// A Windows home starts at ':', which every scan looks at anyway.
		// Not slices.Concat: it is newer than the Go the package builds with.
		for _, list := range [][]string{sanitizeHomePrefixes, sanitizeKeyExtensions} {
			for _, n := range list {
				starts(n, 0)
			}
		}
		for _, n := range sanitizeCredentialNames {
			if sanitizeClasses[n[0]]&sanitizeClassAlnum != 0 {
				if len(n) < 4 {
					starts(n, 0)
					continue
				}
				// A name starting with a letter or digit (id_rsa): its second
				// and third bytes, and its third and fourth ones, which the
				// scans look at two bytes back from (sanitizeLookBack):
				// "id" is common in text, "d_" and "_r" are not.
				look2.set(n[1], n[2])
				for _, d := range sanitizeFourth(n) {
					look2.set(n[2], d)
				}
				continue
			}
			// A name starting with punctuation (.ssh, _netrc) starts a
			// segment, so the byte before it is a separator or no path
			// character: that pair is far rarer in text than the name's
			// second and third bytes ("ss" in "class", "ne" in "one").
			// The redact scan tries the position after a redaction itself,
			// where the byte before is "]" in the output but not in s.
			look2.set(n[0], n[1])
			for c := 0; c < 256; c++ {
				if sanitizeSeparator(byte(c)) || sanitizeClasses[c]&sanitizeClassPath == 0 {
					look2.set(byte(c), n[0])
				}
			}
		}
	}
	for _, b := range "bB" {
		for _, e := range "eE" {
			for _, a := range "aA" {
				starts(string([]rune{b, e, a}), 0)
			}
		}
	}
	return look, look2
}

// sanitizeMarkerPairs holds the last two bytes of the markers, in either
// ASCII case (every marker has two bytes or more).
var sanitizeMarkerPairs = func() (t sanitizePairs) {
	for _, m := range sanitizeMarkers {
		m = sanitizeLower(m)
		x, y := m[len(m)-2], m[len(m)-1]
		for _, a := range []byte{x, sanitizeUpper(x)} {
			for _, b := range []byte{y, sanitizeUpper(y)} {
				t.set(a, b)
			}
		}
	}
	return t
}()

// sanitizeLookAfterPairs builds the pair set of the scans that look at a
// position by the byte before it and the byte at it: a ':' or '=' after
// bytes that may end a key (a key byte, with keys: the quick pass asks
// sanitizeKeyEnds about the two bytes before instead) or white space, a
// quote or a backslash (what an assignment needs before its separator),
// and, with markers, the last two bytes of a marker in either ASCII case
// (every marker has two bytes or more).
func sanitizeLookAfterPairs(markers bool) (t sanitizePairs) {
	before := sanitizeClassGap
	if !markers {
		before |= sanitizeClassKey
	}
	for c := 0; c < 256; c++ {
		if sanitizeClasses[c]&before != 0 {
			t.set(byte(c), ':')
			t.set(byte(c), '=')
		}
	}
	if markers {
		for v := range sanitizeMarkerPairs {
			t[v] |= sanitizeMarkerPairs[v]
		}
	}
	return t
}

// sanitizePairBit reports whether the pair v (first | second<<8) is in t.
func sanitizePairBit(t *sanitizePairs, v uint16) bool { return t[v>>6]&(1<<(v&63)) != 0 }

// sanitizeRemovedRanges are the code points from U+0080 that step 1 deletes,
// as sanitizeRemovedRune tells them (a test holds the two to each other).
var sanitizeRemovedRanges = [][2]rune{{0x80, 0x9F}, {0xAD, 0xAD}, {0x061C, 0x061C}, {0x180E, 0x180E},
	{0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x2064}, {0x2066, 0x206F}, {0xFEFF, 0xFEFF},
	{0xFFF9, 0xFFFB}, {0xE0000, 0xE007F}}

// sanitizeQuietLeads holds, for each lead byte (0xC0 and up), the second
// bytes (by their low six bits) after which every character is well-formed
// and one that step 1 keeps, whatever continuation bytes complete it; all
// of them (every bit) for the lead bytes of most scripts, and for the bytes
// that lead no character (ASCII and continuation bytes).
var sanitizeQuietLeads = func() (t [256]uint64) {
	for c := 0; c < 256; c++ {
		n := 0
		switch {
		case c < 0xC0:
			t[c] = ^uint64(0)
			continue
		case c < 0xE0:
			n = 2
		case c < 0xF0:
			n = 3
		case c < 0xF8:
			n = 4
		default:
			continue
		}
		for d := 0x80; d < 0xC0; d++ {
			// The character's first code point (its last bytes 0x80), and
			// then every code point these two bytes may start.
			seq := string([]byte{byte(c), byte(d), 0x80, 0x80}[:n])
			r, size, ok := sanitizeDecode(seq)
			if !ok || size != n {
				continue
			}
			last, quiet := r+1<<(6*(n-2))-1, true
			for _, rg := range sanitizeRemovedRanges {
				if rg[0] <= last && r <= rg[1] {
					quiet = false
				}
			}
			if quiet {
				t[c] |= 1 << (d & 63)
			}
		}
	}
	return t
}()

// sanitizeQuietThirds holds, for a lead byte of three (0xE0 to 0xEF, by
// its low four bits) and a second byte (by its low six bits) that
// sanitizeQuietLeads does not show kept, the third bytes (by their low six
// bits) that make a well-formed character step 1 keeps: typographic
// punctuation (U+2010 to U+2027, E2 80 90 to E2 80 A7) shares its first
// two bytes with zero-width and bidi controls.
var sanitizeQuietThirds = func() (t [16 << 6]uint64) {
	for c := 0xE0; c < 0xF0; c++ {
		for d := 0x80; d < 0xC0; d++ {
			if sanitizeQuietLeads[c]&(1<<(d&63)) != 0 {
				continue // read only where the first two bytes do not tell
			}
			for e := 0x80; e < 0xC0; e++ {
				r, size, ok := sanitizeDecode(string([]byte{byte(c), byte(d), byte(e)}))
				if ok && size == 3 && !sanitizeRemovedRune(r) {
					t[(c&0x0F)<<6|d&0x3F] |= 1 << (e & 63)
				}
			}
		}
	}
	return t
}()

// sanitizeLook2Multi holds the byte pairs in which the quick pass looks at
// a lead byte's character, as a pair at an even position shows them: a
// lead byte second, whose second bytes do not all show its characters
// kept (sanitizeQuietLeads), and a lead byte first, with a second byte
// that does not. The structure check tells the rest.
var sanitizeLook2Multi = func() (t sanitizePairs) {
	for c := 0; c < 256; c++ {
		for d := 0; d < 256; d++ {
			if d >= 0xC0 && sanitizeQuietLeads[d] != ^uint64(0) || c >= 0xC0 && d&0xC0 == 0x80 && sanitizeQuietLeads[c]&(1<<(d&63)) == 0 {
				t.set(byte(c), byte(d))
			}
		}
	}
	return t
}()

// What a byte pair at an even position means to the scans, one bit each
// (sanitizeEvenPairs): the quick pass looks around it (sanitizeLook2), or
// at its lead bytes (sanitizeLook2Multi); step 3 looks around it
// (sanitizeLookSecret2). sanitizeEvenShape is sanitizeEvenQuiet but for
// the pairs flagged only because they hold ':' or '=' (sanitizeLook2Shapes):
// an ASCII block whose pairs hold none of it asks separators instead.
const (
	sanitizeEvenQuiet = 1 << iota
	sanitizeEvenSecret
	sanitizeEvenLead
	sanitizeEvenShape
)

// sanitizeEvenPairs holds those bits for every byte pair, indexed by
// first | second<<8: the scans read four of them for a block of eight
// bytes, a load each.
var sanitizeEvenPairs = func() (t [1 << 16]uint8) {
	for v := range t {
		if sanitizePairBit(&sanitizeLook2, uint16(v)) {
			t[v] |= sanitizeEvenQuiet
		}
		if sanitizePairBit(&sanitizeLook2Multi, uint16(v)) {
			t[v] |= sanitizeEvenLead
		}
		if sanitizePairBit(&sanitizeLookSecret2, uint16(v)) {
			t[v] |= sanitizeEvenSecret
		}
		if sanitizePairBit(&sanitizeLook2Shapes, uint16(v)) {
			t[v] |= sanitizeEvenShape
		}
	}
	return t
}()

// sanitizeKeptAt reports whether the multi-byte character at s[p] (a lead
// byte) is well-formed and kept as its first two bytes tell, or its first
// three for one of three (sanitizeQuietThirds); false also when it is cut
// off by the end of s.
func sanitizeKeptAt(s string, p int) bool {
	if p+1 >= len(s) {
		return false
	}
	c, d := s[p], s[p+1]
	if sanitizeQuietLeads[c]&(1<<(d&63)) != 0 {
		return true
	}
	return c&0xF0 == 0xE0 && d&0xC0 == 0x80 && p+2 < len(s) &&
		sanitizeQuietThirds[int(c&0x0F)<<6|int(d&0x3F)]&(1<<(s[p+2]&63)) != 0
}

// What the first byte of a byte pair, when it is a lead byte, and the
// second tell of its character, as sanitizeKeptAt tells it
// (sanitizeLeadPairs): nothing when it is kept (or the first byte leads no
// character), that the third byte tells (sanitizeQuietThirds), or that it
// is not kept or not well-formed.
const (
	sanitizeLeadThird   = 1
	sanitizeLeadChanged = 2
	// A third bit tells that the pair is in sanitizeLook2: at an even
	// position, the quick pass looks around it.
	sanitizeLeadLook2 = 4
)

// sanitizeLeadPairs holds those values for every byte pair, indexed by
// first | second<<8.
var sanitizeLeadPairs = func() (t [1 << 16]uint8) {
	for v := range t {
		c, d := byte(v), byte(v>>8)
		switch {
		case sanitizeQuietLeads[c]&(1<<(d&63)) != 0:
		case c&0xF0 == 0xE0 && d&0xC0 == 0x80 && sanitizeQuietThirds[int(c&0x0F)<<6|int(d&0x3F)] != 0:
			t[v] = sanitizeLeadThird
		default:
			t[v] = sanitizeLeadChanged
		}
		if sanitizePairBit(&sanitizeLook2, uint16(v)) {
			t[v] |= sanitizeLeadLook2
		}
	}
	return t
}()

// The pair sets of the quick pass, which looks for every change, and of
// step 3, which looks for secrets.
var (
	sanitizeLook, sanitizeLook2             = sanitizeLookPairs(^uint8(0))
	sanitizeLookSecret, sanitizeLookSecret2 = sanitizeLookPairs(sanitizeByteAssign)
	sanitizeLookAfter                       = sanitizeLookAfterPairs(true)
	sanitizeLookAfterSecret                 = sanitizeLookAfterPairs(false)
	// sanitizeLook2Shapes is sanitizeLook2 without the pairs that hold ':'
	// or '=' for that alone.
	_, sanitizeLook2Shapes = sanitizeLookPairs(^uint8(0) &^ sanitizeByteAssign)
	// sanitizeLookBack holds the third and fourth bytes of the credential
	// names of four bytes or more that start with a letter or digit: at an
	// even pair of these, the scans look from two bytes back, where such a
	// name may start.
	sanitizeLookBack = func() (t sanitizePairs) {
		for _, n := range sanitizeCredentialNames {
			if len(n) >= 4 && sanitizeClasses[n[0]]&sanitizeClassAlnum != 0 {
				for _, d := range sanitizeFourth(n) {
					t.set(n[2], d)
				}
			}
		}
		return t
	}()
)

// sanitizeFourth returns the bytes a name's fourth byte matches: a '/'
// stands for either separator.
func sanitizeFourth(n string) []byte {
	if n[3] == '/' {
		return []byte{'/', '\\'}
	}
	return []byte{n[3]}
}

// sanitizeQuiet is the quick pass over text no longer than the window in
// bytes: it reports quiet when steps 1 to 3 would keep s as it is, and
// then how many code points s holds (its bytes less the continuation
// bytes, which the UTF-8 check counts as it goes). Otherwise s[:pristine]
// is text that steps 1 and 2 keep as it is, so step 1 can start after it,
// and count is how many code points it holds.
//
// It reads eight bytes at a time: their four pairs at even positions
// against sanitizeLook2, which holds the pairs that could start a change,
// and, when a byte is not ASCII, their UTF-8 structure, all bytes at once:
// each continuation byte must be one that a lead byte before it owes, and
// each byte a lead byte owes must be a continuation byte. The lead bytes
// of what the structure does not show (an overlong or surrogate encoding,
// a code point past U+10FFFF, a character step 1 deletes) are in the pairs
// of sanitizeLook2, so valid text in any script goes by eight bytes at a
// time. Around a pair that could start a change, the characters are
// looked at one by one; where the structure breaks, all of the block's.
func sanitizeQuiet(s string, q *sanitizeQuietPass) (pristine, count int, quiet bool) {
	q.r.s = s
	return q.scan(0, 0, 0)
}

// scan is the quick pass from the block at i over q.r.s, whose first i
// bytes hold cont continuation bytes; owed marks, in the bytes of the
// block at i (0x80 each), the continuation bytes a character that starts
// before i owes. Nothing before q.next is looked at again.
func (q *sanitizeQuietPass) scan(i, cont int, owed uint64) (pristine, count int, quiet bool) {
	const high = 0x8080808080808080
	s := q.r.s
	// The count lives in q, not in a register: the scan's calls would make
	// the loop keep it on the stack, which costs every block.
	q.cont = cont
	for i <= len(s)-8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		next := uint64(0) // what the block's characters owe the next block
		if hi := w & high; hi|owed != 0 {
			lead := hi & (w << 1)    // 11xxxxxx: a lead byte (bit 7 of each byte)
			three := lead & (w << 2) // 111xxxxx: of three bytes or more
			four := three & (w << 3) // 1111xxxx: of four
			if hi^lead != lead<<8|three<<16|four<<24|owed {
				// Ill-formed (hi^lead holds the continuation bytes): each
				// character from the one holding i-2 (a pair flags what may
				// start up to two bytes before it) to the one holding i+7,
				// from the one owing bytes to this block.
				p := sanitizeCharStart(s, max(i-2, 0))
				for p = max(p, q.next); p < i+8; p = q.next {
					if !q.at(p) {
						return p, sanitizeCountTo(s, i, q.cont, p), false
					}
				}
				// Go on with the even pair that holds next.
				q.cont += sanitizeContinuations(s[i : q.next&^1])
				i, owed = q.next&^1, 0
				if i < q.next && s[i] >= utf8.RuneSelf {
					owed = 0x80
				}
				continue
			}
			next = lead>>56 | three>>48 | four>>40
			q.cont += bits.OnesCount64(hi ^ lead)
			// Most blocks have no pair to look around: four loads tell.
			if t := &sanitizeEvenPairs; (t[uint16(w)]|t[uint16(w>>16)]|t[uint16(w>>32)]|t[uint16(w>>48)])&(sanitizeEvenQuiet|sanitizeEvenLead) != 0 {
				if p, ok := q.look(i, w); !ok {
					return p, sanitizeCountTo(s, i+8, q.cont, p), false
				}
			}
		} else {
			// ASCII, the same four loads: no pair of it holds a lead byte.
			// A block flagged only by ':' or '=' (URLs, query strings,
			// ports; no pair of it is in sanitizeLook2Shapes) goes to
			// block only when one of them may start something
			// (separators).
			t := &sanitizeEvenPairs
			if e := t[uint16(w)] | t[uint16(w>>16)] | t[uint16(w>>32)] | t[uint16(w>>48)]; e&sanitizeEvenShape != 0 {
				if p, ok := q.block(i, w); !ok {
					return p, sanitizeCountTo(s, i, q.cont, p), false
				}
			} else if e&sanitizeEvenQuiet != 0 {
				if p, ok := q.separators(i, w); !ok {
					return p, sanitizeCountTo(s, i, q.cont, p), false
				}
			}
		}
		i += 8
		owed = next
	}
	p := sanitizeCharStart(s, max(i-2, 0))
	for p = max(p, q.next); p < len(s); p = q.next {
		if !q.at(p) {
			return p, sanitizeCountTo(s, i, q.cont, p), false
		}
	}
	return 0, len(s) - q.cont - sanitizeContinuations(s[i:]), true
}

// separators is block for an ASCII block w at i whose even pairs hold no
// pair of sanitizeLook2 but for its ':' and '=': only an assignment, a
// URL's userinfo or a Windows home, all tried at the separator, could
// start a change. Each separator is tested as at tests it, then by the
// cheapest conditions of matchSeparator's shapes: a gap or a key that may
// be sensitive before it (sanitizeKeyMay), a userinfo that may end at the
// next '@' after "://" (userinfoMay), a drive's Users directory. When none
// may start one, the block is passed without block's pair mask (and
// q.next is left alone); otherwise block decides. A block of many
// separators (a crafted text) goes by the pair mask straight away.
func (q *sanitizeQuietPass) separators(i int, w uint64) (int, bool) {
	// The bytes of w equal to ':' or '=' (bit 7 of each): ASCII bytes,
	// so adding 0x7F carries into bit 7 exactly where the XOR is not 0.
	const ones = 0x0101010101010101
	m := (^((w ^ ':'*ones) + 0x7F*ones) | ^((w ^ '='*ones) + 0x7F*ones)) & (0x80 * ones)
	s := q.r.s
	if bits.OnesCount64(m) > 2 && i >= 2 {
		if mask := sanitizePairMask(s, i, w, sanitizeShiftQuiet); mask != 0 {
			return q.blockASCII(i, mask)
		}
		return 0, true
	}
	// Byte k of before is s[i+k-2] (0 before the text's start, which no
	// key ends with and which is no gap), for k < 8.
	before := w << 16
	if i >= 2 {
		before |= uint64(s[i-2]) | uint64(s[i-1])<<8
	}
	for ; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m) >> 3
		p := i + k
		if p+1 >= len(s) {
			continue // at tries no shape at the last byte
		}
		// The pair that ends before p.
		v := uint16(before >> (8 * k))
		if k >= 2 {
			v = uint16(w >> (8*k - 16))
		}
		if f := sanitizePairInfo[v]; f&sanitizePairKey != 0 && sanitizeKeyMay(s, p, p) {
			return q.block(i, w)
		} else if f&sanitizePairGapSecond != 0 {
			// White space, quotes or backslashes between the key and
			// the separator (French text puts a space before ':').
			if e := sanitizeKeyEnd(s, 0, p); e >= 2 && sanitizePairBit(&sanitizeKeyEnds, uint16(s[e-2])|uint16(s[e-1])<<8) && sanitizeKeyMay(s, e, p) {
				return q.block(i, w)
			}
		}
		if byte(w>>(8*k)) == ':' && sanitizeSeparator(s[p+1]) {
			if p+2 < len(s) && s[p+1] == '/' && s[p+2] == '/' {
				if q.userinfoMay(p + 3) {
					return q.block(i, w)
				}
			} else if sanitizePaths && sanitizeDriveUsers(s[p:]) > 0 {
				return q.block(i, w)
			}
		}
	}
	return 0, true
}

// userinfoMay reports whether a URL's userinfo may run from j to an '@':
// the next '@' is not j and every byte before it from j is a userinfo
// character. The answer for the next '@' is kept (atFrom, atSign, atRun),
// so text with many URLs and few '@' is searched once.
func (q *sanitizeQuietPass) userinfoMay(j int) bool {
	s := q.r.s
	if !q.atKnown || j < q.atFrom || j > q.atSign {
		a := strings.IndexByte(s[j:], '@')
		if a < 0 {
			a = len(s)
		} else {
			a += j
		}
		k := a
		for a < len(s) && k > j && sanitizeClasses[s[k-1]]&sanitizeClassUserinfo != 0 {
			k--
		}
		q.atKnown, q.atFrom, q.atSign, q.atRun = true, j, a, k
	}
	return q.atRun <= j && j < q.atSign && q.atSign < len(s)
}

// sanitizeKeyMay reports whether the key ending at q, before the
// separator at p, may be sensitive: sanitizeSensitiveKey's walk down
// sanitizeKeyTrie, stopped at the first node that tells anything, or code
// or sig in a query, right before an '=' (assignment's query-only keys).
func sanitizeKeyMay(s string, q, p int) bool {
	t := &sanitizeKeyTrie
	node := 0
	for j := q - 1; j >= 0; j-- {
		c := t.sym[s[j]]
		if c == 0 {
			break
		}
		if node = int(t.nodes[node].next[c]); node == 0 {
			break
		}
		if t.nodes[node].flags != 0 {
			return true
		}
	}
	if s[p] != '=' || q != p {
		return false
	}
	switch s[p-1] | 0x20 {
	case 'e':
		return sanitizeQueryKey(s, p, "code")
	case 'g':
		return sanitizeQueryKey(s, p, "sig")
	}
	return false
}

// sanitizeQueryKey reports whether the key k (lower case) stands right
// before p, after one of ? & # ;.
func sanitizeQueryKey(s string, p int, k string) bool {
	q := p - len(k)
	return q >= 1 && sanitizeEqualFold(s[q:p], k) && strings.IndexByte("?&#;", s[q-1]) >= 0
}

// sanitizeCountTo returns the code points of s[:p], where s[:at] holds cont
// continuation bytes and p is within a few bytes of at.
func sanitizeCountTo(s string, at, cont, p int) int {
	if p <= at {
		return p - cont + sanitizeContinuations(s[p:at])
	}
	return p - cont - sanitizeContinuations(s[at:p])
}

// resume goes on with the quick pass, stopped at p (holding count code
// points) by an ill-formed sequence, in t: the text with each ill-formed
// sequence replaced by U+FFFD (sanitizeRepairs), which differs from the
// text from p only. Every position before p was looked at already. A shape
// tried there could read past p, but no step 3 shape tells one byte that
// is not ASCII from another or counts them, so it matched neither in the
// text nor in t. What the shapes' scans remember (sanitizeMemo) may reach
// past p, in the text's positions: it is forgotten.
func (q *sanitizeQuietPass) resume(t string, p, count int) (pristine, runes int, quiet bool) {
	q.r.s, q.r.sanitizeMemo, q.next, q.atKnown = t, sanitizeMemo{}, p, false
	i := p &^ 1
	var owed uint64
	if i < p && t[i] >= utf8.RuneSelf {
		owed = 0x80 // the last byte of a character that starts before i
	}
	return q.scan(i, p-count-sanitizeContinuations(t[i:p]), owed)
}

// sanitizeRepairMax is the most ill-formed sequences sanitizeRepairScan
// repairs; text with more goes through step 1, which is faster at them.
const sanitizeRepairMax = 8

// sanitizeRepairs are the ill-formed UTF-8 sequences of a text: where each
// starts, its length (its maximal subpart's), and the text's length once
// each is replaced by U+FFFD, as step 1 replaces it.
type sanitizeRepairs struct {
	at, size [sanitizeRepairMax]int
	k, n     int
}

// sanitizeRepairScan finds the ill-formed sequences of s from p on, p
// being the first. It reports false when there are more than
// sanitizeRepairMax of them.
func sanitizeRepairScan(s string, p int) (r sanitizeRepairs, ok bool) {
	r.n = len(s)
	for i := p; i < len(s); {
		// The next byte that is not ASCII, eight bytes at a time.
		for i+8 <= len(s) && sanitizeWord8(s, i)&0x8080808080808080 == 0 {
			i += 8
		}
		for i < len(s) && s[i] < utf8.RuneSelf {
			i++
		}
		if i == len(s) {
			break
		}
		if m := sanitizeKeptSize(s, i); m > 0 {
			i += m
			continue
		}
		_, m, ok := sanitizeDecode(s[i:])
		if !ok {
			if r.k == len(r.at) {
				return r, false
			}
			r.at[r.k], r.size[r.k] = i, m
			r.k, r.n = r.k+1, r.n+len("\uFFFD")-m
		}
		i += m
	}
	return r, true
}

// build returns s repaired, in one allocation of its exact size.
func (r *sanitizeRepairs) build(s string) string {
	var b strings.Builder
	b.Grow(r.n)
	from := 0
	for x := 0; x < r.k; x++ {
		b.WriteString(s[from:r.at[x]])
		b.WriteString("\uFFFD")
		from = r.at[x] + r.size[x]
	}
	b.WriteString(s[from:])
	return b.String()
}

// appendTo appends s repaired to b, growing it at most once.
func (r *sanitizeRepairs) appendTo(b []byte, s string) []byte {
	b = slices.Grow(b, r.n)
	from := 0
	for x := 0; x < r.k; x++ {
		b = append(b, s[from:r.at[x]]...)
		b = append(b, "\uFFFD"...)
		from = r.at[x] + r.size[x]
	}
	return append(b, s[from:]...)
}

// sanitizeContinuations counts the continuation bytes of a few bytes.
func sanitizeContinuations(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i]&0xC0 == 0x80 {
			n++
		}
	}
	return n
}

// look is block for a block of eight bytes w at i, not all ASCII, whose
// pairs at even positions hold a pair of sanitizeLook2 or of
// sanitizeLook2Multi. Most of those that hold none of sanitizeLook2 hold
// lead bytes shared by the characters of a script (Arabic, Devanagari,
// typographic punctuation) and by one that step 1 deletes or an
// ill-formed one: look shows their characters kept, as sanitizeKeptAt
// tells it, by the byte pair at each position of the block in
// sanitizeLeadPairs, all eight at once (block reads the even pairs' lead
// bytes one by one, and can not see the second byte of one at an odd
// position without a call), and leaves the rest to block.
func (q *sanitizeQuietPass) look(i int, w uint64) (int, bool) {
	s := q.r.s
	// The pairs at even positions first: one of sanitizeLook2 sends the
	// block to block whatever its lead bytes. The block's last byte pairs
	// with the one after it, and a character of three bytes is told by
	// its third: the two bytes after the block are read.
	t := &sanitizeLeadPairs
	x := uint64(t[uint16(w)]) | uint64(t[uint16(w>>16)])<<16 | uint64(t[uint16(w>>32)])<<32 | uint64(t[uint16(w>>48)])<<48
	if x&(sanitizeLeadLook2*0x0001000100010001) != 0 || i+10 > len(s) {
		return q.block(i, w)
	}
	x |= uint64(t[uint16(w>>8)])<<8 | uint64(t[uint16(w>>24)])<<24 | uint64(t[uint16(w>>40)])<<40 |
		uint64(t[uint16(w>>56|uint64(s[i+8])<<8)])<<56
	if x&(sanitizeLeadChanged*0x0101010101010101) != 0 {
		return q.block(i, w)
	}
	for x &= sanitizeLeadThird * 0x0101010101010101; x != 0; x &= x - 1 {
		p := i + bits.TrailingZeros64(x)>>3
		if sanitizeQuietThirds[int(s[p]&0x0F)<<6|int(s[p+1]&0x3F)]&(1<<(s[p+2]&63)) == 0 {
			return q.block(i, w)
		}
	}
	return 0, true
}

// block looks at the characters of the block of eight bytes w at i, whose
// UTF-8 structure is sound, where a pair of sanitizeLook2 or
// sanitizeLook2Multi may start a change; it returns the position of the
// first change it finds.
func (q *sanitizeQuietPass) block(i int, w uint64) (int, bool) {
	s := q.r.s
	if w&0x8080808080808080 == 0 && i >= 2 {
		// ASCII: every position of the block at once. The two before it,
		// which a pair flags too, are looked at first unless the block
		// before looked at them.
		for p := max(q.next, sanitizeCharStart(s, i-2)); p < i; p = q.next {
			if !q.at(p) {
				return p, false
			}
		}
		return q.blockASCII(i, sanitizePairMask(s, i, w, sanitizeShiftQuiet))
	}
	l2, lm := &sanitizeLook2, &sanitizeLook2Multi
	v0, v1, v2, v3 := uint16(w), uint16(w>>16), uint16(w>>32), uint16(w>>48)
	// fl: bit k/2 for each pair at an even k around which to look.
	fl := sanitizeBit(l2, v0) | sanitizeBit(l2, v1)<<1 | sanitizeBit(l2, v2)<<2 | sanitizeBit(l2, v3)<<3
	if w&0x8080808080808080 != 0 {
		// A pair holding a lead byte whose second byte may tell that its
		// character changes: the lead bytes are checked (the rest of the
		// structure was).
		mm := sanitizeBit(lm, v0) | sanitizeBit(lm, v1)<<1 | sanitizeBit(lm, v2)<<2 | sanitizeBit(lm, v3)<<3
		// sanitizeKeptAt's first test is written out: most lead bytes
		// pass it, and a call costs more than the test.
		ql := &sanitizeQuietLeads
		for mm &^= fl; mm != 0; mm &= mm - 1 {
			j := i + 2*bits.TrailingZeros(mm)
			if c, d := s[j], s[j+1]; c >= 0xC0 && ql[c]&(1<<(d&63)) == 0 && !sanitizeKeptAt(s, j) ||
				d >= 0xC0 && (j+2 >= len(s) || ql[d]&(1<<(s[j+2]&63)) == 0) && !sanitizeKeptAt(s, j+1) {
				fl |= mm & -mm
			}
		}
	}
	// The characters around each pair that could start a change.
	for ; fl != 0; fl &= fl - 1 {
		k := 2 * bits.TrailingZeros(fl)
		v := uint16(w >> (8 * k))
		j := i + k
		lo := j - 1
		if sanitizeLookBack[v>>6]&(1<<(v&63)) != 0 {
			lo = j - 2
		}
		for p := max(q.next, sanitizeCharStart(s, max(lo, 0))); p <= j+1; p = q.next {
			// at's first test, written out: most positions pass it.
			if c := s[p]; c < utf8.RuneSelf && p > 1 && p+1 < len(s) &&
				!sanitizePairBit(&sanitizeLook, uint16(c)|uint16(s[p+1])<<8) &&
				!sanitizePairBit(&sanitizeLookAfter, uint16(s[p-1])|uint16(c)<<8) &&
				(sanitizeBytes[c]&sanitizeByteAssign == 0 || !sanitizePairBit(&sanitizeKeyEnds, uint16(s[p-2])|uint16(s[p-1])<<8)) {
				q.next = p + 1
				continue
			}
			if !q.at(p) {
				return p, false
			}
		}
	}
	return 0, true
}

// blockASCII is block's end for an ASCII block at i, i >= 2, whose
// positions to look at m holds (sanitizePairMask).
func (q *sanitizeQuietPass) blockASCII(i int, m uint) (int, bool) {
	for ; m != 0; m &= m - 1 {
		if p := i + bits.TrailingZeros(m); p >= q.next && !q.ascii(p) {
			return p, false
		}
	}
	q.next = max(q.next, i+8)
	return 0, true
}

// What a byte pair means to the scans, one bit each (sanitizePairInfo).
// The quick pass reads the first two, step 3 the last two (a pair at
// sanitizeShiftQuiet or sanitizeShiftSecret), both the middle two.
const (
	sanitizePairStarts       = 1 << iota // a change may start at the first byte (sanitizeLook)
	sanitizePairEnds                     // one may end at the second (sanitizeLookAfter)
	sanitizePairKey                      // the pair may end a key (sanitizeKeyEnds)
	sanitizePairSep                      // the second byte is ':' or '='
	sanitizePairSecretStarts             // a secret may start at the first byte (sanitizeLookSecret)
	sanitizePairGapSep                   // white space, a quote or a backslash, then ':' or '='
	sanitizePairGapSecond                // the second byte is white space, a quote or a backslash

	sanitizeShiftQuiet  = 0
	sanitizeShiftSecret = 4
)

// sanitizePairInfo holds those bits for every byte pair, indexed by
// first | second<<8: one load tells what a pair means to every position
// it touches.
var sanitizePairInfo = func() (t [1 << 16]uint8) {
	for v := range t {
		w := uint16(v)
		if sanitizePairBit(&sanitizeLook, w) {
			t[v] |= sanitizePairStarts
		}
		if sanitizePairBit(&sanitizeLookAfter, w) {
			t[v] |= sanitizePairEnds
		}
		if sanitizePairBit(&sanitizeKeyEnds, w) {
			t[v] |= sanitizePairKey
		}
		if sanitizeBytes[v>>8]&sanitizeByteAssign != 0 {
			t[v] |= sanitizePairSep
			if sanitizeClasses[v&0xFF]&sanitizeClassGap != 0 {
				t[v] |= sanitizePairGapSep
			}
		}
		if sanitizePairBit(&sanitizeLookSecret, w) {
			t[v] |= sanitizePairSecretStarts
		}
		if sanitizeClasses[v>>8]&sanitizeClassGap != 0 {
			t[v] |= sanitizePairGapSecond
		}
	}
	return t
}()

// sanitizePairMask returns a bit for each position of the eight bytes w
// of s from i (bit k: position i+k) where a scan looks closer: for the
// quick pass (shift sanitizeShiftQuiet), where at's first test fails: the
// pair there may start a change, the pair ending there may end one, or a
// ':' or '=' follows two bytes that may end a key; for step 3
// (sanitizeShiftSecret), where may holds, as far as s tells (what was
// redacted before flushed+2 is not in s). i >= 2. It reads the ten pairs
// from the one at i-2 to the one at i+7 in sanitizePairInfo, and works on
// their bits for all eight positions at once: byte k of x holds the bits
// of the pair at position k, of y of the pair ending at k, of z of the
// pair ending at k-1.
func sanitizePairMask(s string, i int, w uint64, shift uint) uint {
	var after uint64 // the byte after the block
	if i+8 < len(s) {
		after = uint64(s[i+8])
	}
	t := &sanitizePairInfo
	b1, b2 := uint64(s[i-1]), uint64(s[i-2])
	x := uint64(t[uint16(w)]) | uint64(t[uint16(w>>8)])<<8 | uint64(t[uint16(w>>16)])<<16 |
		uint64(t[uint16(w>>24)])<<24 | uint64(t[uint16(w>>32)])<<32 | uint64(t[uint16(w>>40)])<<40 |
		uint64(t[uint16(w>>48)])<<48 | uint64(t[uint16(w>>56|after<<8)])<<56
	y := x<<8 | uint64(t[uint16(b1|w<<8)])
	z := y<<8 | uint64(t[uint16(b2|b1<<8)])
	const ones = 0x0101010101010101
	m := x>>shift | y>>(shift+1) | y>>3&(z>>2)
	// Byte k's low bit to bit k.
	return uint(m & ones * 0x0102040810204080 >> 56)
}

// sanitizeWord8 returns the eight bytes of s from i (i+8 <= len(s)) as a
// little-endian word.
func sanitizeWord8(s string, i int) uint64 {
	s = s[i:]
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// sanitizeBit returns 1 when the pair v (first | second<<8) is in t, else 0.
func sanitizeBit(t *sanitizePairs, v uint16) uint {
	// Written as a test, so that it compiles to a bit test rather than a
	// shift by a variable count.
	if t[v>>6]&(1<<(v&63)) != 0 {
		return 1
	}
	return 0
}

// sanitizeKeptSize returns the size of the multi-byte character at s[p]
// when its lead and second bytes tell that it is well-formed and kept by
// step 1 (sanitizeQuietLeads) and its continuation bytes are all there,
// without decoding it; else 0.
func sanitizeKeptSize(s string, p int) int {
	c := s[p]
	if c < 0xC0 || p+1 >= len(s) || s[p+1]&0xC0 != 0x80 {
		return 0
	}
	if d := s[p+1]; sanitizeQuietLeads[c]&(1<<(d&63)) == 0 {
		// A character of three bytes may tell by its third.
		if c&0xF0 == 0xE0 && p+2 < len(s) && s[p+2]&0xC0 == 0x80 &&
			sanitizeQuietThirds[int(c&0x0F)<<6|int(d&0x3F)]&(1<<(s[p+2]&63)) != 0 {
			return 3
		}
		return 0
	}
	if c < 0xE0 {
		return 2
	}
	return sanitizeKeptSize34(s, p, c)
}

// sanitizeKeptSize34 is sanitizeKeptSize past the lead and second bytes
// of a character of three or four bytes.
func sanitizeKeptSize34(s string, p int, c byte) int {
	switch {
	case c < 0xF0:
		if p+2 < len(s) && s[p+2]&0xC0 == 0x80 {
			return 3
		}
	case p+3 < len(s) && s[p+2]&0xC0 == 0x80 && s[p+3]&0xC0 == 0x80:
		return 4
	}
	return 0
}

// sanitizeCharStart returns where the character holding s[p] starts, in
// text that is well-formed before p.
func sanitizeCharStart(s string, p int) int {
	for p > 0 && s[p]&0xC0 == 0x80 {
		p--
	}
	return p
}

// sanitizeRuneCount counts the code points of well-formed text: its bytes
// that are not continuation bytes, eight at a time.
func sanitizeRuneCount(s string) int {
	const high = 0x8080808080808080
	n, i := len(s), 0
	for ; i <= len(s)-8; i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if hi := w & high; hi != 0 {
			n -= bits.OnesCount64(hi &^ (w << 1))
		}
	}
	for ; i < len(s); i++ {
		if s[i]&0xC0 == 0x80 {
			n--
		}
	}
	return n
}

// sanitizeQuietPass is the quick pass's state.
type sanitizeQuietPass struct {
	r sanitizeRedactor
	// next is the first position not looked at yet.
	next int
	// cont is the continuation bytes of the text before the scan's block.
	cont int
	// userinfoMay's answer (atKnown): the first '@' at or after atFrom is
	// at atSign (len(s): none), and the userinfo characters before it
	// start at atRun (no earlier than atFrom).
	atKnown               bool
	atFrom, atSign, atRun int
}

// at looks at the character at p and reports false when a step would
// change it or start a change there.
func (q *sanitizeQuietPass) at(p int) bool {
	s := q.r.s
	c := s[p]
	if c < utf8.RuneSelf && !sanitizeLook.has(s, p) && (p == 0 || !sanitizePairBit(&sanitizeLookAfter, uint16(s[p-1])|uint16(c)<<8)) &&
		(sanitizeBytes[c]&sanitizeByteAssign == 0 || !q.r.keyBefore(p)) {
		q.next = p + 1
		return true
	}
	bits := sanitizeBytes[c]
	size := 1
	if bits&sanitizeByteRemoved != 0 {
		return false
	}
	if bits&sanitizeByteMulti != 0 {
		n := sanitizeKeptSize(s, p)
		if n == 0 {
			r, sz, ok := sanitizeDecode(s[p:])
			if !ok || sanitizeRemovedRune(r) {
				return false
			}
			n = sz
		}
		size = n
		bits = sanitizeBytes[s[p+n-1]]
	}
	if bits&sanitizeByteMarkerEnd != 0 && sanitizeMarkerAt(s[:p+size]) {
		return false
	}
	// Only an assignment starts where the pair at p starts no shape.
	if size == 1 && p+1 < len(s) && (sanitizeLook.has(s, p) || bits&sanitizeByteAssign != 0 && q.r.keyBefore(p)) {
		if _, _, ok := q.r.match(p); ok {
			return false
		}
	}
	q.next = p + size
	return true
}

// ascii is at for an ASCII character that fails at's first test.
func (q *sanitizeQuietPass) ascii(p int) bool {
	s := q.r.s
	bits := sanitizeBytes[s[p]]
	if bits&sanitizeByteRemoved != 0 || bits&sanitizeByteMarkerEnd != 0 && sanitizeMarkerAt(s[:p+1]) {
		return false
	}
	// Only an assignment starts where the pair at p starts no shape.
	if p+1 < len(s) && (sanitizeLook.has(s, p) || bits&sanitizeByteAssign != 0 && q.r.assignmentMay(p)) {
		if _, _, ok := q.r.match(p); ok {
			return false
		}
	}
	q.next = p + 1
	return true
}

// sanitizeMarkerAt reports whether the text ends with a marker.
func sanitizeMarkerAt(out string) bool { return sanitizeMarkerEnding(out) > 0 }

// sanitizeMarker is a marker (ASCII letters lower-cased) with its last
// eight bytes (fewer when it is shorter) as the top bytes of a
// little-endian word, their mask, and 0x20 at its letters: the last eight
// bytes of a text, ORed with fold and masked, equal word when the text
// ends with them in any ASCII case (no other byte ORed with 0x20 becomes
// a lower-case letter).
type sanitizeMarker struct {
	m                string
	word, mask, fold uint64
}

func sanitizeMarkerOf(m string) sanitizeMarker {
	x := sanitizeMarker{m: m}
	for k := 0; k < 8 && k < len(m); k++ {
		c, shift := m[len(m)-1-k], 8*(7-k)
		x.word |= uint64(c) << shift
		x.mask |= 0xFF << shift
		if c >= 'a' && c <= 'z' {
			x.fold |= 0x20 << shift
		}
	}
	return x
}

// sanitizeMarkerEnding returns the length of the first marker (in the
// order of sanitizeMarkersByEnd) that out ends with, or 0.
func sanitizeMarkerEnding[T string | []byte](out T) int {
	n := len(out)
	if n < 2 || !sanitizePairBit(&sanitizeMarkerPairs, uint16(out[n-2])|uint16(out[n-1])<<8) {
		return 0
	}
	// The last eight bytes, the last one at the top (zero below the
	// start: no marker holds a NUL).
	var w uint64
	if n >= 8 {
		b := out[n-8:]
		_ = b[7]
		w = uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
	} else {
		for k := 0; k < n; k++ {
			w |= uint64(out[n-1-k]) << (8 * (7 - k))
		}
	}
	for _, m := range sanitizeMarkersByEnd[out[n-1]] {
		if (w|m.fold)&m.mask == m.word && (len(m.m) <= 8 || sanitizeEndsWith(out, m.m)) {
			return len(m.m)
		}
	}
	return 0
}

// sanitizeClean is steps 1 and 2 in one pass: window, replace ill-formed
// UTF-8, delete removed characters, and feed what is left to the marker
// rule: characters are appended to the output one by one, and whenever the
// output ends with a marker, the marker is taken off again. The output thus
// never holds a marker, however markers were nested (<sys<system>tem>
// leaves nothing). s[:pristine] holding runes code points needs no change.
// It reports whether the window cut text off.
//
// The output is s[:i] until something changes (b nil), then step 1's
// buffer b (sanitizeStart). Runs of characters that need no look are
// copied whole (sanitizeKeptRun); each other character is one step
// (sanitizeCleanChar).
func sanitizeClean(s string, window, pristine, runes int) (string, bool) {
	var b []byte // nil while the output is s[:i]
	n, i := runes, pristine
	for i < len(s) {
		if n == window {
			return sanitizeCleanOutput(s, b, i), true
		}
		if j, k := sanitizeKeptRun(s, i, n, window); j > i {
			if b != nil {
				if j-i == 1 {
					b = append(b, s[i])
				} else {
					b = append(b, s[i:j]...)
				}
			}
			n, i = k, j
			continue
		}
		b, i, n = sanitizeCleanChar(s, b, i, n, window)
	}
	return sanitizeCleanOutput(s, b, len(s)), false
}

// sanitizeCleanOutput is step 1's output when it stopped at s[i]: s[:i]
// while nothing changed, else what b holds after its guard.
func sanitizeCleanOutput(s string, b []byte, i int) string {
	if b == nil {
		return s[:i]
	}
	return string(b[sanitizeGuard:])
}

// sanitizeCleanLook are the bits of a byte that make step 1 look at it.
const sanitizeCleanLook = sanitizeByteRemoved | sanitizeByteMulti | sanitizeByteMarkerEnd

// sanitizeKeptRun returns the end j of the run of characters from s[i],
// n code points into the window, that need no look, up to the window, and
// the code points k up to j: ASCII without a look bit, eight bytes at a
// time, and characters whose first two bytes tell that step 1 keeps them
// (sanitizeQuietLeads) and whose last byte ends no marker. j == i when
// s[i] needs a look.
func sanitizeKeptRun(s string, i, n, window int) (j, k int) {
	j, k = i, n
	if sanitizeBytes[s[i]]&(sanitizeByteRemoved|sanitizeByteMarkerEnd) != 0 {
		return j, k
	}
	for j < len(s) && k < window {
		if s[j] < utf8.RuneSelf {
			j0, end := j, min(len(s), j+window-k)
			for j+8 <= end && sanitizeWord8(s, j)&0x8080808080808080 == 0 {
				t, b := &sanitizeBytes, s[j:j+8]
				if (t[b[0]]|t[b[1]]|t[b[2]]|t[b[3]]|t[b[4]]|t[b[5]]|t[b[6]]|t[b[7]])&sanitizeCleanLook != 0 {
					break
				}
				j += 8
			}
			for j < end && sanitizeBytes[s[j]]&sanitizeCleanLook == 0 {
				j++
			}
			if k += j - j0; j == j0 || j < len(s) && s[j] < utf8.RuneSelf {
				break // at the window, or at ASCII that needs a look
			}
			continue
		}
		if j+1 >= len(s) {
			break
		}
		// A character of two bytes or more, read as sanitizeKeptSize
		// does (written out: it is the common case of most scripts).
		c, d := s[j], s[j+1]
		if c < 0xC0 || d&0xC0 != 0x80 {
			break
		}
		size := 2
		if sanitizeQuietLeads[c]&(1<<(d&63)) == 0 {
			if c&0xF0 != 0xE0 || j+2 >= len(s) || s[j+2]&0xC0 != 0x80 ||
				sanitizeQuietThirds[int(c&0x0F)<<6|int(d&0x3F)]&(1<<(s[j+2]&63)) == 0 {
				break
			}
			size = 3
		} else if c >= 0xE0 {
			if size = sanitizeKeptSize34(s, j, c); size == 0 {
				break
			}
		}
		if sanitizeBytes[s[j+size-1]]&sanitizeByteMarkerEnd != 0 {
			break
		}
		j, k = j+size, k+1
	}
	return j, k
}

// sanitizeCleanChar is step 1 and the marker rule for the character at
// s[i] that needs a look, n code points into the window, with b the output
// so far (nil while it is s[:i]): bytes that are an ill-formed sequence
// alone, with what follows them (sanitizeCleanBytes); a deleted character;
// another ill-formed sequence (U+FFFD); or a kept character that may end a
// marker. It returns b and the new i and n.
func sanitizeCleanChar(s string, b []byte, i, n, window int) ([]byte, int, int) {
	if sanitizeLoneByte(s, i) {
		// Bytes that are an ill-formed sequence alone (they lead no
		// character, or no continuation byte follows them): one U+FFFD
		// each, as many as follow one another, and the ASCII between
		// them, by sanitizeCleanBytes.
		if b == nil {
			b = sanitizeStart(s, i, window)
		}
		return sanitizeCleanBytes(s, b, i, n, window)
	}
	n++
	c := s[i]
	bits := sanitizeBytes[c] & sanitizeCleanLook
	if bits&sanitizeByteRemoved != 0 {
		if b == nil {
			b = sanitizeStart(s, i, window)
		}
		return b, i + 1, n
	}
	size := 1
	if bits&sanitizeByteMulti != 0 {
		if size = sanitizeKeptSize(s, i); size == 0 {
			r, sz, ok := sanitizeDecode(s[i:])
			switch {
			case !ok:
				if b == nil {
					b = sanitizeStart(s, i, window)
				}
				b = append(b, "\uFFFD"...)
				if sanitizeBytes[b[len(b)-1]]&sanitizeByteMarkerEnd != 0 {
					b = sanitizeDropMarker(b)
				}
				return b, i + sz, n
			case sanitizeRemovedRune(r):
				if b == nil {
					b = sanitizeStart(s, i, window)
				}
				return b, i + sz, n
			}
			size = sz
		}
		bits = sanitizeBytes[s[i+size-1]]
	}
	if b != nil {
		if size == 1 {
			b = append(b, c)
		} else {
			b = append(b, s[i:i+size]...)
		}
	}
	i += size
	if bits&sanitizeByteMarkerEnd != 0 {
		if b == nil {
			if sanitizeMarkerAt(s[:i]) {
				b = sanitizeDropMarker(sanitizeStart(s, i, window))
			}
		} else {
			b = sanitizeDropMarker(b)
			// More may follow (### repeated): one byte at a time.
			b, i, n = sanitizeCleanBytes(s, b, i, n, window)
		}
	}
	return b, i, n
}

// sanitizeCleanBytes goes on with step 1 in b from s[i], n code points
// into the window, while the text is of what it takes one byte at a time:
// ill-formed bytes alone (one U+FFFD each), ASCII that needs no look, and
// ASCII that may end a marker (the marker is taken off again), all as the
// main loop of sanitizeClean treats them. A text made of these alone
// (\xff repeated, \xff: or ### repeated) would cost that loop a full
// turn per byte. It stops at anything else, at the window, and after a
// run of ASCII that needs no look, which that loop copies a word at a
// time; it returns b and the new i and n.
func sanitizeCleanBytes(s string, b []byte, i, n, window int) ([]byte, int, int) {
	// Each byte taken is one code point: n goes with i, up to the window.
	i0, end := i, min(len(s), i+window-n)
	last := i // where the last byte that needed a look was
	for i < end {
		c := s[i]
		if c >= utf8.RuneSelf {
			// A byte that is an ill-formed sequence alone (it leads no
			// character, or no continuation byte follows it), or a run of
			// them.
			if !sanitizeLoneByte(s, i) {
				break
			}
			k := i + 1
			for k < end && sanitizeLoneByte(s, k) {
				k++
			}
			if cap(b)-len(b) < 3*(k-i) {
				// Room for the run, and for the rest of the window at the
				// rate the output has grown so far: a text of ill-formed
				// bytes and ASCII (\xff: repeated) doubles in size, which
				// appends would reach by many steps of a quarter, each a
				// copy, while text with a few such bytes grows little.
				// In int64: the product overflows a 32-bit int from 64 KiB.
				rest := int(int64(end-k) * int64(len(b)-sanitizeGuard) / int64(max(i, 1)))
				b = slices.Grow(b, 3*(k-i)+rest)
			}
			if k-i == 1 {
				if b = append(b, 0xEF, 0xBF, 0xBD); sanitizeBytes[0xBD]&sanitizeByteMarkerEnd != 0 {
					b = sanitizeDropMarker(b)
				}
			} else {
				b = sanitizeAppendReplacements(b, k-i)
			}
			i, last = k, k
			continue
		}
		bits := sanitizeBytes[c]
		if bits&sanitizeByteRemoved != 0 {
			break
		}
		b = append(b, c)
		i++
		if bits&sanitizeByteMarkerEnd == 0 {
			if i-last == 16 {
				break
			}
			continue
		}
		// b holds the guard's eight bytes at least: its last eight bytes
		// are there, read as one word (sanitizeMarkerEnding, written out).
		last = i
		t := b[len(b)-8:]
		_ = t[7]
		if sanitizePairBit(&sanitizeMarkerPairs, uint16(t[6])|uint16(c)<<8) {
			w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
				uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
			ms := sanitizeMarkersByEnd[c]
			for k := range ms {
				if m := &ms[k]; (w|m.fold)&m.mask == m.word && (len(m.m) <= 8 || sanitizeEndsWith(b, m.m)) {
					b = b[:len(b)-len(m.m)]
					break
				}
			}
		}
	}
	return b, i, n + i - i0
}

// sanitizeAppendReplacements appends k U+FFFD to b, as k appends of one
// would (each followed by the marker rule), but with the bytes copied in
// doubling blocks (a few are appended one by one).
func sanitizeAppendReplacements(b []byte, k int) []byte {
	if sanitizeBytes[0xBD]&sanitizeByteMarkerEnd != 0 {
		// A marker may end with U+FFFD's last byte: one at a time.
		for ; k > 0; k-- {
			b = sanitizeDropMarker(append(b, "\uFFFD"...))
		}
		return b
	}
	if k < 8 {
		for ; k > 0; k-- {
			b = append(b, 0xEF, 0xBF, 0xBD)
		}
		return b
	}
	m := len(b)
	b = slices.Grow(b, 3*k)[:m+3*k] // room made already, as a rule
	copy(b[m:], "\uFFFD")
	for f := 3; f < 3*k; f *= 2 {
		copy(b[m+f:], b[m:m+f])
	}
	return b
}

// sanitizeDropMarker takes a marker off the end of b, if b ends with one.
func sanitizeDropMarker(b []byte) []byte { return b[:len(b)-sanitizeMarkerEnding(b)] }

// sanitizeLoneByte reports whether s[i] is the whole of an ill-formed
// sequence's maximal subpart: a byte that leads no character, or a lead
// byte that no continuation byte follows.
func sanitizeLoneByte(s string, i int) bool {
	c := s[i]
	return c >= utf8.RuneSelf && (c < 0xC2 || c > 0xF4 || i+1 == len(s) || s[i+1]&0xC0 != 0x80)
}

// sanitizeStart begins step 1's output buffer holding s[:i]: room for the
// text, or for a window of mostly ASCII.
func sanitizeStart(s string, i, window int) []byte {
	b := make([]byte, sanitizeGuard, min(len(s), 2*window)+16+sanitizeGuard)
	return append(b, s[:i]...)
}

// sanitizeGuard is the number of zero bytes step 1's output buffer starts
// with, before the output: the last eight bytes of the buffer are always
// there to compare with the markers (no marker holds a NUL).
const sanitizeGuard = 8

func sanitizeLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func sanitizeUpper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

func sanitizeFold(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// sanitizeEndsWith reports whether out ends with the lower-cased marker m,
// ignoring ASCII case.
func sanitizeEndsWith[T string | []byte](out T, m string) bool {
	if len(out) < len(m) {
		return false
	}
	o := len(out) - len(m)
	for j := 0; j < len(m); j++ {
		if sanitizeFold(out[o+j]) != m[j] {
			return false
		}
	}
	return true
}

// Character classes of the secret shapes, one bit each.
const (
	sanitizeClassAlnum uint16 = 1 << iota
	sanitizeClassUpperAlnum
	sanitizeClassLowerAlnum
	sanitizeClassHex
	sanitizeClassBase64URL
	sanitizeClassBase64
	sanitizeClassWord
	sanitizeClassToken
	// sanitizeClassKey: the characters of a key name (letters, digits, _ . -).
	sanitizeClassKey
	// sanitizeClassValue: ASCII characters a value may start with: printable,
	// not a space, quote, backslash or one of & , ; < > ( ) [ ] { }.
	sanitizeClassValue
	// sanitizeClassUserinfo: ASCII characters of a URL's userinfo: printable,
	// not a space, quote, backslash or one of / ? # @ [ ] < > { } `.
	sanitizeClassUserinfo
	// sanitizeClassPath: the bytes of a path's characters: ASCII letters,
	// digits, - . _ ~ + @ % $, the separators / and \, and every byte of a
	// non-ASCII character.
	sanitizeClassPath
	// sanitizeClassGap: what may stand between a key and its separator:
	// spaces, tabs, quotes and backslashes.
	sanitizeClassGap
)

var sanitizeClasses = func() (t [256]uint16) {
	for c := 0; c < 128; c++ {
		lower, upper, digit := c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9'
		alnum := lower || upper || digit
		set := func(class uint16, in bool) {
			if in {
				t[c] |= class
			}
		}
		set(sanitizeClassAlnum, alnum)
		set(sanitizeClassUpperAlnum, upper || digit)
		set(sanitizeClassLowerAlnum, lower || digit)
		set(sanitizeClassHex, digit || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
		set(sanitizeClassBase64URL, alnum || c == '_' || c == '-')
		set(sanitizeClassBase64, alnum || c == '+' || c == '/' || c == '=')
		set(sanitizeClassWord, alnum || c == '_')
		set(sanitizeClassToken, alnum || strings.IndexByte("-._~+/=", byte(c)) >= 0) // RFC 6750 b64token
		set(sanitizeClassKey, alnum || c == '_' || c == '.' || c == '-')
		printable := c > ' ' && c < 0x7F
		set(sanitizeClassValue, printable && strings.IndexByte("\"'`\\&,;<>()[]{}", byte(c)) < 0)
		set(sanitizeClassUserinfo, printable && strings.IndexByte("\"'`\\/?#@[]<>{}", byte(c)) < 0)
		set(sanitizeClassPath, alnum || strings.IndexByte("-._~+@%$/\\", byte(c)) >= 0)
		set(sanitizeClassGap, strings.IndexByte(" \t\"'\\", byte(c)) >= 0)
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] |= sanitizeClassPath
	}
	return t
}()

// sanitizeSecret is a secret shape: a prefix, then at least Min characters
// of Class. The whole run of class characters is redacted.
type sanitizeSecret struct {
	Prefixes []string
	Class    uint16
	Min      int
}

// sanitizeBuiltinSecrets is errgen's catalogue of token shapes.
var sanitizeBuiltinSecrets = []sanitizeSecret{
	{[]string{"sk-"}, sanitizeClassBase64URL, 20},                                                                        // OpenAI, Anthropic and similar API keys
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, sanitizeClassAlnum, 36},                                           // GitHub tokens
	{[]string{"github_pat_"}, sanitizeClassWord, 82},                                                                     // GitHub fine-grained tokens
	{[]string{"glpat-"}, sanitizeClassBase64URL, 20},                                                                     // GitLab tokens
	{[]string{"xoxa-", "xoxb-", "xoxe-", "xoxp-", "xoxr-", "xoxs-"}, sanitizeClassBase64URL, 10},                         // Slack tokens
	{[]string{"tskey-"}, sanitizeClassBase64URL, 10},                                                                     // Tailscale keys
	{[]string{"AKIA", "ASIA"}, sanitizeClassUpperAlnum, 16},                                                              // AWS access key ids
	{[]string{"AIza"}, sanitizeClassBase64URL, 35},                                                                       // Google API keys
	{[]string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_", "whsec_"}, sanitizeClassAlnum, 16}, // Stripe keys
	{[]string{"npm_"}, sanitizeClassAlnum, 36},                                                                           // npm tokens
}

// sanitizeWordPrefixes start a token that is redacted whole, up to the
// next white space, when it begins at the start or after white space.
var sanitizeWordPrefixes = []string{"sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
	"xoxa-", "xoxb-", "xoxe-", "xoxp-", "xoxr-", "xoxs-", "tskey-", "eyJ"}

// The kinds of shapes a fixed start begins (sanitizeHead). The prefixed
// shapes and word prefixes starting with a byte are kept in catalogue
// order, so filtering by the first byte keeps the order of step 3.
const (
	sanitizeStartPEM      = 1 << iota // -----BEGIN
	sanitizeStartWord                 // a word prefix (sk-, eyJ, …)
	sanitizeStartPrefixed             // a prefixed shape's prefix
	sanitizeStartJWT                  // eyJ
	sanitizeStartBearer               // bearer, any case
	sanitizeStartHome                 // /home/, /Users/
	sanitizeStartName                 // a credential name or a key file extension
)

type sanitizePrefixed struct {
	prefix sanitizeFixed
	class  uint16
	min    int
}

// sanitizeFixed is a fixed ASCII string compared eight bytes at a time:
// its first eight bytes (fewer when it is shorter) as a little-endian word
// with their mask, and the bytes after them.
type sanitizeFixed struct {
	// fold is ORed into the text's word first: 0x20 at the letters of a
	// string matched in any ASCII case (then written in lower case).
	word, mask, fold uint64
	n                int
	tail             string
}

func sanitizeFixedOf(x string) sanitizeFixed {
	f := sanitizeFixed{n: len(x)}
	for i := 0; i < len(x) && i < 8; i++ {
		f.word |= uint64(x[i]) << (8 * i)
		f.mask |= 0xFF << (8 * i)
	}
	if len(x) > 8 {
		f.tail = x[8:]
	}
	return f
}

// at reports whether s holds the string at p, given w = sanitizeWord(s, p).
func (f *sanitizeFixed) at(s string, p int, w uint64) bool {
	return (w|f.fold)&f.mask == f.word && len(s)-p >= f.n && (f.tail == "" || s[p+8:p+f.n] == f.tail)
}

// sanitizeWord returns the eight bytes of s from p as a little-endian word,
// zero past the end of s. Every fixed string of the shapes is compared with
// it in one step.
func sanitizeWord(s string, p int) uint64 {
	if len(s)-p >= 8 {
		return sanitizeWord8(s, p)
	}
	var w uint64
	for i := len(s) - 1; i >= p; i-- {
		w = w<<8 | uint64(s[i])
	}
	return w
}

// The fixed strings match compares by word.
var (
	sanitizeFixedPEM = sanitizeFixedOf("-----BEGIN ")
	// "bearer" in any case (its six bytes are letters, so no other byte
	// ORed with 0x20 becomes one of them).
	sanitizeFixedBearer = func() sanitizeFixed {
		f := sanitizeFixedOf("bearer")
		f.fold = 0x202020202020
		return f
	}()
)

// sanitizeHead is the fixed start of one or more shapes, which match
// compares first: where none of a byte's heads is, no shape starts (most
// tries are near misses), and the kinds of those that are tell which
// shapes to try.
type sanitizeHead struct {
	sanitizeFixed
	kinds uint8
}

// sanitizeHeads holds the fixed starts of every shape but those at ':' and
// '=' (matchSeparator) and the credential names and key file extensions
// (sanitizeNameStarts): a prefix of a prefixed shape or word, -----BEGIN,
// eyJ, bearer in any case, a home prefix; by a hash of their first two bytes
// (sanitizeHeadBucket), so a try compares the few of its bucket. Bucket b
// is list[start[b]:start[b+1]].
var sanitizeHeads = func() (t struct {
	start [1<<12 + 1]uint16
	list  []sanitizeHead
}) {
	var buckets [1 << 12][]sanitizeHead
	for c := range sanitizeStarts.heads {
		for _, h := range sanitizeStarts.heads[c] {
			// Bearer's second byte in either case.
			for _, d := range []byte{byte(h.word >> 8), byte(h.word>>8) &^ byte(h.fold>>8)} {
				b := sanitizeHeadBucket(uint16(c) | uint16(d)<<8)
				if !slices.ContainsFunc(buckets[b], func(x sanitizeHead) bool { return x == h }) {
					buckets[b] = append(buckets[b], h)
				}
			}
		}
	}
	for b, list := range buckets {
		t.list = append(t.list, list...)
		t.start[b+1] = uint16(len(t.list))
	}
	return t
}()

// sanitizeHeadBucket returns the bucket of sanitizeHeads of a pair (first |
// second<<8).
func sanitizeHeadBucket(v uint16) uint32 { return uint32(v) * 0x9E3779B1 >> 20 }

var sanitizeStarts = func() (t struct {
	prefixed [256][]sanitizePrefixed
	words    [256][]sanitizeFixed
	// heads holds the fixed starts by their first byte (sanitizeHeads).
	heads [256][]sanitizeHead
	// second holds, per first byte, the bytes that can follow it in a
	// shape, so most letters are passed over without trying one.
	second [256][4]uint64
}) {
	follow := func(first, next byte) { t.second[first][next>>6] |= 1 << (next & 63) }
	// head adds a fixed start under its first byte, c (either case of
	// bearer's b).
	head := func(c byte, f sanitizeFixed, kind uint8) {
		for _, d := range []byte{byte(f.word >> 8), byte(f.word>>8) &^ byte(f.fold>>8)} {
			follow(c, d)
		}
		for i := range t.heads[c] {
			if h := &t.heads[c][i]; h.word == f.word && h.mask == f.mask && h.fold == f.fold && h.n == f.n && h.tail == f.tail {
				h.kinds |= kind
				return
			}
		}
		t.heads[c] = append(t.heads[c], sanitizeHead{f, kind})
	}
	for _, list := range [][]sanitizeSecret{sanitizeBuiltinSecrets, sanitizeContractSecrets} {
		for _, sec := range list {
			for _, p := range sec.Prefixes {
				t.prefixed[p[0]] = append(t.prefixed[p[0]], sanitizePrefixed{sanitizeFixedOf(p), sec.Class, sec.Min})
				head(p[0], sanitizeFixedOf(p), sanitizeStartPrefixed)
			}
		}
	}
	for _, w := range sanitizeWordPrefixes {
		t.words[w[0]] = append(t.words[w[0]], sanitizeFixedOf(w))
		head(w[0], sanitizeFixedOf(w), sanitizeStartWord)
	}
	head('-', sanitizeFixedPEM, sanitizeStartPEM)
	head('e', sanitizeFixedOf("eyJ"), sanitizeStartJWT)
	head('b', sanitizeFixedBearer, sanitizeStartBearer)
	head('B', sanitizeFixedBearer, sanitizeStartBearer)
	follow(':', '/')
	if sanitizePaths {
		follow(':', '\\')
		for _, h := range sanitizeHomePrefixes {
			head(h[0], sanitizeFixedOf(h), sanitizeStartHome)
		}
		// The credential names and key file extensions are found by
		// their first two bytes (sanitizeNameStarts), then compared by
		// sanitizeCredentialAt.
		for _, n := range append(slices.Clone(sanitizeCredentialNames), sanitizeKeyExtensions...) {
			follow(n[0], n[1])
		}
	}
	return t
}()

func sanitizeSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// sanitizeRun counts the bytes of class from s[i].
func sanitizeRun(s string, i int, class uint16) int {
	j := i
	for j < len(s) && sanitizeClasses[s[j]]&class != 0 {
		j++
	}
	return j - i
}

// sanitizeRedactor is step 3's state. The output is b (once anything was
// redacted) or s[:flushed], followed by s[flushed:] up to the scan position.
type sanitizeRedactor struct {
	s       string
	b       strings.Builder
	dirty   bool
	flushed int
	sanitizeMemo
}

// sanitizeMemo is what the scans of a text remember about it, whatever
// they redacted.
type sanitizeMemo struct {
	// noJWT: no JWT starts before this position. A JWT attempt that fails
	// after a run of base64url would fail at every eyJ inside that run too
	// (the run ends at the same character), so they are not tried again:
	// this keeps the scan linear without changing what it finds.
	noJWT int
	// The path scans remember their last answer, which holds for every
	// later start inside the same path: a text of many home directories
	// in one path (/home/./home/./home/.…) is read once, not once per home.
	// pathFrom..pathRun is a run of path characters that ends at pathRun;
	// no credential name is at any position from credFrom to credEnd but
	// credAt (-1: none).
	pathFrom, pathRun         int
	credFrom, credEnd, credAt int
}

// back returns the k-th byte (k >= 1) before position p of the output.
func (r *sanitizeRedactor) back(p, k int) (byte, bool) {
	if k <= p-r.flushed {
		return r.s[p-k], true
	}
	return r.backOut(k - (p - r.flushed))
}

// backOut returns the k-th byte before s[flushed:] in the output.
func (r *sanitizeRedactor) backOut(k int) (byte, bool) {
	if !r.dirty {
		if k <= r.flushed {
			return r.s[r.flushed-k], true
		}
		return 0, false
	}
	// The output before flushed ends with [REDACTED]. No backward scan
	// reads past its ']' (white space, quotes and key characters only), so
	// b itself is never read.
	if k <= len(sanitizeRedacted) {
		return sanitizeRedacted[len(sanitizeRedacted)-k], true
	}
	return 0, false
}

// may reports whether a shape may start at p: the pair there starts one,
// or p is an assignment's separator with what a key needs before it (the
// output's byte before p is s[p-1] after flushed, and "]" at flushed).
func (r *sanitizeRedactor) may(p int) bool {
	return sanitizeLookSecret.has(r.s, p) ||
		p > r.flushed && sanitizePairBit(&sanitizeLookAfterSecret, uint16(r.s[p-1])|uint16(r.s[p])<<8) && r.keyBefore(p)
}

// keyBefore reports whether the ':' or '=' at p may end a key: the key's
// last two bytes are one of the pairs of sanitizeKeyEnds, or white space,
// a quote or a backslash stands between the key and p. It is
// assignment's first test, made before a shape is tried at p.
func (r *sanitizeRedactor) keyBefore(p int) bool {
	// As in assignment, only s[flushed:p] can hold these bytes.
	s := r.s
	if p-1 < r.flushed {
		return false
	}
	if sanitizeClasses[s[p-1]]&sanitizeClassGap != 0 {
		return true
	}
	return p-2 >= r.flushed && sanitizePairBit(&sanitizeKeyEnds, uint16(s[p-2])|uint16(s[p-1])<<8)
}

func (r *sanitizeRedactor) redact(from, to int) {
	if !r.dirty {
		r.b.Grow(len(r.s) + 16)
		r.dirty = true
	}
	r.b.WriteString(r.s[r.flushed:from])
	r.b.WriteString(sanitizeRedacted)
	r.flushed = to
}

// sanitizePairBits returns a bit for each of the four byte pairs at even
// positions of the eight bytes of s from i (bit k: the pair at i+2k) that
// is in the set; past the end of s, none.
func sanitizePairBits(t *sanitizePairs, s string, i int) uint {
	if len(s)-i >= 8 {
		b := s[i : i+8]
		v0 := uint16(b[0]) | uint16(b[1])<<8
		v1 := uint16(b[2]) | uint16(b[3])<<8
		v2 := uint16(b[4]) | uint16(b[5])<<8
		v3 := uint16(b[6]) | uint16(b[7])<<8
		return uint(t[v0>>6]>>(v0&63)&1) | uint(t[v1>>6]>>(v1&63)&1)<<1 |
			uint(t[v2>>6]>>(v2&63)&1)<<2 | uint(t[v3>>6]>>(v3&63)&1)<<3
	}
	var m uint
	for k := 0; i+2*k+1 < len(s); k++ {
		v := uint16(s[i+2*k]) | uint16(s[i+2*k+1])<<8
		m |= uint(t[v>>6]>>(v&63)&1) << k
	}
	return m
}

// sanitizeRedact is step 3: at each position the shapes are tried in the
// order of match; the first that matches is replaced and the scan goes on
// after it. The scan reads the byte pairs at even positions, eight bytes at
// a time, and tries the positions around a pair that could start a shape.
// No shape starts before start (the quick pass tried every position
// before it, in the same text).
//
// Once the output holds more than maxLength code points, step 4 will keep
// only its start, which no later redaction changes: the scan stops there
// and reports over, returning the output so far.
func sanitizeRedact(r *sanitizeRedactor, start, maxLength int) (out string, over bool) {
	s := r.s
	runes, counted := 0, 0 // the code points of the output's first counted bytes
	next := start          // the first position not tried yet
	// try tries the shapes at p and goes on after what it redacted; it
	// reports whether it redacted, and then whether the output is sure to
	// be truncated.
	try := func(p int) (matched, full bool) {
		from, to, ok := r.match(p)
		if !ok {
			return false, false
		}
		r.redact(from, to)
		next = to
		// At an odd next, the even pair holding it has a byte of the
		// redacted text, which the output no longer has: a credential name
		// starting at next may not be flagged there (see
		// sanitizeLookPairs), so next is tried now.
		for next&1 != 0 && next < len(s) && r.may(next) {
			from, to, ok := r.match(next)
			if !ok {
				next++
				break
			}
			r.redact(from, to)
			next = to
		}
		// The output's bytes bound its code points from above: they are
		// counted only past maxLength.
		if r.b.Len() > maxLength {
			out := r.b.String()
			runes += sanitizeRuneCount(out[counted:])
			counted = len(out)
		}
		return true, runes > maxLength
	}
	for i := start &^ 1; i+1 < len(s); {
		if len(s)-i >= 8 {
			if t, w := &sanitizeEvenPairs, sanitizeWord8(s, i); (t[uint16(w)]|t[uint16(w>>16)]|t[uint16(w>>32)]|t[uint16(w>>48)])&sanitizeEvenSecret == 0 {
				i += 8
				continue
			}
		} else if sanitizePairBits(&sanitizeLookSecret2, s, i) == 0 {
			i += 8
			continue
		}
		// The positions that may start a secret from the two before the
		// block (a pair flags what starts up to two bytes before it) to
		// its end: at the text's start and end one by one, else the
		// block's from sanitizePairMask.
		matched, full := false, false
		if i < 2 || len(s)-i < 8 {
			for p := max(next, i-2); p < min(i+8, len(s)) && !matched; p = max(p+1, next) {
				next = p + 1
				if r.may(p) {
					matched, full = try(p)
				}
			}
		} else {
			for p := max(next, i-2); p < i && !matched; p = max(p+1, next) {
				next = p + 1
				if r.may(p) {
					matched, full = try(p)
				}
			}
			m := sanitizePairMask(s, i, sanitizeWord8(s, i), sanitizeShiftSecret)
			for ; m != 0 && !matched; m &= m - 1 {
				p := i + bits.TrailingZeros(m)
				if p < next || p < r.flushed+2 && !r.may(p) {
					continue
				}
				next = p + 1
				matched, full = try(p)
			}
		}
		if full {
			return r.b.String(), true
		}
		if matched {
			// Go on with the even pair that holds next.
			i = next &^ 1
			continue
		}
		next = max(next, i+8)
		i += 8
	}
	if !r.dirty {
		return s, false
	}
	r.b.WriteString(s[r.flushed:])
	return r.b.String(), false
}

// match tries every shape at p and returns the span to redact. Every
// fixed string is compared against the eight bytes at p in one step, and
// each shape's cheapest condition comes first: most tries are near misses.
func (r *sanitizeRedactor) match(p int) (from, to int, ok bool) {
	s := r.s
	c := s[p]
	if c == ':' || c == '=' {
		return r.matchSeparator(p)
	}
	w := sanitizeWord(s, p)
	var kinds uint8
	b := sanitizeHeadBucket(uint16(w))
	for i := sanitizeHeads.start[b]; i < sanitizeHeads.start[b+1]; i++ {
		if h := &sanitizeHeads.list[i]; h.at(s, p, w) {
			kinds |= h.kinds
		}
	}
	if sanitizePaths && sanitizePairBit(&sanitizeNameStarts, uint16(w)) {
		kinds |= sanitizeStartName
	}
	if kinds == 0 {
		return 0, 0, false
	}
	// A private key block, through its END line or to the end of the text.
	if kinds&sanitizeStartPEM != 0 {
		j := p + sanitizeFixedPEM.n
		k := j
		for k < len(s) && k-j < 64 && (s[k] >= 'A' && s[k] <= 'Z' || s[k] >= '0' && s[k] <= '9' || s[k] == ' ') {
			k++
		}
		if strings.Contains(s[j:k], "PRIVATE KEY") && strings.HasPrefix(s[k:], "-----") {
			end := len(s)
			if e := strings.Index(s[k+5:], "-----END "); e >= 0 {
				e += k + 5 + len("-----END ")
				if f := strings.Index(s[e:], "-----"); f >= 0 {
					end = e + f + 5
				}
			}
			return p, end, true
		}
	}
	// A token starting like a known secret, redacted up to white space.
	if kinds&sanitizeStartWord != 0 {
		if prev, ok := r.back(p, 1); !ok || sanitizeSpace(prev) {
			for i := range sanitizeStarts.words[c] {
				if word := &sanitizeStarts.words[c][i]; word.at(s, p, w) {
					e := p + word.n
					for e < len(s) && !sanitizeSpace(s[e]) {
						e++
					}
					return p, e, true
				}
			}
		}
	}
	// Prefixed token shapes, anywhere.
	if kinds&sanitizeStartPrefixed != 0 {
		for i := range sanitizeStarts.prefixed[c] {
			sec := &sanitizeStarts.prefixed[c][i]
			if sec.prefix.at(s, p, w) {
				if n := sanitizeRun(s, p+sec.prefix.n, sec.class); n >= sec.min {
					return p, p + sec.prefix.n + n, true
				}
			}
		}
	}
	// A JSON Web Token: eyJ… . … (. …).
	if kinds&sanitizeStartJWT != 0 && p >= r.noJWT {
		n1 := sanitizeRun(s, p, sanitizeClassBase64URL)
		if n1 >= 10 && p+n1 < len(s) && s[p+n1] == '.' {
			e := p + n1 + 1
			if n2 := sanitizeRun(s, e, sanitizeClassBase64URL); n2 >= 4 {
				e += n2
				if e < len(s) && s[e] == '.' {
					e++
					e += sanitizeRun(s, e, sanitizeClassBase64URL)
				}
				return p, e, true
			}
		}
		r.noJWT = p + n1
	}
	// Bearer <token>: the token.
	if kinds&sanitizeStartBearer != 0 {
		if prev, ok := r.back(p, 1); !ok || sanitizeClasses[prev]&sanitizeClassAlnum == 0 {
			e := p + 6
			for e < len(s) && (s[e] == ' ' || s[e] == '\t') {
				e++
			}
			// The token's run only after white space: read at every
			// "bearer" of a text like "=Bearer=Bearer…", the run to its end
			// made the scan quadratic.
			if e > p+6 {
				if n := sanitizeRun(s, e, sanitizeClassToken); n >= 8 {
					return e, e + n, true
				}
			}
		}
	}
	// A home directory: its user name, or the whole path when it holds a
	// credential name.
	if kinds&sanitizeStartHome != 0 {
		if from, to, ok := r.home(p, w); ok {
			return from, to, true
		}
	}
	// A credential name: the whole path holding it.
	if kinds&sanitizeStartName != 0 {
		if prev, ok := r.back(p, 1); sanitizeCredentialAt(s, p, w, prev, ok) {
			return r.pathStart(p), r.pathEnd(p + 1), true
		}
	}
	return 0, 0, false
}

// matchSeparator is match at a ':' or '=', where only the assignment, the
// URL and the Windows home directory start, in that order.
func (r *sanitizeRedactor) matchSeparator(p int) (from, to int, ok bool) {
	s := r.s
	// key = value and key: value for a sensitive key. Tried before the URL
	// rule, which starts at the same ':' but redacts less: were the URL
	// rule first, a second pass could redact the "//" it skipped.
	if r.assignmentMay(p) {
		if from, to, ok := r.assignment(p); ok {
			return from, to, true
		}
	}
	if s[p] != ':' || p+1 >= len(s) || !sanitizeSeparator(s[p+1]) {
		return 0, 0, false
	}
	// URL userinfo holding a password: scheme://user:password@host.
	if p+2 < len(s) && s[p+1] == '/' && s[p+2] == '/' {
		j := p + 3
		n := sanitizeRun(s, j, sanitizeClassUserinfo)
		if n > 0 && j+n < len(s) && s[j+n] == '@' && strings.IndexByte(s[j:j+n], ':') >= 0 {
			return j, j + n, true
		}
	}
	// A Windows home directory: its user name, or the whole path when it
	// holds a credential name.
	if sanitizePaths && sanitizeDriveUsers(s[p:]) > 0 {
		return r.home(p, sanitizeWord(s, p))
	}
	return 0, 0, false
}

// assignmentMay makes assignment's first tests at the separator at p, the
// ones that reject most separators: white space and up to two quotes or
// backslashes before it, then two bytes that may end a key
// (sanitizeKeyEnds), and after it white space, up to two quotes or
// backslashes, then a value character.
func (r *sanitizeRedactor) assignmentMay(p int) bool {
	s, lo := r.s, r.flushed
	q := sanitizeKeyEnd(s, lo, p)
	if q-2 < lo || !sanitizePairBit(&sanitizeKeyEnds, uint16(s[q-2])|uint16(s[q-1])<<8) {
		return false
	}
	v := sanitizeValueStart(s, p+1)
	return v < len(s) && sanitizeClasses[s[v]]&sanitizeClassValue != 0
}

// sanitizeKeyEnd returns where an assignment's key may end before its
// separator at p, reading back no further than lo: past spaces and tabs,
// then past up to two quotes or backslashes.
func sanitizeKeyEnd(s string, lo, q int) int {
	for q > lo && (s[q-1] == ' ' || s[q-1] == '\t') {
		q--
	}
	for t := 0; t < 2 && q > lo && (s[q-1] == '"' || s[q-1] == '\'' || s[q-1] == '\\'); t++ {
		q--
	}
	return q
}

// sanitizeValueStart returns where an assignment's value may start, v being
// the byte after its separator: past spaces and tabs, then past up to two
// quotes or backslashes (sanitizeKeyEnd's mirror).
func sanitizeValueStart(s string, v int) int {
	for v < len(s) && (s[v] == ' ' || s[v] == '\t') {
		v++
	}
	for t := 0; t < 2 && v < len(s) && (s[v] == '"' || s[v] == '\'' || s[v] == '\\'); t++ {
		v++
	}
	return v
}

// sanitizeHomePrefixes start a Unix home directory; the user name follows.
var sanitizeHomePrefixes = []string{"/home/", "/Users/"}

// sanitizeKeyExtensions end the name of a key or certificate store file.
var sanitizeKeyExtensions = []string{".pem", ".key", ".p12", ".pfx", ".ppk", ".jks"}

// sanitizeName is a credential name split at its first '/': the bytes
// before it, compared as a fixed string, and the rest, matched by
// sanitizeNameAt ("" for a name of one segment).
type sanitizeName struct {
	head sanitizeFixed
	rest string
}

// sanitizeNamesByFirst holds the credential names by a hash of their first
// two bytes (sanitizeHeadBucket; bucket b is list[start[b]:start[b+1]]);
// sanitizeHomes and sanitizeExtensions the home prefixes and the key file
// extensions as fixed strings.
var (
	sanitizeNamesByFirst = func() (t struct {
		start [1<<12 + 1]uint16
		list  []sanitizeName
	}) {
		var buckets [1 << 12][]sanitizeName
		for _, n := range sanitizeCredentialNames {
			head, rest := n, ""
			if i := strings.IndexByte(n, '/'); i >= 0 {
				head, rest = n[:i], n[i:]
			}
			b := sanitizeHeadBucket(uint16(n[0]) | uint16(n[1])<<8)
			buckets[b] = append(buckets[b], sanitizeName{sanitizeFixedOf(head), rest})
		}
		for b, list := range buckets {
			t.list = append(t.list, list...)
			t.start[b+1] = uint16(len(t.list))
		}
		return t
	}()
	// sanitizeNamePairs holds the first two bytes of the names;
	// sanitizeNameStarts those of the key file extensions too.
	sanitizeNamePairs = func() (t sanitizePairs) {
		for _, n := range sanitizeCredentialNames {
			t.set(n[0], n[1])
		}
		return t
	}()
	sanitizeNameStarts = func() (t sanitizePairs) {
		t = sanitizeNamePairs
		for _, x := range sanitizeKeyExtensions {
			t.set(x[0], x[1])
		}
		return t
	}()
	sanitizeHomes = sanitizeFixedsOf(sanitizeHomePrefixes)
	// sanitizeExtensions holds the key file extensions (four bytes each)
	// as little-endian words.
	sanitizeExtensions = func() (t []uint32) {
		for _, x := range sanitizeKeyExtensions {
			t = append(t, uint32(sanitizeFixedOf(x).word))
		}
		return t
	}()
)

func sanitizeFixedsOf(list []string) []sanitizeFixed {
	t := make([]sanitizeFixed, len(list))
	for i, x := range list {
		t[i] = sanitizeFixedOf(x)
	}
	return t
}

func sanitizeSeparator(c byte) bool { return c == '/' || c == '\\' }

// home matches a home directory at p: /home/ or /Users/ at '/', or a drive
// letter's :\Users\, :\\Users\\ or :/Users/ (Users in any ASCII case) at
// ':'. The path must start at a boundary. The user name is redacted, or
// the whole path when it holds a credential name. w is sanitizeWord(s, p).
func (r *sanitizeRedactor) home(p int, w uint64) (from, to int, ok bool) {
	s := r.s
	start, seg := p, -1
	if s[p] == '/' {
		for i := range sanitizeHomes {
			if sanitizeHomes[i].at(s, p, w) {
				seg = p + sanitizeHomes[i].n
				break
			}
		}
	} else if sanitizeSeparator(byte(w >> 8)) {
		if n := sanitizeDriveUsers(s[p:]); n > 0 {
			if c, ok := r.back(p, 1); ok && c|0x20 >= 'a' && c|0x20 <= 'z' {
				start, seg = p-1, p+n
			}
		}
	}
	if seg < 0 || !r.pathBoundary(start) {
		return 0, 0, false
	}
	e := seg
	for e < len(s) && sanitizeClasses[s[e]]&sanitizeClassPath != 0 && !sanitizeSeparator(s[e]) {
		e++
	}
	if e == seg {
		return 0, 0, false
	}
	end := r.pathEnd(e)
	if r.credential(seg, end) {
		return start, end, true
	}
	return seg, e, true
}

// credential reports whether a credential name is at a position from seg
// to end, in a path whose character seg-1 is a separator.
func (r *sanitizeRedactor) credential(seg, end int) bool {
	s := r.s
	if end == r.credEnd && seg >= r.credFrom && (r.credAt < 0 || r.credAt >= seg) {
		return r.credAt >= 0
	}
	r.credFrom, r.credEnd, r.credAt = seg, end, -1
	for i := seg; i < end; i++ {
		if i+1 < len(s) && sanitizePairBit(&sanitizeNameStarts, uint16(s[i])|uint16(s[i+1])<<8) &&
			sanitizeCredentialAt(s, i, sanitizeWord(s, i), s[i-1], true) {
			r.credAt = i
			return true
		}
	}
	return false
}

// sanitizeDriveUsers returns the length of :\Users\, :\\Users\\ or :/Users/
// (Users in any ASCII case) at the start of rest, or 0.
func sanitizeDriveUsers(rest string) int {
	// The byte after the separator is U, u or a second backslash.
	if len(rest) < 8 || rest[2]|0x20 != 'u' && rest[2] != '\\' {
		return 0
	}
	w := sanitizeWord(rest, 0)
	for i := range sanitizeDrives {
		if sanitizeDrives[i].at(rest, 0, w) {
			return sanitizeDrives[i].n
		}
	}
	return 0
}

// sanitizeDrives are the three spellings of a drive's Users directory
// after its ':', Users in any ASCII case.
var sanitizeDrives = func() (t [3]sanitizeFixed) {
	for i, d := range []string{":\\users\\", ":\\\\users\\\\", ":/users/"} {
		t[i] = sanitizeFixedOf(d)
		k := strings.Index(d, "users")
		t[i].fold = 0x2020202020 << (8 * k)
	}
	return t
}()

// pathBoundary reports whether a home directory's path may start at p: at
// the start of the output, after a character that is no path character,
// or after "://" or ":///" (file:///home/…).
func (r *sanitizeRedactor) pathBoundary(p int) bool {
	c, ok := r.back(p, 1)
	if !ok || sanitizeClasses[c]&sanitizeClassPath == 0 {
		return true
	}
	if d, _ := r.back(p, 2); c != '/' || d != '/' {
		return false
	}
	e, _ := r.back(p, 3)
	f, _ := r.back(p, 4)
	return e == ':' || e == '/' && f == ':'
}

// sanitizeCredentialAt reports whether a credential name is at p, given
// w = sanitizeWord(s, p) and the output's character before p (ok false at
// the start): a listed name as a whole segment, or a key file extension
// ending a segment that has more before it.
func sanitizeCredentialAt(s string, p int, w uint64, prev byte, ok bool) bool {
	if !ok || sanitizeClasses[prev]&sanitizeClassPath == 0 || sanitizeSeparator(prev) {
		if v := uint16(w); sanitizeNamePairs[v>>6]&(1<<(v&63)) == 0 {
			return false
		}
		t := &sanitizeNamesByFirst
		b := sanitizeHeadBucket(uint16(w))
		for i := t.start[b]; i < t.start[b+1]; i++ {
			name := &t.list[i]
			if !name.head.at(s, p, w) {
				continue
			}
			e := p + name.head.n
			if name.rest != "" {
				var ok bool
				if e, ok = sanitizeNameAt(s, e, name.rest); !ok {
					continue
				}
			}
			if sanitizeNameEnds(s, e) {
				return true
			}
		}
		return false
	}
	if x := uint32(w); len(s)-p >= 4 {
		for _, e := range sanitizeExtensions {
			if x == e {
				return sanitizeNameEnds(s, p+4)
			}
		}
	}
	return false
}

// sanitizeNameAt matches a credential name at i, where a '/' in the name
// stands for one or more separators, and returns where it ends.
func sanitizeNameAt(s string, i int, name string) (int, bool) {
	for k := 0; k < len(name); k++ {
		if name[k] == '/' {
			if i >= len(s) || !sanitizeSeparator(s[i]) {
				return 0, false
			}
			for i < len(s) && sanitizeSeparator(s[i]) {
				i++
			}
			continue
		}
		if i >= len(s) || s[i] != name[k] {
			return 0, false
		}
		i++
	}
	return i, true
}

// sanitizeNameEnds reports whether a name that ends at e ends its segment:
// after any full stops comes a separator, the end, or an ASCII character
// that is neither a path character nor '['; or white space, when an ASCII
// character or the end follows it. So neither the truncation marker (a
// space and a non-ASCII character) nor a [REDACTED] after a name that
// goes on ever makes one.
func sanitizeNameEnds(s string, e int) bool {
	for e < len(s) && s[e] == '.' {
		e++
	}
	if e == len(s) {
		return true
	}
	switch c := s[e]; {
	case sanitizeSeparator(c):
		return true
	case c == '[':
		return false
	case sanitizeSpace(c):
		for e < len(s) && sanitizeSpace(s[e]) {
			e++
		}
		return e == len(s) || s[e] < utf8.RuneSelf
	default:
		return sanitizeClasses[c]&sanitizeClassPath == 0
	}
}

// pathStart returns where the path holding p starts: after the output's
// last character before p that is no path character (the "]" of an
// earlier redaction at the latest), at its first ASCII character.
func (r *sanitizeRedactor) pathStart(p int) int {
	// The output before flushed ends with the "]" of [REDACTED], or is
	// empty: the path starts at flushed at the earliest.
	s, q, lo := r.s, p, r.flushed
	for q-8 >= lo {
		t, b := &sanitizeClasses, s[q-8:q]
		if t[b[0]]&t[b[1]]&t[b[2]]&t[b[3]]&t[b[4]]&t[b[5]]&t[b[6]]&t[b[7]]&sanitizeClassPath == 0 {
			break
		}
		q -= 8
	}
	for q > lo && sanitizeClasses[s[q-1]]&sanitizeClassPath != 0 {
		q--
	}
	for s[q] >= utf8.RuneSelf {
		q++
	}
	return q
}

// pathEnd returns the end of the path whose character i-1 is no
// backslash: the end of the path characters from i, less the backslashes
// that end them (those of an escaped quote, as in {\"path\":\"…\"}).
func (r *sanitizeRedactor) pathEnd(i int) int {
	s := r.s
	if i < r.pathFrom || i > r.pathRun {
		r.pathFrom = i
		for i+8 <= len(s) {
			t, b := &sanitizeClasses, s[i:i+8]
			if t[b[0]]&t[b[1]]&t[b[2]]&t[b[3]]&t[b[4]]&t[b[5]]&t[b[6]]&t[b[7]]&sanitizeClassPath == 0 {
				break
			}
			i += 8
		}
		for i < len(s) && sanitizeClasses[s[i]]&sanitizeClassPath != 0 {
			i++
		}
		r.pathRun = i
	}
	i = r.pathRun
	for s[i-1] == '\\' {
		i--
	}
	return i
}

// assignment matches a sensitive key's value around the separator at p:
// key, up to two quotes or backslashes, spaces, the separator, spaces, up
// to two quotes or backslashes, then the value.
func (r *sanitizeRedactor) assignment(p int) (from, to int, ok bool) {
	s := r.s
	// The output before flushed is empty or ends with the "]" of
	// [REDACTED], which is neither a key byte nor white space nor a quote:
	// the key and what stands before it lie in s[flushed:p].
	lo := r.flushed
	q := sanitizeKeyEnd(s, lo, p)
	gap := p - q
	// Most keys are told apart by their last two bytes, before the scan.
	if q-2 < lo || !sanitizePairBit(&sanitizeKeyEnds, uint16(s[q-2])|uint16(s[q-1])<<8) {
		return 0, 0, false
	}
	// The value's start, which a value character must be, before the key.
	v := sanitizeValueStart(s, p+1)
	if v >= len(s) || sanitizeClasses[s[v]]&sanitizeClassValue == 0 {
		return 0, 0, false
	}
	// The key, s[q:end], compared in lower case.
	end := q
	for q > lo && sanitizeClasses[s[q-1]]&sanitizeClassKey != 0 {
		q--
	}
	key := s[q:end]
	switch {
	case sanitizeSensitiveKey(key):
	case (sanitizeEqualFold(key, "code") || sanitizeEqualFold(key, "sig")) && gap == 0 && s[p] == '=' && q > lo && strings.IndexByte("?&#;", s[q-1]) >= 0:
	default:
		return 0, 0, false
	}
	e := sanitizeValueEnd(s, v)
	if len(key) >= len("authorization") && sanitizeEqualFold(key[len(key)-len("authorization"):], "authorization") &&
		sanitizeRun(s, v, sanitizeClassAlnum|sanitizeClassBase64URL) == e-v {
		// A scheme (Bearer, Basic, AWS4-HMAC-SHA256, …) and its credentials.
		w := e
		for w < len(s) && (s[w] == ' ' || s[w] == '\t') {
			w++
		}
		if w > e {
			if f := sanitizeValueEnd(s, w); f > w {
				e = f
			}
		}
	}
	return v, e, true
}

// sanitizeValueEnd returns the end of the value starting at v: it must start
// with an ASCII value character and runs up to white space, a quote, a
// backslash or one of & , ; < > ( ) [ ] { }; other non-ASCII characters
// belong to it.
func sanitizeValueEnd(s string, v int) int {
	if v >= len(s) || sanitizeClasses[s[v]]&sanitizeClassValue == 0 {
		return v
	}
	e := v
	for e < len(s) && (s[e] >= utf8.RuneSelf || sanitizeClasses[s[e]]&sanitizeClassValue != 0) {
		e++
	}
	return e
}

// sanitizeKeySuffixes make a key sensitive when it ends with one of them
// (lower-cased): token, secret and password keys of every spelling.
var sanitizeKeySuffixes = []string{"token", "secret", "password", "passwd", "apikey", "api_key", "api-key",
	"signature", "credential", "credentials", "authorization", "cookie", "sessionid", "session_id",
	"accesskey", "privatekey", "secretkey"}

// sanitizeKeyExact are sensitive keys that are not a suffix rule's.
var sanitizeKeyExact = []string{"pwd", "pass", "auth", "session"}

// sanitizeKeyHarmless are keys ending in _key or -key that name no secret.
var sanitizeKeyHarmless = []string{"sort_key", "cache_key", "idempotency_key", "partition_key", "primary_key",
	"public_key", "foreign_key", "hash_key", "range_key", "row_key", "object_key", "routing_key", "shard_key",
	"dedup_key", "dedupe_key", "group_key", "lookup_key", "unique_key", "index_key", "map_key", "s3_key"}

// sanitizeKeyEnds holds the last two bytes of the sensitive and query-only
// keys, in either ASCII case: most keys are rejected by their last two
// bytes without comparing any name.
var sanitizeKeyEnds = func() (t sanitizePairs) {
	names := append(append([]string{"_key", "-key", "code", "sig"}, sanitizeKeyExact...), sanitizeKeySuffixes...)
	for _, n := range names {
		prev, last := n[len(n)-2], n[len(n)-1]
		for _, a := range []byte{prev, sanitizeUpper(prev)} {
			for _, b := range []byte{last, sanitizeUpper(last)} {
				t.set(a, b)
			}
		}
	}
	return t
}()

// sanitizeEqualFold reports whether s is the lower-case x, ignoring ASCII
// case.
func sanitizeEqualFold(s, x string) bool {
	if len(s) != len(x) {
		return false
	}
	for i := 0; i < len(x); i++ {
		if sanitizeFold(s[i]) != x[i] {
			return false
		}
	}
	return true
}

// sanitizeSensitiveKey reports whether a key (of key bytes, any ASCII
// case) names a secret: it is one of sanitizeKeyExact, ends with one of
// sanitizeKeySuffixes, or ends with _key or -key after no harmless word.
// It reads the key once from its end, through sanitizeKeyTrie.
func sanitizeSensitiveKey(key string) bool {
	node, keyEnd := 0, false
	for i := len(key) - 1; i >= 0; i-- {
		if node = int(sanitizeKeyTrie.nodes[node].next[sanitizeKeyTrie.sym[key[i]]]); node == 0 {
			break
		}
		switch f := sanitizeKeyTrie.nodes[node].flags; {
		case f&sanitizeKeySuffix != 0, f&sanitizeKeyWhole != 0 && i == 0:
			return true
		case f&sanitizeKeyUnderKey != 0:
			keyEnd = true
		}
	}
	if !keyEnd {
		return false
	}
	// A harmless name is a word and "_key", whole or after '_' or '.',
	// with '-' read as '_': the word is what lies between "_key" and the
	// '_', '-' or '.' before it (no harmless word holds one).
	n := len(key)
	j := n - 5
	for j >= 0 && key[j] != '_' && key[j] != '-' && key[j] != '.' {
		j--
	}
	word := key[j+1 : n-4]
	if len(word) >= len(sanitizeHarmlessWords) {
		return true
	}
	for _, h := range sanitizeHarmlessWords[len(word)] {
		if sanitizeEqualFold(word, h) {
			return false
		}
	}
	return true
}

type sanitizeKeyNode struct {
	next  [40]uint8
	flags uint8
}

// What reaching a node of sanitizeKeyTrie means: the key read so far (its
// end) is one of the suffixes, the whole key would be one of the exact
// keys, or the key ends with _key or -key.
const (
	sanitizeKeySuffix = 1 << iota
	sanitizeKeyWhole
	sanitizeKeyUnderKey
)

// sanitizeKeyTrie holds the sensitive keys reversed: node 0 is the root,
// nodes[n].next[sym[c]] the node after byte c (either ASCII case), 0 for
// none; sym numbers the key bytes from 1.
var sanitizeKeyTrie = func() (t struct {
	sym   [256]uint8
	nodes []sanitizeKeyNode
}) {
	const keyBytes = "abcdefghijklmnopqrstuvwxyz0123456789_.-"
	for i := 0; i < len(keyBytes); i++ {
		t.sym[keyBytes[i]] = uint8(i + 1)
		t.sym[sanitizeUpper(keyBytes[i])] = uint8(i + 1)
	}
	t.nodes = make([]sanitizeKeyNode, 1)
	add := func(name string, flag uint8) {
		n := 0
		for i := len(name) - 1; i >= 0; i-- {
			c := t.sym[name[i]]
			if t.nodes[n].next[c] == 0 {
				if len(t.nodes) == 256 {
					panic("sanitizeKeyTrie: too many nodes")
				}
				t.nodes[n].next[c] = uint8(len(t.nodes))
				t.nodes = append(t.nodes, sanitizeKeyNode{})
			}
			n = int(t.nodes[n].next[c])
		}
		t.nodes[n].flags |= flag
	}
	for _, k := range sanitizeKeySuffixes {
		add(k, sanitizeKeySuffix)
	}
	for _, k := range sanitizeKeyExact {
		add(k, sanitizeKeyWhole)
	}
	add("_key", sanitizeKeyUnderKey)
	add("-key", sanitizeKeyUnderKey)
	return t
}()

// sanitizeHarmlessWords are the harmless keys without their "_key", by
// their length.
var sanitizeHarmlessWords = func() (t [16][]string) {
	for _, h := range sanitizeKeyHarmless {
		w := strings.TrimSuffix(h, "_key")
		t[len(w)] = append(t[len(w)], w)
	}
	return t
}()

// sanitizeTruncate is step 4, on the well-formed text of step 3: it
// returns what it keeps of s, and whether the truncation marker follows.
func sanitizeTruncate(s string, maxLength int, cut bool) (string, bool) {
	if !cut && (len(s) <= maxLength || sanitizeRuneCount(s) <= maxLength) {
		return s, false
	}
	return s[:sanitizeCutBefore(s, sanitizeRuneOffset(s, maxLength-sanitizeMarkerLen))], true
}

// sanitizeCutBefore returns where step 4 cuts s to keep what lies before
// k: k, or the start of a [REDACTED] that k would cut in half.
func sanitizeCutBefore(s string, k int) int {
	n := len(sanitizeRedacted)
	lo := max(0, k-n+1)
	if i := strings.Index(s[lo:min(len(s), k+n-1)], sanitizeRedacted); i >= 0 {
		return lo + i
	}
	return k
}

// sanitizeRuneOffset returns where the code point after the first n of
// well-formed text starts (len(s) when it has no more): its n-th byte
// that is no continuation byte, counted eight bytes at a time.
func sanitizeRuneOffset(s string, n int) int {
	const high = 0x8080808080808080
	i := 0
	for ; i <= len(s)-8; i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		starts := 8 - bits.OnesCount64(w&high&^(w<<1))
		if starts > n {
			break
		}
		n -= starts
	}
	for ; i < len(s); i++ {
		if s[i]&0xC0 != 0x80 {
			if n == 0 {
				return i
			}
			n--
		}
	}
	return len(s)
}

// The constructors and With methods sanitize the envelope values named in
// SanitizedFields with these: a string with Sanitize, an array's strings,
// an object's strings however deep. They copy a slice or map in which a
// string changed and never modify the caller's.

// sanitizeStrings returns v with every string sanitized.
func sanitizeStrings(v []string) []string {
	var out []string
	for i, s := range v {
		t := Sanitize(s)
		if out == nil && t != s {
			out = slices.Clone(v)
		}
		if out != nil {
			out[i] = t
		}
	}
	if out == nil {
		return v
	}
	return out
}

// sanitizeObject returns v with every string in it sanitized: the string
// values of the map and of the maps and slices inside it (keys are kept).
func sanitizeObject(v map[string]any) map[string]any {
	if w, changed := sanitizeAny(v, 0); changed {
		return w.(map[string]any)
	}
	return v
}

// sanitizeMaxDepth stops the descent into a value too deep (or cyclic) to
// be JSON an envelope can carry.
const sanitizeMaxDepth = 160

// sanitizeAny sanitizes the strings in v, a string, []string, []any or
// map[string]any; anything else is kept as it is.
func sanitizeAny(v any, depth int) (any, bool) {
	switch x := v.(type) {
	case string:
		t := Sanitize(x)
		return t, t != x
	case []string:
		w := sanitizeStrings(x)
		return w, len(x) > 0 && &w[0] != &x[0]
	case []any:
		if depth >= sanitizeMaxDepth {
			return v, false
		}
		var out []any
		for i, e := range x {
			w, changed := sanitizeAny(e, depth+1)
			if out == nil && changed {
				out = slices.Clone(x)
			}
			if out != nil {
				out[i] = w
			}
		}
		if out != nil {
			return out, true
		}
	case map[string]any:
		if depth >= sanitizeMaxDepth {
			return v, false
		}
		var out map[string]any
		for k, e := range x {
			w, changed := sanitizeAny(e, depth+1)
			if out == nil && changed {
				out = maps.Clone(x)
			}
			if out != nil && changed {
				out[k] = w
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}

// sanitizeObjects returns v with every string in its objects sanitized: an
// array of objects, copied when something changes.
func sanitizeObjects(v []map[string]any) []map[string]any {
	var out []map[string]any
	for i, m := range v {
		w, changed := sanitizeAny(m, 1)
		if out == nil && changed {
			out = slices.Clone(v)
		}
		if changed {
			out[i] = w.(map[string]any)
		}
	}
	if out == nil {
		return v
	}
	return out
}

// sanitizeValue returns v, a value set as an extra member, with every string
// in it sanitized, as the log form sanitizes it: a string, the strings of a
// slice or map of the JSON types however deep (keys are kept), the strings of
// a json.RawMessage; any other value is written as JSON and, when a string in
// it changes, kept as the sanitized JSON text. A value JSON cannot carry is
// kept as it is (encoding refuses it).
func sanitizeValue(v any) any {
	switch x := v.(type) {
	case nil, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, json.Number:
		return v
	case string, []string, []any, map[string]any:
		w, _ := sanitizeAny(v, 0)
		return w
	case json.RawMessage:
		return sanitizeRawJSON(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	if w := sanitizeRawJSON(b); &w[0] != &b[0] {
		return w
	}
	return v
}

// sanitizeRawJSON returns the JSON text raw with each string value in it
// sanitized (member names are kept), raw itself when none changes. raw is
// valid JSON; a string the sanitizer changes is written again as
// appendString writes one.
func sanitizeRawJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	// A view of the bytes, not a copy: the text is only read here
	// (Sanitize returns its input or new text), and raw is not changed
	// while it is.
	t := unsafe.String(&raw[0], len(raw))
	var out []byte // nil while nothing has changed
	last := 0
	eachJSONString(t, false, func(i, j int, s string) {
		if c := Sanitize(s); c != s {
			out = appendString(append(out, raw[last:i]...), c)
			last = j + 1
		}
	})
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
}

// eachJSONString calls f for each string of the valid JSON text t, member
// names too when names is set, with the positions of its quotes (t[i] and
// t[j]) and its value: decoded from its escapes, and each byte of invalid
// UTF-8 a U+FFFD, as the decoder reads a string. The log form's and the
// readers' sanitizing of JSON text both walk it this way.
func eachJSONString(t string, names bool, f func(i, j int, s string)) {
	for i := 0; i < len(t); i++ {
		if t[i] != '"' {
			continue
		}
		j, escaped := i+1, false
		for j < len(t) && t[j] != '"' {
			if t[j] == '\\' {
				escaped = true
				j++
			}
			j++
		}
		if j >= len(t) {
			return
		}
		if !names {
			k := j + 1
			for k < len(t) && (t[k] == ' ' || t[k] == '\t' || t[k] == '\n' || t[k] == '\r') {
				k++
			}
			if k < len(t) && t[k] == ':' { // a member name
				i = j
				continue
			}
		}
		s := t[i+1 : j]
		// Escapes, and invalid UTF-8, need encoding/json's reading.
		if escaped || !utf8.ValidString(s) {
			var u string
			if json.Unmarshal([]byte(t[i:j+1]), &u) != nil {
				i = j
				continue
			}
			s = u
		}
		f(i, j, s)
		i = j
	}
}

// sanitizeExtra sanitizes the strings of every extra member read from an
// upstream (json.RawMessage values, as the decoders keep them), in place.
func sanitizeExtra(extra map[string]any) {
	for k, v := range extra {
		raw, ok := v.(json.RawMessage)
		if !ok {
			extra[k] = sanitizeValue(v)
			continue
		}
		// Set only what changed: boxing a slice in an interface allocates.
		if w := sanitizeRawJSON(raw); len(w) != len(raw) || len(w) > 0 && &w[0] != &raw[0] {
			extra[k] = w
		}
	}
}

// sanitizedLine is the start of a body an upstream sent as one line of
// sanitized text, at most max bytes of UTF-8 and with an ellipsis when cut
// (the text a message built from a response quotes). Past 4*max bytes the
// body is cut; each run of invalid UTF-8 becomes one U+FFFD. The text is
// sanitized; when the body was cut, the run of characters a secret can be
// made of that ends it (printable ASCII but for quotes, backslash and
// brackets: sanitizeTail) is dropped, so that no part of a secret the cut
// went through is shown. Then each run of white space becomes one space,
// and past max bytes the text is cut at a character boundary, before a
// [REDACTED] the cut would split. Sanitizing first means no white space the
// sanitizer deletes (vertical tab, form feed, NEL) can split a secret into
// harmless looking words.
func sanitizedLine(body []byte, max int) string {
	cut := len(body) > 4*max
	if cut {
		body = body[:4*max]
	}
	s := Sanitize(strings.ToValidUTF8(string(body), string(utf8.RuneError)))
	if cut {
		n := len(s)
		for n > 0 && sanitizeTail(s[n-1]) {
			n--
		}
		s = s[:n]
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		n := max
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		for i := n - 1; i >= 0 && i > n-len(sanitizeRedacted); i-- {
			if strings.HasPrefix(s[i:], sanitizeRedacted) {
				n = i
				break
			}
		}
		s, cut = s[:n], true
	}
	if cut && s != "" {
		s += "…"
	}
	return s
}

// sanitizeTail reports whether c can be part of a secret shape's text:
// printable ASCII other than the quotes, the backslash and the brackets,
// which no token, value or user info holds.
func sanitizeTail(c byte) bool {
	return c > ' ' && c <= '~' && strings.IndexByte("\"'`\\<>[]{}", c) < 0
}
