// Package tsdecl writes the declaration file (.d.ts) of a TypeScript
// module without a TypeScript compiler, so errgen can ship a typed npm
// package from pure Go (esbuild, which writes the JavaScript, drops types).
//
// It is not a TypeScript parser. It relies on the discipline of
// isolatedDeclarations, which the generated tsconfig.json turns on so tsc
// enforces it on errgen's templates: every exported function states its
// return type and every exported variable its type (or is a string,
// number or boolean literal). Under that discipline a declaration is a
// matter of cutting, not inferring: types are copied as written, bodies
// and initializers dropped. The module is cut into statements by a
// tokenizer that knows strings, template literals with ${} nesting,
// regular expression literals and comments; top-level statements must end
// with a semicolon or a closing brace (no automatic semicolon insertion).
//
// What it keeps: imports (only the names the declarations use), re-exports
// and export lists verbatim, interfaces and type aliases verbatim,
// functions as signatures (overloads without their implementation; a
// parameter's default value becomes "?"), variables as `declare const x:
// T`, classes member by member, the documentation comment (/** */) right
// before each, and the module's non-exported declarations that an emitted
// one uses, followed by `export {}` so they stay private. What it refuses,
// with the position: a declaration whose type it would have to infer, and
// forms errgen's templates do not use (enum, namespace, export default,
// export =). Anything that is not a declaration (a top-level loop, an
// assignment) is dropped.
package tsdecl

import (
	"fmt"
	"strings"
)

// Emit returns the declarations of the TypeScript module src, without a
// header. file names the module in errors.
func Emit(file, src string) (string, error) {
	toks, err := tokenize(file, src)
	if err != nil {
		return "", err
	}
	end := int32(len(src))
	lead := int32(0)
	if len(toks) > 0 {
		lead = toks[len(toks)-1].end
	}
	toks = append(toks, token{kind: tEOF, start: end, end: end, lead: lead})
	p := &parser{file: file, src: src, toks: toks}
	decls, err := p.module()
	if err != nil {
		return "", err
	}
	return assemble(decls)
}

type declKind uint8

const (
	dImport     declKind = iota
	dReexport            // export ... from "...": verbatim
	dExportList          // export { a, b as c }: verbatim, and a and b are used
	dType                // interface, type alias: the type space
	dValue               // const, let, var, function: the value space
	dClass               // class: both spaces
)

// decl is one top-level declaration, converted. A conversion that failed
// keeps its error in err, reported only when the declaration is needed: a
// module-private helper without a return type is fine until an exported
// declaration uses it.
type decl struct {
	kind     declKind
	exported bool
	names    []string // what it declares (dType, dValue, dClass)
	doc      string
	text     string
	err      error
	// fn and body: a function's name and whether this is its
	// implementation (dropped when the function has overload signatures).
	fn   string
	body bool
	// valueRefs are values the text uses beyond those after typeof (the
	// local names of an export list, a class's base class).
	valueRefs []string
	imp       *importDecl
}

type importDecl struct {
	typeOnly bool   // import type ...
	specs    []spec // default, namespace and named imports
	tail     string // from "...";  (with any import attributes)
	verbatim string // a side-effect import: import "...";
}

type spec struct {
	text, local string
	named       bool // inside the braces
}

type parser struct {
	file, src string
	toks      []token
}

// tok returns token i; past the end, the final EOF token, so looking
// ahead never runs off the slice.
func (p *parser) tok(i int) token {
	if i >= len(p.toks) {
		return p.toks[len(p.toks)-1]
	}
	return p.toks[i]
}

func (p *parser) text(i int) string {
	t := p.tok(i)
	return p.src[t.start:t.end]
}

// is reports whether token i is the punctuator or identifier s.
func (p *parser) is(i int, s string) bool {
	t := p.tok(i)
	return (t.kind == tPunct || t.kind == tIdent) && p.src[t.start:t.end] == s
}

func (p *parser) ident(i int) bool { return p.tok(i).kind == tIdent }

func (p *parser) eof(i int) bool { return p.tok(i).kind == tEOF }

func (p *parser) errAt(i int, format string, args ...any) error {
	return errAt(p.file, p.src, int(p.tok(i).start), fmt.Sprintf(format, args...))
}

// slice is the source from the start of token i to the end of token j-1.
func (p *parser) slice(i, j int) string {
	if j <= i {
		return ""
	}
	return p.src[p.tok(i).start:p.tok(j-1).end]
}

// module cuts the module into top-level statements and converts the
// declarations among them.
func (p *parser) module() ([]*decl, error) {
	var out []*decl
	for i := 0; !p.eof(i); {
		d, next, err := p.statement(i)
		if err != nil {
			return nil, err
		}
		if d != nil {
			d.doc = p.doc(i)
			out = append(out, d)
		}
		i = next
	}
	return out, nil
}

