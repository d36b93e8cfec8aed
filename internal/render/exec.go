package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"text/template/parse"
)

// Templates executes a template set the way text/template does, byte for
// byte, at a fraction of its cost on the per-kind loops of a large
// contract. Each template is compiled once per type of data into closures
// that know where every field is (text/template looks each field up by
// name, through reflect, at every evaluation), write strings without fmt,
// and call a func(string) string without reflect.
//
// The compiled program covers the subset of text/template the generated
// files' templates use: text, actions, if/else, with/else, range over a
// slice or array with break and continue, variables declared with :=,
// field and method chains, the functions of the set and the builtins and,
// or, not, eq, index, print, printf and println. A template using anything
// else (a variable declared in an argument of and or or after the first,
// an int passed for a *int), or data of a type it cannot resolve, is
// executed by text/template.
// So is any run the program cannot complete exactly as text/template would
// (a nil pointer, a method that is not addressable, a function's error or
// panic, a comparison of unlike values): its output is dropped and
// text/template runs again from the start, so its results and its errors
// are the ones text/template gives. exec_test.go checks both ways agree on
// every template of templates/ and on generated data of many shapes.
type Templates struct {
	t     *template.Template
	funcs template.FuncMap
	progs sync.Map // progKey -> compiled
}

// Executor is what Files renders with: a *template.Template or Templates.
type Executor interface {
	ExecuteTemplate(w io.Writer, name string, data any) error
}

// Compile wraps t, which must have been parsed with funcs (and only them)
// and is not changed afterwards: each program is compiled on first use and
// kept.
func Compile(t *template.Template, funcs template.FuncMap) *Templates {
	return &Templates{t: t, funcs: funcs}
}

// ParseFS parses the templates of fsys that match patterns, with funcs,
// into a set called name and compiles it: what every emitter's template set
// is. A template that does not parse is a bug in errgen, so it panics as
// template.Must does.
func ParseFS(name string, funcs template.FuncMap, fsys fs.FS, patterns ...string) *Templates {
	return Compile(template.Must(template.New(name).Funcs(funcs).ParseFS(fsys, patterns...)), funcs)
}

// Reference is the text/template set the programs are held to.
func (ts *Templates) Reference() *template.Template { return ts.t }

// ExecuteTemplate writes the template called name with data into w: with
// the compiled program when w is a *bytes.Buffer and the program compiles
// and completes, else with text/template.
func (ts *Templates) ExecuteTemplate(w io.Writer, name string, data any) error {
	if buf, ok := w.(*bytes.Buffer); ok {
		start := buf.Len()
		if ts.Compiled(buf, name, data) == nil {
			return nil
		}
		buf.Truncate(start)
	}
	return ts.t.ExecuteTemplate(w, name, data)
}

// errNotCompiled and errBail say why Compiled wrote nothing usable.
var (
	errNotCompiled = errors.New("render: the template does not compile")
	errBail        = errors.New("render: the compiled program stopped")
)

// Compiled runs the compiled program alone, with no text/template to fall
// back on: an error says it does not compile (errNotCompiled, wrapped with
// the reason) or stopped (errBail), with part of the output written.
func (ts *Templates) Compiled(buf *bytes.Buffer, name string, data any) error {
	p, err := ts.program(name, reflect.TypeOf(data))
	if err != nil {
		return err
	}
	return p.run(buf, data)
}

type progKey struct {
	name string
	typ  reflect.Type
}

// compiled is a program, or why there is none.
type compiled struct {
	p   *program
	err error
}

func (ts *Templates) program(name string, typ reflect.Type) (*program, error) {
	key := progKey{name, typ}
	if c, ok := ts.progs.Load(key); ok {
		return c.(compiled).p, c.(compiled).err
	}
	p, err := ts.compile(name, typ)
	if err != nil {
		err = fmt.Errorf("%w: %s: %v", errNotCompiled, name, err)
	}
	ts.progs.Store(key, compiled{p, err})
	return p, err
}

func (ts *Templates) compile(name string, typ reflect.Type) (p *program, err error) {
	defer func() {
		if r := recover(); r != nil { // a type reflect would not take: text/template's
			p, err = nil, fmt.Errorf("%v", r)
		}
	}()
	t := ts.t.Lookup(name)
	if t == nil || t.Tree == nil || t.Root == nil || typ == nil {
		return nil, errors.New("no such template, or no data")
	}
	c := &compiler{funcs: ts.funcs}
	c.scope = []variable{{"$", 0, typ}}
	c.slots = 1
	root, err := c.list(t.Root, typ)
	if err != nil {
		return nil, err
	}
	return &program{root: root, slots: c.slots}, nil
}

// program is a compiled template.
type program struct {
	root  step
	slots int // variables, $ first
}

// state is one run of a program.
type state struct {
	buf  *bytes.Buffer
	vars []reflect.Value
	num  []byte
}

// bail stops a run: text/template takes over.
type bail struct{}

func stop() { panic(bail{}) }

func (p *program) run(buf *bytes.Buffer, data any) (err error) {
	s := &state{buf: buf, vars: make([]reflect.Value, p.slots)}
	s.vars[0] = reflect.ValueOf(data)
	defer func() {
		if r := recover(); r != nil {
			// Any panic (a function's own too): text/template reports it.
			err = errBail
		}
	}()
	p.root(s, s.vars[0])
	return nil
}

// ctl is how a step ends: normally, or at a break or continue.
type ctl uint8

