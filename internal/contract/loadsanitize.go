package contract

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

var (
	// credentialNameRe: path characters (docs/sanitizer.md) other than the
	// separators, in segments joined by single slashes.
	credentialNameRe = regexp.MustCompile(`^[A-Za-z0-9._~+@%$-]+(/[A-Za-z0-9._~+@%$-]+)*$`)
	sanitizeKeys     = []string{"max_length", "truncation_marker", "markers", "secrets", "fields", "paths", "credential_names"}
)

// stringList reads the list under key into *dst, replacing its default:
// item reads each entry (seen are the entries read before it) and says
// whether to keep it. A value that is not a list is reported with notList,
// a format given what was found.
func (l *loader) stringList(sec *mapping, key string, dst *[]string, notList string, item func(it *yaml.Node, seen []string) (string, bool)) {
	k, v := sec.get(key)
	if k == nil {
		return
	}
	*dst = nil
	if v.Kind != yaml.SequenceNode {
		l.errorf(v, notList, describeNode(orEmpty(v)))
		return
	}
	for _, it := range v.Content {
		if s, ok := item(deref(it), *dst); ok {
			*dst = append(*dst, s)
		}
	}
}

func secretCharNames() []string {
	out := make([]string, len(SecretCharClasses))
	for i, c := range SecretCharClasses {
		out[i] = string(c)
	}
	return out
}

// sanitize reads the sanitizer policy, starting from the default. It runs
// after the fields are read, since fields names them.
func (l *loader) sanitize(c *Contract, sec *mapping, key *yaml.Node) {
	c.Sanitize = DefaultSanitize(c)
	if sec == nil {
		return
	}
	sec.what = "sanitize: "
	s := &c.Sanitize
	s.Pos, s.KeyPos = l.pos(key), sec.keyPos()
	if v, n := sec.integer("max_length", false); n != nil {
		if v < SanitizeMinLength || v > SanitizeMaxMaxLength {
			l.errorf(n, "sanitize: max_length must be from %d to %d code points, found %d", SanitizeMinLength, SanitizeMaxMaxLength, v)
		} else {
			s.MaxLength = v
		}
	}
	markerNode := key
	if v, n := sec.str("truncation_marker", false); n != nil {
		s.TruncationMarker, markerNode = v, n
	}
	l.stringList(sec, "markers", &s.Markers, "sanitize: markers must be a list of strings (e.g. [\"<system>\", \"[INST]\"]), found %s; write [] for none", l.promptMarker)
	if sk, sv := sec.get("secrets"); sk != nil {
		if sm := l.asMapping(sv, sk, "sanitize: ", "secrets"); sm != nil {
			sm.what = "sanitize: secrets: "
			seen := newIdentities(0)
			sm.each(func(k, v *yaml.Node) {
				if p := l.secretPattern(k, v); p != nil {
					l.collide(seen, &Value{Name: p.Name, Pos: p.Pos, Idents: p.Idents}, "secret pattern")
					s.Secrets = append(s.Secrets, p)
				}
			})
		}
	}
	l.stringList(sec, "fields", &s.Fields, "sanitize: fields must be a list of envelope values (e.g. [message, cause]), found %s",
		func(it *yaml.Node, seen []string) (string, bool) { return l.sanitizedField(c, it, seen) })
	if v, n := sec.boolean("paths", false); n != nil {
		s.Paths = v
	}
	if ck, cv := sec.get("credential_names"); ck != nil {
		switch {
		case cv.Kind != yaml.SequenceNode:
			l.errorf(cv, "sanitize: credential_names must be a list of file or directory names (e.g. [.acme/token, acme-credentials.json]), found %s", describeNode(orEmpty(cv)))
		case !s.Paths && len(cv.Content) > 0:
			l.errorf(ck, "sanitize: credential_names has no effect with paths: false; remove one or the other")
		default:
			for _, it := range cv.Content {
				if name, ok := l.credentialName(deref(it), s.CredentialNames); ok {
					s.CredentialNames = append(s.CredentialNames, name)
				}
			}
		}
	}
	l.truncationMarker(s, markerNode)
	sec.done(sanitizeKeys...)
}