// statement reads the statement at token i: a declaration (returned) or
// anything else (skipped), and returns the index after it.
func (p *parser) statement(i int) (*decl, int, error) {
	switch {
	case p.is(i, ";"):
		return nil, i + 1, nil
	case p.is(i, "{"):
		j, err := p.group(i)
		return nil, j, err
	case p.ident(i):
		switch p.text(i) {
		case "import":
			if !p.is(i+1, "(") && !p.is(i+1, ".") {
				return p.importDecl(i)
			}
		case "export":
			return p.export(i)
		case "if":
			j, err := p.parens(i + 1)
			if err != nil {
				return nil, 0, err
			}
			if _, j, err = p.statement(j); err != nil {
				return nil, 0, err
			}
			if p.is(j, "else") {
				_, j, err = p.statement(j + 1)
			}
			return nil, j, err
		case "for", "while", "with":
			j := i + 1
			if p.is(j, "await") {
				j++
			}
			j, err := p.parens(j)
			if err != nil {
				return nil, 0, err
			}
			_, j, err = p.statement(j)
			return nil, j, err
		case "do":
			_, j, err := p.statement(i + 1)
			if err != nil {
				return nil, 0, err
			}
			if !p.is(j, "while") {
				return nil, 0, p.errAt(j, "expected while after the body of do")
			}
			if j, err = p.parens(j + 1); err != nil {
				return nil, 0, err
			}
			if p.is(j, ";") {
				j++
			}
			return nil, j, nil
		case "try":
			j, err := p.block(i + 1)
			if err != nil {
				return nil, 0, err
			}
			if p.is(j, "catch") {
				j++
				if p.is(j, "(") {
					if j, err = p.group(j); err != nil {
						return nil, 0, err
					}
				}
				if j, err = p.block(j); err != nil {
					return nil, 0, err
				}
			}
			if p.is(j, "finally") {
				j, err = p.block(j + 1)
			}
			return nil, j, err
		case "switch":
			j, err := p.parens(i + 1)
			if err != nil {
				return nil, 0, err
			}
			j, err = p.block(j)
			return nil, j, err
		}
		if d, j, ok, err := p.declaration(i, i, false); ok {
			return d, j, err
		}
		if p.is(i+1, ":") && !p.is(i, "default") { // a label
			return p.statement(i + 2)
		}
	}
	j, err := p.endOfStatement(i)
	return nil, j, err
}

// declaration converts the declaration whose keywords start at token i
// (start is the statement's first token, an "export" before i when
// exported). ok is false when the tokens do not start a declaration.
func (p *parser) declaration(start, i int, exported bool) (d *decl, next int, ok bool, err error) {
	word := p.text(i)
	if !p.ident(i) {
		return nil, 0, false, nil
	}
	// The cases that end in a declaration of one of the usual shapes
	// name the parser of it; the others return on their own.
	var parse func(start, i int, exported bool) (*decl, int, error)
	switch word {
	case "declare":
		if !p.ident(i + 1) {
			return nil, 0, false, nil
		}
		return p.ambient(start, i, exported)
	case "async":
		if !p.is(i+1, "function") || p.tok(i+1).nl {
			return nil, 0, false, nil
		}
		parse = p.function
	case "function":
		parse = p.function
	case "const":
		if p.is(i+1, "enum") {
			return nil, 0, true, p.errAt(i, "const enum is not supported in a declaration file written without tsc; use a union of string literals")
		}
		parse = p.variable
	case "let", "var":
		if !p.ident(i+1) && !p.is(i+1, "{") && !p.is(i+1, "[") {
			return nil, 0, false, nil
		}
		parse = p.variable
	case "abstract":
		if !p.is(i+1, "class") {
			return nil, 0, false, nil
		}
		parse = p.class
	case "class":
		parse = p.class
	case "interface":
		if !p.ident(i + 1) {
			return nil, 0, false, nil
		}
		parse = func(start, i int, exported bool) (*decl, int, error) {
			return p.verbatimBody(start, i, exported, dType)
		}
	case "type":
		if !p.ident(i+1) || p.tok(i+1).nl {
			return nil, 0, false, nil
		}
		next, err = p.endOfStatement(i)
		if err != nil {
			return nil, 0, true, err
		}
		return &decl{kind: dType, exported: exported, names: []string{p.text(i + 1)}, text: p.slice(start, next)}, next, true, nil
	case "enum":
		if !p.ident(i + 1) {
			return nil, 0, false, nil
		}
		return nil, 0, true, p.errAt(i, "enum is not supported in a declaration file written without tsc; use a union of string literals")
	case "namespace", "module":
		if !(p.ident(i+1) || p.tok(i+1).kind == tString) || p.tok(i+1).nl {
			return nil, 0, false, nil
		}
		return nil, 0, true, p.errAt(i, "%s is not supported in a declaration file written without tsc", word)
	}
	if parse == nil {
		return nil, 0, false, nil
	}
	d, next, err = parse(start, i, exported)
	return d, next, true, err
}

