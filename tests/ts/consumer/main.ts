// A small program of another project, compiled against the installed
// tarball. "errgen-pkg" is replaced with the package's name before compiling.
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

const first = KNOWN_KINDS[0];
if (first === undefined) throw new Error("no kinds");
const env: Envelope = newEnvelope(first, "from the consumer");
const text = serializeEnvelope(env);
const back = parseEnvelopeJson(text);
const unknown = newEnvelope("kind_from_a_newer_contract", "m");
const mcp = fromMcpToolResult(JSON.parse(JSON.stringify(toMcpToolResult(env))));

console.log(
  JSON.stringify({
    contract: CONTRACT_NAME,
    kinds: KNOWN_KINDS.length,
    parsed: back.ok && back.envelope.kind === first && lookup(back.envelope.kind).known,
    unknownKindStep: nextStep(unknown, 1).step,
    roundTrip: back.ok && serializeEnvelope(back.envelope) === text,
    mcp: mcp.ok && serializeEnvelope(mcp.envelope) === text,
  }),
);
