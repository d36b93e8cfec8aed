package gengo

import (
	"strings"

	"github.com/errgen/errgen/internal/contract"
)

// sanitizeClass maps a contract character class onto the class constant of
// the runtime sanitizer (runtime/go/_src/sanitize.go), for
// templates/go/sanitizepolicy.go.tmpl, which renders the contract's
// sanitizer policy.
var sanitizeClass = map[contract.SecretChars]string{
	contract.CharsAlnum:      "sanitizeClassAlnum",
	contract.CharsUpperAlnum: "sanitizeClassUpperAlnum",
	contract.CharsLowerAlnum: "sanitizeClassLowerAlnum",
	contract.CharsHex:        "sanitizeClassHex",
	contract.CharsBase64URL:  "sanitizeClassBase64URL",
	contract.CharsBase64:     "sanitizeClassBase64",
	contract.CharsWord:       "sanitizeClassWord",
	contract.CharsToken:      "sanitizeClassToken",
}

// commentSuffix is ": description" on one line, or nothing.
func commentSuffix(desc string) string {
	desc = strings.Join(strings.Fields(desc), " ")
	if desc == "" {
		return ""
	}
	return ": " + desc
}
