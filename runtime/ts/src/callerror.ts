// Call errors: the object a sandbox's rejected tool call carries (labby's
// Code Mode call error), built from a completed MCP tool result flagged
// isError, as the contract's call_error section (CALL_ERROR) describes it.
// A completed result is the contract's tool_result kind and origin, and
// never counts toward the circuit breaker.

import { CALL_ERROR, type Kind } from "./contract.js";
import { blank, forTool, lookup, type ToolAnnotations } from "./classification.js";
import { isObject, trimJsonSpace } from "./codec.js";
import { sanitize, sanitizeMax, sanitizeValue } from "./sanitize.js";
import { fromMcpToolResult } from "./surfaces.js";
import { utf8Length } from "./utf8.js";

/** CallTool names the tool a call went to: its upstream, its name and its MCP annotations, which a call error carries as untrusted hints. */
export interface CallTool {
  upstream?: string | undefined;
  name?: string | undefined;
  annotations?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * CallError is the call error of a completed tool result, its members
 * named as on the wire; callErrorText is the JSON text a sandbox puts in
 * the message of the error its call rejects with.
 */
export interface CallError {
  [member: string]: unknown;
  contract_version: number;
  kind: string;
  message: string;
  tool?: string;
  origin: string;
  recovery: { action: string; same_arguments: string; guidance: string; retry_after_ms?: number };
  side_effects: string;
  original_kind?: string;
  cause?: string;
  safety?: Record<string, boolean>;
  evidence?: {
    content: Record<string, unknown>[];
    structured_content?: unknown;
    parsed_error?: Record<string, unknown>;
    omitted_content_blocks: number;
  };
}

/**
 * toCallError builds the call error of result, a completed MCP tool result
 * flagged isError, for a call to tool. Its kind is the envelope the result
 * carries (fromMcpToolResult), canonicalised, or the contract's tool_result
 * kind; its recovery and side_effects are the contract's classification of
 * that kind, the same_arguments advice relaxed for the tool's annotations
 * (forTool). It throws when the contract declares no call_error, or result
 * is not an object with isError true and a content array.
 */
export function toCallError(result: unknown, tool: CallTool = {}): CallError {
  const p = CALL_ERROR;
  if (p === null) {
    throw new Error("this contract declares no call_error");
  }
  if (!isObject(result) || result["isError"] !== true) {
    throw new TypeError("the tool result is not flagged isError");
  }
  const rawContent = result["content"] ?? [];
  if (!Array.isArray(rawContent)) {
    throw new TypeError("the tool result's content is not an array");
  }
  const content: unknown[] = rawContent;
  const texts: string[] = [];
  for (const b of content) {
    if (isObject(b) && b["type"] === "text" && typeof b["text"] === "string") {
      texts.push(b["text"]);
    }
  }
  const sc = result["structuredContent"];
  const read = fromMcpToolResult({ content: texts.map((text) => ({ type: "text", text })), structuredContent: sc });
  let kind: string = p.resultKind;
  let message = "";
  let cause = "";
  let retryAfter: number | undefined;
  if (read.ok) {
    const env = read.envelope as unknown as Record<string, unknown> & { kind: string; message: string; recovery: { retryAfterMs?: number } };
    kind = env.kind;
    message = env.message;
    cause = typeof env["cause"] === "string" ? env["cause"] : "";
    const ms = env.recovery.retryAfterMs;
    if (typeof ms === "number" && ms >= 0) {
      retryAfter = ms;
    }
  } else if (texts.length > 0) {
    message = sanitize(texts[0]!);
  }
  if (blank(message)) {
    message = p.defaultMessage;
  }
  let originalKind = "";
  if (Object.prototype.hasOwnProperty.call(p.canonical, kind)) {
    originalKind = kind;
    kind = p.canonical[kind]!;
  }
  const given: CallTool = isObject(tool) ? tool : {};
  const name = typeof given.name === "string" ? given.name : "";
  const upstream = typeof given.upstream === "string" ? given.upstream : "";
  let toolName = "";
  if (upstream && name) {
    toolName = upstream + p.separator + name;
  } else {
    const i = name.indexOf(p.separator);
    if (i > 0 && i + p.separator.length < name.length) {
      toolName = name;
    }
  }
  const annotations: Readonly<Record<string, unknown>> = isObject(given.annotations) ? given.annotations : {};
  const hint = (n: string): boolean | undefined => {
    const v = Object.prototype.hasOwnProperty.call(annotations, n) ? annotations[n] : undefined;
    return typeof v === "boolean" ? v : undefined;
  };
  let safety: Record<string, boolean> | undefined;
  for (const [member, annotation] of p.hints) {
    const b = hint(annotation!);
    if (b !== undefined) {
      safety ??= {};
      safety[member!] = b;
    }
  }
  const cl = lookup(kind as Kind);
  const a: ToolAnnotations = { readOnlyHint: hint("readOnlyHint"), idempotentHint: hint("idempotentHint") };
  const recovery: CallError["recovery"] = { action: cl.action, same_arguments: forTool(cl.sameArguments, a), guidance: cl.guidance };
  if (retryAfter !== undefined) {
    recovery.retry_after_ms = retryAfter;
  }
  const all: Record<string, unknown> = {
    contract_version: p.version,
    kind,
    message,
    tool: toolName || undefined,
    origin: p.origin,
    recovery,
    side_effects: cl.sideEffects,
    original_kind: originalKind || undefined,
    cause: cause || undefined,
    safety,
    evidence: evidence(content, texts, sc),
  };
  const out: Record<string, unknown> = {};
  for (const m of p.members) {
    if (all[m] !== undefined) {
      out[m] = all[m];
    }
  }
  return out as CallError;
}

/** callErrorText is the call error's JSON text. */
export function callErrorText(callError: CallError): string {
  return JSON.stringify(callError);
}

function evidence(content: readonly unknown[], texts: readonly string[], structured: unknown): NonNullable<CallError["evidence"]> {
  const p = CALL_ERROR!;
  const ev: NonNullable<CallError["evidence"]> = { content: [], omitted_content_blocks: 0 };
  const str = (o: unknown, key: string): string | undefined => {
    if (!isObject(o)) {
      return undefined;
    }
    const v = o[key];
    return typeof v === "string" ? v : undefined;
  };
  for (let i = 0; i < content.length; i++) {
    if (i >= p.maxBlocks) {
      ev.omitted_content_blocks += content.length - i;
      break;
    }
    const b = content[i];
    const typ = str(b, "type") ?? "";
    const out: Record<string, unknown> = { type: sanitize(typ) };
    if (!isObject(b) || typ === "") {
      out["type"] = "unknown";
      out["omitted"] = true;
      ev.omitted_content_blocks++;
    } else if (typ === "text") {
      out["text"] = sanitizeMax(str(b, "text") ?? "", p.maxText);
    } else if (typ === "resource") {
      const res = b["resource"];
      const uri = str(res, "uri");
      if (uri !== undefined) {
        out["uri"] = sanitize(uri);
      }
      const mt = str(res, "mimeType");
      if (mt !== undefined) {
        out["mime_type"] = sanitize(mt);
      }
      const text = str(res, "text");
      if (text !== undefined) {
        out["text"] = sanitizeMax(text, p.maxResource);
      } else {
        out["encoded_bytes"] = utf8Length(str(res, "blob") ?? "");
        out["omitted"] = true;
        ev.omitted_content_blocks++;
      }
    } else if (typ === "resource_link") {
      const uri = str(b, "uri");
      if (uri !== undefined) {
        out["uri"] = sanitize(uri);
      }
    } else if (p.binary.includes(typ)) {
      const mt = str(b, "mimeType");
      if (mt !== undefined) {
        out["mime_type"] = sanitize(mt);
      }
      out["encoded_bytes"] = utf8Length(str(b, "data") ?? "");
      out["omitted"] = true;
      ev.omitted_content_blocks++;
    } else {
      out["omitted"] = true;
      ev.omitted_content_blocks++;
    }
    ev.content.push(out);
  }
  if (structured !== undefined && structured !== null) {
    ev.structured_content = sanitizeValue(structured);
  }
  for (const t of texts) {
    let v: unknown;
    try {
      v = JSON.parse(trimJsonSpace(t));
    } catch {
      continue;
    }
    if (isObject(v)) {
      ev.parsed_error = sanitizeValue(v);
      break;
    }
  }
  return ev;
}