// ambient keeps a declare statement as written.
func (p *parser) ambient(start, i int, exported bool) (*decl, int, bool, error) {
	j := i + 1
	if p.is(j, "abstract") || p.is(j, "const") && p.is(j+1, "enum") {
		j++
	}
	kw := p.text(j)
	name := ""
	if p.ident(j + 1) {
		name = p.text(j + 1)
	}
	var next int
	var err error
	kind := dValue
	switch kw {
	case "class", "interface", "enum", "namespace", "module", "global":
		kind = dType
		if kw == "class" || kw == "enum" {
			kind = dClass
		}
		if kw == "global" {
			name = ""
		}
		next, err = p.afterBody(j)
	case "const", "let", "var", "function", "type":
		if kw == "type" {
			kind = dType
		}
		next, err = p.endOfStatement(j)
	default:
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, true, err
	}
	d := &decl{kind: kind, exported: exported, text: p.slice(start, next)}
	if name != "" {
		d.names = []string{name}
	}
	if kw == "const" || kw == "let" || kw == "var" {
		d.names = p.declaredNames(j+1, next)
	}
	if kw == "function" {
		d.fn = name
	}
	return d, next, true, nil
}

// declaredNames are the names a variable statement's declarators bind
// (simple names only).
func (p *parser) declaredNames(i, end int) []string {
	var names []string
	for _, dc := range p.declarators(i, end) {
		if dc.name != "" {
			names = append(names, dc.name)
		}
	}
	return names
}

// verbatimBody keeps a declaration that ends with its body's closing
// brace (an interface) as written.
func (p *parser) verbatimBody(start, i int, exported bool, kind declKind) (*decl, int, error) {
	next, err := p.afterBody(i)
	if err != nil {
		return nil, 0, err
	}
	return &decl{kind: kind, exported: exported, names: []string{p.text(i + 1)}, text: p.slice(start, next)}, next, nil
}

// afterBody returns the index after the body of the declaration whose
// keyword is at i: the first brace group outside any type argument list.
func (p *parser) afterBody(i int) (int, error) {
	j, err := p.scanType(i+1, func(j int) bool { return p.is(j, "{") || p.is(j, ";") })
	if err != nil {
		return 0, err
	}
	if !p.is(j, "{") {
		return 0, p.errAt(j, "expected the body of %s", p.text(i))
	}
	return p.group(j)
}

func (p *parser) export(i int) (*decl, int, error) {
	j := i + 1
	if p.is(j, "type") && (p.is(j+1, "{") || p.is(j+1, "*")) {
		j++ // a type-only export list or re-export stays as written too
	}
	switch {
	case p.is(j, "*"):
		next, err := p.endOfStatement(i)
		return &decl{kind: dReexport, exported: true, text: p.slice(i, next)}, next, err
	case p.is(j, "{"):
		close, err := p.group(j)
		if err != nil {
			return nil, 0, err
		}
		next, err := p.endOfStatement(close)
		if err != nil {
			return nil, 0, err
		}
		d := &decl{kind: dReexport, exported: true, text: p.slice(i, next)}
		if !p.is(close, "from") {
			d.kind = dExportList
			for _, s := range p.specifiers(j+1, close-1) {
				// The name before "as" is the local one.
				first := strings.Fields(strings.TrimPrefix(s.text, "type "))
				if len(first) > 0 {
					d.valueRefs = append(d.valueRefs, first[0])
				}
			}
		}
		return d, next, nil
	case p.is(j, "default"), p.is(j, "="), p.is(j, "as"), p.is(j, "import"):
		return nil, 0, p.errAt(j, "export %s is not supported in a declaration file written without tsc", p.text(j))
	}
	d, next, ok, err := p.declaration(i, j, true)
	if !ok {
		return nil, 0, p.errAt(j, "unsupported export")
	}
	return d, next, err
}

