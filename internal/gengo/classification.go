package gengo

import (
	"log/slog"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

func slogLevel(l slog.Level) jen.Code {
	name := map[slog.Level]string{slog.LevelDebug: "LevelDebug", slog.LevelInfo: "LevelInfo", slog.LevelWarn: "LevelWarn", slog.LevelError: "LevelError"}[l]
	return jen.Qual("log/slog", name)
}

// classificationValues returns the struct fields shared by every table entry
// and the fallback.
func (g *gen) classificationValues(cl *contract.Classification) []jen.Code {
	return []jen.Code{
		jen.Id("Origin").Op(":").Id("Origin" + cl.Origin.Idents.Go),
		jen.Id("Action").Op(":").Id("RecoveryAction" + cl.Recovery.Action.Idents.Go),
		jen.Id("SameArguments").Op(":").Id("SameArguments" + cl.Recovery.SameArguments.Idents.Go),
		jen.Id("Guidance").Op(":").Lit(cl.Recovery.Guidance),
		jen.Id("SideEffects").Op(":").Id("SideEffects" + cl.SideEffects.Idents.Go),
		jen.Id("HTTPStatus").Op(":").Lit(cl.HTTP),
		jen.Id("LogLevel").Op(":").Add(slogLevel(cl.Log)),
		jen.Id("Breaker").Op(":").Lit(cl.Breaker),
		jen.Id("Retryable").Op(":").Lit(cl.Retryable()),
	}
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
		jen.Comment("// LogLevel is warn for caller-fixable failures and error for those an operator must handle."),
		jen.Id("LogLevel").Qual("log/slog", "Level"),
		jen.Comment("// Breaker is true for transport failures, which count toward an upstream's circuit breaker."),
		jen.Comment("// Completed tool errors never do."),
		jen.Id("Breaker").Bool(),
		jen.Comment("// Retryable is true when the action is a retry and same_arguments permits repeating the call."),
		jen.Id("Retryable").Bool(),
		jen.Id("Description").String(),
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
	table := jen.Line()
	for _, k := range c.Kinds {
		vals := append([]jen.Code{
			jen.Id("Kind").Op(":").Id(kindConst(k)),
			jen.Id("Known").Op(":").True(),
			jen.Id("Group").Op(":").Id("Group" + k.Group.Idents.Go),
		}, g.classificationValues(&k.Classification)...)
		vals = append(vals, jen.Id("Description").Op(":").Lit(k.Description))
		if k.Startup {
			vals = append(vals, jen.Id("Startup").Op(":").True())
		}
		vals = append(vals, jen.Id("Number").Op(":").Lit(number(c, k)))
		table.Add(multiline(vals...)).Op(",").Line()
	}
	f.Var().Id("classifications").Op("=").Index(jen.Lit(len(c.Kinds))).Id("Classification").Values(table)
	f.Line()
	fb := append(g.classificationValues(&c.Fallback.Classification), jen.Id("Number").Op(":").Lit(-1))
	f.Comment("// fallback classifies every kind the contract does not list.")
	f.Var().Id("fallback").Op("=").Id("Classification").Add(multiline(fb...))
	f.Line()
	// A switch compiles to a binary search over constant strings: no map to
	// build at init and no allocation per lookup.
	f.Func().Id("kindIndex").Params(jen.Id("k").Id("Kind")).Int().BlockFunc(func(gr *jen.Group) {
		gr.Switch(jen.Id("k")).BlockFunc(func(sw *jen.Group) {
			for i, k := range c.Kinds {
				sw.Case(jen.Id(kindConst(k))).Block(jen.Return(jen.Lit(i)))
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
		jen.Return(jen.Id("c")),
	)
	f.Line()
	if c.Numbered {
		docf(f, "KindByNumber returns the kind with the stable numeric code n.")
		f.Func().Id("KindByNumber").Params(jen.Id("n").Int()).Params(jen.Id("Kind"), jen.Bool()).BlockFunc(func(gr *jen.Group) {
			gr.Switch(jen.Id("n")).BlockFunc(func(sw *jen.Group) {
				for _, k := range c.Kinds {
					sw.Case(jen.Lit(k.Number)).Block(jen.Return(jen.Id(kindConst(k)), jen.True()))
				}
			})
			gr.Return(jen.Lit(""), jen.False())
		})
		f.Line()
	}
	docf(f, "Fallback returns the classification every unknown kind gets.")
	f.Func().Id("Fallback").Params().Id("Classification").Block(jen.Return(jen.Id("fallback")))
}

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
