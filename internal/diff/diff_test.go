package diff

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// numbered returns "1\n2\n...\nn\n" so that expected hunks can be written by
// hand with line numbers that are obvious at a glance.
func numbered(n int) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		sb.WriteString(strconv.Itoa(i) + "\n")
	}
	return sb.String()
}

// replaceLine swaps whole line `from` for `to` in a numbered() text.
func replaceLine(s string, from int, to string) string {
	lines := strings.SplitAfter(s, "\n")
	lines[from-1] = to
	return strings.Join(lines, "")
}

func TestUnified(t *testing.T) {
	const hdr = "--- a/f\n+++ b/f\n"
	tests := []struct {
		name     string
		old, new string
		want     string
	}{
		{name: "both empty", old: "", new: "", want: ""},
		{name: "identical", old: numbered(50), new: numbered(50), want: ""},
		{
			name: "identical without trailing newline",
			old:  "a\nb", new: "a\nb", want: "",
		},
		{
			name: "single change in middle of long file",
			old:  numbered(40),
			new:  replaceLine(numbered(40), 20, "twenty\n"),
			want: hdr + "@@ -17,7 +17,7 @@\n" +
				" 17\n 18\n 19\n-20\n+twenty\n 21\n 22\n 23\n",
		},
		{
			name: "insertion at start",
			old:  numbered(10),
			new:  "zero\n" + numbered(10),
			want: hdr + "@@ -1,3 +1,4 @@\n+zero\n 1\n 2\n 3\n",
		},
		{
			name: "deletion at end",
			old:  numbered(10),
			new:  numbered(8),
			want: hdr + "@@ -6,5 +6,3 @@\n 6\n 7\n 8\n-9\n-10\n",
		},
		{
			name: "two distant changes give two hunks",
			old:  numbered(30),
			new:  replaceLine(replaceLine(numbered(30), 5, "five\n"), 25, "twenty-five\n"),
			want: hdr +
				"@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n" +
				"@@ -22,7 +22,7 @@\n 22\n 23\n 24\n-25\n+twenty-five\n 26\n 27\n 28\n",
		},
		{
			// Exactly 2*3 equal lines between the changes: the contexts
			// touch, so GNU diff emits a single hunk.
			name: "two nearby changes merge into one hunk",
			old:  numbered(20),
			new:  replaceLine(replaceLine(numbered(20), 4, "X\n"), 11, "Y\n"),
			want: hdr + "@@ -1,14 +1,14 @@\n" +
				" 1\n 2\n 3\n-4\n+X\n 5\n 6\n 7\n 8\n 9\n 10\n-11\n+Y\n 12\n 13\n 14\n",
		},
		{
			// One more equal line and the contexts no longer touch.
			name: "changes seven lines apart stay separate",
			old:  numbered(20),
			new:  replaceLine(replaceLine(numbered(20), 4, "X\n"), 12, "Y\n"),
			want: hdr +
				"@@ -1,7 +1,7 @@\n 1\n 2\n 3\n-4\n+X\n 5\n 6\n 7\n" +
				"@@ -9,7 +9,7 @@\n 9\n 10\n 11\n-12\n+Y\n 13\n 14\n 15\n",
		},
		{
			name: "newline added at end",
			old:  "a\nb\nc",
			new:  "a\nb\nc\n",
			want: hdr + "@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+c\n",
		},
		{
			name: "newline removed at end",
			old:  "a\nb\nc\n",
			new:  "a\nb\nc",
			want: hdr + "@@ -1,3 +1,3 @@\n a\n b\n-c\n+c\n\\ No newline at end of file\n",
		},
		{
			name: "last line changed, neither has newline",
			old:  "a\nb\nc",
			new:  "a\nb\nd",
			want: hdr + "@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n" +
				"+d\n\\ No newline at end of file\n",
		},
		{
			name: "unterminated last line as context",
			old:  "a\nb\nc",
			new:  "x\nb\nc",
			want: hdr + "@@ -1,3 +1,3 @@\n-a\n+x\n b\n c\n\\ No newline at end of file\n",
		},
		{
			name: "empty old",
			old:  "",
			new:  "a\nb\n",
			want: hdr + "@@ -0,0 +1,2 @@\n+a\n+b\n",
		},
		{
			name: "empty old, single unterminated line",
			old:  "",
			new:  "a",
			want: hdr + "@@ -0,0 +1 @@\n+a\n\\ No newline at end of file\n",
		},
		{
			name: "empty new",
			old:  "a\nb\nc\n",
			new:  "",
			want: hdr + "@@ -1,3 +0,0 @@\n-a\n-b\n-c\n",
		},
		{
			name: "single line files",
			old:  "a\n",
			new:  "b\n",
			want: hdr + "@@ -1 +1 @@\n-a\n+b\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Unified("f", "f", []byte(tt.old), []byte(tt.new))
			if got != tt.want {
				t.Errorf("Unified mismatch\n got:\n%s\nwant:\n%s", got, tt.want)
			}
			if got != "" {
				checkPatch(t, tt.old, tt.new, got)
			}
		})
	}
}