func (p *parser) importDecl(i int) (*decl, int, error) {
	next, err := p.endOfStatement(i)
	if err != nil {
		return nil, 0, err
	}
	j := i + 1
	imp := &importDecl{}
	if p.tok(j).kind == tString { // import "x";
		imp.verbatim = p.slice(i, next)
		return &decl{kind: dImport, imp: imp}, next, nil
	}
	if p.is(j, "type") && !p.is(j+1, ",") && !p.is(j+1, "from") {
		imp.typeOnly = true
		j++
	}
	for !p.is(j, "from") {
		switch {
		case p.is(j, ","):
			j++
		case p.is(j, "{"):
			close, err := p.group(j)
			if err != nil {
				return nil, 0, err
			}
			for _, s := range p.specifiers(j+1, close-1) {
				s.named = true
				imp.specs = append(imp.specs, s)
			}
			j = close
		case p.is(j, "*"): // * as ns
			if !p.is(j+1, "as") || !p.ident(j+2) {
				return nil, 0, p.errAt(j, "expected * as name")
			}
			imp.specs = append(imp.specs, spec{text: p.slice(j, j+3), local: p.text(j + 2)})
			j += 3
		case p.ident(j):
			imp.specs = append(imp.specs, spec{text: p.text(j), local: p.text(j)})
			j++
		default:
			return nil, 0, p.errAt(j, "unsupported import")
		}
		if j >= next {
			return nil, 0, p.errAt(i, "unsupported import")
		}
	}
	imp.tail = p.slice(j, next)
	return &decl{kind: dImport, imp: imp}, next, nil
}

// specifiers splits the comma-separated specifiers of an import or export
// list between tokens i and end (exclusive); each one's local name is its
// last identifier.
func (p *parser) specifiers(i, end int) []spec {
	var out []spec
	for i < end {
		j := i
		for j < end && !p.is(j, ",") {
			j++
		}
		if j > i {
			out = append(out, spec{text: p.slice(i, j), local: p.text(j - 1)})
		}
		i = j + 1
	}
	return out
}

// function converts a function declaration: its signature, ending with
// ";", with "declare" so it is an ambient declaration.
func (p *parser) function(start, i int, exported bool) (*decl, int, error) {
	if p.is(i, "async") {
		i++
	}
	i++ // function
	if p.is(i, "*") {
		i++
	}
	if !p.ident(i) {
		return nil, 0, p.errAt(i, "expected the function's name")
	}
	name := i
	sig, next, hasBody, err := p.signature(i+1, false)
	if err != nil {
		return nil, 0, err
	}
	d := &decl{kind: dValue, exported: exported, names: []string{p.text(name)}, fn: p.text(name), body: hasBody}
	if sig.err != nil {
		d.err = sig.err
	} else if sig.ret == "" {
		d.err = p.errAt(name, "function %s has no return type: a declaration written without tsc needs one (isolatedDeclarations)", p.text(name))
	}
	d.text = exportPrefix(exported) + "declare function " + p.text(name) + sig.typeParams + "(" + sig.params + ")" + ": " + sig.ret + ";"
	return d, next, nil
}

func exportPrefix(exported bool) string {
	if exported {
		return "export "
	}
	return ""
}

// sig is a function's or method's converted signature.
type sig struct {
	typeParams, params, ret string
	err                     error
	// props are the parameter properties of a constructor, as class members.
	props []string
}

// signature reads a call signature from token i (type parameters, the
// parameter list, the return type) and the body or ";" after it. It
// returns the index after the whole function.
func (p *parser) signature(i int, ctor bool) (s sig, next int, hasBody bool, err error) {
	if p.is(i, "<") {
		j, err := p.angles(i)
		if err != nil {
			return s, 0, false, err
		}
		s.typeParams = p.slice(i, j)
		i = j
	}
	if !p.is(i, "(") {
		return s, 0, false, p.errAt(i, "expected a parameter list")
	}
	close, err := p.group(i)
	if err != nil {
		return s, 0, false, err
	}
	s.params, s.props, s.err = p.params(i+1, close-1, ctor)
	j := close
	if p.is(j, ":") {
		end, err := p.scanType(j+1, func(k int) bool { return p.is(k, ";") || p.is(k, "}") || p.is(k, "{") && !p.typeOperandNext(k-1) })
		if err != nil {
			return s, 0, false, err
		}
		s.ret = p.slice(j+1, end)
		j = end
	}
	switch {
	case p.is(j, "{"):
		next, err = p.group(j)
		return s, next, true, err
	case p.is(j, ";"):
		return s, j + 1, false, nil
	case p.is(j, "}") || p.tok(j).nl:
		return s, j, false, nil // a signature in a class body without ";"
	}
	return s, 0, false, p.errAt(j, "expected the function's body or ;")
}

// typeOperandNext reports whether token i is one after which a type
// operand follows, so a "{" after it starts an object type, not a body:
// ": {", "| {", "=> {", "is {", ...
func (p *parser) typeOperandNext(i int) bool {
	switch p.text(i) {
	case ":", "|", "&", "=>", "<", ",", "?", "(", "[", "=", "extends", "keyof", "readonly", "is", "unique", "infer":
		return true
	}
	return false
}