// credentialName reads one of the contract's credential names. A name is
// matched literally, as a whole path segment (a "/" in it stands for one or
// more separators); its first three characters are no "/", so every
// language's quick scan sees a fixed start (docs/sanitizer.md).
func (l *loader) credentialName(it *yaml.Node, seen []string) (string, bool) {
	if it.Kind != yaml.ScalarNode || it.Tag != "!!str" {
		l.errorf(it, "sanitize: credential_names: each name must be a string, found %s", describeNode(it))
		return "", false
	}
	name := it.Value
	bad := func(format string, args ...any) (string, bool) {
		l.errorf(it, "sanitize: credential_names: name %q "+format, append([]any{name}, args...)...)
		return "", false
	}
	switch {
	case len(name) < 3 || len(name) > 64:
		return bad("must be 3 to 64 characters long")
	case !credentialNameRe.MatchString(name):
		return bad("must be ASCII letters, digits and . _ - ~ + @ %% $, in segments joined by single slashes (e.g. .acme/token)")
	case strings.Contains(name[:3], "/"):
		return bad("must start with at least three characters before its first slash")
	case contains(BuiltinCredentialNames, name):
		return bad("is one of errgen's own credential names already")
	case contains(seen, name):
		return bad("is listed twice")
	}
	for _, seg := range strings.Split(name, "/") {
		if strings.Trim(seg, ".") == "" {
			return bad("has the segment %q, which names no file", seg)
		}
	}
	return name, true
}

// promptMarker reads one marker. A marker holds no white space, so a
// truncation marker (which starts with a space) can never complete one.
func (l *loader) promptMarker(it *yaml.Node, seen []string) (string, bool) {
	if it.Kind != yaml.ScalarNode || it.Tag != "!!str" {
		hint := ""
		if it.Kind == yaml.ScalarNode && it.Tag != "!!null" {
			hint = fmt.Sprintf(" (quote it: %q)", it.Value)
		}
		l.errorf(it, "sanitize: markers: each marker must be a string, found %s%s", describeNode(it), hint)
		return "", false
	}
	m := it.Value
	n := utf8.RuneCountInString(m)
	switch {
	case n < 2 || n > 64:
		l.errorf(it, "sanitize: markers: marker %q must be 2 to 64 characters long", m)
	case strings.ContainsAny(m, " \t\n\r"):
		l.errorf(it, "sanitize: markers: marker %q must not contain white space; the sanitizer removes markers as exact character sequences", m)
	case strings.ContainsFunc(m, SanitizeRemoved):
		l.errorf(it, "sanitize: markers: marker %q contains a control, bidi or zero-width character, which the sanitizer removes before it looks for markers", m)
	case overlapsRedacted(m):
		l.errorf(it, "sanitize: markers: marker %q overlaps %q, the text that replaces a secret, so a redaction could form it", m, Redacted)
	default:
		for _, s := range seen {
			if ASCIIFold(s) == ASCIIFold(m) {
				l.errorf(it, "sanitize: markers: marker %q is listed twice (markers ignore ASCII case)", m)
				return "", false
			}
		}
		return m, true
	}
	return "", false
}

