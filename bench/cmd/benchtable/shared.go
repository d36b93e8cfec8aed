package main

import (
	"fmt"
	"sort"
	"strings"
)

// The row builders the TypeScript and Python sections share (issue 21):
// both compare the package's time with a baseline's, put their sanitizer
// beside the same port of labby's on the same four texts, and report their
// crafted inputs' throughput against a floor.

// ratioRow compares errgen's time (errKey) with a baseline's (baseKey),
// both under the prefix p; met decides the status from the ratio, and a nil
// met reports the ratio only.
func ratioRow(p, target, errKey, baseKey, goal string, met func(ratio float64) bool) row {
	e, ok1 := get(p+errKey, "ns/op")
	b, ok2 := get(p+baseKey, "ns/op")
	if !ok1 || !ok2 {
		return missing(target, goal)
	}
	r := e / b
	status := "reported"
	if met != nil {
		status = verdict(met(r))
	}
	return row{target, dur(e), dur(b), fmt.Sprintf("%.2f× its time", r), goal, status}
}

// within is met at max or below; below only under max.
func within(max float64) func(float64) bool { return func(r float64) bool { return r <= max } }
func below(max float64) func(float64) bool  { return func(r float64) bool { return r < max } }

// labbyRows put the sanitizer (Sanitize<text>) beside the regex-chain port
// of labby's (Labby<text>) on the four texts every language's benchmark
// has; faster is met.
func labbyRows(p, lang string) []row {
	var out []row
	for _, t := range []struct{ name, what string }{
		{"Clean4KiB", "clean 4 KiB ASCII"},
		{"NonASCII4KiB", "clean 4 KiB in other scripts"},
		{"Dirty4KiB", "dirty 4 KiB"},
		{"URLs4KiB", "4 KiB full of URLs"},
	} {
		out = append(out, ratioRow(p, lang+" sanitizer vs a regex-chain port of labby's: "+t.what, "Sanitize"+t.name, "Labby"+t.name, "faster (< 1×)", below(1)))
	}
	return out
}

// craftedRows report the SanitizeCrafted benchmarks under p against a floor
// of floor MB/s: the lowest throughput, named, then, when each is set, a
// row per pattern.
func craftedRows(p, lang string, floor float64, each bool) []row {
	names, goal := craftedNames(p), fmt.Sprintf("≥ %g MB/s", floor)
	out := []row{worstCraftedRow(p, lang+" sanitizer: worst crafted input (16 KiB of one piece repeated)", floor)}
	if !each {
		return out
	}
	for _, k := range names {
		mbs, ok1 := get(k, "MB/s")
		ns, ok2 := get(k, "ns/op")
		if !ok1 || !ok2 {
			continue
		}
		name := strings.TrimPrefix(k, p+"SanitizeCrafted/")
		out = append(out, row{lang + " sanitizer: crafted input (pattern=" + name + ")", fmt.Sprintf("%.1f MB/s (%s)", mbs, dur(ns)), "", fmt.Sprintf("%.2f× the goal", mbs/floor), goal, verdict(mbs >= floor)})
	}
	return out
}

// craftedNames returns the SanitizeCrafted benchmarks under p, sorted.
func craftedNames(p string) []string {
	var names []string
	for k := range samples {
		if strings.HasPrefix(k, p+"SanitizeCrafted/") {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return names
}

// worstCraftedRow reports the lowest throughput of the SanitizeCrafted
// benchmarks under p, named, against a floor of floor MB/s.
func worstCraftedRow(p, target string, floor float64) row {
	goal := fmt.Sprintf("≥ %g MB/s", floor)
	worst, worstName := 0.0, ""
	for _, k := range craftedNames(p) {
		if mbs, ok := get(k, "MB/s"); ok && (worstName == "" || mbs < worst) {
			worst, worstName = mbs, strings.TrimPrefix(k, p+"SanitizeCrafted/")
		}
	}
	if worstName == "" {
		return missing(target, goal)
	}
	ns, _ := get(p+"SanitizeCrafted/"+worstName, "ns/op")
	return row{target, fmt.Sprintf("%.1f MB/s (%s, `%s`)", worst, dur(ns), worstName), "", fmt.Sprintf("%.2f× the goal", worst/floor), goal, verdict(worst >= floor)}
}
