// The JSON codec: an interpreter of the contract's LAYOUT. Parsing mirrors
// the Go package's decoder step by step, so a malformed envelope fails at
// the same JSON path in every language; serializing writes the layout's
// fields in order, then extra entries sorted by key.

import { CONTRACT_VERSION, FIELDS, LAYOUT, type Envelope } from "./contract.js";
import { hasOwn, isRetryable, lookup, received, workMayHaveRun } from "./classification.js";
import type { FieldSpec, FieldType, LayoutLeaf, LayoutObject, Source } from "./spec.js";
import { sanitize, sanitizeValue } from "./sanitize.js";
import { decodeUtf8 } from "./utf8.js";

/**
 * DecodeErrorCategory sorts a decode problem, as the Go package's
 * DecodeError.Category does: "syntax" (not JSON at all, or JSON past the
 * limits every decoder of the contract shares: arrays and objects nested
 * more than MAX_DEPTH levels deep, a number past the range of a 64-bit
 * float), "type" (the wrong JSON type, including null where a value is
 * required, a non-integer number where an integer is required and a
 * document that is not an object), "missing" (a required member is absent)
 * or "value" (the right type but a rejected value: an empty kind, a negative
 * integer, an integer past Number.MAX_SAFE_INTEGER, a layout constant that
 * differs, whatever its type).
 */
export type DecodeErrorCategory = "syntax" | "type" | "missing" | "value";

/** DecodeError says why a value is not a valid envelope. */
export interface DecodeError {
  /** The JSON path of the offending field, such as "recovery.action"; empty when the document as a whole is wrong. */
  readonly path: string;
  /** What is wrong, such as "is required". */
  readonly problem: string;
  /** What kind of problem it is; the same category the Go package reports. */
  readonly category: DecodeErrorCategory;
}

/**
 * ReadOptions change how a reader reads an envelope. raw: true keeps the
 * text as the sender wrote it, where every reader otherwise sanitizes what
 * the contract sanitizes (SANITIZED_FIELDS). Raw text is for a caller that
 * needs the exact bytes: never re-emit it or show it to a model.
 */
export interface ReadOptions {
  readonly raw?: boolean;
}

/** ParseResult is the outcome of parsing an envelope: never an exception. */
export type ParseResult = { readonly ok: true; readonly envelope: Envelope } | { readonly ok: false; readonly error: DecodeError };

/** formatDecodeError renders a DecodeError as one line, as the Go package's DecodeError.Error does. */
export function formatDecodeError(e: DecodeError): string {
  return "invalid envelope: " + (e.path === "" ? e.problem : e.path + " " + e.problem);
}

/**
 * MAX_DEPTH is how deeply an envelope may nest arrays and objects, the
 * envelope's own object counting as the first level. The Go and Python
 * packages of the contract share it: parseEnvelope rejects a deeper value
 * (category "syntax"), and toWire refuses to write one, so what one of them
 * reads the others read, and every one of them writes back.
 */
export const MAX_DEPTH = 128;

/**
 * MAX_DOCUMENT_BYTES is the size limit of the decoders that take JSON text
 * (parseEnvelopeJson, fromAip193), 1 MiB of UTF-8, the same in every
 * package of the contract and the same as the body readHttp reads: an
 * envelope is a few kilobytes, and a hostile document costs a decoder a
 * multiple of its size. A longer document is a syntax error with path "",
 * found before the text is parsed; DecodeOptions sets another limit.
 */
export const MAX_DOCUMENT_BYTES: number = 1 << 20;

/** DecodeOptions changes how parseEnvelopeJson and fromAip193 read a document: ReadOptions, and its size limit. */
export interface DecodeOptions extends ReadOptions {
  /** The longest document read, in bytes of UTF-8: MAX_DOCUMENT_BYTES when absent, Infinity for no limit. */
  readonly maxBytes?: number;
}

/** tooLong is the error for text longer than the limit of options, or undefined. */
export function tooLong(text: string | Uint8Array, options?: DecodeOptions): DecodeError | undefined {
  const limit = options?.maxBytes ?? MAX_DOCUMENT_BYTES;
  if (!(text.length > limit || (typeof text === "string" && text.length * 3 > limit && utf8Longer(text, limit)))) return undefined;
  return { path: "", problem: "is longer than the limit of " + String(limit) + " bytes", category: "syntax" };
}

/** utf8Longer says whether text takes more than limit bytes of UTF-8 (a lone surrogate takes three, as U+FFFD). */
function utf8Longer(text: string, limit: number): boolean {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
    if (n > limit) return true;
  }
  return false;
}

class Fail {
  constructor(
    readonly path: string,
    readonly problem: string,
    readonly category: DecodeErrorCategory,
  ) {}
}

/** joinPath appends key to a dotted path. */
export function joinPath(path: string, key: string): string {
  return path === "" ? key : path + "." + key;
}

/** setOwn sets an own, enumerable property, even one named __proto__. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * plainKey reports whether assigning key on a fresh plain object creates the
 * own property setOwn would, which is cheaper than defining it: not for
 * __proto__ (an inherited setter) or any other name Object.prototype holds
 * (which a frozen prototype would refuse). It is asked once per contract
 * member, when the decoding plan is built.
 */
function plainKey(key: string): boolean {
  return !(key in Object.prototype);
}

/** isObject reports whether v is a JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Decoding follows a plan built once from LAYOUT: each object reads its
 * members into an array of slots, one per name it owns (aliases included),
 * in a single pass over its keys; the layout's members then take their
 * values from the slots in order. Taking a value clears its slot, as the
 * Go decoder consumes a member, and the keys with no slot are the extra
 * entries. The plan changes how fast the layout is read, never what is
 * read: every check, path and problem is the one the layout asks for.
 */
interface ObjectPlan {
  readonly path: string;
  /** slotOf maps each member name the object owns (a spelling of retry_after_ms included) to its slot. */
  readonly slotOf: ReadonlyMap<string, number>;
  readonly slots: number;
  readonly steps: readonly DecodeStep[];
}

