// Package compat compares two versions of a contract and reports every
// change that matters to consumers, breaking or additive, in the manner of
// buf breaking for protobuf. Code generated from a contract lives in other
// repositories that cannot all be regenerated at once, so a breaking change
// needs a new contract version; errgen compat turns that rule into a CI gate.
//
// The rules are listed in Rules (rules.go) with what each catches and why it
// breaks consumers; docs/compat.md carries the same table.
package compat

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/targets"
)

// Finding is one change between the old and the new contract.
type Finding struct {
	Rule     string // a Rules id, e.g. KIND_DELETED
	Breaking bool
	Subject  string // the kind, value, field or wire path it concerns
	Message  string
	// File and Pos locate the change: in the new contract, or in the old one
	// for what the new contract no longer has. Where an import brought the
	// entry, File is the imported file (Pos.File, as the loader names it:
	// module@version/path for a Go module), so a change in a base is
	// reported where the base makes it.
	File string
	Pos  contract.Pos
}

// String is the finding in the text format:
// file:line:col: BREAKING|additive RULE_ID subject: message.
func (f Finding) String() string {
	sev := "additive"
	if f.Breaking {
		sev = "BREAKING"
	}
	return fmt.Sprintf("%s:%d:%d: %s %s %s: %s", f.File, f.Pos.Line, f.Pos.Col, sev, f.Rule, f.Subject, f.Message)
}

