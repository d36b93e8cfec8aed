// The types of the data tables the generated contract module holds. The
// runtime (codec, classifiers, nextStep, surfaces) is the same for every
// contract and reads the contract only through these tables.

/** Source is what a wire field carries. */
export type Source =
  | "version"
  | "kind"
  | "message"
  | "origin"
  | "action"
  | "same_arguments"
  | "guidance"
  | "retry_after_ms"
  | "side_effects"
  | "group"
  | "retryable"
  | "may_have_run"
  | "const"
  | "field";

/** LayoutLeaf is one wire field of the envelope. */
export interface LayoutLeaf {
  /** The member name in its object. */
  readonly name: string;
  /** The dotted path from the root. */
  readonly path: string;
  readonly source: Source;
  /**
   * An optional leaf is left out when empty (a derived flag when false). An
   * optional guidance leaf carries only advice the producer gives: new
   * envelopes start without guidance (see FILLS_GUIDANCE).
   */
  readonly optional?: boolean;
  /** Set on a context field the layout requires: every envelope carries it as a non-empty string. */
  readonly required?: boolean;
  /** Other spellings accepted when parsing, never written. */
  readonly aliases?: readonly string[];
  /** For a derived source: the member of Envelope.received that keeps the value as received. */
  readonly received?: string;
  /** For a context or kind-specific field: its Envelope member (see FIELDS). */
  readonly field?: string;
  /** For a constant: its value, and how a parse error states it. */
  readonly value?: string | number | boolean;
  readonly want?: string;
}

/** LayoutObject is one JSON object of the envelope. */
export interface LayoutObject {
  readonly name: string;
  readonly path: string;
  /** A required object is on the wire in every envelope. */
  readonly required: boolean;
  /** The member names the contract owns here, spellings accepted on input included. */
  readonly owned: readonly string[];
  readonly members: readonly LayoutMember[];
}

/** LayoutMember is a leaf or a nested object. */
export type LayoutMember = { readonly leaf: LayoutLeaf; readonly object?: undefined } | { readonly object: LayoutObject; readonly leaf?: undefined };

/** FieldType is the JSON type of a context or kind-specific field. */
export type FieldType = "string" | "integer" | "number" | "boolean" | "object" | "array";

/** FieldSpec describes a context or kind-specific field, or a property of an object field. */
export interface FieldSpec {
  /** The camelCase member of the TypeScript value. */
  readonly member: string;
  /** The name on the wire. */
  readonly name: string;
  readonly type: FieldType;
  /** The element type of an array. */
  readonly items?: FieldType;
  /** For a property of an object field: whether it is required. */
  readonly required?: boolean;
  /** The typed properties of an object field; absent when it is free-form. */
  readonly properties?: readonly FieldSpec[];
}

/** RuleSpec is one classifier rule: every condition it states must hold. */
export interface RuleSpec {
  /** Inclusive status ranges; empty when the rule does not look at the status. */
  readonly statuses: readonly (readonly [number, number])[];
  /** Transport failures; empty when the rule does not look at the failure (unless anyFailure). */
  readonly failures: readonly string[];
  /** Matches any transport failure. */
  readonly anyFailure: boolean;
  /** Phrases matched as whole words of the lower-cased text; empty when the rule does not look at the text. */
  readonly text: readonly string[];
  readonly kind: string;
  readonly breaker: boolean;
}

/** ClassifierSpec is one ordered rule list with its default. */
export interface ClassifierSpec {
  readonly name: string;
  readonly rules: readonly RuleSpec[];
  readonly default: string;
  readonly defaultBreaker: boolean;
}

/** InboundSpec is the contract's classification of upstream failures. */
export interface InboundSpec {
  /** The kind of a completed tool result flagged as an error; null when the contract names none. */
  readonly toolResult: string | null;
  readonly classifiers: readonly ClassifierSpec[];
}

/**
 * ShortFormSpec is labby's short form of an error body, {"kind": ...,
 * "message": ...}, as fromHttpResponse accepts it: the members it carries,
 * the pattern and the bound in bytes the kind must meet, and, by kind, the
 * Envelope members of required fields a promoted envelope carries empty (an
 * array [] or an object {}), as the kind's constructor does when given none.
 */
