// The MCP, RFC 9457 and HTTP surfaces of the envelope. They mirror the Go
// package's ToolResult / FromToolResult, Problem and ReadHTTP.

import { CONTRACT_VERSION, DEFAULT_MCP_ERROR_CODE, ECHO_BODY, HTTP_KINDS, HTTP_STATUS_FIELD, INBOUND, LAYOUT, MCP_ERROR_CODES, MCP_ERROR_SCHEMA_JSON, MCP_KIND_ERROR_CODES, MCP_META_KEY, PROBLEM_TYPE_BASE, RETRY, SHORT_FORM, SYNTHETIC_KIND_PREFIX, type Envelope, type Kind } from "./contract.js";
import { blank, classifiedEnvelope, FILLS_GUIDANCE, hasOwn, lookup, mayHaveRun, problemType } from "./classification.js";
import { isObject, limitsError, parseEnvelope, parseEnvelopeJson, parseJsonWithin, trimJsonSpace, serializeEnvelope, setOwn, toWire, wellFormed, type DecodeError, type ParseResult } from "./codec.js";
import { classifyWith } from "./inbound.js";
import { sanitize } from "./sanitize.js";
import { decodeUtf8, truncateUtf8, utf8Length } from "./utf8.js";

/** McpToolResult is an MCP CallToolResult reporting a failure. */
export interface McpToolResult {
  content: { type: "text"; text: string }[];
  structuredContent: Record<string, unknown>;
  isError: true;
  /** The envelope under the contract's _meta key (MCP_META_KEY); absent when the contract names none. */
  _meta?: Record<string, unknown>;
}

/** wireOf is the envelope's JSON text and its structure, well-formed as that text (a lone surrogate is U+FFFD in both). */
function wireOf(envelope: Envelope): { text: string; wire: Record<string, unknown> } {
  const text = serializeEnvelope(envelope);
  // serializeEnvelope wrote \ufffd for each lone surrogate: the structure is that text read back, well-formed too.
  const wire = text.includes("\\ufffd") ? (JSON.parse(text) as Record<string, unknown>) : toWire(envelope);
  return { text, wire };
}

/** withMeta adds the contract's _meta member, the envelope under MCP_META_KEY, to an isError tool result. */
function withMeta<T extends object>(result: T, wire: Record<string, unknown>): T & { _meta?: Record<string, unknown> } {
  if (MCP_META_KEY === null) {
    return result;
  }
  const meta: Record<string, unknown> = {};
  setOwn(meta, MCP_META_KEY, wire);
  return { ...result, _meta: meta };
}

/**
 * toMcpToolResult returns the envelope as the result of a failed MCP tool
 * call: isError true, the envelope's JSON as the one text content item (for
 * hosts that read only content) and as structuredContent (a lone surrogate
 * is U+FFFD in both, as in every writer's output), and, when the contract
 * names a _meta key (MCP_META_KEY), the envelope under it in _meta.
 */
export function toMcpToolResult(envelope: Envelope): McpToolResult {
  const { text, wire } = wireOf(envelope);
  return withMeta({ content: [{ type: "text" as const, text }], structuredContent: wire, isError: true as const }, wire);
}

/**
 * toMcpUpstreamToolResult is toMcpToolResult for a failed call whose
 * upstream sent structured content of its own: the structuredContent is
 * {"error": envelope, "upstream_structured_content": upstream}, so the
 * original is kept (labby's form); the text content and _meta are
 * toMcpToolResult's. With upstream undefined or null (MCP's
 * structuredContent is an object: the upstream sent none) it is
 * toMcpToolResult's result. fromMcpToolResult reads the envelope back,
 * mcpUpstreamStructuredContent the original.
 */
export function toMcpUpstreamToolResult(envelope: Envelope, upstream: unknown): McpToolResult {
  const r = toMcpToolResult(envelope);
  if (upstream === undefined || upstream === null) {
    return r;
  }
  const structuredContent: Record<string, unknown> = {};
  setOwn(structuredContent, UPSTREAM_ERROR_MEMBER, r.structuredContent);
  setOwn(structuredContent, UPSTREAM_CONTENT_MEMBER, upstream);
  return { ...r, structuredContent };
}

/** The members of a structuredContent that keeps an upstream's own beside the envelope. */
const UPSTREAM_ERROR_MEMBER = "error";
const UPSTREAM_CONTENT_MEMBER = "upstream_structured_content";

/** upstreamWrapped is the envelope member of structured content that keeps an upstream's own (toMcpUpstreamToolResult's form: exactly those two members), else undefined. */
function upstreamWrapped(sc: unknown): { error: unknown; original: unknown } | undefined {
  if (!isObject(sc)) {
    return undefined;
  }
  const keys = Object.keys(sc);
  if (keys.length !== 2 || !hasOwn(sc, UPSTREAM_ERROR_MEMBER) || !hasOwn(sc, UPSTREAM_CONTENT_MEMBER)) {
    return undefined;
  }
  return { error: sc[UPSTREAM_ERROR_MEMBER], original: sc[UPSTREAM_CONTENT_MEMBER] };
}

