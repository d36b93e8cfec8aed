//! The runtime's types: the same for every contract. The contract's tables
//! (src/contract.rs) are values of these types.

use std::borrow::Cow;

use crate::contract::{Group, Kind, Origin, RecoveryAction, SameArguments, SideEffects};

/// Step is what an agent does next after a failure; every recovery action
/// maps onto one. The set is errgen's own, the same for every contract, so
/// it is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Retry the identical call, after the decision's delay.
    Retry,
    /// Change the arguments, then call again.
    Revise,
    /// Obtain fresh credentials, then call again.
    Reauthenticate,
    /// Ask for the confirmation the action needs.
    Confirm,
    /// Look up what exists (actions, tools, resources) and call again.
    Rediscover,
    /// Ask for less work in one call.
    ReduceWork,
    /// Start the dependency that is not running.
    StartDependency,
    /// Hand the failure to a human or an operator.
    Escalate,
    /// Give up: the call cannot succeed.
    Stop,
}

impl Step {
    /// The step as the contract and the conformance vectors spell it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Step::Retry => "retry",
            Step::Revise => "revise",
            Step::Reauthenticate => "reauthenticate",
            Step::Confirm => "confirm",
            Step::Rediscover => "rediscover",
            Step::ReduceWork => "reduce_work",
            Step::StartDependency => "start_dependency",
            Step::Escalate => "escalate",
            Step::Stop => "stop",
        }
    }
}

impl core::fmt::Display for Step {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Failure is a transport failure: the upstream call ended without a
/// response. The set is errgen's own, so it is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Failure {
    /// The deadline passed.
    Timeout,
    /// The host name did not resolve.
    Dns,
    /// The host refused the connection.
    ConnectionRefused,
    /// The connection was reset.
    ConnectionReset,
    /// The TLS handshake failed.
    Tls,
    /// A redirect was refused.
    RedirectBlocked,
    /// The call was cancelled.
    Cancelled,
    /// The response was larger than allowed.
    ResponseTooLarge,
    /// The response could not be read.
    MalformedResponse,
}

impl Failure {
    /// Every failure, in errgen's order.
    pub const ALL: [Failure; 9] = [
        Failure::Timeout,
        Failure::Dns,
        Failure::ConnectionRefused,
        Failure::ConnectionReset,
        Failure::Tls,
        Failure::RedirectBlocked,
        Failure::Cancelled,
        Failure::ResponseTooLarge,
        Failure::MalformedResponse,
    ];

    /// The failure as the contract spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Failure::Timeout => "timeout",
            Failure::Dns => "dns",
            Failure::ConnectionRefused => "connection_refused",
            Failure::ConnectionReset => "connection_reset",
            Failure::Tls => "tls",
            Failure::RedirectBlocked => "redirect_blocked",
            Failure::Cancelled => "cancelled",
            Failure::ResponseTooLarge => "response_too_large",
            Failure::MalformedResponse => "malformed_response",
        }
    }

    /// The failure spelled s, or None.
    pub fn parse(s: &str) -> Option<Failure> {
        Failure::ALL.into_iter().find(|f| f.as_str() == s)
    }
}

/// LogLevel is the level a failure is logged at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LogLevel {
    /// Debug.
    Debug,
    /// Info.
    Info,
    /// Warn.
    Warn,
    /// Error.
    Error,
}

impl LogLevel {
    /// The level as the contract spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Warn => "warn",
            LogLevel::Error => "error",
        }
    }
}

/// Classification is everything the contract says about one kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Classification {
    /// The kind's name, as given to lookup for a kind the contract does not
    /// list; empty in the fallback itself (FALLBACK).
    pub kind: Cow<'static, str>,
    /// False when the kind is not in the contract and the fallback applies.
    pub known: bool,
    /// The kind's group; None for an unknown kind.
    pub group: Option<Group>,
    /// Where the failure comes from.
    pub origin: Origin,
    /// The recovery action the contract advises.
    pub action: RecoveryAction,
    /// Whether the identical call may be repeated.
    pub same_arguments: SameArguments,
    /// The contract's default advice for the caller.
    pub guidance: &'static str,
    /// Whether work may have run.
    pub side_effects: SideEffects,
    /// The status an HTTP surface answers with.
    pub http_status: u16,
    /// The level the failure is logged at.
    pub log_level: LogLevel,
    /// True for transport failures, which count toward an upstream's circuit breaker.
    pub breaker: bool,
    /// True when the action is a retry and same_arguments permits repeating the call.
    pub retryable: bool,
    /// The kind's description; empty in the fallback.
    pub description: &'static str,
    /// True for failures raised while starting up rather than returned as an operation's result.
    pub startup: bool,
    /// The kind's stable numeric code; -1 when the contract has none.
    pub number: i64,
    /// The canonical gRPC code (google.rpc.Code's number) the google.rpc mapping reports.
    pub grpc_code: i32,
    /// The gRPC code's name ("NOT_FOUND"): AIP-193's "status".
    pub grpc_status: &'static str,
    /// The kind's ErrorInfo reason (AIP-193): lookup computes it for a kind
    /// the contract does not list (Kind::reason); empty in the fallback
    /// itself.
    pub reason: Cow<'static, str>,
}

