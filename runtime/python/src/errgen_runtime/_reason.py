"""The ErrorInfo reason of a kind (AIP-193), in a module of its own.

lookup computes an unknown kind's reason, and the google.rpc mapping
(_aip193) reads the classification, so neither may import the other. The
same for every contract.
"""

from __future__ import annotations

from typing import List


def aip_reason(kind: str) -> str:
    """aip_reason is the ErrorInfo reason of any kind (errgen's contract.Reason): its words upper-cased and joined with "_", "KIND" put before a result shorter than 3 or not starting with a letter, at most 63 characters. lookup computes it for a kind the contract does not list."""
    out: List[str] = []
    word = 0  # the length of the current word
    for i, c in enumerate(kind):
        lower, upper, digit = "a" <= c <= "z", "A" <= c <= "Z", "0" <= c <= "9"
        if not (lower or upper or digit):
            word = 0
            continue
        if upper and word > 0:
            prev = kind[i - 1]
            nxt = kind[i + 1] if i + 1 < len(kind) else ""
            if "a" <= prev <= "z" or "0" <= prev <= "9" or ("A" <= prev <= "Z" and "a" <= nxt <= "z"):
                word = 0
        if word == 0 and out:
            out.append("_")
        out.append(c.upper() if lower else c)
        word += 1
    r = "".join(out)
    if len(r) < 3 or not ("A" <= r[0] <= "Z"):
        r = "KIND" if r == "" else "KIND_" + r
    if len(r) > 63:
        r = r[:63].rstrip("_")
    return r
