// Type-level tests, the same for every generated package: this file must
// compile with `tsc --noEmit --strict` against the package's declarations,
// and every line marked @ts-expect-error must be a type error. run.mjs
// points its "../dist/index.js" at each package's shipped dist/index.js.
import * as pkg from "../dist/index.js";
import {
  CLASSIFICATIONS,
  FALLBACK,
  KNOWN_KINDS,
  LAYOUT,
  RETRY,
  SANITIZED_FIELDS,
  SANITIZE_MARKERS,
  SANITIZE_MAX_LENGTH,
  SANITIZE_SECRETS,
  SANITIZE_TRUNCATION_MARKER,
  fromAip193,
  fromHttpResponse,
  fromMcpToolResult,
  isRetryable,
  lookup,
  newEnvelope,
  nextStep,
  parseEnvelope,
  sanitize,
  sanitizeMax,
  serializeEnvelope,
  rpcStatus,
  toAip193,
  toMcpToolResult,
  toWire,
  withFields,
  type Classification,
  type Decision,
  type Envelope,
  type EnvelopeFields,
  type SanitizeOptions,
  type SecretSpec,
  type Kind,
  type KnownKind,
  type Origin,
  type ParseResult,
  type RpcStatus,
  type RecoveryAction,
  type SameArguments,
  type SideEffects,
  type Step,
} from "../dist/index.js";

// Kind is open: any string is a Kind, while KnownKind is closed.
const anyKind: Kind = "kind_from_a_newer_contract";
const known: KnownKind = KNOWN_KINDS[0]!;
// @ts-expect-error: a string that is not a kind of the contract is not a KnownKind
const notKnown: KnownKind = "kind_from_a_newer_contract";

// The closed vocabularies are string-literal unions.
// @ts-expect-error: not an origin
const badOrigin: Origin = "origin_nobody_defined";
// @ts-expect-error: not a recovery action
const badAction: RecoveryAction = "action_nobody_defined";
// @ts-expect-error: not a same_arguments value
const badSame: SameArguments = "same_nobody_defined";
// @ts-expect-error: not a side_effects value
const badSide: SideEffects = "side_nobody_defined";
// @ts-expect-error: not a step
const badStep: Step = "jump";
const step: Step = "escalate";

// parseEnvelope takes anything and returns a discriminated result.
const r: ParseResult = parseEnvelope(JSON.parse("{}") as unknown);
if (r.ok) {
  const env: Envelope = r.envelope;
  const k: Kind = env.kind;
  const ms: number | undefined = env.recovery.retryAfterMs;
  // @ts-expect-error: no error on a successful result
  r.error;
  void [k, ms];
} else {
  const path: string = r.error.path;
  const problem: string = r.error.problem;
  // @ts-expect-error: no envelope on a failed result
  r.envelope;
  void [path, problem];
}
// @ts-expect-error: parseEnvelope needs an input
parseEnvelope();
// Every reader sanitizes; { raw: true } keeps the text as sent.
const rawRead: pkg.ParseResult = pkg.parseEnvelopeJson("{}", { raw: true });
const rawOptions: pkg.ReadOptions = { raw: false };
void [rawRead, parseEnvelope({}, rawOptions)];
// @ts-expect-error: raw is a boolean
parseEnvelope({}, { raw: "yes" });

// newEnvelope takes the context the contract's layout requires (ovstorage:
// operation) after the message, before the options: strings only.
type ContextArgs = Parameters<typeof newEnvelope> extends [unknown, unknown, ...infer Rest] ? (Required<Rest> extends [...infer C, unknown] ? C : never) : never;
type ContextIsText = ContextArgs extends readonly string[] ? true : false;
const contextIsText: ContextIsText = true;
declare const ctx: ContextArgs;

// Envelopes: constructed, serialized, classified.
const env = newEnvelope(anyKind, "message", ...ctx);
// @ts-expect-error: the message is a string
newEnvelope(known, 42, ...ctx);
// @ts-expect-error: the retry hint is a number of milliseconds
env.recovery.retryAfterMs = "1500";
env.recovery.retryAfterMs = 1500;
const wire: Record<string, unknown> = toWire(env);
const text: string = serializeEnvelope(env);
const c: Classification = lookup(env.kind);
const status: number = c.httpStatus;
const retry: boolean = isRetryable(env);
// @ts-expect-error: the classification tables are read-only
CLASSIFICATIONS[known].httpStatus = 200;
// @ts-expect-error: so is the fallback
FALLBACK.origin = FALLBACK.origin;
// @ts-expect-error: and the layout
LAYOUT.members = [];
// @ts-expect-error: and the retry policy
RETRY.maxAttempts = 99;
// @ts-expect-error: and the kind list
KNOWN_KINDS.push(known);
const classifiedKind: KnownKind = CLASSIFICATIONS[known].kind;

