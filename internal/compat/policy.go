package compat

import (
	"fmt"
	"sort"
	"strings"

	"github.com/errgen/errgen/internal/contract"
)

// This file compares what a contract says about behaviour rather than about
// the envelope's shape: the inbound classifiers, the sanitizer policy and
// the retry policy. Most of it is advice for generated code, so most of its
// rules are additive; the exceptions are a generated function that
// disappears and a sanitizer that lets through text it used to clean.

// keyPos is where to report a change of one setting of a section: at the
// key in the new contract; at the key in the old one when the new contract
// leaves it out (it went back to its default); else at the section, new
// first; else at 1:1 of the new contract (both use the defaults).
func keyPos(key string, oldKeys, newKeys map[string]contract.Pos, oldSec, newSec contract.Pos) (bool, contract.Pos) {
	if p, ok := newKeys[key]; ok {
		return true, p
	}
	if p, ok := oldKeys[key]; ok {
		return false, p
	}
	switch {
	case newSec.Line > 0:
		return true, newSec
	case oldSec.Line > 0:
		return false, oldSec
	}
	return true, contract.Pos{Line: 1, Col: 1}
}

func (c *comparer) inbound() {
	o, n := c.old.Inbound, c.new.Inbound
	if n == nil {
		// Everything the old section generated is gone: surfaces reports
		// each classifier; here only the tool result is left.
		if o != nil && o.ToolResult != nil {
			c.add(false, o.Pos, "TOOL_RESULT_DELETED", "inbound.tool_result", "inbound.tool_result (%q) was removed with the inbound section; ClassifyToolResult disappears", o.ToolResult.Name)
		}
		return
	}
	if o == nil {
		o = &contract.Inbound{}
	}
	switch {
	case o.ToolResult != nil && n.ToolResult == nil:
		inNew, pos := keyPos("tool_result", o.KeyPos, n.KeyPos, o.Pos, n.Pos)
		c.add(inNew, pos, "TOOL_RESULT_DELETED", "inbound.tool_result", "inbound.tool_result (%q) was removed; ClassifyToolResult disappears", o.ToolResult.Name)
	case o.ToolResult == nil && n.ToolResult != nil:
		c.add(true, n.KeyPos["tool_result"], "TOOL_RESULT_CHANGED", "inbound.tool_result", "new inbound.tool_result: an MCP tool result flagged isError classifies as %q", n.ToolResult.Name)
	case o.ToolResult != nil && o.ToolResult.Name != n.ToolResult.Name:
		c.add(true, n.KeyPos["tool_result"], "TOOL_RESULT_CHANGED", "inbound.tool_result", "an MCP tool result flagged isError now classifies as %q instead of %q", n.ToolResult.Name, o.ToolResult.Name)
	}
	if len(o.Classifiers) > 0 && len(n.Classifiers) > 0 && o.Classifiers[0].Name != n.Classifiers[0].Name {
		first := n.Classifiers[0]
		c.add(true, first.Pos, "CLASSIFIER_FIRST_CHANGED", "inbound.classifiers."+first.Name,
			"classifier %q now comes first, so Classify uses it instead of %q", first.Name, o.Classifiers[0].Name)
	}
	oldByName := map[string]*contract.Classifier{}
	for _, cl := range o.Classifiers {
		oldByName[cl.Name] = cl
	}
	for _, ncl := range n.Classifiers {
		subject := "inbound.classifiers." + ncl.Name
		ocl := oldByName[ncl.Name]
		if ocl == nil {
			c.add(true, ncl.Pos, "CLASSIFIER_ADDED", subject, "new classifier %q (Classify%s)", ncl.Name, ncl.Idents.Go)
			continue
		}
		if ocl.Description != ncl.Description {
			c.add(true, ncl.Pos, "DESCRIPTION_CHANGED", subject, "the description of classifier %q changed", ncl.Name)
		}
		if ocl.Default.Name != ncl.Default.Name {
			c.add(true, ncl.Pos, "CLASSIFIER_DEFAULT_CHANGED", subject, "classifier %q now classifies failures no rule matches as %q instead of %q", ncl.Name, ncl.Default.Name, ocl.Default.Name)
		}
		c.classifierRules(subject, ocl, ncl)
	}
}