const (
	next ctl = iota
	brk
	cont
)

type step func(s *state, dot reflect.Value) ctl

// expr is a compiled pipeline or argument. typ is its static type, nil
// when only the run knows it (an interface). str, when set, gives a string
// value without boxing it in a reflect.Value.
type expr struct {
	typ reflect.Type
	val func(s *state, dot reflect.Value) reflect.Value
	str func(s *state, dot reflect.Value) string
	// app, when set, appends the string str gives to dst instead.
	app func(s *state, dot reflect.Value, dst []byte) []byte
}

// An Appender is a function of a set (a func(string) string, of a named
// type) that can also append its result to a byte slice: a compiled
// template printing its result writes it into the file without making a
// string of it first. AppendString(dst, s) must be append(dst, f(s)...).
type Appender interface {
	AppendString(dst []byte, s string) []byte
}

type variable struct {
	name string
	slot int
	typ  reflect.Type
}

type compiler struct {
	funcs template.FuncMap
	scope []variable
	slots int
}

func (c *compiler) list(l *parse.ListNode, dot reflect.Type) (step, error) {
	if l == nil {
		return func(*state, reflect.Value) ctl { return next }, nil
	}
	var steps []step
	for _, n := range l.Nodes {
		st, err := c.node(n, dot)
		if err != nil {
			return nil, err
		}
		if st != nil {
			steps = append(steps, st)
		}
	}
	return func(s *state, dot reflect.Value) ctl {
		for _, st := range steps {
			if r := st(s, dot); r != next {
				return r
			}
		}
		return next
	}, nil
}

func (c *compiler) node(n parse.Node, dot reflect.Type) (step, error) {
	switch n := n.(type) {
	case *parse.TextNode:
		text := n.Text
		return func(s *state, _ reflect.Value) ctl { s.buf.Write(text); return next }, nil
	case *parse.CommentNode:
		return nil, nil
	case *parse.ActionNode:
		e, err := c.pipe(n.Pipe, dot)
		if err != nil {
			return nil, err
		}
		if len(n.Pipe.Decl) > 0 {
			return func(s *state, dot reflect.Value) ctl { e.val(s, dot); return next }, nil
		}
		return c.printer(e), nil
	case *parse.IfNode:
		return c.ifWith(false, n.Pipe, n.List, n.ElseList, dot)
	case *parse.WithNode:
		return c.ifWith(true, n.Pipe, n.List, n.ElseList, dot)
	case *parse.RangeNode:
		return c.rangeNode(n, dot)
	case *parse.BreakNode:
		return func(*state, reflect.Value) ctl { return brk }, nil
	case *parse.ContinueNode:
		return func(*state, reflect.Value) ctl { return cont }, nil
	}
	return nil, fmt.Errorf("unsupported node %s", n)
}

// printer writes a value as text/template's printValue does (fmt.Print
// of it, or of its address where that is what has String or Error);
// strings, integers and booleans without such methods directly.
func (c *compiler) printer(e expr) step {
	if t := e.typ; t != nil && !hasPrintMethod(t) {
		switch {
		case e.app != nil:
			return func(s *state, dot reflect.Value) ctl {
				s.buf.Write(e.app(s, dot, s.buf.AvailableBuffer()))
				return next
			}
		case e.str != nil:
			return func(s *state, dot reflect.Value) ctl { s.buf.WriteString(e.str(s, dot)); return next }
		case intKind(t.Kind()):
			return func(s *state, dot reflect.Value) ctl {
				s.num = strconv.AppendInt(s.num[:0], e.val(s, dot).Int(), 10)
				s.buf.Write(s.num)
				return next
			}
		case t.Kind() == reflect.Bool:
			return func(s *state, dot reflect.Value) ctl {
				s.buf.WriteString(strconv.FormatBool(e.val(s, dot).Bool()))
				return next
			}
		}
	}
	return func(s *state, dot reflect.Value) ctl {
		v, ok := printableValue(e.val(s, dot))
		if !ok {
			stop()
		}
		fmt.Fprint(s.buf, v)
		return next
	}
}

var (
	errorType       = reflect.TypeFor[error]()
	stringerType    = reflect.TypeFor[fmt.Stringer]()
	formatterType   = reflect.TypeFor[fmt.Formatter]()
	stringType      = reflect.TypeFor[string]()
	intType         = reflect.TypeFor[int]()
	reflectValueTyp = reflect.TypeFor[reflect.Value]()
)

// hasPrintMethod says fmt may print a t otherwise than its kind's plain
// form: it or its address has String or Error, or it has Format (which
// fmt.Fprint calls too).
func hasPrintMethod(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(errorType) || t.Implements(stringerType) || p.Implements(errorType) || p.Implements(stringerType) ||
		t.Implements(formatterType) || p.Implements(formatterType)
}

func intKind(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Int64
}

// printableValue is text/template's.
func printableValue(v reflect.Value) (any, bool) {
	if v.Kind() == reflect.Pointer {
		v, _ = indirect(v)
	}
	if !v.IsValid() {
		return "<no value>", true
	}
	if !v.Type().Implements(errorType) && !v.Type().Implements(stringerType) {
		if v.CanAddr() && (reflect.PointerTo(v.Type()).Implements(errorType) || reflect.PointerTo(v.Type()).Implements(stringerType)) {
			v = v.Addr()
		} else {
			switch v.Kind() {
			case reflect.Chan, reflect.Func:
				return nil, false
			}
		}
	}
	return v.Interface(), true
}

