"""A later memory about the same person that states another fact does not retire the older one (issue 10, round 19).

The hand-written rules read a contrast or switch word in the new text (", not", "instead of") as a change, and the
pair model could overrule a rules' change only when it was 0.97 sure the pair should be kept (`pair_model.KEEP_VETO`).
On the released retrieval rounds 115 memories no later memory replaced were deprecated that way (62 of them a
question's answer): "Owen hates meetings before 10am" retired by "Owen wants board decks in Notion, not PowerPoint".
The model keeps such pairs at p(keep) 0.7-0.96. Texts written for these tests (none from bench/data).
"""

from __future__ import annotations

import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write import pair_model
from tests.hygiene_pairs import pair

APART = [
    ("Hannah is allergic to peanuts, so order her lunch from the salad bar.",
     "Hannah wants release notes written in Markdown, not Word documents."),
    ("Ravi coaches the under-12 football team on Saturday mornings.",
     "Ravi prefers code reviews over a call, not in comments."),
    ("Lena speaks German and Italian, so put her on the Milan account.",
     "Lena runs her load tests on the staging-eu cluster instead of the shared one."),
]

CHANGES = [
    ("Hannah's desk is on the third floor next to the kitchen.",
     "Hannah moved to a desk on the fifth floor; the third-floor desk is free now."),
    ("The team standup is at 9:30 every weekday.", "The team standup moved to 10:00 every weekday."),
    ("周会每周二下午三点开。", "周会改成每周四上午十点开了。"),
]


@pytest.mark.parametrize(("old", "new"), APART, ids=["markdown-not-word", "call-not-comments", "instead-of"])
def test_another_fact_of_the_same_person_keeps_the_older_one(engine: MemoryEngine, old: str, new: str) -> None:
    _, status = pair(engine, old, new)
    assert status == Status.active


@pytest.mark.parametrize(("old", "new"), CHANGES, ids=["desk", "standup", "zh-weekly"])
def test_a_change_still_retires_the_older_one(engine: MemoryEngine, old: str, new: str) -> None:
    _, status = pair(engine, old, new)
    assert status == Status.deprecated


def test_the_veto_still_lets_a_sure_model_keep_only() -> None:
    assert 0.5 < pair_model.KEEP_VETO < 0.97