/**
 * mcpUpstreamStructuredContent returns the upstream's own structured
 * content an isError tool result keeps beside the envelope
 * (toMcpUpstreamToolResult), or undefined when it keeps none.
 */
export function mcpUpstreamStructuredContent(result: unknown): unknown {
  if (!isObject(result) || result["isError"] !== true) {
    return undefined;
  }
  return upstreamWrapped(result["structuredContent"])?.original;
}

/** McpErrorObject is the error object of a JSON-RPC error response (MCP's ErrorData): the envelope as data. */
export interface McpErrorObject {
  code: number;
  message: string;
  data: Record<string, unknown>;
}

/** McpErrorResponse is a whole JSON-RPC error response. */
export interface McpErrorResponse {
  jsonrpc: "2.0";
  id: string | number | null;
  error: McpErrorObject;
}

/**
 * mcpErrorCode is the JSON-RPC error code of the envelope as an MCP
 * protocol error: the kind's own (MCP_KIND_ERROR_CODES), else the code the
 * contract gives the origin of the kind's
 * classification (MCP_ERROR_CODES; a kind this package does not know has
 * the fallback's origin), else DEFAULT_MCP_ERROR_CODE.
 */
export function mcpErrorCode(envelope: Envelope): number {
  if (hasOwn(MCP_KIND_ERROR_CODES, envelope.kind)) {
    return MCP_KIND_ERROR_CODES[envelope.kind]!;
  }
  return MCP_ERROR_CODES[lookup(envelope.kind).origin] ?? DEFAULT_MCP_ERROR_CODE;
}

/**
 * toMcpError returns the envelope as the error of a failed MCP protocol
 * request (a prompt, a resource, a bridge): code mcpErrorCode(envelope),
 * message the envelope's message, data the envelope.
 */
export function toMcpError(envelope: Envelope): McpErrorObject {
  const { wire } = wireOf(envelope);
  return { code: mcpErrorCode(envelope), message: wellFormed(envelope.message), data: wire };
}

/** toMcpErrorResponse returns the whole JSON-RPC response of toMcpError for the request with the given id (null when the request's id could not be read). */
export function toMcpErrorResponse(envelope: Envelope, id: string | number | null): McpErrorResponse {
  return { jsonrpc: "2.0", id, error: toMcpError(envelope) };
}

/**
 * fromMcpError reads the envelope of a JSON-RPC error, parsed: the error
 * object (MCP's ErrorData, an McpError's fields) or the whole response,
 * whose error member it is. The envelope is the error's data member,
 * parsed and sanitized as parseEnvelope does; the code and message are not
 * looked at. The value is held to the limits every decoder shares, the
 * envelope counting as the first level in both forms. An error without
 * data (or with null) is a "missing" error with path "data".
 */
export function fromMcpError(value: unknown): ParseResult {
  if (!isObject(value)) {
    return { ok: false, error: { path: "", problem: value === null ? "must be a JSON object, not null" : "must be a JSON object", category: "type" } };
  }
  // A response holds its error object one level further out.
  const response = hasOwn(value, "error") && !hasOwn(value, "code");
  const limit = limitsError(value, response ? -2 : -1);
  if (limit !== undefined) {
    return { ok: false, error: limit };
  }
  let obj: Record<string, unknown> = value;
  let path = "data";
  if (response) {
    const e = value["error"];
    if (!isObject(e)) {
      return { ok: false, error: { path: "error", problem: e === null ? "must be a JSON object, not null" : "must be a JSON object", category: "type" } };
    }
    obj = e;
    path = "error.data";
  }
  const data = hasOwn(obj, "data") ? obj["data"] : undefined;
  if (data === undefined || data === null) {
    return { ok: false, error: { path, problem: "is required: a JSON-RPC error carries the envelope in its data", category: "missing" } };
  }
  return parseEnvelope(data);
}

/** McpTextToolResult is an MCP CallToolResult reporting a failure in its text content only. */
export interface McpTextToolResult {
  content: { type: "text"; text: string }[];
  isError: true;
  /** The envelope under the contract's _meta key (MCP_META_KEY); absent when the contract names none. */
  _meta?: Record<string, unknown>;
}

/**
 * toMcpTextToolResult is toMcpToolResult without structuredContent: the
 * envelope's JSON as the one text content item only. A client that checks
 * an error result's structuredContent against the tool's outputSchema (the
 * 1.x TypeScript SDK's) accepts it whatever the schema; fromMcpToolResult
 * reads it from the text.
 */
export function toMcpTextToolResult(envelope: Envelope): McpTextToolResult {
  const { text, wire } = wireOf(envelope);
  return withMeta({ content: [{ type: "text" as const, text }], isError: true as const }, wire);
}