func indirect(v reflect.Value) (rv reflect.Value, isNil bool) {
	for ; v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface; v = v.Elem() {
		if v.IsNil() {
			return v, true
		}
	}
	return v, false
}

func indirectInterface(v reflect.Value) reflect.Value {
	if v.Kind() != reflect.Interface || v.IsNil() {
		return v
	}
	return v.Elem()
}

// isTrue is text/template's.
func isTrue(val reflect.Value) (truth, ok bool) {
	if !val.IsValid() {
		return false, true
	}
	switch val.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		truth = val.Len() > 0
	case reflect.Bool:
		truth = val.Bool()
	case reflect.Complex64, reflect.Complex128:
		truth = val.Complex() != 0
	case reflect.Chan, reflect.Func, reflect.Pointer, reflect.UnsafePointer, reflect.Interface:
		truth = !val.IsNil()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		truth = val.Int() != 0
	case reflect.Float32, reflect.Float64:
		truth = val.Float() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		truth = val.Uint() != 0
	case reflect.Struct:
		truth = true
	default:
		return
	}
	return truth, true
}

// truth is isTrue as not, and and or read it.
func truth(v reflect.Value) bool {
	t, _ := isTrue(indirectInterface(v))
	return t
}

// ifWith compiles if and with: the truth of the pipeline picks the list,
// and with runs its list with the pipeline's value as dot.
func (c *compiler) ifWith(with bool, pipe *parse.PipeNode, list, elseList *parse.ListNode, dot reflect.Type) (step, error) {
	mark := len(c.scope)
	defer func() { c.scope = c.scope[:mark] }()
	e, err := c.pipe(pipe, dot)
	if err != nil {
		return nil, err
	}
	inner := dot
	if with {
		inner = e.typ
	}
	piped := len(c.scope) // the pipeline's variables: the else list sees them
	then, err := c.list(list, inner)
	if err != nil {
		return nil, err
	}
	// Variables the then list declares end with it (text/template pops
	// them): the else list must not see them, or it would read a slot the
	// then list set on an earlier run, where text/template reads an outer
	// variable of the same name or reports an undefined one.
	c.scope = c.scope[:piped]
	els, err := c.list(elseList, dot)
	if err != nil {
		return nil, err
	}
	if e.str != nil && !with {
		return func(s *state, dot reflect.Value) ctl {
			if e.str(s, dot) != "" {
				return then(s, dot)
			}
			return els(s, dot)
		}, nil
	}
	return func(s *state, dot reflect.Value) ctl {
		v := e.val(s, dot)
		t, ok := isTrue(indirectInterface(v))
		if !ok {
			stop()
		}
		if !t {
			return els(s, dot)
		}
		if with {
			return then(s, v)
		}
		return then(s, dot)
	}, nil
}

// rangeNode compiles range over a slice or array (through pointers).
func (c *compiler) rangeNode(r *parse.RangeNode, dot reflect.Type) (step, error) {
	mark := len(c.scope)
	defer func() { c.scope = c.scope[:mark] }()
	p := r.Pipe
	if p.IsAssign || len(p.Cmds) != 1 || len(p.Decl) > 2 {
		return nil, errors.New("unsupported range pipeline")
	}
	e, err := c.command(p.Cmds[0], dot)
	if err != nil {
		return nil, err
	}
	e = unwrapEmpty(e)
	t := e.typ
	if t == nil {
		return nil, errors.New("range over a value of unknown type")
	}
	ptrs := 0
	for t.Kind() == reflect.Pointer {
		t, ptrs = t.Elem(), ptrs+1
	}
	if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
		return nil, fmt.Errorf("range over %s", t)
	}
	// The pipeline's variables hold its value (the else list sees that);
	// in the body the last is the element and, of two, the first the index.
	// (After any the command declares itself, in a parenthesized
	// pipeline.)
	decl := len(c.scope)
	var slots []int
	for _, d := range p.Decl {
		slots = append(slots, c.declare(d.Ident[0], e.typ))
	}
	elemVar, indexVar := -1, -1
	if len(slots) > 0 {
		elemVar = slots[len(slots)-1]
		c.scope[len(c.scope)-1].typ = t.Elem()
	}
	if len(slots) > 1 {
		indexVar = slots[0]
		c.scope[len(c.scope)-2].typ = reflect.TypeFor[int]()
	}
	body, err := c.list(r.List, t.Elem())
	if err != nil {
		return nil, err
	}
	// The body's own variables end with each iteration: the else list
	// sees only the pipeline's (as in if and with).
	c.scope = c.scope[:decl+len(slots)]
	for i := range slots {
		c.scope[decl+i].typ = e.typ
	}
	els, err := c.list(r.ElseList, dot)
	if err != nil {
		return nil, err
	}
	return func(s *state, dot reflect.Value) ctl {
		v := e.val(s, dot)
		for _, slot := range slots {
			s.vars[slot] = v
		}
		for range ptrs {
			if v.IsNil() {
				stop()
			}
			v = v.Elem()
		}
		n := v.Len()
		if n == 0 {
			// text/template's walkRange recovers a break anywhere under
			// it, its else list included (a break there, legal inside
			// an outer range, ends this range only); a continue goes on
			// to the outer range.
			if els(s, dot) == cont {
				return cont
			}
			return next
		}
		var index reflect.Value
		if indexVar >= 0 {
			index = reflect.New(reflect.TypeFor[int]()).Elem()
		}
		for i := 0; i < n; i++ {
			elem := v.Index(i)
			if elemVar >= 0 {
				s.vars[elemVar] = elem
			}
			if indexVar >= 0 {
				index.SetInt(int64(i))
				s.vars[indexVar] = index
			}
			if body(s, elem) == brk {
				break
			}
		}
		return next
	}, nil
}

