"""Read-time currency, round 37: two hits that give one attribute of one thing two different values (issue 10).

`currency.mark_outdated` reads an older and a newer hit as one slot when the newer one says it changed (`CHANGE_CUE`) or
gives a number of one kind in place of the older one's, with three shared anchors and a close cosine. Most superseded
memories still read as current on the released rounds fail those bars while the pair is plainly one attribute with a
new value: "陈蔓的车位是B2-117。" / "新楼车位分下来了，陈蔓分到B2-046，离电梯很近。", "报销截止日是每月25号" / "从四月开始，
报销单必须在每月20号之前交齐", "Team chat is Slack" / "... from Feb 1 all chat is on Lark (Feishu)".

`changed_value(old, new)` is the positive evidence asked for here, read with the write side's own readers:

* one script (a translation is no evidence of a value), the newer text does not say it adds (`ADDITIVE`), the two do
  not name different owners (`other_owners`);
* the two share an attribute word besides the subject's name and their dates (`write.shared_attribute.shared`: the
  hours, the parking space, the deadline) - what both are about;
* each gives a value the other lacks, of one kind (`write.analysis.text_diff`'s lost / novel units that are numbers
  or names; a number's kind by `value_align.number_kind`: a clock time for a clock time, an amount for an amount, a
  name for a name) - the value differs.

`mark_value_changes` reads it between the active hits of the result's depth, newer against older (event time), when
the pair is close for its script (`RULE.same_slot`) and each is the other's nearest memory of its script in the store
(`currency._nearest_in_store`, the check that keeps currency's false flags low); a dated episode or warning that stays
(`lasting`, unless the newer one replans it) is never read. The older hit is then flagged `outdated` (`current:
false`, `why.outdated_by`) and ranked right below the newer one, as `currency` does; nothing stored changes. When
unsure, nothing is flagged. `RULE.on` switches it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from hindsight.model import Status
from hindsight.read_model import SearchHit
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.currency import Neighbours, _nearest_in_store, flag_older
from hindsight.retrieval.note_change import states_note_change
from hindsight.retrieval.slot_cues import ADDITIVE, lasting, other_owners, replans, states_change_read
from hindsight.write.analysis import Unit, text_diff, units
from hindsight.write.shared_attribute import WHEN, shared
from hindsight.write.value_align import number_kind


@dataclass(frozen=True)
class ValueRule:
    """The bars of the reading (module doc); `on` False: no hit is read."""

    on: bool = False
    #: least cosine of the pair per script group
    same_slot: Mapping[str, float] = field(default_factory=lambda: {"zh": 0.93, "en": 0.90})
    #: each the other's nearest memory of its script in the store (False: among the result's hits only)
    store_nearest: bool = True
    #: the newer text tells a change: a change word or a value moved (`slot_cues.states_change_read`), or a note's
    #: own form new to the pair (`note_change.states_note_change`)
    told: bool = True


#: measured and shipped off (docs/benchmarks.md, "Currency, round 37"): chosen on r16 - r28 (read as current 84 -> 81
#: of 338, false-flag memories 60 -> 60), it flags nothing on the held-out r29 - r35
RULE = ValueRule()


#: words beside a number that say when, not what: two dates of one month are two occasions ("9月26日" / "10月16号")
_DATED = frozenset({"月", "日", "年", "month", "year"})


def _timeword(word: str) -> bool:
    return word in _DATED or WHEN.match(word) is not None


def _beside(us: tuple[Unit, ...] | list[Unit], i: int) -> set[str]:
    """The content words right before and right after unit `i` (function words skipped; a number is no such word)."""
    out = set()
    for step in (-1, 1):
        k = i + step
        while 0 <= k < len(us) and us[k].stop:
            k += step
        if 0 <= k < len(us) and not us[k].number:
            out.add(us[k].text)
    return out


@lru_cache(maxsize=4096)
def changed_value(old: str, new: str) -> str:
    """'<word>: <old value> -> <new value>' when `new` gives the thing `old` counts, measures or numbers another value
    (module doc), else ''."""
    if bias_group(old) != bias_group(new) or ADDITIVE.search(new) or other_owners(old, new) or two_times(old, new):
        return ""
    _, _, lost, novel = text_diff(old, new)
    gone = {u.text for u in lost if u.number}
    came = {u.text for u in novel if u.number}
    if not gone or not came:
        return ""
    ou, nu = units(old), units(new)
    for i, u in enumerate(ou):
        if u.text not in gone:
            continue
        for j, v in enumerate(nu):
            if v.text not in came or number_kind(u.text) != number_kind(v.text):
                continue
            words = {w for w in _beside(ou, i) & _beside(nu, j) if not _timeword(w)}
            about = shared(old, new) - words  # what the numbered thing is of: an attribute word besides its unit
            if words and about:
                return f"{' '.join(sorted(about | words))}: {u.text} -> {v.text}"
    return ""


#: a time a note is of: a month, a quarter, a year ("July numbers", 2月10号, 第三季度, Q4, 2027)
_TIME = re.compile(
    r"\b(?:jan(?:uary)?|feb(?:ruary)?|march|april|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|"
    r"nov(?:ember)?|dec(?:ember)?|q[1-4]|20\d\d)\b|[0-9一二三四五六七八九十]{1,3}月|第.季度|20\d\d年?",
    re.IGNORECASE,
)


def two_times(old: str, new: str) -> bool:
    """Each text names a time (a month, a quarter, a year) and they share none: two occasions or periods ("July
    numbers: 41 frames" / "September numbers: 46 frames", 请了2月10号到24号的假 / 10月20号到22号请了三天假)."""
    a = {m.group(0).lower() for m in _TIME.finditer(old)}
    b = {m.group(0).lower() for m in _TIME.finditer(new)}
    return bool(a and b and not a & b)


def mark_value_changes(hits: list[SearchHit], embeddings_of: Callable[[list[str]], Mapping[str, np.ndarray]],
                       neighbours_of: Neighbours | None, depth: int, rule: ValueRule | None = None
                       ) -> list[SearchHit]:
    """Flag and re-rank an older active hit whose attribute a newer hit among the best `depth` gives another value."""
    rule = RULE if rule is None else rule
    if not rule.on:
        return hits
    window = [h for h in hits[:depth] if h.memory.status == Status.active and h.memory.session_id is None]
    if len(window) < 2:
        return hits
    group = {h.memory.id: bias_group(h.memory.content) for h in window}
    vectors = embeddings_of([h.memory.id for h in window])  # the vectors first: most pairs end there, unread
    out = list(hits)
    outdated: set[str] = set()
    for new in sorted(window, key=lambda h: (h.memory.reference_time, h.memory.created_at)):
        for old in window:
            a, b = old.memory.id, new.memory.id
            if (old is new or not old.current or old.memory.reference_time >= new.memory.reference_time
                    or group[a] != group[b] or a not in vectors or b not in vectors):
                continue
            cos = float(np.dot(vectors[a], vectors[b]))
            if cos < rule.same_slot.get(group[a], 2.0):
                continue
            if not changed_value(old.memory.content, new.memory.content):
                continue
            if rule.told and not (states_change_read(new.memory.content)
                                  or states_note_change(old.memory.content, new.memory.content)):
                continue
            if lasting(old.memory.type, old.memory.content) and not replans(old.memory.content, new.memory.content):
                continue
            if not _nearest(a, b, cos, window, vectors, group, neighbours_of if rule.store_nearest else None,
                            outdated):
                continue
            flag_older(out, old, new, True, outdated)
    return out


def _nearest(a: str, b: str, cos: float, window: list[SearchHit], vectors: Mapping[str, np.ndarray],
             group: Mapping[str, str], neighbours_of: Neighbours | None, outdated: set[str]) -> bool:
    """Each of the pair is the other's nearest hit of its script among the window's, and among the store's memories
    when `neighbours_of` is given."""
    for x, y in ((a, b), (b, a)):
        rivals = [h.memory.id for h in window if h.memory.id not in (a, b, *outdated) and group[h.memory.id] == group[y]]
        if any(r in vectors and float(np.dot(vectors[x], vectors[r])) > cos for r in rivals):
            return False
    if neighbours_of is None:
        return True
    return all(_nearest_in_store(vectors[x], (a, b, *outdated), group[y], cos, neighbours_of) for x, y in ((a, b), (b, a)))