func TestUnifiedHeaders(t *testing.T) {
	got := Unified("old/x.go", "new/x.go", []byte("a\n"), []byte("b\n"))
	want := "--- a/old/x.go\n+++ b/new/x.go\n@@ -1 +1 @@\n-a\n+b\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// largeInputs builds a ~20,000-line file and a copy with a few scattered
// edits, the shape Unified is expected to handle quickly.
func largeInputs() (old, new []byte) {
	const n = 20000
	var a, b strings.Builder
	for i := 1; i <= n; i++ {
		line := fmt.Sprintf("line %d: some generated content\n", i)
		a.WriteString(line)
		switch i {
		case 100:
			b.WriteString("inserted before 100\n")
			b.WriteString(line)
		case 5000:
			// deleted
		case 12345:
			b.WriteString("changed 12345\n")
		case 19999:
			b.WriteString(line)
			b.WriteString("inserted after 19999\n")
		default:
			b.WriteString(line)
		}
	}
	return []byte(a.String()), []byte(b.String())
}

func TestUnifiedLarge(t *testing.T) {
	old, new := largeInputs()
	// No time is asserted (BenchmarkUnified measures it); a quadratic
	// search would trip the test timeout.
	got := Unified("big", "big", old, new)
	if n := strings.Count(got, "\n@@ "); n != 4 {
		t.Errorf("got %d hunks, want 4:\n%s", n, got)
	}
	if plus, minus := countChanges(got); plus != 3 || minus != 2 {
		t.Errorf("got +%d -%d changed lines, want +3 -2", plus, minus)
	}
	checkPatch(t, string(old), string(new), got)
}

// TestUnifiedRewrite guards against the worst case for an O(ND) search:
// every line differs, so D equals the total length.
func TestUnifiedRewrite(t *testing.T) {
	var a, b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&a, "old %d\n", i)
		fmt.Fprintf(&b, "new %d\n", i)
	}
	got := Unified("f", "f", []byte(a.String()), []byte(b.String()))
	if plus, minus := countChanges(got); plus != 20000 || minus != 20000 {
		t.Errorf("got +%d -%d, want +20000 -20000", plus, minus)
	}
}

func BenchmarkUnified(b *testing.B) {
	old, new := largeInputs()
	b.SetBytes(int64(len(old) + len(new)))
	b.ReportAllocs()
	for b.Loop() {
		Unified("big", "big", old, new)
	}
}