// declare adds a variable to the scope and returns its slot.
func (c *compiler) declare(name string, typ reflect.Type) int {
	c.scope = append(c.scope, variable{name, c.slots, typ})
	c.slots++
	return c.slots - 1
}

func (c *compiler) lookup(name string) (variable, error) {
	for i := len(c.scope) - 1; i >= 0; i-- {
		if c.scope[i].name == name {
			return c.scope[i], nil
		}
	}
	return variable{}, fmt.Errorf("undefined variable %s", name)
}

// unwrapEmpty is evalPipeline's step into a value held as interface{}.
// A value of unknown type (typ nil) may be one.
func unwrapEmpty(e expr) expr {
	if e.typ != nil && (e.typ.Kind() != reflect.Interface || e.typ.NumMethod() != 0) {
		return e
	}
	val := e.val
	return expr{val: func(s *state, dot reflect.Value) reflect.Value {
		v := val(s, dot)
		if v.Kind() == reflect.Interface && v.Type().NumMethod() == 0 {
			v = v.Elem()
		}
		return v
	}}
}

func (c *compiler) pipe(p *parse.PipeNode, dot reflect.Type) (expr, error) {
	if p == nil || p.IsAssign || len(p.Cmds) != 1 {
		return expr{}, errors.New("unsupported pipeline")
	}
	e, err := c.command(p.Cmds[0], dot)
	if err != nil {
		return expr{}, err
	}
	e = unwrapEmpty(e)
	if len(p.Decl) == 0 {
		return e, nil
	}
	var slots []int
	for _, d := range p.Decl {
		slots = append(slots, c.declare(d.Ident[0], e.typ))
	}
	val := e.val
	return expr{typ: e.typ, val: func(s *state, dot reflect.Value) reflect.Value {
		v := val(s, dot)
		for _, slot := range slots {
			s.vars[slot] = v
		}
		return v
	}}, nil
}

func (c *compiler) command(cmd *parse.CommandNode, dot reflect.Type) (expr, error) {
	args := cmd.Args[1:]
	switch n := cmd.Args[0].(type) {
	case *parse.FieldNode:
		return c.chain(dotExpr(dot), n.Ident, args, dot)
	case *parse.ChainNode:
		p, ok := n.Node.(*parse.PipeNode)
		if !ok {
			return expr{}, errors.New("unsupported chain")
		}
		recv, err := c.pipe(p, dot)
		if err != nil {
			return expr{}, err
		}
		return c.chain(recv, n.Field, args, dot)
	case *parse.IdentifierNode:
		return c.call(n.Ident, args, dot)
	case *parse.VariableNode:
		v, err := c.variable(n)
		if err != nil {
			return expr{}, err
		}
		if len(n.Ident) == 1 {
			if len(args) > 0 {
				return expr{}, errors.New("arguments to a variable")
			}
			return v, nil
		}
		return c.chain(v, n.Ident[1:], args, dot)
	case *parse.PipeNode:
		if len(args) > 0 {
			return expr{}, errors.New("arguments to a pipeline")
		}
		return c.pipe(n, dot)
	}
	if len(args) > 0 {
		return expr{}, errors.New("arguments to a constant")
	}
	switch n := cmd.Args[0].(type) {
	case *parse.DotNode:
		return dotExpr(dot), nil
	case *parse.StringNode:
		return constant(reflect.ValueOf(n.Text)), nil
	case *parse.BoolNode:
		return constant(reflect.ValueOf(n.True)), nil
	case *parse.NumberNode:
		v, err := idealConstant(n)
		if err != nil {
			return expr{}, err
		}
		return constant(v), nil
	}
	return expr{}, fmt.Errorf("unsupported command %s", cmd)
}

func dotExpr(t reflect.Type) expr {
	e := expr{typ: t, val: func(_ *state, dot reflect.Value) reflect.Value { return dot }}
	if t != nil && t.Kind() == reflect.Interface {
		e.typ = nil
	}
	if e.typ != nil && e.typ.Kind() == reflect.String {
		e.str = func(_ *state, dot reflect.Value) string { return dot.String() }
	}
	return e
}

func constant(v reflect.Value) expr {
	e := expr{typ: v.Type(), val: func(*state, reflect.Value) reflect.Value { return v }}
	if v.Kind() == reflect.String {
		text := v.String()
		e.str = func(*state, reflect.Value) string { return text }
	}
	return e
}

func (c *compiler) variable(n *parse.VariableNode) (expr, error) {
	v, err := c.lookup(n.Ident[0])
	if err != nil {
		return expr{}, err
	}
	slot := v.slot
	e := expr{typ: v.typ, val: func(s *state, _ reflect.Value) reflect.Value { return s.vars[slot] }}
	if e.typ != nil && e.typ.Kind() == reflect.Interface {
		e.typ = nil
	}
	if e.typ != nil && e.typ.Kind() == reflect.String {
		e.str = func(s *state, _ reflect.Value) string { return s.vars[slot].String() }
	}
	return e, nil
}

