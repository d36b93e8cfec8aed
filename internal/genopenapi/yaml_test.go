package genopenapi

import (
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestStringsStayStrings checks that strings a YAML 1.1 reader would take
// for a boolean, null or number are quoted, and that ordinary text is not.
func TestStringsStayStrings(t *testing.T) {
	for s, quoted := range map[string]bool{
		"no": true, "No": true, "yes": true, "y": true, "N": true, "on": true, "OFF": true, "true": true,
		"null": true, "~": true, "<<": true, "1": true, "1:20": true, "2001-12-14": true, "-1": true, ".5": true, "3.1.0": true, ".inf": true,
		// yaml.v3 quotes the empty string itself.
		"": true, "none": false, "ok": false, "never": false, "safe": false, "not_found": false, "#/components/schemas/Envelope": true,
	} {
		out, err := encode("", newObject().set("v", str(s)).node())
		if err != nil {
			t.Fatal(err)
		}
		got := strings.TrimSuffix(strings.TrimPrefix(string(out), "v: "), "\n")
		if isQuoted := strings.HasPrefix(got, `"`) || strings.HasPrefix(got, `'`); isQuoted != quoted {
			t.Errorf("%q is written %s, want quoted %v", s, got, quoted)
		}
		var back map[string]any
		if err := yaml.Unmarshal(out, &back); err != nil || back["v"] != s {
			t.Errorf("%q reads back as %#v (%v)", s, back["v"], err)
		}
	}
}

// yaml11Spec is the rule yaml11 implements, as a regular expression (the
// form it had before it became a function, for speed).
var yaml11Spec = regexp.MustCompile(`^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|~|null|Null|NULL|<<|=)$|^[-+.]?[0-9]|^\.(inf|Inf|INF|nan|NaN|NAN)$`)

func TestYAML11AgreesWithItsRule(t *testing.T) {
	texts := []string{"", "y", "yes", "YES", "Yes ", "no", "NO", "nO", "on", "Off", "~", "~~", "null", "NULL", "nil", "<<", "=", "==",
		".inf", ".Inf", ".INF", ".iNf", ".nan", ".NaN", "inf", "1", "12", "1:20", "2001-12-14", "-1", "+1", ".5", "-.5", "--1", "-", "+", ".", "a1",
		" 1", "0x1F", "e5", "true", "True", "tRUE", "false", "yaml", "n/a", "unknown_action", "This kind is retried.", "ÿ"}
	for _, s := range texts {
		if got, want := yaml11(s), yaml11Spec.MatchString(s); got != want {
			t.Errorf("yaml11(%q) = %v, the rule says %v", s, got, want)
		}
	}
}