/**
 * mcpErrorSchema returns, as a new object each call, the schema
 * mcpOutputSchema admits beside a tool's success schema: the consumer
 * schema of this contract's envelope (any kind, open vocabularies, unknown
 * members allowed) without its descriptions, with no $ref.
 */
export function mcpErrorSchema(): Record<string, unknown> {
  return JSON.parse(MCP_ERROR_SCHEMA_JSON) as Record<string, unknown>;
}

/** McpOutputSchema is a tool's outputSchema widened by mcpOutputSchema: an object schema, success or the envelope. */
export interface McpOutputSchema {
  [member: string]: unknown;
  type: "object";
  anyOf: Record<string, unknown>[];
}

/** The members of a success schema that stay at the top of the widened schema: its dialect, base URI and definitions. */
const SCHEMA_ROOT_MEMBERS: readonly string[] = ["$schema", "$id", "$defs", "definitions"];

/**
 * mcpOutputSchema widens a tool's success outputSchema to "the success shape
 * or this contract's envelope": {"type": "object", "anyOf": [success,
 * mcpErrorSchema()]}, for the tool's advertised outputSchema, so that a
 * client that checks an error result's structuredContent against it (the
 * 1.x TypeScript SDK's Client.callTool) accepts toMcpToolResult's results.
 * The success branch keeps every constraint; its $schema, $id, $defs and
 * definitions move to the top, and its other local references ("#",
 * "#/properties/…") are rewritten to point into the branch. The argument is
 * not changed.
 */
export function mcpOutputSchema(success: Record<string, unknown>): McpOutputSchema {
  const copy = JSON.parse(JSON.stringify(success)) as Record<string, unknown>;
  const top: Record<string, unknown> = {};
  for (const name of SCHEMA_ROOT_MEMBERS) {
    if (hasOwn(copy, name)) {
      setOwn(top, name, copy[name]);
      delete copy[name];
    }
  }
  const branch = rebaseRefs(copy) as Record<string, unknown>;
  setOwn(top, "type", "object");
  setOwn(top, "anyOf", [branch, mcpErrorSchema()]);
  return top as McpOutputSchema;
}

/** The keywords whose values are data, not schemas: a "$ref" inside them is not a reference. */
const SCHEMA_DATA_KEYWORDS: readonly string[] = ["const", "enum", "default", "examples"];

/** rebaseRefs rewrites the local references of a success schema moved to anyOf/0, but those into its definitions, which stay at the top. */
function rebaseRefs(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(rebaseRefs);
  }
  if (!isObject(value)) {
    return value;
  }
  for (const [key, v] of Object.entries(value)) {
    if (key === "$ref" && typeof v === "string") {
      if (v === "#" || (v.startsWith("#/") && !v.startsWith("#/$defs/") && !v.startsWith("#/definitions/"))) {
        setOwn(value, key, "#/anyOf/0" + v.slice(1));
      }
    } else if (!SCHEMA_DATA_KEYWORDS.includes(key)) {
      setOwn(value, key, rebaseRefs(v));
    }
  }
  return value;
}

/**
 * fromMcpToolResult reads the envelope of an MCP tool result: its
 * structuredContent when that is an envelope (or keeps an upstream's own
 * beside it, as toMcpUpstreamToolResult writes it: the envelope is its
 * error member), else the first text content
 * item that is (trimmed of JSON's white space only, as readCli trims a
 * line). It does not look at isError. When no envelope is found the
 * error is the first parsing problem met.
 */
export function fromMcpToolResult(result: unknown): ParseResult {
  let first: DecodeError | undefined;
  if (!isObject(result)) {
    return { ok: false, error: { path: "", problem: "tool result must be an object", category: "type" } };
  }
  let sc = result["structuredContent"];
  sc = upstreamWrapped(sc)?.error ?? sc;
  if (sc !== undefined && sc !== null) {
    const r = parseEnvelope(sc);
    if (r.ok) {
      return r;
    }
    first = r.error;
  }
  const content = result["content"];
  if (Array.isArray(content)) {
    for (const item of content) {
      if (!isObject(item) || item["type"] !== "text" || typeof item["text"] !== "string") {
        continue;
      }
      const r = parseEnvelopeJson(trimJsonSpace(item["text"]));
      if (r.ok) {
        return r;
      }
      first ??= r.error;
    }
  }
  return { ok: false, error: first ?? { path: "", problem: "tool result carries no envelope", category: "missing" } };
}

/** The members RFC 9457 defines, in the order toProblem writes them. */
const PROBLEM_MEMBERS: readonly string[] = ["type", "title", "status", "detail", "instance"];

/** The problem title of a kind this contract version does not define: RFC 9457 wants a title that does not change between occurrences. */
const UNKNOWN_KIND_TITLE = "Error of a kind this contract version does not define";

