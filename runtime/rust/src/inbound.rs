//! The rule engine of the inbound classifiers, driven by the contract's
//! classifier tables. The same for every contract.

use crate::spec::{Classified, ClassifierSpec, Rule, Upstream};
use crate::words::{ascii_lower, has_word};

fn matches(r: &Rule, u: &Upstream<'_>, lower: &mut Option<String>) -> bool {
    if !r.statuses.is_empty()
        && !r
            .statuses
            .iter()
            .any(|&(lo, hi)| lo <= u.status && u.status <= hi)
    {
        return false;
    }
    if r.any_failure {
        if u.failure.is_none() {
            return false;
        }
    } else if !r.failures.is_empty() && !u.failure.is_some_and(|f| r.failures.contains(&f)) {
        return false;
    }
    if r.text.is_empty() {
        return true;
    }
    let text = lower.get_or_insert_with(|| ascii_lower(u.text).into_owned());
    has_word(text, r.text)
}

/// Runs one classifier over an upstream failure: the first rule whose
/// conditions all hold wins, else the classifier's default.
pub(crate) fn classify_with(spec: &ClassifierSpec, u: &Upstream<'_>) -> Classified {
    let mut lower = None;
    for (i, r) in spec.rules.iter().enumerate() {
        if matches(r, u, &mut lower) {
            return Classified {
                kind: r.kind.clone(),
                counts_toward_breaker: r.breaker,
                rule: i + 1,
            };
        }
    }
    Classified {
        kind: spec.default.clone(),
        counts_toward_breaker: spec.default_breaker,
        rule: 0,
    }
}
