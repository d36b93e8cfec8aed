// The server side of the HTTP surface: an envelope as a response (status,
// Retry-After, the envelope or its RFC 9457 problem document chosen by the
// request's Accept header), for Node's http.ServerResponse and for the fetch
// API's Response. It mirrors the Go package's WriteHTTP and Problem byte
// for byte (the conformance vectors' surfaces and accept sections hold them
// to the same responses). Both adapters are typed structurally: the package
// depends on no platform's types.

import { FIELDS, LAYOUT, type Envelope } from "./contract.js";
import type { LayoutObject } from "./spec.js";
import { httpStatus } from "./classification.js";
import { goJson, parseJsonWithin, serializeEnvelope, toWire } from "./codec.js";
import { fromProblem, toProblem } from "./surfaces.js";
import type { ParseResult } from "./codec.js";

const MEDIA_JSON = "application/json";
const MEDIA_PROBLEM = "application/problem+json";

/** A q value as Go's strconv.ParseFloat reads a decimal one. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** mediaRange parses one element of an Accept header into its media range, in lower case, and its quality; undefined for an empty or malformed element, which is ignored. */
function mediaRange(item: string): [string, number] | undefined {
  const params = item.split(";");
  const rng = params[0]!.trim().toLowerCase();
  if (rng === "" || rng.split("/").length !== 2) {
    return undefined;
  }
  let q = 1;
  for (const p of params.slice(1)) {
    const eq = p.indexOf("=");
    const name = (eq < 0 ? p : p.slice(0, eq)).trim();
    if (name !== "q" && name !== "Q") {
      continue;
    }
    const value = eq < 0 ? "" : p.slice(eq + 1).trim();
    const v = DECIMAL.test(value) ? Number(value) : NaN;
    if (!(v >= 0 && v <= 1)) {
      return undefined;
    }
    q = v;
  }
  return [rng, q];
}

/** rangeSpecificity is how specifically a media range matches a media type: 2 when it names it, 1 for its type's wildcard, 0 for *\/* and -1 when it does not match. */
function rangeSpecificity(rng: string, mediaType: string): number {
  if (rng === mediaType) return 2;
  if (rng === "*/*") return 0;
  if (rng.endsWith("/*") && mediaType.startsWith(rng.slice(0, -1))) return 1;
  return -1;
}

/**
 * prefersProblem reports whether Accept header values rank
 * application/problem+json above application/json (RFC 9110, section
 * 12.5.1): each takes the quality of the most specific media range that
 * matches it, and on equal quality problem+json wins only when it is
 * matched more specifically. A missing header, *\/*, a tie and a header
 * naming neither type all answer false: the envelope itself.
 */
export function prefersProblem(accept: string | readonly string[] | null | undefined): boolean {
  const lines = accept === null || accept === undefined ? [] : typeof accept === "string" ? [accept] : accept;
  let jsonQ = 0;
  let jsonS = -1;
  let problemQ = 0;
  let problemS = -1;
  for (const header of lines) {
    for (const item of header.split(",")) {
      const r = mediaRange(item);
      if (r === undefined) continue;
      const [rng, q] = r;
      let s = rangeSpecificity(rng, MEDIA_JSON);
      if (s > jsonS) [jsonQ, jsonS] = [q, s];
      s = rangeSpecificity(rng, MEDIA_PROBLEM);
      if (s > problemS) [problemQ, problemS] = [q, s];
    }
  }
  if (problemQ !== jsonQ) {
    return problemQ > jsonQ;
  }
  return problemQ > 0 && problemS > jsonS;
}

/**
 * serializeProblem returns the RFC 9457 problem document of the envelope
 * (toProblem) as JSON text, byte for byte what the Go package's Problem
 * writes: type, title, status, detail and instance (left out when empty),
 * then the envelope's own top-level members. It throws as serializeEnvelope
 * does for an envelope that does not serialize.
 */
export function serializeProblem(envelope: Envelope, instance = ""): string {
  const doc = toProblem(envelope, instance);
  const parts: string[] = [];
  for (const [name, value] of Object.entries(doc)) {
    parts.push(JSON.stringify(name) + ":" + JSON.stringify(value));
  }
  return goJson("{" + parts.join(",") + "}");
}

/** parseProblemJson reads an envelope back from problem+json text (fromProblem of the parsed document); text that is not JSON or past the limits every decoder shares is a "syntax" error. */
export function parseProblemJson(text: string): ParseResult {
  // The text, not only the parsed document, is held to the limits every
  // decoder shares: a member given twice whose first copy is past one.
  const parsed = parseJsonWithin(text);
  return parsed.ok ? fromProblem(parsed.value) : parsed;
}

/** HttpAnswer is an envelope as an HTTP response: what writeHttp and toFetchResponse send. Header names are as the Go package writes them. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

/** The members of FIELDS that an envelope may go without: all but the context fields the layout requires. */
const optionalMembers: readonly string[] = (() => {
  const required = new Set<string>();
  const walk = (o: LayoutObject): void => {
    for (const m of o.members) {
      if (m.object !== undefined) walk(m.object);
      else if (m.leaf.source === "field" && m.leaf.required === true && m.leaf.field !== undefined) required.add(m.leaf.field);
    }
  };
  walk(LAYOUT);
  return Object.keys(FIELDS).filter((m) => !required.has(m));
})();

