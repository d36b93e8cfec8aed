package gengo

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// slogLevel is the log/slog constant of a contract log level: slog names
// its levels as contracts do (warn -> LevelWarn).
func slogLevel(l contract.LogLevel) string { return "Level" + l.Idents().Go }

// entry is one key: value of a Classification literal. The classification
// table is written pre-formatted (see classificationRows) and the fallback
// with jennifer, so an entry can be printed both ways from one definition.
type entry struct {
	key  string
	lit  any    // a string, int or bool literal; or
	id   string // an identifier of the generated package; or
	slog string // an identifier of log/slog
}

func (e entry) code() jen.Code {
	k := jen.Id(e.key).Op(":")
	switch {
	case e.slog != "":
		return k.Qual("log/slog", e.slog)
	case e.id != "":
		return k.Id(e.id)
	}
	return k.Lit(e.lit)
}

// writeText writes the value as gofmt prints it: literals as jennifer's Lit
// spells them (%#v, which for these types is strconv's quoting and
// formatting), appended straight into b rather than made a string each.
func (e entry) writeText(b *bytes.Buffer) {
	switch v := e.lit.(type) {
	case nil: // log/slog is the file's only import, so jennifer never renames it.
		if e.slog != "" {
			b.WriteString("slog.")
		}
		b.WriteString(e.slog)
		b.WriteString(e.id)
	case string:
		b.Write(strconv.AppendQuote(b.AvailableBuffer(), v))
	case int:
		b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(v), 10))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	default:
		panic(fmt.Sprintf("gengo: entry %s has a literal of type %T", e.key, e.lit))
	}
}

// classificationValues appends to buf the struct fields shared by every
// table entry and the fallback (every kind's row reuses one buffer).
func (g *gen) classificationValues(buf []entry, cl *contract.Classification) []entry {
	return append(buf, []entry{
		{key: "Origin", id: "Origin" + cl.Origin.Idents.Go},
		{key: "Action", id: "RecoveryAction" + cl.Recovery.Action.Idents.Go},
		{key: "SameArguments", id: "SameArguments" + cl.Recovery.SameArguments.Idents.Go},
		{key: "Guidance", lit: cl.Recovery.Guidance},
		{key: "SideEffects", id: "SideEffects" + cl.SideEffects.Idents.Go},
		{key: "HTTPStatus", lit: cl.HTTP},
		{key: "GRPCCode", lit: cl.GRPC.Number},
		{key: "GRPCStatus", lit: cl.GRPC.Name},
		{key: "LogLevel", slog: slogLevel(cl.Log)},
		{key: "Breaker", lit: cl.Breaker},
		{key: "Retryable", lit: cl.Retryable()},
	}...)
}

// kindEntries returns the table entry of k.
func (g *gen) kindEntries(k *contract.Kind, buf []entry) []entry {
	buf = append(buf[:0],
		entry{key: "Kind", id: kindConst(k)},
		entry{key: "Known", lit: true},
		entry{key: "Group", id: "Group" + k.Group.Idents.Go},
	)
	buf = g.classificationValues(buf, &k.Classification)
	buf = append(buf, entry{key: "Description", lit: k.Description}, entry{key: "Reason", lit: k.Reason})
	if k.Startup {
		buf = append(buf, entry{key: "Startup", lit: true})
	}
	return append(buf, entry{key: "Number", lit: number(g.c, k)})
}

