"""A value two facts of one subject rarely share by chance: the value gate's second tier (issue 10, round 26).

The value gate (`value_gate.gate_reason`) opens where two texts state the same values in other forms and nothing says
another fact; `judge.classify` then merges from the pair model's p(merge) `value_gate.VALUES_MERGE_P` (0.96). Over
the 38 released hygiene sets 361 restatements sat open under that p, beside the few distinct facts, changes and
others the gate also opens - and those share a *count, a date, a weekday, a duration, a share or an identifier* (#42,
Lab 3, 3%, 4月2号, "for 6 weeks", Dec 24-26): values many facts of one subject have in common. A shared **amount with a
unit** (money, a mass, a data size or rate, a frequency), **a time of day**, or **a phone number** (seven digits or
more) is rarely said of two facts of one subject by chance, so where the gate is open and such a value is shared, a
lower p(merge) may suffice: `SPECIFIC_MERGE_P`, measured leave-one-round-out and shipped off (docs/benchmarks.md
"Hygiene, round 26"). Codes (e-mail addresses, IPs, ticket and order numbers) are not read so: `value_canon` squashes
them (PL-2291 and an address look alike), and a ticket number is shared by every fact about that ticket. Lexical
only.
"""

from __future__ import annotations

from functools import lru_cache

from hindsight.write.value_canon import canonical_values

#: Value kinds (`value_canon`'s prefixes) that are an amount with a unit or a time of day.
MEASURED_KINDS = frozenset({"money", "clock", "mass", "Mbps", "MB", "M", "G", "GB", "Gbps", "freq"})
#: p(merge) from which a pair the gate opens is merged when it shares such a value; None: off (the one tier of round
#: 22). Measured at 0.75 (every leave-one-round-out fold but one chose it; the fold without r24T41 chose 0.70):
#: held out +54 restatements through the engine, but one change merged (r24T41:13), so it fails round 26's ship rule
#: and stays off (docs/benchmarks.md "Hygiene, round 26").
SPECIFIC_MERGE_P: float | None = None


@lru_cache(maxsize=4096)
def specific_value(old: str, new: str) -> str | None:
    """The kind of the first value both texts state that two facts of one subject rarely share by chance
    ("money", "clock", ..., "phone"); None if they share none."""
    shared = {v for vs in canonical_values(old) for v in vs} & {v for vs in canonical_values(new) for v in vs}
    for value in sorted(shared):
        kind, _, rest = value.partition(":")
        if kind in MEASURED_KINDS:
            return kind
        if kind == "digits" and len(rest) >= 7:
            return "phone"
    return None


def merge_p(old: str, new: str, base: float) -> float:
    """The p(merge) from which a pair the value gate opens is merged: `SPECIFIC_MERGE_P` where the texts share a
    specific value and it is lower than `base`, else `base`."""
    if SPECIFIC_MERGE_P is None or SPECIFIC_MERGE_P >= base or specific_value(old, new) is None:
        return base
    return SPECIFIC_MERGE_P