/** DecodeStep is one member of a layout object: a nested object or a leaf. */
type DecodeStep = ObjectStep | LeafStep;

interface ObjectStep {
  readonly object: ObjectPlan;
  readonly name: string;
  readonly slot: number;
  readonly required: boolean;
}

interface LeafStep {
  readonly object?: undefined;
  readonly leaf: LayoutLeaf;
  /** The leaf's names (retry_after_ms: its spellings, the first one first) and their slots. */
  readonly names: readonly string[];
  readonly slots: readonly number[];
  readonly required: boolean;
  /** For a derived source: the member of Envelope.received that keeps the value as received, and whether plain assignment sets it. */
  readonly received: string;
  readonly receivedPlain: boolean;
  /** For a field: its spec, its index in FIELD_MEMBERS (-1 when FIELDS does not list it as its own). */
  readonly spec: FieldSpec | undefined;
  readonly field: number;
}

/** FIELD_MEMBERS lists the Envelope members of the contract's fields, in FIELDS order; FIELD_PLAIN says whether plain assignment sets each. */
const FIELD_MEMBERS: readonly string[] = Object.keys(FIELDS);
const FIELD_PLAIN: readonly boolean[] = FIELD_MEMBERS.map(plainKey);

/** planObject builds the decoding plan of a layout object. */
function planObject(o: LayoutObject): ObjectPlan {
  const slotOf = new Map<string, number>();
  const slot = (name: string): number => {
    let n = slotOf.get(name);
    if (n === undefined) {
      n = slotOf.size;
      slotOf.set(name, n);
    }
    return n;
  };
  const steps: DecodeStep[] = [];
  for (const m of o.members) {
    if (m.object !== undefined) {
      steps.push({ object: planObject(m.object), name: m.object.name, slot: slot(m.object.name), required: m.object.required });
      continue;
    }
    const leaf = m.leaf;
    const names = leaf.source === "retry_after_ms" ? [leaf.name, ...(leaf.aliases ?? [])] : [leaf.name];
    const member = leaf.field ?? leaf.name;
    const received = leaf.received ?? leaf.name;
    steps.push({
      leaf,
      names,
      slots: names.map(slot),
      required: leafRequired(leaf),
      received,
      receivedPlain: plainKey(received),
      spec: leaf.source === "field" ? FIELDS[member] : undefined,
      field: leaf.source === "field" ? FIELD_MEMBERS.indexOf(member) : -1,
    });
  }
  return { path: o.path, slotOf, slots: slotOf.size, steps };
}

/** take empties a slot and returns its value; null counts as absent. */
function take(vals: unknown[], slot: number, path: string, key: string, required: boolean): unknown {
  const v = vals[slot];
  vals[slot] = undefined;
  if (v === undefined || v === null) {
    if (required) {
      // Absent is missing; null where a value is required is the wrong type.
      throw new Fail(joinPath(path, key), "is required", v === null ? "type" : "missing");
    }
    return undefined;
  }
  return v;
}

/**
 * isInteger reports whether v is an integer every decoder of the contract
 * reads exactly: a whole number of at most Number.MAX_SAFE_INTEGER (2^53-1)
 * in magnitude, however the text wrote it (1.0 and 1e0 are 1). A whole
 * number past that is a rejected value, a fraction the wrong type.
 */
function isInteger(v: unknown): v is number {
  return Number.isSafeInteger(v);
}

/** whole reports whether v is a number whose value is a whole number. */
function whole(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v);
}

/** The problems of an integer past Number.MAX_SAFE_INTEGER (for the retry hint, or negative), as every language words them. */
const INTEGER_RANGE = "must be an integer from -9007199254740991 to 9007199254740991";
const HINT_RANGE = "must be an integer from 0 to 9007199254740991";

/** ANY_SURROGATE finds a UTF-16 surrogate; LONE_SURROGATE one that is not half of a pair; SURROGATE_TEXT JSON text that may hold either, raw or escaped. */
const ANY_SURROGATE = /[\uD800-\uDFFF]/;
const SURROGATE_TEXT = /[\uD800-\uDFFF]|\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * wellFormed returns s with each lone surrogate replaced by U+FFFD, as the
 * Go decoder reads a \u escape of one (and encoding/json every byte of
 * invalid UTF-8).
 */
export function wellFormed(s: string): string {
  return ANY_SURROGATE.test(s) ? s.replace(LONE_SURROGATE, "\uFFFD") : s;
}

/** walked counts the object members within has looked at since it was last set to 0 (textLimitsError compares it with the text's). */
let walked = 0;

/**
 * within checks a parsed value against the limits every decoder of the
 * contract shares, and returns it with each lone surrogate in a string or a
 * member name replaced by U+FFFD: the value itself when nothing changes, a
 * copy of what does otherwise. level is the number of arrays and objects
 * around v; strings is false when the text v was parsed from holds no
 * surrogate, raw or escaped, so no string needs a look. It throws a
 * "syntax" Fail for a value nested deeper than MAX_DEPTH (a cycle
 * included) or a number that is not finite (what JSON.parse makes of
 * 1e999).
 */
