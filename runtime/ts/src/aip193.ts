// The google.rpc mapping (AIP-193): an envelope as a google.rpc.Status with
// an ErrorInfo and a RetryInfo, in its JSON form
//
//   {"error":{"code":<HTTP status>,"message":...,"status":"<gRPC code name>","details":[ErrorInfo, RetryInfo]}}
//
// and back. The same algorithm as the Go package's aip193.go, step by step,
// so every package writes the same bytes and reads the same envelope back
// (errgen's docs/grpc.md: "gRPC and AIP-193 errors"). Every envelope this package writes
// comes back as it was; a foreign error becomes the best envelope this
// contract gives it. This file is the same for every contract: it reads the
// contract's AIP tables.

import { AIP_LEAVES, AIP_OFF_WIRE, AIP_REASONS, CONTRACT_VERSION, ERROR_INFO_DOMAIN, LAYOUT, RETRY, type Envelope, type KnownKind } from "./contract.js";
import { classifiedEnvelope, hasOwn, lookup } from "./classification.js";
import { extraLimitsError, goJson, isObject, joinPath, parseEnvelopeJson, parseJsonWithin, setOwn, tooLong, toWire, type DecodeError, type DecodeOptions, type ParseResult } from "./codec.js";
import type { LayoutObject } from "./spec.js";
import { sanitize, sanitizeValue } from "./sanitize.js";
import { classifyHttp, httpText, upstreamMessage } from "./surfaces.js";
import { encodeUtf8 } from "./utf8.js";

/** The detail types of the mapping, as "@type" names them. */
const ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";
const RETRY_INFO_TYPE = "type.googleapis.com/google.rpc.RetryInfo";

/**
 * MAX_RETRY_DELAY_MS is the longest retry hint a google.protobuf.Duration
 * holds (315,576,000,000 seconds). A longer hint goes into RetryInfo as that
 * maximum and into the metadata, exactly, as retryAfterMs.
 */
const MAX_RETRY_DELAY_MS = 315_576_000_000_000;

// The metadata keys the mapping gives the kind, the retry hint past a
// Duration's range and the members the contract does not name; the other
// keys are in AIP_LEAVES and AIP_OFF_WIRE.
const META_KIND = "kind";
const META_RETRY_AFTER_MS = "retryAfterMs";
const META_EXTRA = "extra";

/** RpcDuration is a google.protobuf.Duration; seconds and nanos have the same sign. */
export interface RpcDuration {
  readonly seconds: number;
  readonly nanos: number;
}

/**
 * RpcStatus is the google.rpc.Status an envelope maps to, field by field:
 * what toAip193 writes as JSON, and what a gRPC library's Status is built
 * from.
 */
export interface RpcStatus {
  /** AIP-193's "code": the kind's HTTP status; 0 when unknown (a status read from gRPC, which carries none). */
  readonly httpStatus: number;
  /** The google.rpc.Code number; -1 when status names none. */
  readonly code: number;
  /** The code's name ("NOT_FOUND"). */
  readonly status: string;
  /** The envelope's message. */
  readonly message: string;
  /** The ErrorInfo detail's reason, domain and metadata; all empty when there is none. */
  readonly reason: string;
  readonly domain: string;
  readonly metadata: { readonly [key: string]: string };
  /** The RetryInfo detail's retry_delay; absent without one. */
  readonly retryDelay?: RpcDuration;
}

/** GRPC_CODES are google.rpc.Code's codes by number (index), each with the HTTP status code.proto documents for it. */
const GRPC_CODES: readonly (readonly [string, number])[] = [
  ["OK", 200], ["CANCELLED", 499], ["UNKNOWN", 500], ["INVALID_ARGUMENT", 400],
  ["DEADLINE_EXCEEDED", 504], ["NOT_FOUND", 404], ["ALREADY_EXISTS", 409],
  ["PERMISSION_DENIED", 403], ["RESOURCE_EXHAUSTED", 429], ["FAILED_PRECONDITION", 400],
  ["ABORTED", 409], ["OUT_OF_RANGE", 400], ["UNIMPLEMENTED", 501], ["INTERNAL", 500],
  ["UNAVAILABLE", 503], ["DATA_LOSS", 500], ["UNAUTHENTICATED", 401],
];

