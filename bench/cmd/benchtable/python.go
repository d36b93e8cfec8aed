package main

import (
	"fmt"
	"sort"
	"strings"
)

// pythonRows are the Python targets of issue 21: the codec beside what a
// Python team would otherwise use (json.dumps and json.loads of the same
// envelope; pydantic v2, reported), and the sanitizer beside a regular
// expression chain port of labby's, on four kinds of text, with the worst
// crafted input's throughput and then each crafted input's.
func pythonRows() []row {
	var out []row
	p := "python.BenchmarkPython/"
	// ratio compares errgen's time with a baseline's: met when within max
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
			status = verdict(r <= max)
		}
		out = append(out, row{target, dur(e), dur(b), fmt.Sprintf("%.2f× its time", r), goal, status})
	}
	ratio("Python `to_json` vs `json.dumps` of the same dict (envelope.json)", "ToJSON", "JSONDumps", "≤ 1.5×", 1.5)
	ratio("… vs pydantic v2 `model_dump_json` (a model of the same envelope)", "ToJSON", "PydanticDumpJSON", "reported", 0)
	ratio("Python `from_json` vs `json.loads` (envelope.json)", "FromJSON", "JSONLoads", "≤ 2×", 2)
	ratio("… vs pydantic v2 `model_validate_json`", "FromJSON", "PydanticValidateJSON", "reported", 0)
	for _, t := range []struct{ name, what string }{
		{"Clean4KiB", "clean 4 KiB ASCII"},
		{"NonASCII4KiB", "clean 4 KiB in other scripts"},
		{"Dirty4KiB", "dirty 4 KiB"},
		{"URLs4KiB", "4 KiB full of URLs"},
	} {
		ratio("Python sanitizer vs a regex-chain port of labby's: "+t.what, "Sanitize"+t.name, "Labby"+t.name, "faster (< 1×)", 0.999)
	}
	// The crafted inputs: the lowest throughput of the SanitizeCrafted rows,
	// named, then a row per pattern.
	var names []string
	for k := range samples {
		if strings.HasPrefix(k, p+"SanitizeCrafted/") {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	const target, goal = "Python sanitizer: worst crafted input (16 KiB of one piece repeated)", "≥ 20 MB/s"
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
	out = append(out, row{target, fmt.Sprintf("%.1f MB/s (%s, `%s`)", worst, dur(ns), worstName), "", fmt.Sprintf("%.2f× the goal", worst/20), goal, verdict(worst >= 20)})
	for _, k := range names {
		name := strings.TrimPrefix(k, p+"SanitizeCrafted/")
		mbs, ok1 := get(k, "MB/s")
		ns, ok2 := get(k, "ns/op")
		if !ok1 || !ok2 {
			continue
		}
		out = append(out, row{"Python sanitizer: crafted input (pattern=" + name + ")", fmt.Sprintf("%.1f MB/s (%s)", mbs, dur(ns)), "", fmt.Sprintf("%.2f× the goal", mbs/20), goal, verdict(mbs >= 20)})
	}
	return out
}