/**
 * toProblem renders the envelope as an RFC 9457 problem document: type is
 * problemType(kind), title the kind's description (a generic title for a
 * kind this package does not know), status the kind's HTTP status, detail
 * the message and instance the given URI reference (left out when empty).
 * The envelope's own top-level members follow as extension members, in wire
 * order; an envelope member named like a problem member gives way to it.
 */
export function toProblem(envelope: Envelope, instance = ""): Record<string, unknown> {
  const c = lookup(envelope.kind);
  const out: Record<string, unknown> = {
    type: problemType(envelope.kind),
    title: c.known ? c.description : UNKNOWN_KIND_TITLE,
    status: c.httpStatus,
    detail: envelope.message,
  };
  if (instance !== "") {
    out["instance"] = instance;
  }
  for (const [name, value] of Object.entries(toWire(envelope))) {
    if (!PROBLEM_MEMBERS.includes(name)) {
      setOwn(out, name, value);
    }
  }
  return out;
}

/**
 * fromProblem reads an envelope back from the problem document toProblem
 * renders: the problem members are dropped, the envelope members they
 * replaced are restored where the problem says what they were, and the rest
 * is parsed as the envelope.
 */
export function fromProblem(doc: unknown): ParseResult {
  // The whole document is held to the limits every decoder shares, the
  // problem members too.
  const limit = limitsError(doc, 0);
  if (limit !== undefined) {
    return { ok: false, error: limit };
  }
  if (doc === null) {
    return { ok: false, error: { path: "", problem: "must be a JSON object, not null", category: "type" } };
  }
  if (!isObject(doc)) {
    return { ok: false, error: { path: "", problem: "must be a JSON object", category: "type" } };
  }
  const obj: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) {
    setOwn(obj, k, v);
  }
  const typ = typeof obj["type"] === "string" ? obj["type"] : "";
  const hasDetail = hasOwn(obj, "detail");
  const detail = obj["detail"];
  for (const p of PROBLEM_MEMBERS) {
    delete obj[p];
  }
  const kind = typ.startsWith(PROBLEM_TYPE_BASE) ? typ.slice(PROBLEM_TYPE_BASE.length) : typ;
  const c = lookup(kind);
  for (const m of LAYOUT.members) {
    const leaf = m.leaf;
    if (leaf === undefined || !PROBLEM_MEMBERS.includes(leaf.name)) {
      continue;
    }
    const required = leaf.optional !== true;
    switch (leaf.source) {
      case "const":
        setOwn(obj, leaf.name, leaf.value);
        break;
      case "version":
        setOwn(obj, leaf.name, CONTRACT_VERSION);
        break;
      case "kind":
        if (typ.startsWith(PROBLEM_TYPE_BASE) && kind !== "") {
          setOwn(obj, leaf.name, kind);
        }
        break;
      case "message":
        if (hasDetail) {
          setOwn(obj, leaf.name, detail);
        }
        break;
      case "origin":
        setOwn(obj, leaf.name, c.origin);
        break;
      case "action":
        setOwn(obj, leaf.name, c.action);
        break;
      case "same_arguments":
        setOwn(obj, leaf.name, c.sameArguments);
        break;
      case "guidance":
        // Never invented where the layout carries only the producer's own.
        if (FILLS_GUIDANCE) setOwn(obj, leaf.name, c.guidance);
        break;
      case "side_effects":
        setOwn(obj, leaf.name, c.sideEffects);
        break;
      case "group":
        if (required) setOwn(obj, leaf.name, c.group);
        break;
      case "retryable":
        if (required) setOwn(obj, leaf.name, c.retryable);
        break;
      case "may_have_run":
        if (required) setOwn(obj, leaf.name, mayHaveRun(c.sideEffects));
        break;
      default:
        break;
    }
  }
  return parseEnvelope(obj);
}

/** How much of a response body fromHttpResponse reads: a longer body is not read as an envelope. */
const MAX_HTTP_BODY = 1 << 20;

/** How much of a body's text an envelope built from a response quotes in its message. */
const MAX_HTTP_TEXT = 512;

/** REDACTED is what the sanitizer puts for a secret. */
const REDACTED = "[REDACTED]";

/** HttpResponseLike is what fromHttpResponse reads of a response: a fetch Response fits. */
export interface HttpResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body?: {
    getReader(): {
      read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
      cancel(reason?: unknown): Promise<void>;
    };
  } | null;
  arrayBuffer?(): Promise<ArrayBuffer>;
}

/**
 * HttpReadResult is the outcome of fromHttpResponse. classified is true when
 * the response carried no envelope (nor a short form: see promotedFrom) and
 * one was built from its status and body text.
 */
export type HttpReadResult =
  | { readonly ok: true; readonly envelope: Envelope; readonly classified: boolean }
  | { readonly ok: false; readonly error: DecodeError };

