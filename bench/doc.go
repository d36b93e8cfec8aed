// Package bench compares errgen's generated Go package with protobuf's
// google.rpc.Status (ErrorInfo + RetryInfo, encoded with protojson) on the
// same content. It is a separate module so the main module never depends on
// protobuf; `make bench` runs it beside the main module's benchmarks and
// cmd/benchtable turns both outputs into one table of ratios.
package bench