// ASCIIFold lower-cases ASCII letters only, as the sanitizers do when
// they match markers.
func ASCIIFold(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// overlapsRedacted reports whether m, ignoring ASCII case, could appear in
// text where [REDACTED] replaced a secret next to marker-free text: m is
// inside [REDACTED], contains it, or straddles one of its ends.
func overlapsRedacted(m string) bool {
	m, r := ASCIIFold(m), ASCIIFold(Redacted)
	if strings.Contains(r, m) || strings.Contains(m, r) {
		return true
	}
	for k := 1; k < len(r) && k < len(m); k++ {
		if m[len(m)-k:] == r[:k] || m[:k] == r[len(r)-k:] {
			return true
		}
	}
	return false
}

func (l *loader) secretPattern(k, v *yaml.Node) *SecretPattern {
	prefix := fmt.Sprintf("sanitize: secret pattern %q: ", k.Value)
	m := l.asMapping(v, k, prefix, "its definition")
	if m == nil {
		return nil
	}
	m.what = prefix
	if !namingRes[SnakeCase].MatchString(k.Value) {
		l.errorf(k, "%sname must be snake_case (e.g. acme_api_key)", prefix)
	}
	p := &SecretPattern{Name: k.Value, Pos: l.pos(k), Idents: identsFor(k.Value)}
	p.Description, _ = m.str("description", false)
	if pk, pv := m.get("prefixes"); pk == nil {
		m.missingf("prefixes", k, "%smissing required key \"prefixes\": the literal text every such secret starts with (e.g. [acme_live_])", prefix)
	} else if pv.Kind != yaml.SequenceNode || len(pv.Content) == 0 {
		l.errorf(pk, "%sprefixes must be a non-empty list of literal prefixes (e.g. [acme_live_, acme_test_])", prefix)
	} else {
		for _, it := range pv.Content {
			it = deref(it)
			switch {
			case it.Kind != yaml.ScalarNode || it.Tag != "!!str":
				l.errorf(it, "%seach prefix must be a string, found %s", prefix, describeNode(it))
			case !secretPrefixRe.MatchString(it.Value):
				l.errorf(it, "%sprefix %q must be 2 to 32 ASCII letters, digits, _ or - (a prefix is matched literally, so every language finds the same secrets)", prefix, it.Value)
			case strings.Contains(Redacted, it.Value):
				l.errorf(it, "%sprefix %q occurs in %s, the text that replaces a secret; a redaction would match again", prefix, it.Value, Redacted)
			case contains(p.Prefixes, it.Value):
				l.errorf(it, "%sprefix %q is listed twice", prefix, it.Value)
			default:
				p.Prefixes = append(p.Prefixes, it.Value)
			}
		}
	}
	if s, n := m.str("chars", true); n != nil {
		if !contains(SecretCharClasses, SecretChars(s)) {
			l.errorf(n, "%sunknown chars %q%s; use one of %s", prefix, s, suggest(s, secretCharNames()), joinPlain(secretCharNames()))
		} else {
			p.Chars = SecretChars(s)
		}
	}
	if v, n := m.integer("min_length", true); n != nil {
		if v < 8 || v > 256 {
			l.errorf(n, "%smin_length must be from 8 to 256 characters after the prefix, found %d", prefix, v)
		}
		p.MinLength = v
	}
	m.done("description", "prefixes", "chars", "min_length")
	return p
}

// sanitizedField reads one entry of fields: message, guidance, or a context
// or kind-specific field holding text.
func (l *loader) sanitizedField(c *Contract, it *yaml.Node, seen []string) (string, bool) {
	if it.Kind != yaml.ScalarNode || it.Tag != "!!str" || isBlank(it.Value) {
		l.errorf(it, "sanitize: fields: each entry must be the name of an envelope value, found %s", describeNode(it))
		return "", false
	}
	name := it.Value
	if contains(seen, name) {
		l.errorf(it, "sanitize: fields: %q is listed twice", name)
		return "", false
	}
	if name == "message" || name == "guidance" {
		return name, true
	}
	f := c.EnvelopeField(name)
	if f == nil {
		if l.broken["context_fields"] || l.broken["kinds"] {
			return "", false
		}
		names := []string{"message", "guidance"}
		for _, f := range c.EnvelopeFields {
			names = append(names, f.Name)
		}
		l.errorf(it, "sanitize: fields: unknown field %q%s; name message, guidance, or a context or kind-specific field holding text", name, suggest(name, names))
		return "", false
	}
	if f.Type != TypeString && f.Type != TypeObject && !(f.Type == TypeArray && f.Items == TypeString) {
		l.errorf(it, "sanitize: fields: %q is of type %s; only text can be sanitized: a string, an array of strings or an object (whose strings are sanitized)", name, f.Type)
		return "", false
	}
	return name, true
}

// truncationMarker checks that appending the marker to sanitized text can
// never form a marker, a control or a secret, so the output stays a
// fixpoint: it starts with a space and a non-ASCII character, holds no
// other white space, no ':', '=' or '@', no marker and no secret prefix.
func (l *loader) truncationMarker(s *Sanitize, at *yaml.Node) {
	t := s.TruncationMarker
	bad := func(format string, args ...any) {
		l.errorf(at, "sanitize: truncation_marker %q "+format, append([]any{t}, args...)...)
	}
	runes := []rune(t)
	switch {
	case len(runes) < 2 || len(runes) > 32:
		bad("must be 2 to 32 characters long")
		return
	case runes[0] != ' ' || runes[1] < utf8.RuneSelf:
		bad("must start with a space and then a non-ASCII character (as in \" …[truncated]\"), so it can never extend a secret or a marker cut short before it")
		return
	case strings.ContainsAny(string(runes[1:]), " \t\n\r"):
		bad("must hold no white space after its first character")
		return
	case strings.ContainsAny(t, ":=@"):
		bad("must not contain ':', '=' or '@', which could make it look like an assignment or a URL's credentials")
		return
	case strings.ContainsFunc(t, SanitizeRemoved), strings.ContainsRune(t, utf8.RuneError):
		bad("must not contain a control, bidi, zero-width or replacement character")
		return
	}
	for _, m := range s.Markers {
		if strings.Contains(ASCIIFold(t), ASCIIFold(m)) {
			bad("contains the marker %q, which the sanitizer removes", m)
			return
		}
	}
	prefixes := append([]string{"-----"}, BuiltinSecretPrefixes...)
	for _, p := range s.Secrets {
		prefixes = append(prefixes, p.Prefixes...)
	}
	for _, p := range prefixes {
		if strings.Contains(t, p) {
			bad("contains %q, which starts a secret shape", p)
			return
		}
	}
	if !s.Paths {
		return
	}
	// A credential name's first segment, a key file extension or a home
	// prefix inside the marker could make a path of it.
	starts := append(append([]string(nil), HomePrefixes...), KeyFileExtensions...)
	for _, n := range s.AllCredentialNames() {
		starts = append(starts, strings.SplitN(n, "/", 2)[0])
	}
	for _, p := range starts {
		if strings.Contains(t, p) {
			bad("contains %q, which starts a sensitive path shape", p)
			return
		}
	}
}
