package gengo

import (
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
)

// sanitizeClass maps a contract character class onto the class constant of
// the runtime sanitizer (runtime/go/_src/sanitize.go).
var sanitizeClass = map[contract.SecretChars]string{
	contract.CharsAlnum:      "sanitizeClassAlnum",
	contract.CharsUpperAlnum: "sanitizeClassUpperAlnum",
	contract.CharsLowerAlnum: "sanitizeClassLowerAlnum",
	contract.CharsHex:        "sanitizeClassHex",
	contract.CharsBase64URL:  "sanitizeClassBase64URL",
	contract.CharsBase64:     "sanitizeClassBase64",
	contract.CharsWord:       "sanitizeClassWord",
	contract.CharsToken:      "sanitizeClassToken",
}

// sanitizePolicy emits the contract's sanitizer policy; the algorithm that
// reads it is the runtime file sanitize.go.
func (g *gen) sanitizePolicy(f *jen.File) {
	p := g.c.Sanitize
	f.Comment("// The sanitizer policy of the contract (its sanitize section, or errgen's")
	f.Comment("// defaults). sanitize.go holds the algorithm; docs/sanitizer.md specifies it.")
	f.Line()
	f.Const().Defs(
		jen.Comment("// SanitizeMaxLength caps Sanitize's output in Unicode code points, the truncation marker included."),
		jen.Id("SanitizeMaxLength").Op("=").Lit(p.MaxLength),
		jen.Comment("// SanitizeTruncationMarker is appended when Sanitize cut text off."),
		jen.Id("SanitizeTruncationMarker").Op("=").Lit(p.TruncationMarker),
	)
	f.Line()
	markers := make([]jen.Code, len(p.Markers))
	for i, m := range p.Markers {
		markers[i] = jen.Lit(m)
	}
	f.Comment("// sanitizeMarkers are the prompt-injection markers Sanitize removes, ASCII")
	f.Comment("// case ignored, until none remain.")
	f.Var().Id("sanitizeMarkers").Op("=").Index().String().ValuesFunc(func(gr *jen.Group) {
		for _, m := range markers {
			gr.Line().Add(m)
		}
		if len(markers) > 0 {
			gr.Line()
		}
	})
	f.Line()
	f.Comment("// sanitizeContractSecrets are the contract's own secret shapes, redacted")
	f.Comment("// besides the built-in catalogue.")
	f.Var().Id("sanitizeContractSecrets").Op("=").Index().Id("sanitizeSecret").ValuesFunc(func(gr *jen.Group) {
		for _, s := range p.Secrets {
			prefixes := make([]jen.Code, len(s.Prefixes))
			for i, pre := range s.Prefixes {
				prefixes[i] = jen.Lit(pre)
			}
			gr.Line().Comment(s.Name+commentSuffix(s.Description)).Line().Values(jen.Index().String().Values(prefixes...), jen.Id(sanitizeClass[s.Chars]), jen.Lit(s.MinLength))
		}
		if len(p.Secrets) > 0 {
			gr.Line()
		}
	})
	f.Line()
	f.Comment("// sanitizePaths turns on the redaction of home directories and credential")
	f.Comment("// paths; sanitizeCredentialNames are the credential file and directory names")
	f.Comment("// (errgen's, then the contract's) that make a path a credential path.")
	f.Const().Id("sanitizePaths").Op("=").Lit(p.Paths)
	f.Line()
	f.Var().Id("sanitizeCredentialNames").Op("=").Index().String().ValuesFunc(func(gr *jen.Group) {
		names := p.AllCredentialNames()
		for _, n := range names {
			gr.Line().Lit(n)
		}
		if len(names) > 0 {
			gr.Line()
		}
	})
	f.Line()
	fields := make([]jen.Code, len(p.Fields))
	for i, name := range p.Fields {
		fields[i] = jen.Lit(name)
	}
	f.Comment("// SanitizedFields names the envelope values that are upstream-controlled text")
	f.Comment("// and sanitized by default: " + strings.Join(p.Fields, ", ") + ".")
	f.Var().Id("SanitizedFields").Op("=").Index(jen.Op("...")).String().Values(fields...)
	f.Line()
	f.Comment("// sanitizeMessage is whether SanitizedFields lists the message, which the")
	f.Comment("// string forms (Error, GoString) then sanitize.")
	f.Const().Id("sanitizeMessage").Op("=").Lit(p.Sanitizes("message"))
}

// commentSuffix is ": description" on one line, or nothing.
func commentSuffix(desc string) string {
	desc = strings.Join(strings.Fields(desc), " ")
	if desc == "" {
		return ""
	}
	return ": " + desc
}
