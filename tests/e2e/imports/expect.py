"""What a reader must answer for every envelope another contract writes.

tests/e2e/imports.sh runs it as

    python3 expect.py OUT READER=VECTORS SOURCE=VECTORS [READER=VECTORS SOURCE=VECTORS ...]

with each contract's conformance vectors (conformance/<name>.vectors.json,
docs/conformance.md). For each pair it writes OUT/READER-reads-SOURCE.json
and prints a line of counts. The answers come from the vectors alone,
never from a generated package, so each language's checker (check.go,
check.mjs, check.py) holds its package to them:

- every envelope of the source's "envelopes", given as "text", the JSON
  text every generated encoder writes for it, decodes and encodes back to
  the same text, with the same kind and retryable answer (both come from
  the envelope as written);
- a kind the reader defines (a base kind) is known, and the reader's
  classification of it (HTTP status included) is its own vectors' entry,
  which must be the source's;
- any other kind (the source's own, or one neither defines) is unknown to
  the reader: its HTTP status and classification are the reader's fallback
  (every lookup member but the kind, which is the one given, and the
  ErrorInfo reason, which is computed from it);
- every "next_step" case of the source decides the same for the reader:
  the decision follows the envelope's own recovery advice and the retry
  policy, which the reader shares.

It fails when the two contracts do not share the wire (contract version
and retry policy), when a kind the source defines has no envelope in its
vectors, when the source's envelopes hold no base kind or none the
reader reads through its fallback, or when the source has no next-step
case (or one without attempts): then the check would prove nothing.
"""

import json
import os
import sys
from typing import Any, Dict, List, NoReturn


def fail(msg: str) -> NoReturn:
    sys.exit("expect.py: " + msg)


def go_json(v: Any) -> str:
    """go_json is v as every generated encoder writes it: compact, in the
    members' order, U+2028 and U+2029 escaped (as the Go encoder does)."""
    return json.dumps(v, ensure_ascii=False, separators=(",", ":")).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def expect(reader_name: str, reader: Dict[str, Any], source_name: str, source: Dict[str, Any]) -> Dict[str, Any]:
    for key in ("version", "retry"):
        if reader[key] != source[key]:
            fail(f"{reader_name} and {source_name} differ in {key}: {reader[key]} and {source[key]}")
    rlook = {v["kind"]: v for v in reader["lookup"] if v["known"]}
    slook = {v["kind"]: v for v in source["lookup"] if v["known"]}
    fallback = next(v for v in reader["lookup"] if not v["known"])
    for kind in rlook.keys() & slook.keys():
        if rlook[kind] != slook[kind]:
            fail(f"{reader_name} and {source_name} classify the base kind {kind} differently:\n{rlook[kind]}\n{slook[kind]}")
    written = {v["kind"] for v in source["envelopes"]}
    missing = sorted(slook.keys() - written)
    if missing:
        fail(f"{source_name}'s vectors have no envelope of {missing}")
    cases: List[Dict[str, Any]] = []
    exact, through = 0, set()
    for v in source["envelopes"]:
        kind = v["kind"]
        case = {"name": v["name"], "text": go_json(v["envelope"]), "kind": kind, "retryable": v["retryable"]}
        if kind in rlook:
            exact += 1
            case.update(known=True, http_status=rlook[kind]["http_status"], lookup=rlook[kind])
        else:
            through.add(kind)
            look = {k: x for k, x in fallback.items() if k != "reason"}
            look["kind"] = kind
            case.update(known=False, http_status=fallback["http_status"], lookup=look)
        cases.append(case)
    own = sorted(slook.keys() - rlook.keys())
    if exact == 0 or (own and not through.issuperset(own)):
        fail(f"{source_name}'s envelopes leave a case out: {exact} of base kinds, through the fallback {sorted(through)}")
    print(f"{reader_name} reads {source_name}'s {len(cases)} envelopes: {exact} of base kinds exactly, "
          f"{len(cases) - exact} through the fallback ({', '.join(sorted(through))}); "
          f"{len(source['next_step'])} next-step cases")
    if not source["next_step"] or not all(v["attempts"] for v in source["next_step"]):
        fail(f"{source_name}'s vectors have no next-step case, or one without attempts: the checkers would decide nothing")
    steps = [{"name": v["name"], "text": go_json(v["envelope"]), "attempts": v["attempts"]} for v in source["next_step"]]
    return {"reader": reader_name, "source": source_name, "envelopes": cases, "next_step": steps}


def main() -> None:
    out, pairs = sys.argv[1], sys.argv[2:]
    if not pairs or len(pairs) % 2:
        fail("usage: expect.py OUT READER=VECTORS SOURCE=VECTORS ...")
    for r, s in zip(pairs[::2], pairs[1::2]):
        (rn, rp), (sn, sp) = r.split("=", 1), s.split("=", 1)
        with open(rp, encoding="utf-8") as f:
            reader = json.load(f)
        with open(sp, encoding="utf-8") as f:
            source = json.load(f)
        with open(os.path.join(out, f"{rn}-reads-{sn}.json"), "w", encoding="utf-8") as f:
            json.dump(expect(rn, reader, sn, source), f)


main()