function within(v: unknown, level: number, strings: boolean): unknown {
  switch (typeof v) {
    case "string":
      return strings ? wellFormed(v) : v;
    case "number":
      if (!Number.isFinite(v)) {
        throw new Fail("", Number.isNaN(v) ? "holds NaN, which is not a JSON number" : "holds a number past the range of a 64-bit float", "syntax");
      }
      return v;
    case "object":
      break;
    default:
      return v;
  }
  if (v === null) {
    return v;
  }
  if (level >= MAX_DEPTH) {
    throw new Fail("", "nests arrays and objects more than " + MAX_DEPTH + " levels deep", "syntax");
  }
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const y = within(x, level + 1, strings);
      if (y !== x) {
        (out ??= v.slice())[i] = y;
      }
    }
    return out ?? v;
  }
  const obj = v as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const k in obj) {
    if (!hasOwn(obj, k)) {
      continue;
    }
    walked++;
    const x = obj[k];
    const y = within(x, level + 1, strings);
    const name = strings ? wellFormed(k) : k;
    if (out === undefined && (y !== x || name !== k)) {
      // Rare: from here on the object is a copy, which starts with the
      // members before this one as they are. A later member wins a name
      // two members now share, as a later member of one name does in text.
      out = {};
      for (const p in obj) {
        if (p === k) {
          break;
        }
        if (hasOwn(obj, p)) {
          setOwn(out, p, obj[p]);
        }
      }
    }
    if (out !== undefined) {
      setOwn(out, name, y);
    }
  }
  return out ?? v;
}

/** takeString is take for a leaf whose value must be a string. */
function takeString(vals: unknown[], st: LeafStep, path: string): string | undefined {
  const v = take(vals, st.slots[0]!, path, st.leaf.name, st.required);
  if (v !== undefined && typeof v !== "string") {
    throw new Fail(joinPath(path, st.leaf.name), "must be a string", "type");
  }
  return v;
}

const typeWant: { readonly [T in FieldType]: string } = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
};

/** wantOf is the phrase a parse error uses for a field's type. */
function wantOf(spec: FieldSpec): string {
  if (spec.type === "array") {
    const items = spec.items ?? "string";
    return "an array of " + (items === "integer" ? "integers" : items === "object" ? "objects" : items + "s");
  }
  return typeWant[spec.type];
}

const BAD: unique symbol = Symbol("bad");

/** zeroOf is the value Go's decoder leaves in a typed member the input lacks or sets to null. */
function zeroOf(type: FieldType): unknown {
  switch (type) {
    case "string":
      return "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return {};
  }
}

/** convert checks a field value against its spec and returns the value the envelope keeps, or BAD. */
function convert(type: FieldType, spec: FieldSpec | undefined, v: unknown): unknown {
  switch (type) {
    case "string":
      return typeof v === "string" ? v : BAD;
    case "integer":
      // + 0 reads -0 as 0, as the Go and Python decoders do.
      return isInteger(v) ? v + 0 : BAD;
    case "number":
      return typeof v === "number" ? v : BAD;
    case "boolean":
      return typeof v === "boolean" ? v : BAD;
    case "array": {
      if (!Array.isArray(v)) {
        return BAD;
      }
      const items = spec?.items ?? "string";
      const out: unknown[] = [];
      for (const el of v) {
        const x = el === null || el === undefined ? zeroOf(items) : convert(items, undefined, el);
        if (x === BAD) {
          return BAD;
        }
        out.push(x);
      }
      return out;
    }
    case "object": {
      if (!isObject(v)) {
        return BAD;
      }
      const props = spec?.properties;
      if (props === undefined || props.length === 0) {
        return v;
      }
      // A typed object reads as Go's encoding/json reads a struct: members
      // match a property exactly, else ignoring ASCII case; others are
      // dropped; null leaves a property alone; a required property the
      // input lacks gets its zero value.
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const p = props.find((q) => q.name === k) ?? props.find((q) => q.name.toLowerCase() === k.toLowerCase() && /^[\x00-\x7f]*$/.test(k));
        if (p === undefined || x === null || x === undefined) {
          continue;
        }
        const cx = convert(p.type, p, x);
        if (cx === BAD) {
          return BAD;
        }
        setOwn(out, p.member, cx);
      }
      for (const p of props) {
        if (p.required === true && !hasOwn(out, p.member)) {
          setOwn(out, p.member, zeroOf(p.type));
        }
      }
      return out;
    }
  }
}

/** leafRequired reports whether every envelope carries the leaf: a context or kind-specific field only when the layout requires it. */
function leafRequired(leaf: LayoutLeaf): boolean {
  if (leaf.source === "field") {
    return leaf.required === true;
  }
  if (leaf.source === "retry_after_ms") {
    return false;
  }
  return leaf.optional !== true;
}

interface Draft {
  contractVersion: unknown;
  kind: string;
  message: string;
  origin: string;
  action: string;
  sameArguments: string;
  guidance: string;
  retryAfterMs: number | undefined;
  sideEffects: string;
  /** The fields' values by their index in FIELD_MEMBERS; undefined when absent. */
  fields: unknown[];
  received: Record<string, unknown> | undefined;
  extra: Record<string, unknown> | undefined;
}

/** setReceived keeps a derived value as received. */
function setReceived(d: Draft, st: LeafStep, v: unknown): void {
  const r = (d.received ??= {});
  if (st.receivedPlain) {
    r[st.received] = v;
  } else {
    setOwn(r, st.received, v);
  }
}