async function readBody(response: HttpResponseLike, limit: number): Promise<Uint8Array> {
  const body = response.body;
  if (body === undefined || body === null) {
    if (body === undefined && typeof response.arrayBuffer === "function") {
      const all = new Uint8Array(await response.arrayBuffer());
      return all.length > limit ? all.subarray(0, limit) : all;
    }
    return new Uint8Array(0);
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    if (value === undefined) {
      continue;
    }
    chunks.push(value);
    total += value.length;
    if (total >= limit) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const out = new Uint8Array(Math.min(total, limit));
  let at = 0;
  for (const c of chunks) {
    const n = Math.min(c.length, out.length - at);
    out.set(c.subarray(0, n), at);
    at += n;
    if (at === out.length) {
      break;
    }
  }
  return out;
}

const TSPECIALS = "()<>@,;:\\\"/[]?=";

function isToken(s: string): boolean {
  if (s === "") {
    return false;
  }
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c <= 0x20 || c >= 0x7f || TSPECIALS.includes(ch)) {
      return false;
    }
  }
  return true;
}

/**
 * mediaType returns the lower-cased media type of a Content-Type value, or ""
 * when it has none or it is malformed (as Go's mime.ParseMediaType). The
 * first value of a list counts: a comma before any parameter ends the media
 * type, as fetch joins repeated lines ("text/plain, application/json") and
 * the other languages read the first line.
 */
function mediaType(contentType: string): string {
  const end = contentType.search(/[;,]/);
  const base = (end < 0 ? contentType : contentType.slice(0, end)).toLowerCase().trim();
  const slash = base.indexOf("/");
  if (slash < 0) {
    return isToken(base) ? base : "";
  }
  return isToken(base.slice(0, slash)) && isToken(base.slice(slash + 1)) ? base : "";
}

const ASCII_SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]);

function opensObject(body: Uint8Array): boolean {
  for (const b of body) {
    if (!ASCII_SPACE.has(b)) {
      return b === 0x7b;
    }
  }
  return false;
}

/**
 * envelopeFromBody reads a response body as an envelope, or returns
 * undefined when its media type is not JSON or it is not an envelope. JSON
 * that is neither an envelope nor a problem document is read as labby's
 * short form when the response failed (fromShortForm).
 */
function envelopeFromBody(contentType: string, body: Uint8Array, status: number): Envelope | undefined {
  const mt = mediaType(contentType);
  const problem = mt === "application/problem+json";
  const isJSON = problem || mt === "application/json" || mt.endsWith("+json") || (mt === "" && opensObject(body));
  if (!isJSON) {
    return undefined;
  }
  // A body past the limits every decoder shares, anywhere in it, is not
  // JSON to a reader: neither an envelope nor a short form.
  const parsed = parseJsonWithin(body);
  if (!parsed.ok) {
    return undefined;
  }
  const value = parsed.value;
  const decoders = problem ? [fromProblem, parseEnvelope] : [parseEnvelope, fromProblem];
  for (const decode of decoders) {
    const r = decode(value);
    if (r.ok) {
      return r.envelope;
    }
  }
  return status >= 300 ? fromShortForm(value, status) : undefined;
}

/**
 * PROMOTED_MEMBER is the top-level member fromHttpResponse adds to an
 * envelope it built from labby's short form of an error body ({"kind": ...,
 * "message": ...}): the advice is then the contract's classification of the
 * kind, not the producer's. No field of a contract can take the name (field
 * names start with a letter), so it travels in extra and survives
 * serializing and parsing. PROMOTED_SHORT_FORM is its value.
 */
export const PROMOTED_MEMBER = "_promoted_from";
export const PROMOTED_SHORT_FORM = "short_form";

/**
 * promotedFrom returns the form a reader promoted the envelope from, as
 * extra[PROMOTED_MEMBER] records it (PROMOTED_SHORT_FORM), whether set by
 * fromHttpResponse or parsed from an envelope serialized after it; "" for
 * an envelope its producer sent whole.
 */
export function promotedFrom(envelope: Envelope): string {
  const extra = envelope.extra;
  const v = extra !== undefined && hasOwn(extra, PROMOTED_MEMBER) ? extra[PROMOTED_MEMBER] : undefined;
  return typeof v === "string" ? v : "";
}

/** shortFormKind matches the names of this contract's kinds; null without a short form. */
const shortFormKind = SHORT_FORM === null ? null : new RegExp(SHORT_FORM.kindPattern);

/**
 * fromShortForm reads labby's short form of an error body, in which SDK and
 * subsystem errors promote their stable kind to the top level: a JSON object
 * whose kind member is a string of at most SHORT_FORM.maxKindBytes bytes
 * matching the contract's kind names and whose message member is a string.
 * It returns undefined for any other value, and for every value when the
 * contract has no short form. The envelope keeps the kind and the message
 * (sanitized as the constructors sanitize one; empty or blank, it becomes the
 * status line); its advice is lookup's classification of the kind, the
 * fallback for a kind this package does not know, never one picked from the
 * status; the kind's required collections are empty, so that it meets the
 * producer schema; and extra[PROMOTED_MEMBER] is PROMOTED_SHORT_FORM. Every
 * other member is ignored: it is unchecked upstream data.
 */
