// The structured-log form of an envelope: the same members, in the same
// order and bounds, as the Go package's Envelope.LogValue and the Python
// package's log_fields (the contract's LOG table; the conformance vectors'
// surfaces section holds the three to the same fields).

import { FIELDS, LAYOUT, LOG, SANITIZED_FIELDS, type Envelope } from "./contract.js";
import type { LayoutObject } from "./spec.js";
import { httpStatus, isRetryable } from "./classification.js";
import { compareKeys, goJson, toWire, wellFormed } from "./codec.js";
import { sanitize } from "./sanitize.js";
import { truncateUtf8, utf8Length } from "./utf8.js";

/** LogValue is a value of the log form: text, an integer or number, a boolean, or the group of fields. */
export type LogValue = string | number | boolean | { readonly [field: string]: string | number | boolean };

/** LogFields is the log form of an envelope: a plain object for a structured logger. */
export type LogFields = { readonly [member: string]: LogValue };

/**
 * boundLogText cuts text longer than LOG.maxBytes bytes of UTF-8 at a
 * character boundary and ends it with LOG.ellipsis, so no log line grows
 * with what an upstream sends; a lone surrogate, which no log line can
 * carry as UTF-8, is U+FFFD.
 */
export function boundLogText(text: string): string {
  const s = wellFormed(text);
  return utf8Length(s) > LOG.maxBytes ? truncateUtf8(s, LOG.maxBytes) + LOG.ellipsis : s;
}

/** The characters the string forms write as a space, delete, or (a lone surrogate) write as U+FFFD. */
const LINE_BREAKS = /[\t\n\r\u2028\u2029]/g;
const REMOVED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff]/;

/** oneLine is s on one line and without controls: tab, line feed, carriage return, U+2028 and U+2029 become spaces, the other C0 and C1 controls and DEL go, a lone surrogate becomes U+FFFD. */
function oneLine(s: string): string {
  if (!NOT_ONE_LINE.test(s)) {
    return s;
  }
  return s.replace(LINE_BREAKS, " ").replace(REMOVED, "").replace(LONE_SURROGATES, "\ufffd");
}

/** stringText is a text of the string forms: on one line, sanitized when sanitized is set (after the line breaks became spaces, so a secret split by one is read whole), bounded as the log form's texts are. */
function stringText(s: string, sanitized: boolean): string {
  let t = oneLine(s);
  if (sanitized) {
    t = oneLine(sanitize(t));
  }
  return boundLogText(t);
}

/**
 * errorString returns the envelope's string form, "kind: message", as the
 * Go package's Error() writes it: on one line (tab, line feed, carriage
 * return, U+2028 and U+2029 become spaces and the other controls go, so a
 * message cannot forge a second log line), the message sanitized when the
 * contract sanitizes it, however the envelope was built or received, each
 * text bounded as logFields bounds its texts. It is the message of the
 * Error toError makes, so the stack's first line and toString() show it.
 */
export function errorString(envelope: Envelope): string {
  return stringText(String(envelope.kind), false) + ": " + stringText(envelope.message, SANITIZED_FIELDS.includes("message"));
}

/**
 * ErrorWithEnvelope is an Error carrying an envelope, to throw: its message
 * is errorString(envelope), never the envelope's text as it is, so its
 * stack, toString() and a logger printing it write one redacted line.
 */
export class ErrorWithEnvelope extends Error {
  /** The envelope the error carries. */
  readonly envelope: Envelope;

  constructor(envelope: Envelope) {
    super(errorString(envelope));
    this.name = "ErrorWithEnvelope";
    this.envelope = envelope;
  }
}

/** toError returns an ErrorWithEnvelope carrying the envelope, to throw. */
export function toError(envelope: Envelope): ErrorWithEnvelope {
  return new ErrorWithEnvelope(envelope);
}

