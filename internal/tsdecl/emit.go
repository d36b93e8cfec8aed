package tsdecl

import "strings"

// assemble writes the declaration file: the imports the declarations use,
// then the exported declarations and the module-private ones they need,
// in source order, each after its documentation comment.
func assemble(decls []*decl) (string, error) {
	// A function with overload signatures is declared by them alone.
	overloaded := map[string]bool{}
	for _, d := range decls {
		if d.fn != "" && !d.body {
			overloaded[d.fn] = true
		}
	}
	var live []*decl
	for _, d := range decls {
		if !(d.fn != "" && d.body && overloaded[d.fn]) {
			live = append(live, d)
		}
	}

	typeLocals, valueLocals := map[string][]*decl{}, map[string][]*decl{}
	emitted := map[*decl]bool{}
	var queue []*decl
	for _, d := range live {
		switch {
		case d.kind == dImport:
		case d.kind == dReexport || d.kind == dExportList || d.exported:
			emitted[d] = true
			queue = append(queue, d)
		default:
			for _, n := range d.names {
				if d.kind != dValue {
					typeLocals[n] = append(typeLocals[n], d)
				}
				if d.kind != dType {
					valueLocals[n] = append(valueLocals[n], d)
				}
			}
		}
	}
	used := map[string]bool{}
	need := func(locals []*decl) {
		for _, l := range locals {
			if !emitted[l] {
				emitted[l] = true
				queue = append(queue, l)
			}
		}
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		types, values := refs(d.text)
		values = append(values, d.valueRefs...)
		for _, n := range types {
			used[n] = true
			need(typeLocals[n])
		}
		for _, n := range values {
			used[n] = true
			need(valueLocals[n])
		}
	}

	// Grown once to about its final size: a large contract's module has
	// tens of thousands of declarations, and doubling the builder's buffer
	// from nothing would allocate about twice the text again.
	var b strings.Builder
	size := len("export {};\n")
	for _, d := range live {
		switch {
		case d.kind == dImport:
			size += 128
		case emitted[d]:
			size += len(d.doc) + len(d.text) + 3
		}
	}
	b.Grow(size)
	for _, d := range live {
		if d.kind == dImport {
			if line := d.imp.keep(used); line != "" {
				b.WriteString(line)
				b.WriteByte('\n')
			}
		}
	}
	private := false
	for _, d := range live {
		if d.kind == dImport || !emitted[d] {
			continue
		}
		if d.err != nil {
			return "", d.err
		}
		if d.doc != "" && b.Len() > 0 {
			b.WriteByte('\n')
		}
		if d.doc != "" {
			b.WriteString(d.doc)
			b.WriteByte('\n')
		}
		b.WriteString(d.text)
		b.WriteByte('\n')
		if !d.exported && d.kind != dReexport && d.kind != dExportList {
			private = true
		}
	}
	if private {
		// Without an export {} every declaration of a declaration file
		// that is a module counts as exported.
		b.WriteString("export {};\n")
	}
	if b.Len() == 0 {
		return "export {};\n", nil
	}
	return b.String(), nil
}

// keep returns the import with only the names in used, or "" when it
// imports none of them.
func (imp *importDecl) keep(used map[string]bool) string {
	if imp.verbatim != "" {
		return imp.verbatim
	}
	var parts, named []string
	for _, s := range imp.specs {
		if !used[s.local] {
			continue
		}
		if s.named {
			named = append(named, s.text)
		} else {
			parts = append(parts, s.text)
		}
	}
	if len(named) > 0 {
		parts = append(parts, "{ "+strings.Join(named, ", ")+" }")
	}
	if len(parts) == 0 {
		return ""
	}
	typ := ""
	if imp.typeOnly {
		typ = "type "
	}
	return "import " + typ + strings.Join(parts, ", ") + " " + imp.tail
}

// refs lists the names a declaration's text uses: values (after typeof)
// and everything else, which may name a type. A name after "." is a
// member, not a reference; names in template literal types count.
func refs(text string) (types, values []string) {
	toks, inner, err := tokenizeAll("", text)
	if err != nil {
		return nil, nil // the text is cut from a module that tokenized
	}
	var walk func(toks []token)
	walk = func(toks []token) {
		for k, t := range toks {
			if t.kind == tTemplate {
				walk(inner[int(t.start)])
			}
			if t.kind != tIdent {
				continue
			}
			prev := ""
			if k > 0 {
				prev = text[toks[k-1].start:toks[k-1].end]
			}
			switch prev {
			case ".":
			case "typeof":
				values = append(values, text[t.start:t.end])
			default:
				types = append(types, text[t.start:t.end])
			}
		}
	}
	walk(toks)
	return types, values
}
