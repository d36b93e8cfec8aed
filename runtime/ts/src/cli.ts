// The command-line surface of the envelope: the exit code, the contract's
// CLI form written as one JSON line, and the line read back. They mirror
// the Go package's ExitCode, WriteCLI and ReadCLI byte for byte (the
// conformance vectors' surfaces section holds them to the same lines).

import { CLI_FORM, type Envelope } from "./contract.js";
import { goJson, isObject, parseEnvelope, parseEnvelopeJson, parseJsonWithin, serializeEnvelope, tooLong, trimJsonSpace, type ParseResult } from "./codec.js";
import { decodeUtf8 } from "./utf8.js";

/** jsonText is a string as JSON, as the Go encoder writes it (goJson). */
function jsonText(s: string): string {
  return goJson(JSON.stringify(s));
}

/**
 * cliLine returns the failure of command as the one JSON line (newline
 * included) a command line writes on stderr, in this contract's CLI form
 * (CLI_FORM): the envelope itself, or wrapped as
 * {"ok":false,"command":command,"error":envelope}; the envelope form does
 * not carry command. It throws, as serializeEnvelope does, for an envelope
 * that does not serialize.
 */
export function cliLine(envelope: Envelope, command: string): string {
  const env = serializeEnvelope(envelope);
  if (CLI_FORM === "wrapped") {
    return '{"ok":false,"command":' + jsonText(command) + ',"error":' + env + "}\n";
  }
  return env + "\n";
}

/** CliStream is where writeCli writes: process.stderr, or any stream with a write(string). */
export interface CliStream {
  write(chunk: string): unknown;
}

/**
 * writeCli writes cliLine(envelope, command) to stream, usually
 * process.stderr; set process.exitCode = exitCode(envelope) beside it.
 *
 *     writeCli(env, "deploy", process.stderr);
 *     process.exitCode = exitCode(env);
 */
export function writeCli(envelope: Envelope, command: string, stream: CliStream): void {
  stream.write(cliLine(envelope, command));
}

/** readWrapped reads the wrapped CLI form {"ok":false,"command":...,"error":envelope}. */
function readWrapped(value: unknown): ParseResult {
  if (!isObject(value)) {
    return { ok: false, error: { path: "", problem: "must be a JSON object", category: "type" } };
  }
  if (Object.prototype.hasOwnProperty.call(value, "ok") && value["ok"] !== false) {
    return { ok: false, error: { path: "ok", problem: "must be false in a failure line", category: "value" } };
  }
  if (!Object.prototype.hasOwnProperty.call(value, "error")) {
    return { ok: false, error: { path: "error", problem: "is required in the wrapped CLI form", category: "missing" } };
  }
  return parseEnvelope(value["error"]);
}

/**
 * readCli reads back a line cliLine wrote (text, or UTF-8 bytes, each byte
 * of invalid UTF-8 reading as U+FFFD as parseEnvelopeJson reads it). It
 * accepts both CLI forms, the envelope itself and the wrapped
 * {"ok":false,"command":...,"error":envelope}, trying this contract's own
 * form (CLI_FORM) first; the error returned is that of this contract's
 * form, as the Go package's ReadCLI. Only JSON's white space (space, tab,
 * line feed, carriage return) is trimmed from either end: a line that
 * starts or ends with any other character (a byte order mark, a no-break
 * space, U+0085, U+2028) is not a CLI line. The whole line is held to the
 * limits every decoder shares, the wrapped form's object counting as
 * level 0. A line longer than MAX_DOCUMENT_BYTES is refused before it is
 * parsed, in either form.
 */
export function readCli(line: string | Uint8Array): ParseResult {
  // Bytes are read as parseEnvelopeJson reads them: each invalid byte is U+FFFD.
  const text = trimJsonSpace(typeof line === "string" ? line : decodeUtf8(line, false));
  // Over MAX_DOCUMENT_BYTES in either form, as in the Go package.
  const long = tooLong(text);
  if (long) return { ok: false, error: long };
  const asEnvelope = (): ParseResult => parseEnvelopeJson(text);
  const asWrapped = (): ParseResult => {
    // The wrapper's own object is level 0: the envelope in it nests as
    // deeply as any.
    const r = parseJsonWithin(text, -1);
    return r.ok ? readWrapped(r.value) : r;
  };
  const [own, other] = CLI_FORM === "wrapped" ? [asWrapped, asEnvelope] : [asEnvelope, asWrapped];
  const first = own();
  if (first.ok) {
    return first;
  }
  const second = other();
  return second.ok ? second : first;
}
