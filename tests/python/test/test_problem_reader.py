"""Every RFC 9457 problem answer of the conformance vectors, read by a third-party problem-details library (PyPI httpproblem).

The answers are the application/problem+json responses the package writes
(the surfaces and writes vectors), each with the envelope it carries.
httpproblem's Problem takes a problem
document's members as its arguments, the five RFC 9457 members by name and
every other member as an extension member, and writes the document back
with to_dict. Each answer must read as RFC 9457 describes it: type is the
contract's problem type for the envelope's kind, title the kind's
description, status the answer's HTTP status and the kind's, detail the
envelope's message, no instance; the extension members are exactly the
envelope's top-level members, in the contract's layout (less any named like
a problem member: agento's "status": "error" gives way to the status); and
the library writes back the document it read.
"""

import json
from typing import Any, Dict, Iterator, List, Tuple

from httpproblem import Problem

from env import pkg, vectors

PROBLEM_MEMBERS = ("type", "title", "status", "detail", "instance")

# A member httpproblem cannot take: Problem.__init__'s own first parameter,
# which a keyword argument of that name collides with (the reserved-words
# test contract has a field named self). It is left out of what the library
# reads, and of the extension members it must give back.
UNCARRIED = ("self",)


def answers() -> Iterator[Tuple[str, Dict[str, Any]]]:
    """Every problem answer of the vectors (the problem member of a vector, in any section): its status, headers, body and the envelope it carries."""
    for section, items in vectors.items():
        for i, v in enumerate(items if isinstance(items, list) else []):
            answer = v.get("problem") if isinstance(v, dict) else None
            if isinstance(answer, dict) and answer.get("headers", {}).get("content-type") == "application/problem+json":
                yield f"vectors.{section}[{i}].problem", answer


ALL: List[Tuple[str, Dict[str, Any]]] = list(answers())


def test_every_problem_answer_reads_as_rfc9457_says() -> None:
    assert len(ALL) >= len(vectors["surfaces"]), [w for w, _ in ALL]
    wrong: List[str] = []
    for where, answer in ALL:
        body = json.loads(answer["body"])
        p = Problem(**{k: v for k, v in body.items() if k not in UNCARRIED})
        envelope = answer["envelope"]
        env = pkg.from_dict(envelope)
        c = pkg.lookup(env.kind)
        want = {
            "type": pkg.PROBLEM_TYPE_BASE + env.kind,
            "title": c.description if c.known else "Error of a kind this contract version does not define",
            "status": answer["status"],
            "detail": env.message,
            "instance": None,
        }
        got = {"type": p.type, "title": p.title, "status": p.status, "detail": p.detail, "instance": p.instance}
        if got != want:
            wrong.append(f"{where}: {got} != {want}")
        if p.status != c.http_status:
            wrong.append(f"{where}: status {p.status}, the kind's {c.http_status}")
        extensions = {k: v for k, v in envelope.items() if k not in PROBLEM_MEMBERS + UNCARRIED}
        if p.kwargs != extensions:
            wrong.append(f"{where}: extension members {sorted(p.kwargs)} != the envelope's {sorted(extensions)}")
        if p.to_dict() != {k: v for k, v in body.items() if k not in UNCARRIED}:
            wrong.append(f"{where}: httpproblem writes back {json.dumps(p.to_dict())[:200]}")
    assert not wrong, "\n".join(wrong)
