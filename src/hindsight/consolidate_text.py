"""What consolidation writes: the text of a new semantic memory and the fields it is stored with.

Split out of `consolidate.py` (round 33), which calls it for both passes. The text is the LLM's answer when one is
configured (and answers), else a deterministic extractive merge: the cluster's medoid (the member closest to all
others) followed by the sentences of other members that add detail, within a character budget. The fields take
the least-trusted member's source and credibility (`new_memory`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from hindsight.consolidate_currency import changes_slot, conflicts, sources_time
from hindsight.field_rules import MAX_TAGS
from hindsight.llm import LLMClient
from hindsight.model import DEFAULT_CREDIBILITY, MemoryRecord, MemoryType
from hindsight.summarize import split_sentences
from hindsight.turn_labels import unlabelled
from hindsight.write.analysis import analyse
from hindsight.write.text_rules import is_clean_identifier

PROMOTE_PROMPT = (
    "The records below are recurring experiences of an AI agent with one user or project. Write ONE lasting, "
    "general fact or rule that they support, in at most 200 characters, in the language of the records. "
    "Output only that fact.\n"
    "以下是智能体反复遇到的经历。请概括成一条长期有效的事实或规则（不超过200字，使用记录的语言），只输出这条事实。"
)
MERGE_PROMPT = (
    "The memories below state nearly the same thing. Merge them into ONE memory that keeps every distinct "
    "detail, in at most 300 characters, in the language of the memories. Output only the merged memory.\n"
    "以下记忆内容几乎相同。请合并为一条记忆，保留所有不同的细节（不超过300字，使用原记忆的语言），只输出合并后的记忆。"
)
PROMOTE_BUDGET = 240
MERGE_BUDGET = 400


def compose(records: list[MemoryRecord], prompt: str, budget: int, llm: LLMClient | None,
            vectors: Callable[[Sequence[MemoryRecord]], np.ndarray]) -> tuple[str, str]:
    """(text, method): LLM answer when available, else the medoid plus member sentences that add a
    name or number it lacks (without contradicting it), within `budget` characters; a sentence that
    keeps all of the text and adds to it replaces the text instead of repeating it. `vectors`: the members'
    fact vectors, asked for only by the extractive merge."""
    if llm is not None:
        body = "\n".join(f"- {r.content}" for r in records)
        answer = llm.complete(prompt, body)
        if answer:
            return answer.strip()[: budget * 2], "llm"
    matrix = vectors(records)
    centrality = (matrix @ matrix.T).sum(axis=1)
    # a member a newer member says changed gives no sentence: its value was replaced (round 47)
    replaced = {i for i, r in enumerate(records) for o in records
                if o.reference_time > r.reference_time and changes_slot(r.content, o.content)}
    order = sorted((i for i in range(len(records)) if i not in replaced or len(replaced) == len(records)),
                   key=lambda i: (-float(centrality[i]), records[i].created_at, i))
    medoid = records[order[0]]
    # a lasting fact, not a transcript: the session's turn labels stay in the episodes (turn_labels.py, round 47)
    text = unlabelled(medoid.content)
    for index in order[1:]:
        for sentence in split_sentences(unlabelled(records[index].content)):
            if sentence in text or len(text) + len(sentence) + 1 > budget:
                continue
            # keep a sentence only when it brings a name or number the text lacks, without contradicting it
            analysis = analyse(text, sentence)
            if analysis.strong_cue or analysis.number_change or analysis.polarity_flip:
                continue
            # nor a sentence that tells another value of a slot the text tells, or is told changed (round 47)
            if any(conflicts(kept, sentence) for kept in split_sentences(text)):
                continue
            if analysis.containment >= 0.999 and analysis.novel_units:
                text = sentence  # says everything the text says and more: it replaces the text
                continue
            if not [e for e in analysis.novel_entities if e != "1"]:
                continue
            joiner = "" if text.endswith(("。", "！", "？", "；")) else " "
            text = f"{text}{joiner}{sentence}"
    return text, "extractive"


def new_memory(records: list[MemoryRecord], text: str, method: str, key: str, namespace: str) -> dict[str, Any]:
    """The `MemoryInput` fields of the memory built from `records`; `key`: "consolidated_from" (promote) or
    "merged_from" (merge), the metadata key naming the sources."""
    # the least-trusted input decides: a memory built from an agent's words is the agent's, however many
    # user memories it was consolidated with (attack round 5: a tie favoured the user)
    source = min((r.source for r in records), key=lambda s: DEFAULT_CREDIBILITY[s])
    # a tag an older version stored with hidden characters is dropped, not copied (write/text_rules.py)
    tags = list(dict.fromkeys(t for r in records for t in r.tags if is_clean_identifier(t)))[:MAX_TAGS]
    return {
        "content": text,
        "type": MemoryType.semantic.value,
        "namespace": namespace,
        "tags": tags,
        "importance": round(min(1.0, max(r.importance for r in records) + (0.1 if key == "consolidated_from"
                                                                           else 0.0)), 4),
        "source": source.value,
        "credibility": round(min(r.credibility for r in records), 4),
        # as old as its newest source: never newer than a change written after them (round 47, consolidate_currency)
        "event_time": sources_time(records),
        "metadata": {key: [r.id for r in records],
                     "consolidation": "promote" if key == "consolidated_from" else "merge", "method": method},
    }
