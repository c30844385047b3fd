"""retire34's attribute reading (bench/retire34_attr.py: measured, not shipped): the slot a text names, the slot
its change cue speaks of, and the veto / retirement read from them (EN and ZH)."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import retire34_attr as attr  # noqa: E402


def test_slots_en_and_zh_meet_across_scripts() -> None:
    assert "price" in attr.slots("AP-3 dealer price drops to EUR 1,390 from September.")
    assert "price" in attr.slots("AP-3 自动舵欧洲经销商价定为 1450 欧元（不含税）。")
    assert "owner" in attr.slots("石河子 142 团的对接人是张队长（张国平）。")


def test_changed_slot_is_the_cue_clause() -> None:
    new = "CT-12 蓝牙芯片从 nRF52832 换成 nRF52840，主要是要支持更长时间的数据缓存。"
    assert "component" in attr.changed_slots(new)
    assert not attr.changed_slots(new) & {"quality", "test"}


def test_another_attribute_of_one_subject_is_vetoed_zh() -> None:
    old = "CT-12 试产 500 片，良率 91%，主要不良是电极片贴偏。"
    new = "CT-12 蓝牙芯片从 nRF52832 换成 nRF52840，主要是要支持更长时间的数据缓存。"
    assert attr.reading(old, new) == "other"
    assert attr.veto(old, new)


def test_another_product_code_is_vetoed_en() -> None:
    old = "HW-6: payload 6 kg, reach 1400 mm, repeatability 0.02 mm."
    new = "HW-20 spec update: payload raised to 22 kg after the motor change, reach unchanged."
    assert attr.same_subject(old, new) is False
    assert attr.veto(old, new)


def test_new_value_of_the_same_slot_stands_and_is_read_as_a_replacement() -> None:
    old = "IP-500 list price to MedSul: USD 2,850 per unit, FOB Shanghai."
    new = "New MedSul price for the IP-500 from Q4: USD 2,690 FOB Shanghai - agreed to offset the drop of the real."
    assert not attr.veto(old, new)
    assert attr.replaces(old, new)


def test_the_same_value_said_again_is_no_replacement() -> None:
    old = "IP-500 list price to MedSul: USD 2,850 per unit."
    new = "IP-500 price for MedSul is now confirmed: USD 2,850 per unit."
    assert not attr.replaces(old, new)


def test_unread_texts_are_never_vetoed() -> None:
    assert attr.reading("Portuguese FAQ is published.", "Most common repair: worn fingers.") == "unread"
