package compat

import (
	"fmt"

	"github.com/errgen/errgen/internal/contract"
)

// Bump is the part of the release number a change needs raised.
type Bump int

const (
	BumpNone  Bump = iota // nothing changed that consumers can see
	BumpPatch             // documentation or the producer's own logging only
	BumpMinor             // additive: new kinds, values, fields; behaviour
	BumpMajor             // breaking: a new contract.version too
)

func (b Bump) String() string {
	return [...]string{"no", "patch", "minor", "major"}[b]
}

// patchOnly are the additive rules that change nothing a program reading
// envelopes sees: documentation (descriptions, guidance, a retired name's
// replacement, groups that are not on the wire) and the producer's own log
// levels. GitHub annotations show them as notices.
var patchOnly = map[string]bool{"DESCRIPTION_CHANGED": true, "GUIDANCE_CHANGED": true, "KIND_LOG_CHANGED": true,
	"KIND_REGROUPED": true, "RETIRED_REPLACEMENT_CHANGED": true}

// noRelease are the additive rules that need no release by themselves:
// an import that now brings another version of its base (what the base
// changed is reported by its own rules).
var noRelease = map[string]bool{"IMPORT_CHANGED": true}

// RuleBump is the release bump a finding of the rule needs: major for a
// breaking rule, patch for one that changes documentation only, none for
// noRelease, minor for every other additive rule.
func RuleBump(id string) Bump {
	switch r, ok := ruleByID[id]; {
	case !ok || noRelease[id]:
		return BumpNone
	case r.Breaking:
		return BumpMajor
	case patchOnly[id]:
		return BumpPatch
	}
	return BumpMinor
}

// Bump is the release bump the finding needs (RuleBump of its rule).
func (f Finding) Bump() Bump { return RuleBump(f.Rule) }

// Next is the lowest release after r that a change of bump b allows. Below
// 1.0.0 every part moves down one, as npm's and Cargo's ranges read 0.y.z
// (^0.1.0 takes 0.1.x only): a breaking change raises the minor, any other
// the patch.
func Next(r contract.ReleaseNumber, b Bump) contract.ReleaseNumber {
	switch below1(r, b) {
	case BumpMajor:
		return contract.ReleaseNumber{Major: r.Major + 1}
	case BumpMinor:
		return contract.ReleaseNumber{Major: r.Major, Minor: r.Minor + 1}
	case BumpPatch:
		return contract.ReleaseNumber{Major: r.Major, Minor: r.Minor, Patch: r.Patch + 1}
	}
	return r
}

// below1 is the part a bump b raises in r: one lower below 1.0.0.
func below1(r contract.ReleaseNumber, b Bump) Bump {
	if r.Major == 0 && b > BumpPatch {
		return b - 1
	}
	return b
}

// releaseCheck fills in the release members of s.
func (s *Summary) releaseCheck(old, new *contract.Contract, findings []Finding) {
	for _, f := range findings {
		if b := f.Bump(); b > s.Needs {
			s.Needs, s.NeedsFor, s.NeedsMore = b, f.Rule+" "+f.Subject, 0
		} else if b == s.Needs && b != BumpNone {
			s.NeedsMore++
		}
	}
	// A contract that imports others takes its wire version from them and
	// chooses its own release (contract.release's major is not tied to
	// it): a new wire version is a new major of its packages.
	if len(new.Imports) > 0 && s.VersionChanged && s.Needs < BumpMajor {
		s.Needs, s.NeedsFor, s.NeedsMore = BumpMajor, fmt.Sprintf("the imported contract.version %s -> %s", old.VersionLabel(), new.VersionLabel()), 0
	}
	s.OldRelease, s.NewRelease = old.Release, new.Release
	s.ReleaseChecked = old.ReleaseWritten() || new.ReleaseWritten()
	o, okOld := contract.ParseRelease(old.Release)
	n, okNew := contract.ParseRelease(new.Release)
	if !okOld || !okNew {
		// A text version that is no release number, without a release:
		// nothing to compare.
		s.ReleaseChecked = false
		return
	}
	s.MinRelease, s.raises = Next(o, s.Needs).String(), below1(o, s.Needs)
	s.ReleaseTooLow = n.Less(Next(o, s.Needs))
}

// ReleaseText is the line errgen compat prints about the release: the bump
// the change needs and whether the new contract's release has it.
func (s Summary) ReleaseText() string {
	why := ""
	if s.Needs != BumpNone {
		why = " (" + s.NeedsFor
		if s.NeedsMore > 0 {
			why += fmt.Sprintf(" and %d more", s.NeedsMore)
		}
		why += ")"
	}
	if s.MinRelease == "" {
		return fmt.Sprintf("needs %s release%s", article(s.Needs), why)
	}
	head := fmt.Sprintf("needs %s release: %s -> %s or later%s", article(s.raises), s.OldRelease, s.MinRelease, why)
	if s.Needs == BumpNone {
		head = fmt.Sprintf("needs no new release (%s)", s.OldRelease)
		if !s.ReleaseTooLow {
			if s.NewRelease != s.OldRelease {
				head += fmt.Sprintf("; the contract's release is %s", s.NewRelease)
			}
			return head
		}
	}
	switch {
	case !s.ReleaseTooLow:
		return head + "; the contract's release is " + s.NewRelease
	}
	fix := "write release: " + s.MinRelease
	if s.Needs == BumpMajor && !s.VersionChanged {
		fix += " with a new contract.version"
		if s.VersionImported {
			fix += " of the imported contract"
		}
	}
	if s.ReleaseChecked {
		return fmt.Sprintf("%s, but the contract's release is %s: %s", head, s.NewRelease, fix)
	}
	return fmt.Sprintf("%s; the contract writes no release, so its packages stay %s: %s (errgen compat then checks it)", head, s.NewRelease, fix)
}

func article(b Bump) string {
	if b == BumpNone {
		return "no new"
	}
	return "a " + b.String()
}

// Fails reports whether errgen compat exits 1: a breaking change under the
// same contract.version, or a release lower than the change needs in a
// contract that writes one (or whose old version wrote one).
func (s Summary) Fails() bool { return s.Blocking() || s.ReleaseChecked && s.ReleaseTooLow }
