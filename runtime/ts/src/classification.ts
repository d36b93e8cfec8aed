// Classification of kinds and the questions an envelope answers. This file
// is the same for every contract: it reads the contract's data tables.

import {
  ACTION_STEPS,
  CLASSIFICATIONS,
  CONTRACT_VERSION,
  DEFAULT_EXIT_CODE,
  EXIT_CODES,
  FALLBACK,
  FIELDS,
  KNOWN_KINDS,
  LAYOUT,
  MAY_HAVE_RUN_SIDE_EFFECTS,
  PROBLEM_TYPE_BASE,
  RETRY,
  RETRY_SAME_ARGUMENTS,
  SAME_ARGUMENTS_UPGRADES,
  SIDE_EFFECTS_VALUES,
  type Classification,
  type Envelope,
  type Kind,
  type KnownKind,
  type SameArguments,
} from "./contract.js";
import { aipReason } from "./reason.js";
import { sanitizedMembers, sanitizesGuidance, sanitizesMessage, sanitizeUnlessTrusted, type SanitizeOptions } from "./sanitize.js";
import type { LayoutLeaf, LayoutObject, LogLevel, Source, Step } from "./spec.js";

/** hasOwn reports whether key is an own property of obj (never one inherited, such as "constructor"). */
export function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** isKnownKind reports whether kind is one this contract defines. */
export function isKnownKind(kind: unknown): kind is KnownKind {
  return typeof kind === "string" && hasOwn(CLASSIFICATIONS, kind);
}

/**
 * lookup returns the classification of kind. It never fails: a kind the
 * contract does not list gets the fallback classification, with known set
 * to false and the kind kept as given (and its ErrorInfo reason computed
 * from it).
 */
export function lookup(kind: Kind): Classification {
  if (isKnownKind(kind)) {
    return CLASSIFICATIONS[kind];
  }
  return Object.freeze({ ...FALLBACK, kind, reason: aipReason(kind) });
}

/** fallback returns the classification every unknown kind gets. */
export function fallback(): Classification {
  return FALLBACK;
}

let byNumber: Map<number, KnownKind> | undefined;

/** kindByNumber returns the kind with the stable number n, or undefined when no kind has it (or the contract numbers none). */
export function kindByNumber(n: number): KnownKind | undefined {
  if (byNumber === undefined) {
    byNumber = new Map();
    for (const k of KNOWN_KINDS) {
      const c = CLASSIFICATIONS[k];
      if (c.number >= 0) {
        byNumber.set(c.number, k);
      }
    }
  }
  return byNumber.get(n);
}

/** stepOf returns the step the contract maps a recovery action to; an action this contract version does not know means escalate. */
export function stepOf(action: string): Step {
  return hasOwn(ACTION_STEPS, action) ? ACTION_STEPS[action as keyof typeof ACTION_STEPS] : "escalate";
}

/** permitsRetry reports whether a same_arguments value permits an automatic retry of the identical call. */
export function permitsRetry(sameArguments: string): boolean {
  return (RETRY_SAME_ARGUMENTS as readonly string[]).includes(sameArguments);
}

/**
 * mayHaveRun reports whether work may already have run when a failure
 * reports this side_effects value. A value this contract does not list (a
 * newer producer's) counts as may have run, so an agent checks state.
 */
export function mayHaveRun(sideEffects: string): boolean {
  return (MAY_HAVE_RUN_SIDE_EFFECTS as readonly string[]).includes(sideEffects) || !(SIDE_EFFECTS_VALUES as readonly string[]).includes(sideEffects);
}

/** receivedMember names, per derived source, the Envelope.received member the layout keeps it in. */
export const receivedMember: { readonly [S in Source]?: string } = (() => {
  const out: { [S in Source]?: string } = {};
  const walk = (o: LayoutObject): void => {
    for (const m of o.members) {
      if (m.object !== undefined) {
        walk(m.object);
      } else if (m.leaf.received !== undefined && out[m.leaf.source] === undefined) {
        out[m.leaf.source] = m.leaf.received;
      }
    }
  };
  walk(LAYOUT);
  return Object.freeze(out);
})();

/** received returns the derived value of source as the envelope received it, or undefined. */
export function received(envelope: Envelope, source: Source): unknown {
  const member = receivedMember[source];
  if (member === undefined || envelope.received === undefined) {
    return undefined;
  }
  return (envelope.received as Record<string, unknown>)[member];
}

