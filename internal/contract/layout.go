package contract

// Source is what a wire field carries.
type Source string

// The sources a layout can map to a wire path. A context or kind-specific
// field is a source too (SourceField), named by its field name.
const (
	SourceVersion       Source = "version"
	SourceKind          Source = "kind"
	SourceMessage       Source = "message"
	SourceOrigin        Source = "origin"
	SourceAction        Source = "action"
	SourceSameArguments Source = "same_arguments"
	SourceGuidance      Source = "guidance"
	SourceRetryAfterMs  Source = "retry_after_ms"
	SourceSideEffects   Source = "side_effects"
	// Derived sources: computed by the producer from the classification.
	SourceGroup      Source = "group"        // the kind's group name
	SourceRetryable  Source = "retryable"    // Classification.Retryable of the envelope's advice
	SourceMayHaveRun Source = "may_have_run" // SideEffect.MayHaveRun of the envelope's side_effects
	SourceConst      Source = "const"
	SourceField      Source = "field"
)

// Sources lists the named sources in documentation order.
var Sources = []Source{SourceVersion, SourceKind, SourceMessage, SourceOrigin, SourceAction,
	SourceSameArguments, SourceGuidance, SourceRetryAfterMs, SourceSideEffects,
	SourceGroup, SourceRetryable, SourceMayHaveRun}

// Derived reports whether the source is computed from the classification
// rather than carried by the envelope as given.
func (s Source) Derived() bool {
	return s == SourceGroup || s == SourceRetryable || s == SourceMayHaveRun
}

// Layout is the wire shape of an envelope: a tree of JSON objects whose
// leaves carry sources.
type Layout struct {
	Root *Object
	// Leaves lists every leaf in wire order (depth first).
	Leaves []*Leaf
	// Objects lists every object in wire order, the root first.
	Objects []*Object
	// Default is true when the contract declares no layout.
	Default bool
	Pos     Pos
}

// Object is one JSON object of the envelope.
type Object struct {
	Name    string // member name in the parent; "" for the root
	Path    string // dotted path from the root; "" for the root
	Parent  *Object
	Members []*Member
	// Required is true when the object holds a required leaf, directly or
	// below: it is then on the wire in every envelope.
	Required bool
	Idents   Idents // from the path, for names of generated helpers
}

// Member is a leaf or a nested object.
type Member struct {
	Leaf   *Leaf
	Object *Object
}

// Name is the member's wire name.
func (m *Member) Name() string {
	if m.Leaf != nil {
		return m.Leaf.Name
	}
	return m.Object.Name
}

// Leaf is one wire field.
type Leaf struct {
	Name   string // member name in its object
	Path   string // dotted path from the root
	Object *Object
	Source Source
	Field  *Field // for SourceField
	// Const is the value of a SourceConst leaf: string, int, float64 or bool.
	Const any
	// Optional leaves may be absent: they are left out when empty (a derived
	// boolean when false). On the guidance leaf it also means the guidance
	// is the producer's own: constructors leave it empty instead of filling
	// in the contract's (see Layout.FillsGuidance).
	Optional bool
	// RequiredContext is set on the leaf of a context field the layout
	// marks required ({from: field, required: true}): every envelope
	// carries it, as a non-empty string, and the constructors take it.
	RequiredContext bool
	// Aliases are other spellings accepted when decoding, never emitted.
	Aliases []string
	// Idents name the generated field that keeps a derived leaf's value as
	// received, since it cannot always be recomputed (an unknown kind).
	Idents Idents
	Pos    Pos
}

// MaxDepth is how deeply an envelope may nest arrays and objects, the
// envelope's own object counting as the first level. It is a fact of the
// wire format shared by every generated package: each decoder (Go,
// TypeScript, Python) rejects a deeper document as a syntax error, and each
// encoder refuses to write one, so whatever one of them reads the others
// read, and every one of them writes back, without running out of stack.
const MaxDepth = 128

// MaxSafeInteger is the largest integer every generated decoder reads
// exactly: 2^53-1, JavaScript's Number.MAX_SAFE_INTEGER. An integer field
// (the contract version, the retry hint, a field of type integer) holds a
// whole number of at most this magnitude; a larger one is a rejected value.
const MaxSafeInteger = 1<<53 - 1

// Required reports whether every envelope carries the leaf.
func (l *Leaf) Required() bool {
	switch l.Source {
	case SourceField:
		return l.RequiredContext
	case SourceRetryAfterMs:
		return false
	}
	return !l.Optional
}

// OmitsEmpty reports whether the leaf is an array field the layout marks
// optional: an empty list is left out of the wire, as an unset one is, and
// the producer schema requires at least one item.
func (l *Leaf) OmitsEmpty() bool {
	return l.Source == SourceField && l.Optional && l.Field != nil && l.Field.Type == TypeArray
}

// Leaf returns the first leaf carrying source, or nil when the layout does
// not put it on the wire.
func (lo *Layout) Leaf(s Source) *Leaf {
	for _, l := range lo.Leaves {
		if l.Source == s {
			return l
		}
	}
	return nil
}

// FieldLeaf returns the leaf carrying the context or kind-specific field.
func (lo *Layout) FieldLeaf(f *Field) *Leaf {
	for _, l := range lo.Leaves {
		if l.Field == f {
			return l
		}
	}
	return nil
}

// Has reports whether the layout carries source s.
func (lo *Layout) Has(s Source) bool { return lo.Leaf(s) != nil }

// FillsGuidance reports whether constructors fill in the contract's
// guidance for the kind. They do unless the layout marks the guidance leaf
// optional: such a wire field carries only advice the producer gives
// (ovstorage's next_action, "never invented"), so the contract's text stays
// documentation and a caller's explicit guidance is the only source.
func (lo *Layout) FillsGuidance() bool {
	lf := lo.Leaf(SourceGuidance)
	return lf == nil || !lf.Optional
}

// RequiredLeaf returns the leaf of a context field the layout requires, or
// nil.
func (lo *Layout) RequiredLeaf(f *Field) *Leaf {
	if lf := lo.FieldLeaf(f); lf != nil && lf.RequiredContext {
		return lf
	}
	return nil
}

// FieldPath is where a context or kind-specific field travels on the wire.
// A field shared by several kinds is one leaf, placed by its first
// declaration, so a later declaration is found by name.
func (lo *Layout) FieldPath(f *Field) string {
	if lf := lo.FieldLeaf(f); lf != nil {
		return lf.Path
	}
	for _, lf := range lo.Leaves {
		if lf.Field != nil && lf.Field.Name == f.Name {
			return lf.Path
		}
	}
	return f.Name
}