// params converts the parameters between tokens i and end (exclusive): a
// default value is dropped and makes the parameter optional (or, before a
// required parameter, its type "| undefined"), as tsc's declarations do.
func (p *parser) params(i, end int, ctor bool) (string, []string, error) {
	type param struct {
		mods                 []string
		rest                 bool
		name, typ            string
		optional, hasDefault bool
		nameTok              int
	}
	var ps []param
	for i < end {
		var pr param
		for p.ident(i) && isParamModifier(p.text(i)) && (p.ident(i+1) || p.is(i+1, "{") || p.is(i+1, "[")) {
			pr.mods = append(pr.mods, p.text(i))
			i++
		}
		if p.is(i, "@") {
			return "", nil, p.errAt(i, "decorators are not supported")
		}
		if p.is(i, "...") {
			pr.rest = true
			i++
		}
		pr.nameTok = i
		switch {
		case p.ident(i):
			pr.name = p.text(i)
			i++
		case p.is(i, "{") || p.is(i, "["):
			j, err := p.group(i)
			if err != nil {
				return "", nil, err
			}
			for k := i; k < j; k++ {
				if p.is(k, "=") {
					return "", nil, p.errAt(k, "a default value inside a destructuring parameter is not supported; give the parameter a name")
				}
			}
			pr.name = p.slice(i, j)
			i = j
		default:
			return "", nil, p.errAt(i, "expected a parameter")
		}
		if p.is(i, "?") {
			pr.optional = true
			i++
		}
		if p.is(i, ":") {
			j, err := p.scanType(i+1, func(k int) bool { return k >= end || p.is(k, ",") || p.is(k, "=") })
			if err != nil {
				return "", nil, err
			}
			pr.typ = p.slice(i+1, j)
			i = j
		}
		if p.is(i, "=") && i < end {
			pr.hasDefault = true
			j, err := p.expression(i+1, end)
			if err != nil {
				return "", nil, err
			}
			if pr.typ == "" {
				// A primitive literal's type is what tsc infers too.
				pr.typ = p.literal(i+1, j)
			}
			i = j
		}
		if i < end && !p.is(i, ",") {
			return "", nil, p.errAt(i, "unexpected %q in the parameter list", p.text(i))
		}
		i++
		if pr.typ == "" {
			return "", nil, p.errAt(pr.nameTok, "parameter %s has no type: a declaration written without tsc needs one (isolatedDeclarations)", pr.name)
		}
		ps = append(ps, pr)
	}
	var out, props []string
	for k, pr := range ps {
		laterRequired := false
		for _, q := range ps[k+1:] {
			if !q.optional && !q.hasDefault && !q.rest {
				laterRequired = true
			}
		}
		typ := pr.typ
		opt := pr.optional
		if pr.hasDefault {
			if laterRequired {
				typ = parenthesize(typ) + " | undefined"
			} else {
				opt = true
			}
		}
		s := pr.name
		if pr.rest {
			s = "..." + s
		}
		if opt {
			s += "?"
		}
		s += ": " + typ
		out = append(out, s)
		if len(pr.mods) > 0 {
			if !ctor {
				return "", nil, p.errAt(pr.nameTok, "parameter modifiers outside a constructor")
			}
			props = append(props, member(pr.mods, pr.name+optMark(opt && !pr.rest), typ))
		}
	}
	return strings.Join(out, ", "), props, nil
}

func optMark(b bool) string {
	if b {
		return "?"
	}
	return ""
}

func isParamModifier(s string) bool {
	switch s {
	case "public", "private", "protected", "readonly", "override":
		return true
	}
	return false
}

// parenthesize wraps a type in parentheses unless it is a plain name,
// possibly with type arguments and array brackets, so "| undefined" binds
// to the whole of it.
func parenthesize(typ string) string {
	for _, r := range typ {
		switch {
		case r == '_' || r == '$' || r == '.' || r == '[' || r == ']' || r == '<' || r == '>' || r == ',' || r == ' ':
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		default:
			return "(" + typ + ")"
		}
	}
	return typ
}

// declarator is one name of a variable statement.
type declarator struct {
	name    string
	nameTok int
	typ     string
	init    [2]int // token range of the initializer; init[0] == 0 when none
	bad     error
}

