"""A note that tells of a change in its own words (issue 10, supersede round 24).

The retrieval writers replace a fact with a realistic note: "Tai Koo is staying open longer: 7:30 to 19:00 daily from
15 August", "From 1 October, HK café escalations go to Janice Kwok", 生豆验收含水率标准收紧到11.5%以下, "As of 1 August
Melbourne's bookkeeping is on Xero ... the old MYOB file is archived". The read rule's change words
(`currency.CHANGE_CUE`) miss most of these forms, so the older memory - each the other's nearest neighbour, close, many
words shared - was read as current. `NOTE_CUE` reads four kinds of telling that a slot changed, general forms rather
than one round's words:

* a date from which the new state holds: "from 15 August", "From Monday, ...", "starting 3 March", "effective 1 May",
  "going forward", 10月1日起 / 从下周一起 / 自9月起 (not a span: "from 25 Dec to 1 Jan");
* the former state named as former: "the old ratio", "the former supplier", 原来的 / 之前那款 / 以前的;
* a setting revised in a direction: "staying open longer", "tightened", "relaxed", "extended to", 收紧 / 放宽 /
  涨价 / 降价, 推到12月;
* a holder or plan given up or taken up again: "we're moving to", "goes to", "change to", "not going ahead",
  "新价 / 新地址 / 新的联系人", 又开始, 恢复 (not 恢复正常).

`states_note_change(old, new)` asks for such a form in `new` that `old` does not use (a form both share is their
common topic). `RULE.on` (off: measured, not chosen held out) switches the read-time reading (`mark_note_changes`, called after `currency.mark_outdated`)
- the same bars as the change tier of `currency` (one script, cosine, shared anchors, each the other's nearest neighbour
among the window's hits and the store's memories - retired ones included, so a note the write already applied to a
closer memory outdates no second one -, no other owner, a dated episode only when the newer note replans it); the write side reads the same forms in `write/slot_change.py`'s note tier. Positive evidence only: a pair
that misses one bar stays as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from hindsight.model import Status
from hindsight.read_model import SearchHit
from hindsight.retrieval import currency
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.currency import _same_slot

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
_DAYNAME = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"

NOTE_CUE = re.compile(
    # a date from which it holds - not a span ("from 25 Dec to 1 Jan"); a weekday only opening a sentence ("From
    # Monday, ..."): "Pieter's takeaway from Tuesday" names a source
    rf"\b(?:from|starting|effective|beginning|as from)\s+(?:(?:the|this|next|mid-?|early|late)\s+)?"
    rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}|{_MONTH}(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?|tomorrow|"
    rf"\d{{4}}-\d{{1,2}}-\d{{1,2}}|the \w+ (?:shipment|batch|order|term|season|quarter|cycle|release))\b"
    rf"(?!\s*(?:to|until|till|through|[-–—])\s*\d)(?!\s+(?:to|until|till|through)\b)"
    rf"|(?:^|[.!?;:]\s+)(?:from|starting)\s+(?:next\s+)?{_DAYNAME}\b"
    r"|\b(?:going forward|from now on|with effect from|until further notice)\b"
    # the former state named as former ("the old ratio", "the former supplier"; "the previous build" was a rollback
    # restated, so not "previous")
    r"|\b(?:the|our|her|his|their) (?:old|former) [a-z]+|\bnot any more\b"
    # a setting revised in a direction
    r"|\b(?:staying|stays|open|opens|closing|closes) (?:longer|later|earlier)\b"
    r"|\b(?:tightened|loosened|relaxed|stricter|extended to|shortened to|raised to|lowered to|brought forward)\b"
    # a holder or plan given up or taken up: "we're moving to", "change to", "not going ahead"
    r"|\b(?:(?:are|is|'re|'s) moving to|change to|changes to|not going ahead|dropped|scrapped|reworked|"
    r"handed over|hands over|takes over|replacing)\b"
    # Chinese: 起 after a date, the former state, a direction (推到 / 延到 only before a time: alerts are 推到 a
    # group), a new holder, taken up again (恢复 not before 正常: a connection 恢复正常 is restated; not 不X了:
    # 不排了 restated 不做)
    r"|(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*[日号]起|从[^，。；,;]{1,10}?起|自[^，。；,;]{1,10}?起"
    r"|原来的|原先的|之前的|之前那|以前的|旧的|不再是"
    r"|收紧|放宽|加严|涨价|降价|涨了|降了|提前到|(?:推|延)到(?=\s*[\d一二三四五六七八九十下明后])"
    r"|新的|新价|新地址|新电话|新号码|新联系人|新标准|新规定|新流程|新负责人"
    r"|又开始|恢复(?!正常)",
    re.IGNORECASE | re.MULTILINE,
)


def note_forms(text: str) -> set[str]:
    return {m.group(0).lower() for m in NOTE_CUE.finditer(text)}


def states_note_change(old: str, new: str) -> bool:
    """`new` tells of a change in a form (`NOTE_CUE`) that `old` does not use."""
    return bool(note_forms(new) - note_forms(old))


@dataclass(frozen=True)
class NoteRule:
    """The read-time note reading: `on` switches it (the bars are `currency.RULE`'s change tier). Off: measured
    leave-one-round-out over the 23 released retrieval stores written by the branch, every fold chose off (pooled 2
    fewer stale memories read as current for 2 more false-flag memories; docs/benchmarks.md, "Currency, round 24")."""

    on: bool = False


RULE = NoteRule()


def mark_note_changes(hits: list[SearchHit], embeddings_of: Callable[[list[str]], Mapping[str, np.ndarray]],
                      neighbours_of: currency.Neighbours | None, depth: int, rule: NoteRule | None = None
                      ) -> list[SearchHit]:
    """Flag an older active hit `outdated` (`current: false`, `why.outdated_by`) when a newer hit among the best
    `depth` tells of a change in note form (`states_note_change`) and the pair, in one script (as the write tier),
    passes the change tier's bars of `currency.RULE`; the newer hit then ranks right above it. Hits another reading
    flagged are left as they are. `neighbours_of` should reach retired memories too: a note whose change the write
    already applied to a closer memory (now deprecated) is no evidence against the next one."""
    rule = RULE if rule is None else rule
    window = [h for h in hits[:min(depth, currency.MAX_WINDOW)] if h.memory.status == Status.active]
    if not rule.on or len(window) < 2:
        return hits
    telling = [h for h in window if not currency.ADDITIVE.search(h.memory.content) and note_forms(h.memory.content)]
    if not telling:
        return hits
    vectors = embeddings_of([h.memory.id for h in window])
    window = [h for h in window if h.memory.id in vectors]
    group = {h.memory.id: bias_group(h.memory.content) for h in window}
    out = list(hits)
    outdated = {h.memory.id for h in window if not h.current}
    for new in sorted((h for h in telling if h.memory.id in vectors),
                      key=lambda h: (h.memory.reference_time, h.memory.created_at)):
        for old in window:
            if old is new or not old.current or old.memory.reference_time >= new.memory.reference_time:
                continue
            if not states_note_change(old.memory.content, new.memory.content):
                continue
            groups = frozenset({group[old.memory.id], group[new.memory.id]})
            bar = currency.RULE.bar(groups, True)
            if len(groups) > 1 or bar is None or float(np.dot(vectors[old.memory.id], vectors[new.memory.id])) < bar[0]:
                continue
            if currency.other_owners(old.memory.content, new.memory.content):
                continue
            if (currency.lasting(old.memory.type, old.memory.content)
                    and not currency.replans(old.memory.content, new.memory.content, currency.RULE.replan_overlap)):
                continue
            if not _same_slot(old, new, window, vectors, group, bar, neighbours_of, outdated):
                continue
            old.current = False
            old.why.outdated_by = new.memory.id
            old.why.outdated_change = True
            outdated.add(old.memory.id)
            if currency.OUTDATED not in old.flags:
                old.flags.append(currency.OUTDATED)
            i, j = out.index(old), out.index(new)
            if i < j:
                out.remove(new)
                out.insert(i, new)
                new.score = new.why.final = max(new.score, old.score)
    return out