function decodeLeaf(st: LeafStep, parent: string, vals: unknown[], d: Draft): void {
  const leaf = st.leaf;
  switch (leaf.source) {
    case "version": {
      const v = take(vals, st.slots[0]!, parent, leaf.name, st.required);
      if (v !== undefined) {
        if (typeof CONTRACT_VERSION === "number" ? !whole(v) : typeof v !== "string") {
          throw new Fail(leaf.path, typeof CONTRACT_VERSION === "number" ? "must be an integer" : "must be a string", "type");
        }
        if (typeof CONTRACT_VERSION === "number" && !isInteger(v)) {
          throw new Fail(leaf.path, INTEGER_RANGE, "value");
        }
        d.contractVersion = typeof v === "number" ? v + 0 : v;
      }
      return;
    }
    case "kind":
      d.kind = takeString(vals, st, parent) ?? d.kind;
      if (d.kind === "") {
        throw new Fail(leaf.path, "must not be empty", "value");
      }
      return;
    case "message":
      d.message = takeString(vals, st, parent) ?? d.message;
      return;
    case "origin":
      d.origin = takeString(vals, st, parent) ?? d.origin;
      return;
    case "action":
      d.action = takeString(vals, st, parent) ?? d.action;
      return;
    case "same_arguments":
      d.sameArguments = takeString(vals, st, parent) ?? d.sameArguments;
      return;
    case "side_effects":
      d.sideEffects = takeString(vals, st, parent) ?? d.sideEffects;
      return;
    case "guidance":
      d.guidance = takeString(vals, st, parent) ?? d.guidance;
      return;
    case "retry_after_ms":
      // The first spelling present wins; the others are dropped so they do
      // not resurface as extra entries.
      for (let i = 0; i < st.names.length; i++) {
        const slot = st.slots[i]!;
        if (d.retryAfterMs === undefined) {
          const v = take(vals, slot, parent, st.names[i]!, false);
          if (v !== undefined && !whole(v)) {
            throw new Fail(joinPath(parent, st.names[i]!), "must be a non-negative integer", "type");
          }
          if (v !== undefined && (!isInteger(v) || v < 0)) {
            throw new Fail(joinPath(parent, st.names[i]!), HINT_RANGE, "value");
          }
          d.retryAfterMs = v === undefined ? v : v + 0;
        }
        vals[slot] = undefined;
      }
      return;
    case "group": {
      const v = takeString(vals, st, parent);
      if (v !== undefined) {
        setReceived(d, st, v);
      }
      return;
    }
    case "retryable":
    case "may_have_run": {
      const v = take(vals, st.slots[0]!, parent, leaf.name, st.required);
      if (v !== undefined && typeof v !== "boolean") {
        throw new Fail(joinPath(parent, leaf.name), "must be a boolean", "type");
      }
      if (v !== undefined) {
        setReceived(d, st, v);
      }
      return;
    }
    case "const": {
      const v = take(vals, st.slots[0]!, parent, leaf.name, true);
      if (v !== leaf.value) {
        // Any other value than the constant is a rejected value, whatever its type.
        throw new Fail(leaf.path, "must be " + (leaf.want ?? "the constant " + JSON.stringify(leaf.value)), "value");
      }
      return;
    }
    case "field": {
      const spec = st.spec;
      const v = take(vals, st.slots[0]!, parent, leaf.name, st.required);
      if (v === undefined || spec === undefined) {
        return;
      }
      if (spec.type === "integer" && whole(v) && !isInteger(v)) {
        throw new Fail(leaf.path, INTEGER_RANGE, "value");
      }
      const x = convert(spec.type, spec, v);
      if (x === BAD) {
        throw new Fail(leaf.path, "must be " + wantOf(spec), "type");
      }
      if (st.required && x === "") {
        // A context field the layout requires is never empty, as the kind.
        throw new Fail(leaf.path, "must not be empty", "value");
      }
      if (st.field >= 0) {
        d.fields[st.field] = x;
      }
      return;
    }
  }
}

/** decodeMembers reads a JSON object of the layout into the draft; the problems match the Go decoder's. */
function decodeMembers(plan: ObjectPlan, value: unknown, d: Draft): void {
  const path = plan.path;
  if (value === null) {
    throw new Fail(path, "must be a JSON object, not null", "type");
  }
  if (!isObject(value)) {
    throw new Fail(path, "must be a JSON object", "type");
  }
  // One pass over the own enumerable keys, in the order Object.entries
  // reads them: each value goes to its slot, or is kept aside as an extra
  // entry. (for-in with an own-property test is the keys Object.keys lists,
  // and V8 reads them from the object's enumeration cache.)
  const vals = new Array<unknown>(plan.slots);
  let extraKeys: string[] | undefined;
  let extraVals: unknown[] | undefined;
  for (const k in value) {
    if (!hasOwn(value, k)) {
      continue;
    }
    const v = value[k];
    const slot = plan.slotOf.get(k);
    if (slot !== undefined) {
      vals[slot] = v;
    } else if (v !== undefined) {
      (extraKeys ??= []).push(k);
      (extraVals ??= []).push(v);
    }
  }
  for (const st of plan.steps) {
    if (st.object !== undefined) {
      const v = take(vals, st.slot, path, st.name, st.required);
      if (v !== undefined) {
        decodeMembers(st.object, v, d);
      }
      continue;
    }
    decodeLeaf(st, path, vals, d);
  }
  if (extraKeys !== undefined) {
    const extra = (d.extra ??= {});
    for (let i = 0; i < extraKeys.length; i++) {
      setOwn(extra, joinPath(path, extraKeys[i]!), extraVals![i]);
    }
  }
}

/** onWire lists the sources the layout carries. */
const onWire: ReadonlySet<Source> = (() => {
  const out = new Set<Source>();
  const walk = (o: LayoutObject): void => {
    for (const m of o.members) {
      if (m.object !== undefined) {
        walk(m.object);
      } else {
        out.add(m.leaf.source);
      }
    }
  };
  walk(LAYOUT);
  return out;
})();

/** KIND_PATH is the kind's path on the wire, for the error of a kind the sanitizer empties. */
const KIND_PATH: string = (() => {
  const find = (o: LayoutObject): string | undefined => {
    for (const m of o.members) {
      const p = m.object !== undefined ? find(m.object) : m.leaf.source === "kind" ? m.leaf.path : undefined;
      if (p !== undefined) {
        return p;
      }
    }
    return undefined;
  };
  return find(LAYOUT) ?? "kind";
})();

/** What the layout leaves off the wire, which decoding fills from the kind's classification. */
const FILL_VERSION = !onWire.has("version");
const FILL_ORIGIN = !onWire.has("origin");
const FILL_ACTION = !onWire.has("action");
const FILL_SAME_ARGUMENTS = !onWire.has("same_arguments");
const FILL_GUIDANCE = !onWire.has("guidance");
const FILL_SIDE_EFFECTS = !onWire.has("side_effects");
const FILL_ANY = FILL_ORIGIN || FILL_ACTION || FILL_SAME_ARGUMENTS || FILL_GUIDANCE || FILL_SIDE_EFFECTS;

