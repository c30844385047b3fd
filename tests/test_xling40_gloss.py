"""xling40's write-side dictionary rendering (bench/xling40_gloss.py: measured, not shipped): a Chinese memory is
found by an English question through its CC-CEDICT senses and a name's pinyin, an English memory by a Chinese
question through its words' Chinese headwords; a question never searches memories of its own script."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import xling40_gloss as xg  # noqa: E402

MEMORIES = [
    ("zh-rent", "釜山办公室的房租每月三百万韩元，合同明年三月到期。"),
    ("zh-name", "林凯下周二去宁波工厂做质检培训。"),
    ("zh-other", "食堂周五中午有饺子。"),
    ("en-rent", "The Busan office rent is paid on the 5th of each month."),
    ("en-other", "The canteen serves noodles on Fridays."),
]


def test_english_question_meets_chinese_memory_by_its_senses() -> None:
    hits = xg.GlossIndex(MEMORIES).search("How much is the office rent?", 5)
    assert hits and hits[0][0] == "zh-rent"
    assert all(mid.startswith("zh-") for mid, _ in hits)


def test_romanised_name_meets_its_han_form() -> None:
    hits = xg.GlossIndex(MEMORIES).search("When does Lin Kai go to the factory?", 5)
    assert hits[0][0] == "zh-name"


def test_chinese_question_searches_english_memories_only() -> None:
    group, terms = xg.question_terms("办公室的房租什么时候付？")
    assert group == "zh" and "房租" in terms
    hits = xg.GlossIndex(MEMORIES).search("办公室的房租什么时候付？", 5)
    assert hits and all(mid.startswith("en-") for mid, _ in hits)
    assert hits[0][0] == "en-rent"


def test_a_memory_rendering_is_in_the_other_script() -> None:
    group, terms = xg.memory_terms("续约后房租涨到每月 13,200")
    assert group == "zh" and "rent" in terms
    group, terms = xg.memory_terms("Rent is 12,500 RMB a month")
    assert group == "en" and "出租" in terms  # "rent": its headwords whose sense is one or two words


def test_nothing_shared_finds_nothing() -> None:
    assert xg.GlossIndex(MEMORIES).search("xylophone quartet", 5) == []
