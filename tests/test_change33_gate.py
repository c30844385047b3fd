"""change33's cue-clause reading (bench/change33_gate.py: measured, not shipped): a follow-up whose change cue is
about another attribute reads "other"; a new value of the old memory's attribute reads "same" (EN and ZH)."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import change33_gate as cg  # noqa: E402

SPAN = cg.Gate("signalled", "span", 1)


def test_follow_up_on_another_attribute_is_gated_en() -> None:
    old = "Diego is getting married on Dec 12 in Goiânia and will be off Dec 8–22."
    new = "The São Paulo office is closed Dec 24 – Jan 2. Diego and Juliana take on-call in alternating weeks."
    assert cg.reading(old, new, SPAN.cue, SPAN.unit, SPAN.min_shared) == "other"
    assert cg.gated(SPAN, old, new)


def test_follow_up_on_another_attribute_is_gated_zh() -> None:
    old = "杨帆每月5号发财务月报，抄送陈总和各店店长。"
    new = "杨帆通知：10月起报销一律附电子发票，纸质发票不收了。"
    assert cg.gated(SPAN, old, new)


def test_new_value_of_the_same_attribute_is_not_gated_en() -> None:
    old = "Nightly database backups run at 02:00 UTC and get copied to the S3 bucket lumen-backups-prod."
    new = "Backup window moved to 04:00 UTC so it no longer overlaps the 02:00 ETL; destination bucket is unchanged."
    assert cg.reading(old, new, SPAN.cue, SPAN.unit, SPAN.min_shared) == "same"
    assert not cg.gated(SPAN, old, new)


def test_new_value_of_the_same_attribute_is_not_gated_zh() -> None:
    old = "团队周会：每周一上午10点，“西湖”会议室。"
    new = "周会挪到每周二下午两点了，周一上午大家都太忙。"
    assert not cg.gated(SPAN, old, new)
    # one clause alone loses the attribute: 周会 opens both texts and is read as their subject
    assert cg.reading(old, new, "signalled", "clause", 1) == "other"


def test_main_gates_nothing() -> None:
    assert not cg.gated(None, "a", "b")
