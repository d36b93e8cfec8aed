// Command benchtable reads `go test -bench -benchmem` output (any number of
// files, from any number of packages and -count runs, and the lines the
// TypeScript, Python and Rust benchmarks print in the same format) and
// prints one Markdown table: every target of issues 10, 18 and 21 with the
// measured numbers, the ratio and whether it is met. Repeated runs of a benchmark are reduced to
// their median. The raw files stay benchstat's input.
package main

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
)

// samples holds, per "pkg.Benchmark/name" (GOMAXPROCS suffix removed), the
// values of each unit across runs.
var samples = map[string]map[string][]float64{}

var cpu string

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: benchtable FILE...")
		os.Exit(2)
	}
	for _, f := range os.Args[1:] {
		if err := read(f); err != nil {
			fmt.Fprintln(os.Stderr, "benchtable:", err)
			os.Exit(1)
		}
	}
	if cpu != "" {
		fmt.Printf("CPU: %s\n\n", cpu)
	}
	fmt.Println("| Target (issues 10, 18, 21) | errgen | baseline | ratio | goal | status |")
	fmt.Println("|---|---:|---:|---:|---|---|")
	for _, r := range rows() {
		fmt.Printf("| %s | %s | %s | %s | %s | %s |\n", r.target, r.errgen, r.baseline, r.ratio, r.goal, r.status)
	}
}

func read(file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	pkg := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "pkg: "):
			pkg = path.Base(strings.TrimPrefix(line, "pkg: "))
		case strings.HasPrefix(line, "cpu: "):
			cpu = strings.TrimPrefix(line, "cpu: ")
		case strings.HasPrefix(line, "Benchmark"):
			fields := strings.Fields(line)
			if len(fields) < 4 || len(fields)%2 != 0 {
				continue
			}
			name := fields[0]
			if i := strings.LastIndexByte(name, '-'); i > 0 {
				if _, err := strconv.Atoi(name[i+1:]); err == nil {
					name = name[:i]
				}
			}
			key := pkg + "." + name
			if samples[key] == nil {
				samples[key] = map[string][]float64{}
			}
			for i := 2; i+1 < len(fields); i += 2 {
				v, err := strconv.ParseFloat(fields[i], 64)
				if err != nil {
					continue
				}
				samples[key][fields[i+1]] = append(samples[key][fields[i+1]], v)
			}
		}
	}
	return sc.Err()
}

// get returns the median of unit for a benchmark, and whether it ran.
func get(key, unit string) (float64, bool) {
	vs := samples[key][unit]
	if len(vs) == 0 {
		return 0, false
	}
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2], true
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2, true
}

type row struct{ target, errgen, baseline, ratio, goal, status string }

// switchGoals are issue 31's goals: the median ns/op of each benchmark at
// b755f90, where these were switches the generator emitted, on the 2-core
// AMD EPYC machine of docs/benchmarks.md's issue 31 section (measured as it
// says). Another machine needs them measured again.
var switchGoals = []struct {
	name string
	ns   float64
}{
	{"NextStep/case=retry_backoff", 22.1},
	{"NextStep/case=retry_hint", 19.0},
	{"NextStep/case=retry_exhausted", 19.2},
	{"NextStep/case=do_not_retry", 10.9},
	{"NextStep/case=unknown_kind", 12.4},
	{"Classify/case=model/transport_failure", 18.7},
	{"Classify/case=model/transport_last_rule", 28.3},
	{"Classify/case=model/http_status", 17.3},
	{"Classify/case=model/http_status_text", 107.8},
	{"Classify/case=breaker/transport_failure", 20.5},
	{"Classify/case=breaker/http_status", 23.8},
	{"Classify/case=tool_result", 1.4},
	{"DecisionMethods/method=Step", 7.8},
	{"DecisionMethods/method=IsRetry", 3.4},
	{"DecisionMethods/method=PermitsRetry", 6.3},
	{"DecisionMethods/method=MayHaveRun", 6.2},
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**not met**"
}