/** A string of JSON text, escapes included. */
const JSON_STRING = /"[^"\\]*(?:\\.[^"\\]*)*"/g;

/**
 * logSanitizeJson sanitizes compact JSON text (logJson's) as the log form
 * writes it: each string first, member names included, decoded from its
 * escapes, so that an escaped control cannot split a secret the sanitizer
 * would find in the text; then the text whole, so that a secret spread over
 * a member's name and its value ("password":"…") goes too.
 */
function logSanitizeJson(text: string): string {
  const strings = text.replace(JSON_STRING, (literal) => {
    const s = JSON.parse(literal) as string;
    const clean = sanitize(s);
    return clean === s ? literal : (logJson(clean) ?? '""');
  });
  return sanitize(strings);
}

/** logJson is the compact JSON text of a value, as every package's log form writes it: U+2028 and U+2029 escaped, a lone surrogate as \ufffd (goJson), nothing else. Undefined for a value JSON cannot carry. */
function logJson(v: unknown): string | undefined {
  try {
    const text = JSON.stringify(v, (_key, value: unknown) => {
      if (typeof value === "number" && !Number.isFinite(value)) {
        throw new RangeError("not finite");
      }
      return value;
    });
    return text === undefined ? undefined : goJson(text);
  } catch {
    return undefined;
  }
}

/** at returns the member at a dotted layout path of a wire object. */
function at(wire: Record<string, unknown>, path: string): unknown {
  let v: unknown = wire;
  for (const key of path.split(".")) {
    if (v === null || typeof v !== "object" || !Object.prototype.hasOwnProperty.call(v, key)) {
      return undefined;
    }
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** fieldLeaves lists the layout's context and kind-specific fields in wire order: [Envelope member, path]. */
const fieldLeaves: readonly (readonly [string, string])[] = (() => {
  const out: [string, string][] = [];
  const walk = (o: LayoutObject): void => {
    for (const m of o.members) {
      if (m.object !== undefined) {
        walk(m.object);
      } else if (m.leaf.source === "field" && m.leaf.field !== undefined) {
        out.push([m.leaf.field, m.leaf.path]);
      }
    }
  };
  walk(LAYOUT);
  return out;
})();

/** logGroup is the fields member: each field the envelope carries on the wire, under its contract name. */
function logGroup(envelope: Envelope): { [field: string]: string | number | boolean } {
  let wire: Record<string, unknown> | undefined;
  try {
    wire = toWire(envelope);
  } catch {
    // An envelope that does not serialize logs the fields it can.
  }
  const out: { [field: string]: string | number | boolean } = {};
  const e = envelope as unknown as Record<string, unknown>;
  for (const [member, path] of fieldLeaves) {
    const spec = FIELDS[member];
    if (spec === undefined) {
      continue;
    }
    const v = wire !== undefined ? at(wire, path) : e[member];
    if (v === undefined || v === null || v === "") {
      continue;
    }
    const sanitized = SANITIZED_FIELDS.includes(spec.name);
    let text: string | undefined;
    if (typeof v === "string") {
      text = v;
    } else if (typeof v === "number" || typeof v === "boolean") {
      if (typeof v === "number" && !Number.isFinite(v)) continue;
      out[spec.name] = v;
      continue;
    } else {
      text = logJson(v);
    }
    if (text !== undefined) {
      out[spec.name] = boundLogText(!sanitized ? text : typeof v === "string" ? sanitize(text) : logSanitizeJson(text));
    }
  }
  return out;
}

/** logExtra is the extra member: the compact JSON text of the Extra entries, sorted by key, sanitized; undefined without any. */
function logExtra(envelope: Envelope): string | undefined {
  const extra = envelope.extra;
  if (extra === undefined || extra === null) {
    return undefined;
  }
  const keys = Object.keys(extra)
    .filter((k) => extra[k] !== undefined)
    .sort(compareKeys);
  const parts: string[] = [];
  for (const k of keys) {
    const v = logJson(extra[k]);
    if (v !== undefined) {
      parts.push(logJson(k)! + ":" + v);
    }
  }
  return parts.length === 0 ? undefined : boundLogText(logSanitizeJson("{" + parts.join(",") + "}"));
}

/**
 * logFields returns the envelope's structured-log form, a plain object for
 * pino, winston or any structured logger; the Go and Python packages write
 * the same members (LOG.members): kind, message, origin, action,
 * same_arguments, side_effects, retryable, http_status, retry_after_ms (only
 * with a retry hint), fields (the context and kind-specific fields the
 * envelope carries, under their contract names: text as it is, integers,
 * numbers and booleans as they are, arrays and objects as their compact
 * JSON text; only when there are any) and extra (the compact JSON text of
 * the members this contract does not name; only when there are any).
 *
 * It never leaks what the contract sanitizes: the message and each field
 * SANITIZED_FIELDS lists are sanitized, however the envelope was built or
 * received, and extra always is. Every text is bounded (boundLogText):
 * at most LOG.maxBytes bytes of UTF-8, then LOG.ellipsis.
 *
 *     logger.warn({ error: logFields(env) }, "tool call failed");   // pino
 *     logger.warn("tool call failed", { error: logFields(env) });   // winston
 */
export function logFields(envelope: Envelope): LogFields {
  const out: { [member: string]: LogValue } = {};
  for (const member of LOG.members) {
    switch (member) {
      case "kind":
        out[member] = boundLogText(envelope.kind);
        break;
      case "message":
        out[member] = boundLogText(SANITIZED_FIELDS.includes("message") ? sanitize(envelope.message) : envelope.message);
        break;
      case "origin":
        out[member] = boundLogText(envelope.origin);
        break;
      case "action":
        out[member] = boundLogText(envelope.recovery.action);
        break;
      case "same_arguments":
        out[member] = boundLogText(envelope.recovery.sameArguments);
        break;
      case "side_effects":
        out[member] = boundLogText(envelope.sideEffects);
        break;
      case "retryable":
        out[member] = isRetryable(envelope);
        break;
      case "http_status":
        out[member] = httpStatus(envelope);
        break;
      case "retry_after_ms": {
        const ms = envelope.recovery.retryAfterMs;
        if (typeof ms === "number" && Number.isFinite(ms)) out[member] = ms;
        break;
      }
      case "fields": {
        const group = logGroup(envelope);
        if (Object.keys(group).length > 0) out[member] = group;
        break;
      }
      case "extra": {
        const extra = logExtra(envelope);
        if (extra !== undefined) out[member] = extra;
        break;
      }
      default:
        break;
    }
  }
  return out;
}
