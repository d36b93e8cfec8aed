package main

// pythonRows are the Python targets of issue 21: the codec beside what a
// Python team would otherwise use (json.dumps and json.loads of the same
// envelope; pydantic v2, reported), and the sanitizer beside a regular
// expression chain port of labby's, on four kinds of text, with the worst
// crafted input's throughput and then each crafted input's.
func pythonRows() []row {
	const p = "python.BenchmarkPython/"
	out := []row{
		ratioRow(p, "Python `to_json` vs `json.dumps` of the same dict (envelope.json)", "ToJSON", "JSONDumps", "≤ 1.5×", within(1.5)),
		ratioRow(p, "… vs pydantic v2 `model_dump_json` (a model of the same envelope)", "ToJSON", "PydanticDumpJSON", "reported", nil),
		ratioRow(p, "Python `from_json` vs `json.loads` (envelope.json)", "FromJSON", "JSONLoads", "≤ 2×", within(2)),
		ratioRow(p, "… vs pydantic v2 `model_validate_json`", "FromJSON", "PydanticValidateJSON", "reported", nil),
	}
	out = append(out, labbyRows(p, "Python")...)
	// Issue 33: text dense with secrets, one of each kind every 80 characters.
	out = append(out, ratioRow(p, "Python sanitizer vs a regex-chain port of labby's: 4 KiB dense with secrets", "SanitizeDense4KiB", "LabbyDense4KiB", "faster (< 1×)", below(1)))
	// Issue 33 asks the worst crafted input for 15 MB/s; issue 21's rows,
	// which follow, for 20.
	out = append(out, worstCraftedRow(p, "Python sanitizer: worst crafted input, issue 33's floor", 15))
	return append(out, craftedRows(p, "Python", 20, true)...)
}
