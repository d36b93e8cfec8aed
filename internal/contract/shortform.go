package contract

import (
	"sort"
	"strconv"
)

// The readers of failed HTTP responses (Go's ReadHTTP, TypeScript's
// fromHttpResponse, Python's from_http_response) build an envelope from a
// response without one. What they build is decided here, once, so the three
// languages and the conformance vectors agree.

// ShortForm is labby's short form of an error body: SDK and subsystem errors
// promote their stable kind to the top level as {"kind": ..., "message": ...},
// without origin, recovery or side_effects. The strict decoders reject it, as
// it is not an envelope; a reader of an HTTP response accepts it, keeps the
// kind and the message, and classifies the kind with the contract.
type ShortForm struct {
	// KindMember and MessageMember are the members the short form carries:
	// the layout's own kind and message members.
	KindMember, MessageMember string
	// KindPattern is the regular expression the kind must match (see
	// Contract.KindPattern).
	KindPattern string
	// Empty lists the known kinds with required fields that have an empty
	// value (Field.HasEmptyValue), in contract order. A promoted envelope of
	// such a kind carries them empty, as the kind's constructor does when
	// given none, so that it meets the producer schema's requirements for
	// its kind. A required field without an empty value (a string, a number,
	// an object with properties) is left out: the short form cannot say it
	// and a reader does not invent it.
	Empty []EmptyFields
}

// EmptyFields are the required fields with an empty value of one kind.
type EmptyFields struct {
	Kind   *Kind
	Fields []*Field
}

// HasEmptyValue reports whether the field's type has an empty value that a
// constructor puts on the wire for a required field given none: an array
// ([]) or an object without declared properties ({}).
func (f *Field) HasEmptyValue() bool {
	return f.Type == TypeArray || f.Type == TypeObject && len(f.Properties) == 0
}

// ShortFormMaxKind bounds a short form's kind, in bytes. Contract kinds are
// a few dozen characters; a longer "kind" is not one, and it would otherwise
// become the tag every consumer branches on.
const ShortFormMaxKind = 128

// PromotedMember is the top-level member a reader adds to an envelope it
// built from a short form, and PromotedShortForm its value. A contract field
// cannot take the name (field names start with a letter), the producer
// schemas allow additional members, and so the mark survives re-encoding and
// decoding as an ordinary extra member.
const (
	PromotedMember    = "_promoted_from"
	PromotedShortForm = "short_form"
)

// ShortFormKindMember and ShortFormMessageMember are the members of labby's
// short form, {"kind": …, "message": …}: the default layout's kind and
// message leaves, which it is made of.
const (
	ShortFormKindMember    = "kind"
	ShortFormMessageMember = "message"
)

// ShortForm returns the short form the contract's readers accept, or nil
// when they accept none. It is labby's form, whose members are the top-level
// kind and message of labby's envelope, so only a contract using the default
// layout (labby's agent-error v1 envelope) reads it. A contract with a layout
// of its own has producers that send whole envelopes, and a body shaped like
// its kind and message (AGENTO's and ovstorage's {"error": {"code",
// "message"}}) is also what many unrelated APIs send: read as a kind, such a
// body would trade the classification by status for an unknown kind.
func (c *Contract) ShortForm() *ShortForm {
	if c.Layout == nil || !c.Layout.Default {
		return nil
	}
	sf := &ShortForm{
		KindMember:    ShortFormKindMember,
		MessageMember: ShortFormMessageMember,
		KindPattern:   c.KindPattern(),
	}
	for _, k := range c.Kinds {
		var empty []*Field
		for _, f := range k.RequiredFields() {
			if f.HasEmptyValue() {
				empty = append(empty, f)
			}
		}
		if len(empty) > 0 {
			sf.Empty = append(sf.Empty, EmptyFields{Kind: k, Fields: empty})
		}
	}
	return sf
}

// KindPattern is the regular expression every kind name of the contract
// matches: its naming pattern's, or without one the rule every name follows.
// It is anchored and ASCII-only, and means the same to Go's regexp,
// JavaScript's RegExp and Python's re.fullmatch.
func (c *Contract) KindPattern() string {
	if p := c.Naming.Pattern(); p != "" {
		return p
	}
	return ValueNamePattern
}

// SyntheticKindPrefix prefixes the status of a failed response without an
// envelope to name its kind when the contract has no inbound classifier and
// no single kind with that status, following the contract's naming pattern.
func (c *Contract) SyntheticKindPrefix() string {
	switch c.Naming {
	case ScreamingSnakeCase:
		return "HTTP_"
	case PascalCase:
		return "Http"
	case KebabCase:
		return "http-"
	}
	return "http_"
}

// SyntheticKind is the kind named after a status (http_502) that a failed
// response without an envelope gets when the contract has no inbound
// classifier and no single kind with that status; the contract does not
// define it.
func (c *Contract) SyntheticKind(status int) string {
	return c.SyntheticKindPrefix() + strconv.Itoa(status)
}

// HTTPKind is the kind of a failed response without an envelope for a
// contract without an inbound classifier: the contract's only kind with the
// status (HTTPKinds), else one named after the status (SyntheticKind).
func (c *Contract) HTTPKind(status int) string {
	i := sort.Search(len(c.HTTPKinds), func(i int) bool { return c.HTTPKinds[i].HTTP >= status })
	if i < len(c.HTTPKinds) && c.HTTPKinds[i].HTTP == status {
		return c.HTTPKinds[i].Name
	}
	return c.SyntheticKind(status)
}
