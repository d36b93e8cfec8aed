//! The questions an envelope answers and the builders every constructor
//! shares; they read the contract's tables (src/contract.rs). The same for
//! every contract.

use std::borrow::Cow;

use serde_json::Value;

use crate::contract::{
    classification_of, Kind, SameArguments, SideEffects, FILLS_GUIDANCE, RETRY, SANITIZES_GUIDANCE,
    SANITIZES_MESSAGE,
};
use crate::envelope::Envelope;
use crate::spec::{Classification, LogLevel, Step, ToolAnnotations};

/// The contract's classification of kind, as the Go package's Lookup: a
/// kind the contract lists gets its own, borrowed without allocating; any
/// other gets the fallback (FALLBACK) with its kind and its ErrorInfo
/// reason (Kind::reason) filled in.
pub fn lookup(kind: &Kind) -> Cow<'static, Classification> {
    let c = classification_of(kind);
    if c.known {
        return Cow::Borrowed(c);
    }
    Cow::Owned(Classification {
        kind: Cow::Owned(kind.as_str().to_owned()),
        reason: kind.reason(),
        ..c.clone()
    })
}

/// Reports whether text has nothing a reader could see: empty, or only
/// white space and invisible format characters (spelled out so every
/// language's package agrees).
pub(crate) fn blank(text: &str) -> bool {
    text.chars().all(|r| {
        matches!(r as u32, 0x09..=0x0D | 0x20 | 0x85 | 0xA0 | 0xAD | 0x1680 | 0x180E | 0x2000..=0x200F | 0x2028..=0x202F | 0x205F..=0x2064 | 0x3000 | 0xFEFF)
    })
}

/// The message a constructor puts into an envelope: the one given unless it
/// is blank, else the kind's description, else the kind itself. A message
/// stays useful when a client drops every other field.
fn message_or(kind: &Kind, message: String) -> String {
    if !blank(&message) {
        return message;
    }
    let d = classification_of(kind).description;
    if !d.is_empty() {
        return d.to_owned();
    }
    kind.as_str().to_owned()
}

impl Envelope {
    /// A new envelope of kind with the defaults of its classification, the
    /// message sanitized when sanitize is set and the contract sanitizes it.
    pub(crate) fn init(kind: Kind, message: &str, sanitize: bool) -> Envelope {
        let message = if sanitize && SANITIZES_MESSAGE {
            crate::contract::sanitize(message).into_owned()
        } else {
            message.to_owned()
        };
        let c = classification_of(&kind);
        let mut e = Envelope::zero();
        e.contract_version = crate::contract::version();
        e.message = message_or(&kind, message);
        e.origin = c.origin.clone();
        e.recovery.action = c.action.clone();
        e.recovery.same_arguments = c.same_arguments.clone();
        if FILLS_GUIDANCE {
            e.recovery.guidance = c.guidance.to_owned();
        }
        e.side_effects = c.side_effects.clone();
        e.kind = kind;
        e
    }

