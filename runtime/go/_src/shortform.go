package agenterror

// maxShortFormKind bounds the kind of a short form, in bytes: a contract's
// kinds are a few dozen characters, and a longer kind member is not one.
const maxShortFormKind = 128

// fromShortForm reads labby's short form of an error body, in which SDK and
// subsystem errors promote their stable kind to the top level: a JSON
// object whose kind member (shortFormKindMember) is a string of at most
// maxShortFormKind bytes matching shortFormKind that the sanitizer keeps as
// it is (a lowercase token matches the pattern) and whose message member
// (shortFormMessageMember) is a string. It returns nil for any other body.
// The envelope keeps the kind and the message (sanitized as every reader
// sanitizes received text; empty or blank, it becomes statusLine(status));
// its advice is Lookup's classification of the kind, the fallback for a
// kind this package does not know, never one picked from the status; the
// kind's required collections are set empty (shortFormEmpty); and
// Extra[PromotedMember] is PromotedShortForm. Every other member of the
// body is ignored: it is unchecked upstream data, and the short form
// defines none. The file ships only in a package whose contract's HTTP
// reader accepts the short form (contract.ShortForm).
func fromShortForm(body []byte, status int) *Envelope {
	obj, err := decodeObject(body, "")
	if err != nil {
		return nil
	}
	kind, ok := jsonString(obj[shortFormKindMember])
	if !ok || len(kind) > maxShortFormKind || !shortFormKind.MatchString(kind) || Sanitize(kind) != kind {
		return nil
	}
	message, ok := jsonString(obj[shortFormMessageMember])
	if !ok {
		return nil
	}
	message = Sanitize(message)
	// A message says what happened when every other member is discarded;
	// an empty one says nothing, and the producer schema rejects it.
	if blank(message) {
		message = statusLine(status)
	}
	e := NewTrusted(Kind(kind), message)
	e.shortFormEmpty()
	e.Extra = map[string]any{PromotedMember: PromotedShortForm}
	return e
}
