// Package gendocs renders the Markdown reference of a contract from the
// templates in templates/docs. This package builds the view the templates
// read (escaped text, anchors, examples); the templates only lay it out.
package gendocs

import (
	"bytes"
	"fmt"
	"log/slog"
	"path"
	"strconv"
	"strings"
	"text/template"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/templates"
)

// Header is the first line of every page, as an HTML comment GitHub hides.
const Header = "<!-- " + marker.Text + " -->"

// Dir is where the pages go, relative to the output root.
func Dir(*contract.Contract) string { return "docs" }

// pages are the generated pages of c, each rendered from <page>.tmpl.
func pages(c *contract.Contract) []string {
	out := []string{"README.md", "kinds.md", "http.md", "agents.md"}
	if c.Inbound != nil {
		out = append(out, "inbound.md")
	}
	return out
}

var pageTemplates = template.Must(template.New("docs").Funcs(funcs).ParseFS(templates.FS, "docs/*.md.tmpl"))

// Generate renders every page of c.
func Generate(c *contract.Contract) (map[string][]byte, error) {
	v := newView(c)
	out := map[string][]byte{}
	for _, page := range pages(c) {
		var buf bytes.Buffer
		if err := pageTemplates.ExecuteTemplate(&buf, page+".tmpl", v); err != nil {
			return nil, fmt.Errorf("gendocs: %s: %w", page, err)
		}
		out[path.Join(Dir(c), page)] = tidy(buf.Bytes())
	}
	return out, nil
}

// tidy collapses the blank lines template actions leave behind and ends the
// page with exactly one newline.
func tidy(b []byte) []byte {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var out []string
	inFence := false
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
		}
		if !inFence && l == "" && len(out) > 0 && out[len(out)-1] == "" {
			continue
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

var funcs = template.FuncMap{
	"md":      Text,
	"cell":    Cell,
	"code":    Code,
	"join":    strings.Join,
	"logName": func(l slog.Level) string { return logNames[l] },
	"pct":     func(f float64) string { return strconv.FormatFloat(f*100, 'f', -1, 64) + "%" },
	"exitCode": func(c *contract.Contract, o *contract.Origin) int {
		return c.Surfaces.CLI.ExitCode(&contract.Classification{Origin: o})
	},
}

// mdSpecial are the ASCII characters that can start or end Markdown
// constructs inside a line (emphasis, code, links, HTML, tables, math,
// strikethrough). GitHub honours a backslash before any ASCII punctuation.
const mdSpecial = "\\`*_[]<>|~$&"

// Text escapes s for Markdown prose and keeps it on one source line, so a
// line of the contract's text can never start a heading, list or fence.
func Text(s string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r == '\n':
			b.WriteString("<br>")
		case r == '\r':
		case r == '\u2028' || r == '\u2029':
			b.WriteString("<br>")
		case r < 0x20 || r == 0x7f:
			b.WriteRune(' ')
		case strings.ContainsRune(mdSpecial, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Cell is Text for a table cell; Text already escapes the pipe.
func Cell(s string) string { return Text(s) }

// Code renders s as an inline code span. Backslashes do not escape inside
// code spans, so the fence is made longer than any backtick run in s.
func Code(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	s = strings.NewReplacer("\n", " ", "\r", " ", "|", "\\|").Replace(s)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// Slug is the anchor GitHub gives a heading with this text: lower case,
// punctuation other than - and _ dropped, spaces turned into hyphens.
func Slug(heading string) string {
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