// idealConstant is text/template's: a number with no type to fit.
func idealConstant(n *parse.NumberNode) (reflect.Value, error) {
	switch {
	case n.IsComplex:
		return reflect.ValueOf(n.Complex128), nil
	case n.IsFloat && !(len(n.Text) > 2 && n.Text[0] == '0' && (n.Text[1] == 'x' || n.Text[1] == 'X') && !strings.ContainsAny(n.Text, "pP")) &&
		!(len(n.Text) > 0 && n.Text[0] == '\'') && strings.ContainsAny(n.Text, ".eEpP"):
		return reflect.ValueOf(n.Float64), nil
	case n.IsInt:
		i := int(n.Int64)
		if int64(i) != n.Int64 {
			return reflect.Value{}, errors.New("overflow")
		}
		return reflect.ValueOf(i), nil
	}
	return reflect.Value{}, errors.New("overflow")
}

// chain compiles .A.B.C on recv; the last gets the arguments.
func (c *compiler) chain(recv expr, idents []string, args []parse.Node, dot reflect.Type) (expr, error) {
	var err error
	for i, name := range idents {
		var a []parse.Node
		if i == len(idents)-1 {
			a = args
		}
		if recv, err = c.field(recv, name, a, dot); err != nil {
			return expr{}, err
		}
	}
	return recv, nil
}

// field compiles one step of a chain as text/template's evalField takes
// it: a method of the value (of its address where it is addressable), else
// a field of a struct, else a key of a map. Pointers on the way are
// followed; a nil one stops the run.
func (c *compiler) field(recv expr, name string, args []parse.Node, dot reflect.Type) (expr, error) {
	t := recv.typ
	if t == nil {
		return expr{}, fmt.Errorf("field %s of a value of unknown type", name)
	}
	ptrs := 0
	for t.Kind() == reflect.Pointer {
		t, ptrs = t.Elem(), ptrs+1
	}
	if t.Kind() == reflect.Interface {
		return expr{}, fmt.Errorf("field %s of an interface", name)
	}
	get := recv.val
	base := func(s *state, dot reflect.Value) reflect.Value {
		v := get(s, dot)
		for range ptrs {
			if v.IsNil() {
				stop()
			}
			v = v.Elem()
		}
		return v
	}
	if ptrs == 0 {
		base = get
	}
	if m, ok := reflect.PointerTo(t).MethodByName(name); ok {
		_, onValue := t.MethodByName(name)
		fn := func(s *state, dot reflect.Value) reflect.Value {
			v := base(s, dot)
			if v.CanAddr() {
				return v.Addr().Method(m.Index)
			}
			if !onValue {
				stop() // text/template would not see it
			}
			return v.MethodByName(name)
		}
		ft := m.Type
		in := make([]reflect.Type, ft.NumIn()-1)
		for i := range in {
			in[i] = ft.In(i + 1)
		}
		out := make([]reflect.Type, ft.NumOut())
		for i := range out {
			out[i] = ft.Out(i)
		}
		return c.callValue(fn, reflect.FuncOf(in, out, ft.IsVariadic()), args, dot)
	}
	switch t.Kind() {
	case reflect.Struct:
		sf, ok := t.FieldByName(name)
		if !ok || !sf.IsExported() || len(args) > 0 {
			break
		}
		index := sf.Index
		val := func(s *state, dot reflect.Value) reflect.Value {
			v := base(s, dot)
			for i, x := range index {
				if i > 0 && v.Kind() == reflect.Pointer {
					if v.IsNil() {
						stop()
					}
					v = v.Elem()
				}
				v = v.Field(x)
			}
			return v
		}
		if len(index) == 1 {
			x := index[0]
			val = func(s *state, dot reflect.Value) reflect.Value { return base(s, dot).Field(x) }
		}
		return typed(sf.Type, val), nil
	case reflect.Map:
		key := reflect.ValueOf(name)
		if !key.Type().AssignableTo(t.Key()) || len(args) > 0 {
			break
		}
		return typed(t.Elem(), func(s *state, dot reflect.Value) reflect.Value {
			v := base(s, dot).MapIndex(key)
			if !v.IsValid() {
				stop() // a missing key: text/template's rules for it
			}
			return v
		}), nil
	}
	return expr{}, fmt.Errorf("can't evaluate field %s in type %s", name, recv.typ)
}

// typed is an expr of static type t, with str for a string kind.
func typed(t reflect.Type, val func(*state, reflect.Value) reflect.Value) expr {
	e := expr{typ: t, val: val}
	if t.Kind() == reflect.Interface {
		e.typ = nil
	}
	if t.Kind() == reflect.String {
		e.str = func(s *state, dot reflect.Value) string { return val(s, dot).String() }
	}
	return e
}

// call compiles a function of the set or a builtin.
func (c *compiler) call(name string, args []parse.Node, dot reflect.Type) (expr, error) {
	if f, ok := c.funcs[name]; ok {
		fv := reflect.ValueOf(f)
		if fv.Kind() != reflect.Func {
			return expr{}, fmt.Errorf("%s is not a function", name)
		}
		if len(args) == 1 {
			if e, ok := c.fastCall(f, args[0], dot); ok {
				return e, nil
			}
		}
		return c.callValue(func(*state, reflect.Value) reflect.Value { return fv }, fv.Type(), args, dot)
	}
	if name == "printf" {
		if e, ok := c.printfStrings(args, dot); ok {
			return e, nil
		}
	}
	switch name {
	case "print", "printf", "println":
		fv := reflect.ValueOf(map[string]any{"print": fmt.Sprint, "printf": fmt.Sprintf, "println": fmt.Sprintln}[name])
		return c.callValue(func(*state, reflect.Value) reflect.Value { return fv }, fv.Type(), args, dot)
	case "not", "and", "or", "eq", "index", "len":
		return c.builtin(name, args, dot)
	}
	return expr{}, fmt.Errorf("unsupported function %s", name)
}

