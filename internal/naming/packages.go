package naming

// packageNames are the Package rows of the table: the names each generated
// package declares that a name made from the contract could take (see
// Package). They are kept apart from the language's own words only because
// they are long and follow the templates; TestPackageNamesAreComplete in
// internal/generate compares them with the generated code.
var packageNames = []struct {
	lang  Lang
	class Class
	words string
}{
	{Go, Package, `Classification Classified Classify ClassifyToolResult ConsumerSchema ConsumerSchemaID ContractName
		ContractVersion Decision DecodeError DecodeErrorCategory DecodeMissing DecodeSyntax DecodeType
		DecodeValue EncodeError Envelope Failure FailureCancelled FailureConnectionRefused
		FailureConnectionReset FailureDNS FailureMalformedResponse FailureRedirectBlocked
		FailureResponseTooLarge FailureTLS FailureTimeout Fallback FromToolResult Group Groups Kind
		KindByNumber Kinds Lookup MCPErrorSchema MCPOutputSchema MaxDepth MaxSafeInteger New NewTrusted NextStep Origin Origins ProblemType ProblemTypeBase
		ProducerSchema ProducerSchemaID PromotedMember PromotedShortForm ReadCLI ReadHTTP Recovery
		RecoveryAction RecoveryActions RetryInitial RetryJitter RetryMax RetryMaxAttempts RetryMaxHint
		RetryMultiplier SameArguments SameArgumentsValues Sanitize SanitizeMax SanitizeMaxLength AppendSanitize AppendSanitizeMax
		SanitizeTruncationMarker SanitizedFields Schema SideEffects SideEffectsValues Step StepConfirm
		StepEscalate StepReauthenticate StepRediscover StepReduceWork StepRetry StepRevise
		StepStartDependency StepStop ToolAnnotations ToolContent ToolResult Upstream
		ErrorInfoDomain FromAIP193 FromRPCStatus RPCDuration RPCStatus DecodeOptions MaxDocumentBytes
		CallError CallEvidence CallRecovery CallTool NewCallError
		MCPError MCPErrorResponse ReadMCPError UpstreamStructuredContent`},
	{TypeScript, Package, `CLASSIFICATIONS Classification Classified ClassifierSpec ContractVersion Decision DecodeError
		DecodeErrorCategory Envelope EnvelopeFields FAILURES FALLBACK FIELDS Failure FieldSpec FieldType
		GROUPS Group HttpReadResult HttpResponseLike INBOUND InboundSpec Kind Kinds KnownKind LAYOUT
		LayoutLeaf LayoutMember LayoutObject LogLevel McpErrorObject McpErrorResponse McpOutputSchema McpTextToolResult McpToolResult ORIGINS Origin ParseResult RETRY ReadOptions Received
		Recovery RecoveryAction RetryPolicy RuleSpec STEPS SameArguments SanitizeOptions SecretChars
		SecretSpec ShortFormSpec SideEffects Source Step ToolAnnotations Upstream classifyToolResult
		classifyWith newEnvelope CliStream FetchRequestLike FetchResponseInit HttpAnswer LOG LogFields LogValue
		NodeRequestLike NodeResponseLike AIP_LEAVES AIP_OFF_WIRE AIP_REASONS AipLeaf AipOffWire ERROR_INFO_DOMAIN
		RpcDuration RpcStatus fromAip193 fromRpcStatus rpcStatus rpcStatusJson toAip193 ErrorWithEnvelope errorString toError DecodeOptions
		CALL_ERROR CallError CallErrorSpec CallTool callErrorText toCallError`},
	{Python, Package, `Any CLASSIFICATIONS CLASSIFIERS CONSTRUCTORS Callable ClassVar Classification Classified Decision
		DecodeErrorCategory Dict Enum Envelope EnvelopeError FALLBACK FIELDS Failure FrozenSet Group Headers
		INBOUND Iterable Iterator Kind LAYOUT List Literal LogLevel Mapping MappingProxyType NoReturn Optional Origin
		Pattern RETRY Received Recovery RecoveryAction RetryPolicy SameArguments Sequence Set SideEffects
		Step Tuple Type Union classify_tool_result classify_with new_envelope EnvelopeLogger HttpAnswer LOG
		MutableMapping TextIO ERROR_INFO_DOMAIN AIP193_LEAVES AIP193_OFF_WIRE GRPC GRPC_FALLBACK REASON_KINDS
		error_info_reason from_aip193 grpc_code grpc_status to_aip193 error_string
		CALL_ERROR call_error_text to_call_error`},
	// The Rust crate's top-level items and Envelope's associated
	// functions that a constructor (new_<kind>) or a classifier function
	// (classify_<name>) could take.
	{Rust, Package, `Classification Classified DecodeError DecodeErrorCategory Decision EncodeError Envelope Failure
		Group Kind LogLevel Origin Recovery RecoveryAction RetryPolicy SameArguments SanitizePolicy Sanitizer
		SecretShape SideEffects Step ToolAnnotations Upstream classify classify_tool_result classify_with
		for_tool lookup fallback new_trusted next_step sanitize sanitize_max RpcStatus RpcDuration
		ERROR_INFO_DOMAIN from_aip193 from_rpc_status to_aip193 to_rpc_status
		CallTool call_error_text to_call_error`},
}