const ROOT_PLAN = planObject(LAYOUT);

/**
 * placedWithin throws the "syntax" Fail (path "") of an extra entry whose
 * key places it in a nested object (a root member "recovery.x" goes into
 * recovery, a level deeper than it was read) where it would nest past
 * MAX_DEPTH: the encoder could not write the envelope back.
 */
function placedWithin(extra: Record<string, unknown>): void {
  for (const k in extra) {
    if (hasOwn(extra, k) && k.includes(".") && extraLimitsError(k, extra[k]) !== undefined) {
      throw new Fail("", "places " + k + " where it nests arrays and objects more than " + MAX_DEPTH + " levels deep", "syntax");
    }
  }
}

/** FIELD_STEPS are the leaves of the context and kind-specific fields on the wire, in layout order: every reader sanitizes each, listed in SANITIZED_FIELDS or not. */
const FIELD_STEPS: readonly LeafStep[] = (() => {
  const out: LeafStep[] = [];
  const walk = (plan: ObjectPlan): void => {
    for (const st of plan.steps) {
      if (st.object !== undefined) {
        walk(st.object);
      } else if (st.leaf.source === "field" && st.field >= 0) {
        out.push(st);
      }
    }
  };
  walk(ROOT_PLAN);
  return out;
})();

/**
 * sanitizeDraft sanitizes every text of a decoded draft, as the
 * constructors sanitize text: the message, the guidance the wire carried,
 * every context and kind-specific field (strings, arrays' strings, objects'
 * strings however deep; keys kept) and the strings of the extra members
 * (their names kept), whatever SANITIZED_FIELDS lists: all of it is the
 * sender's. So are the kind and the enumerated values (origin, recovery
 * action, same_arguments, side_effects), before the kind's classification
 * is looked up; a clean value, as every known one is, is unchanged. A kind
 * or required field the sanitizer leaves empty is the value error an empty
 * one is; an emptied enumerated value is kept empty, as an empty one is.
 */
function sanitizeDraft(d: Draft): void {
  d.kind = sanitize(d.kind);
  if (d.kind === "") {
    throw new Fail(KIND_PATH, "must not be empty", "value");
  }
  d.message = sanitize(d.message);
  d.origin = sanitize(d.origin);
  d.action = sanitize(d.action);
  d.sameArguments = sanitize(d.sameArguments);
  d.sideEffects = sanitize(d.sideEffects);
  if (!FILL_GUIDANCE) {
    d.guidance = sanitize(d.guidance);
  }
  for (const st of FIELD_STEPS) {
    const v = d.fields[st.field];
    if (v === undefined) {
      continue;
    }
    const x = sanitizeValue(v);
    if (st.required && x === "") {
      throw new Fail(st.leaf.path, "must not be empty", "value");
    }
    d.fields[st.field] = x;
  }
  if (d.extra !== undefined) {
    d.extra = sanitizeValue(d.extra);
  }
}

function decode(input: unknown, raw: boolean): Envelope {
  const d: Draft = {
    contractVersion: typeof CONTRACT_VERSION === "number" ? 0 : "",
    kind: "",
    message: "",
    origin: "",
    action: "",
    sameArguments: "",
    guidance: "",
    retryAfterMs: undefined,
    sideEffects: "",
    fields: new Array<unknown>(FIELD_MEMBERS.length),
    received: undefined,
    extra: undefined,
  };
  decodeMembers(ROOT_PLAN, input, d);
  if (d.extra !== undefined) {
    placedWithin(d.extra);
  }
  if (!raw) sanitizeDraft(d);
  if (FILL_VERSION) d.contractVersion = CONTRACT_VERSION;
  if (FILL_ANY) {
    const c = lookup(d.kind);
    if (FILL_ORIGIN) d.origin = c.origin;
    if (FILL_ACTION) d.action = c.action;
    if (FILL_SAME_ARGUMENTS) d.sameArguments = c.sameArguments;
    if (FILL_GUIDANCE) d.guidance = c.guidance;
    if (FILL_SIDE_EFFECTS) d.sideEffects = c.sideEffects;
  }
  const envelope: Envelope = {
    contractVersion: d.contractVersion as Envelope["contractVersion"],
    kind: d.kind,
    message: d.message,
    origin: d.origin,
    recovery: { action: d.action, sameArguments: d.sameArguments, guidance: d.guidance },
    sideEffects: d.sideEffects,
  };
  if (d.retryAfterMs !== undefined) {
    envelope.recovery.retryAfterMs = d.retryAfterMs;
  }
  const fields = d.fields;
  for (let i = 0; i < fields.length; i++) {
    const v = fields[i];
    if (v !== undefined) {
      if (FIELD_PLAIN[i]) {
        (envelope as unknown as Record<string, unknown>)[FIELD_MEMBERS[i]!] = v;
      } else {
        setOwn(envelope as unknown as Record<string, unknown>, FIELD_MEMBERS[i]!, v);
      }
    }
  }
  if (d.received !== undefined) {
    envelope.received = d.received;
  }
  if (d.extra !== undefined) {
    envelope.extra = d.extra;
  }
  return envelope;
}

/**
 * parseEnvelope reads a parsed JSON value as an envelope in the contract's
 * wire layout. It never throws. A kind, origin or other value this contract
 * version does not know is kept as it is; fields the contract does not name
 * go to extra; retry_after_ms is also accepted under the layout's other
 * spellings; values the layout does not carry are filled from the kind's
 * classification; derived values received are kept in received. Malformed
 * input yields an error with the JSON path of the offending field — the same
 * path the Go package reports. A value past the limits every decoder of the
 * contract shares (nested deeper than MAX_DEPTH, a cycle, a number that is
 * not finite) is a "syntax" error before anything else is looked at; a lone
 * surrogate in a string or a member name reads as U+FFFD. The input itself
 * is never changed.
 *
 * Every text it returns is sanitized as the constructors sanitize text:
 * the message, the guidance, every context and kind-specific field and the
 * strings of the extra members (names kept), listed in SANITIZED_FIELDS or
 * not, and the kind and the enumerated values too, so an envelope read
 * from an upstream can be re-emitted or logged as it is; a kind or a
 * required field the sanitizer leaves empty is a "value" error. { raw: true } keeps the text as the sender
 * wrote it: never re-emit it or show it to a model.
 */