func dur(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.1f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.1f ns", ns)
}

func mem(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}

func missing(target, goal string) row {
	return row{target, "–", "–", "–", goal, "missing (benchmark did not run)"}
}

// generatorSize is the rows of a generator job at 10,000 kinds: time (and,
// for Generate, memory: issue 33's 800 MB).
func generatorSize(job, key string) []row {
	target := fmt.Sprintf("%s 10,000 kinds ≤ 1 s", strings.ToLower(job))
	ns, ok := get(key, "ns/op")
	if !ok {
		return []row{missing(target, "≤ 1 s")}
	}
	b, _ := get(key, "B/op")
	a, _ := get(key, "allocs/op")
	out := []row{{target, fmt.Sprintf("%s, %s, %.0f allocs", dur(ns), mem(b), a), "", fmt.Sprintf("%.2f× the goal", ns/1e9), "≤ 1 s", verdict(ns <= 1e9)}}
	if job == "Generate" {
		out = append(out, row{"generate 10,000 kinds ≤ 800 MB allocated", mem(b), "", fmt.Sprintf("%.2f× the goal", b/800e6), "≤ 800 MB", verdict(b <= 800e6)})
	}
	return out
}

// growth is the row of one 10× step of a generator job in one unit.
func growth(job string, key func(string) string, step [2]string, u [2]string, limit float64) row {
	goal := fmt.Sprintf("≤ %g×", limit)
	target := fmt.Sprintf("%s %s, %s→%s kinds", strings.ToLower(job), u[1], step[0], step[1])
	small, ok1 := get(key(step[0]), u[0])
	large, ok2 := get(key(step[1]), u[0])
	if !ok1 || !ok2 {
		return missing(target, goal)
	}
	f := dur
	if u[0] == "B/op" {
		f = mem
	}
	r := large / small
	return row{target, f(large), f(small) + " (smaller)", fmt.Sprintf("%.2f×", r), goal, verdict(r <= limit)}
}

