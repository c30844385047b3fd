"""Issue 10, retrieval round 46: the kind of value a question asks for and each text's values of that kind
(`retrieval.asked_kind`), and its bar in `asked_slot` (`AskedSlotRule.kind`).

Texts written for these tests (not from any evaluation set); fixed vectors (`currency_hits`), no embedder.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from currency_hits import VECTORS
from currency_hits import hit as _hit

from hindsight.retrieval import asked_slot
from hindsight.retrieval.asked_kind import answers_differently, asked_kind, values


@pytest.mark.parametrize(("question", "kind"), [
    ("When is the vendor review now?", "time"),
    ("周会现在几点开？", "time"),
    ("吴迪的考试现在定在什么时候？", "time"),
    ("Where does Marcus live these days?", "place"),
    ("苏晴现在住在哪儿？", "place"),
    ("Who handles customs for us now?", "person"),
    ("报关现在找谁？", "person"),
    ("How many rooms does the hotel plan now?", "count"),
    ("现在一箱多少钱？", "count"),
    ("Which linter do we use now?", "name"),
    ("现在用哪个软件记账？", "name"),
    ("Is Hana still working remotely?", None),
    ("门的隔音效果怎么样？", None),
])
def test_the_asked_kind(question: str, kind: str | None) -> None:
    assert asked_kind(question) == kind


def test_values_of_each_kind() -> None:
    assert {"tuesday", "9:30"} <= values("time", "The review moved to Tuesday at 9:30.")
    assert {"周二", "上午", "十点"} <= values("time", "周会改到周二上午十点了。")
    assert {"48万", "55万"} <= values("count", "设计费从48万调到55万。")
    assert "140 sydney rd" in values("place", "The office is now at 140 Sydney Rd, Brunswick.")
    assert "徐汇区" in values("place", "她搬到徐汇区了。")
    assert {"janice kwok"} <= values("person", "Escalations go to Janice Kwok from Monday.")
    assert "刘建国" in values("person", "刘建国升任总工程师。")
    assert "qa" not in values("person", "Hana leads QA.")  # an all-capital word is no person
    assert "ruff" in values("name", "We lint with Ruff now.")


def test_a_redaction_placeholder_is_a_value_of_its_kind() -> None:
    assert "[address]" in values("place", "The new office is at [REDACTED:address].")
    assert "[phone]" in values("person", "Call [REDACTED:phone:0a1b2c3d4e5f6a7b] for the fridge.")
    assert not values("place", "Call [REDACTED:phone] for the fridge.")
    assert answers_differently("Where is the office now?", "The office is at 22 Rokeby St, Collingwood.",
                               "The office moved to [REDACTED:address] in November.")


def test_answers_differently() -> None:
    q = "Where does Marcus live now?"
    assert answers_differently(q, "Marcus lives in Bishan.", "Marcus moved to Tampines.")
    assert not answers_differently(q, "Marcus lives in Bishan.", "Marcus cycles to work most days.")  # no place
    assert not answers_differently(q, "Marcus lives in Bishan.", "Marcus still lives in Bishan.")  # the same one
    assert not answers_differently("Is Marcus well?", "Marcus lives in Bishan.", "Marcus moved to Tampines.")
    # the question's own names are its subject, not its answer
    assert not answers_differently("Who leads Ningbo now?", "Ningbo hires two operators.", "Ningbo is on leave.")
    # "from 48万 to 55万": the newer repeats the older value - only `both=False` reads it
    q = "合同总价现在是多少？"
    assert not answers_differently(q, "设计费48万元。", "设计费从48万调到55万。")
    assert answers_differently(q, "设计费48万元。", "设计费从48万调到55万。", both=False)


KIND = dataclasses.replace(asked_slot.RULE, on=True, same_slot={"en": 0.5, "zh": 0.5}, demote=False, kind="and")


def _read(old: str, new: str, question: str, rule: asked_slot.AskedSlotRule) -> bool:
    """True when the older hit is left current."""
    def embeddings(ids: list[str]) -> dict[str, np.ndarray]:
        return {m: VECTORS[m] for m in ids}

    hits = asked_slot.mark_asked_slot(question, [_hit("old", old, 0), _hit("far", "The fax is 555-0100.", 1),
                                                 _hit("new", new, 5)], embeddings, rule)
    return next(h for h in hits if h.memory.id == "old").current


def test_the_kind_bar_in_asked_slot() -> None:
    old, new = "Hana works from Osaka on Mondays.", "Hana has moved to Hangzhou now."
    assert not _read(old, new, "Where does Hana work now?", KIND)  # two places: the older outdated
    # another attribute of the subject changed: the round-45 reading flags it, the kind bar does not
    other = "Hana moved the stand-up to 9:30 now."
    assert not _read(old, other, "Where does Hana work now?", dataclasses.replace(KIND, kind=""))
    assert _read(old, other, "Where does Hana work now?", KIND)
    # `only`: no change word needed, a value of the asked kind is
    plain = "Hana works from Hangzhou."
    assert _read(old, plain, "Where does Hana work now?", KIND)
    assert not _read(old, plain, "Where does Hana work now?", dataclasses.replace(KIND, kind="only"))
    # `gated` False: a question with no present-tense word is read too
    assert _read(old, new, "Where does Hana work?", KIND)
    assert not _read(old, new, "Where does Hana work?", dataclasses.replace(KIND, gated=False))
