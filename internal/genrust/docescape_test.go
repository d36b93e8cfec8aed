package genrust

import (
	"bytes"
	"strings"
	"testing"
)

// docEscaper is the replacer writeDocEscaped stands for.
var docEscaper = strings.NewReplacer("[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "`", "'", "*", `\*`, "_", `\_`, "#", `\#`, "|", `\|`)

// TestDocEscaped holds writeDocEscaped to the replacer it stands for, on
// texts with every mark, at the ends and in runs, and with multi-byte text.
func TestDocEscaped(t *testing.T) {
	for _, s := range []string{"", "plain", "[a]", "<T>", "`code`", "a*b_c#d|e", "__init__", "##", "é[ü]`", "x`", "`", "a |b| c ", "[[]]<<>>"} {
		var b bytes.Buffer
		writeDocEscaped(&b, s)
		if want := docEscaper.Replace(s); b.String() != want {
			t.Errorf("writeDocEscaped(%q) = %q, want %q", s, b.String(), want)
		}
	}
}