// keyedRule is a rule with what identifies it across versions: its
// conditions, normalised so that spelling (4xx or 400-499, the order of a
// list) does not matter. A second rule with the same conditions (never
// reached, but valid) gets "#2" appended, and so on.
type keyedRule struct {
	key  string
	desc string // the conditions as written, for messages
	num  int    // counting from 1, as Classified.Rule does
	rule *contract.Rule
}

func keyRules(rules []*contract.Rule) []keyedRule {
	out := make([]keyedRule, len(rules))
	seen := map[string]int{}
	for i, r := range rules {
		k := conditions(r, true)
		seen[k]++
		if seen[k] > 1 {
			k += fmt.Sprintf(" #%d", seen[k])
		}
		out[i] = keyedRule{k, conditions(r, false), i + 1, r}
	}
	return out
}

// conditions describes what a rule matches, readable in a message: status
// 429, 5xx; failure any; text "quota". Canonical, it is the same for every
// spelling of the same conditions (4xx is 400-499, lists are sets).
func conditions(r *contract.Rule, canonical bool) string {
	var parts []string
	if len(r.Statuses) > 0 && !canonical {
		texts := make([]string, len(r.Statuses))
		for i, s := range r.Statuses {
			texts[i] = s.Text
			if s.Text == "" { // a contract built in code, not loaded
				texts[i] = fmt.Sprintf("%d-%d", s.From, s.To)
			}
		}
		parts = append(parts, "status "+strings.Join(texts, ", "))
	} else if len(r.Statuses) > 0 {
		ranges := append([]contract.StatusRange(nil), r.Statuses...)
		sort.Slice(ranges, func(i, j int) bool {
			if ranges[i].From != ranges[j].From {
				return ranges[i].From < ranges[j].From
			}
			return ranges[i].To < ranges[j].To
		})
		var merged []contract.StatusRange
		for _, s := range ranges {
			if last := len(merged) - 1; last >= 0 && s.From <= merged[last].To+1 {
				merged[last].To = max(merged[last].To, s.To)
				continue
			}
			merged = append(merged, s)
		}
		var texts []string
		for _, s := range merged {
			if s.From == s.To {
				texts = append(texts, fmt.Sprint(s.From))
			} else {
				texts = append(texts, fmt.Sprintf("%d-%d", s.From, s.To))
			}
		}
		parts = append(parts, "status "+strings.Join(texts, ", "))
	}
	switch {
	case r.AnyFailure:
		parts = append(parts, "failure any")
	case len(r.Failures) > 0:
		fs := make([]string, len(r.Failures))
		for i, f := range r.Failures {
			fs[i] = string(f)
		}
		if canonical {
			fs = sortedUnique(fs)
		}
		parts = append(parts, "failure "+strings.Join(fs, ", "))
	}
	if len(r.Text) > 0 {
		ts := append([]string(nil), r.Text...)
		if canonical {
			ts = sortedUnique(ts)
		}
		for i, t := range ts {
			ts[i] = fmt.Sprintf("%q", t)
		}
		parts = append(parts, "text "+strings.Join(ts, ", "))
	}
	if len(parts) == 0 {
		return "anything"
	}
	return strings.Join(parts, "; ")
}

func sortedUnique(list []string) []string {
	out := append([]string(nil), list...)
	sort.Strings(out)
	k := 0
	for i, s := range out {
		if i == 0 || s != out[k-1] {
			out[k] = s
			k++
		}
	}
	return out[:k]
}

