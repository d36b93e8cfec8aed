package genvectors

// AppendJSON is v as the file writes it by hand (append.go), and whether v
// is of a type written so.
func AppendJSON(v any) ([]byte, bool) {
	a, ok := v.(appender)
	if !ok {
		return nil, false
	}
	return a.appendJSON(nil), true
}
