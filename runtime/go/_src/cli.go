package agenterror

import (
	"bytes"
	"io"
)

// The command-line surface of the envelope: a failure is one JSON line,
// the envelope itself or labby's wrapped form around it, and the process
// exits with the code the contract gives the kind's origin. The contract's
// side (cliForm, exitCodes, defaultExitCode) is rendered into surfaces.go.

// The members of the wrapped CLI form, labby's {"ok": false, "command":
// ..., "error": envelope}.
const (
	cliWrapOK      = "ok"
	cliWrapCommand = "command"
	cliWrapError   = "error"
)

// cliWrapped reports whether the contract's CLI form is the wrapped one.
const cliWrapped = cliForm == "wrapped"

// ExitCode is the exit status a command line reports the failure with, by
// the origin of the kind's classification (a kind this package does not
// know has the fallback's origin): exitCodes, and defaultExitCode for an
// origin the contract gives no exit code.
func (e *Envelope) ExitCode() int {
	if code, ok := exitCodes[Lookup(e.Kind).Origin]; ok {
		return code
	}
	return defaultExitCode
}

// WriteCLI writes the failure as one JSON line in the contract's CLI form
// (cliForm): the envelope itself, or the wrapped form
// {"ok":false,"command":command,"error":envelope}. command is part of the
// wrapped form only; the envelope form does not write it.
func (e *Envelope) WriteCLI(w io.Writer, command string) error {
	env, err := e.MarshalJSON()
	if err != nil {
		return err
	}
	if !cliWrapped {
		_, err = w.Write(append(env, '\n'))
		return err
	}
	b := make([]byte, 0, len(env)+len(command)+48)
	b = append(b, `{"`+cliWrapOK+`":false,"`+cliWrapCommand+`":`...)
	b = appendString(b, command)
	b = append(b, `,"`+cliWrapError+`":`...)
	b = append(b, env...)
	b = append(b, '}', '\n')
	_, err = w.Write(b)
	return err
}

// ReadCLI reads back a line WriteCLI wrote. It accepts both CLI forms, the
// envelope itself and the wrapped {"ok":false,"command":...,"error":envelope},
// trying this contract's own form (cliForm) first; the error returned is
// that of this contract's form. Only JSON's white space (space, tab, line
// feed, carriage return) is trimmed from either end: a line that starts or
// ends with any other character (a byte order mark, a no-break space,
// U+0085, U+2028) is not a CLI line, in every language. The whole line is
// held to the limits every decoder shares, the wrapped form's own object
// counting as level 0, so that the envelope in it nests as deeply as any.
// The envelope is sanitized as UnmarshalJSON sanitizes one. A line longer
// than MaxDocumentBytes is refused before it is read, in either form.
func ReadCLI(line []byte) (*Envelope, error) {
	line = bytes.Trim(line, jsonSpace)
	if err := checkSize(line, MaxDocumentBytes); err != nil {
		return nil, err
	}
	own, other := decodeEnvelope, readCLIWrapped
	if cliWrapped {
		own, other = other, own
	}
	e, err := own(line)
	if err == nil {
		return e, nil
	}
	if e, err2 := other(line); err2 == nil {
		return e, nil
	}
	return nil, err
}

// jsonSpace is JSON's insignificant white space, the only characters
// ReadCLI trims from a line's ends and FromToolResult from a text item's.
const jsonSpace = " \t\n\r"

// readCLIWrapped reads the wrapped CLI form
// {"ok":false,"command":...,"error":envelope}.
func readCLIWrapped(line []byte) (*Envelope, error) {
	obj, err := decodeObjectAt(line, "", -1)
	if err != nil {
		return nil, err
	}
	if ok, present := obj[cliWrapOK]; present && !bytes.Equal(bytes.TrimSpace(ok), []byte("false")) {
		return nil, &DecodeError{Path: cliWrapOK, Problem: "must be false in a failure line", Category: DecodeValue}
	}
	raw, present := obj[cliWrapError]
	if !present {
		return nil, &DecodeError{Path: cliWrapError, Problem: "is required in the wrapped CLI form", Category: DecodeMissing}
	}
	return decodeEnvelope(raw)
}
