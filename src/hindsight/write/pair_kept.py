"""A pair's change evidence and merge blocker, kept per pair (issue 14, write cost round 35).

`judge.classify` reads both in the rules (`judge.settle_on_evidence`) and again in the pair model's row
(`pair_features`), with the same pair and the pair's own analysis; each reading walks the slot alignment, the value
readings and the name forms. Where `a` is the pair's own analysis (`analysis.analyse(old, new)`, the object the
judge hands on), the answer is kept by the two texts; any other analysis is read afresh by `write.evidence`.
`s`, when given, must be `Slots.of(a)` (what every caller passes). The merge blocker reads `restatement_p` only as
reaching `evidence.SWAP_MERGE_P` or not, so it is kept by that.
"""

from __future__ import annotations

from functools import lru_cache

from hindsight.write import evidence
from hindsight.write.analysis import PairAnalysis, analyse
from hindsight.write.evidence import Slots


def change_evidence(old: str, new: str, a: PairAnalysis, s: Slots | None = None) -> str | None:
    """`evidence.change_evidence`, kept per pair where `a` is the pair's own analysis."""
    if a is analyse(old, new):
        return _change_evidence(old, new)
    return evidence.change_evidence(old, new, a, s)


def merge_blocker(a: PairAnalysis, s: Slots | None = None, old: str = "", new: str = "",
                  restatement_p: float | None = None, aliases: bool = True) -> str | None:
    """`evidence.merge_blocker`, kept per pair where `a` is the pair's own analysis."""
    if old and new and a is analyse(old, new):
        sure = restatement_p is not None and restatement_p >= evidence.SWAP_MERGE_P
        return _merge_blocker(old, new, sure, aliases)
    return evidence.merge_blocker(a, s, old, new, restatement_p, aliases)


@lru_cache(maxsize=4096)
def _change_evidence(old: str, new: str) -> str | None:
    return evidence.change_evidence(old, new, analyse(old, new))


@lru_cache(maxsize=4096)
def _merge_blocker(old: str, new: str, swap_sure: bool, aliases: bool) -> str | None:
    p = evidence.SWAP_MERGE_P if swap_sure else None
    return evidence.merge_blocker(analyse(old, new), None, old, new, p, aliases)