// The google.rpc mapping: a classification's gRPC code and reason, the
// AIP-193 text and its reading, the status field by field.
const grpc: [number, string, string] = [c.grpcCode, c.grpcStatus, c.reason];
const aip: string = toAip193(env);
const aipBack: ParseResult = fromAip193(new Uint8Array(0));
const rpc: RpcStatus = rpcStatus(env);
// @ts-expect-error: a status is read-only
rpc.message = "x";

// nextStep needs the attempt number.
const d: Decision = nextStep(env, 1);
const wait: number = d.delayMaxMs - d.delayMinMs;
// @ts-expect-error: the attempt is required
nextStep(env);
// @ts-expect-error: a decision is read-only
d.step = "retry";

// Surfaces.
const mcp = toMcpToolResult(env);
const isError: true = mcp.isError;
const back: ParseResult = fromMcpToolResult(mcp);
// Call errors: the wire object and its JSON text (CALL_ERROR is null for a contract without call_error).
const callError: pkg.CallError = pkg.toCallError(mcp, { upstream: "github", name: "create_issue", annotations: { readOnlyHint: true } });
const callText: string = pkg.callErrorText(callError);
const callSpec: pkg.CallErrorSpec | null = pkg.CALL_ERROR;
// @ts-expect-error: the tool is an object, not a name
pkg.toCallError(mcp, "github::create_issue");
declare const res: { status: number; headers: { get(name: string): string | null }; body: null };
const pending: Promise<{ ok: true; envelope: Envelope; classified: boolean } | { ok: false; error: { path: string; problem: string } }> = fromHttpResponse(res);
// @ts-expect-error: fromHttpResponse needs a response
fromHttpResponse({});
const promoted: string = pkg.promotedFrom(env);
const mark: "_promoted_from" = pkg.PROMOTED_MEMBER;
const shortForm: pkg.ShortFormSpec | null = pkg.SHORT_FORM;
// @ts-expect-error: the short form's table is read-only
if (pkg.SHORT_FORM !== null) pkg.SHORT_FORM.maxKindBytes = 1;

// The sanitizer and its policy.
const cleaned: string = sanitize("text");
const capped: string = sanitizeMax("text", 100);
// @ts-expect-error: sanitize takes a string
sanitize(42);
// @ts-expect-error: sanitizeMax needs a maximum
sanitizeMax("text");
const maxLength: number = SANITIZE_MAX_LENGTH;
const truncationMarker: string = SANITIZE_TRUNCATION_MARKER;
const sanitizedField: string | undefined = SANITIZED_FIELDS[0];
const secret: SecretSpec | undefined = SANITIZE_SECRETS[0];
// @ts-expect-error: the policy is read-only
SANITIZE_MARKERS.push("<x>");

// Constructors sanitize by default; { trusted: true } keeps trusted text.
const trusted: SanitizeOptions = { trusted: true };
const trustedEnv: Envelope = newEnvelope(anyKind, "message", ...ctx, trusted);
newEnvelope(anyKind, "message", ...ctx, { trusted: false });
newEnvelope(anyKind, "message", ...ctx, {});
// @ts-expect-error: trusted is a boolean
newEnvelope(anyKind, "message", ...ctx, { trusted: "yes" });
// @ts-expect-error: the options are an object
newEnvelope(anyKind, "message", ...ctx, true);

// withFields sets guidance and context or kind-specific fields on a copy.
const fields: EnvelopeFields = { guidance: "Try again." };
const withGuidance: Envelope = withFields(env, fields);
const typed: Envelope & { kind: "k" } = withFields({ ...env, kind: "k" as const }, { guidance: "x" }, { trusted: true });
// @ts-expect-error: the message is not an optional field
withFields(env, { message: "x" });
// @ts-expect-error: nor is the kind
withFields(env, { kind: "x" });
// @ts-expect-error: guidance is text
withFields(env, { guidance: 42 });

// Every per-kind constructor takes the message first and returns an Envelope
// whose kind is a known kind.
type Constructors = { [K in keyof typeof pkg as K extends `new${string}` ? (K extends "newEnvelope" ? never : K) : never]: (typeof pkg)[K] };
type AllConstruct = Constructors[keyof Constructors] extends (message: string, ...rest: never[]) => Envelope & { kind: KnownKind } ? true : false;
const allConstruct: AllConstruct = true;
// ... and takes the options last.
type LastParameter<F> = F extends (...args: infer A) => unknown ? (Required<A> extends [...unknown[], infer L] ? L : never) : never;
type AllTakeOptions = { [K in keyof Constructors]: SanitizeOptions extends LastParameter<Constructors[K]> ? true : false }[keyof Constructors];
const allTakeOptions: AllTakeOptions = true;

void [contextIsText, cleaned, capped, maxLength, truncationMarker, sanitizedField, secret, trustedEnv, withGuidance, typed, allTakeOptions];
void [grpc, aip, aipBack, callText, callSpec];
void [anyKind, notKnown, badOrigin, badAction, badSame, badSide, badStep, step, wire, text, status, retry, classifiedKind, wait, isError, back, pending, allConstruct];
