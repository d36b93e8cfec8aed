package contract

import (
	"slices"
	"unicode/utf8"
)

// Sanitize is the policy of the generated sanitizers: how upstream-controlled
// text is cleaned before it enters an envelope, a log or a prompt. The
// algorithm is errgen's own (docs/sanitizer.md specifies it step by step);
// the contract sets only these parameters.
type Sanitize struct {
	// MaxLength caps the output, marker included, in Unicode code points.
	MaxLength int
	// TruncationMarker is appended when anything was cut off.
	TruncationMarker string
	// Markers are the prompt-injection markers removed (ASCII case
	// ignored) until none remain.
	Markers []string
	// Secrets are the contract's own secret shapes, redacted besides
	// errgen's built-in catalogue.
	Secrets []*SecretPattern
	// Fields names the envelope values sanitized by default: message,
	// guidance, or context and kind-specific fields.
	Fields []string
	// Paths turns on the redaction of home directories and credential
	// paths (docs/sanitizer.md, shapes 8 and 9); it is on by default.
	Paths bool
	// CredentialNames are the contract's own credential file or directory
	// names, redacted besides BuiltinCredentialNames (only with Paths).
	CredentialNames []string
	// Pos is where the section is; zero when the contract has none.
	Pos Pos
	// KeyPos is where each key of the section is written (max_length,
	// markers, ...); nil when the contract has no section.
	KeyPos map[string]Pos
}

// SecretPattern is a contract-declared secret shape: one of the prefixes
// followed by at least MinLength characters of the class Chars. The match
// takes the whole run of class characters (no backtracking), so every
// language finds the same span.
type SecretPattern struct {
	Name        string
	Description string
	Prefixes    []string
	Chars       SecretChars
	MinLength   int
	Pos         Pos
	Idents      Idents
}

// SecretChars names a character class of a secret pattern. Every class is
// ASCII, so matching needs no Unicode tables.
type SecretChars string

const (
	CharsAlnum      SecretChars = "alnum"       // A-Z a-z 0-9
	CharsUpperAlnum SecretChars = "upper_alnum" // A-Z 0-9
	CharsLowerAlnum SecretChars = "lower_alnum" // a-z 0-9
	CharsHex        SecretChars = "hex"         // 0-9 a-f A-F
	CharsBase64URL  SecretChars = "base64url"   // A-Z a-z 0-9 _ -
	CharsBase64     SecretChars = "base64"      // A-Z a-z 0-9 + / =
	CharsWord       SecretChars = "word"        // A-Z a-z 0-9 _
	CharsToken      SecretChars = "token"       // A-Z a-z 0-9 . _ ~ + / = -
)

// SecretCharClasses lists every class in documentation order.
var SecretCharClasses = []SecretChars{CharsAlnum, CharsUpperAlnum, CharsLowerAlnum, CharsHex,
	CharsBase64URL, CharsBase64, CharsWord, CharsToken}

// The defaults of the sanitize section.
const (
	DefaultSanitizeMaxLength = 2048
	DefaultTruncationMarker  = " …[truncated]"
	// SanitizeMinLength and SanitizeMaxMaxLength bound max_length.
	SanitizeMinLength    = 64
	SanitizeMaxMaxLength = 1 << 20
	// Redacted replaces every secret.
	Redacted = "[REDACTED]"
)

// DefaultMarkers are labby's markers (<system>, [INST], ###, <<), their
// closers, and the special tokens of the common chat templates (ChatML,
// Llama 3).
var DefaultMarkers = []string{
	"<system>", "</system>", "[INST]", "[/INST]", "###", "<<",
	"<|im_start|>", "<|im_end|>", "<|system|>", "<|user|>", "<|assistant|>",
	"<|endoftext|>", "<|eot_id|>", "<|start_header_id|>", "<|end_header_id|>",
}

// BuiltinSecretPrefixes are the prefixes of errgen's built-in secret shapes
// (docs/sanitizer.md lists the shapes). A truncation marker may contain
// none of them, so that appending it never makes a secret.
var BuiltinSecretPrefixes = []string{
	"sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
	"xoxa-", "xoxb-", "xoxe-", "xoxp-", "xoxr-", "xoxs-", "tskey-", "AKIA", "ASIA", "AIza",
	"sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_", "whsec_", "npm_", "eyJ",
}

// BuiltinCredentialNames are errgen's credential file and directory names
// (docs/sanitizer.md, shape 9): a path holding a segment of one of these
// names is redacted whole. A "/" in a name stands for one or more path
// separators. The generated policies list them, followed by the contract's
// own credential_names, so each language reads the same list.
var BuiltinCredentialNames = []string{
	".ssh", ".gnupg", ".aws",
	"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk",
	".netrc", "_netrc", ".pgpass", ".git-credentials", ".npmrc", ".pypirc", ".vault-token",
	".kube/config", ".docker/config.json",
}

// KeyFileExtensions end the names of key and certificate store files
// (docs/sanitizer.md, shape 9); the generated sanitizers carry the same
// list. HomePrefixes start a Unix home directory (shape 8).
var (
	KeyFileExtensions = []string{".pem", ".key", ".p12", ".pfx", ".ppk", ".jks"}
	HomePrefixes      = []string{"/home/", "/Users/"}
)

// AllCredentialNames returns every credential name the sanitizer looks for:
// errgen's, then the contract's; none when path redaction is off.
func (s *Sanitize) AllCredentialNames() []string {
	if !s.Paths {
		return nil
	}
	return append(append([]string(nil), BuiltinCredentialNames...), s.CredentialNames...)
}

// SanitizeRemoved reports whether the sanitizer deletes r: C0 and C1
// controls except tab, line feed and carriage return, bidi controls,
// zero-width and other invisible formatting characters, and Unicode tags.
// The generated sanitizers carry the same list (the runtime/ sanitizers).
func SanitizeRemoved(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n' && r != '\r'
	case r >= 0x7F && r <= 0x9F, r == 0xAD, r == 0x061C, r == 0x180E,
		r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E,
		r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x206F,
		r == 0xFEFF, r >= 0xFFF9 && r <= 0xFFFB, r >= 0xE0000 && r <= 0xE007F:
		return true
	}
	return false
}

// DefaultSanitize is the policy of a contract without a sanitize section:
// message, and cause when the contract declares such a field.
func DefaultSanitize(c *Contract) Sanitize {
	s := Sanitize{MaxLength: DefaultSanitizeMaxLength, TruncationMarker: DefaultTruncationMarker,
		Markers: append([]string(nil), DefaultMarkers...), Fields: []string{"message"}, Paths: true}
	if f := c.EnvelopeField("cause"); f != nil && f.Type == TypeString {
		s.Fields = append(s.Fields, "cause")
	}
	return s
}

// MarkerLength is the truncation marker's length in code points.
// Sanitizes reports whether producers sanitize the envelope value named
// field (a member of Fields), so every emitter asks the model rather than
// searching the list itself.
func (s *Sanitize) Sanitizes(field string) bool { return slices.Contains(s.Fields, field) }

func (s *Sanitize) MarkerLength() int { return utf8.RuneCountInString(s.TruncationMarker) }