// fastCall calls a func(string) string or func(any) string of one string
// argument without reflect.
func (c *compiler) fastCall(f any, arg parse.Node, dot reflect.Type) (expr, bool) {
	var call func(string) string
	appender, _ := f.(Appender)
	switch f := f.(type) {
	case func(string) string:
		call = f
	case func(any) string:
		call = func(s string) string { return f(s) }
	default:
		fv := reflect.ValueOf(f)
		if plain := reflect.TypeFor[func(string) string](); appender == nil || !fv.Type().ConvertibleTo(plain) {
			return expr{}, false
		}
		call = fv.Convert(reflect.TypeFor[func(string) string]()).Interface().(func(string) string)
	}
	mark, slots := len(c.scope), c.slots
	a, err := c.arg(arg, nil, dot)
	if err != nil || a.typ != stringType { // a named string type, a constant: the general path
		c.scope, c.slots = c.scope[:mark], slots
		return expr{}, false
	}
	str := func(s *state, dot reflect.Value) string { return call(a.str(s, dot)) }
	e := expr{typ: stringType, str: str, val: func(s *state, dot reflect.Value) reflect.Value {
		return reflect.ValueOf(str(s, dot))
	}}
	if appender != nil {
		e.app = func(s *state, dot reflect.Value, dst []byte) []byte { return appender.AppendString(dst, a.str(s, dot)) }
	}
	return e, true
}

// printfStrings compiles printf of a constant format whose verbs are all
// %s, one for each argument, each a string: the pieces joined, which is
// what fmt.Sprintf writes for them.
func (c *compiler) printfStrings(args []parse.Node, dot reflect.Type) (expr, bool) {
	if len(args) == 0 {
		return expr{}, false
	}
	format, ok := args[0].(*parse.StringNode)
	if !ok {
		return expr{}, false
	}
	pieces := strings.Split(format.Text, "%s")
	if len(pieces) != len(args) || strings.Contains(format.Text, "%%") {
		return expr{}, false
	}
	for _, p := range pieces {
		if strings.Contains(p, "%") {
			return expr{}, false
		}
	}
	mark, slots := len(c.scope), c.slots
	argv := make([]expr, len(args)-1)
	for i, a := range args[1:] {
		e, err := c.arg(a, nil, dot)
		if err != nil || e.typ != stringType {
			c.scope, c.slots = c.scope[:mark], slots
			return expr{}, false
		}
		argv[i] = e
	}
	str := func(s *state, dot reflect.Value) string {
		n := 0
		for _, p := range pieces {
			n += len(p)
		}
		var parts [8]string
		vals := parts[:0]
		for _, a := range argv {
			v := a.str(s, dot)
			n += len(v)
			vals = append(vals, v)
		}
		var b strings.Builder
		b.Grow(n)
		for i, p := range pieces {
			b.WriteString(p)
			if i < len(vals) {
				b.WriteString(vals[i])
			}
		}
		return b.String()
	}
	return expr{typ: stringType, str: str, val: func(s *state, dot reflect.Value) reflect.Value {
		return reflect.ValueOf(str(s, dot))
	}}, true
}

// callValue compiles a call of the function fn gives, of type ft, as
// text/template's evalCall makes it.
func (c *compiler) callValue(fn func(*state, reflect.Value) reflect.Value, ft reflect.Type, args []parse.Node, dot reflect.Type) (expr, error) {
	numFixed := len(args)
	if ft.IsVariadic() {
		numFixed = ft.NumIn() - 1
		if len(args) < numFixed {
			return expr{}, errors.New("too few arguments")
		}
	} else if len(args) != ft.NumIn() {
		return expr{}, errors.New("wrong number of arguments")
	}
	if !(ft.NumOut() == 1 || ft.NumOut() == 2 && ft.Out(1) == errorType) {
		return expr{}, errors.New("a function of neither one result nor a result and an error")
	}
	argv := make([]expr, len(args))
	for i, a := range args {
		pt := reflect.Type(nil)
		if i < numFixed {
			pt = ft.In(i)
		} else {
			pt = ft.In(ft.NumIn() - 1).Elem()
		}
		e, err := c.arg(a, pt, dot)
		if err != nil {
			return expr{}, err
		}
		argv[i] = e
	}
	out := ft.Out(0)
	val := func(s *state, dot reflect.Value) reflect.Value {
		f := fn(s, dot)
		in := make([]reflect.Value, len(argv))
		for i, a := range argv {
			in[i] = a.val(s, dot)
		}
		res := f.Call(in)
		if len(res) == 2 && !res[1].IsNil() {
			stop()
		}
		v := res[0]
		if v.Type() == reflectValueTyp {
			v = v.Interface().(reflect.Value)
		}
		return v
	}
	if out == reflectValueTyp {
		return expr{val: val}, nil
	}
	return typed(out, val), nil
}