/** httpBody renders the body: the envelope, or its problem document; an envelope that does not serialize goes without its optional fields and extra, as the Go package's WriteHTTP sends it. */
function httpBody(envelope: Envelope, problem: boolean): string {
  const render = (e: Envelope): string => (problem ? serializeProblem(e) : serializeEnvelope(e));
  try {
    return render(envelope);
  } catch {
    // Sent without what may not serialize, rather than not at all.
  }
  const safe: Record<string, unknown> = { ...envelope };
  delete safe["extra"];
  for (const m of optionalMembers) delete safe[m];
  const ms = envelope.recovery.retryAfterMs;
  if (ms !== undefined && !(Number.isSafeInteger(ms) && ms >= 0)) {
    const recovery: Record<string, unknown> = { ...envelope.recovery };
    delete recovery["retryAfterMs"];
    safe["recovery"] = recovery;
  }
  try {
    toWire(safe as unknown as Envelope);
    return render(safe as unknown as Envelope);
  } catch {
    return "";
  }
}

/**
 * httpAnswer is the response to a request whose Accept header is accept:
 * the status is httpStatus(envelope); a retry hint becomes a Retry-After
 * header in whole seconds, rounded up so a client never retries early (a
 * negative one is left out, one past Number.MAX_SAFE_INTEGER is sent as
 * MAX_SAFE_INTEGER in the header and the body alike); the body is the envelope (Content-Type:
 * application/json) unless Accept ranks application/problem+json above
 * application/json (prefersProblem), when it is serializeProblem's document
 * with no instance (Content-Type: application/problem+json); Vary: Accept
 * says the body depends on it. An envelope without a kind, which no client
 * could read, is answered with a plain-text 500.
 */
export function httpAnswer(envelope: Envelope, accept?: string | readonly string[] | null): HttpAnswer {
  if (typeof envelope.kind !== "string" || envelope.kind === "") {
    return {
      status: 500,
      headers: [
        ["Content-Type", "text/plain; charset=utf-8"],
        ["X-Content-Type-Options", "nosniff"],
      ],
      body: "the error envelope has no kind\n",
    };
  }
  // A hint past MAX_SAFE_INTEGER (set by hand), which no encoder writes, is sent as MAX_SAFE_INTEGER, as every package's HTTP writer sends it.
  const hint = envelope.recovery.retryAfterMs;
  if (typeof hint === "number" && hint > Number.MAX_SAFE_INTEGER) {
    envelope = { ...envelope, recovery: { ...envelope.recovery, retryAfterMs: Number.MAX_SAFE_INTEGER } };
  }
  const problem = prefersProblem(accept);
  const headers: [string, string][] = [
    ["Content-Type", problem ? MEDIA_PROBLEM : MEDIA_JSON],
    ["Vary", "Accept"],
  ];
  const ms = envelope.recovery.retryAfterMs;
  if (typeof ms === "number" && Number.isFinite(ms) && ms >= 0) {
    headers.push(["Retry-After", String(Math.ceil(ms / 1000))]);
  }
  return { status: httpStatus(envelope), headers, body: httpBody(envelope, problem) };
}

/** NodeRequestLike is what writeHttp reads of a request: Node's http.IncomingMessage fits. */
export interface NodeRequestLike {
  readonly headers: { readonly accept?: string | readonly string[] | undefined };
}

/** NodeResponseLike is what writeHttp writes to: Node's http.ServerResponse (and http2's compatibility response) fits. */
export interface NodeResponseLike {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(chunk: string): unknown;
}

/**
 * writeHttp answers a Node request with the envelope (httpAnswer, Accept
 * read from the request) and ends the response.
 *
 *     http.createServer((req, res) => writeHttp(env, req, res));
 */
export function writeHttp(envelope: Envelope, request: NodeRequestLike | null | undefined, response: NodeResponseLike): void {
  const a = httpAnswer(envelope, request?.headers.accept);
  response.statusCode = a.status;
  for (const [name, value] of a.headers) {
    response.setHeader(name, value);
  }
  response.end(a.body);
}

/** FetchRequestLike is what toFetchResponse reads of a request: a fetch Request fits. */
export interface FetchRequestLike {
  readonly headers: { get(name: string): string | null };
}

/** FetchResponseInit is what toFetchResponse passes the Response constructor. */
export interface FetchResponseInit {
  status: number;
  headers: [string, string][];
}

/**
 * toFetchResponse answers a fetch-API request (Deno, Bun, Cloudflare
 * Workers, Next.js route handlers, Node 18+) with the envelope: httpAnswer
 * with the request's Accept header, built with the platform's Response
 * constructor, which the caller passes so that the package needs no
 * platform's types.
 *
 *     return toFetchResponse(env, request, Response);
 */
export function toFetchResponse<R>(
  envelope: Envelope,
  request: FetchRequestLike | null | undefined,
  response: new (body: string, init: FetchResponseInit) => R,
): R {
  const a = httpAnswer(envelope, request?.headers.get("accept"));
  return new response(a.body, { status: a.status, headers: a.headers.map(([n, v]): [string, string] => [n, v]) });
}
