"""Extractive summaries never split numbers, versions or URLs (issue 13), in English and Chinese."""

from __future__ import annotations

import numpy as np
import pytest

from hindsight.embeddings.base import Embedder
from hindsight.model import MemoryRecord
from hindsight.summarize import Summarizer, _clip, split_sentences


class _BagEmbedder(Embedder):
    """Deterministic character-bag vectors: enough to rank sentences for an extractive unit test."""

    name = "bag-test"
    dim = 64

    def _embed(self, texts, is_query):  # type: ignore[no-untyped-def]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for ch in text:
                out[row, ord(ch) % self.dim] += 1.0
        out += 1e-3
        return out / np.linalg.norm(out, axis=1, keepdims=True)


@pytest.mark.parametrize("text, expected", [
    ("We run Ubuntu 24.04 on every host. Python 3.11.9 is pinned.",
     ["We run Ubuntu 24.04 on every host.", "Python 3.11.9 is pinned."]),
    ("Docs live at https://example.com/a.b/c?x=1.5&y=2. Read them first!",
     ["Docs live at https://example.com/a.b/c?x=1.5&y=2.", "Read them first!"]),
    ("The budget is $1,234.56 per month; pay it by the 3rd.",
     ["The budget is $1,234.56 per month;", "pay it by the 3rd."]),
    ("服务器版本是 Ubuntu 24.04。磁盘占用 87.5%！备份见 http://backup.local/v2.1/index.html。",
     ["服务器版本是 Ubuntu 24.04。", "磁盘占用 87.5%！", "备份见 http://backup.local/v2.1/index.html。"]),
    ("用 Python 3.12.然后升级到 v4.0.2", ["用 Python 3.12.", "然后升级到 v4.0.2"]),
])
def test_split_keeps_numbers_versions_urls_whole(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_clip_never_cuts_inside_a_token() -> None:
    text = "Upgrade every host to Ubuntu 24.04.1 and read https://wiki.example.org/ops/upgrade-guide.html"
    for limit in range(20, len(text)):
        clipped = _clip(text, limit)
        assert len(clipped) <= limit
        kept = clipped.rstrip("…").split()
        assert all(word in text.split() for word in kept), (limit, clipped)
    assert _clip("数据库备份每天凌晨两点执行保留七天", 8) == "数据库备份每天…"


def test_extractive_summary_keeps_versions_whole() -> None:
    records = [MemoryRecord(content="The fleet runs Ubuntu 24.04. Kernel 6.8.0-45 is required."),
               MemoryRecord(content="升级说明见 https://example.com/upgrade/24.04.html。版本 2.10.3 已验证。")]
    summary = Summarizer(_BagEmbedder()).extractive(records, "detailed")
    assert "24. 04" not in summary and "24.04" in summary
    assert "6.8.0-45" in summary and "2.10.3" in summary and "https://example.com/upgrade/24.04.html" in summary
