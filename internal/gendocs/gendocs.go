// Package gendocs renders the Markdown reference of a contract from the
// templates in templates/docs. This package builds the view the templates
// read (escaped text, anchors, examples); the templates only lay it out.
package gendocs

import (
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
	"text/template"
	"unicode/utf8"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/render"
	"github.com/errgen/errgen/internal/targets"
	"github.com/errgen/errgen/templates"
)

// Header is the first line of every page, as an HTML comment GitHub hides.
const Header = "<!-- " + marker.Text + " -->"

// Dir is where the pages go, relative to the output root.
func Dir(o targets.Options) string { return o.Dir(targets.Docs) }

// pages are the generated pages of c, each rendered from <page>.tmpl.
func pages(c *contract.Contract) []string {
	out := []string{"README.md", "kinds.md", "http.md", "agents.md"}
	if c.Inbound != nil {
		out = append(out, "inbound.md")
	}
	return out
}

// pageTemplates are compiled (render.Compile): kinds.md and http.md show
// every kind, and text/template cost more than the rest of the emitter on a
// large contract.
var pageTemplates = render.ParseFS("docs", funcs, templates.FS, "docs/*.md.tmpl")

// Generate renders every page of c.
func Generate(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	v := newView(c, o)
	out := map[string][]byte{}
	// One buffer for every page: tidy copies each out, and the buffer then
	// only grows to the largest page instead of growing again for each.
	// kinds.md, the largest, goes last and keeps the buffer, tidied in
	// place, instead of a copy of its megabytes.
	var buf bytes.Buffer
	buf.Grow(kindsPageSize(v))
	all := pages(c)
	for i, page := range all {
		if page == kindsPage && i < len(all)-1 {
			all = append(append(all[:i:i], all[i+1:]...), kindsPage)
			break
		}
	}
	for _, page := range all {
		buf.Reset()
		if err := pageTemplates.ExecuteTemplate(&buf, page+".tmpl", v); err != nil {
			return nil, fmt.Errorf("gendocs: %s: %w", page, err)
		}
		if page == kindsPage {
			out[path.Join(Dir(o), page)] = tidyInto(buf.Bytes()[:0], buf.Bytes())
		} else {
			out[path.Join(Dir(o), page)] = tidy(buf.Bytes())
		}
	}
	return out, nil
}

const kindsPage = "kinds.md"

// kindsPageSize is a little more than the size of kinds.md, the largest
// page, as its template writes it: each kind's example, texts and fields,
// and about 460 bytes of table and headings a kind (480 here). The page
// buffer is allocated once at this size instead of doubling up to the 11 MB
// page of 10,000 kinds.
func kindsPageSize(v *view) int {
	n := 16 << 10
	for _, k := range v.Kinds {
		n += 480 + len(k.Example) + len(k.DescriptionMD) + len(k.GuidanceMD) + 3*len(k.NameMD)
		for _, f := range k.Fields {
			n += 40 + len(f.Doc) + 2*len(f.Name)
		}
	}
	return n
}

// tidy collapses the blank lines template actions leave behind and ends the
// page with exactly one newline, in a copy of the page's bytes.
func tidy(b []byte) []byte {
	return tidyInto(make([]byte, 0, len(bytes.TrimSpace(b))+1), b)
}

// tidyInto appends tidy(b) to out, which may be b[:0]: each line is written
// at or before where it was read, so it works in place on the page's bytes
// (the kinds page of a large contract runs to megabytes).
func tidyInto(out, b []byte) []byte {
	rest := bytes.TrimSpace(b)
	inFence, prevBlank := false, false
	for n := 0; ; n++ {
		line, more := rest, false
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest, more = rest[:i], rest[i+1:], true
		}
		line = bytes.TrimRight(line, " \t")
		if bytes.HasPrefix(line, []byte("```")) {
			inFence = !inFence
		}
		blank := len(line) == 0
		if inFence || !blank || n == 0 || !prevBlank {
			out = append(out, line...)
			out = append(out, '\n')
			prevBlank = blank
		}
		if !more {
			return out
		}
	}
}

var funcs = template.FuncMap{
	"md":   Text,
	"cell": Cell,
	"code": Code,
	"join": strings.Join,
	"from": From,
	"pct":  func(f float64) string { return strconv.FormatFloat(f*100, 'f', -1, 64) + "%" },
	"exitCode": func(c *contract.Contract, o *contract.Origin) int {
		return c.Surfaces.CLI.ExitCode(&contract.Classification{Origin: o})
	},
}

