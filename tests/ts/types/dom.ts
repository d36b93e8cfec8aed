// Type-level test with the DOM library: a fetch Response is what
// fromHttpResponse takes, and what it returns narrows on ok. run.mjs compiles
// it with lib ES2022 + DOM against each package's declarations.
import { fromHttpResponse, httpStatus, type Envelope } from "../dist/index.js";

export async function read(url: string): Promise<Envelope | undefined> {
  const r = await fromHttpResponse(await fetch(url));
  if (!r.ok) {
    const problem: string = r.error.problem;
    void problem;
    return undefined;
  }
  const classified: boolean = r.classified;
  void [classified, httpStatus(r.envelope)];
  return r.envelope;
}

// A response is read from its body stream, bounded; any object with a status,
// headers and a body (or arrayBuffer) fits.
void fromHttpResponse(new Response("x", { status: 500 }));
void fromHttpResponse({ status: 502, headers: new Headers(), arrayBuffer: () => Promise.resolve(new ArrayBuffer(0)) });
