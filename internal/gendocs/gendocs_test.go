package gendocs_test

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	ghtml "github.com/yuin/goldmark/renderer/html"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/gendocs"
	"github.com/errgen/errgen/internal/gentest"
	"github.com/errgen/errgen/internal/targets"
)

var contracts = []string{"../../contract/kinds.yaml", "../../examples/agento/kinds.yaml", "../../examples/ovstorage/kinds.yaml",
	"../gengo/testdata/minimal/kinds.yaml", "../gengo/testdata/escaping/kinds.yaml"}

func render(t *testing.T, path string) (*contract.Contract, map[string]string) {
	t.Helper()
	c := gentest.Load(t, path)
	files, err := gendocs.Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	for p, data := range files {
		pages[filepath.Base(p)] = string(data)
	}
	return c, pages
}

// githubSlugs returns the anchors GitHub creates for a page's headings,
// with its -1, -2 suffixes for repeated headings. Written independently of
// gendocs.Slug so the two check each other.
func githubSlugs(page string) map[string]bool {
	slugs := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
		}
		m := regexp.MustCompile(`^#{1,6} (.*)$`).FindStringSubmatch(line)
		if inFence || m == nil {
			continue
		}
		text := regexp.MustCompile(`\\(.)`).ReplaceAllString(m[1], "$1") // rendered text drops escapes
		text = strings.ReplaceAll(text, "`", "")
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			if r == ' ' {
				b.WriteRune('-')
			} else if r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if n := seen[slug]; n > 0 {
			seen[slug]++
			slug = slug + "-" + string(rune('0'+n))
		} else {
			seen[slug] = 1
		}
		slugs[slug] = true
	}
	return slugs
}

var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

func TestLinksAndAnchorsResolve(t *testing.T) {
	for _, cp := range contracts {
		c, pages := render(t, cp)
		anchors := map[string]map[string]bool{}
		for name, page := range pages {
			anchors[name] = githubSlugs(page)
		}
		for name, page := range pages {
			for _, m := range link.FindAllStringSubmatch(page, -1) {
				target := m[1]
				file, anchor, _ := strings.Cut(target, "#")
				switch {
				case strings.HasPrefix(file, "../"):
					// Links out of docs/ point at other generated outputs.
					schema := strings.HasPrefix(file, "../schemas/") && strings.HasSuffix(file, ".schema.json")
					openapi := file == "../openapi/"+c.Name+".errors.yaml"
					if !schema && !openapi {
						t.Errorf("%s: %s: unexpected link %s", c.Name, name, target)
					}
					continue
				case file == "":
					file = name
				}
				if _, ok := pages[file]; !ok {
					t.Errorf("%s: %s links to %s, which is not a page", c.Name, name, target)
					continue
				}
				if anchor != "" && !anchors[file][anchor] {
					t.Errorf("%s: %s links to %s, but %s has no such anchor", c.Name, name, target, file)
				}
			}
		}
	}
}

func TestSchemaLinksPointAtGeneratedSchemas(t *testing.T) {
	_, pages := render(t, "../../contract/kinds.yaml")
	for _, m := range link.FindAllStringSubmatch(pages["README.md"], -1) {
		if f, ok := strings.CutPrefix(m[1], "../schemas/"); ok {
			if _, err := os.Stat(path.Join("../../schemas", f)); err != nil {
				t.Errorf("README.md links to %s: %v", m[1], err)
			}
		}
	}
}