// arg compiles an argument for a parameter of type pt (nil: as it is), as
// text/template's evalArg and validateType take it.
func (c *compiler) arg(n parse.Node, pt reflect.Type, dot reflect.Type) (expr, error) {
	var e expr
	var err error
	switch n := n.(type) {
	case *parse.DotNode:
		e = dotExpr(dot)
	case *parse.NilNode:
		if pt == nil || !canBeNil(pt) {
			return expr{}, errors.New("nil argument")
		}
		return constant(reflect.Zero(pt)), nil
	case *parse.FieldNode:
		e, err = c.chain(dotExpr(dot), n.Ident, nil, dot)
	case *parse.VariableNode:
		e, err = c.variable(n)
		if err == nil && len(n.Ident) > 1 {
			e, err = c.chain(e, n.Ident[1:], nil, dot)
		}
	case *parse.PipeNode:
		e, err = c.pipe(n, dot)
	case *parse.IdentifierNode:
		e, err = c.call(n.Ident, nil, dot)
	case *parse.ChainNode:
		e, err = c.command(&parse.CommandNode{Args: []parse.Node{n}}, dot)
	default:
		if pt == nil {
			return expr{}, errors.New("a constant without a type")
		}
		v, err := constantArg(n, pt)
		if err != nil {
			return expr{}, err
		}
		return constant(v), nil
	}
	if err != nil {
		return expr{}, err
	}
	if pt == nil {
		return e, nil
	}
	return validate(e, pt)
}

// constantArg is text/template's evalArg of a constant for a parameter of
// type pt.
func constantArg(n parse.Node, pt reflect.Type) (reflect.Value, error) {
	v := reflect.New(pt).Elem()
	switch k := pt.Kind(); {
	case k == reflect.Bool:
		if b, ok := n.(*parse.BoolNode); ok {
			v.SetBool(b.True)
			return v, nil
		}
	case k == reflect.String:
		if s, ok := n.(*parse.StringNode); ok {
			v.SetString(s.Text)
			return v, nil
		}
	case intKind(k):
		if num, ok := n.(*parse.NumberNode); ok && num.IsInt {
			v.SetInt(num.Int64)
			return v, nil
		}
	case k >= reflect.Uint && k <= reflect.Uintptr:
		if num, ok := n.(*parse.NumberNode); ok && num.IsUint {
			v.SetUint(num.Uint64)
			return v, nil
		}
	case k == reflect.Float32 || k == reflect.Float64:
		if num, ok := n.(*parse.NumberNode); ok && num.IsFloat {
			v.SetFloat(num.Float64)
			return v, nil
		}
	case k == reflect.Interface && pt.NumMethod() == 0:
		switch n := n.(type) {
		case *parse.BoolNode:
			return reflect.ValueOf(n.True), nil
		case *parse.StringNode:
			return reflect.ValueOf(n.Text), nil
		case *parse.NumberNode:
			return idealConstant(n)
		}
	}
	return reflect.Value{}, fmt.Errorf("constant %s for %s", n, pt)
}

func canBeNil(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice:
		return true
	}
	return false
}

// validate is text/template's validateType: e's value made a pt, where it
// is assignable, or one pointer away.
func validate(e expr, pt reflect.Type) (expr, error) {
	val := e.val
	if t := e.typ; t != nil {
		switch {
		case t.AssignableTo(pt):
			return e, nil
		case t.Kind() == reflect.Pointer && t.Elem().AssignableTo(pt):
			return typed(pt, func(s *state, dot reflect.Value) reflect.Value {
				v := val(s, dot)
				if v.IsNil() {
					stop()
				}
				return v.Elem()
			}), nil
		case reflect.PointerTo(t).AssignableTo(pt) && t != intType:
			// (Not an int: a range's index, addressable here, is a
			// copy in text/template, which will not take its address.)
			return typed(pt, func(s *state, dot reflect.Value) reflect.Value {
				v := val(s, dot)
				if !v.CanAddr() {
					stop()
				}
				return v.Addr()
			}), nil
		}
		return expr{}, fmt.Errorf("%s for %s", t, pt)
	}
	return expr{typ: pt, val: func(s *state, dot reflect.Value) reflect.Value {
		v := val(s, dot)
		if !v.IsValid() {
			if !canBeNil(pt) {
				stop()
			}
			return reflect.Zero(pt)
		}
		if v.Type().AssignableTo(pt) {
			return v
		}
		if v.Kind() == reflect.Interface && !v.IsNil() && v.Elem().Type().AssignableTo(pt) {
			return v.Elem()
		}
		stop() // text/template's other conversions, or its error
		return v
	}}, nil
}