export function parseEnvelope(input: unknown, opts?: ReadOptions): ParseResult {
  return parseChecked(input, true, opts?.raw === true);
}

/** parseChecked is parseEnvelope, looking at strings for lone surrogates only when strings is set. */
function parseChecked(input: unknown, strings: boolean, raw: boolean, text?: string): ParseResult {
  try {
    walked = 0;
    const value = within(input, 0, strings);
    if (text !== undefined) {
      const limit = textLimitsError(text, 0, walked);
      if (limit !== undefined) {
        return { ok: false, error: limit };
      }
    }
    return { ok: true, envelope: decode(value, raw) };
  } catch (err) {
    if (err instanceof Fail) {
      return { ok: false, error: { path: err.path, problem: err.problem, category: err.category } };
    }
    // A value no JSON text produces (a throwing proxy, say): not a JSON object.
    return { ok: false, error: { path: "", problem: "cannot be read: " + String(err), category: "type" } };
  }
}

/**
 * parseEnvelopeJson parses JSON text, then reads it with parseEnvelope (and
 * its options). It never throws. Bytes are read as UTF-8 the way the Go
 * decoder reads them: each byte of invalid UTF-8 is U+FFFD, and a byte
 * order mark is not JSON. Text longer than MAX_DOCUMENT_BYTES (or
 * opts.maxBytes) is a syntax error, found before it is parsed.
 */
export function parseEnvelopeJson(text: string | Uint8Array, opts?: DecodeOptions): ParseResult {
  const long = tooLong(text, opts);
  if (long) return { ok: false, error: long };
  let value: unknown;
  try {
    text = typeof text === "string" ? text : decodeUtf8(text, false);
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: { path: "", problem: "is not valid JSON: " + (err instanceof Error ? err.message : String(err)), category: "syntax" } };
  }
  // Text without a surrogate, raw or escaped, parses to strings without one.
  return parseChecked(value, SURROGATE_TEXT.test(text), opts?.raw === true, text);
}

/**
 * EXPONENT_2 and DIGITS_300 find JSON text that may hold a number past the
 * range of a 64-bit float: without an exponent of two digits or more and
 * without a run of 300 digits, every number in it is below 10^299 * 10^9,
 * which a float holds.
 */
const EXPONENT_2 = /[eE][+-]?\d\d/;
const DIGITS_300 = /\d{300}/;

/**
 * textLimitsError returns the "syntax" error (path "") of JSON text, known
 * to parse to a value within has checked (walking members members), that
 * goes past the limits every decoder of the contract shares anywhere in it,
 * level being the number of arrays and objects around it; undefined within
 * them. The value can miss what the text holds: a member given twice keeps
 * only its last copy there, and Go's decoder (and Rust's) reject the
 * document when an earlier copy is past a limit. When the text holds no
 * more colons than the value members, no member was dropped and the value
 * has told; otherwise only text that may go past a limit (more opening
 * brackets than the depth allows, an exponent of two digits or more, a run
 * of 300 digits) is scanned, and the first offence in it is reported.
 */
function textLimitsError(text: string, level: number, members: number): DecodeError | undefined {
  let colons = 0;
  for (let i = text.indexOf(":"); i >= 0 && colons <= members; i = text.indexOf(":", i + 1)) colons++;
  if (colons === members) {
    return undefined;
  }
  const deep = level >= MAX_DEPTH || (text.length > 2 * (MAX_DEPTH - level) && opens(text, MAX_DEPTH - level) > MAX_DEPTH - level);
  const huge = EXPONENT_2.test(text) || (text.length >= 300 && DIGITS_300.test(text));
  if (!deep && !huge) {
    return undefined;
  }
  const n = text.length;
  let depth = level;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: its end is the next quote not escaped by an odd number of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) {
          return undefined;
        }
        let b = 0;
        while (text.charCodeAt(i - 1 - b) === 0x5c) b++;
        if ((b & 1) === 0) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_DEPTH) {
        return { path: "", problem: "nests arrays and objects more than " + MAX_DEPTH + " levels deep", category: "syntax" };
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      let exp = false;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x65 || d === 0x45) {
          exp = true;
        } else if (!((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x2b || d === 0x2d)) {
          break;
        }
      }
      if ((exp || i - start > 300) && !Number.isFinite(Number(text.slice(start, i)))) {
        return { path: "", problem: "holds a number past the range of a 64-bit float", category: "syntax" };
      }
      i--;
    }
  }
  return undefined;
}

/** opens counts the opening brackets of arrays and objects in text, inside strings too, up to one more than max. */
function opens(text: string, max: number): number {
  let n = 0;
  for (let i = text.indexOf("{"); i >= 0 && n <= max; i = text.indexOf("{", i + 1)) n++;
  for (let i = text.indexOf("["); i >= 0 && n <= max; i = text.indexOf("[", i + 1)) n++;
  return n;
}

/** isJsonSpace says whether a UTF-16 unit is JSON's insignificant white space: space, tab, line feed or carriage return. */
function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * trimJsonSpace is text without JSON's white space (space, tab, line feed,
 * carriage return) at either end, and nothing else: not a byte order mark,
 * a no-break space, U+0085 or U+2028. These are the only characters a
 * reader of a line (readCli) trims, as every language's reader trims them.
 * A loop from each end, not a regular expression: /\s+$/ tries every
 * position of a long run of white space inside the text, which is
 * quadratic.
 */