func TestEveryKindIsDocumented(t *testing.T) {
	for _, cp := range contracts {
		c, pages := render(t, cp)
		slugs := githubSlugs(pages["kinds.md"])
		for _, k := range c.Kinds {
			if !slugs[gendocs.Slug(k.Name)] {
				t.Errorf("%s: kind %s has no section in kinds.md", c.Name, k.Name)
			}
			if !strings.Contains(pages["kinds.md"], "](#"+gendocs.Slug(k.Name)+")") {
				t.Errorf("%s: kind %s is missing from its group's table", c.Name, k.Name)
			}
			if !strings.Contains(pages["http.md"], "kinds.md#"+gendocs.Slug(k.Name)) {
				t.Errorf("%s: kind %s is missing from http.md", c.Name, k.Name)
			}
		}
		for _, r := range c.Retired {
			if !strings.Contains(pages["README.md"], r.Name) {
				t.Errorf("%s: retired kind %s is not documented", c.Name, r.Name)
			}
		}
		if !strings.Contains(pages["agents.md"], "```mermaid\nflowchart TD") {
			t.Errorf("%s: agents.md has no Mermaid flowchart", c.Name)
		}
	}
}

// GitHub renders a small safe subset of raw HTML, <br> among them; goldmark
// drops all raw HTML unless told otherwise.
var md = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(ghtml.WithUnsafe()))

// TestRendersAsIntended renders every page with a GFM renderer: each table
// row has as many cells as its header (an unescaped | in contract text would
// add one), and the contract's strings come out as text, exactly.
func TestRendersAsIntended(t *testing.T) {
	for _, cp := range contracts {
		c, pages := render(t, cp)
		for name, page := range pages {
			var out bytes.Buffer
			if err := md.Convert([]byte(page), &out); err != nil {
				t.Fatal(err)
			}
			h := out.String()
			for _, table := range regexp.MustCompile(`(?s)<table>.*?</table>`).FindAllString(h, -1) {
				rows := regexp.MustCompile(`(?s)<tr>.*?</tr>`).FindAllString(table, -1)
				want := strings.Count(rows[0], "<th")
				for _, row := range rows[1:] {
					if got := strings.Count(row, "<td"); got != want {
						t.Errorf("%s: %s: a row has %d cells, its header %d:\n%s", c.Name, name, got, want, row)
					}
				}
			}
			if name != "kinds.md" {
				continue
			}
			// Each kind's description is a paragraph of its own; its text
			// must survive escaping and rendering unchanged (line breaks
			// become <br>).
			text := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllStringFunc(h, func(tag string) string {
				if strings.HasPrefix(tag, "<br") {
					return "\n"
				}
				return ""
			}))
			for _, k := range c.Kinds {
				want := strings.NewReplacer("\u2028", "\n", "\u2029", "\n", "\t", " ").Replace(strings.TrimSpace(k.Description))
				if !strings.Contains(text, want) {
					t.Errorf("%s: the description of %s does not render as written:\n%q", c.Name, k.Name, want)
				}
			}
		}
	}
}

