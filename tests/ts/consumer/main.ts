// A small program of another project, compiled against the installed
// package. "errgen-pkg" is replaced with the name it is installed under
// before compiling.
import {
  CONTRACT_NAME,
  KNOWN_KINDS,
  fromMcpToolResult,
  lookup,
  newEnvelope,
  nextStep,
  parseEnvelopeJson,
  serializeEnvelope,
  toMcpToolResult,
  type Envelope,
} from "errgen-pkg";

// Only the ES library: no DOM or Node types are needed to use the package.
declare const console: { log(message: string): void };

// newEnvelope takes the context the contract's layout requires (ovstorage:
// operation) after the message: strings, as many as it declares before the
// trailing options.
type ContextArgs = Parameters<typeof newEnvelope> extends [unknown, unknown, ...infer Rest] ? (Required<Rest> extends [...infer C, unknown] ? C : never) : never;
const ctx = Array.from({ length: newEnvelope.length - 3 }, () => "consumer_call") as unknown as ContextArgs;

const first = KNOWN_KINDS[0];
if (first === undefined) throw new Error("no kinds");
const env: Envelope = newEnvelope(first, "from the consumer", ...ctx);
const text = serializeEnvelope(env);
// The exact round trip reads raw; every reader sanitizes alike, so the MCP
// reader returns what the sanitizing decoder returns (the same text, but
// where the contract's own guidance is not one the sanitizer keeps).
const back = parseEnvelopeJson(text, { raw: true });
const read = parseEnvelopeJson(text);
const unknown = newEnvelope("kind_from_a_newer_contract", "m", ...ctx);
const mcp = fromMcpToolResult(JSON.parse(JSON.stringify(toMcpToolResult(env))));

console.log(
  JSON.stringify({
    contract: CONTRACT_NAME,
    kinds: KNOWN_KINDS.length,
    parsed: back.ok && back.envelope.kind === first && lookup(back.envelope.kind).known,
    unknownKindStep: nextStep(unknown, 1).step,
    roundTrip: back.ok && serializeEnvelope(back.envelope) === text,
    mcp: mcp.ok && read.ok && serializeEnvelope(mcp.envelope) === serializeEnvelope(read.envelope),
  }),
);