export function trimJsonSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isJsonSpace(text.charCodeAt(start))) start++;
  while (end > start && isJsonSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * limitsError returns the "syntax" error (path "") of a parsed value past
 * the limits every decoder of the contract shares, level being the number
 * of arrays and objects around it (0 for a document, -1 for a wrapper whose
 * member is an envelope); undefined within them.
 */
export function limitsError(v: unknown, level: number): DecodeError | undefined {
  try {
    within(v, level, false);
    return undefined;
  } catch (err) {
    if (err instanceof Fail) {
      return { path: err.path, problem: err.problem, category: err.category };
    }
    throw err;
  }
}

/**
 * parseJsonWithin parses JSON text (or UTF-8 bytes, as parseEnvelopeJson
 * reads them) for a reader other than the envelope decoder (a short form,
 * a problem document, an AIP-193 error, a wrapped CLI line): within the
 * limits every decoder of the contract shares, applied to the whole
 * document with level arrays and objects around it, and with their error.
 * Text that is not JSON, or past a limit, is a "syntax" error with path "".
 */
export function parseJsonWithin(text: string | Uint8Array, level = 0): { ok: true; value: unknown } | { ok: false; error: DecodeError } {
  let value: unknown;
  try {
    text = typeof text === "string" ? text : decodeUtf8(text, false);
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: { path: "", problem: "is not valid JSON: " + (err instanceof Error ? err.message : String(err)), category: "syntax" } };
  }
  walked = 0;
  const error = limitsError(value, level) ?? textLimitsError(text, level, walked);
  return error === undefined ? { ok: true, value } : { ok: false, error };
}

function finite(path: string, v: unknown): void {
  if (typeof v === "number" && !Number.isFinite(v)) {
    throw new RangeError("cannot serialize " + path + ": " + String(v) + " is not a JSON number");
  }
}

/** encodeTyped writes a typed object as Go's encoding/json writes its struct: properties in order, required ones always, optional ones unless empty. */
function encodeTyped(spec: FieldSpec, v: Record<string, unknown>, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of spec.properties ?? []) {
    let x = hasOwn(v, p.member) ? v[p.member] : undefined;
    if (x === undefined || x === null) {
      if (p.required !== true || p.type === "array" || p.type === "object") {
        if (p.required === true) {
          setOwn(out, p.name, null);
        }
        continue;
      }
      x = zeroOf(p.type);
    }
    if (p.required !== true) {
      const empty =
        (p.type === "string" && x === "") ||
        (p.type === "array" && Array.isArray(x) && x.length === 0) ||
        (p.type === "object" && (p.properties ?? []).length === 0 && isObject(x) && Object.keys(x).length === 0);
      if (empty) {
        continue;
      }
    }
    setOwn(out, p.name, encodeValue(p, x, joinPath(path, p.name)));
  }
  return out;
}

/**
 * writable checks a value about to be written with level arrays and
 * objects around it, as a decoder will count them: a RangeError for one
 * nested deeper than MAX_DEPTH, which no decoder of the contract reads back,
 * or for a number JSON cannot carry.
 */
function writable(path: string, v: unknown, level: number): void {
  if (typeof v === "number") {
    finite(path, v);
    return;
  }
  if (typeof v !== "object" || v === null) {
    return;
  }
  if (level >= MAX_DEPTH) {
    throw new RangeError("cannot serialize " + path + ": it nests arrays and objects more than " + MAX_DEPTH + " levels deep");
  }
  if (Array.isArray(v)) {
    for (const x of v) {
      writable(path, x, level + 1);
    }
    return;
  }
  for (const k in v) {
    if (hasOwn(v, k)) {
      writable(path, (v as Record<string, unknown>)[k], level + 1);
    }
  }
}

/** integerOut throws a RangeError for a number of integer type that no decoder reads back as one. */
function integerOut(path: string, v: unknown): void {
  if (typeof v === "number" && !isInteger(v)) {
    throw new RangeError("cannot serialize " + path + ": " + String(v) + " is not an integer from -9007199254740991 to 9007199254740991");
  }
}

function encodeValue(spec: FieldSpec, v: unknown, path: string): unknown {
  finite(path, v);
  if (spec.type === "integer") {
    integerOut(path, v);
  }
  if (spec.type === "object" && (spec.properties ?? []).length > 0 && isObject(v)) {
    return encodeTyped(spec, v, path);
  }
  if (typeof v === "object" && v !== null) {
    // The value sits in as many objects as its path has members.
    writable(path, v, path.split(".").length);
  }
  if (Array.isArray(v)) {
    if (spec.items === "integer") {
      v.forEach((x) => integerOut(path, x));
    }
    return [...v];
  }
  return v;
}

function leafValue(leaf: LayoutLeaf, e: Envelope): unknown {
  switch (leaf.source) {
    case "version":
      return e.contractVersion;
    case "kind":
      return e.kind;
    case "message":
      return e.message;
    case "origin":
      return e.origin;
    case "action":
      return e.recovery.action;
    case "same_arguments":
      return e.recovery.sameArguments;
    case "side_effects":
      return e.sideEffects;
    case "guidance":
      return leaf.optional === true && e.recovery.guidance === "" ? undefined : e.recovery.guidance;
    case "retry_after_ms": {
      const ms = e.recovery.retryAfterMs;
      if (ms === undefined || ms === null) {
        return undefined;
      }
      finite(leaf.path, ms);
      return ms;
    }
    case "group": {
      const r = received(e, "group");
      const g = typeof r === "string" && r !== "" ? r : lookup(e.kind).group;
      return leaf.optional === true && g === "" ? undefined : g;
    }
    case "retryable":
    case "may_have_run": {
      const v = leaf.source === "retryable" ? isRetryable(e) : workMayHaveRun(e);
      // An optional flag is written when it was received (a received false
      // as well, so it survives a round trip) or computes true.
      return leaf.optional === true && !v && typeof received(e, leaf.source) !== "boolean" ? undefined : v;
    }
    case "const":
      return leaf.value;
    case "field": {
      const member = leaf.field ?? leaf.name;
      const spec = FIELDS[member];
      const v = hasOwn(e, member) ? (e as unknown as Record<string, unknown>)[member] : undefined;
      if (leaf.required === true && (typeof v !== "string" || v === "")) {
        // The layout requires it: an envelope without it is not one the
        // contract's systems accept, so it is not serialized.
        throw new RangeError("cannot serialize " + leaf.path + ": the layout requires it, and it is " + (v === "" ? "empty" : "missing"));
      }
      if (spec === undefined || v === undefined || v === null || (spec.type === "string" && v === "")) {
        return undefined;
      }
      if (leaf.optional === true && Array.isArray(v) && v.length === 0) {
        // An array the layout marks optional is left out when empty.
        return undefined;
      }
      return encodeValue(spec, v, leaf.path);
    }
  }
}

