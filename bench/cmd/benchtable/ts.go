package main

import (
	"fmt"
	"sort"
	"strings"
)

// tsRows are the TypeScript targets of issue 21: parse + lookup beside
// what a TypeScript team would otherwise use (zod with a schema of the
// envelope, ajv validating JSON.parse's result against the generated
// consumer schema; reported), and the sanitizer beside a regular expression
// chain port of labby's on four kinds of text, with the worst crafted
// input's throughput.
func tsRows() []row {
	var out []row
	p := "ts.BenchmarkTS/"
	// ratio compares errgen's time with a baseline's: met when below max
	// (max 0: reported only).
	ratio := func(target, errKey, baseKey, goal string, max float64) {
		e, ok1 := get(p+errKey, "ns/op")
		b, ok2 := get(p+baseKey, "ns/op")
		if !ok1 || !ok2 {
			out = append(out, missing(target, goal))
			return
		}
		r := e / b
		status := "reported"
		if max > 0 {
			status = verdict(r < max)
		}
		out = append(out, row{target, dur(e), dur(b), fmt.Sprintf("%.2f× its time", r), goal, status})
	}
	ratio("TS parse + lookup vs zod (`safeParse` of `JSON.parse`, a schema of the envelope)", "ParseLookup", "ParseLookupZod", "reported", 0)
	ratio("… vs ajv-validated `JSON.parse` (the generated consumer schema)", "ParseLookup", "ParseLookupAjv", "reported", 0)
	for _, t := range []struct{ name, what string }{
		{"Clean4KiB", "clean 4 KiB ASCII"},
		{"NonASCII4KiB", "clean 4 KiB in other scripts"},
		{"Dirty4KiB", "dirty 4 KiB"},
		{"URLs4KiB", "4 KiB full of URLs"},
	} {
		ratio("TS sanitizer vs a regex-chain port of labby's: "+t.what, "Sanitize"+t.name, "Labby"+t.name, "faster (< 1×)", 1)
	}
	// The worst crafted input: the lowest throughput of the SanitizeCrafted rows.
	var names []string
	for k := range samples {
		if strings.HasPrefix(k, p+"SanitizeCrafted/") {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	const target, goal = "TS sanitizer: worst crafted input (16 KiB of one piece repeated)", "≥ 50 MB/s"
	worst, worstName := 0.0, ""
	for _, k := range names {
		if mbs, ok := get(k, "MB/s"); ok && (worstName == "" || mbs < worst) {
			worst, worstName = mbs, strings.TrimPrefix(k, p+"SanitizeCrafted/")
		}
	}
	if worstName == "" {
		return append(out, missing(target, goal))
	}
	ns, _ := get(p+"SanitizeCrafted/"+worstName, "ns/op")
	return append(out, row{target, fmt.Sprintf("%.1f MB/s (%s, `%s`)", worst, dur(ns), worstName), "", fmt.Sprintf("%.2f× the goal", worst/50), goal, verdict(worst >= 50)})
}
