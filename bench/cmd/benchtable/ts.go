package main

// tsRows are the TypeScript targets of issue 21: parse + lookup beside
// what a TypeScript team would otherwise use (zod with a schema of the
// envelope, ajv validating JSON.parse's result against the generated
// consumer schema; reported), and the sanitizer beside a regular expression
// chain port of labby's on four kinds of text, with the worst crafted
// input's throughput.
func tsRows() []row {
	const p = "ts.BenchmarkTS/"
	out := []row{
		ratioRow(p, "TS parse + lookup vs zod (`safeParse` of `JSON.parse`, a schema of the envelope)", "ParseLookup", "ParseLookupZod", "reported", nil),
		ratioRow(p, "… vs ajv-validated `JSON.parse` (the generated consumer schema)", "ParseLookup", "ParseLookupAjv", "reported", nil),
	}
	out = append(out, labbyRows(p, "TS")...)
	return append(out, craftedRows(p, "TS", 50, false)...)
}