/** compareKeys orders keys by code point, as Go sorts strings by their UTF-8 bytes. */
export function compareKeys(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) {
      return x[i]! - y[i]!;
    }
  }
  return x.length - y.length;
}

const objectPaths: readonly string[] = (() => {
  const out: string[] = [];
  const walk = (o: LayoutObject): void => {
    out.push(o.path);
    for (const m of o.members) {
      if (m.object !== undefined) walk(m.object);
    }
  };
  walk(LAYOUT);
  return out;
})();

/** placeExtra splits an extra key into the object it belongs in (the longest object path of the layout that prefixes it) and its member name there. */
export function placeExtra(k: string): [string, string] {
  let best = "";
  for (const p of objectPaths) {
    if (p !== "" && p.length > best.length && k.startsWith(p + ".")) {
      best = p;
    }
  }
  return best === "" ? ["", k] : [best, k.slice(best.length + 1)];
}

/**
 * extraLimitsError returns the error of an extra entry whose value, placed
 * where its key places it (placeExtra), goes past the limits every decoder
 * shares, as the encoder checks it: undefined when it can be written.
 */
export function extraLimitsError(k: string, v: unknown): DecodeError | undefined {
  const [path] = placeExtra(k);
  return limitsError(v, path === "" ? 1 : 2 + path.split(".").length - 1);
}

function encodeObject(o: LayoutObject, e: Envelope, extraKeys: readonly string[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const m of o.members) {
    const name = m.object !== undefined ? m.object.name : m.leaf.name;
    const v = m.object !== undefined ? encodeObject(m.object, e, extraKeys) : leafValue(m.leaf, e);
    if (v !== undefined) {
      setOwn(out, name, v);
      n++;
    }
  }
  for (const k of extraKeys) {
    const [path, name] = placeExtra(k);
    if (path === o.path && !o.owned.includes(name)) {
      // The entry sits in o and the objects around it.
      writable(k, e.extra![k], o.path === "" ? 1 : o.path.split(".").length + 1);
      setOwn(out, name, e.extra![k]);
      n++;
    }
  }
  return n === 0 && !o.required ? undefined : out;
}

/**
 * toWire returns the envelope in the contract's wire layout, as a plain JSON
 * value: the layout's fields in order, absent optional fields left out, then
 * extra entries sorted by key, skipping any that would override a field of
 * the contract. It throws a RangeError for a number JSON cannot carry (NaN,
 * an infinity), as the Go encoder fails, and refuses what no decoder would
 * read back: a TypeError for an empty kind, a RangeError for a retry hint
 * that is not an integer from 0 to Number.MAX_SAFE_INTEGER, for an integer
 * field past ±Number.MAX_SAFE_INTEGER, for a value nested deeper than
 * MAX_DEPTH or for a context field the layout requires that is missing or
 * empty.
 */
export function toWire(envelope: Envelope): Record<string, unknown> {
  // Refused, as Go's AppendJSON refuses them: no decoder reads them back.
  if (typeof envelope.kind !== "string" || envelope.kind === "") {
    throw new TypeError("cannot serialize the envelope: its kind is empty");
  }
  const hint = envelope.recovery?.retryAfterMs;
  if (hint !== undefined && hint !== null && !(isInteger(hint) && hint >= 0)) {
    throw new RangeError("cannot serialize the envelope: its retry hint " + String(hint) + " is not an integer from 0 to Number.MAX_SAFE_INTEGER");
  }
  const extra = envelope.extra;
  const keys = extra === undefined || extra === null ? [] : Object.keys(extra).filter((k) => extra[k] !== undefined).sort(compareKeys);
  return encodeObject(LAYOUT, envelope, keys) ?? {};
}

/** LONE_ESCAPE finds a \u escape of a surrogate that JSON.stringify wrote (it writes a lone one so, and a pair as it is) after an even run of backslashes. */
const LONE_ESCAPE = /(?<=(?:^|[^\\])(?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/**
 * goJson is JSON.stringify's text as the Go encoder writes it: U+2028 and
 * U+2029 escaped, and a lone surrogate, which is not well-formed text, as
 * the escape \ufffd (the Go encoder writes a byte that is not UTF-8 so), so
 * every writer's output is well-formed and reads back as U+FFFD.
 */
export function goJson(text: string): string {
  const t = text.replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
  return t.includes("\\ud") ? t.replace(LONE_ESCAPE, "\\ufffd") : t;
}

/**
 * serializeEnvelope returns the envelope's JSON text in the contract's wire
 * layout (see toWire). Like the Go encoder it escapes U+2028 and U+2029,
 * writes a lone surrogate as \ufffd (goJson), and it throws a RangeError for a number JSON cannot carry or a missing or
 * empty context field the layout requires.
 */
export function serializeEnvelope(envelope: Envelope): string {
  const text = JSON.stringify(toWire(envelope), (key, value: unknown) => {
    finite(key, value);
    return value;
  });
  return goJson(text);
}
