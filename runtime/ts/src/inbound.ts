// The rule engine of the inbound classifiers: the same for every contract,
// driven by the contract's INBOUND table.

import type { Kind } from "./contract.js";
import type { ClassifierSpec, Failure, RuleSpec } from "./spec.js";
import { asciiLower, hasWord } from "./words.js";

/**
 * Upstream describes a failed upstream call for a classifier: the HTTP status
 * it answered with (0 or absent when none), the transport failure (absent
 * when a response arrived) and the upstream's error text, if any.
 */
export interface Upstream {
  status?: number | undefined;
  failure?: Failure | (string & {}) | undefined;
  text?: string | undefined;
}

/**
 * Classified is a classifier's answer: the kind, whether the failure counts
 * toward the upstream's circuit breaker, and which rule matched (counting
 * from 1; 0 for the classifier's default).
 */
export interface Classified {
  readonly kind: Kind;
  readonly countsTowardBreaker: boolean;
  readonly rule: number;
}

function ruleMatches(r: RuleSpec, status: number, failure: string, text: () => string): boolean {
  if (r.statuses.length > 0 && !r.statuses.some(([from, to]) => status >= from && status <= to)) {
    return false;
  }
  if (r.anyFailure) {
    if (failure === "") {
      return false;
    }
  } else if (r.failures.length > 0 && !r.failures.includes(failure)) {
    return false;
  }
  return r.text.length === 0 || hasWord(text(), r.text);
}

/** classifyWith runs one classifier over an upstream failure: the first rule whose conditions all hold wins, else the default. */
export function classifyWith(spec: ClassifierSpec, upstream: Upstream): Classified {
  const status = upstream.status ?? 0;
  const failure = upstream.failure ?? "";
  let lower: string | undefined;
  const text = (): string => (lower ??= asciiLower(upstream.text ?? ""));
  for (let i = 0; i < spec.rules.length; i++) {
    const r = spec.rules[i]!;
    if (ruleMatches(r, status, failure, text)) {
      return { kind: r.kind, countsTowardBreaker: r.breaker, rule: i + 1 };
    }
  }
  return { kind: spec.default, countsTowardBreaker: spec.defaultBreaker, rule: 0 };
}