// builtin compiles not, and, or, eq and index, whose arguments are taken
// as they are (text/template passes them as reflect.Values).
func (c *compiler) builtin(name string, args []parse.Node, dot reflect.Type) (expr, error) {
	if len(args) == 0 {
		return expr{}, errors.New("no arguments")
	}
	argv := make([]expr, len(args))
	slots := c.slots
	for i, a := range args {
		e, err := c.arg(a, nil, dot)
		if _, ok := a.(*parse.NilNode); ok || err != nil && isConstant(a) {
			// constants are text/template's evalEmptyInterface
			e, err = c.arg(a, reflect.TypeFor[any](), dot)
		}
		if err != nil {
			return expr{}, err
		}
		argv[i] = e
		if i == 0 {
			slots = c.slots
		}
	}
	if (name == "and" || name == "or") && c.slots != slots {
		// A variable declared in an argument and or or may not
		// evaluate: text/template then has no such variable, where a
		// slot would hold nothing or an earlier run's value.
		return expr{}, errors.New("a variable declared in an argument of " + name + " after the first")
	}
	boolean := reflect.TypeFor[bool]()
	switch name {
	case "not":
		if len(argv) != 1 {
			return expr{}, errors.New("not takes one argument")
		}
		a := argv[0]
		return typed(boolean, func(s *state, dot reflect.Value) reflect.Value {
			return reflect.ValueOf(!truth(a.val(s, dot)))
		}), nil
	case "and", "or":
		or := name == "or"
		var typ reflect.Type
		if argv[0].typ != nil {
			typ = argv[0].typ
			for _, a := range argv {
				if a.typ != typ {
					typ = nil
				}
			}
		}
		val := func(s *state, dot reflect.Value) reflect.Value {
			var v reflect.Value
			for _, a := range argv {
				if v = a.val(s, dot); truth(v) == or {
					return v
				}
			}
			return v
		}
		if typ == nil {
			return expr{val: val}, nil
		}
		return typed(typ, val), nil
	case "eq":
		if len(argv) < 2 {
			return expr{}, errors.New("eq takes two arguments or more")
		}
		return typed(boolean, func(s *state, dot reflect.Value) reflect.Value {
			return reflect.ValueOf(eq(s, dot, argv))
		}), nil
	case "len":
		if len(argv) != 1 {
			return expr{}, errors.New("len takes one argument")
		}
		a := argv[0]
		return typed(reflect.TypeFor[int](), func(s *state, dot reflect.Value) reflect.Value {
			v := indirectInterface(a.val(s, dot))
			for v.Kind() == reflect.Pointer && !v.IsNil() {
				v = v.Elem()
			}
			switch v.Kind() {
			case reflect.Array, reflect.Chan, reflect.Map, reflect.Slice, reflect.String:
				return reflect.ValueOf(v.Len())
			}
			stop() // a nil pointer or a kind without a length: text/template's error
			return reflect.Value{}
		}), nil
	default: // index
		typ := argv[0].typ
		for range argv[1:] {
			if typ == nil {
				break
			}
			for typ.Kind() == reflect.Pointer {
				typ = typ.Elem()
			}
			switch typ.Kind() {
			case reflect.Array, reflect.Slice, reflect.Map:
				typ = typ.Elem()
			case reflect.String:
				typ = reflect.TypeFor[uint8]()
			default:
				typ = nil
			}
		}
		val := func(s *state, dot reflect.Value) reflect.Value { return index(s, dot, argv) }
		if typ == nil {
			return expr{val: val}, nil
		}
		return typed(typ, val), nil
	}
}

func isConstant(n parse.Node) bool {
	switch n.(type) {
	case *parse.BoolNode, *parse.StringNode, *parse.NumberNode:
		return true
	}
	return false
}

// eq is text/template's eq on values of basic kinds; anything else stops
// the run.
func eq(s *state, dot reflect.Value, argv []expr) bool {
	// text/template evaluates every argument before eq compares any (an
	// argument that fails fails the run even where an earlier one is
	// equal).
	var buf [4]reflect.Value
	vals := buf[:0]
	for _, e := range argv {
		vals = append(vals, e.val(s, dot))
	}
	a := indirectInterface(vals[0])
	k1 := basicKind(a)
	for _, v := range vals[1:] {
		b := indirectInterface(v)
		if k1 != basicKind(b) || k1 == reflect.Invalid {
			stop()
		}
		var t bool
		switch k1 {
		case reflect.Bool:
			t = a.Bool() == b.Bool()
		case reflect.Int:
			t = a.Int() == b.Int()
		case reflect.Uint:
			t = a.Uint() == b.Uint()
		case reflect.Float64:
			t = a.Float() == b.Float()
		case reflect.String:
			t = a.String() == b.String()
		default:
			stop()
		}
		if t {
			return true
		}
	}
	return false
}

// basicKind sorts the kinds eq compares: one of Bool, Int, Uint, Float64
// or String, else Invalid.
func basicKind(v reflect.Value) reflect.Kind {
	switch k := v.Kind(); {
	case k == reflect.Bool, k == reflect.String:
		return k
	case intKind(k):
		return reflect.Int
	case k >= reflect.Uint && k <= reflect.Uintptr:
		return reflect.Uint
	case k == reflect.Float32 || k == reflect.Float64:
		return reflect.Float64
	}
	return reflect.Invalid
}

// index is text/template's index on slices, arrays, strings and maps;
// anything it reports as an error stops the run.
func index(s *state, dot reflect.Value, argv []expr) reflect.Value {
	item := indirectInterface(argv[0].val(s, dot))
	if !item.IsValid() {
		stop()
	}
	for _, e := range argv[1:] {
		x := indirectInterface(e.val(s, dot))
		var isNil bool
		if item, isNil = indirect(item); isNil {
			stop()
		}
		switch item.Kind() {
		case reflect.Array, reflect.Slice, reflect.String:
			var i int64
			switch k := x.Kind(); {
			case intKind(k):
				i = x.Int()
			case k >= reflect.Uint && k <= reflect.Uintptr:
				i = int64(x.Uint())
			default:
				stop()
			}
			if i < 0 || i >= int64(item.Len()) {
				stop()
			}
			item = item.Index(int(i))
		case reflect.Map:
			if !x.IsValid() || !x.Type().AssignableTo(item.Type().Key()) {
				stop()
			}
			if v := item.MapIndex(x); v.IsValid() {
				item = v
			} else {
				item = reflect.Zero(item.Type().Elem())
			}
		default:
			stop()
		}
	}
	return item
}