// declarators splits a variable statement's declarators between tokens i
// (after const, let or var) and end (the ";").
func (p *parser) declarators(i, end int) []declarator {
	var out []declarator
	for i < end {
		dc := declarator{nameTok: i}
		if !p.ident(i) {
			dc.bad = p.errAt(i, "destructuring declarations are not supported: declare each name with its type")
			out = append(out, dc)
			return out
		}
		dc.name = p.text(i)
		i++
		if p.is(i, "!") {
			i++
		}
		if p.is(i, ":") {
			j, err := p.scanType(i+1, func(k int) bool { return k >= end || p.is(k, ",") || p.is(k, "=") })
			if err != nil {
				dc.bad = err
				return append(out, dc)
			}
			dc.typ = p.slice(i+1, j)
			i = j
		}
		if p.is(i, "=") && i < end {
			j, err := p.expression(i+1, end)
			if err != nil {
				dc.bad = err
				return append(out, dc)
			}
			dc.init = [2]int{i + 1, j}
			i = j
		}
		if i < end && !p.is(i, ",") {
			dc.bad = p.errAt(i, "unexpected %q in a variable declaration", p.text(i))
			return append(out, dc)
		}
		out = append(out, dc)
		i++
	}
	return out
}

// variable converts a const, let or var statement to "declare const a: T".
func (p *parser) variable(start, i int, exported bool) (*decl, int, error) {
	next, err := p.endOfStatement(i)
	if err != nil {
		return nil, 0, err
	}
	kw := p.text(i)
	d := &decl{kind: dValue, exported: exported}
	var parts []string
	for _, dc := range p.declarators(i+1, next-1) {
		if dc.bad != nil {
			d.err = dc.bad
			break
		}
		d.names = append(d.names, dc.name)
		switch {
		case dc.typ != "":
			parts = append(parts, dc.name+": "+dc.typ)
		case dc.init[0] != 0 && p.literal(dc.init[0], dc.init[1]) != "":
			lit := p.slice(dc.init[0], dc.init[1])
			if kw == "const" {
				parts = append(parts, dc.name+" = "+lit) // its literal type, as tsc writes it
			} else {
				parts = append(parts, dc.name+": "+p.literal(dc.init[0], dc.init[1]))
			}
		default:
			if d.err == nil {
				d.err = p.errAt(dc.nameTok, "%s %s has no type: a declaration written without tsc needs one unless the value is a string, number or boolean literal (isolatedDeclarations)", kw, dc.name)
			}
		}
	}
	d.text = exportPrefix(exported) + "declare " + kw + " " + strings.Join(parts, ", ") + ";"
	return d, next, nil
}

// literal returns the primitive type of the initializer between tokens i
// and end when it is a single string, number or boolean literal, else "".
func (p *parser) literal(i, end int) string {
	if p.is(i, "-") && i+1 < end {
		i++
	}
	if end != i+1 {
		return ""
	}
	switch t := p.tok(i); {
	case t.kind == tString:
		return "string"
	case t.kind == tNumber:
		if strings.HasSuffix(p.text(i), "n") && !strings.HasPrefix(p.text(i), "0x") && !strings.HasPrefix(p.text(i), "0X") {
			return "bigint"
		}
		return "number"
	case p.is(i, "true") || p.is(i, "false"):
		return "boolean"
	}
	return ""
}

// class converts a class declaration member by member.
func (p *parser) class(start, i int, exported bool) (*decl, int, error) {
	abstract := ""
	if p.is(i, "abstract") {
		abstract = "abstract "
		i++
	}
	i++ // class
	if !p.ident(i) {
		return nil, 0, p.errAt(i, "expected the class's name")
	}
	name := i
	open, err := p.scanType(i+1, func(j int) bool { return p.is(j, "{") || p.is(j, ";") })
	if err != nil {
		return nil, 0, err
	}
	if !p.is(open, "{") {
		return nil, 0, p.errAt(open, "expected the class body")
	}
	close, err := p.group(open)
	if err != nil {
		return nil, 0, err
	}
	d := &decl{kind: dClass, exported: exported, names: []string{p.text(name)}}
	for j := name + 1; j < open; j++ {
		if p.is(j, "extends") && p.ident(j+1) {
			d.valueRefs = append(d.valueRefs, p.text(j+1))
		}
	}
	members, err := p.members(open+1, close-1)
	if err != nil {
		d.err = err
	}
	var b strings.Builder
	b.WriteString(exportPrefix(exported) + "declare " + abstract + "class " + p.slice(name, open) + " {\n")
	for _, m := range members {
		b.WriteString(m)
		b.WriteByte('\n')
	}
	b.WriteString("}")
	d.text = b.String()
	return d, close, nil
}

var memberModifiers = map[string]bool{
	"public": true, "private": true, "protected": true, "static": true, "readonly": true, "abstract": true,
	"override": true, "declare": true, "accessor": true, "async": true,
}

// members converts a class body between tokens i and end (exclusive).
func (p *parser) members(i, end int) ([]string, error) {
	body := &classBody{seenPrivate: map[string]bool{}}
	for i < end {
		next, err := p.classMember(body, i, end)
		if err != nil {
			return nil, err
		}
		i = next
	}
	return body.lines(), nil
}