// classification emits the contract's classifications, which the
// runtime's Lookup reads (runtime/go/_src/lookup.go declares the
// Classification type): the table, the fallback, kindIndex and KindByNumber.
func (g *gen) classification(f *jen.File) {
	c := g.c
	// The array's declared length is a compile-time guard: an entry more or
	// less than the contract's kind count does not compile.
	f.Comment("// classifications holds one entry per known kind, in contract order; kindIndex maps a kind to its entry.")
	// The entries, and the cases of the two switches below, are written
	// pre-formatted (see classificationSpliced); placeholders hold their place.
	rows := jen.Line()
	if len(c.Kinds) > 0 {
		rows.Id(placeholderTable).Op(",").Line()
	}
	f.Var().Id("classifications").Op("=").Index(jen.Lit(len(c.Kinds))).Id("Classification").Values(rows)
	f.Line()
	var fb []jen.Code
	for _, e := range g.classificationValues(nil, &c.Fallback.Classification) {
		fb = append(fb, e.code())
	}
	fb = append(fb, jen.Id("Number").Op(":").Lit(-1))
	f.Comment("// fallback classifies every kind the contract does not list.")
	f.Var().Id("fallback").Op("=").Id("Classification").Add(multiline(fb...))
	f.Line()
	// A switch compiles to a binary search over constant strings: no map to
	// build at init and no allocation per lookup.
	f.Func().Id("kindIndex").Params(jen.Id("k").Id("Kind")).Int().BlockFunc(func(gr *jen.Group) {
		gr.Switch(jen.Id("k")).BlockFunc(func(sw *jen.Group) {
			if len(c.Kinds) > 0 {
				sw.Case(jen.Id(placeholderKindIndex))
			}
		})
		gr.Return(jen.Lit(-1))
	})
	f.Line()
	if c.Numbered {
		docf(f, "KindByNumber returns the kind with the stable numeric code n.")
		f.Func().Id("KindByNumber").Params(jen.Id("n").Int()).Params(jen.Id("Kind"), jen.Bool()).BlockFunc(func(gr *jen.Group) {
			gr.Switch(jen.Id("n")).BlockFunc(func(sw *jen.Group) {
				if len(c.Kinds) > 0 {
					sw.Case(jen.Id(placeholderKindNumber))
				}
			})
			gr.Return(jen.Lit(""), jen.False())
		})
	}
}

// classificationSpliced writes the per-kind parts of classification.go: the
// table's entries and the cases of kindIndex and KindByNumber. A case is two
// lines that gofmt never lays out otherwise. Each table entry is laid out
// alone: one key: value per line, values aligned one space past the longest
// key in the entry (keys are short field names, so gofmt never breaks the
// alignment; see go/printer's exprList). The one exception is a value so
// long that go/printer stops measuring it; the file is then formatted after
// all.
func (g *gen) classificationSpliced() []splice {
	c := g.c
	if len(c.Kinds) == 0 {
		return nil
	}
	out := []splice{
		{"\t" + placeholderTable + ",", g.tableRows},
		{"\tcase " + placeholderKindIndex + ":", func(b *bytes.Buffer) bool {
			for i, k := range grown(b, c.Kinds) {
				b.WriteString("\tcase ")
				b.WriteString(kindConst(k))
				b.WriteString(":\n\t\treturn ")
				b.WriteString(strconv.Itoa(i))
				b.WriteByte('\n')
			}
			return false
		}},
	}
	if c.Numbered {
		out = append(out, splice{"\tcase " + placeholderKindNumber + ":", func(b *bytes.Buffer) bool {
			for _, k := range grown(b, c.Kinds) {
				b.WriteString("\tcase ")
				b.WriteString(strconv.Itoa(k.Number))
				b.WriteString(":\n\t\treturn ")
				b.WriteString(kindConst(k))
				b.WriteString(", true\n")
			}
			return false
		}})
	}
	return out
}

func (g *gen) tableRows(b *bytes.Buffer) (unusual bool) {
	var entries []entry
	for _, k := range grown(b, g.c.Kinds) {
		entries = g.kindEntries(k, entries)
		width := 0
		for _, e := range entries {
			width = max(width, len(e.key))
		}
		b.WriteString("\t{\n")
		for _, e := range entries {
			b.WriteString("\t\t")
			b.WriteString(e.key)
			b.WriteByte(':')
			for range width - len(e.key) + 1 {
				b.WriteByte(' ')
			}
			at := b.Len()
			e.writeText(b)
			unusual = unusual || b.Len()-at > maxMeasured
			b.WriteString(",\n")
		}
		b.WriteString("\t},\n")
	}
	return unusual
}

// maxMeasured is a bound, with room to spare, on the values go/printer
// measures before aligning a key: value line with its neighbours (it gives
// up past 1e6 bytes).
const maxMeasured = 500_000

// multiline renders a composite literal body with one element per line;
// jennifer's Values would put them all on one line.
func multiline(items ...jen.Code) *jen.Statement {
	body := jen.Line()
	for _, it := range items {
		body.Add(it).Op(",").Line()
	}
	return jen.Values(body)
}

// number is the kind's numeric code, or -1 when the contract has none.
func number(c *contract.Contract, k *contract.Kind) int {
	if c.Numbered {
		return k.Number
	}
	return -1
}
