"""A judge call's readings kept for the call and dropped when it returns (`write.pair_memo`, write cost round 36)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hindsight.write.endings as endings
import hindsight.write.evidence as evidence
from hindsight.write import pair_memo
from hindsight.write.analysis import lost_count, text_diff
from hindsight.write.clause_split import clauses
from hindsight.write.judge import classify, classify_rules

ROOT = Path(__file__).resolve().parent.parent
ENDED = [  # tests/test_hygiene_measured_value.py: read as a change only with `endings.VOIDED_CHANGES` on
    ("Call the piano tuner, Ilse, on 0161 496 0733.", "Ilse's 0161 496 0733 line is disconnected, skip it."),
    ("物业维修师傅老韩的手机是 139 0021 4477。", "老韩那个 139 0021 4477 已经停机了，别再打。"),
]
PAIRS = [
    ("The staging database runs PostgreSQL 14.", "The staging database now runs PostgreSQL 16."),
    ("Priya's email is priya.n@gmail.com.", "Priya's work address is pnair@halcyonlabs.io."),
    ("用户每天早上七点跑步。", "用户现在改成晚上跑步了。"),
    ("My sister Ana lives in Porto.", "Ana moved to Lisbon last spring."),
]


def _rows(name: str, limit: int) -> list[dict[str, object]]:
    path = ROOT / "bench" / "data" / "blind" / name / "hygiene" / "set.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[:limit]]


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every time a pair's change evidence is read from scratch (its one `state_change` reading), the pair."""
    seen: list[tuple[str, str]] = []
    real = evidence.state_change

    def counted(old: str, new: str) -> str | None:
        seen.append((old, new))
        return real(old, new)

    monkeypatch.setattr(evidence, "state_change", counted)
    return seen


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_one_classify_reads_a_pairs_change_evidence_once(old: str, new: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules (`settle_on_evidence`) and the pair model's row read the same pair's change evidence; inside one
    call it is computed once (on main twice: the rules', then the row's)."""
    seen = _counting(monkeypatch)
    classify(old, new, 0.93)
    assert seen.count((old, new)) == 1


def test_the_memo_is_dropped_when_the_call_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = PAIRS[0]
    seen = _counting(monkeypatch)
    classify(old, new, 0.93)
    classify(old, new, 0.93)
    assert seen.count((old, new)) == 2  # once per call: nothing kept across calls
    assert not pair_memo.active()


def test_a_switch_flipped_between_two_calls_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 35's caches across calls, keyed by the texts only, kept the answer read with `VOIDED_CHANGES` off."""
    before = [classify_rules(old, new, 0.9).label for old, new in ENDED] + [
        classify(old, new, 0.9).reason for old, new in ENDED]
    monkeypatch.setattr(endings, "VOIDED_CHANGES", True)
    after = [classify_rules(old, new, 0.9).label for old, new in ENDED] + [
        classify(old, new, 0.9).reason for old, new in ENDED]
    assert before[:2] != ["override", "override"]
    assert after[:2] == ["override", "override"]
    assert before[2:] != after[2:]


def test_a_switch_flipped_between_two_writes_scopes_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A write's scope (`HygieneChecker.check`) keeps readings for that write only."""
    old, new = ENDED[0]
    with pair_memo.scope():
        first = classify_rules(old, new, 0.9).label
    monkeypatch.setattr(endings, "VOIDED_CHANGES", True)
    with pair_memo.scope():
        second = classify_rules(old, new, 0.9).label
    assert (first, second) != ("override", "override") and second == "override"


def test_kept_outside_a_scope_computes_every_time() -> None:
    calls: list[int] = []

    def compute() -> int:
        calls.append(1)
        return 7

    for _ in range(3):
        pair_memo.kept(("k",), compute)
    assert len(calls) == 3
    with pair_memo.scope():
        for _ in range(3):
            pair_memo.kept(("k",), compute)
        with pair_memo.scope():  # a nested scope is the outer one
            assert pair_memo.kept(("k",), lambda: 8) == 7
    assert len(calls) == 4 and not pair_memo.active()


@pytest.mark.parametrize("name", ["r33", "r34"])
def test_a_scoped_judge_answers_as_the_judge_read_afresh(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside a write's scope (pairs judged one after another) every verdict equals the verdict read with nothing
    kept (every `kept` computed afresh), on the first rows of a released blind hygiene set, both ways round and
    with an `other`."""
    rows = _rows(name, 40)
    pairs = []
    for row in rows:
        old, new = str(row["existing"]), str(row["new"])
        others = row.get("others") or []
        pairs += [(old, new), (new, old)] + ([(str(others[0]), new)] if others else [])  # type: ignore[index]
    with pair_memo.scope():
        scoped = [tuple(classify(old, new, 0.9, query_similarity=0.9)) for old, new in pairs]
    with monkeypatch.context() as patched:
        patched.setattr(pair_memo, "active", lambda: False)
        patched.setattr(pair_memo, "kept", lambda key, compute, hold=None: compute())
        afresh = [tuple(classify(old, new, 0.9, query_similarity=0.9)) for old, new in pairs]
    assert scoped == afresh


def test_a_clauses_counts_are_text_diffs_lengths() -> None:
    """`lost_count` gives `text_diff`'s content and lost lengths (`one_sided`'s clauses against the other text)."""
    checked = 0
    for row in _rows("r33", 80) + _rows("r34", 80):
        old, new = str(row["existing"]), str(row["new"])
        for text, other in ((old, new), (new, old)):
            for part in clauses(text):
                content, _, lost, _ = text_diff(part, other)
                assert lost_count(part, other) == (len(content), len(lost))
                with pair_memo.scope():
                    assert lost_count(part, other) == (len(content), len(lost))
                checked += 1
    assert checked > 300