// classBody is a class body as members converts it.
type classBody struct {
	convs []memberConv
	// private: the class has a #private member, which the declaration
	// shows as one #private line.
	private     bool
	seenPrivate map[string]bool
}

// memberConv is a converted member: its text, its doc comment, and for a
// method its key (accessor and name) and whether it has a body.
type memberConv struct {
	key, doc, text string
	body           bool
}

// hidden adds a TypeScript-private member, once a name, without its type.
func (b *classBody) hidden(mods []string, name string) {
	if !b.seenPrivate[name] {
		b.seenPrivate[name] = true
		b.convs = append(b.convs, memberConv{text: member(mods, name, "")})
	}
}

// lines are the body's declaration lines. Overloads: a method with
// signatures without a body loses its implementation's.
func (b *classBody) lines() []string {
	sigs := map[string]bool{}
	for _, c := range b.convs {
		if c.key != "" && !c.body {
			sigs[c.key] = true
		}
	}
	var out []string
	if b.private {
		out = append(out, "  #private;")
	}
	for _, c := range b.convs {
		if c.body && sigs[c.key] {
			continue
		}
		// Continuation lines keep their indentation from the source,
		// where they were already inside the class.
		if c.doc != "" {
			out = append(out, "  "+c.doc)
		}
		out = append(out, "  "+c.text)
	}
	return out
}

// memberHead is what precedes a member's signature or type: where it
// starts, its doc comment, modifiers, accessor (get or set and a space),
// name and optional mark.
type memberHead struct {
	start     int
	doc       string
	mods      []string
	accessor  string
	nameStart int
	name      string
	// hash: an ECMAScript #private name; isPrivate: TypeScript's private.
	hash, isPrivate bool
	optional        string
}

// classMember converts the member at token i into body and returns the
// token after it.
func (p *parser) classMember(body *classBody, i, end int) (int, error) {
	if p.is(i, ";") {
		return i + 1, nil
	}
	if p.is(i, "static") && p.is(i+1, "{") { // a static initialization block
		return p.group(i + 1)
	}
	h, i, index, err := p.memberHead(i)
	if err != nil {
		return 0, err
	}
	if index {
		// An index signature ([key: string]: T;) stays as written.
		j, err := p.endOfMember(i, end)
		if err != nil {
			return 0, err
		}
		body.convs = append(body.convs, memberConv{doc: h.doc, text: p.slice(h.start, j)})
		return j, nil
	}
	if p.is(i, "(") || p.is(i, "<") { // a method, accessor or constructor
		return p.method(body, h, i)
	}
	return p.property(body, h, i, end)
}

// memberHead reads a member's head from token i and returns the token
// after it; index is true, with the token returned at its "[", for an
// index signature.
func (p *parser) memberHead(i int) (h memberHead, next int, index bool, err error) {
	h.start, h.doc = i, p.doc(i)
	for p.ident(i) && memberModifiers[p.text(i)] && !p.tok(i+1).nl && !isMemberNameEnd(p.text(i+1)) {
		h.mods = append(h.mods, p.text(i))
		i++
	}
	if (p.is(i, "get") || p.is(i, "set")) && !isMemberNameEnd(p.text(i+1)) {
		h.accessor = p.text(i) + " "
		i++
	}
	if p.is(i, "*") {
		i++
	}
	h.nameStart = i
	switch {
	case p.is(i, "["):
		if p.ident(i+1) && p.is(i+2, ":") {
			return h, i, true, nil
		}
		j, err := p.group(i)
		if err != nil {
			return h, 0, false, err
		}
		i = j
	case p.ident(i) || p.tok(i).kind == tString || p.tok(i).kind == tNumber || p.tok(i).kind == tPrivate:
		i++
	default:
		return h, 0, false, p.errAt(i, "expected a class member")
	}
	h.name = p.slice(h.nameStart, i)
	h.hash = p.tok(h.nameStart).kind == tPrivate
	h.isPrivate = contains(h.mods, "private")
	if p.is(i, "?") || p.is(i, "!") {
		if p.is(i, "?") {
			h.optional = "?"
		}
		i++
	}
	return h, i, false, nil
}

// method converts a method, accessor or constructor whose signature starts
// at token i, and returns the token after it.
func (p *parser) method(body *classBody, h memberHead, i int) (int, error) {
	ctor := h.name == "constructor"
	s, next, hasBody, err := p.signature(i, ctor)
	if err != nil {
		return 0, err
	}
	if s.err != nil {
		return 0, s.err
	}
	for _, prop := range s.props {
		body.convs = append(body.convs, memberConv{text: prop})
	}
	switch {
	case h.hash:
		body.private = true
	case h.isPrivate:
		body.hidden(h.mods, h.name)
	default:
		ret := ""
		if !ctor && h.accessor != "set " {
			if s.ret == "" {
				return 0, p.errAt(h.nameStart, "method %s has no return type: a declaration written without tsc needs one (isolatedDeclarations)", h.name)
			}
			ret = ": " + s.ret
		}
		text := strings.Join(keep(h.mods), "") + h.accessor + h.name + h.optional + s.typeParams + "(" + s.params + ")" + ret + ";"
		body.convs = append(body.convs, memberConv{key: h.accessor + h.name, doc: h.doc, text: text, body: hasBody})
	}
	return next, nil
}