/** grpcCodeNumber returns the number of the code named name; -1 for a name that is none. */
function grpcCodeNumber(name: string): number {
  return GRPC_CODES.findIndex(([n]) => n === name);
}

export { aipReason } from "./reason.js";

/**
 * quote is s as a JSON string the way the Go package's encoder writes one:
 * only ", \ and the control characters escaped (\n, \r, \t by name, the
 * others as \u00xx), U+2028 and U+2029 escaped, a lone surrogate written as
 * \ufffd (Go's encoder reads it as invalid UTF-8).
 */
function quote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      out += s[i]! + s[i + 1]!;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += "\\ufffd";
    } else if (c === 0x22 || c === 0x5c) {
      out += "\\" + s[i]!;
    } else if (c === 0x0a) {
      out += "\\n";
    } else if (c === 0x0d) {
      out += "\\r";
    } else if (c === 0x09) {
      out += "\\t";
    } else if (c < 0x20 || c === 0x2028 || c === 0x2029) {
      out += "\\u" + c.toString(16).padStart(4, "0");
    } else {
      out += s[i]!;
    }
  }
  return out + '"';
}

/** rawJson is a wire value's compact JSON, as serializeEnvelope writes it. */
function rawJson(v: unknown): string {
  return goJson(JSON.stringify(v));
}

/** OBJECT_PATHS are the paths of the layout's nested objects. */
const OBJECT_PATHS: ReadonlySet<string> = (() => {
  const out = new Set<string>();
  const walk = (o: LayoutObject): void => {
    for (const m of o.members) {
      if (m.object !== undefined) {
        out.add(m.object.path);
        walk(m.object);
      }
    }
  };
  walk(LAYOUT);
  return out;
})();

/** wireValues maps the path of every member of a wire envelope, nested objects of the layout included, to its value. */
function wireValues(wire: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (obj: Record<string, unknown>, path: string): void => {
    for (const name of Object.keys(obj)) {
      const p = joinPath(path, name);
      const v = obj[name];
      out.set(p, v);
      if (OBJECT_PATHS.has(p) && isObject(v)) {
        walk(v, p);
      }
    }
  };
  walk(wire, "");
  return out;
}

/** extraJson is the metadata's extra: the compact JSON object of the extra entries, sorted by key (code point, as Go sorts), unsanitized and unbounded; an entry JSON cannot carry is left out. */
function extraJson(extra: Record<string, unknown>): string {
  const keys = Object.keys(extra)
    .filter((k) => extra[k] !== undefined)
    .sort((a, b) => (a === b ? 0 : codePoints(a) < codePoints(b) ? -1 : 1));
  const parts: string[] = [];
  for (const k of keys) {
    let raw: string | undefined;
    try {
      raw = JSON.stringify(extra[k], (_key, value: unknown) => {
        if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError("not finite");
        return value;
      });
    } catch {
      raw = undefined;
    }
    if (raw !== undefined) {
      parts.push(quote(k) + ":" + goJson(raw));
    }
  }
  return "{" + parts.join(",") + "}";
}

/** codePoints spells s so that comparing two of them orders by code point (UTF-16 order differs past U+FFFF). */
function codePoints(s: string): string {
  return Array.from(s, (c) => c.codePointAt(0)!.toString(16).padStart(6, "0")).join("");
}

/** offWireValue is the text of a value the layout does not carry. */
function offWireValue(e: Envelope, source: string): string {
  switch (source) {
    case "version":
      return String(e.contractVersion);
    case "origin":
      return e.origin ?? "";
    case "action":
      return e.recovery?.action ?? "";
    case "same_arguments":
      return e.recovery?.sameArguments ?? "";
    case "guidance":
      return e.recovery?.guidance ?? "";
    default:
      return e.sideEffects ?? "";
  }
}

