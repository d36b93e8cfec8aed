//! The agent's decision procedure (docs/agents.md is its specification):
//! exactly what the Go package's NextStep computes, in whole milliseconds
//! and double-precision arithmetic. The same for every contract.

use crate::contract::RETRY;
use crate::envelope::Envelope;
use crate::spec::{Decision, Step};

/// Decides what to do after attempt number attempt (counting from 1)
/// failed with the envelope. The step comes from the recovery action; a
/// retry is taken only while same_arguments permits repeating the identical
/// call and fewer than RETRY.max_attempts attempts were made, otherwise the
/// agent escalates. The wait is the retry hint when present (at most
/// RETRY.max_hint_ms), else min(max_ms, initial_ms × multiplier^(attempt−1))
/// with up to RETRY.jitter of it shaved off.
pub fn next_step(e: &Envelope, attempt: i64) -> Decision {
    // A retryable flag received on the wire wins over the advice: true
    // means retry (ovstorage's decision tree asks it first), whatever the
    // kind.
    let mut d = Decision {
        step: if e.received_retryable() == Some(true) {
            Step::Retry
        } else {
            e.recovery.action.step()
        },
        delay_min_ms: 0,
        delay_max_ms: 0,
        check_state_first: e.work_may_have_run(),
        exhausted: false,
    };
    if d.step != Step::Retry {
        return d;
    }
    if !e.is_retryable() || attempt >= RETRY.max_attempts {
        d.step = Step::Escalate;
        d.exhausted = true;
        return d;
    }
    if let Some(ms) = e.recovery.retry_after_ms {
        d.delay_min_ms = ms.clamp(0, RETRY.max_hint_ms);
        d.delay_max_ms = d.delay_min_ms;
        return d;
    }
    let base = (RETRY.initial_ms as f64 * RETRY.multiplier.powf((attempt.max(1) - 1) as f64))
        .min(RETRY.max_ms as f64);
    d.delay_max_ms = base.floor() as i64;
    d.delay_min_ms = (base * (1.0 - RETRY.jitter)).floor() as i64;
    d
}

impl Envelope {
    /// next_step of this envelope.
    pub fn next_step(&self, attempt: i64) -> Decision {
        next_step(self, attempt)
    }
}
