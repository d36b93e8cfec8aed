package gengo

import (
	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// callErrorPolicy emits callerror_contract.go: the contract's call_error
// section as the value the runtime's callerror.go reads, and the accessor
// of the envelope's cause (the context field named cause, when the
// contract has one).
func (g *gen) callErrorPolicy(f *jen.File) {
	ce := g.c.CallError
	f.Comment("// The contract's call_error section. callerror.go builds call errors from it;")
	f.Comment("// errgen's docs/surfaces.md (\"Code Mode call errors\") describes them.")
	f.Line()
	strs := func(list []string) jen.Code {
		return jen.Index().String().ValuesFunc(func(gr *jen.Group) {
			for _, s := range list {
				gr.Lit(s)
			}
		})
	}
	origins := make([]string, len(ce.Origins))
	for i, o := range ce.Origins {
		origins[i] = o.Name
	}
	f.Var().Id("callErrorPolicy").Op("=").Id("callErrorSpec").Values(jen.DictFunc(func(d jen.Dict) {
		d[jen.Id("version")] = jen.Lit(g.c.Version)
		d[jen.Id("members")] = strs(ce.Members)
		d[jen.Id("origin")] = jen.Id("Origin").Call(jen.Lit(ce.Origin.Name))
		d[jen.Id("resultKind")] = jen.Id("Kind").Call(jen.Lit(g.c.Inbound.ToolResult.Name))
		d[jen.Id("canonical")] = jen.Map(jen.String()).String().Values(jen.DictFunc(func(m jen.Dict) {
			for _, ck := range ce.Canonical {
				m[jen.Lit(ck.From.Name)] = jen.Lit(ck.To.Name)
			}
		}))
		d[jen.Id("separator")] = jen.Lit(ce.ToolSeparator)
		d[jen.Id("defaultMessage")] = jen.Lit(ce.DefaultMessage)
		d[jen.Id("hints")] = jen.Index().Index(jen.Lit(2)).String().ValuesFunc(func(gr *jen.Group) {
			for _, h := range ce.SafetyHints {
				gr.Values(jen.Lit(h.Name), jen.Lit(h.Annotation))
			}
		})
		d[jen.Id("maxBlocks")] = jen.Lit(ce.Evidence.MaxBlocks)
		d[jen.Id("maxText")] = jen.Lit(ce.Evidence.MaxText)
		d[jen.Id("maxResource")] = jen.Lit(ce.Evidence.MaxResource)
		d[jen.Id("binary")] = strs(ce.Evidence.Binary)
	}))
	f.Line()
	var cause *contract.Field
	for _, fl := range g.c.EnvelopeFields {
		if fl.Name == "cause" && fl.Type == contract.TypeString {
			cause = fl
		}
	}
	f.Comment("// callErrorCause is the envelope's cause, which a call error carries.")
	f.Func().Params(jen.Id("e").Op("*").Id("Envelope")).Id("callErrorCause").Params().String().BlockFunc(func(gr *jen.Group) {
		if cause != nil {
			gr.Return(jen.Id("e").Dot(cause.Idents.Go))
		} else {
			gr.Return(jen.Lit(""))
		}
	})
}