/**
 * rpcStatus maps the envelope to a google.rpc.Status: the kind's HTTP
 * status and gRPC code, the message, an ErrorInfo (reason from the kind,
 * domain ERROR_INFO_DOMAIN, metadata holding the kind verbatim and every
 * value of the envelope AIP-193 has no field for) and, with a retry hint, a
 * RetryInfo. It throws what serializeEnvelope throws for an envelope that
 * does not serialize.
 */
export function rpcStatus(envelope: Envelope): RpcStatus {
  const values = wireValues(toWire(envelope));
  const c = lookup(envelope.kind);
  const meta: Record<string, string> = {};
  setOwn(meta, META_KIND, envelope.kind);
  for (const lf of AIP_LEAVES) {
    if (lf.src !== "meta" || !values.has(lf.path)) continue;
    const v = values.get(lf.path);
    setOwn(meta, lf.key!, lf.text === true && typeof v === "string" ? v : rawJson(v));
  }
  for (const o of AIP_OFF_WIRE) {
    const v = offWireValue(envelope, o.source);
    if (o.source !== "guidance" || v !== "") setOwn(meta, o.key, v);
  }
  const extra = envelope.extra;
  if (extra !== undefined && extra !== null && Object.keys(extra).some((k) => extra[k] !== undefined)) {
    setOwn(meta, META_EXTRA, extraJson(extra));
  }
  let retryDelay: RpcDuration | undefined;
  const ms = envelope.recovery?.retryAfterMs;
  if (ms !== undefined && ms !== null && ms >= 0) {
    const d = Math.min(ms, MAX_RETRY_DELAY_MS);
    retryDelay = { seconds: Math.floor(d / 1000), nanos: (d % 1000) * 1e6 };
    if (ms > MAX_RETRY_DELAY_MS) setOwn(meta, META_RETRY_AFTER_MS, String(ms));
  }
  const s: RpcStatus = {
    httpStatus: c.httpStatus,
    code: c.grpcCode,
    status: c.grpcStatus,
    message: envelope.message,
    reason: c.reason,
    domain: ERROR_INFO_DOMAIN,
    metadata: meta,
  };
  return retryDelay === undefined ? s : { ...s, retryDelay };
}

/**
 * toAip193 renders the envelope as an AIP-193 JSON error,
 * {"error":{"code","message","status","details":[ErrorInfo, RetryInfo]}},
 * members in that order, the ErrorInfo's metadata sorted by key, strings
 * escaped as serializeEnvelope escapes them: the bytes every package of the
 * contract writes. fromAip193 reads it back into the same envelope. It
 * throws what serializeEnvelope throws.
 */
export function toAip193(envelope: Envelope): string {
  return rpcStatusJson(rpcStatus(envelope));
}

/** rpcStatusJson renders a google.rpc.Status in AIP-193's JSON form (see toAip193). */
export function rpcStatusJson(s: RpcStatus): string {
  let b = '{"error":{"code":' + String(s.httpStatus) + ',"message":' + quote(s.message) + ',"status":' + quote(s.status);
  b += ',"details":[{"@type":"' + ERROR_INFO_TYPE + '","reason":' + quote(s.reason) + ',"domain":' + quote(s.domain) + ',"metadata":{';
  const keys = Object.keys(s.metadata).sort((a, b) => (a === b ? 0 : codePoints(a) < codePoints(b) ? -1 : 1));
  b += keys.map((k) => quote(k) + ":" + quote(s.metadata[k]!)).join(",");
  b += "}}";
  if (s.retryDelay !== undefined) {
    b += ',{"@type":"' + RETRY_INFO_TYPE + '","retryDelay":' + quote(durationText(s.retryDelay)) + "}";
  }
  return b + "]}}";
}

/** durationText is a Duration's JSON form: seconds with 0, 3, 6 or 9 fractional digits and an "s" ("1.500s", "2s"), as protobuf's JSON mapping writes it. */
function durationText(d: RpcDuration): string {
  const neg = d.seconds < 0 || d.nanos < 0;
  const sec = Math.abs(d.seconds);
  const nanos = Math.abs(d.nanos);
  let s = (neg ? "-" : "") + String(sec);
  if (nanos === 0) {
    // whole seconds
  } else if (nanos % 1e6 === 0) {
    s += "." + String(1000 + nanos / 1e6).slice(1);
  } else if (nanos % 1e3 === 0) {
    s += "." + String(1e6 + nanos / 1e3).slice(1);
  } else {
    s += "." + String(1e9 + nanos).slice(1);
  }
  return s + "s";
}