function fromShortForm(value: unknown, status: number): Envelope | undefined {
  if (SHORT_FORM === null || shortFormKind === null || !isObject(value)) {
    return undefined;
  }
  const kind = hasOwn(value, SHORT_FORM.kindMember) ? value[SHORT_FORM.kindMember] : undefined;
  // A kind the sanitizer would change (a lowercase token matches the
  // pattern) is received text, not a kind: not a short form.
  if (typeof kind !== "string" || utf8Length(kind) > SHORT_FORM.maxKindBytes || !shortFormKind.test(kind) || sanitize(kind) !== kind) {
    return undefined;
  }
  const raw = hasOwn(value, SHORT_FORM.messageMember) ? value[SHORT_FORM.messageMember] : undefined;
  if (typeof raw !== "string") {
    return undefined;
  }
  let message = sanitize(raw);
  if (blank(message)) {
    // A message says what happened when every other member is discarded;
    // an empty one says nothing, and the producer schema rejects it.
    message = statusLine(status);
  }
  const envelope = classifiedEnvelope(kind, message, { trusted: true });
  const out = envelope as unknown as Record<string, unknown>;
  if (hasOwn(SHORT_FORM.emptyFields, kind)) {
    for (const [member, type] of Object.entries(SHORT_FORM.emptyFields[kind]!)) {
      setOwn(out, member, type === "array" ? [] : {});
    }
  }
  envelope.extra = { [PROMOTED_MEMBER]: PROMOTED_SHORT_FORM };
  return envelope;
}

/** Go's unicode.IsSpace. */
function isSpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/**
 * httpText is the start of a body as one line of sanitized text, at most
 * 512 bytes of UTF-8, with an ellipsis when cut. Past 4 × 512 bytes the
 * body is cut; each run of invalid UTF-8 becomes one U+FFFD. The text is
 * sanitized; when the body was cut, the run of characters a secret can be
 * made of that ends it (secretTail) is dropped, so that no part of a secret
 * the cut went through is shown. Then each run of white space becomes one
 * space;
 * then, past 512 bytes, it is cut at a character boundary, before a
 * [REDACTED] the cut would split. Sanitizing first means no white space
 * the sanitizer deletes (vertical tab, form feed, NEL) can split a secret
 * into harmless looking words. Every language quotes a body so.
 */
export function httpText(body: Uint8Array): string {
  let cut = body.length > 4 * MAX_HTTP_TEXT;
  if (cut) {
    body = body.subarray(0, 4 * MAX_HTTP_TEXT);
  }
  let clean = sanitize(decodeUtf8(body, true));
  if (cut) {
    let n = clean.length;
    while (n > 0 && secretTail(clean.charCodeAt(n - 1))) {
      n--;
    }
    clean = clean.slice(0, n);
  }
  const words: string[] = [];
  let word = "";
  for (const ch of clean) {
    if (isSpace(ch.codePointAt(0)!)) {
      if (word !== "") {
        words.push(word);
        word = "";
      }
    } else {
      word += ch;
    }
  }
  if (word !== "") {
    words.push(word);
  }
  let s = words.join(" ");
  if (utf8Length(s) > MAX_HTTP_TEXT) {
    let t = truncateUtf8(s, MAX_HTTP_TEXT);
    // A [REDACTED] the cut splits goes whole.
    for (let i = t.length - 1; i >= 0 && i > t.length - REDACTED.length; i--) {
      if (s.startsWith(REDACTED, i)) {
        t = t.slice(0, i);
        break;
      }
    }
    s = t;
    cut = true;
  }
  if (cut && s !== "") {
    s += "…";
  }
  return s;
}

/** secretTail reports whether the UTF-16 unit c can be part of a secret shape's text: printable ASCII other than the quotes, the backslash and the brackets. */
function secretTail(c: number): boolean {
  return c > 0x20 && c <= 0x7e && !"\"'`\\<>[]{}".includes(String.fromCharCode(c));
}

