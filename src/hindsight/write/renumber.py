"""A stated change that replaces a number: the new text drops the old one's value and gives another of its kind.

The judge reads "Firmware 3.2 (adaptive sampling) is targeted for May 6." / "3.2 is slipping to May 20 - adaptive
sampling broke the battery-life estimator ..." or 晓岚的车位是地下二层B2-117。 / 晓岚换到了B1-045，B2那个车位给新来的同事了。
as "different numbers about a different subject": the new text brings more new words than a value change may
(a reason, a second clause), so the lexical heuristic takes the new numbers to belong to another subject, and the
per-clause value reading (`value_align`) finds no single aligned stretch (the verb changed with the value: "is
targeted for" / "is slipping to"). Yet the new text says that something changed, and the one value it gives in
place of the old one is of the same kind: a date for a date, a clock time for a clock time, an amount for an amount.

`number_replaced(old, new)` reads only that: for one kind of number (`value_align.number_kind`), every value of
that kind the old text states is gone from the new text (`numbers.same_value`: "9:30" / "9:30 am" is one value),
and the new text states another one (with `EVERY` off: one of them is gone - "调到10点，7点那班取消了" repeats the old
value in its reason). Numbers that label a thing ("Ticket #41", 第一条, "Phase 2":
`number_labels.label_numbers`) are no values. Whether the pair is one slot at all (close, mutual nearest neighbours,
shared anchors, a change word the older text does not use) is the caller's part (`slot_change`).
"""

from __future__ import annotations

from functools import lru_cache

from hindsight.write.clause_split import clauses
from hindsight.write.number_labels import label_numbers
from hindsight.write.numbers import same_value
from hindsight.write.slot_align import _atoms
from hindsight.write.value_align import number_kind

__all__ = ["EVERY", "number_replaced"]

#: whether every old value of the kind must be gone from the new text, or one (chosen leave-one-round-out:
#: docs/benchmarks.md, "Currency, round 14")
EVERY = True


@lru_cache(maxsize=4096)
def _values(text: str) -> dict[str, tuple[str, ...]]:
    """The values a text states, by kind (clock / date / percent / amount), labels left out."""
    labels = frozenset().union(*(label_numbers(c) for c in clauses(text)))
    out: dict[str, list[str]] = {}
    for atom in _atoms(text)[0]:
        if atom.number and atom.text not in labels:
            out.setdefault(number_kind(atom.text), []).append(atom.text)
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


def _held(value: str, values: tuple[str, ...]) -> bool:
    return any(value == v or same_value(value, v) for v in values)


def number_replaced(old: str, new: str, every: bool = EVERY) -> str:
    """The kind and values of a number `new` gives in place of one of that kind in `old` ("" when none); with
    `every`, in place of every value of that kind the old text states (none of them repeated)."""
    left, right = _values(old), _values(new)
    for kind in sorted(left.keys() & right.keys()):
        gone = [v for v in left[kind] if not _held(v, right[kind])]
        came = [v for v in right[kind] if not _held(v, left[kind])]
        if came and gone and (len(gone) == len(left[kind]) or not every):
            return f"{kind} {', '.join(gone)} -> {', '.join(came)}"
    return ""
