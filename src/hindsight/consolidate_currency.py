"""What consolidation must not bring back: a source a newer memory retired, a text that mixes old and new values.

Round 47 (agent46's MCP walk): after "我现在改用 Cursor 写代码了，不再用 VS Code。" had superseded "我喜欢用 VS Code
写代码。", the promote pass clustered the old preference's session episode with another one and wrote "... 我喜欢用 VS
Code 写代码。" as a new, active semantic memory - newer than the change, so it answered first as current; it also
promoted an old deadline. In English the merge pass retired the clean "Actually I now prefer bun over pnpm ..." for a
text that appended "I prefer pnpm over npm ..." to it. The readings here are logic on what the store already holds
(the write path's links and retirements, the read side's slot cues), not a new threshold:

* `retired_sources`: an episode is not a promotion source when a newer memory retired what it says - a deprecated
  memory (`superseded_by` set) whose text the episode states verbatim (the session end's generalised turn), or a newer
  memory linked to it by hygiene (`supersedes` / `supplements`, the newer one the edge's source) that the write
  path's own pair judge reads as a change of it (`changed(old, new)`: `HygieneChecker.judge` says "override"; two
  episodes of different sessions are only ever linked by hygiene, so the episode stayed active) and that says so in
  words (`changes_slot`: a word of replacing the older text does not use, and two anchors they share - the pair
  judge alone read "Please always answer me in short bullet points." as changed by "... I now prefer bun ...");
* `mixes`: a text one of whose sentences states a change of another sentence's slot (`changes_slot`) - the
  merge pass never writes such a text over a member that does not mix (`Consolidator._merge_locked`), and the
  extractive composer never appends a sentence that would make one (`consolidate_text.compose`);
* `sources_time`: a new memory carries the time of its newest source (`event_time`), so read-time currency and
  hygiene see it as old as what it was built from, never newer than a change written after those sources.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime

from hindsight.model import MemoryRecord, Status
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.slot_cues import anchors
from hindsight.storage.base import MemoryStore
from hindsight.summarize import split_sentences
from hindsight.turn_labels import unlabelled

#: the kinds of edge hygiene writes from a newer memory to an older one it judged against
LINKS = ("supersedes", "supplements")

#: words that say a value was replaced (a narrower reading than `slot_cues.CHANGE_CUE`, which also reads "again",
#: "since", "starting", 已经, and 提前 ("eight hours early") - words a recurring experience uses: "the deploy broke again")
REPLACES = re.compile(
    r"\b(?:now|no longer|any ?more|instead|switched|replaced|moved|changed|postponed|rescheduled|pushed back)\b"
    r"|现在|改用|不再|换成|换到|改成|改为|改到|挪到|推迟|延期|取消", re.IGNORECASE)

#: shared anchors that make two texts of one script one slot (its subject and its value; one shared word is only a
#: topic: "Day 2: the Atlas team chose PostgreSQL" / "Day 3: the client moved the Atlas deadline"); across scripts one
SLOT_ANCHORS = 2


def changes_slot(old: str, new: str) -> bool:
    """`new` says that `old`'s slot changed: a word of replacing `old` does not use (`REPLACES`), and the content
    words, names or numbers they share (`slot_cues.anchors`, read without the session labels)."""
    old, new = unlabelled(old), unlabelled(new)
    cues = {m.group(0).lower() for m in REPLACES.finditer(new)} - {m.group(0).lower() for m in REPLACES.finditer(old)}
    if not cues:
        return False
    least = SLOT_ANCHORS if bias_group(old) == bias_group(new) else 1
    return len(anchors(old, new)) >= least


def conflicts(a: str, b: str) -> bool:
    """Either text states a change of the other's slot."""
    return changes_slot(a, b) or changes_slot(b, a)


def mixes(text: str) -> bool:
    """One sentence of `text` states a change of another sentence's slot: old and new values told as one."""
    sentences = split_sentences(text)
    return any(conflicts(a, b) for i, a in enumerate(sentences) for b in sentences[i + 1:])


def _stated(part: str, whole: str) -> bool:
    part = " ".join(part.split())
    return bool(part) and part in " ".join(whole.split())


def retired_sources(store: MemoryStore, namespace: str, episodes: Sequence[MemoryRecord],
                    changed: Callable[[MemoryRecord, MemoryRecord], bool]) -> set[str]:
    """The ids of `episodes` that a newer memory retired (see the module docstring); `changed(old, new)`: the pair
    judge reads `new` as a change of `old`."""
    if not episodes:
        return set()
    by_id = {r.id: r for r in episodes}
    edges = store.edges(list(by_id), list(LINKS))
    others = store.get_many(sorted({e.src for e in edges} | {e.dst for e in edges}))
    out: set[str] = set()
    for edge in edges:
        for mine, other_id in ((edge.dst, edge.src), (edge.src, edge.dst)):
            episode, other = by_id.get(mine), others.get(other_id)
            if episode is None or other is None or other.namespace != namespace or episode.id in out:
                continue
            if (other.status == Status.deprecated and other.metadata.get("superseded_by")
                    and _stated(other.content, episode.content)):
                out.add(episode.id)  # it states a memory a newer one superseded (a session end's generalised turn)
            elif (mine == edge.dst and other.status == Status.active and other.reference_time > episode.reference_time
                  and changes_slot(episode.content, other.content) and changed(episode, other)):
                out.add(episode.id)  # a newer memory hygiene linked to it changes it
    return out


def sources_time(records: Sequence[MemoryRecord]) -> datetime:
    """The time of the newest source: when it happened, else when it was last written."""
    return max(r.reference_time for r in records)
