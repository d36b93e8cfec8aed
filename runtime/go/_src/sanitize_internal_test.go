package agenterror

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSanitizeRemovedRanges: the ranges the quick pass's tables are built
// from are the code points sanitizeRemovedRune deletes from U+0080 on.
func TestSanitizeRemovedRanges(t *testing.T) {
	in := func(r rune) bool {
		for _, rg := range sanitizeRemovedRanges {
			if rg[0] <= r && r <= rg[1] {
				return true
			}
		}
		return false
	}
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if in(r) != sanitizeRemovedRune(r) {
			t.Fatalf("U+%04X: in sanitizeRemovedRanges %v, sanitizeRemovedRune %v", r, in(r), sanitizeRemovedRune(r))
		}
	}
}

// TestSanitizeQuietLeads: sanitizeQuietLeads holds a lead byte and a
// second byte exactly when every character starting with them (whatever
// continuation bytes follow) is well-formed and kept by step 1.
func TestSanitizeQuietLeads(t *testing.T) {
	for c := 0xC0; c < 0x100; c++ {
		for d := 0x80; d < 0xC0; d++ {
			quiet := sanitizeQuietLeads[c]&(1<<(d&63)) != 0
			all := true
			for e := 0x80; e < 0xC0; e++ {
				for f := 0x80; f < 0xC0; f++ {
					r, size, ok := sanitizeDecode(string([]byte{byte(c), byte(d), byte(e), byte(f)}))
					good := ok && !sanitizeRemovedRune(r)
					all = all && good
					if size <= 3 {
						break
					}
				}
			}
			if quiet != all {
				t.Errorf("%02X %02X: in sanitizeQuietLeads %v, but every character starting so is kept: %v", c, d, quiet, all)
			}
		}
	}
}

// TestSanitizeQuietThirds: where the first two bytes of a character of
// three do not tell (sanitizeQuietLeads), sanitizeQuietThirds holds a third
// byte exactly when the three make a well-formed character step 1 keeps.
func TestSanitizeQuietThirds(t *testing.T) {
	for c := 0xE0; c < 0xF0; c++ {
		for d := 0x80; d < 0xC0; d++ {
			if sanitizeQuietLeads[c]&(1<<(d&63)) != 0 {
				continue
			}
			for e := 0x80; e < 0xC0; e++ {
				r, size, ok := sanitizeDecode(string([]byte{byte(c), byte(d), byte(e)}))
				want := ok && size == 3 && !sanitizeRemovedRune(r)
				if got := sanitizeQuietThirds[(c&0x0F)<<6|d&0x3F]&(1<<(e&63)) != 0; got != want {
					t.Errorf("%02X %02X %02X: in sanitizeQuietThirds %v, kept %v", c, d, e, got, want)
				}
			}
		}
	}
}

// TestSanitizeLeadPairs: what sanitizeLeadPairs tells of a byte pair, with
// sanitizeQuietThirds where it tells that the third byte does, is what
// sanitizeKeptAt tells of a lead byte followed by those bytes (nothing to
// tell for a byte that leads no character), and its sanitizeLeadLook2 bit
// is sanitizeLook2.
func TestSanitizeLeadPairs(t *testing.T) {
	for c := 0; c < 0x100; c++ {
		for d := 0; d < 0x100; d++ {
			v := sanitizeLeadPairs[c|d<<8]
			if got, want := v&sanitizeLeadLook2 != 0, sanitizePairBit(&sanitizeLook2, uint16(c|d<<8)); got != want {
				t.Errorf("%02X %02X: sanitizeLeadLook2 %v, in sanitizeLook2 %v", c, d, got, want)
			}
			v &^= sanitizeLeadLook2
			for e := 0; e < 0x100; e++ {
				got := v == 0 || v == sanitizeLeadThird && sanitizeQuietThirds[(c&0x0F)<<6|d&0x3F]&(1<<(e&63)) != 0
				want := c < 0xC0 || sanitizeKeptAt(string([]byte{byte(c), byte(d), byte(e)}), 0)
				if got != want {
					t.Fatalf("%02X %02X %02X: kept by sanitizeLeadPairs %v, by sanitizeKeptAt %v", c, d, e, got, want)
				}
				if v != sanitizeLeadThird {
					break // the third byte does not matter
				}
			}
		}
	}
}

// TestSanitizeLoneByte: a lone byte is a maximal subpart of one byte.
func TestSanitizeLoneByte(t *testing.T) {
	for c := 0x80; c < 0x100; c++ {
		for _, next := range []string{"", "a", "\x80", "\xbf", "\xc3", "\xff"} {
			s := string([]byte{byte(c)}) + next
			if sanitizeLoneByte(s, 0) {
				if _, size, ok := sanitizeDecode(s); ok || size != 1 {
					t.Errorf("%+q: lone byte, but decoded as ok %v, size %d", s, ok, size)
				}
			}
		}
	}
}

