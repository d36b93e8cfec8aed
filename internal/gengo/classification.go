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

// text is the value as gofmt prints it: literals as jennifer's Lit spells
// them (%#v, which for these types is strconv's quoting and formatting).
func (e entry) text() string {
	switch {
	case e.slog != "":
		// log/slog is the file's only import, so jennifer never renames it.
		return "slog." + e.slog
	case e.id != "":
		return e.id
	}
	switch v := e.lit.(type) {
	case string:
		return strconv.Quote(v)
	case int:
		return strconv.Itoa(v)
	case bool:
		return strconv.FormatBool(v)
	}
	panic(fmt.Sprintf("gengo: entry %s has a literal of type %T", e.key, e.lit))
}

// classificationValues returns the struct fields shared by every table entry
// and the fallback.
func (g *gen) classificationValues(cl *contract.Classification) []entry {
	return []entry{
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
	}
}

// kindEntries returns the table entry of k.
func (g *gen) kindEntries(k *contract.Kind, buf []entry) []entry {
	buf = append(buf[:0],
		entry{key: "Kind", id: kindConst(k)},
		entry{key: "Known", lit: true},
		entry{key: "Group", id: "Group" + k.Group.Idents.Go},
	)
	buf = append(buf, g.classificationValues(&k.Classification)...)
	buf = append(buf, entry{key: "Description", lit: k.Description}, entry{key: "Reason", lit: k.Reason})
	if k.Startup {
		buf = append(buf, entry{key: "Startup", lit: true})
	}
	return append(buf, entry{key: "Number", lit: number(g.c, k)})
}

func (g *gen) classification(f *jen.File) {
	c := g.c
	docf(f, "Classification is everything the contract says about one kind: where it arises, what to do next, and how each surface reports it.")
	f.Type().Id("Classification").Struct(
		jen.Id("Kind").Id("Kind"),
		jen.Comment("// Known is false when Kind is not in the contract and the fallback applies."),
		jen.Id("Known").Bool(),
		jen.Comment("// Group is empty for an unknown kind."),
		jen.Id("Group").Id("Group"),
		jen.Id("Origin").Id("Origin"),
		jen.Id("Action").Id("RecoveryAction"),
		jen.Id("SameArguments").Id("SameArguments"),
		jen.Comment("// Guidance is the contract's default advice for the caller."),
		jen.Id("Guidance").String(),
		jen.Id("SideEffects").Id("SideEffects"),
		jen.Comment("// HTTPStatus is the status an HTTP surface answers with."),
		jen.Id("HTTPStatus").Int(),
		jen.Comment("// GRPCCode is the canonical gRPC code (google.rpc.Code) the google.rpc mapping reports,"),
		jen.Comment("// a number codes.Code converts; GRPCStatus is its name (AIP-193's \"status\")."),
		jen.Id("GRPCCode").Int(),
		jen.Id("GRPCStatus").String(),
		jen.Comment("// LogLevel is warn for caller-fixable failures and error for those an operator must handle."),
		jen.Id("LogLevel").Qual("log/slog", "Level"),
		jen.Comment("// Breaker is true for transport failures, which count toward an upstream's circuit breaker."),
		jen.Comment("// Completed tool errors never do."),
		jen.Id("Breaker").Bool(),
		jen.Comment("// Retryable is true when the action is a retry and same_arguments permits repeating the call."),
		jen.Id("Retryable").Bool(),
		jen.Id("Description").String(),
		jen.Comment("// Reason is the kind's ErrorInfo reason in the google.rpc mapping: its words in"),
		jen.Comment("// UPPER_SNAKE_CASE (AIP-193), computed the same way for a kind the contract does not list."),
		jen.Id("Reason").String(),
		jen.Comment("// Startup is true for failures raised while starting up or loading configuration"),
		jen.Comment("// rather than returned as the result of an operation."),
		jen.Id("Startup").Bool(),
		jen.Comment("// Number is the kind's stable numeric code; -1 when the contract has none."),
		jen.Id("Number").Int(),
	)
	f.Line()

	// The array's declared length is a compile-time guard: an entry more or
	// less than the contract's kind count does not compile.
	f.Comment("// classifications holds one entry per known kind, in contract order; kindIndex maps a kind to its entry.")
	// The entries, and the cases of the two switches below, are written
	// pre-formatted (see classificationSpliced); placeholders hold their place.
	table := jen.Line()
	if len(c.Kinds) > 0 {
		table.Id(placeholderTable).Op(",").Line()
	}
	f.Var().Id("classifications").Op("=").Index(jen.Lit(len(c.Kinds))).Id("Classification").Values(table)
	f.Line()
	var fb []jen.Code
	for _, e := range g.classificationValues(&c.Fallback.Classification) {
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
	docf(f, "Lookup returns the classification of kind. It never fails: a kind the contract does not list gets the fallback classification, with Known set to false and Kind kept as given.")
	f.Func().Id("Lookup").Params(jen.Id("kind").Id("Kind")).Id("Classification").Block(
		jen.If(jen.Id("i").Op(":=").Id("kindIndex").Call(jen.Id("kind")), jen.Id("i").Op(">=").Lit(0)).Block(
			jen.Return(jen.Id("classifications").Index(jen.Id("i"))),
		),
		jen.Id("c").Op(":=").Id("fallback"),
		jen.Id("c").Dot("Kind").Op("=").Id("kind"),
		jen.Id("c").Dot("Reason").Op("=").Id("aipReason").Call(jen.String().Call(jen.Id("kind"))),
		jen.Return(jen.Id("c")),
	)
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
		f.Line()
	}
	docf(f, "Fallback returns the classification every unknown kind gets.")
	f.Func().Id("Fallback").Params().Id("Classification").Block(jen.Return(jen.Id("fallback")))
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
			for i, k := range c.Kinds {
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
			for _, k := range c.Kinds {
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
	for _, k := range g.c.Kinds {
		entries = g.kindEntries(k, entries)
		width := 0
		for _, e := range entries {
			width = max(width, len(e.key))
		}
		b.WriteString("\t{\n")
		for _, e := range entries {
			text := e.text()
			if len(text) > maxMeasured {
				unusual = true
			}
			b.WriteString("\t\t")
			b.WriteString(e.key)
			b.WriteByte(':')
			for range width - len(e.key) + 1 {
				b.WriteByte(' ')
			}
			b.WriteString(text)
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