/** Go's net/http status texts. */
const STATUS_TEXT: { readonly [status: string]: string } = Object.freeze({
  "100": "Continue",
  "101": "Switching Protocols",
  "102": "Processing",
  "103": "Early Hints",
  "200": "OK",
  "201": "Created",
  "202": "Accepted",
  "203": "Non-Authoritative Information",
  "204": "No Content",
  "205": "Reset Content",
  "206": "Partial Content",
  "207": "Multi-Status",
  "208": "Already Reported",
  "226": "IM Used",
  "300": "Multiple Choices",
  "301": "Moved Permanently",
  "302": "Found",
  "303": "See Other",
  "304": "Not Modified",
  "305": "Use Proxy",
  "307": "Temporary Redirect",
  "308": "Permanent Redirect",
  "400": "Bad Request",
  "401": "Unauthorized",
  "402": "Payment Required",
  "403": "Forbidden",
  "404": "Not Found",
  "405": "Method Not Allowed",
  "406": "Not Acceptable",
  "407": "Proxy Authentication Required",
  "408": "Request Timeout",
  "409": "Conflict",
  "410": "Gone",
  "411": "Length Required",
  "412": "Precondition Failed",
  "413": "Request Entity Too Large",
  "414": "Request URI Too Long",
  "415": "Unsupported Media Type",
  "416": "Requested Range Not Satisfiable",
  "417": "Expectation Failed",
  "418": "I'm a teapot",
  "421": "Misdirected Request",
  "422": "Unprocessable Entity",
  "423": "Locked",
  "424": "Failed Dependency",
  "425": "Too Early",
  "426": "Upgrade Required",
  "428": "Precondition Required",
  "429": "Too Many Requests",
  "431": "Request Header Fields Too Large",
  "451": "Unavailable For Legal Reasons",
  "500": "Internal Server Error",
  "501": "Not Implemented",
  "502": "Bad Gateway",
  "503": "Service Unavailable",
  "504": "Gateway Timeout",
  "505": "HTTP Version Not Supported",
  "506": "Variant Also Negotiates",
  "507": "Insufficient Storage",
  "508": "Loop Detected",
  "510": "Not Extended",
  "511": "Network Authentication Required"
});

/** httpKind is the kind of a failed response without an envelope when the contract has no classifier: the only kind with that status, else one named after the status. */
function httpKind(status: number): Kind {
  const key = String(status);
  return hasOwn(HTTP_KINDS, key) ? HTTP_KINDS[key]! : SYNTHETIC_KIND_PREFIX + key;
}

/** statusLine is how a message built from a response starts: "HTTP <status> <status text>", or "HTTP <status>" for a status without a text. (Exported for aip193.ts; the index does not export it.) */
export function statusLine(status: number): string {
  const st = STATUS_TEXT[String(status)];
  return st === undefined ? "HTTP " + String(status) : "HTTP " + String(status) + " " + st;
}

/**
 * upstreamMessage is the message of an envelope built from a failed
 * response without one (fromHttpResponse, fromAip193 of a foreign status):
 * the status line, then ": " and text, the start of the body as httpText
 * quotes it, when there is any. A contract with surfaces.http.echo_body
 * false (ECHO_BODY) never echoes upstream text: the status line alone.
 * (Exported for aip193.ts; the index does not export it.)
 */
export function upstreamMessage(status: number, text: string): string {
  return ECHO_BODY && text !== "" ? statusLine(status) + ": " + text : statusLine(status);
}

/** classifyHttp builds the envelope of a failed response without one. (Exported for aip193.ts; the index does not export it.) */
export function classifyHttp(status: number, body: Uint8Array): Envelope {
  const text = httpText(body);
  const message = upstreamMessage(status, text);
  const first = INBOUND?.classifiers[0];
  const kind = first !== undefined ? classifyWith(first, { status, text }).kind : httpKind(status);
  // The response does not say which operation failed: a context field the
  // layout requires is left for the caller, who made the call, to set.
  return classifiedEnvelope(kind, message);
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const LONG_DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

function utcMillis(year: number, monthName: string, day: number, h: number, m: number, s: number): number | undefined {
  const month = MONTHS.indexOf(monthName.toLowerCase());
  if (month < 0 || h > 23 || m > 59 || s > 59 || day < 1) {
    return undefined;
  }
  const daysIn = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  if (day > daysIn) {
    return undefined;
  }
  const t = new Date(0);
  t.setUTCFullYear(year, month, day);
  t.setUTCHours(h, m, s, 0);
  return t.getTime();
}

/** parseHttpDate parses an HTTP date in the three formats Go's http.ParseTime accepts (IMF-fixdate, RFC 850, asctime), as milliseconds since the epoch. */
function parseHttpDate(v: string): number | undefined {
  let m = /^([A-Za-z]{3}), (\d{2}) ([A-Za-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/.exec(v);
  if (m !== null) {
    if (!DAYS.includes(m[1]!.toLowerCase())) return undefined;
    return utcMillis(Number(m[4]), m[3]!, Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]));
  }
  m = /^([A-Za-z]+), (\d{2})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) [A-Za-z]{3,5}$/.exec(v);
  if (m !== null) {
    if (!LONG_DAYS.includes(m[1]!.toLowerCase())) return undefined;
    const yy = Number(m[4]);
    return utcMillis(yy >= 69 ? 1900 + yy : 2000 + yy, m[3]!, Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]));
  }
  m = /^([A-Za-z]{3}) ([A-Za-z]{3}) ( \d|\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/.exec(v);
  if (m !== null) {
    if (!DAYS.includes(m[1]!.toLowerCase())) return undefined;
    return utcMillis(Number(m[7]), m[2]!, Number(m[3]!.trim()), Number(m[4]), Number(m[5]), Number(m[6]));
  }
  return undefined;
}