// TestSanitizeSensitiveKeyTrie holds the trie to the rules as written:
// an exact key, a suffix, or _key/-key after no harmless word.
func TestSanitizeSensitiveKeyTrie(t *testing.T) {
	want := func(key string) bool {
		key = sanitizeLower(key)
		for _, k := range sanitizeKeyExact {
			if key == k {
				return true
			}
		}
		for _, suf := range sanitizeKeySuffixes {
			if strings.HasSuffix(key, suf) {
				return true
			}
		}
		if strings.HasSuffix(key, "_key") || strings.HasSuffix(key, "-key") {
			norm := strings.ReplaceAll(key, "-", "_")
			for _, h := range sanitizeKeyHarmless {
				if strings.HasSuffix(norm, h) && (len(norm) == len(h) || strings.IndexByte("_.", norm[len(norm)-len(h)-1]) >= 0) {
					return false
				}
			}
			return true
		}
		return false
	}
	var names []string
	names = append(names, sanitizeKeyExact...)
	names = append(names, sanitizeKeySuffixes...)
	names = append(names, sanitizeKeyHarmless...)
	names = append(names, "key", "_key", "-key", "x_key", "my-sort-key", "sort-key", "xsort_key", "s3-key", "code", "sig", "passwordless", "token_type")
	for _, n := range names {
		for _, pre := range []string{"", "x", "_", "-", ".", "my_", "a.", "API_", "e"} {
			for _, suf := range []string{"", "x", "s", "_key", "-KEY", "Token"} {
				for _, key := range []string{pre + n + suf, strings.ToUpper(pre + n + suf)} {
					if got := sanitizeSensitiveKey(key); got != want(key) {
						t.Errorf("sanitizeSensitiveKey(%q) = %v, want %v", key, got, want(key))
					}
				}
			}
		}
	}
	for _, h := range sanitizeKeyHarmless {
		w, ok := strings.CutSuffix(h, "_key")
		if !ok || strings.ContainsAny(w, "_-.") || len(w) >= len(sanitizeHarmlessWords) {
			t.Errorf("harmless key %q: sanitizeSensitiveKey needs a word without _ - . before _key, shorter than %d", h, len(sanitizeHarmlessWords))
		}
	}
}

// TestSanitizePairMask: the quick pass's mask of a block marks exactly
// the positions where at's first test fails.
func TestSanitizePairMask(t *testing.T) {
	const alphabet = " \t:=/\\.-_aeyJksS0@<>|[]#\"'\x00"
	r := uint32(1)
	for n := 0; n < 20000; n++ {
		var b [12]byte
		for k := range b {
			r = r*1664525 + 1013904223
			b[k] = alphabet[int(r>>16)%len(alphabet)]
		}
		s := string(b[:])
		i := 2
		w := sanitizeWord8(s, i)
		m := sanitizePairMask(s, i, w, sanitizeShiftQuiet)
		for k := 0; k < 8; k++ {
			p := i + k
			c := s[p]
			first := !sanitizeLook.has(s, p) && !sanitizePairBit(&sanitizeLookAfter, uint16(s[p-1])|uint16(c)<<8) &&
				(sanitizeBytes[c]&sanitizeByteAssign == 0 || !sanitizePairBit(&sanitizeKeyEnds, uint16(s[p-2])|uint16(s[p-1])<<8))
			if got := m&(1<<k) != 0; got == first {
				t.Fatalf("%+q position %d: mask %v, at's first test passes %v", s, p, got, first)
			}
		}
	}
}

// TestSanitizeRuneOffset: the n-th code point's offset, counted eight
// bytes at a time, is the one a decoding loop finds.
func TestSanitizeRuneOffset(t *testing.T) {
	s := strings.Repeat("aé日🚀b", 9)
	for n := 0; n <= utf8.RuneCountInString(s)+2; n++ {
		want := 0
		for c := 0; c < n && want < len(s); c++ {
			_, size := utf8.DecodeRuneInString(s[want:])
			want += size
		}
		if got := sanitizeRuneOffset(s, n); got != want {
			t.Errorf("sanitizeRuneOffset(…, %d) = %d, want %d", n, got, want)
		}
	}
}

// TestSanitizeSeparatorsQuiet: where separators passes an ASCII block that
// only its ':' and '=' flag without block (q.next left alone), block finds
// nothing to change in it either; and it passes most such blocks of URLs
// and query strings.
func TestSanitizeSeparatorsQuiet(t *testing.T) {
	pieces := []string{"://", ":", "=", "=", "@", "/", "\\", " ", "\t", "\"", "?", "&", "#", ";", "C:", ":\\Users\\",
		":/Users/", "code", "sig", "pass", "auth", "token", "api_key", "sort_key", "on", "id", "Id", "x", "a", "host", "8080"}
	r := uint32(1)
	rnd := func(n int) int {
		r = r*1664525 + 1013904223
		return int(r>>8) % n
	}
	passed, sent := 0, 0
	for n := 0; n < 40000; n++ {
		var b strings.Builder
		for b.Len() < 20 {
			b.WriteString(pieces[rnd(len(pieces))])
		}
		s := b.String()
		i := 2 * rnd(2)
		w := sanitizeWord8(s, i)
		e := sanitizeEvenPairs[uint16(w)] | sanitizeEvenPairs[uint16(w>>16)] | sanitizeEvenPairs[uint16(w>>32)] | sanitizeEvenPairs[uint16(w>>48)]
		if w&0x8080808080808080 != 0 || e&sanitizeEvenShape != 0 || e&sanitizeEvenQuiet == 0 {
			continue
		}
		var q sanitizeQuietPass
		q.r.s, q.next = s, i // the positions before i are the block before's
		if _, ok := q.separators(i, w); !ok || q.next != i {
			sent++
			continue
		}
		passed++
		if p, ok := q.block(i, w); !ok {
			t.Fatalf("%+q: separators passes the block at %d, block changes %d", s, i, p)
		}
	}
	if passed < 1000 || sent < 1000 {
		t.Errorf("%d blocks passed, %d sent to block: the pieces do not test both", passed, sent)
	}
}