/// RetryPolicy is the backoff for a retry without a retry hint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RetryPolicy {
    /// The first delay, in milliseconds.
    pub initial_ms: i64,
    /// The longest delay, in milliseconds.
    pub max_ms: i64,
    /// How much the delay grows from one attempt to the next.
    pub multiplier: f64,
    /// The fraction of a delay that may be shaved off at random.
    pub jitter: f64,
    /// How many attempts an agent makes in all before escalating.
    pub max_attempts: i64,
    /// The longest retry hint, in milliseconds: producers clamp a longer
    /// one to it, and next_step never waits longer.
    pub max_hint_ms: i64,
}

/// Decision is what an agent does after an attempt failed with an envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The step to take.
    pub step: Step,
    /// The shortest wait before a retry, in milliseconds; zero for other steps.
    pub delay_min_ms: i64,
    /// The longest wait before a retry, in milliseconds (equal to
    /// delay_min_ms when the envelope carried a retry hint).
    pub delay_max_ms: i64,
    /// True when work may already have run: before repeating a write,
    /// confirm what the failed attempt did.
    pub check_state_first: bool,
    /// True when the step would have been a retry but the attempts ran out
    /// or same_arguments forbids repeating the call; step is then escalate.
    pub exhausted: bool,
}

/// Classified is a classifier's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classified {
    /// The kind the failure is.
    pub kind: Kind,
    /// Whether the failure counts toward the upstream's circuit breaker.
    pub counts_toward_breaker: bool,
    /// Which rule matched, from 1; 0 for the classifier's default.
    pub rule: usize,
}

/// Upstream is a failed call to an upstream, as the classifiers read it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Upstream<'a> {
    /// The HTTP status the upstream answered with; 0 when none.
    pub status: i64,
    /// The transport failure; None when a response arrived.
    pub failure: Option<Failure>,
    /// The upstream's error text.
    pub text: &'a str,
}

/// ToolAnnotations are the MCP hints of a tool that decide whether a call
/// to it may be repeated; None when the hint is absent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToolAnnotations {
    /// readOnlyHint.
    pub read_only_hint: Option<bool>,
    /// idempotentHint.
    pub idempotent_hint: Option<bool>,
}

/// One rule of an inbound classifier: every condition given must hold.
#[derive(Debug)]
#[allow(dead_code)] // a contract without inbound classifiers reads none
pub(crate) struct Rule {
    pub statuses: &'static [(i64, i64)],
    pub failures: &'static [Failure],
    pub any_failure: bool,
    pub text: &'static [&'static str],
    pub kind: Kind,
    pub breaker: bool,
}

/// An inbound classifier: its rules in order and its default.
#[derive(Debug)]
#[allow(dead_code)] // a contract without inbound classifiers reads none
pub(crate) struct ClassifierSpec {
    pub rules: &'static [Rule],
    pub default: Kind,
    pub default_breaker: bool,
}

/// What a wire field of the layout carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// Which variants and members a crate reads depends on its contract.
#[allow(dead_code)]
pub(crate) enum Source {
    Version,
    Kind,
    Message,
    Origin,
    Action,
    SameArguments,
    Guidance,
    RetryAfterMs,
    SideEffects,
    Group,
    Retryable,
    MayHaveRun,
    Const,
    Field,
}

/// A layout constant.
#[derive(Clone, Copy, Debug, PartialEq)]
// Which variants and members a crate reads depends on its contract.
#[allow(dead_code)]
pub(crate) enum Const {
    Str(&'static str),
    Int(i64),
    Float(f64),
    Bool(bool),
}

/// One wire field of the layout.
#[derive(Debug)]
pub(crate) struct Leaf {
    pub name: &'static str,
    pub path: &'static str,
    pub source: Source,
    pub optional: bool,
    /// A context field the layout requires.
    pub required: bool,
    pub aliases: &'static [&'static str],
    /// The envelope slot of a field or a derived value (see envelope.rs).
    pub slot: usize,
    pub value: Option<Const>,
    /// How a decode error states the constant.
    pub want: &'static str,
}

/// A member of a layout object.
#[derive(Debug)]
pub(crate) enum Member {
    Leaf(Leaf),
    Object(Object),
}

/// One JSON object of the layout.
#[derive(Debug)]
pub(crate) struct Object {
    pub name: &'static str,
    pub path: &'static str,
    pub required: bool,
    /// The member names (aliases included) the object's own layout claims.
    pub owned: &'static [&'static str],
    pub members: &'static [Member],
}

/// The JSON type of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// Which variants and members a crate reads depends on its contract.
#[allow(dead_code)]
pub(crate) enum FieldType {
    String,
    Integer,
    Number,
    Boolean,
    Array,
    Object,
}

/// A context or kind-specific field (or a property of an object field).
#[derive(Debug)]
// Which variants and members a crate reads depends on its contract.
#[allow(dead_code)]
pub(crate) struct FieldSpec {
    pub name: &'static str,
    pub typ: FieldType,
    pub items: Option<FieldType>,
    pub required: bool,
    pub properties: &'static [FieldSpec],
}
