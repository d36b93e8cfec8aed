package gengo

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPlainDocLine checks the promise the Kind constants' fast path rests
// on: a comment line plainDocLine accepts comes out of go/format (which
// rewrites it as a doc comment) exactly as it went in.
func TestPlainDocLine(t *testing.T) {
	pieces := []string{"a", "Kind", "x", " ", "  ", ".", ",", ";", ":", "(", ")", "-", "*", "+", "#", "1.", "2)",
		"_", "`", "'", "\"", "\\", "/", "//", "/*", "*/", "<", ">", "&", "%", "{", "}", "|", "~", "http", "://",
		"https://example.com", "Heading", "TODO", "BUG(x)", "go:generate", "Deprecated:", "e.g.", "!", "?", "=", "0", "9"}
	r := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for range 3000 {
		var b strings.Builder
		b.WriteString("// KindX")
		for range r.IntN(12) {
			if r.IntN(3) == 0 {
				b.WriteByte(' ')
			}
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		line := strings.TrimRight(b.String(), " ")
		if !plainDocLine(line) {
			continue
		}
		checked++
		spec := `KindX Kind = "x"`
		want := "\t" + line + "\n\t" + spec + "\n"
		if got := string(formatConstSpec([]string{line}, spec)); got != want {
			t.Errorf("go/format rewrites a line plainDocLine accepts:\n%q\nbecomes\n%q", want, got)
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d lines were plain; the generator of lines is off", checked)
	}
}
