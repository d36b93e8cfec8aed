package tsdecl

// The scanners below find where things end. Each walks the tokens once,
// stepping over bracketed groups whole, so cutting a module is linear in
// its length.

// group returns the index after the bracket that closes the "(", "[" or
// "{" at token i.
func (p *parser) group(i int) (int, error) {
	var stack []byte
	for j := i; ; j++ {
		t := p.tok(j)
		if t.kind == tEOF {
			return 0, p.errAt(i, "%q is not closed", p.text(i))
		}
		if t.kind != tPunct || t.end-t.start != 1 {
			continue
		}
		switch c := p.src[t.start]; c {
		case '(', '[', '{':
			stack = append(stack, c)
		case ')', ']', '}':
			if len(stack) == 0 || closer(stack[len(stack)-1]) != c {
				return 0, p.errAt(j, "%q does not close %q", string(c), p.text(i))
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return j + 1, nil
			}
		}
	}
}

func closer(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

func isOpen(s string) bool  { return s == "(" || s == "[" || s == "{" }
func isClose(s string) bool { return s == ")" || s == "]" || s == "}" }

// parens and block return the index after the (...) or {...} at token i.
func (p *parser) parens(i int) (int, error) {
	if !p.is(i, "(") {
		return 0, p.errAt(i, "expected (")
	}
	return p.group(i)
}

func (p *parser) block(i int) (int, error) {
	if !p.is(i, "{") {
		return 0, p.errAt(i, "expected {")
	}
	return p.group(i)
}

// angles returns the index after the ">" that closes the type parameter
// or argument list opening at token i.
func (p *parser) angles(i int) (int, error) {
	depth := 0
	for j := i; ; j++ {
		switch t := p.text(j); {
		case p.eof(j) || t == ";" || isClose(t):
			return 0, p.errAt(i, "< is not closed")
		case t == "<":
			depth++
		case t == ">":
			depth--
			if depth == 0 {
				return j + 1, nil
			}
		case isOpen(t):
			k, err := p.group(j)
			if err != nil {
				return 0, err
			}
			j = k - 1
		}
	}
}

// scanType returns the index of the first token from i, outside brackets
// and type argument lists, at which stop is true, or at which a bracket
// closes that was opened before i, or the end.
func (p *parser) scanType(i int, stop func(int) bool) (int, error) {
	depth := 0
	for j := i; ; {
		t := p.text(j)
		if p.eof(j) || depth == 0 && stop(j) || p.closes(j) {
			return j, nil
		}
		switch {
		case t == "<" && p.tok(j).kind == tPunct:
			depth++
		case t == ">" && p.tok(j).kind == tPunct && depth > 0:
			depth--
		}
		var err error
		if j, err = p.step(j); err != nil {
			return 0, err
		}
	}
}

// step returns the index a scan outside brackets goes on from after token
// j: past the bracketed group j opens, else the next token.
func (p *parser) step(j int) (int, error) {
	if isOpen(p.text(j)) && p.tok(j).kind == tPunct {
		return p.group(j)
	}
	return j + 1, nil
}

// closes reports whether token j closes a bracket: one opened before the
// scan began, since step skips those it meets whole.
func (p *parser) closes(j int) bool {
	return isClose(p.text(j)) && p.tok(j).kind == tPunct
}

// expression returns the index of the "," that ends the expression
// starting at token i (a default value or an initializer), or end. A
// comma inside type arguments (new Map<string, number>()) is not the end:
// a "<" after a name that a matching ">" and then "(" follow is a type
// argument list, as TypeScript's parser decides.
func (p *parser) expression(i, end int) (int, error) {
	for j := i; j < end; {
		t := p.text(j)
		if t == "," {
			return j, nil
		}
		if t == "<" && j > i && (p.ident(j-1) || p.is(j-1, ">")) {
			if k, ok := p.typeArgs(j); ok && k <= end {
				j = k
				continue
			}
		}
		var err error
		if j, err = p.step(j); err != nil {
			return 0, err
		}
	}
	return end, nil
}

// typeArgs reports whether the "<" at token i opens type arguments of a
// call (its ">" is followed by "(" or a template literal) and returns the
// index after the ">".
func (p *parser) typeArgs(i int) (int, bool) {
	depth := 0
	for j := i; ; j++ {
		t := p.text(j)
		switch {
		case p.eof(j) || t == ";" || t == "=" || isClose(t):
			return 0, false
		case t == "<":
			depth++
		case t == ">":
			depth--
			if depth == 0 {
				if p.is(j+1, "(") || p.tok(j+1).kind == tTemplate {
					return j + 1, true
				}
				return 0, false
			}
		case isOpen(t):
			k, err := p.group(j)
			if err != nil {
				return 0, false
			}
			j = k - 1
		}
	}
}

// endOfStatement returns the index after the ";" that ends the statement
// starting at token i. Statements must end with one: without automatic
// semicolon insertion, a missing one is reported where the next statement
// (an import or export) starts on a new line.
func (p *parser) endOfStatement(i int) (int, error) {
	for j := i; ; {
		t := p.text(j)
		switch {
		case p.eof(j):
			return 0, p.errAt(i, "statement does not end with ;")
		case t == ";" && p.tok(j).kind == tPunct:
			return j + 1, nil
		case j > i && p.tok(j).nl && (t == "export" || t == "import" && !p.is(j+1, "(") && !p.is(j+1, ".")) && p.ident(j):
			return 0, p.errAt(i, "statement does not end with ; before the %s on line %d", t, lineOf(p.src, int(p.tok(j).start)))
		case p.closes(j):
			return 0, p.errAt(j, "unexpected %s", t)
		}
		var err error
		if j, err = p.step(j); err != nil {
			return 0, err
		}
	}
}

func lineOf(src string, off int) int {
	return errAt("", src, off, "").(*Error).Line
}