/** parseDuration reads a Duration's JSON form: an optional "-", whole seconds (at most 315,576,000,000), optionally "." and 1 to 9 digits, and "s"; undefined for anything else. */
function parseDuration(s: string): RpcDuration | undefined {
  const m = /^(-?)([0-9]{1,12})(?:\.([0-9]{1,9}))?s$/.exec(s);
  if (m === null) return undefined;
  const sec = Number(m[2]);
  if (sec > MAX_RETRY_DELAY_MS / 1000) return undefined;
  const nanos = m[3] === undefined ? 0 : Number(m[3].padEnd(9, "0"));
  // 0 rather than -0: a negative zero is no negative duration.
  return m[1] === "-" ? { seconds: sec === 0 ? 0 : -sec, nanos: nanos === 0 ? 0 : -nanos } : { seconds: sec, nanos };
}

/** durationMs is the duration in whole milliseconds, rounded up (a client never retries early); undefined for a negative one. */
function durationMs(d: RpcDuration): number | undefined {
  if (d.seconds < 0 || d.nanos < 0) return undefined;
  return d.seconds * 1000 + Math.floor((d.nanos + 999_999) / 1_000_000);
}

/** stringOf is v when it is a string. */
function stringOf(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/**
 * fromAip193 reads an AIP-193 JSON error into an envelope (see
 * fromRpcStatus). It fails only when the text is not a JSON object whose
 * "error" member is an object, or is past the limits every decoder shares
 * (a "syntax" error with path "", as parseEnvelopeJson gives); every member inside that is of the wrong
 * type, and every detail that is not an object with a known "@type" and
 * well-typed members, is ignored. Text longer than MAX_DOCUMENT_BYTES (or
 * options.maxBytes) is a syntax error, found before it is parsed.
 */
export function fromAip193(text: string | Uint8Array, options?: DecodeOptions): ParseResult {
  const long = tooLong(text, options);
  if (long) return { ok: false, error: long };
  const s = parseAip193(text);
  if ("path" in s) return { ok: false, error: s };
  return { ok: true, envelope: fromRpcStatus(s) };
}

/** parseAip193 reads the google.rpc.Status of an AIP-193 JSON error: the first ErrorInfo and the first RetryInfo of its details. */
function parseAip193(text: string | Uint8Array): RpcStatus | DecodeError {
  // The whole document is held to the limits every decoder shares, with
  // the envelope decoder's error.
  const parsed = parseJsonWithin(text);
  if (!parsed.ok) return parsed.error;
  const top = parsed.value;
  if (!isObject(top)) return { path: "", problem: "must be an object", category: "type" };
  if (!hasOwn(top, "error")) return { path: "error", problem: "is required", category: "missing" };
  const obj = top["error"];
  if (!isObject(obj)) return { path: "error", problem: "must be an object", category: "type" };
  // The code is read by value, as the envelope's integers are (404.0 is
  // 404); it counts only when it is an error status.
  const code = hasOwn(obj, "code") ? obj["code"] : undefined;
  const httpStatus = typeof code === "number" && Number.isInteger(code) && code >= 400 && code <= 599 ? code : 0;
  const message = (hasOwn(obj, "message") ? stringOf(obj["message"]) : undefined) ?? "";
  const status = (hasOwn(obj, "status") ? stringOf(obj["status"]) : undefined) ?? "";
  let reason = "";
  let domain = "";
  const metadata: Record<string, string> = {};
  let retryDelay: RpcDuration | undefined;
  const details = hasOwn(obj, "details") ? obj["details"] : undefined;
  let seenInfo = false;
  let seenRetry = false;
  for (const d of Array.isArray(details) ? (details as unknown[]) : []) {
    if (!isObject(d)) continue;
    const type = hasOwn(d, "@type") ? stringOf(d["@type"]) : undefined;
    const member = (name: string): unknown => (hasOwn(d, name) ? d[name] : undefined);
    if (type === ERROR_INFO_TYPE && !seenInfo) {
      seenInfo = true;
      reason = stringOf(member("reason")) ?? "";
      domain = stringOf(member("domain")) ?? "";
      const meta = member("metadata");
      if (isObject(meta)) {
        for (const k of Object.keys(meta)) {
          const v = meta[k];
          if (typeof v === "string") setOwn(metadata, k, v);
        }
      }
    } else if (type === RETRY_INFO_TYPE && !seenRetry) {
      seenRetry = true;
      // The proto field name, which protobuf's JSON readers accept as well, counts when the JSON name is absent.
      const t = stringOf(hasOwn(d, "retryDelay") ? d["retryDelay"] : member("retry_delay"));
      if (t !== undefined) retryDelay = parseDuration(t);
    }
  }
  const s: RpcStatus = { httpStatus, code: grpcCodeNumber(status), status, message, reason, domain, metadata };
  return retryDelay === undefined ? s : { ...s, retryDelay };
}

/**
 * fromRpcStatus reads a google.rpc.Status into an envelope.
 *
 * One this package's rpcStatus wrote (its ErrorInfo's domain is
 * ERROR_INFO_DOMAIN and its metadata has a kind) comes back as the envelope
 * it was: the metadata's values are put where the layout carries them and
 * parsed as an envelope, the retry hint taken from retryAfterMs or
 * RetryInfo, the values the layout does not carry and the extra members set
 * from the metadata. When any of that fails the status is read as a foreign
 * one.
 *
 * A foreign status gets the kind its reason names when its domain is
 * ERROR_INFO_DOMAIN (reasons are unique only within their domain), else the
 * kind a response with its HTTP status and message is read as
 * (fromHttpResponse's reading of a body without an envelope); the HTTP
 * status is httpStatus when it is an error status (400-599), else the one
 * google.rpc.Code documents for the code (code, else status), else 500. The
 * message is "HTTP <status> <status text>: <message>", as fromHttpResponse
 * builds one; the retry hint is RetryInfo's delay in whole milliseconds,
 * rounded up, at most RETRY.maxHintMs, none when negative. A context field
 * every envelope carries is left for the caller to set.
 */
export function fromRpcStatus(s: RpcStatus): Envelope {
  const meta = s.metadata ?? {};
  if (s.domain === ERROR_INFO_DOMAIN && hasOwn(meta, META_KIND) && meta[META_KIND] !== "") {
    const e = fromOwnRpcStatus(s, meta);
    if (e !== undefined) return e;
  }
  let status = s.httpStatus;
  if (!(Number.isInteger(status) && status >= 400 && status <= 599)) {
    status = 500;
    let n = s.code;
    if (!(Number.isInteger(n) && n > 0 && n < GRPC_CODES.length)) n = grpcCodeNumber(s.status);
    if (n > 0 && n < GRPC_CODES.length) status = GRPC_CODES[n]![1];
  }
  const body = encodeUtf8(s.message ?? "");
  let e: Envelope;
  if (hasOwn(AIP_REASONS, s.reason) && s.domain === ERROR_INFO_DOMAIN) {
    e = classifiedEnvelope(AIP_REASONS[s.reason] as KnownKind, upstreamMessage(status, httpText(body)));
  } else {
    e = classifyHttp(status, body);
  }
  if (s.retryDelay !== undefined) {
    const ms = durationMs(s.retryDelay);
    if (ms !== undefined) e.recovery.retryAfterMs = Math.min(ms, RETRY.maxHintMs);
  }
  return e;
}

/** wireText is a JSON object text built from members set by dotted path, in the order they are first set (nested objects by the layout's paths). */
class WireObject {
  private readonly names: string[] = [];
  private readonly members: (string | WireObject)[] = [];

  set(path: string, raw: string): void {
    const dot = path.indexOf(".");
    const name = dot < 0 ? path : path.slice(0, dot);
    const i = this.names.indexOf(name);
    if (i >= 0) {
      const m = this.members[i]!;
      if (dot >= 0 && m instanceof WireObject) m.set(path.slice(dot + 1), raw);
      return;
    }
    this.names.push(name);
    if (dot < 0) {
      this.members.push(raw);
      return;
    }
    const child = new WireObject();
    child.set(path.slice(dot + 1), raw);
    this.members.push(child);
  }

  text(): string {
    return "{" + this.names.map((n, i) => {
      const m = this.members[i]!;
      return quote(n) + ":" + (m instanceof WireObject ? m.text() : m);
    }).join(",") + "}";
  }
}

/** validJson reports whether raw is one JSON value and nothing more. */
function validJson(raw: string): boolean {
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
}

/** fromOwnRpcStatus reads back what rpcStatus wrote; undefined when the metadata does not make an envelope. */
function fromOwnRpcStatus(s: RpcStatus, meta: { readonly [key: string]: string }): Envelope | undefined {
  const get = (k: string): string | undefined => (hasOwn(meta, k) ? meta[k] : undefined);
  let retry = get(META_RETRY_AFTER_MS);
  if (retry === undefined && s.retryDelay !== undefined) {
    const ms = durationMs(s.retryDelay);
    if (ms !== undefined) retry = String(ms);
  }
  const root = new WireObject();
  for (const lf of AIP_LEAVES) {
    let raw: string;
    switch (lf.src) {
      case "kind":
        raw = quote(get(META_KIND)!);
        break;
      case "message":
        raw = quote(s.message ?? "");
        break;
      case "retry":
        if (retry === undefined || retry === "") continue;
        raw = retry;
        break;
      case "const":
        raw = lf.raw!;
        break;
      default: {
        const v = get(lf.key!);
        if (v === undefined) continue;
        raw = lf.text === true ? quote(v) : v;
      }
    }
    // A value must be one JSON value and nothing more: a metadata text
    // such as `1,"kind":"x"` would otherwise add members.
    if (!validJson(raw)) return undefined;
    root.set(lf.path, raw);
  }
  const r = parseEnvelopeJson(root.text(), { maxBytes: Infinity }); // the status was within the limit
  if (!r.ok) return undefined;
  const e = r.envelope;
  for (const o of AIP_OFF_WIRE) {
    const v = get(o.key);
    if (v === undefined) continue;
    switch (o.source) {
      case "version":
        if (typeof CONTRACT_VERSION === "string") {
          (e as { contractVersion: unknown }).contractVersion = v;
        } else {
          // As Go's strconv.Atoi reads it.
          if (!/^[+-]?[0-9]+$/.test(v) || !Number.isSafeInteger(Number(v))) return undefined;
          (e as { contractVersion: unknown }).contractVersion = Number(v);
        }
        break;
      // Read from an upstream, each value is sanitized as parseEnvelope sanitizes one on the wire.
      case "origin":
        e.origin = sanitize(v);
        break;
      case "action":
        e.recovery.action = sanitize(v);
        break;
      case "same_arguments":
        e.recovery.sameArguments = sanitize(v);
        break;
      case "guidance":
        // Read from an upstream, it is sanitized as parseEnvelope sanitizes guidance on the wire.
        e.recovery.guidance = sanitize(v);
        break;
      case "side_effects":
        e.sideEffects = sanitize(v);
        break;
    }
  }
  const extraText = get(META_EXTRA);
  if (extraText !== undefined) {
    const parsed = parseJsonWithin(extraText);
    if (!parsed.ok || !isObject(parsed.value)) return undefined;
    const extra = parsed.value;
    const keys = Object.keys(extra);
    // Each entry goes where its key places it and must stay within the
    // limits there, as the encoder checks it: an envelope read back can
    // always be written again.
    if (keys.some((k) => extraLimitsError(k, extra[k]) !== undefined)) return undefined;
    if (keys.length > 0) {
      const out: Record<string, unknown> = e.extra ?? {};
      // Their strings are the sender's: sanitized, as parseEnvelope sanitizes extra members.
      for (const k of keys) setOwn(out, k, sanitizeValue(extra[k]));
      e.extra = out;
    }
  }
  return e;
}
