"""A memory's dictionary rendering in the other script, searched by BM25: the `glossed` channel (round 40; measured,
NOT shipped - docs/benchmarks.md "Retrieval, round 40"; `src/` is unchanged).

BM25 matches within one script, so an English question never meets a Chinese memory by its words, and the
query-side renderings (`glossmatch.translated_ranked`, `reverse_ranked`) render the *question*: an English question's
words rendered in Chinese read CC-CEDICT against its grain (one English word, many headwords). This renders the
*memory* instead, once, as it is written:

* a Chinese memory by its words' CC-CEDICT English senses (`bilingual.english_words`, the dictionary's own
  direction) and the toneless pinyin of its Han runs (`bilingual.name_keys`, so "Lin Kai" meets 林凯);
* an English memory by its content words' Chinese headwords (`bilingual.chinese_words`).

A question then searches the other script's memories in its own words: an English one by its stemmed content words
and capitalised-name keys, a Chinese one by its Han terms. `GlossIndex` is the in-memory form the measurement reads
(`bench/xling40_eval.py`, built from a store's rows; a shipped form would keep each rendering on the write path).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from hindsight.retrieval.bilingual import chinese_words, english_words, name_keys
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.glossmatch import _QUESTION_WORDS, english_side
from hindsight.text.tokenize import query_terms

K1 = 1.2
B = 0.75


def memory_terms(content: str) -> tuple[str, list[str]]:
    """(the memory's script group, its rendering in the other script as search terms)."""
    group = bias_group(content)
    if group == "zh":
        return group, sorted(english_words(content) | name_keys(content, latin=False))
    return group, chinese_words(english_side(content))


def question_terms(query: str) -> tuple[str, list[str]]:
    """(the question's script group, the terms it searches the other script's renderings with)."""
    group = bias_group(query)
    if group == "en":
        return group, sorted((english_side(query) - _QUESTION_WORDS) | name_keys(query, latin=True))
    return group, sorted({t for t in query_terms(query) if len(t) >= 2 and any("\u4e00" <= c <= "\u9fff" for c in t)})


class GlossIndex:
    """BM25 over the renderings of one scope's memories, kept per script group of the memory."""

    def __init__(self, memories: Iterable[tuple[str, str]]) -> None:
        self.docs: dict[str, dict[str, dict[str, int]]] = {"en": {}, "zh": {}}
        for mid, content in memories:
            group, terms = memory_terms(content)
            counts: dict[str, int] = {}
            for t in terms:
                counts[t] = counts.get(t, 0) + 1
            self.docs[group][mid] = counts
        self.df: dict[str, dict[str, int]] = {}
        self.avg: dict[str, float] = {}
        for group, docs in self.docs.items():
            df: dict[str, int] = {}
            for counts in docs.values():
                for t in counts:
                    df[t] = df.get(t, 0) + 1
            self.df[group] = df
            self.avg[group] = (sum(sum(c.values()) for c in docs.values()) / len(docs)) if docs else 0.0

    def search(self, query: str, limit: int, allowed: set[str] | None = None) -> list[tuple[str, float]]:
        """The other script's memories whose rendering holds the question's terms, best first."""
        group, terms = question_terms(query)
        other = "zh" if group == "en" else "en"
        docs, df, avg = self.docs[other], self.df[other], self.avg[other] or 1.0
        n = len(docs)
        wanted = [t for t in terms if t in df]
        scored = []
        for mid, counts in docs.items():
            if allowed is not None and mid not in allowed:
                continue
            length = sum(counts.values())
            s = 0.0
            for t in wanted:
                tf = counts.get(t, 0)
                if tf:
                    idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                    s += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / avg))
            if s > 0:
                scored.append((mid, s))
        scored.sort(key=lambda item: (-item[1], item[0]))
        return scored[:limit]