func (c *comparer) classifierRules(subject string, o, n *contract.Classifier) {
	oldRules, newRules := keyRules(o.Rules), keyRules(n.Rules)
	oldByKey := map[string]keyedRule{}
	for _, r := range oldRules {
		oldByKey[r.key] = r
	}
	newKeys := map[string]bool{}
	var common []keyedRule // new rules the old classifier has too, in new order
	for _, nr := range newRules {
		newKeys[nr.key] = true
		or, ok := oldByKey[nr.key]
		if !ok {
			c.add(true, nr.rule.Pos, "CLASSIFIER_RULE_ADDED", subject,
				"classifier %q has a new rule %d (%s -> %s)", n.Name, nr.num, nr.desc, nr.rule.Kind.Name)
			continue
		}
		common = append(common, nr)
		if or.rule.Kind.Name != nr.rule.Kind.Name {
			c.add(true, nr.rule.Pos, "CLASSIFIER_RULE_CHANGED", subject,
				"classifier %q: the rule for %s now gives %q instead of %q", n.Name, nr.desc, nr.rule.Kind.Name, or.rule.Kind.Name)
		}
		if ob, nb := or.rule.Breaker, nr.rule.Breaker; ob != nb {
			counts := map[bool]string{true: "now counts", false: "no longer counts"}[nb]
			c.add(true, nr.rule.Pos, "CLASSIFIER_RULE_CHANGED", subject,
				"classifier %q: a failure the rule for %s matches %s toward the circuit breaker", n.Name, nr.desc, counts)
		}
	}
	var oldCommon []keyedRule
	for _, or := range oldRules {
		if !newKeys[or.key] {
			c.add(false, or.rule.Pos, "CLASSIFIER_RULE_REMOVED", subject,
				"classifier %q lost rule %d (%s -> %s); what it matched falls through to later rules or the default", o.Name, or.num, or.desc, or.rule.Kind.Name)
			continue
		}
		oldCommon = append(oldCommon, or)
	}
	// The rules both versions have keep their relative order when they
	// form one common subsequence; each rule outside the longest one moved.
	stay := longestCommon(oldCommon, common)
	for _, nr := range common {
		if !stay[nr.key] {
			c.add(true, nr.rule.Pos, "CLASSIFIER_RULES_REORDERED", subject,
				"classifier %q: the rule for %s moved from rule %d to rule %d; the first matching rule wins", n.Name, nr.desc, oldByKey[nr.key].num, nr.num)
		}
	}
}

