"""Summaries of a set of memories: LLM when configured, extractive otherwise.

The extractive path picks the sentences closest to the centroid of all
sentences (a cheap, deterministic stand-in for "what these memories are
about"), keeping their original order, within a character budget.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

import numpy as np

from hindsight.embeddings.base import Embedder
from hindsight.llm import LLMClient
from hindsight.model import MemoryRecord

SummaryStyle = Literal["brief", "detailed", "structured"]

_BUDGET = {"brief": 150, "detailed": 600, "structured": 300}
_CJK = "\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef"
# Chinese terminal punctuation ends a sentence wherever it stands; ASCII . ! ? ; only when whitespace, the end,
# or a Chinese character follows, so "Ubuntu 24.04", "3.11.9", "$1,234.56" and URLs are never split.
_SENTENCE_SPLIT = re.compile(rf"(?<=[。！？；])\s*|(?<=[.!?;])(?:\s+|$|(?=[{_CJK}]))|\n+")
_CJK_CHAR = re.compile(rf"[{_CJK}]")

STRUCTURED_PROMPT = (
    "Summarise the task records below as one memory with four parts: 1. goal (one sentence) "
    "2. key steps (at most 3) 3. problem met and its fix (if any) 4. when this applies. "
    "About 150 characters in total; answer in the language of the records; drop chit-chat.\n"
    "请将以下记录总结为一条记忆：任务目标、关键步骤（不超过3步）、问题及解决方案、适用条件，约150字。"
)


#: sentences an extractive summary ranks at most, and the characters of each its vector reads (attack round 19: a
#: read token's memory_summarize of 20 memories of 20,000 characters embedded 5,600 sentences, 223 s of a core;
#: 200 ids of one-word sentences would have been hours)
MAX_SENTENCES_RANKED = 64
MAX_SENTENCE_CHARS_EMBEDDED = 400
#: characters of the records an LLM summary is sent at most (attack round 21: a read token's call sent every text
#: asked for, 200 memories of 20,000 characters, 4 MB, to a paid endpoint); each record gets an even share
MAX_LLM_CHARS = 24_000


def split_sentences(text: str) -> list[str]:
    """Sentence split for English and Chinese punctuation."""
    return [s.strip() for s in _SENTENCE_SPLIT.split(text) if s and s.strip()]


def candidate_sentences(records: Sequence[MemoryRecord]) -> list[str]:
    """Every sentence of the records in their order, or, past MAX_SENTENCES_RANKED, the first sentences of each
    record taken in turn (a memory's point is usually at its start), still in the records' order."""
    split = [split_sentences(r.content) for r in records]
    if sum(map(len, split)) <= MAX_SENTENCES_RANKED:
        return [s for sentences in split for s in sentences]
    taken: list[tuple[int, int]] = []
    depth = 0
    while len(taken) < MAX_SENTENCES_RANKED:
        taken.extend((i, depth) for i, sentences in enumerate(split) if depth < len(sentences))
        depth += 1
    return [split[i][j] for i, j in sorted(taken[:MAX_SENTENCES_RANKED])]


def llm_body(records: Sequence[MemoryRecord]) -> str:
    """The records as the LLM reads them: one line each, each clipped to an even share of MAX_LLM_CHARS."""
    share = max(1, MAX_LLM_CHARS // max(1, len(records)))
    lines = [f"- {r.content}" + (f" (context: {r.context})" if r.context else "") for r in records]
    return "\n".join(line if len(line) <= share else _clip(line, share) for line in lines)


class Summarizer:
    """Summarises memories; `llm` None means extractive only."""

    def __init__(self, embedder: Embedder, llm: LLMClient | None = None) -> None:
        self.embedder = embedder
        self.llm = llm

    def summarize(self, records: Sequence[MemoryRecord], style: SummaryStyle = "brief") -> tuple[str, str]:
        """Return (summary, method) where method is 'llm' or 'extractive'."""
        # a private memory's text never leaves for the endpoint (attack round 21): it is sealed at rest, kept out of
        # the keyword index and of other memories, so it is summarised here
        if self.llm is not None and not any(r.encrypted for r in records):
            body = llm_body(records)
            prompt = STRUCTURED_PROMPT if style == "structured" else f"Summarise in at most {_BUDGET[style]} characters."
            answer = self.llm.complete(prompt, body)
            if answer:
                return answer, "llm"
        return self.extractive(records, style), "extractive"

    def extractive(self, records: Sequence[MemoryRecord], style: SummaryStyle = "brief") -> str:
        sentences = candidate_sentences(records)
        if not sentences:
            return ""
        budget = _BUDGET[style]
        if len(sentences) == 1:
            return _clip(sentences[0], budget)
        vectors = self.embedder.embed_documents([s[:MAX_SENTENCE_CHARS_EMBEDDED] for s in sentences])
        centroid = vectors.mean(axis=0)
        order = np.argsort(-(vectors @ centroid), kind="stable")
        chosen: list[int] = []
        used = 0
        for index in order:
            length = len(sentences[index])
            if chosen and used + length > budget:
                continue
            chosen.append(int(index))
            used += length + 1
            if used >= budget:
                break
        text = " ".join(sentences[i] for i in sorted(chosen))
        if style == "structured":
            contexts = "; ".join(dict.fromkeys(r.context for r in records if r.context))
            if contexts:
                text = f"{text} | applies when: {contexts}"
        return _clip(text, budget + (200 if style == "structured" else 0))


def _boundary(text: str, i: int) -> bool:
    """True when cutting before text[i] splits no word, number, version or URL."""
    before, after = text[i - 1], text[i]
    return before.isspace() or after.isspace() or bool(_CJK_CHAR.match(before) or _CJK_CHAR.match(after))


def _clip(text: str, limit: int) -> str:
    """At most `limit` characters; the cut backs off to a boundary so no token is split (unless one fills it)."""
    if len(text) <= limit:
        return text
    cut = limit - 1
    while cut > 0 and not _boundary(text, cut):
        cut -= 1
    return (text[:cut] if cut > 0 else text[: limit - 1]).rstrip() + "…"