// TestUnifiedMatchesGNU checks random small edits against GNU diff. Where
// the two pick different (equally short) alignments, it falls back to
// checking that the patch is correct and changes as few lines as GNU's.
func TestUnifiedMatchesGNU(t *testing.T) {
	diffPath, err := exec.LookPath("diff")
	if err != nil {
		t.Skip("diff not installed")
	}
	if out, err := exec.Command(diffPath, "--version").Output(); err != nil ||
		!strings.Contains(string(out), "GNU diffutils") {
		t.Skip("diff is not GNU diffutils")
	}

	rng := rand.New(rand.NewPCG(20240601, 7))
	dir := t.TempDir()
	oldPath := filepath.Join(dir, "old")
	newPath := filepath.Join(dir, "new")
	const cases = 400
	exact := 0
	for i := range cases {
		old, new := randomPair(rng)
		if err := os.WriteFile(oldPath, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(newPath, []byte(new), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(diffPath, "-u", oldPath, newPath)
		// The "No newline" marker is translated in other locales.
		cmd.Env = append(os.Environ(), "LC_ALL=C")
		out, err := cmd.Output()
		var exitErr *exec.ExitError
		if err != nil && !(errors.As(err, &exitErr) && exitErr.ExitCode() == 1) {
			t.Fatalf("case %d: diff failed: %v", i, err)
		}
		gnu := stripHeader(string(out))

		got := Unified("old", "new", []byte(old), []byte(new))
		mine := stripHeader(got)
		if mine == gnu {
			exact++
			continue
		}
		if (gnu == "") != (mine == "") {
			t.Fatalf("case %d: old=%q new=%q\nGNU:\n%s\nmine:\n%s", i, old, new, gnu, mine)
		}
		checkPatch(t, old, new, got)
		gp, gm := countChanges(gnu)
		mp, mm := countChanges(mine)
		if gp != mp || gm != mm {
			t.Errorf("case %d: old=%q new=%q: GNU changes +%d -%d, mine +%d -%d\nGNU:\n%s\nmine:\n%s",
				i, old, new, gp, gm, mp, mm, gnu, mine)
		}
	}
	t.Logf("%d/%d cases identical to GNU diff -u; the rest verified by patching", exact, cases)
}

// randomPair draws lines from a tiny alphabet so that repeated lines, and
// therefore ambiguous alignments, are common.
func randomPair(rng *rand.Rand) (old, new string) {
	alphabet := []string{"a", "b", "c", "d", "e", "f"}
	n := rng.IntN(30)
	a := make([]string, n)
	for i := range a {
		a[i] = alphabet[rng.IntN(len(alphabet))]
	}
	b := append([]string(nil), a...)
	for range rng.IntN(5) {
		switch op := rng.IntN(3); {
		case op == 0 || len(b) == 0:
			i := rng.IntN(len(b) + 1)
			b = append(b[:i], append([]string{alphabet[rng.IntN(len(alphabet))]}, b[i:]...)...)
		case op == 1:
			i := rng.IntN(len(b))
			b = append(b[:i], b[i+1:]...)
		default:
			b[rng.IntN(len(b))] = alphabet[rng.IntN(len(alphabet))]
		}
	}
	join := func(lines []string) string {
		if len(lines) == 0 {
			return ""
		}
		s := strings.Join(lines, "\n")
		if rng.IntN(5) != 0 {
			s += "\n"
		}
		return s
	}
	return join(a), join(b)
}

// stripHeader drops the "---" and "+++" lines, which differ from GNU's
// (it adds timestamps and uses the real paths).
func stripHeader(d string) string {
	for range 2 {
		if i := strings.IndexByte(d, '\n'); i >= 0 {
			d = d[i+1:]
		} else {
			d = ""
		}
	}
	return d
}

// countChanges counts added and removed lines in a unified diff body.
func countChanges(d string) (plus, minus int) {
	for _, l := range strings.Split(d, "\n") {
		switch {
		case strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "):
		case strings.HasPrefix(l, "+"):
			plus++
		case strings.HasPrefix(l, "-"):
			minus++
		}
	}
	return plus, minus
}

// checkPatch fails the test unless applying d to old gives exactly new.
func checkPatch(t *testing.T, old, new, d string) {
	t.Helper()
	got, err := applyUnified(old, d)
	if err != nil {
		t.Fatalf("applying diff: %v\nold=%q\ndiff:\n%s", err, old, d)
	}
	if got != new {
		t.Fatalf("patched result differs\n got=%q\nwant=%q\ndiff:\n%s", got, new, d)
	}
}

// applyUnified is a strict patch applier: context and removed lines must
// match old exactly at the position the header names, and the header
// counts must agree with the body, so it also validates the hunk headers.
func applyUnified(old, d string) (string, error) {
	a := strings.SplitAfter(old, "\n")
	if a[len(a)-1] == "" {
		a = a[:len(a)-1]
	}
	lines := strings.SplitAfter(d, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", errors.New("missing file headers")
	}
	lines = lines[2:]

	// text returns body line i without its prefix, restoring the newline
	// unless a "\ No newline" marker follows.
	text := func(i int) string {
		s := lines[i][1:]
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], `\ `) {
			s = strings.TrimSuffix(s, "\n")
		}
		return s
	}

	var out []string
	pos := 0 // next unconsumed line of a
	for i := 0; i < len(lines); {
		var oStart, oLen, nStart, nLen int
		if _, err := fmt.Sscanf(normalizeHeader(lines[i]), "@@ -%d,%d +%d,%d @@\n", &oStart, &oLen, &nStart, &nLen); err != nil {
			return "", fmt.Errorf("bad hunk header %q: %v", lines[i], err)
		}
		i++
		start := oStart - 1
		if oLen == 0 {
			start = oStart
		}
		if start < pos || start > len(a) {
			return "", fmt.Errorf("hunk %q out of order or range", lines[i-1])
		}
		out = append(out, a[pos:start]...)
		pos = start
		if wantNew := len(out) + 1; nLen > 0 && nStart != wantNew || nLen == 0 && nStart != wantNew-1 {
			return "", fmt.Errorf("hunk %q: new start %d, want %d", lines[i-1], nStart, wantNew)
		}
		gotOld, gotNew := 0, 0
		for ; i < len(lines) && !strings.HasPrefix(lines[i], "@@ "); i++ {
			l := lines[i]
			switch l[0] {
			case '\\':
				continue
			case ' ', '-':
				if pos >= len(a) || a[pos] != text(i) {
					return "", fmt.Errorf("line %q does not match old line %d", l, pos+1)
				}
				pos++
				gotOld++
				if l[0] == ' ' {
					out = append(out, text(i))
					gotNew++
				}
			case '+':
				out = append(out, text(i))
				gotNew++
			default:
				return "", fmt.Errorf("bad body line %q", l)
			}
		}
		if gotOld != oLen || gotNew != nLen {
			return "", fmt.Errorf("hunk at -%d: body has %d/%d lines, header says %d/%d", oStart, gotOld, gotNew, oLen, nLen)
		}
	}
	out = append(out, a[pos:]...)
	return strings.Join(out, ""), nil
}

// normalizeHeader expands the implicit ",1" counts so one Sscanf format
// parses every header.
func normalizeHeader(h string) string {
	f := strings.Fields(h)
	if len(f) != 4 {
		return h
	}
	for _, i := range []int{1, 2} {
		if !strings.Contains(f[i], ",") {
			f[i] += ",1"
		}
	}
	return strings.Join(f, " ") + "\n"
}
