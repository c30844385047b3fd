"""One contact number written two ways gives one keyed digest (issue 10, round 45d: blind r40's restatements
r40:17 / r40:18): Chinese digit characters read as digits, an area code said apart from the number put in front of
it (`value_digests.PHONE_FORMS`). Own texts; a dict-backed secret, no embedder."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

import hindsight.write.value_digests as vd
from hindsight.safety.redact import redact
from hindsight.write.conflict import Verdict


class _Secrets:
    def kept_secret(self, key: str) -> str:
        return "b" * 64


@pytest.fixture(autouse=True)
def _forms_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vd, "ON", True)
    monkeypatch.setattr(vd, "KINDS_APART", True)
    monkeypatch.setattr(vd, "PHONE_FORMS", True)


def _record(raw: str) -> SimpleNamespace:
    return SimpleNamespace(value_digests=vd.compute(_Secrets(), raw, redact(raw).findings), content=redact(raw).text)


def _relation(a: str, b: str) -> str | None:
    return vd.relation(_record(a).value_digests, _record(b).value_digests)


@pytest.mark.parametrize(("a", "b"), [
    ("周老师的手机：一五九零三三二七八四六。", "周老师电话 159 0332 7846。"),
    ("物业值班电话 0531-8862417。", "找物业值班室，区号0531，号码8862417。"),
    ("物业值班电话 0531-8862417。", "物业值班室区号：0531 电话 8862417"),
])
def test_one_number_written_two_ways_is_equal(a: str, b: str) -> None:
    assert _relation(a, b) == "equal"


@pytest.mark.parametrize(("a", "b"), [
    ("周老师的手机：一五九零三三二七八四六。", "周老师电话 159 0332 7849。"),
    ("物业值班电话 0531-8862417。", "找物业值班室，区号0532，号码8862417。"),
])
def test_another_number_stays_another(a: str, b: str) -> None:
    assert _relation(a, b) == "changed"


def test_a_kept_pair_of_one_number_merges_and_a_blocker_still_holds() -> None:
    old, new = _record("周老师的手机：一五九零三三二七八四六。"), _record("周老师电话 159 0332 7846。")
    kept = Verdict("supplement", "shares the subject, adds or changes", 0.6)
    assert vd.adjust(kept, old, new).label == "duplicate"
    blocked = Verdict("supplement", vd.BLOCKED + "another person", 0.6)
    assert vd.adjust(blocked, old, new).label == "supplement"


def test_the_shipped_setting_is_on() -> None:
    """Its rule (bench/results/restate45/ship_rule.md) held: held out restatements +3, nothing else moved."""
    import importlib

    assert importlib.reload(vd).PHONE_FORMS is True


def test_off_reads_as_main(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vd, "PHONE_FORMS", False)
    assert vd.canonical("phone", "一五九零三三二七八四六") == ""
    assert _relation("物业值班电话 0531-8862417。", "找物业值班室，区号0531，号码8862417。") == "changed"


def test_an_area_code_already_in_the_number_is_not_added_twice() -> None:
    raw: Any = "区号0531，号码0531-8862417"
    start = raw.index("0531-")
    assert vd._with_area(raw, start, len(raw)) == "0531-8862417"