func TestCode(t *testing.T) {
	for in, want := range map[string]string{
		"plain":    "`plain`",
		"a`b":      "``a`b``",
		"`edge":    "`` `edge ``",
		"x``y":     "```x``y```",
		"pipe|ish": "`pipe\\|ish`",
	} {
		if got := gendocs.Code(in); got != want {
			t.Errorf("Code(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAgreementsAreDocumented: the inbound page shows every agreement with
// its description and each classifier's kinds, linked to the classifier's
// section and the kinds' entries, and a page without agreements has no such
// section.
func TestAgreementsAreDocumented(t *testing.T) {
	for _, cp := range append([]string{"../contract/testdata/valid/inbound_agreements/kinds.yaml"}, contracts...) {
		c, pages := render(t, cp)
		page := pages["inbound.md"]
		if c.Inbound == nil || len(c.Inbound.Agreements) == 0 {
			if strings.Contains(page, "## Classifier agreements") {
				t.Errorf("%s: an agreements section without agreements", c.Name)
			}
			continue
		}
		var out bytes.Buffer
		if err := md.Convert([]byte(page), &out); err != nil {
			t.Fatal(err)
		}
		text := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(out.String(), ""))
		slugs := githubSlugs(page)
		for _, a := range c.Inbound.Agreements {
			if !strings.Contains(text, a.Name+": "+strings.TrimSpace(a.Description)) {
				t.Errorf("%s: agreement %s and its description are not on the inbound page", c.Name, a.Name)
			}
			for _, s := range a.Sides {
				var kinds []string
				for _, k := range s.Kinds {
					kinds = append(kinds, fmt.Sprintf("[`%s`](kinds.md#%s)", k.Name, gendocs.Slug(k.Name)))
				}
				line := fmt.Sprintf("- [`%s`](#%s): %s\n", s.Classifier.Name, gendocs.Slug(s.Classifier.Name), strings.Join(kinds, ", "))
				if !strings.Contains(page, line) {
					t.Errorf("%s: agreement %s: no line %q", c.Name, a.Name, line)
				}
				if !slugs[gendocs.Slug(s.Classifier.Name)] {
					t.Errorf("%s: agreement %s links to classifier %s, which has no section", c.Name, a.Name, s.Classifier.Name)
				}
			}
		}
	}
}

// blockTags are the HTML elements of Markdown's blocks other than
// paragraphs and tables' cells.
var blockTags = regexp.MustCompile(`<(h[1-6]|ul|ol|li|blockquote|pre|code|hr|table|div|dl|sup)[ >]`)

// TestContractTextOpensNoBlock (issue 28, item 17): contract text that
// starts with, or has a line starting with, any Markdown block syntax
// renders as the text it is on every page, wherever it lands (a paragraph
// of its own, a list item's text, a table cell): the pages have exactly the
// blocks they have with plain text, and the text survives.
func TestContractTextOpensNoBlock(t *testing.T) {
	constructs := []string{"# heading", "###### deep", "- item", "+ item", "* item", "1. first", "12) twelfth",
		"> quote", "| a | b |", "```go", "~~~", "<div>html</div>", "===", "---", "***", "___", "[ref]: https://example.com",
		"[^1]: note", "$$", "- [ ] task", "#hashtag-like", "-1 below zero", "1.5 is a number"}
	build := func(plain bool) map[string]string {
		c := gentest.Load(t, "../../contract/kinds.yaml")
		i := 0
		next := func() string {
			if plain {
				return "Plain text."
			}
			s := constructs[i%len(constructs)]
			// The first line carries one construct, a later one the next.
			s += "\n" + constructs[(i+1)%len(constructs)]
			i++
			return s
		}
		c.Description = next()
		for _, g := range c.Groups {
			g.Description = next()
		}
		for _, k := range c.Kinds {
			k.Description = next()
			for _, f := range k.Fields {
				f.Description = next()
			}
		}
		for _, cl := range c.Inbound.Classifiers {
			cl.Description = next()
		}
		for _, a := range c.Inbound.Agreements {
			a.Description = next()
		}
		for _, o := range c.Origins {
			o.Description = next()
		}
		files, err := gendocs.Generate(c, targets.Defaults(c.Name))
		if err != nil {
			t.Fatal(err)
		}
		pages := map[string]string{}
		for p, data := range files {
			var out bytes.Buffer
			if err := md.Convert(data, &out); err != nil {
				t.Fatal(err)
			}
			pages[path.Base(p)] = out.String()
		}
		return pages
	}
	plain, hostile := build(true), build(false)
	count := func(h string) map[string]int {
		n := map[string]int{}
		for _, m := range blockTags.FindAllStringSubmatch(h, -1) {
			n[m[1]]++
		}
		return n
	}
	for name, h := range hostile {
		if got, want := count(h), count(plain[name]); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: blocks %v, want %v as with plain text", name, got, want)
		}
	}
	text := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(hostile["kinds.md"]+hostile["README.md"]+hostile["inbound.md"], ""))
	for _, s := range constructs {
		if !strings.Contains(text, s) {
			t.Errorf("%q does not render as written", s)
		}
	}
}

// An importing contract's pages say where each value comes from: the
// overview lists the imports with their labels, so a new version of a base
// changes the pages, and every origin, group, kind and retired name the
// base brought says "From <base> (<label>)", while the service's own say
// nothing (a contract without imports keeps its pages byte for byte: make
// generate's outputs show that).
func TestImportedValuesSayWhereTheyComeFrom(t *testing.T) {
	dir := t.TempDir()
	base, err := os.ReadFile(filepath.Join("..", "contract", "testdata", "imports", "base.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	svc := "contract:\n  name: billing-error\nimports:\n  - path: ../platform/kinds.yaml\n" +
		"origins:\n  payments:\n    description: The payment provider.\n    side_effects: possible\n    log: warn\n" +
		"groups:\n  billing:\n    title: Billing\n    description: Paying.\n" +
		"kinds:\n  card_declined:\n    group: billing\n    description: The card was declined.\n    origin: payments\n    http: 402\n" +
		"    recovery:\n      action: revise\n      same_arguments: never\n      guidance: Ask for another card.\n"
	for file, text := range map[string]string{"platform/kinds.yaml": string(base), "billing/kinds.yaml": svc} {
		p := filepath.Join(dir, filepath.FromSlash(file))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := gentest.Load(t, filepath.Join(dir, "billing", "kinds.yaml"))
	files, err := gendocs.Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	readme, kinds := string(files["docs/README.md"]), string(files["docs/kinds.md"])
	from := "From platform-error (`../platform/kinds.yaml`)."
	for _, want := range []string{
		"| platform-error | `1` | `../platform/kinds.yaml` | this contract |",
		"| `upstream` | `possible` | warn | yes | An upstream service failed. " + from + " |",
		"| `payments` | `possible` | warn | no | The payment provider. |",
		"| `retry_later` | [retry](agents.md#the-steps) | Wait and try again. " + from + " |",
		"| `deadline_exceeded` | [`timeout`](kinds.md#timeout) | Merged into timeout. " + from + " |",
	} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md lacks %q", want)
		}
	}
	for _, want := range []string{
		"## Network\n\nTalking to upstreams.\n\n" + from + "\n",
		"## Billing\n\nPaying.\n\n| Kind",
		"### timeout\n\nThe upstream did not answer in time.\n\n" + from + "\n",
		"### card\\_declined\n\nThe card was declined.\n\n| Group",
	} {
		if !strings.Contains(kinds, want) {
			t.Errorf("kinds.md lacks %q", want)
		}
	}
}

// A value from an import by module names the module and file without the
// version, which the overview's imports table names once: an upgrade of
// the base changes that line, and what the base changed, not every value.
func TestFromLeavesTheVersionToTheOverview(t *testing.T) {
	i := &contract.Import{Name: "platform-error", Module: "example.com/platform/errors", ModuleVersion: "v1.2.0", ModuleFile: "contract/kinds.yaml"}
	if got, want := gendocs.From(i), "From platform-error (`example.com/platform/errors/contract/kinds.yaml`)."; got != want {
		t.Errorf("From = %s, want %s", got, want)
	}
	if got := gendocs.From(nil); got != "" {
		t.Errorf("From(nil) = %q; the contract's own values say nothing", got)
	}
}

// A contract imported through another is listed too, with the import it
// comes through, and its values say they come from it.
func TestTransitiveImportsAreListed(t *testing.T) {
	dir := t.TempDir()
	base, err := os.ReadFile(filepath.Join("..", "contract", "testdata", "imports", "base.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for file, text := range map[string]string{
		"platform/kinds.yaml": string(base),
		"payments/kinds.yaml": "contract:\n  name: payments-error\nimports:\n  - path: ../platform/kinds.yaml\n",
		"billing/kinds.yaml":  "contract:\n  name: billing-error\nimports:\n  - path: ../payments/kinds.yaml\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(file))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := gentest.Load(t, filepath.Join(dir, "billing", "kinds.yaml"))
	files, err := gendocs.Generate(c, targets.Defaults(c.Name))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(files["docs/README.md"])
	for _, want := range []string{
		"| payments-error | `1` | `../payments/kinds.yaml` | this contract |\n| platform-error | `1` | `../platform/kinds.yaml` | through payments-error |\n",
		"An upstream service failed. From platform-error (`../platform/kinds.yaml`). |",
	} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md lacks %q", want)
		}
	}
}
