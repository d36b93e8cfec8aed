package contract

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ReleaseNumber is a release of the generated packages: MAJOR.MINOR.PATCH,
// the one number npm, PyPI, crates.io and the Go module's tag all carry.
type ReleaseNumber struct{ Major, Minor, Patch int }

func (r ReleaseNumber) String() string { return fmt.Sprintf("%d.%d.%d", r.Major, r.Minor, r.Patch) }

// Less reports whether r comes before o.
func (r ReleaseNumber) Less(o ReleaseNumber) bool {
	if r.Major != o.Major {
		return r.Major < o.Major
	}
	if r.Minor != o.Minor {
		return r.Minor < o.Minor
	}
	return r.Patch < o.Patch
}

// releaseRe is a release number as contract.release takes it: three
// numbers without leading zeros, no pre-release or build suffix (npm and
// Cargo write 1.1.0-rc.1, PyPI 1.1.0rc1: there is no one spelling).
var releaseRe = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)

// ReleasePattern is releaseRe's source, for the contract's JSON Schema.
const ReleasePattern = `^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`

// ParseRelease reads MAJOR.MINOR.PATCH; ok is false for anything else,
// including numbers too large for an int.
func ParseRelease(s string) (r ReleaseNumber, ok bool) {
	m := releaseRe.FindStringSubmatch(s)
	if m == nil {
		return r, false
	}
	var err [3]error
	r.Major, err[0] = strconv.Atoi(m[1])
	r.Minor, err[1] = strconv.Atoi(m[2])
	r.Patch, err[2] = strconv.Atoi(m[3])
	return r, err[0] == nil && err[1] == nil && err[2] == nil
}

// GoMajorSuffix is the suffix Go's semantic import versioning puts on the
// path of a module at release r: "/v2" from major 2 on, nothing for 0 and 1.
func GoMajorSuffix(release string) string {
	if r, ok := ParseRelease(release); ok && r.Major >= 2 {
		return "/v" + strconv.Itoa(r.Major)
	}
	return ""
}

// ReleaseWritten reports whether the contract writes contract.release
// (rather than taking the default derived from its version).
func (c *Contract) ReleaseWritten() bool { return c.ReleasePos.Line != 0 }

// release reads contract.release, or sets the default derived from the
// version, after the version was read.
func (l *loader) release(c *Contract, m *mapping) {
	c.Release, _ = ReleaseVersion(c.VersionLabel())
	if c.VersionLabel() == "0" {
		c.Release = "" // no version (reported already)
	}
	k, v := m.get("release")
	if k == nil {
		return
	}
	const want = "a release number MAJOR.MINOR.PATCH (e.g. 1.1.0)"
	switch {
	case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
		l.errorf(k, "contract: release is empty; give %s or remove the key (the default is the version's: %s)", want, orUnset(c.Release))
		return
	case v.Kind != yaml.ScalarNode:
		l.errorf(v, "contract: release must be %s, found %s", want, describeNode(v))
		return
	}
	s := v.Value
	r, ok := ParseRelease(s)
	if !ok {
		hint := ""
		switch {
		case strings.HasPrefix(s, "v") || strings.HasPrefix(s, "V"):
			hint = "; write it without the v (the Go tag adds it)"
		case strings.ContainsAny(s, "-+"):
			hint = "; a pre-release or build suffix is not accepted, since npm, PyPI, crates.io and Go do not spell it alike"
		case releaseRe.MatchString(s):
			hint = "; a part is too large"
		case regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`).MatchString(s):
			hint = "; write all three parts, quoted if YAML would read it as a number"
		case regexp.MustCompile(`(^|\.)0[0-9]`).MatchString(s):
			hint = "; a part has a leading zero"
		}
		l.errorf(v, "contract: release %q must be %s%s", s, want, hint)
		return
	}
	c.Release, c.ReleasePos = r.String(), l.pos(v)
	// The major moves with the wire version: consumers' version ranges
	// (^1.0.0, ~=1.0, 1.x, Go's /vN import path) take every release of
	// one major, so a breaking wire change must leave it, and an unchanged
	// wire must not. A contract that imports others has its base's wire
	// version, which the service does not choose: its release is its own,
	// and errgen compat asks for a new major when the base's version
	// changes (and for a breaking change, as always).
	if l.imported != nil {
		return
	}
	switch {
	case c.VersionIsText():
		if _, numeric := ReleaseVersion(c.VersionText); !numeric {
			return // a text version that is no number leaves the release free
		}
		major, err := strconv.Atoi(strings.Split(c.VersionText, ".")[0])
		if err == nil && major != r.Major {
			l.errorf(v, "contract: release %s has major %d, but the version %q has %d: write release: %d.y.z, or change the version too: %s",
				s, r.Major, c.VersionText, major, major, majorWhy)
		}
	case c.Version >= 1 && r.Major > c.Version:
		l.errorf(v, "contract: release %s has major %d, but the version is %d: write release: %d.y.z, or, for a breaking change, bump version to %d too: %s",
			s, r.Major, c.Version, c.Version, r.Major, majorWhy)
	case c.Version >= 1 && r.Major < c.Version:
		l.errorf(v, "contract: release %s has major %d, but the version is %d: write release: %d.y.z: %s",
			s, r.Major, c.Version, c.Version, majorWhy)
	}
}

const majorWhy = "a breaking change bumps the wire version, and consumers' version ranges (^1.2.0, ~=1.2, Go's /vN import path) take every release of one major, so the package major and the wire version move together"

func orUnset(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
