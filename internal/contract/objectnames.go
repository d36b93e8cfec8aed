package contract

import "github.com/errgen/errgen/internal/naming"

// ObjectTypeNames names the type a language declares for each object field
// with properties, keyed by the field's type name in that language (ident
// gives it, as Idents.Go or Idents.TSType: one type per field name), in
// the order of a depth-first walk of the envelope's fields: the name itself
// unless taken holds it, else with a Fields suffix (Kind -> KindFields),
// else with a number too. Each name it picks is added to taken.
func (c *Contract) ObjectTypeNames(ident func(*Idents) string, taken map[string]bool) map[string]string {
	names := map[string]string{}
	var visit func(f *Field)
	visit = func(f *Field) {
		if f.Type != TypeObject || len(f.Properties) == 0 || names[ident(&f.Idents)] != "" {
			return
		}
		name := naming.FreeName(ident(&f.Idents), "Fields", func(s string) bool { return taken[s] })
		taken[name] = true
		names[ident(&f.Idents)] = name
		for _, p := range f.Properties {
			visit(p)
		}
	}
	for _, f := range c.EnvelopeFields {
		visit(f)
	}
	return names
}