// mdSpecial are the ASCII characters that can start or end Markdown
// constructs inside a line (emphasis, code, links, HTML, tables, math,
// strikethrough). GitHub honours a backslash before any ASCII punctuation.
const mdSpecial = "\\`*_[]<>|~$&"

// Text escapes s for Markdown prose and keeps it on one source line, so a
// line of the contract's text can never start a heading, list or fence:
// every way contract text enters a page goes through it (the kinds' text
// through the view, the rest through the templates' md and cell). Line
// breaks become <br>, which continues the line, so only the start of s can
// open a block: blockStart escapes it there.
func Text(s string) string {
	s = strings.TrimSpace(s)
	if plainText(s) {
		return blockStart(s)
	}
	// Byte by byte where s is ASCII, rune by rune elsewhere (an ill-formed
	// byte becomes U+FFFD, as ranging over s makes it); grown once.
	var b strings.Builder
	b.Grow(len(s) + len(s)/4 + 8)
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			switch {
			case c == '\n':
				b.WriteString("<br>")
			case c == '\r':
			case c < 0x20 || c == 0x7f:
				b.WriteByte(' ')
			case isMDSpecial[c]:
				b.WriteByte('\\')
				b.WriteByte(c)
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\u2028' || r == '\u2029' {
			b.WriteString("<br>")
		} else {
			b.WriteRune(r)
		}
		i += size
	}
	return blockStart(b.String())
}

// isMDSpecial marks mdSpecial's characters.
var isMDSpecial = func() (is [utf8.RuneSelf]bool) {
	for i := 0; i < len(mdSpecial); i++ {
		is[mdSpecial[i]] = true
	}
	return is
}()

// blockStart escapes the character that would make s, at the start of a
// line, open a block other than a paragraph. Text escapes the rest of
// CommonMark's and GitHub's block starts everywhere (mdSpecial: > quotes,
// * lists and breaks, ``` and ~~~ fences, < HTML, | tables, [ link
// definitions and footnotes, $$ math); these are the ones that are
// ordinary text inside a line: # headings, - and + lists, - and = setext
// underlines and thematic breaks, and 1. or 1) ordered lists. Leading
// blanks (indented code) are trimmed already. A backslash before ASCII
// punctuation renders as the character alone.
func blockStart(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '#', '-', '+', '=':
		return "\\" + s
	}
	digits := 0
	for digits < len(s) && s[digits] >= '0' && s[digits] <= '9' {
		digits++
	}
	if digits > 0 && digits <= 9 && digits < len(s) && (s[digits] == '.' || s[digits] == ')') {
		return s[:digits] + "\\" + s[digits:]
	}
	return s
}

// plainText reports whether Text would return s as it is: printable ASCII
// without Markdown's special characters, as most of a contract's text is.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || isMDSpecial[c] {
			return false
		}
	}
	return true
}

// Cell is Text for a table cell; Text already escapes the pipe.
func Cell(s string) string { return Text(s) }

// Code renders s as an inline code span. Backslashes do not escape inside
// code spans, so the fence is made longer than any backtick run in s. Line
// breaks become spaces and pipes are escaped, so the span fits in a table
// cell. It runs for most values of every page, hence one pass and one
// allocation.
func Code(s string) string {
	longest, run, extra := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '`':
			run++
			longest = max(longest, run)
			continue
		case '|':
			extra++
		}
		run = 0
	}
	pad := strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`")
	var b strings.Builder
	b.Grow(2*(longest+1) + len(s) + extra + 2)
	fence := func() {
		for range longest + 1 {
			b.WriteByte('`')
		}
	}
	fence()
	if pad {
		b.WriteByte(' ')
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n', '\r':
			b.WriteByte(' ')
		case '|':
			b.WriteString("\\|")
		default:
			b.WriteByte(c)
		}
	}
	if pad {
		b.WriteByte(' ')
	}
	fence()
	return b.String()
}

// Slug is the anchor GitHub gives a heading with this text: lower case,
// punctuation other than - and _ dropped, spaces turned into hyphens.
func Slug(heading string) string {
	var b strings.Builder
	b.Grow(len(heading))
	for i := 0; i < len(heading); i++ {
		c := heading[i]
		if c >= utf8.RuneSelf {
			return slugUnicode(heading)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z':
			b.WriteByte(c)
		}
	}
	return b.String()
}

// slugUnicode is Slug of a heading that is not all ASCII.
func slugUnicode(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 0x7f:
			b.WriteRune(r)
		}
	}
	return b.String()
}