    /// The contract's classification of the envelope's kind (lookup).
    pub fn classification(&self) -> Cow<'static, Classification> {
        lookup(&self.kind)
    }

    /// The status an HTTP surface answers with for this envelope's kind.
    pub fn http_status(&self) -> u16 {
        classification_of(&self.kind).http_status
    }

    /// The level to log this failure at.
    pub fn log_level(&self) -> LogLevel {
        classification_of(&self.kind).log_level
    }

    /// Whether the failure is a transport failure that counts toward the
    /// upstream's circuit breaker.
    pub fn counts_toward_breaker(&self) -> bool {
        classification_of(&self.kind).breaker
    }

    /// Whether the kind is raised while starting up rather than returned as
    /// an operation's result.
    pub fn is_startup_failure(&self) -> bool {
        classification_of(&self.kind).startup
    }

    /// Whether the envelope's own advice permits an automatic retry of the
    /// identical call: a retry action with a same_arguments value that
    /// permits repeating it. A derived retryable flag received on the wire
    /// wins.
    pub fn is_retryable(&self) -> bool {
        if let Some(r) = self.received_retryable() {
            return r;
        }
        self.recovery.action.step() == Step::Retry && self.recovery.same_arguments.permits_retry()
    }

    /// Whether work may already have run before the failure, judged from the
    /// envelope's side_effects (a derived flag received on the wire wins):
    /// check state before repeating a write.
    pub fn work_may_have_run(&self) -> bool {
        if let Some(r) = self.received_may_have_run() {
            return r;
        }
        self.side_effects.may_have_run()
    }

    /// Sets the retry hint in milliseconds, clamped to the contract's
    /// longest hint (RETRY.max_hint_ms). A negative hint is refused: the
    /// envelope keeps the hint it had.
    #[must_use]
    pub fn with_retry_after(mut self, d: std::time::Duration) -> Envelope {
        let ms = (d.as_nanos() + 999_999) / 1_000_000;
        let max = RETRY.max_hint_ms as u128;
        self.recovery.retry_after_ms = Some(ms.min(max) as i64);
        self
    }

    /// Sets the retry hint in whole milliseconds (see with_retry_after); a
    /// negative hint is refused and the envelope keeps the hint it had.
    #[must_use]
    pub fn with_retry_after_ms(mut self, ms: i64) -> Envelope {
        if ms >= 0 {
            self.recovery.retry_after_ms = Some(ms.min(RETRY.max_hint_ms));
        }
        self
    }

    /// Replaces the contract's default guidance with advice specific to this
    /// failure (sanitized when the contract sanitizes guidance). Blank
    /// guidance brings back the contract's (or none, where the layout
    /// carries only the producer's own).
    #[must_use]
    pub fn with_guidance(mut self, guidance: &str) -> Envelope {
        let g = if SANITIZES_GUIDANCE {
            crate::contract::sanitize(guidance).into_owned()
        } else {
            guidance.to_owned()
        };
        self.recovery.guidance = if blank(&g) {
            if FILLS_GUIDANCE {
                classification_of(&self.kind).guidance.to_owned()
            } else {
                String::new()
            }
        } else {
            g
        };
        self
    }

    /// Overrides the kind's default side-effect certainty when the producer
    /// knows better.
    #[must_use]
    pub fn with_side_effects(mut self, v: SideEffects) -> Envelope {
        self.side_effects = v;
        self
    }

    /// Adds a member the contract does not name, keyed by its path ("name"
    /// at the top level, "object.name" inside a nested object). A field of
    /// the contract always wins over it when the envelope is encoded. The
    /// strings of the value are sanitized (however deep; the members' names
    /// are kept), as the log form sanitizes them; inserting into extra
    /// directly keeps the value as it is, for text the program wrote itself.
    #[must_use]
    pub fn with_extra(mut self, key: &str, mut value: Value) -> Envelope {
        crate::codec::sanitize_json_value(&mut value, 0);
        self.extra.insert(key.to_owned(), value);
        self
    }

    /// Applies for_tool to the envelope's same_arguments advice.
    #[must_use]
    pub fn with_tool_annotations(mut self, a: ToolAnnotations) -> Envelope {
        self.recovery.same_arguments = self.recovery.same_arguments.for_tool(a);
        self
    }
}

impl SameArguments {
    /// The same_arguments advice for a tool with the given MCP annotations:
    /// repeating a call to a tool marked read-only or idempotent cannot
    /// repeat a side effect, so the contract may relax the advice.
    pub fn for_tool(&self, a: ToolAnnotations) -> SameArguments {
        if a.read_only_hint == Some(true) || a.idempotent_hint == Some(true) {
            return self.upgrade();
        }
        self.clone()
    }
}

/// The same_arguments advice for a tool with the given MCP annotations
/// (SameArguments::for_tool).
pub fn for_tool(same_arguments: &SameArguments, a: ToolAnnotations) -> SameArguments {
    same_arguments.for_tool(a)
}

impl std::error::Error for Envelope {}
