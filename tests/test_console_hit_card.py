"""A search hit's card in the console (ux round 33): the bar labelled "relevance" was the fused text match
(`why.relevance`, 0.94 for the best hit even when nothing matched) while the hit's calibrated relevance was 0.02;
a person reading the card trusted the full bar. The card shows the calibrated relevance by that name, and the bar
is called what it is."""

from __future__ import annotations

import re

from hindsight.console.app import Ctx
from hindsight.console.views import hit_card
from hindsight.model import MemoryRecord
from hindsight.read_model import Explanation, SearchHit
from hindsight.security.principal import LOCAL_OWNER


def _card(lang: str) -> str:
    record = MemoryRecord(content="生产环境的数据库每天凌晨三点自动备份", namespace="default")
    hit = SearchHit(memory=record, score=0.876, why=Explanation(fused=0.94, relevance=0.94, final=0.876),
                    relevance=0.0165)
    return hit_card(Ctx(who=LOCAL_OWNER, lang=lang, csrf="x"), hit, top_final=0.876, top_keyword=0.0)


def test_the_card_names_the_calibrated_relevance_not_the_fused_match() -> None:
    card = _card("en")
    assert "score 0.876 · relevance 0.02" in card
    labels = re.findall(r"class='lbl'>([^<]+)<", card)
    assert "relevance" not in labels and "match" in labels
    assert len(labels) == 8  # the Chromium test counts eight bars


def test_the_chinese_card_names_it_too() -> None:
    assert "得分 0.876 · 相关概率 0.02" in _card("zh")
