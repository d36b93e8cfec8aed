// The public API of the package.

export * from "./contract.js";
export * from "./constructors.js";
export type { AipLeaf, AipOffWire, CallErrorSpec, ClassifierSpec, FieldSpec, FieldType, Failure, InboundSpec, LayoutLeaf, LayoutMember, LayoutObject, LogLevel, RetryPolicy, RuleSpec, SecretChars, SecretSpec, ShortFormSpec, Source, Step } from "./spec.js";
export { FAILURES, STEPS } from "./spec.js";
export {
  classification,
  FILLS_GUIDANCE,
  countsTowardBreaker,
  exitCode,
  fallback,
  forTool,
  httpStatus,
  isKnownKind,
  isRetryable,
  isStartupFailure,
  kindByNumber,
  logLevel,
  lookup,
  mayHaveRun,
  permitsRetry,
  problemType,
  stepOf,
  withFields,
  withRetryAfter,
  withToolAnnotations,
  workMayHaveRun,
  type EnvelopeFields,
  type ToolAnnotations,
} from "./classification.js";
export { MAX_DEPTH, MAX_DOCUMENT_BYTES, formatDecodeError, parseEnvelope, parseEnvelopeJson, serializeEnvelope, toWire, type DecodeError, type DecodeErrorCategory, type DecodeOptions, type ParseResult, type ReadOptions } from "./codec.js";
export { callErrorText, toCallError, type CallError, type CallTool } from "./callerror.js";
export { classifyWith, type Classified, type Upstream } from "./inbound.js";
export { nextStep, type Decision } from "./nextstep.js";
export { sanitize, sanitizeMax, type SanitizeOptions } from "./sanitize.js";
export { asciiLower, hasWord } from "./words.js";
export {
  fromHttpResponse,
  fromMcpError,
  fromMcpToolResult,
  fromProblem,
  httpText,
  parseRetryAfter,
  PROMOTED_MEMBER,
  PROMOTED_SHORT_FORM,
  promotedFrom,
  mcpErrorCode,
  mcpErrorSchema,
  mcpOutputSchema,
  mcpUpstreamStructuredContent,
  toMcpError,
  toMcpErrorResponse,
  toMcpTextToolResult,
  toMcpToolResult,
  toMcpUpstreamToolResult,
  toProblem,
  type HttpReadResult,
  type HttpResponseLike,
  type McpErrorObject,
  type McpErrorResponse,
  type McpOutputSchema,
  type McpTextToolResult,
  type McpToolResult,
} from "./surfaces.js";
export {
  httpAnswer,
  parseProblemJson,
  prefersProblem,
  serializeProblem,
  toFetchResponse,
  writeHttp,
  type FetchRequestLike,
  type FetchResponseInit,
  type HttpAnswer,
  type NodeRequestLike,
  type NodeResponseLike,
} from "./serve.js";
export { cliLine, readCli, writeCli, type CliStream } from "./cli.js";
export { fromAip193, fromRpcStatus, rpcStatus, rpcStatusJson, toAip193, type RpcDuration, type RpcStatus } from "./aip193.js";
export { boundLogText, errorString, ErrorWithEnvelope, logFields, toError, type LogFields, type LogValue } from "./logging.js";