/** guidanceLeaf is the layout's guidance leaf, or undefined when guidance is not on the wire. */
const guidanceLeaf: LayoutLeaf | undefined = (() => {
  const walk = (o: LayoutObject): LayoutLeaf | undefined => {
    for (const m of o.members) {
      const found = m.object !== undefined ? walk(m.object) : m.leaf.source === "guidance" ? m.leaf : undefined;
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(LAYOUT);
})();

/**
 * FILLS_GUIDANCE says whether a new envelope starts with the contract's
 * guidance for its kind. It does unless the layout marks the guidance leaf
 * optional: such a field carries only advice the producer gives, so a new
 * envelope's guidance is empty until withFields sets it.
 */
export const FILLS_GUIDANCE: boolean = guidanceLeaf?.optional !== true;

/**
 * classifiedEnvelope returns an envelope of any kind with its
 * classification's defaults and no context: what every constructor starts
 * from, and what a client builds from a response that carries no envelope.
 * The message is sanitized when the contract lists it in SANITIZED_FIELDS,
 * unless opts says { trusted: true }.
 */
export function classifiedEnvelope(kind: Kind, message: string, opts?: SanitizeOptions): Envelope {
  if (typeof kind !== "string" || kind === "") {
    throw new TypeError("newEnvelope: the kind must be a non-empty string");
  }
  const c = lookup(kind);
  return {
    contractVersion: CONTRACT_VERSION,
    kind,
    message: messageOr(kind, sanitizesMessage ? sanitizeUnlessTrusted(message, opts) : message),
    origin: c.origin,
    recovery: { action: c.action, sameArguments: c.sameArguments, guidance: FILLS_GUIDANCE ? c.guidance : "" },
    sideEffects: c.sideEffects,
  };
}

/**
 * blank reports whether text has nothing a reader could see: it is empty or
 * holds only white space and invisible format characters (what is left of a
 * message that was all prompt markers or bidi controls once sanitized). The
 * set is the Go and Python packages' too, so all three agree. (Exported for
 * the package's other modules; the package's index does not export it.)
 */
export function blank(text: string): boolean {
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (
      !(
        (c >= 0x09 && c <= 0x0d) ||
        c === 0x20 ||
        c === 0x85 ||
        c === 0xa0 ||
        c === 0xad ||
        c === 0x1680 ||
        c === 0x180e ||
        (c >= 0x2000 && c <= 0x200f) ||
        (c >= 0x2028 && c <= 0x202f) ||
        (c >= 0x205f && c <= 0x2064) ||
        c === 0x3000 ||
        c === 0xfeff
      )
    ) {
      return false;
    }
  }
  return true;
}

/**
 * messageOr is the message a constructor puts into an envelope of kind: the
 * one given unless it is blank, else the kind's description, else (for a
 * kind the contract does not list) the kind itself. A message must stay
 * useful when a client drops every other field, so it is never empty.
 */
function messageOr(kind: string, message: string): string {
  if (typeof message === "string" && !blank(message)) {
    return message;
  }
  return lookup(kind).description || kind;
}

/**
 * withRetryAfter returns a copy of the envelope with the retry hint set to
 * ms milliseconds, rounded up to a whole millisecond so a caller never
 * retries early and clamped to RETRY.maxHintMs. A negative hint, NaN or a
 * value that is not a number is refused with a RangeError: the producer
 * schema and every decoder reject it.
 */
export function withRetryAfter<E extends Envelope>(envelope: E, ms: number): E {
  if (typeof ms !== "number" || !(ms >= 0)) {
    throw new RangeError(`withRetryAfter: the retry hint must be a non-negative number of milliseconds, found ${String(ms)}`);
  }
  return { ...envelope, recovery: { ...envelope.recovery, retryAfterMs: Math.min(Math.ceil(ms), RETRY.maxHintMs) } };
}

/** requiredMembers holds the Envelope members of the context fields the layout requires. */
export const requiredMembers: ReadonlySet<string> = (() => {
  const out = new Set<string>();
  const walk = (o: LayoutObject): void => {
    for (const m of o.members) {
      if (m.object !== undefined) walk(m.object);
      else if (m.leaf.required === true && m.leaf.field !== undefined) out.add(m.leaf.field);
    }
  };
  walk(LAYOUT);
  return out;
})();

/**
 * requiredText checks a value for a context field the layout requires:
 * a string (TypeError otherwise), sanitized when the contract lists the
 * field unless opts says { trusted: true }, and not empty afterwards
 * (RangeError): an envelope without it is not one the contract accepts.
 */
export function requiredText(member: string, value: unknown, opts?: SanitizeOptions): string {
  if (typeof value !== "string") {
    throw new TypeError(`${member} must be a string: the layout requires it in every envelope`);
  }
  const v = sanitizedMembers.has(member) ? sanitizeUnlessTrusted(value, opts) : value;
  if (v === "") {
    throw new RangeError(`${member} must not be empty: the layout requires it in every envelope`);
  }
  return v;
}

/** CoreMember names the Envelope members withFields does not set. */
type CoreMember = "contractVersion" | "kind" | "message" | "origin" | "recovery" | "sideEffects" | "received" | "extra";

/**
 * EnvelopeFields are the optional values withFields sets: the guidance, and
 * every context and kind-specific field of the contract.
 */
export type EnvelopeFields = { readonly [M in Exclude<keyof Envelope, CoreMember>]?: Envelope[M] | undefined } & {
  readonly guidance?: string | undefined;
};

/**
 * withFields returns a copy of the envelope with the given fields set: a
 * field given as undefined is removed, guidance goes into recovery (an
 * undefined guidance leaves it as it is, and blank guidance restores the
 * contract's, or none where the layout carries only the producer's own). The fields the contract lists in
 * SANITIZED_FIELDS are sanitized, strings in arrays and objects included,
 * unless opts says { trusted: true }. It throws a TypeError for a name that
 * is not guidance or a context or kind-specific field; a context field the
 * layout requires cannot be removed or emptied (TypeError, RangeError, as
 * the constructors refuse it).
 */
export function withFields<E extends Envelope>(envelope: E, fields: EnvelopeFields, opts?: SanitizeOptions): E {
  const out: Record<string, unknown> = { ...(envelope as Envelope & Record<string, unknown>) };
  for (const member of Object.keys(fields)) {
    let value: unknown = (fields as Record<string, unknown>)[member];
    if (member === "guidance") {
      if (value === undefined) {
        continue;
      }
      if (typeof value !== "string") {
        throw new TypeError("withFields: guidance must be a string");
      }
      const guidance = sanitizesGuidance ? sanitizeUnlessTrusted(value, opts) : value;
      // Blank advice is never emitted: the contract's comes back where the
      // layout fills guidance, and there is none where it carries only the
      // producer's own.
      out["recovery"] = { ...envelope.recovery, guidance: blank(guidance) ? (FILLS_GUIDANCE ? lookup(envelope.kind).guidance : "") : guidance };
      continue;
    }
    if (!hasOwn(FIELDS, member)) {
      throw new TypeError(`withFields: ${JSON.stringify(member)} is not a context or kind-specific field of the contract`);
    }
    if (requiredMembers.has(member)) {
      out[member] = requiredText(member, value, opts);
      continue;
    }
    if (value === undefined) {
      delete out[member];
      continue;
    }
    if (sanitizedMembers.has(member)) {
      value = sanitizeUnlessTrusted(value, opts);
    }
    out[member] = value;
  }
  return out as E;
}

/** classification returns the contract's classification of the envelope's kind. */
export function classification(envelope: Envelope): Classification {
  return lookup(envelope.kind);
}

/** httpStatus returns the status an HTTP surface answers with for the envelope's kind. */
export function httpStatus(envelope: Envelope): number {
  return lookup(envelope.kind).httpStatus;
}

/** logLevel returns the level to log the failure at. */
export function logLevel(envelope: Envelope): LogLevel {
  return lookup(envelope.kind).logLevel;
}

/** countsTowardBreaker reports whether the failure is a transport failure that counts toward the upstream's circuit breaker. */
export function countsTowardBreaker(envelope: Envelope): boolean {
  return lookup(envelope.kind).breaker;
}

/** isStartupFailure reports whether the kind is raised while starting up rather than returned as an operation's result. */
export function isStartupFailure(envelope: Envelope): boolean {
  return lookup(envelope.kind).startup;
}

/**
 * isRetryable reports whether the envelope's own advice permits an automatic
 * retry of the identical call: a retry action with a same_arguments value
 * that permits repeating it. A derived retryable flag received on the wire
 * wins over the computed answer.
 */
export function isRetryable(envelope: Envelope): boolean {
  const r = received(envelope, "retryable");
  if (typeof r === "boolean") {
    return r;
  }
  return stepOf(envelope.recovery.action) === "retry" && permitsRetry(envelope.recovery.sameArguments);
}

/**
 * workMayHaveRun reports whether work may already have run before the
 * failure, judged from the envelope's side_effects (a derived flag received
 * on the wire wins): check state before repeating a write.
 */
export function workMayHaveRun(envelope: Envelope): boolean {
  const r = received(envelope, "may_have_run");
  if (typeof r === "boolean") {
    return r;
  }
  return mayHaveRun(envelope.sideEffects);
}

/** ToolAnnotations are the MCP tool annotations that bear on retry safety. */
export interface ToolAnnotations {
  readOnlyHint?: boolean | undefined;
  idempotentHint?: boolean | undefined;
}

/**
 * forTool returns the same_arguments advice for a tool with the given
 * annotations: repeating a call to a tool marked read-only or idempotent
 * cannot repeat a side effect, so the contract may relax the advice.
 */
export function forTool<S extends string>(sameArguments: S, annotations: ToolAnnotations): S | SameArguments {
  if (!(annotations.readOnlyHint === true || annotations.idempotentHint === true)) {
    return sameArguments;
  }
  if (hasOwn(SAME_ARGUMENTS_UPGRADES, sameArguments)) {
    return SAME_ARGUMENTS_UPGRADES[sameArguments as SameArguments] ?? sameArguments;
  }
  return sameArguments;
}

/** withToolAnnotations returns a copy of the envelope with forTool applied to its same_arguments advice. */
export function withToolAnnotations<E extends Envelope>(envelope: E, annotations: ToolAnnotations): E {
  return { ...envelope, recovery: { ...envelope.recovery, sameArguments: forTool(envelope.recovery.sameArguments, annotations) } };
}

/** exitCode is the exit status a command line reports the failure with, by the origin of the kind's classification. */
export function exitCode(envelope: Envelope): number {
  return EXIT_CODES[lookup(envelope.kind).origin] ?? DEFAULT_EXIT_CODE;
}

/** problemType returns the RFC 9457 problem type URI of kind. */
export function problemType(kind: Kind): string {
  return PROBLEM_TYPE_BASE + kind;
}
