// The agent's decision procedure (docs/agents.md is its specification). It
// computes exactly what the Go package's NextStep does, in whole
// milliseconds and double-precision arithmetic.

import { RETRY, type Envelope } from "./contract.js";
import { isRetryable, received, stepOf, workMayHaveRun } from "./classification.js";
import type { Step } from "./spec.js";

/** Decision is what an agent does after an attempt failed with an envelope. */
export interface Decision {
  readonly step: Step;
  /**
   * delayMinMs and delayMaxMs bound the wait before a retry: wait a duration
   * drawn uniformly between them (they are equal when the envelope carried a
   * retry hint). Zero for other steps.
   */
  readonly delayMinMs: number;
  readonly delayMaxMs: number;
  /** True when work may already have run: before repeating a write, confirm what the failed attempt did. */
  readonly checkStateFirst: boolean;
  /** True when the step would have been a retry but the attempts ran out or same_arguments forbids repeating the call; step is then escalate. */
  readonly exhausted: boolean;
}

/**
 * nextStep decides what to do after attempt number attempt (counting from 1)
 * failed with the envelope. The step comes from the envelope's recovery
 * action. A retry is taken only while same_arguments permits repeating the
 * identical call and fewer than RETRY.maxAttempts attempts were made;
 * otherwise the agent escalates. The wait is the envelope's retry hint when
 * present, else min(maxMs, initialMs × multiplier^(attempt−1)) in whole
 * milliseconds with up to RETRY.jitter of it shaved off.
 */
export function nextStep(envelope: Envelope, attempt: number): Decision {
  // A retryable flag received on the wire wins over the advice: true means
  // retry (ovstorage's decision tree asks it first), whatever the kind.
  const step = received(envelope, "retryable") === true ? "retry" : stepOf(envelope.recovery.action);
  const checkStateFirst = workMayHaveRun(envelope);
  if (step !== "retry") {
    return { step, delayMinMs: 0, delayMaxMs: 0, checkStateFirst, exhausted: false };
  }
  if (!isRetryable(envelope) || attempt >= RETRY.maxAttempts) {
    return { step: "escalate", delayMinMs: 0, delayMaxMs: 0, checkStateFirst, exhausted: true };
  }
  const hint = envelope.recovery.retryAfterMs;
  if (hint !== undefined && hint !== null) {
    // Saturated at RETRY.maxHintMs, as Go's NextStep does: a hint beyond
    // it (2^63 − 1 ms from a hostile upstream) waits the maximum.
    const ms = Math.min(Math.max(hint, 0), RETRY.maxHintMs);
    return { step, delayMinMs: ms, delayMaxMs: ms, checkStateFirst, exhausted: false };
  }
  let base = RETRY.initialMs * Math.pow(RETRY.multiplier, Math.max(attempt, 1) - 1);
  base = Math.min(base, RETRY.maxMs);
  return { step, delayMinMs: Math.floor(base * (1 - RETRY.jitter)), delayMaxMs: Math.floor(base), checkStateFirst, exhausted: false };
}