// Compare reports every change from old to new, new contract's positions
// first (its own file, then the files it imports), each file in position
// order. It does not look at the versions:
// whether the changes need a new version is Summarize's business.
func Compare(old, new *contract.Contract) []Finding {
	c := &comparer{old: old, new: new}
	c.header()
	c.imports()
	c.vocabularies()
	c.contextFields()
	c.kinds()
	c.fallback()
	c.retired()
	c.layout()
	c.surfaces()
	c.inbound()
	c.sanitize()
	c.retry()
	c.callError()
	// The new contract's own file first, then the files it imports, then
	// the old contract's (deletions).
	rank := map[string]int{new.File: 0}
	for _, i := range new.Imports {
		if _, ok := rank[i.File]; !ok {
			rank[i.File] = 1
		}
	}
	rankOf := func(file string) int {
		if r, ok := rank[file]; ok {
			return r
		}
		return 2
	}
	sort.SliceStable(c.out, func(i, j int) bool {
		a, b := c.out[i], c.out[j]
		if ra, rb := rankOf(a.File), rankOf(b.File); ra != rb {
			return ra < rb
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		if a.Subject != b.Subject {
			return a.Subject < b.Subject
		}
		return a.Message < b.Message
	})
	return c.out
}

type comparer struct {
	old, new *contract.Contract
	out      []Finding
}

// add records a finding at pos in the new contract (inNew) or the old one:
// in the file pos names when an import brought the entry.
func (c *comparer) add(inNew bool, pos contract.Pos, rule, subject, format string, args ...any) {
	r, ok := ruleByID[rule]
	if !ok {
		panic("compat: unknown rule " + rule)
	}
	file := c.old.File
	if inNew {
		file = c.new.File
	}
	if pos.File != "" {
		file = pos.File
	}
	c.out = append(c.out, Finding{Rule: rule, Breaking: r.Breaking, Subject: subject,
		Message: fmt.Sprintf(format, args...), File: file, Pos: pos})
}

func (c *comparer) header() {
	o, n := c.old, c.new
	if o.Name != n.Name {
		// The default names: a config may set others, but it is not the
		// contract's, and the default is what a rename changes.
		op, np := targets.DefaultPackages(o.Name), targets.DefaultPackages(n.Name)
		c.add(true, contract.Pos{Line: 1, Col: 1}, "CONTRACT_RENAMED", "contract.name",
			"the contract was renamed from %q to %q: the Go package %s becomes %s, the npm package %s becomes %s",
			o.Name, n.Name, op.Go, np.Go, op.NPM, np.NPM)
	}
	if o.Description != n.Description {
		c.add(true, contract.Pos{Line: 1, Col: 1}, "DESCRIPTION_CHANGED", "contract.description", "the contract's description changed")
	}
	// The kinds' own names are compared as kinds; the naming also spells
	// the kinds the HTTP readers make up, and decides which short forms
	// they read.
	if o.SyntheticKind(502) != n.SyntheticKind(502) || o.KindPattern() != n.KindPattern() {
		c.add(true, contract.Pos{Line: 1, Col: 1}, "NAMING_CHANGED", "contract.naming",
			"the naming changed from %s to %s: the HTTP readers name a failed response without an envelope %s instead of %s, and read short forms whose kind follows the new naming only",
			o.Naming, n.Naming, n.SyntheticKind(502), o.SyntheticKind(502))
	}
	if o.VersionIsText() != n.VersionIsText() {
		what := map[bool]string{false: "an integer", true: "a string"}
		onWire := "the generated ContractVersion constant changes type"
		if c.old.Layout.Has(contract.SourceVersion) || c.new.Layout.Has(contract.SourceVersion) {
			onWire = "generated decoders check its type, so old consumers reject every new envelope and new consumers every old one"
		}
		c.add(true, orFirstLine(n.VersionPos), "VERSION_RETYPED", "contract.version",
			"the version changed from %s (%s) to %s (%s): %s; keep its type and change its value",
			what[o.VersionIsText()], versionText(o), what[n.VersionIsText()], versionText(n), onWire)
	}
}

// imports reports an import that now brings another version of the
// contract it names: a Go module at another version (a go.mod upgrade), or
// a base whose contract.version changed. What changed in the base is
// reported rule by rule where the base makes it; this makes the upgrade
// itself visible at the import.
func (c *comparer) imports() {
	old := map[string]*contract.Import{}
	for _, i := range c.old.Imports {
		old[i.Name] = i
	}
	for _, n := range c.new.Imports {
		o := old[n.Name]
		if o == nil {
			continue // a new import: what it brings is reported as added
		}
		if ot, nt := importText(o), importText(n); ot != nt {
			c.add(true, orFirstLine(n.Pos), "IMPORT_CHANGED", "imports."+n.Name,
				"contract %s is now imported from %s instead of %s", n.Name, nt, ot)
		}
	}
}

func importText(i *contract.Import) string {
	return fmt.Sprintf("%s (version %s)", i.Label(), i.Version)
}

// versionText is the version as written in YAML.
func versionText(c *contract.Contract) string {
	if c.VersionIsText() {
		return fmt.Sprintf("%q", c.VersionText)
	}
	return fmt.Sprint(c.Version)
}

// orFirstLine is pos, or 1:1 when the loader kept no position.
func orFirstLine(pos contract.Pos) contract.Pos {
	if pos.Line == 0 {
		return contract.Pos{Line: 1, Col: 1}
	}
	return pos
}

// values compares one closed vocabulary: deletions are breaking (rule),
// additions are new enum values, description changes are documentation.
func values[T interface{ Base() *contract.Value }](c *comparer, section, what, rule string, old, new []T, more func(o, n T)) {
	newByName := map[string]T{}
	for _, v := range new {
		newByName[v.Base().Name] = v
	}
	oldNames := map[string]bool{}
	for _, ov := range old {
		o := ov.Base()
		oldNames[o.Name] = true
		nv, ok := newByName[o.Name]
		if !ok {
			c.add(false, o.Pos, rule, section+"."+o.Name, "%s %q was deleted", what, o.Name)
			continue
		}
		n := nv.Base()
		if o.Description != n.Description {
			c.add(true, n.Pos, "DESCRIPTION_CHANGED", section+"."+n.Name, "the description of %s %q changed", what, n.Name)
		}
		if more != nil {
			more(ov, nv)
		}
	}
	for _, nv := range new {
		if n := nv.Base(); !oldNames[n.Name] {
			c.add(true, n.Pos, "ENUM_VALUE_ADDED", section+"."+n.Name, "new %s %q; strict consumers that validate %s against the old list reject it", what, n.Name, section)
		}
	}
}

func (c *comparer) vocabularies() {
	values(c, "origins", "origin", "ORIGIN_DELETED", c.old.Origins, c.new.Origins, nil)
	values(c, "recovery_actions", "recovery action", "ACTION_DELETED", c.old.Actions, c.new.Actions,
		func(o, n *contract.Action) {
			if o.Step != n.Step {
				c.add(true, n.Pos, "ACTION_STEP_CHANGED", "recovery_actions."+n.Name,
					"recovery action %q now maps onto step %s instead of %s", n.Name, n.Step, o.Step)
			}
		})
	values(c, "same_arguments", "same_arguments value", "SAME_ARGUMENTS_DELETED", c.old.SameArguments, c.new.SameArguments,
		func(o, n *contract.SameArguments) {
			if o.Retry != n.Retry {
				c.add(true, n.Pos, "SAME_ARGUMENTS_RETRY_CHANGED", "same_arguments."+n.Name,
					"same_arguments value %q changed retry from %t to %t", n.Name, o.Retry, n.Retry)
			}
			if on, nn := sameArgsName(o.UpgradeTo), sameArgsName(n.UpgradeTo); on != nn {
				c.add(true, n.Pos, "SAME_ARGUMENTS_UPGRADE_CHANGED", "same_arguments."+n.Name,
					"same_arguments value %q changed upgrade_to from %s to %s", n.Name, on, nn)
			}
		})
	values(c, "side_effects", "side_effects value", "SIDE_EFFECTS_DELETED", c.old.SideEffects, c.new.SideEffects,
		func(o, n *contract.SideEffect) {
			// Only a value that stops saying work may have run breaks
			// consumers: they skip the state check they used to make. The
			// other direction makes them more careful.
			switch {
			case o.MayHaveRun && !n.MayHaveRun:
				c.add(true, n.Pos, "SIDE_EFFECTS_MAY_HAVE_RUN_CHANGED", "side_effects."+n.Name,
					"side_effects value %q changed may_have_run from true to false", n.Name)
			case !o.MayHaveRun && n.MayHaveRun:
				c.add(true, n.Pos, "SIDE_EFFECTS_MAY_HAVE_RUN_SET", "side_effects."+n.Name,
					"side_effects value %q changed may_have_run from false to true", n.Name)
			}
		})
	values(c, "groups", "group", "GROUP_DELETED", c.old.Groups, c.new.Groups,
		func(o, n *contract.Group) {
			if o.Title != n.Title {
				c.add(true, n.Pos, "DESCRIPTION_CHANGED", "groups."+n.Name, "the title of group %q changed from %q to %q", n.Name, o.Title, n.Title)
			}
		})
}

func sameArgsName(s *contract.SameArguments) string {
	if s == nil {
		return "none"
	}
	return fmt.Sprintf("%q", s.Name)
}

func (c *comparer) contextFields() {
	c.fields("context_fields", c.old.ContextFields, c.new.ContextFields, true)
}

// fields compares two field lists under the subject prefix. context is true
// for the top level of context_fields, whose deletions and retypings have
// rules of their own and whose fields are always optional.
func (c *comparer) fields(prefix string, old, new []*contract.Field, context bool) {
	deleted, retyped := "FIELD_DELETED", "FIELD_RETYPED"
	what := "field"
	if context {
		deleted, retyped, what = "CONTEXT_FIELD_DELETED", "CONTEXT_FIELD_RETYPED", "context field"
	}
	newByName := map[string]*contract.Field{}
	for _, f := range new {
		newByName[f.Name] = f
	}
	oldNames := map[string]bool{}
	for _, o := range old {
		oldNames[o.Name] = true
		subject := prefix + "." + o.Name
		n := newByName[o.Name]
		if n == nil {
			c.add(false, o.Pos, deleted, subject, "%s %q was deleted", what, o.Name)
			continue
		}
		if o.Description != n.Description {
			c.add(true, n.Pos, "DESCRIPTION_CHANGED", subject, "the description of %s %q changed", what, n.Name)
		}
		if typeOf(o) != typeOf(n) {
			c.add(true, n.Pos, retyped, subject, "%s %q changed type from %s to %s", what, n.Name, typeOf(o), typeOf(n))
			continue
		}
		switch {
		case !o.Required && n.Required:
			c.add(true, n.Pos, "FIELD_MADE_REQUIRED", subject, "%s %q is now required", what, n.Name)
		case o.Required && !n.Required:
			c.add(true, n.Pos, "FIELD_MADE_OPTIONAL", subject, "%s %q is no longer required", what, n.Name)
		}
		c.enum(subject, what, o, n)
		if len(o.Properties) > 0 {
			c.fields(subject, o.Properties, n.Properties, false)
			// Python's class for a typed object takes required properties
			// positionally, in declaration order.
			if op, np := requiredOrder(o.Properties, n.Properties), requiredOrder(n.Properties, o.Properties); !reflect.DeepEqual(op, np) {
				c.add(true, n.Pos, "REQUIRED_FIELDS_REORDERED", subject,
					"the required properties of %s %q now come as (%s) instead of (%s)", what, n.Name, strings.Join(np, ", "), strings.Join(op, ", "))
			}
		}
	}
	for _, n := range new {
		if oldNames[n.Name] {
			continue
		}
		subject := prefix + "." + n.Name
		if n.Required {
			c.add(true, n.Pos, "REQUIRED_FIELD_ADDED", subject, "new required %s %q; envelopes from old producers lack it", what, n.Name)
		} else {
			c.add(true, n.Pos, "OPTIONAL_FIELD_ADDED", subject, "new optional %s %q", what, n.Name)
		}
	}
}

// typeOf is what must stay the same for a field's values to decode alike:
// its type, its items, and for objects whether its properties are typed.
func typeOf(f *contract.Field) string {
	t := string(f.Type)
	if f.Type == contract.TypeArray {
		t += " of " + string(f.Items)
	}
	if f.Type == contract.TypeObject {
		if len(f.Properties) > 0 {
			t += " with typed properties"
		} else {
			t += " (free-form)"
		}
	}
	return t
}

func (c *comparer) enum(subject, what string, o, n *contract.Field) {
	switch {
	case len(o.Enum) == 0 && len(n.Enum) == 0:
	case len(o.Enum) == 0:
		c.add(true, n.Pos, "FIELD_ENUM_RESTRICTED", subject, "%s %q now only allows %s", what, n.Name, strings.Join(n.Enum, ", "))
	case len(n.Enum) == 0:
		c.add(true, n.Pos, "ENUM_VALUE_ADDED", subject, "%s %q dropped its enum: any string is now allowed", what, n.Name)
	default:
		for _, v := range o.Enum {
			if !contains(n.Enum, v) {
				c.add(true, n.Pos, "FIELD_ENUM_VALUE_DELETED", subject, "%s %q no longer allows %q", what, n.Name, v)
			}
		}
		for _, v := range n.Enum {
			if !contains(o.Enum, v) {
				c.add(true, n.Pos, "ENUM_VALUE_ADDED", subject, "%s %q allows the new value %q; strict consumers reject it", what, n.Name, v)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// classDiff lists what differs between two classifications that consumers
// branch on, each as (rule for a kind, attribute, old, new).
type classDiff struct {
	rule, attr, old, new string
}

func classDiffs(o, n *contract.Classification, oc, nc *contract.Contract) []classDiff {
	var out []classDiff
	add := func(rule, attr, ov, nv string) {
		if ov != nv {
			out = append(out, classDiff{rule, attr, ov, nv})
		}
	}
	add("KIND_ORIGIN_CHANGED", "origin", o.Origin.Name, n.Origin.Name)
	add("KIND_ACTION_CHANGED", "recovery action", o.Recovery.Action.Name, n.Recovery.Action.Name)
	add("KIND_SAME_ARGUMENTS_CHANGED", "same_arguments", o.Recovery.SameArguments.Name, n.Recovery.SameArguments.Name)
	add("KIND_SIDE_EFFECTS_CHANGED", "side_effects", o.SideEffects.Name, n.SideEffects.Name)
	add("KIND_HTTP_STATUS_CHANGED", "HTTP status", fmt.Sprint(o.HTTP), fmt.Sprint(n.HTTP))
	// A code both versions take by default from a changed HTTP status is
	// part of that change; any other change of the code is its own.
	if o.HTTP == n.HTTP || o.GRPCPos.Line != 0 || n.GRPCPos.Line != 0 {
		add("KIND_GRPC_CODE_CHANGED", "gRPC code", o.GRPC.Name, n.GRPC.Name)
	}
	add("KIND_BREAKER_CHANGED", "breaker", fmt.Sprint(o.Breaker), fmt.Sprint(n.Breaker))
	add("KIND_EXIT_CODE_CHANGED", "CLI exit code", fmt.Sprint(oc.Surfaces.CLI.ExitCode(o)), fmt.Sprint(nc.Surfaces.CLI.ExitCode(n)))
	add("KIND_MCP_ERROR_CODE_CHANGED", "MCP protocol error code", fmt.Sprint(oc.Surfaces.MCP.ErrorCode(o)), fmt.Sprint(nc.Surfaces.MCP.ErrorCode(n)))
	return out
}

func (c *comparer) kinds() {
	o, n := c.old, c.new
	retiredNew := map[string]*contract.Retired{}
	for _, r := range n.Retired {
		retiredNew[r.Name] = r
	}
	retiredOld := map[string]bool{}
	for _, r := range o.Retired {
		retiredOld[r.Name] = true
	}
	var deleted, added []*contract.Kind
	for _, ok := range o.Kinds {
		nk := n.Kind(ok.Name)
		switch {
		case nk != nil:
			c.kind(ok, nk)
		case retiredNew[ok.Name] != nil:
			r := retiredNew[ok.Name]
			repl := "with no replacement"
			if r.ReplacedBy != nil {
				repl = fmt.Sprintf("replaced by %q", r.ReplacedBy.Name)
			}
			c.add(true, r.Pos, "KIND_RETIRED", ok.Name, "kind %q was retired (%s); old producers may still send it, new consumers classify it by the fallback", ok.Name, repl)
		default:
			deleted = append(deleted, ok)
		}
	}
	for _, nk := range n.Kinds {
		if o.Kind(nk.Name) != nil {
			continue
		}
		if retiredOld[nk.Name] {
			c.add(true, nk.Pos, "RETIRED_NAME_REVIVED", nk.Name, "kind %q was retired and may never return as a live kind; choose a new name", nk.Name)
			continue
		}
		added = append(added, nk)
	}
	renamed := renames(deleted, added)
	for _, dk := range deleted {
		if nk := renamed[dk]; nk != nil {
			c.add(true, nk.Pos, "KIND_RENAMED", nk.Name,
				"kind %q looks renamed to %q (same classification and %s); keep the old name, or move %q to retired with replaced_by: %s and bump the contract version",
				dk.Name, nk.Name, renameEvidence(dk, nk), dk.Name, nk.Name)
			continue
		}
		c.add(false, dk.Pos, "KIND_DELETED", dk.Name, "kind %q was deleted; move it to retired (with replaced_by when another kind takes over) so the name is never reused", dk.Name)
	}
	isRename := map[*contract.Kind]bool{}
	for _, nk := range renamed {
		isRename[nk] = true
	}
	for _, nk := range added {
		if !isRename[nk] {
			c.add(true, nk.Pos, "KIND_ADDED", nk.Name, "new kind %q; old consumers classify it by the fallback", nk.Name)
		}
	}
}

// kind compares a kind that both contracts have.
func (c *comparer) kind(o, n *contract.Kind) {
	for _, d := range classDiffs(&o.Classification, &n.Classification, c.old, c.new) {
		c.add(true, n.Pos, d.rule, n.Name, "kind %q changed its %s from %s to %s", n.Name, d.attr, d.old, d.new)
	}
	if o.Group.Name != n.Group.Name {
		if c.old.Layout.Has(contract.SourceGroup) || c.new.Layout.Has(contract.SourceGroup) {
			c.add(true, n.Pos, "KIND_GROUP_CHANGED", n.Name, "kind %q moved from group %q to %q, which the layout puts on the wire", n.Name, o.Group.Name, n.Group.Name)
		} else {
			c.add(true, n.Pos, "KIND_REGROUPED", n.Name, "kind %q moved from group %q to %q (not on the wire)", n.Name, o.Group.Name, n.Group.Name)
		}
	}
	switch {
	case c.old.Numbered && c.new.Numbered && o.Number != n.Number:
		c.add(true, n.Pos, "KIND_NUMBER_CHANGED", n.Name, "kind %q changed its number from %d to %d", n.Name, o.Number, n.Number)
	case c.old.Numbered && !c.new.Numbered:
		c.add(true, n.Pos, "KIND_NUMBER_CHANGED", n.Name, "kind %q lost its number %d", n.Name, o.Number)
	}
	if o.Log != n.Log {
		c.add(true, n.Pos, "KIND_LOG_CHANGED", n.Name, "kind %q now logs at %s instead of %s", n.Name, n.Log, o.Log)
	}
	if o.Description != n.Description {
		c.add(true, n.Pos, "DESCRIPTION_CHANGED", n.Name, "the description of kind %q changed", n.Name)
	}
	if o.Recovery.Guidance != n.Recovery.Guidance {
		c.add(true, n.Pos, "GUIDANCE_CHANGED", n.Name, "the guidance of kind %q changed", n.Name)
	}
	c.fields(n.Name, o.Fields, n.Fields, false)
	if on, nn := requiredOrder(o.Fields, n.Fields), requiredOrder(n.Fields, o.Fields); !reflect.DeepEqual(on, nn) {
		c.add(true, n.Pos, "REQUIRED_FIELDS_REORDERED", n.Name,
			"the constructor of kind %q now takes its required fields as (%s) instead of (%s)", n.Name, strings.Join(nn, ", "), strings.Join(on, ", "))
	}
}

// requiredOrder lists the required fields of fs that other requires too, in
// the order of fs: the constructor arguments both versions have. Fields
// added, deleted or made optional are reported by their own rules.
func requiredOrder(fs, other []*contract.Field) []string {
	both := map[string]bool{}
	for _, f := range other {
		if f.Required {
			both[f.Name] = true
		}
	}
	var out []string
	for _, f := range fs {
		if f.Required && both[f.Name] {
			out = append(out, f.Name)
		}
	}
	return out
}

// renames pairs deleted kinds with added ones that are most likely the same
// kind under a new name. The heuristic: the two have the identical
// classification (origin, side_effects, HTTP status, breaker, recovery
// action and same_arguments), and either the same description or the same
// non-empty set of fields (names, types, required, enums and properties).
// Kinds without fields often share a classification, so equal empty field
// sets alone are no evidence. When several added kinds qualify, the one
// with the same description wins; if that is still ambiguous, no rename is
// reported (a deletion and an addition are).
func renames(deleted, added []*contract.Kind) map[*contract.Kind]*contract.Kind {
	out := map[*contract.Kind]*contract.Kind{}
	taken := map[*contract.Kind]bool{}
	for _, d := range deleted {
		var candidates, sameDesc []*contract.Kind
		for _, a := range added {
			if taken[a] || !sameClassification(&d.Classification, &a.Classification) {
				continue
			}
			desc := d.Description == a.Description
			if desc || len(d.Fields) > 0 && sameFields(d.Fields, a.Fields) {
				candidates = append(candidates, a)
				if desc {
					sameDesc = append(sameDesc, a)
				}
			}
		}
		var pick *contract.Kind
		switch {
		case len(candidates) == 1:
			pick = candidates[0]
		case len(sameDesc) == 1:
			pick = sameDesc[0]
		}
		if pick != nil {
			out[d] = pick
			taken[pick] = true
		}
	}
	return out
}

func renameEvidence(d, a *contract.Kind) string {
	if d.Description == a.Description {
		return "description"
	}
	return "fields"
}

func sameClassification(o, n *contract.Classification) bool {
	return o.Origin.Name == n.Origin.Name && o.SideEffects.Name == n.SideEffects.Name &&
		o.HTTP == n.HTTP && o.Breaker == n.Breaker &&
		o.Recovery.Action.Name == n.Recovery.Action.Name && o.Recovery.SameArguments.Name == n.Recovery.SameArguments.Name
}

// shape is a field without its description, position and identifiers.
type shape struct {
	Name, Type, Items string
	Required          bool
	Enum              []string
	Properties        []shape
}

func shapes(fs []*contract.Field) []shape {
	out := make([]shape, len(fs))
	for i, f := range fs {
		out[i] = shape{f.Name, string(f.Type), string(f.Items), f.Required, f.Enum, shapes(f.Properties)}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func sameFields(a, b []*contract.Field) bool { return reflect.DeepEqual(shapes(a), shapes(b)) }

func (c *comparer) fallback() {
	o, n := c.old.Fallback, c.new.Fallback
	for _, d := range classDiffs(&o.Classification, &n.Classification, c.old, c.new) {
		rule := "FALLBACK_CHANGED"
		if d.rule == "KIND_EXIT_CODE_CHANGED" {
			rule = d.rule
		}
		c.add(true, n.Pos, rule, "fallback", "the fallback changed its %s from %s to %s", d.attr, d.old, d.new)
	}
	if o.Recovery.Guidance != n.Recovery.Guidance {
		c.add(true, n.Pos, "GUIDANCE_CHANGED", "fallback", "the guidance of the fallback changed")
	}
}

// retired reports names the new contract no longer reserves, and changes to
// the ones it keeps. Names that came back as live kinds are reported by
// kinds as RETIRED_NAME_REVIVED.
func (c *comparer) retired() {
	kept := map[string]*contract.Retired{}
	for _, r := range c.new.Retired {
		kept[r.Name] = r
	}
	for _, r := range c.old.Retired {
		n := kept[r.Name]
		if n == nil {
			if c.new.Kind(r.Name) == nil {
				c.add(false, r.Pos, "RETIRED_NAME_DELETED", r.Name, "retired name %q was removed from retired; keep it there so the name is never reused", r.Name)
			}
			continue
		}
		if on, nn := replacement(r), replacement(n); on != nn {
			c.add(true, n.Pos, "RETIRED_REPLACEMENT_CHANGED", "retired."+n.Name, "retired name %q is now replaced by %s instead of %s", n.Name, nn, on)
		}
		if r.Reason != n.Reason {
			c.add(true, n.Pos, "DESCRIPTION_CHANGED", "retired."+n.Name, "the reason of retired name %q changed", n.Name)
		}
	}
}

func replacement(r *contract.Retired) string {
	if r.ReplacedBy == nil {
		return "no kind"
	}
	return fmt.Sprintf("%q", r.ReplacedBy.Name)
}

// leafKey identifies a wire field across layouts: by its source, by the
// field it carries, or for a constant by its path.
func leafKey(l *contract.Leaf) string {
	switch l.Source {
	case contract.SourceField:
		return "field " + l.Field.Name
	case contract.SourceConst:
		return "const " + l.Path
	}
	return "source " + string(l.Source)
}

func leafWhat(l *contract.Leaf) string {
	switch l.Source {
	case contract.SourceField:
		return fmt.Sprintf("field %q", l.Field.Name)
	case contract.SourceConst:
		return fmt.Sprintf("constant %v", constText(l.Const))
	}
	return string(l.Source)
}

// whenFalse says when a derived flag is left out, which is when an optional
// derived boolean is.
func whenFalse(l *contract.Leaf) string {
	if l.Source.Derived() && l.Source != contract.SourceGroup {
		return " when it is false"
	}
	return ""
}

func constText(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

func (c *comparer) layout() {
	// Only a contract without a layout section reads labby's short form
	// (Contract.ShortForm): declaring one, even the default restated,
	// changes what the HTTP readers accept though no leaf changes.
	switch oldSF, newSF := c.old.ShortForm() != nil, c.new.ShortForm() != nil; {
	case oldSF && !newSF:
		c.add(true, orFirstLine(c.new.Layout.Pos), "SHORT_FORM_DROPPED", "layout",
			"the contract now declares a layout, so its HTTP readers no longer read labby's short form {kind, message}: such a body from old producers is classified by its status instead of its kind")
	case !oldSF && newSF:
		c.add(false, orFirstLine(c.old.Layout.Pos), "SHORT_FORM_ADDED", "layout",
			"the contract no longer declares a layout, so its HTTP readers read labby's short form {kind, message}, classifying such a body by its kind instead of its status")
	}
	oldFields, newFields := fieldNames(c.old), fieldNames(c.new)
	newLeaves := map[string]*contract.Leaf{}
	for _, l := range c.new.Layout.Leaves {
		newLeaves[leafKey(l)] = l
	}
	oldLeaves := map[string]*contract.Leaf{}
	for _, l := range c.old.Layout.Leaves {
		oldLeaves[leafKey(l)] = l
	}
	matched := map[*contract.Leaf]bool{} // new leaves that continue an old one
	for _, ol := range c.old.Layout.Leaves {
		if ol.Source == contract.SourceField && !newFields[ol.Field.Name] {
			continue // the field itself was deleted: reported as such
		}
		subject := "layout." + ol.Path
		nl := newLeaves[leafKey(ol)]
		if nl == nil && ol.Source == contract.SourceConst {
			// The same constant at a path the old layout did not use is a move.
			for _, l := range c.new.Layout.Leaves {
				if l.Source == contract.SourceConst && !matched[l] && oldLeaves[leafKey(l)] == nil && reflect.DeepEqual(l.Const, ol.Const) {
					c.add(true, l.Pos, "LAYOUT_FIELD_MOVED", subject, "constant %s moved from %q to %q", constText(ol.Const), ol.Path, l.Path)
					nl = l
					break
				}
			}
		}
		if nl == nil {
			c.add(false, ol.Pos, "LAYOUT_FIELD_REMOVED", subject, "the layout no longer puts %s on the wire (it was at %q)", leafWhat(ol), ol.Path)
			continue
		}
		matched[nl] = true
		switch {
		case ol.Source == contract.SourceConst && ol.Path == nl.Path && !reflect.DeepEqual(ol.Const, nl.Const):
			c.add(true, nl.Pos, "LAYOUT_FIELD_MOVED", subject, "the constant at %q changed from %s to %s", ol.Path, constText(ol.Const), constText(nl.Const))
		case ol.Source != contract.SourceConst && ol.Path != nl.Path:
			c.add(true, nl.Pos, "LAYOUT_FIELD_MOVED", subject, "%s moved from %q to %q", leafWhat(ol), ol.Path, nl.Path)
		}
		switch {
		case ol.Required() && !nl.Required():
			c.add(true, nl.Pos, "LAYOUT_FIELD_MADE_OPTIONAL", "layout."+nl.Path, "%s at %q is now optional: envelopes may leave it out%s", leafWhat(nl), nl.Path, whenFalse(nl))
		case !ol.Required() && nl.Required():
			c.add(true, nl.Pos, "LAYOUT_FIELD_MADE_REQUIRED", "layout."+nl.Path, "%s at %q is now in every envelope; old producers leave it out%s, and new decoders reject that", leafWhat(nl), nl.Path, whenFalse(ol))
		}
		switch {
		case !ol.OmitsEmpty() && nl.OmitsEmpty():
			c.add(true, nl.Pos, "LAYOUT_EMPTY_LIST_OMITTED", "layout."+nl.Path, "an empty %s list at %q is now left out of the wire, and the producer schema rejects one", nl.Field.Name, nl.Path)
		case ol.OmitsEmpty() && !nl.OmitsEmpty():
			c.add(true, nl.Pos, "LAYOUT_EMPTY_LIST_SENT", "layout."+nl.Path, "an empty %s list at %q is now sent as []: the old producer schema rejects it, and consumers reading its presence as \"there are some\" are wrong", nl.Field.Name, nl.Path)
		}
		for _, a := range ol.Aliases {
			if !contains(nl.Aliases, a) && nl.Name != a {
				c.add(true, nl.Pos, "LAYOUT_ALIAS_REMOVED", "layout."+nl.Path, "alias %q of %q was removed: envelopes from old producers that use it no longer decode", a, nl.Path)
			}
		}
	}
	for _, nl := range c.new.Layout.Leaves {
		if matched[nl] {
			continue
		}
		if nl.Source == contract.SourceField && !oldFields[nl.Field.Name] {
			continue // a new field: reported as such
		}
		subject := "layout." + nl.Path
		if nl.Required() {
			c.add(true, nl.Pos, "LAYOUT_REQUIRED_FIELD_ADDED", subject, "the layout now puts %s at %q in every envelope; envelopes from old producers lack it", leafWhat(nl), nl.Path)
		} else {
			c.add(true, nl.Pos, "LAYOUT_FIELD_ADDED", subject, "the layout now puts %s at %q when present", leafWhat(nl), nl.Path)
		}
	}
}

// fieldNames is the set of context and kind-specific field names.
func fieldNames(c *contract.Contract) map[string]bool {
	out := map[string]bool{}
	for _, f := range c.EnvelopeFields {
		out[f.Name] = true
	}
	return out
}

// posOr is p, or the file's start for a setting the new contract leaves out.
func posOr(p contract.Pos) contract.Pos {
	if p.Line == 0 {
		return contract.Pos{Line: 1, Col: 1}
	}
	return p
}

func (c *comparer) surfaces() {
	o, n := c.old.Surfaces, c.new.Surfaces
	if o.ProblemTypeBase != n.ProblemTypeBase {
		c.add(true, contract.Pos{Line: 1, Col: 1}, "PROBLEM_TYPE_CHANGED", "surfaces.problem_type_base",
			"the RFC 9457 problem type base changed from %q to %q", o.ProblemTypeBase, n.ProblemTypeBase)
	}
	// With a renamed contract the domain that follows the name is
	// CONTRACT_RENAMED's consequence; a domain of its own is reported.
	if o.ErrorDomain != n.ErrorDomain && !(o.ErrorDomain == c.old.Name && n.ErrorDomain == c.new.Name) {
		c.add(true, contract.Pos{Line: 1, Col: 1}, "ERROR_DOMAIN_CHANGED", "surfaces.error_info_domain",
			"the AIP-193 ErrorInfo domain changed from %q to %q; readers on either side read the other's errors as foreign", o.ErrorDomain, n.ErrorDomain)
	}
	if o.CLI.Form != n.CLI.Form {
		c.add(true, contract.Pos{Line: 1, Col: 1}, "CLI_FORM_CHANGED", "surfaces.cli.form",
			"the CLI now writes failures as %s instead of %s", n.CLI.Form, o.CLI.Form)
	}
	switch {
	case !o.HTTP.EchoBody && n.HTTP.EchoBody:
		c.add(true, posOr(n.HTTP.Pos), "HTTP_ECHO_BODY_ENABLED", "surfaces.http.echo_body",
			"the HTTP readers now quote the start of a response body without an envelope in the message")
	case o.HTTP.EchoBody && !n.HTTP.EchoBody:
		c.add(true, posOr(n.HTTP.Pos), "HTTP_ECHO_BODY_DISABLED", "surfaces.http.echo_body",
			"the message of an envelope built from a response without one is now the status line alone")
	}
	if name := func(f *contract.Field) string {
		if f == nil {
			return ""
		}
		return f.Name
	}; name(o.HTTP.StatusField) != name(n.HTTP.StatusField) {
		c.add(true, contract.Pos{Line: 1, Col: 1}, "HTTP_STATUS_FIELD_CHANGED", "surfaces.http.status_field",
			"the HTTP readers now keep the status of a response without an envelope in %q instead of %q (\"\" is none)", name(n.HTTP.StatusField), name(o.HTTP.StatusField))
	}
	// Adding a key where there was none changes nothing old hosts read.
	if o.MCP.MetaKey != n.MCP.MetaKey && o.MCP.MetaKey != "" {
		c.add(true, contract.Pos{Line: 1, Col: 1}, "MCP_META_KEY_CHANGED", "surfaces.mcp.meta_key",
			"isError tool results now carry the envelope under the _meta key %q instead of %q", n.MCP.MetaKey, o.MCP.MetaKey)
	}
	if c.old.Inbound == nil {
		return
	}
	newInbound := c.new.Inbound
	if newInbound == nil {
		newInbound = &contract.Inbound{}
	}
	kept := map[string]bool{}
	for _, cl := range newInbound.Classifiers {
		kept[cl.Name] = true
	}
	for _, cl := range c.old.Inbound.Classifiers {
		if !kept[cl.Name] {
			c.add(false, cl.Pos, "CLASSIFIER_DELETED", "inbound.classifiers."+cl.Name, "classifier %q was deleted; its generated function disappears", cl.Name)
		}
	}
	// An agreement generates nothing, so adding one reports nothing; it only
	// makes the contract stricter. Removing one is worth a reviewer's look.
	agreed := map[string]bool{}
	for _, a := range newInbound.Agreements {
		agreed[a.Name] = true
	}
	for _, a := range c.old.Inbound.Agreements {
		if !agreed[a.Name] {
			names := make([]string, len(a.Sides))
			for i, s := range a.Sides {
				names[i] = s.Classifier.Name
			}
			c.add(false, a.Pos, "AGREEMENT_DELETED", "inbound.agreements."+a.Name,
				"agreement %q was deleted; errgen validate no longer checks that %s agree", a.Name, strings.Join(names, " and "))
		}
	}
}

// Summary counts the findings and says whether they need a new version,
// and which release bump they need.
type Summary struct {
	Breaking, Additive     int
	OldVersion, NewVersion string
	VersionChanged         bool
	// VersionImported is set when the new contract imports others: its
	// contract.version is theirs, so only its base can publish a breaking
	// change.
	VersionImported bool

	// Needs is the largest bump a finding needs; NeedsFor names the first
	// such finding ("KIND_ADDED card_declined") and NeedsMore counts the
	// others of that bump.
	Needs     Bump
	NeedsFor  string
	NeedsMore int
	// OldRelease and NewRelease are the contracts' releases (empty for a
	// text version that is no release number); MinRelease is the lowest
	// release the change allows, ReleaseTooLow whether the new one is
	// below it. ReleaseChecked is set when either contract writes release:
	// only then does a release too low fail (Fails).
	OldRelease, NewRelease, MinRelease string
	ReleaseTooLow, ReleaseChecked      bool
	// raises is the part MinRelease raises: Needs, one lower below 1.0.0.
	raises Bump
}

// Summarize counts findings between old and new.
func Summarize(old, new *contract.Contract, findings []Finding) Summary {
	s := Summary{OldVersion: old.VersionLabel(), NewVersion: new.VersionLabel(),
		VersionChanged: !sameRelease(old.VersionLabel(), new.VersionLabel()), VersionImported: len(new.Imports) > 0}
	for _, f := range findings {
		if f.Breaking {
			s.Breaking++
		} else {
			s.Additive++
		}
	}
	s.releaseCheck(old, new, findings)
	return s
}

// sameRelease reports whether two version labels are one version: equal, or
// the same release number of the generated packages (1, "1.0" and "1.0.0"
// are all 1.0.0). Respelling a version is then no new version: package
// registries see the same release, so it cannot announce a breaking change.
func sameRelease(a, b string) bool {
	if a == b {
		return true
	}
	ra, okA := contract.ReleaseVersion(a)
	rb, okB := contract.ReleaseVersion(b)
	return okA && okB && ra == rb
}

// Blocking reports whether the change must not merge as it is: something
// breaks and the contract version stayed the same.
func (s Summary) Blocking() bool { return s.Breaking > 0 && !s.VersionChanged }

func (s Summary) String() string {
	counts := fmt.Sprintf("%d breaking, %d additive", s.Breaking, s.Additive)
	version := fmt.Sprintf("contract version %s unchanged", s.OldVersion)
	if !s.VersionChanged && s.OldVersion != s.NewVersion {
		release, _ := contract.ReleaseVersion(s.NewVersion)
		version = fmt.Sprintf("contract version %s -> %s, the same release %s", s.OldVersion, s.NewVersion, release)
	}
	if s.VersionChanged {
		version = fmt.Sprintf("contract version %s -> %s", s.OldVersion, s.NewVersion)
	}
	switch {
	case s.Breaking+s.Additive == 0:
		return fmt.Sprintf("no changes (%s)", version)
	case s.Blocking() && s.VersionImported:
		return fmt.Sprintf("%s (%s): breaking changes need a new contract.version, which is the imported contract's: its owners publish them with a new version, or keep the import at one without them", counts, version)
	case s.Blocking():
		return fmt.Sprintf("%s (%s): breaking changes need a new contract.version", counts, version)
	case s.Breaking > 0:
		return fmt.Sprintf("%s (%s): breaking changes are allowed by the new version", counts, version)
	}
	return fmt.Sprintf("%s (%s): compatible", counts, version)
}

// callError compares the call_error sections.
func (c *comparer) callError() {
	o, n := c.old.CallError, c.new.CallError
	switch {
	case o == nil && n == nil:
		return
	case n == nil:
		c.add(false, o.Pos, "CALL_ERROR_DELETED", "call_error", "the call_error section was deleted; the call-error conversion and schema disappear")
		return
	case o == nil:
		c.add(true, n.Pos, "CALL_ERROR_ADDED", "call_error", "a call_error section was added")
		return
	}
	for _, m := range o.Members {
		if !n.Has(m) {
			c.add(true, n.Pos, "CALL_ERROR_CHANGED", "call_error.members", "call errors no longer carry %q", m)
		}
	}
	for _, m := range n.Members {
		if !o.Has(m) {
			c.add(true, n.Pos, "CALL_ERROR_EXTENDED", "call_error.members", "call errors now carry %q", m)
		}
	}
	origins := func(ce *contract.CallError) map[string]bool {
		out := map[string]bool{}
		for _, x := range ce.Origins {
			out[x.Name] = true
		}
		return out
	}
	oo, no := origins(o), origins(n)
	for _, x := range o.Origins {
		if !no[x.Name] {
			c.add(true, n.Pos, "CALL_ERROR_CHANGED", "call_error.origins", "call errors may no longer name origin %q", x.Name)
		}
	}
	for _, x := range n.Origins {
		if !oo[x.Name] {
			c.add(true, n.Pos, "CALL_ERROR_EXTENDED", "call_error.origins", "call errors may now name origin %q", x.Name)
		}
	}
	canon := func(ce *contract.CallError) map[string]string {
		out := map[string]string{}
		for _, ck := range ce.Canonical {
			out[ck.From.Name] = ck.To.Name
		}
		return out
	}
	oc, nc := canon(o), canon(n)
	var kinds []string
	for k := range oc {
		kinds = append(kinds, k)
	}
	for k := range nc {
		if _, ok := oc[k]; !ok {
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		if oc[k] != nc[k] {
			from, to := oc[k], nc[k]
			if from == "" {
				from = k
			}
			if to == "" {
				to = k
			}
			c.add(true, n.Pos, "CALL_ERROR_CHANGED", "call_error.canonical_kinds."+k, "a completed result reporting %q now gives a call error of kind %q instead of %q", k, to, from)
		}
	}
	if o.ToolSeparator != n.ToolSeparator {
		c.add(true, n.Pos, "CALL_ERROR_CHANGED", "call_error.tool_separator", "the tool is now written upstream%stool instead of upstream%stool", n.ToolSeparator, o.ToolSeparator)
	}
	hints := map[string]bool{}
	for _, h := range o.SafetyHints {
		hints[h.Name] = true
	}
	for _, h := range n.SafetyHints {
		if !hints[h.Name] {
			c.add(true, n.Pos, "CALL_ERROR_EXTENDED", "call_error.safety_hints."+h.Name, "call errors now copy the %s annotation as %q", h.Annotation, h.Name)
		}
	}
	if o.DefaultMessage != n.DefaultMessage || !reflect.DeepEqual(o.Evidence, n.Evidence) {
		c.add(true, n.Pos, "CALL_ERROR_EXTENDED", "call_error", "the default message or the evidence caps changed")
	}
}