export interface ShortFormSpec {
  readonly kindMember: string;
  readonly messageMember: string;
  readonly kindPattern: string;
  readonly maxKindBytes: number;
  readonly emptyFields: { readonly [kind: string]: { readonly [member: string]: "array" | "object" } };
}

/** RetryPolicy is the backoff for a retry without a retry hint. */
export interface RetryPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly multiplier: number;
  /** The fraction of a delay that may be shaved off at random. */
  readonly jitter: number;
  /** How many attempts an agent makes in all before escalating. */
  readonly maxAttempts: number;
  /**
   * The longest retry hint, in milliseconds: producers clamp a longer one to
   * it, and nextStep never waits longer, however large the hint received.
   */
  readonly maxHintMs: number;
}

/** Step is what an agent does next after a failure; every recovery action maps onto one. */
export type Step =
  | "retry"
  | "revise"
  | "reauthenticate"
  | "confirm"
  | "rediscover"
  | "reduce_work"
  | "start_dependency"
  | "escalate"
  | "stop";

/** STEPS lists every step in documentation order. */
export const STEPS: readonly Step[] = Object.freeze(["retry", "revise", "reauthenticate", "confirm", "rediscover", "reduce_work", "start_dependency", "escalate", "stop"] as const);

/** Failure is a transport failure: the upstream call ended without a response. */
export type Failure =
  | "timeout"
  | "dns"
  | "connection_refused"
  | "connection_reset"
  | "tls"
  | "redirect_blocked"
  | "cancelled"
  | "response_too_large"
  | "malformed_response";

/** FAILURES lists every transport failure in documentation order. */
export const FAILURES: readonly Failure[] = Object.freeze(["timeout", "dns", "connection_refused", "connection_reset", "tls", "redirect_blocked", "cancelled", "response_too_large", "malformed_response"] as const);

/** LogLevel is the level to log a failure at. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** SecretChars names the character class of a secret shape; every class is ASCII. */
export type SecretChars = "alnum" | "upper_alnum" | "lower_alnum" | "hex" | "base64url" | "base64" | "word" | "token";

/** SecretSpec is a contract-declared secret shape: a prefix, then at least minLength characters of chars. The whole run is redacted. */
export interface SecretSpec {
  readonly name: string;
  readonly prefixes: readonly string[];
  readonly chars: SecretChars;
  readonly minLength: number;
}

/**
 * AipLeaf is one leaf of the layout as the google.rpc mapping reads an
 * envelope back (AIP_LEAVES): its path and where its value comes from: a
 * metadata entry (key; text when the entry is the text itself rather than
 * compact JSON), the kind, the message, the retry hint, or a constant (raw,
 * its JSON).
 */
export interface AipLeaf {
  readonly path: string;
  readonly src: "meta" | "kind" | "message" | "retry" | "const";
  readonly key?: string;
  readonly text?: boolean;
  readonly raw?: string;
}

/**
 * AipOffWire is a value of the envelope the layout does not carry
 * (AIP_OFF_WIRE): the google.rpc mapping writes it into the ErrorInfo
 * metadata under key and sets it back from there.
 */
export interface AipOffWire {
  readonly key: string;
  readonly source: "version" | "origin" | "action" | "same_arguments" | "guidance" | "side_effects";
}

/**
 * CallErrorSpec is the contract's call_error section: the members a call
 * error carries in order, the origin and kind of a completed tool result,
 * the kinds it canonicalises, how the tool is named, the message of a
 * result without text, the safety hints ([member, MCP annotation]) and the
 * caps on its evidence.
 */
export interface CallErrorSpec {
  readonly version: number;
  readonly members: readonly string[];
  readonly origin: string;
  readonly resultKind: string;
  readonly canonical: { readonly [kind: string]: string };
  readonly separator: string;
  readonly defaultMessage: string;
  readonly hints: readonly (readonly string[])[];
  readonly maxBlocks: number;
  readonly maxText: number;
  readonly maxResource: number;
  readonly binary: readonly string[];
}