func rows() []row {
	var out []row
	// Generator: absolute time and memory, and linear growth.
	for _, job := range []string{"Generate", "Check"} {
		key := func(n string) string { return "synth.Benchmark" + job + "/kinds=" + n }
		out = append(out, generatorSize(job, key("10000"))...)
		// Issue 33: Generate grows at most 11× per 10× kinds in CPU and
		// allocation up to 100,000 kinds; Check keeps issue 10's 12× in
		// time and memory.
		steps, units, limit := [][2]string{{"100", "1000"}, {"1000", "10000"}}, [][2]string{{"ns/op", "time"}, {"B/op", "memory"}}, 12.0
		if job == "Generate" {
			steps, units, limit = [][2]string{{"1000", "10000"}, {"10000", "100000"}}, [][2]string{{"cpu-ns/op", "CPU"}, {"B/op", "allocation"}}, 11
		}
		for _, step := range steps {
			for _, u := range units {
				out = append(out, growth(job, key, step, u, limit))
			}
		}
	}
	if ns, ok := get("synth.BenchmarkGoBuild", "ns/op"); ok {
		src, _ := get("synth.BenchmarkGoBuild", "src-B/kind")
		ar, _ := get("synth.BenchmarkGoBuild", "archive-B/kind")
		out = append(out, row{"`go build` of the generated Go package, 1,000 kinds", fmt.Sprintf("%s; %.0f B source and %.0f B archive per kind", dur(ns), src, ar), "", fmt.Sprintf("%.2f× the goal", ns/3e9), "≤ 3 s", verdict(ns <= 3e9)})
	} else {
		out = append(out, missing("`go build` of the generated Go package, 1,000 kinds", "≤ 3 s"))
	}
	// Generated Go hot paths.
	for _, name := range []string{"LookupKnown", "LookupUnknown"} {
		key := "agenterror.Benchmark" + name
		target := "`Lookup` 0 allocs (" + strings.TrimPrefix(name, "Lookup") + " kind)"
		a, ok := get(key, "allocs/op")
		if !ok {
			out = append(out, missing(target, "0 allocs"))
			continue
		}
		ns, _ := get(key, "ns/op")
		out = append(out, row{target, fmt.Sprintf("%s, %.0f allocs", dur(ns), a), "", "", "0 allocs", verdict(a == 0)})
	}
	// Issue 31: NextStep, the inbound classifiers and the decision methods
	// read tables in runtime files where b755f90 emitted switches; each
	// keeps the switches' time (switchGoals) and allocates nothing.
	for _, s := range switchGoals {
		key := "agenterror.Benchmark" + s.name
		target := "`" + s.name + "` as fast as b755f90's switches"
		goal := fmt.Sprintf("≤ %s, 0 allocs", dur(s.ns))
		ns, ok := get(key, "ns/op")
		if !ok {
			out = append(out, missing(target, goal))
			continue
		}
		a, _ := get(key, "allocs/op")
		out = append(out, row{target, fmt.Sprintf("%s, %.0f allocs", dur(ns), a), dur(s.ns) + " (b755f90)", fmt.Sprintf("%.2f× its time", ns/s.ns), goal, verdict(ns <= s.ns && a == 0)})
	}
	compare := func(target, errKey, baseKey, goal string, min float64, fewerAllocs bool) {
		e, ok1 := get(errKey, "ns/op")
		b, ok2 := get(baseKey, "ns/op")
		if !ok1 || !ok2 {
			out = append(out, missing(target, goal))
			return
		}
		ea, _ := get(errKey, "allocs/op")
		ba, _ := get(baseKey, "allocs/op")
		r := b / e
		ok := r >= min
		if fewerAllocs {
			ok = ok && ea < ba
		}
		ratio := fmt.Sprintf("%.2f× faster", r)
		if r < 1 {
			ratio = fmt.Sprintf("%.2f× slower", 1/r)
		}
		out = append(out, row{target, fmt.Sprintf("%s, %.0f allocs", dur(e), ea), fmt.Sprintf("%s, %.0f allocs", dur(b), ba), ratio, goal, verdict(ok)})
	}
	compare("construct + marshal vs encoding/json (hand-written struct)", "agenterror.BenchmarkConstructMarshal/impl=errgen", "agenterror.BenchmarkConstructMarshal/impl=encoding_json", "≥ 3× faster, fewer allocs", 3, true)
	compare("… the envelope escaping to the heap (built by a function that returns it)", "agenterror.BenchmarkConstructMarshal/impl=errgen_escaping", "agenterror.BenchmarkConstructMarshal/impl=encoding_json", "≥ 3× faster, fewer allocs", 3, true)
	compare("… both allocating their output (`MarshalJSON` vs `json.Marshal`)", "agenterror.BenchmarkConstructMarshal/impl=errgen_MarshalJSON", "agenterror.BenchmarkConstructMarshal/impl=encoding_json_Marshal", "≥ 3× faster, fewer allocs", 3, true)
	compare("… the same through `json.Marshal(env)`", "agenterror.BenchmarkConstructMarshal/impl=errgen_json.Marshal", "agenterror.BenchmarkConstructMarshal/impl=encoding_json_Marshal", "≥ 3× faster, fewer allocs", 3, true)
	compare("unmarshal vs encoding/json (hand-written struct)", "agenterror.BenchmarkDecode/impl=errgen", "agenterror.BenchmarkDecode/impl=encoding_json", "≥ 2× faster", 2, false)
	compare("… the same through `json.Unmarshal(data, &env)`", "agenterror.BenchmarkDecode/impl=errgen_json.Unmarshal", "agenterror.BenchmarkDecode/impl=encoding_json", "≥ 2× faster", 2, false)
	compare("construct + marshal vs protojson (google.rpc.Status + ErrorInfo + RetryInfo)", "bench.BenchmarkConstructMarshal/impl=errgen", "bench.BenchmarkConstructMarshal/impl=protojson", "≥ 5× faster", 5, false)
	compare("… both allocating their output (`MarshalJSON` vs `protojson.Marshal`)", "bench.BenchmarkConstructMarshal/impl=errgen_MarshalJSON", "bench.BenchmarkConstructMarshal/impl=protojson_Marshal", "≥ 5× faster", 5, false)
	compare("unmarshal vs protojson, details unpacked", "bench.BenchmarkDecode/impl=errgen", "bench.BenchmarkDecode/impl=protojson", "≥ 5× faster", 5, false)
	compare("… Status only, details left packed", "bench.BenchmarkDecode/impl=errgen", "bench.BenchmarkDecode/impl=protojson_status_only", "≥ 5× faster", 5, false)
	// Issue 20: the google.rpc mapping's JSON form against protojson on the
	// same google.rpc.Status (code, message, ErrorInfo, RetryInfo).
	compare("AIP-193 encode (`RPCStatus` + `AppendAIP193`) vs protojson of the same google.rpc.Status", "bench.BenchmarkAIP193/op=encode/impl=errgen", "bench.BenchmarkAIP193/op=encode/impl=protojson", "as fast or faster", 1, false)
	compare("AIP-193 decode into the envelope (`FromAIP193`) vs protojson, details unpacked", "bench.BenchmarkAIP193/op=decode/impl=errgen", "bench.BenchmarkAIP193/op=decode/impl=protojson", "as fast or faster", 1, false)
	// Sanitizer: throughput from b.SetBytes, and the bounded window.
	speed := func(target, key, goal string, minMBs float64, zeroAllocs bool) {
		mbs, ok := get(key, "MB/s")
		if !ok {
			out = append(out, missing(target, goal))
			return
		}
		ns, _ := get(key, "ns/op")
		a, _ := get(key, "allocs/op")
		ok = mbs >= minMBs
		if zeroAllocs {
			ok = ok && a == 0
		}
		out = append(out, row{target, fmt.Sprintf("%.0f MB/s (%s), %.0f allocs", mbs, dur(ns), a), "", fmt.Sprintf("%.2f× the goal", mbs/minMBs), goal, verdict(ok)})
	}
	speed("Go sanitizer: clean 4 KiB text", "agenterror.BenchmarkSanitizeClean4KiB", "≥ 1 GB/s, 0 allocs", 1000, true)
	speed("Go sanitizer: dirty 4 KiB text", "agenterror.BenchmarkSanitizeDirty4KiB", "≥ 200 MB/s", 200, false)
	// Issue 21: every script, dirty text of every shape, the crafted worst
	// cases; a row per sub-benchmark.
	speedEach := func(target, prefix, goal string, minMBs float64, zeroAllocs bool) {
		var keys []string
		for k := range samples {
			if strings.HasPrefix(k, prefix) {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			out = append(out, missing(target, goal))
			return
		}
		sort.Strings(keys)
		for _, k := range keys {
			speed(target+" ("+strings.TrimPrefix(k, prefix)+")", k, goal, minMBs, zeroAllocs)
		}
	}
	speedEach("Go sanitizer: clean text in another script", "agenterror.BenchmarkSanitizeCleanScript/", "≥ 1 GB/s, 0 allocs", 1000, true)
	speedEach("Go sanitizer: dirty text", "agenterror.BenchmarkSanitizeDirtyShape/", "≥ 300 MB/s", 300, false)
	speedEach("Go sanitizer: crafted input", "agenterror.BenchmarkSanitizeCrafted/", "≥ 200 MB/s", 200, false)
	// Issue 33: ill-formed bytes cost their repair, URLs stay on the fast
	// path; each beside its clean twin of the same run.
	speedRatio := func(target, key, baseKey string, maxAllocs float64) {
		const goal = "≥ 0.7× its speed"
		goalText := goal
		if maxAllocs == 0 {
			goalText = goal + ", 0 allocs"
		} else if maxAllocs > 0 {
			goalText = fmt.Sprintf("%s, ≤ %.0f allocs", goal, maxAllocs)
		}
		e, ok1 := get(key, "MB/s")
		b, ok2 := get(baseKey, "MB/s")
		if !ok1 || !ok2 {
			out = append(out, missing(target, goalText))
			return
		}
		ea, _ := get(key, "allocs/op")
		r := e / b
		ok := r >= 0.7 && (maxAllocs < 0 || ea <= maxAllocs)
		out = append(out, row{target, fmt.Sprintf("%.0f MB/s, %.0f allocs", e, ea), fmt.Sprintf("%.0f MB/s", b), fmt.Sprintf("%.2f× its speed", r), goalText, verdict(ok)})
	}
	ill := "agenterror.BenchmarkSanitizeIllFormed/where="
	speedRatio("Go sanitizer: clean 4 KiB text cut in a character at its end vs cut at a boundary", ill+"end", ill+"none", 1)
	speedRatio("… one `\\xff` in its middle vs none", ill+"middle", ill+"none", 1)
	// The same texts through AppendSanitize into a reused buffer (no new
	// string, so no collector or fresh pages), beside the clean text
	// through Sanitize, which copies nothing.
	app := "agenterror.BenchmarkAppendSanitizeIllFormed/where="
	speedRatio("… cut at its end, `AppendSanitize` into a reused buffer, vs the clean text through `Sanitize`", app+"end", ill+"none", 0)
	speedRatio("… one `\\xff` in its middle, `AppendSanitize` into a reused buffer, vs the clean text through `Sanitize`", app+"middle", ill+"none", 0)
	speedRatio("Go sanitizer: clean 4 KiB text full of URLs (`://`, `?`, `=`, `&`) vs plain ASCII text", "agenterror.BenchmarkSanitizeURLs/text=urls", "agenterror.BenchmarkSanitizeURLs/text=plain", -1)
	if big, ok1 := get("agenterror.BenchmarkSanitize10MiB", "ns/op"); ok1 {
		if win, ok2 := get("agenterror.BenchmarkSanitizeWindow", "ns/op"); ok2 {
			r := big / win
			out = append(out, row{"Go sanitizer: a 10 MiB input costs its bounded window", dur(big), dur(win) + " (the window alone)", fmt.Sprintf("%.2f×", r), "≤ 1.5×", verdict(r <= 1.5)})
		} else {
			out = append(out, missing("Go sanitizer: a 10 MiB input costs its bounded window", "≤ 1.5×"))
		}
	} else {
		out = append(out, missing("Go sanitizer: a 10 MiB input costs its bounded window", "≤ 1.5×"))
	}
	// Rust (issue 18): the generated crate beside serde_json on a
	// hand-written #[derive] struct of the same envelope, and its sanitizer.
	rustVs := func(target, errKey, baseKey string) {
		const goal = "≤ 1.2× its time, no more allocs"
		e, ok1 := get(errKey, "ns/op")
		b, ok2 := get(baseKey, "ns/op")
		if !ok1 || !ok2 {
			out = append(out, missing(target, goal))
			return
		}
		ea, _ := get(errKey, "allocs/op")
		ba, _ := get(baseKey, "allocs/op")
		r := e / b
		ratio := fmt.Sprintf("%.2f× its time", r)
		out = append(out, row{target, fmt.Sprintf("%s, %.0f allocs", dur(e), ea), fmt.Sprintf("%s, %.0f allocs", dur(b), ba), ratio, goal, verdict(r <= 1.2 && ea <= ba)})
	}
	rs := "rust.BenchmarkRust/"
	rustVs("Rust decode vs serde_json (hand-written `#[derive]` struct): `Envelope::from_slice`", rs+"Decode/impl=from_slice", rs+"Decode/impl=serde_derive")
	rustVs("… through serde (`serde_json::from_slice::<Envelope>`)", rs+"Decode/impl=serde", rs+"Decode/impl=serde_derive")
	rustVs("Rust encode vs serde_json (hand-written `#[derive]` struct), into a reused buffer: `append_json`", rs+"Encode/impl=append_json", rs+"Encode/impl=serde_derive")
	rustVs("… through serde (`serde_json::to_writer(&mut buf, &env)`)", rs+"Encode/impl=serde", rs+"Encode/impl=serde_derive")
	rustVs("… both allocating their output (`to_json` vs `serde_json::to_vec`)", rs+"Encode/impl=to_json", rs+"Encode/impl=serde_derive_to_vec")
	speed("Rust sanitizer: clean 4 KiB text", rs+"SanitizeClean4KiB", "≥ 1 GB/s, 0 allocs", 1000, true)
	speed("Rust sanitizer: dirty 4 KiB text", rs+"SanitizeDirty4KiB", "≥ 200 MB/s", 200, false)
	// Issue 21: the crafted worst cases, as Go's (a row per pattern).
	speedEach("Rust sanitizer: crafted input", rs+"SanitizeCrafted/", "≥ 200 MB/s", 200, false)
	if big, ok1 := get(rs+"Sanitize10MiB", "ns/op"); ok1 {
		if win, ok2 := get(rs+"SanitizeWindow", "ns/op"); ok2 {
			r := big / win
			out = append(out, row{"Rust sanitizer: a 10 MiB input costs its bounded window", dur(big), dur(win) + " (the window alone)", fmt.Sprintf("%.2f×", r), "≤ 1.5×", verdict(r <= 1.5)})
		} else {
			out = append(out, missing("Rust sanitizer: a 10 MiB input costs its bounded window", "≤ 1.5×"))
		}
	} else {
		out = append(out, missing("Rust sanitizer: a 10 MiB input costs its bounded window", "≤ 1.5×"))
	}
	// TypeScript and Python: each beside a bare parse of the same bytes.
	for _, lang := range []struct{ pkg, name, parse, bare string }{{"ts", "TS", "`JSON.parse`", "JSONParse"}, {"python", "Python", "`json.loads`", "JSONLoads"}} {
		within := func(target, key, baseKey string) {
			e, ok1 := get(key, "ns/op")
			b, ok2 := get(baseKey, "ns/op")
			if !ok1 || !ok2 {
				out = append(out, missing(target, "within 2×"))
				return
			}
			r := e / b
			out = append(out, row{target, dur(e), dur(b), fmt.Sprintf("%.2f× the bare parse", r), "within 2×", verdict(r <= 2)})
		}
		p := lang.pkg + ".Benchmark" + lang.name + "/"
		within(lang.name+" parse + lookup vs bare "+lang.parse+" (envelope.json)", p+"ParseLookup", p+lang.bare)
		within(lang.name+" sanitize clean 4 KiB vs bare "+lang.parse+" of it", p+"SanitizeClean4KiB", p+lang.bare+"Clean4KiB")
		within(lang.name+" sanitize dirty 4 KiB vs bare "+lang.parse+" of it", p+"SanitizeDirty4KiB", p+lang.bare+"Dirty4KiB")
		if big, ok1 := get(p+"Sanitize10MiB", "ns/op"); ok1 {
			d, _ := get(p+"SanitizeDirty4KiB", "ns/op")
			out = append(out, row{lang.name + " sanitize 10 MiB input", dur(big), dur(d) + " (dirty 4 KiB)", "", "bounded by the window", "reported"})
		}
	}
	out = append(out, tsRows()...)
	out = append(out, pythonRows()...)
	return out
}