// property converts a property whose type or initializer starts at token
// i, and returns the token after it.
func (p *parser) property(body *classBody, h memberHead, i, end int) (int, error) {
	mods, name, optional := h.mods, h.name, h.optional
	typ := ""
	if p.is(i, ":") {
		j, err := p.scanType(i+1, func(k int) bool { return k >= end || p.is(k, ";") || p.is(k, "=") })
		if err != nil {
			return 0, err
		}
		typ = p.slice(i+1, j)
		i = j
	}
	initStart := 0
	if p.is(i, "=") {
		initStart = i + 1
	}
	j, err := p.endOfMember(i, end)
	if err != nil {
		return 0, err
	}
	initEnd := j
	if p.is(j-1, ";") {
		initEnd = j - 1
	}
	switch {
	case h.hash:
		body.private = true
		return j, nil
	case h.isPrivate:
		body.hidden(mods, name)
		return j, nil
	case typ == "" && initStart != 0 && p.literal(initStart, initEnd) != "":
		if contains(mods, "readonly") {
			body.convs = append(body.convs, memberConv{doc: h.doc, text: strings.Join(keep(mods), "") + name + optional + " = " + p.slice(initStart, initEnd) + ";"})
			return j, nil
		}
		typ = p.literal(initStart, initEnd)
	case typ == "":
		return 0, p.errAt(h.nameStart, "property %s has no type: a declaration written without tsc needs one (isolatedDeclarations)", name)
	}
	body.convs = append(body.convs, memberConv{doc: h.doc, text: member(mods, name+optional, typ)})
	return j, nil
}

// member writes a property declaration; a private one (TypeScript's
// private) shows no type, as tsc writes it.
func member(mods []string, name, typ string) string {
	m := strings.Join(keep(mods), "")
	if contains(mods, "private") || typ == "" {
		return m + name + ";"
	}
	return m + name + ": " + typ + ";"
}

// keep returns the modifiers a declaration keeps, each followed by a
// space: not async, override, declare or accessor.
func keep(mods []string) []string {
	var out []string
	for _, m := range mods {
		switch m {
		case "async", "override", "declare", "accessor":
			continue
		}
		out = append(out, m+" ")
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isMemberNameEnd reports whether a token after a modifier word makes the
// word the member's name (static(): ..., readonly?: ...).
func isMemberNameEnd(s string) bool {
	switch s {
	case "(", "=", ";", ":", "?", "!", "<", "}":
		return true
	}
	return false
}

// endOfMember returns the index after a class property: its ";", or the
// end of its line before the next member or the class's "}".
func (p *parser) endOfMember(i, end int) (int, error) {
	for i < end {
		switch {
		case p.is(i, ";"):
			return i + 1, nil
		case p.is(i, "(") || p.is(i, "[") || p.is(i, "{"):
			j, err := p.group(i)
			if err != nil {
				return 0, err
			}
			i = j
		default:
			i++
		}
		if i < end && p.tok(i).nl && !p.is(i, ";") && !continuesExpression(p.text(i-1)) {
			return i, nil
		}
	}
	return i, nil
}

// continuesExpression reports whether a line ending in token s goes on.
func continuesExpression(s string) bool {
	switch s {
	case "=", "=>", ",", "(", "[", "{", ".", "+", "-", "*", "/", "%", "&", "|", "^", "?", ":", "<", ">", "!":
		return true
	}
	return false
}

// doc returns the documentation comment (/** */) right before token i,
// with only white space between it and the token, or "".
func (p *parser) doc(i int) string {
	trivia := p.src[p.tok(i).lead:p.tok(i).start]
	doc := ""
	for k := 0; k < len(trivia); {
		switch {
		case strings.HasPrefix(trivia[k:], "//"):
			e := strings.IndexAny(trivia[k:], "\r\n")
			if e < 0 {
				e = len(trivia) - k
			}
			doc = ""
			k += e
		case strings.HasPrefix(trivia[k:], "/*"):
			e := strings.Index(trivia[k+2:], "*/") + k + 4
			doc = ""
			if strings.HasPrefix(trivia[k:], "/**") && e-k > 4 {
				doc = trivia[k:e]
			}
			k = e
		default:
			k++
		}
	}
	return doc
}