/**
 * retryAfterValue is the first value of a Retry-After field, which holds a
 * list when a response repeats the header and the client joins the lines
 * with commas (fetch's Headers.get does): the text before the first comma,
 * or before the second when the text before the first is ASCII letters only,
 * the day name of an HTTP date ("Wed, 21 Oct 2015 07:28:00 GMT" holds one
 * comma). Every language reads the field so, and only that value.
 */
function retryAfterValue(v: string): string {
  const i = v.indexOf(",");
  if (i < 0) return v;
  if (!/^[ \t]*[A-Za-z]+[ \t]*$/.test(v.slice(0, i))) return v.slice(0, i);
  const j = v.indexOf(",", i + 1);
  return j < 0 ? v : v.slice(0, j);
}

/**
 * parseRetryAfter reads a Retry-After header (RFC 9110, section 10.2.3) as
 * milliseconds: its first value (retryAfterValue), delay seconds, or an HTTP
 * date measured from the response's Date header when it has one and from
 * now otherwise. A date in the past means no wait; a wait longer than
 * RETRY.maxHintMs is clamped to it. Undefined when the header is absent or
 * its first value is malformed.
 */
export function parseRetryAfter(value: string | null | undefined, date?: string | null): number | undefined {
  const v = retryAfterValue(value ?? "").trim();
  if (v === "") {
    return undefined;
  }
  if (/^[0-9]+$/.test(v)) {
    const secs = BigInt(v);
    if (secs <= 9223372036854775807n) {
      const capped = secs < 9223372036854775n ? secs : 9223372036854775n;
      return Math.min(Number(capped * 1000n), RETRY.maxHintMs);
    }
  }
  const at = parseHttpDate(v);
  if (at === undefined) {
    return undefined;
  }
  const now = parseHttpDate((date ?? "").trim()) ?? Date.now();
  return Math.min(Math.max(at - now, 0), RETRY.maxHintMs);
}

/**
 * fromHttpResponse reads the envelope of a failed HTTP response, such as a
 * fetch Response. A JSON body (application/json, application/problem+json,
 * another +json type, or no Content-Type and a body that opens an object)
 * that parses as an envelope, directly or as the problem document toProblem
 * renders, is returned as it is (what the contract sanitizes sanitized, as
 * parseEnvelope sanitizes it). When the contract has a short form
 * (SHORT_FORM, labby's {"kind": ..., "message": ...}), a JSON body of a failed
 * response (status 300 or more) that is neither is read as one
 * (fromShortForm): the kind and message are kept, the advice classified from
 * the kind, extra[PROMOTED_MEMBER] set (promotedFrom) and classified false.
 * Any other body — not JSON, JSON past the limits every decoder shares
 * (MAX_DEPTH, numbers a 64-bit float holds) anywhere in it, not an
 * envelope, empty, or longer than 1 MiB —
 * yields an envelope built from the response instead (classified: true): the contract's first classifier picks the
 * kind from the status and the body's text (without a classifier: the only
 * kind with that status, else one named after it); the message is
 * "HTTP <status> <status text>" followed by the start of the body's text.
 * Such an envelope carries no context: a context field the layout requires
 * is for the caller to set (withFields) before serializing it.
 *
 * A Retry-After header (delay seconds or an HTTP date; the first value of a
 * repeated one, see retryAfterValue) fills the retry hint when the body
 * carried none. A response below 300 without an envelope is an error of
 * category "missing": there is no failure to report. It reads at most 1 MiB of the body
 * and never rejects.
 */
export async function fromHttpResponse(response: HttpResponseLike): Promise<HttpReadResult> {
  let body: Uint8Array;
  try {
    body = await readBody(response, MAX_HTTP_BODY + 1);
  } catch (err) {
    return { ok: false, error: { path: "", problem: "reading the response body: " + String(err), category: "missing" } };
  }
  let envelope: Envelope | undefined;
  if (body.length <= MAX_HTTP_BODY) {
    envelope = envelopeFromBody(response.headers.get("content-type") ?? "", body, response.status);
  } else {
    body = body.subarray(0, MAX_HTTP_BODY);
  }
  let classified = false;
  if (envelope === undefined) {
    if (response.status < 300) {
      return { ok: false, error: { path: "", problem: "HTTP " + String(response.status) + " response carries no envelope", category: "missing" } };
    }
    envelope = classifyHttp(response.status, body);
    if (HTTP_STATUS_FIELD !== null) {
      // surfaces.http.status_field: the envelope keeps the response's status.
      setOwn(envelope as unknown as Record<string, unknown>, HTTP_STATUS_FIELD, response.status);
    }
    classified = true;
  }
  if (envelope.recovery.retryAfterMs === undefined) {
    const ms = parseRetryAfter(response.headers.get("retry-after"), response.headers.get("date"));
    if (ms !== undefined) {
      envelope = { ...envelope, recovery: { ...envelope.recovery, retryAfterMs: ms } };
    }
  }
  return { ok: true, envelope, classified };
}
