"""The value tier's clause search (`value_align.best_clauses`) skips pairs of spans that cannot be the best-aligned one
(issue 14, write cost tenth round): the same pair as aligning every pair, with fewer alignments."""

from __future__ import annotations

import pytest

from hindsight.write import value_align
from hindsight.write.clause_split import spans
from hindsight.write.slot_align import align
from hindsight.write.value_align import best_clauses, value_change

PAIRS = [
    ("The standup is at 9:30 on Mondays. Alice runs it, and Bob takes notes.",
     "Bob said the standup moved to 10:00 on Mondays. Alice still runs it."),
    ("I adopted a cat last year. Her name is Luna and she loves the garden. We also have a dog.",
     "Luna is three now, and the dog is called Max. The garden is her favourite place."),
    ("Rent is 1200 per month, paid on the first. The landlord is Mr. Chen.",
     "The landlord raised the rent to 1350 per month. It is still paid on the first."),
    ("兴趣班这学期涨价了，一学期4200。老师还是王老师。", "兴趣班一学期现在是4500，老师换成了李老师。"),
    ("Hey Mel! Good to see you! How have you been?", "Hey Caroline! Good to see you! I'm swamped with the kids & work."),
    ("", "Something new."),
]


def full_search(old: str, new: str) -> tuple[str, str] | None:
    """The search as it was: every pair of spans aligned, the first with the greatest (shared, frame) kept."""
    best: tuple[int, float, str, str] | None = None
    for oc in spans(old):
        for nc in spans(new):
            al = align(oc, nc)
            key = (al.shared, al.frame, oc, nc)
            if best is None or key[:2] > best[:2]:
                best = key
    return None if best is None else (best[2], best[3])


@pytest.mark.parametrize("old,new", PAIRS)
def test_the_pruned_search_picks_the_pair_the_full_search_picks(old: str, new: str) -> None:
    assert best_clauses(old, new) == full_search(old, new)
    assert best_clauses(new, old) == full_search(new, old)


def test_it_aligns_fewer_pairs_than_there_are(monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = PAIRS[1]
    calls: list[tuple[str, str]] = []

    def counted(a: str, b: str) -> object:
        calls.append((a, b))
        return align(a, b)

    monkeypatch.setattr(value_align, "align", counted)
    value_change(old, new)
    assert len(spans(old)) * len(spans(new)) == 25
    assert 0 < len(calls) < 25