// longestCommon returns the keys of a longest common subsequence of a and
// b, which hold the same keys in two orders.
func longestCommon(a, b []keyedRule) map[string]bool {
	// Classifiers have tens of rules: the quadratic table is fine.
	l := make([][]int, len(a)+1)
	for i := range l {
		l[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i].key == b[j].key {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	out := map[string]bool{}
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].key == b[j].key:
			out[a[i].key] = true
			i++
			j++
		case l[i+1][j] >= l[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

func (c *comparer) sanitize() {
	o, n := &c.old.Sanitize, &c.new.Sanitize
	at := func(key string) (bool, contract.Pos) { return keyPos(key, o.KeyPos, n.KeyPos, o.Pos, n.Pos) }
	inNew, pos := at("fields")
	newFields := fieldNames(c.new)
	for _, f := range o.Fields {
		// A field the contract no longer has is reported as deleted.
		if !contains(n.Fields, f) && (newFields[f] || f == "message" || f == "guidance") {
			c.add(inNew, pos, "SANITIZE_FIELD_DROPPED", "sanitize.fields."+f, "%s is no longer sanitized by default: producers put upstream text into it as it is", f)
		}
	}
	for _, f := range n.Fields {
		if !contains(o.Fields, f) {
			c.add(inNew, pos, "SANITIZE_FIELD_ADDED", "sanitize.fields."+f, "%s is now sanitized by default", f)
		}
	}

	// Markers are matched ignoring ASCII case and removed until none
	// remain, so a marker is still removed when a remaining one is part of
	// it.
	inNew, pos = at("markers")
	for _, m := range o.Markers {
		covered := false
		for _, nm := range n.Markers {
			covered = covered || strings.Contains(contract.ASCIIFold(m), contract.ASCIIFold(nm))
		}
		if !covered {
			c.add(inNew, pos, "SANITIZE_MARKER_DROPPED", "sanitize.markers", "marker %q is no longer removed from sanitized text", m)
		}
	}
	for _, m := range n.Markers {
		if !containsFold(o.Markers, m) {
			c.add(inNew, pos, "SANITIZE_MARKER_ADDED", "sanitize.markers", "marker %q is now removed from sanitized text", m)
		}
	}

	c.secrets(o.Secrets, n.Secrets)

	inNew, pos = at("max_length")
	switch {
	case n.MaxLength > o.MaxLength:
		c.add(inNew, pos, "SANITIZE_MAX_LENGTH_RAISED", "sanitize.max_length", "sanitized text may now be %d code points long instead of %d", n.MaxLength, o.MaxLength)
	case n.MaxLength < o.MaxLength:
		c.add(inNew, pos, "SANITIZE_MAX_LENGTH_LOWERED", "sanitize.max_length", "sanitized text is now cut at %d code points instead of %d", n.MaxLength, o.MaxLength)
	}
	if o.TruncationMarker != n.TruncationMarker {
		inNew, pos := at("truncation_marker")
		c.add(inNew, pos, "SANITIZE_TRUNCATION_MARKER_CHANGED", "sanitize.truncation_marker", "text that was cut off now ends with %q instead of %q", n.TruncationMarker, o.TruncationMarker)
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if contract.ASCIIFold(x) == contract.ASCIIFold(s) {
			return true
		}
	}
	return false
}

// secretChars are the characters of each class (contract.SecretChars).
var secretChars = func() map[contract.SecretChars]string {
	const upper, lower, digit = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz", "0123456789"
	alnum := upper + lower + digit
	return map[contract.SecretChars]string{
		contract.CharsAlnum:      alnum,
		contract.CharsUpperAlnum: upper + digit,
		contract.CharsLowerAlnum: lower + digit,
		contract.CharsHex:        digit + "abcdefABCDEF",
		contract.CharsBase64URL:  alnum + "_-",
		contract.CharsBase64:     alnum + "+/=",
		contract.CharsWord:       alnum + "_",
		contract.CharsToken:      alnum + "._~+/=-",
	}
}()

// within reports whether every character of s is in class.
func within(s string, class contract.SecretChars) bool {
	for _, ch := range s {
		if !strings.ContainsRune(secretChars[class], ch) {
			return false
		}
	}
	return true
}

// covers reports whether pattern q redacts every secret that prefix p of
// pattern pt redacts, over at least the same span: a prefix of q starts p,
// the rest of p and every character pt takes are in q's class, and the
// shortest such secret is long enough for q. The redaction takes the whole
// run of class characters, so a wider class only redacts more.
func covers(q *contract.SecretPattern, pt *contract.SecretPattern, p string) bool {
	if !within(secretChars[pt.Chars], q.Chars) {
		return false
	}
	for _, qp := range q.Prefixes {
		rest, ok := strings.CutPrefix(p, qp)
		if ok && within(rest, q.Chars) && len(rest)+pt.MinLength >= q.MinLength {
			return true
		}
	}
	return false
}

// uncovered lists the prefixes of pt that no pattern in set redacts.
func uncovered(pt *contract.SecretPattern, set []*contract.SecretPattern) []string {
	var out []string
	for _, p := range pt.Prefixes {
		ok := false
		for _, q := range set {
			ok = ok || covers(q, pt, p)
		}
		if !ok {
			out = append(out, p)
		}
	}
	return out
}

// secrets compares the contract's secret shapes by what they redact, not
// by name: a pattern renamed or split in two, or whose shape another
// pattern now covers, redacts no less.
func (c *comparer) secrets(old, new []*contract.SecretPattern) {
	newByName := map[string]*contract.SecretPattern{}
	for _, p := range new {
		newByName[p.Name] = p
	}
	oldByName := map[string]*contract.SecretPattern{}
	for _, p := range old {
		oldByName[p.Name] = p
		np := newByName[p.Name]
		if np != nil && np.Description != p.Description {
			c.add(true, np.Pos, "DESCRIPTION_CHANGED", "sanitize.secrets."+p.Name, "the description of secret pattern %q changed", p.Name)
		}
		lost := uncovered(p, new)
		if len(lost) == 0 {
			continue
		}
		if np == nil {
			c.add(false, p.Pos, "SANITIZE_SECRET_NARROWED", "sanitize.secrets."+p.Name,
				"secret pattern %q was deleted: secrets starting with %s are no longer redacted", p.Name, quoteAll(lost))
			continue
		}
		c.add(true, np.Pos, "SANITIZE_SECRET_NARROWED", "sanitize.secrets."+p.Name,
			"secret pattern %q redacts less (%s): secrets starting with %s may pass, or partly pass, unredacted", p.Name, shapeChange(p, np), quoteAll(lost))
	}
	for _, p := range new {
		if len(uncovered(p, old)) == 0 {
			continue
		}
		if op := oldByName[p.Name]; op != nil {
			c.add(true, p.Pos, "SANITIZE_SECRET_WIDENED", "sanitize.secrets."+p.Name, "secret pattern %q redacts more (%s)", p.Name, shapeChange(op, p))
		} else {
			c.add(true, p.Pos, "SANITIZE_SECRET_WIDENED", "sanitize.secrets."+p.Name, "new secret pattern %q redacts secrets starting with %s", p.Name, quoteAll(p.Prefixes))
		}
	}
}

// shapeChange describes how a secret pattern's shape changed.
func shapeChange(o, n *contract.SecretPattern) string {
	var parts []string
	for _, p := range o.Prefixes {
		if !contains(n.Prefixes, p) {
			parts = append(parts, fmt.Sprintf("prefix %q removed", p))
		}
	}
	for _, p := range n.Prefixes {
		if !contains(o.Prefixes, p) {
			parts = append(parts, fmt.Sprintf("prefix %q added", p))
		}
	}
	if o.Chars != n.Chars {
		parts = append(parts, fmt.Sprintf("chars %s -> %s", o.Chars, n.Chars))
	}
	if o.MinLength != n.MinLength {
		parts = append(parts, fmt.Sprintf("min_length %d -> %d", o.MinLength, n.MinLength))
	}
	return strings.Join(parts, ", ")
}

func quoteAll(list []string) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(out, ", ")
}

func (c *comparer) retry() {
	o, n := c.old.Retry, c.new.Retry
	param := func(name string, ov, nv any) {
		if ov != nv {
			inNew, pos := keyPos(name, o.KeyPos, n.KeyPos, o.Pos, n.Pos)
			c.add(inNew, pos, "RETRY_POLICY_CHANGED", "retry."+name, "retry.%s changed from %v to %v", name, ov, nv)
		}
	}
	param("initial_ms", o.InitialMs, n.InitialMs)
	param("max_ms", o.MaxMs, n.MaxMs)
	param("multiplier", o.Multiplier, n.Multiplier)
	param("jitter", o.Jitter, n.Jitter)
	param("max_attempts", o.MaxAttempts, n.MaxAttempts)
	inNew, pos := keyPos("max_hint_ms", o.KeyPos, n.KeyPos, o.Pos, n.Pos)
	switch {
	case n.MaxHintMs > o.MaxHintMs:
		c.add(inNew, pos, "RETRY_MAX_HINT_CHANGED", "retry.max_hint_ms",
			"retry.max_hint_ms was raised from %d to %d: agents built on the old contract cut the longer hints of new producers short", o.MaxHintMs, n.MaxHintMs)
	case n.MaxHintMs < o.MaxHintMs:
		c.add(inNew, pos, "RETRY_MAX_HINT_CHANGED", "retry.max_hint_ms",
			"retry.max_hint_ms was lowered from %d to %d: new producers clamp hints to it, and new agents cut old producers' longer hints short", o.MaxHintMs, n.MaxHintMs)
	}
}
