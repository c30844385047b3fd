"""A value two facts of one subject rarely share by chance: the value gate's second tier (issue 10, round 26).

The value gate (`value_gate.gate_reason`) opens where two texts state the same values in other forms and nothing says
another fact; `judge.classify` then merges from the pair model's p(merge) `value_gate.VALUES_MERGE_P` (0.96). Over
the 38 released hygiene sets 361 restatements sat open under that p, beside the few distinct facts, changes and
others the gate also opens - and those share a *count, a date, a weekday, a duration, a share or an identifier* (#42,
Lab 3, 3%, 4月2号, "for 6 weeks", Dec 24-26): values many facts of one subject have in common. A shared **amount with a
unit** (money, a mass, a data size or rate, a frequency), **a time of day**, or **a phone number** (seven digits or
more) is rarely said of two facts of one subject by chance, so where the gate is open and such a value is shared, a
lower p(merge) may suffice: `SPECIFIC_MERGE_P`, measured leave-one-round-out (docs/benchmarks.md "Hygiene, round
26" - shipped off - and "Hygiene, round 27" - on at 0.70). Codes (e-mail addresses, IPs, ticket and order numbers) are not read so: `value_canon` squashes
them (PL-2291 and an address look alike), and a ticket number is shared by every fact about that ticket. Lexical
only.

Round 27 (issue 10) reads two things before the tier lowers p(merge), each one the engine already has:

* a change or an ending in the new text (`change_read`): a shared value does not make a text that says the value's
  fact ended, switched or moved a restatement of it ("Tomasz's 555-0129 number is disconnected" of "Tomasz is on
  WhatsApp at 555-0129", r24T41:13 merged at p 0.72 in round 26) - `end_cues.end_cue` (end cues and the ending family
  of `endings`), its switch cues, `end_cues.moved_value`, `state_change.state_change` and the analysis' strong cue;
* a time of day said alike on both sides (`_said_alike`): a bare hour (7点, 7:30) names a morning and an evening time,
  so "食堂早餐7点开始供应" shares 19:00 with "食堂晚餐供应到晚上7点" only by its evening reading (r6:118's other, merged
  into by the existing memory in round 26). The time counts where both mentions read the same times (8:15 / "a
  quarter past eight") or each side says it as one time: a mention that reads it alone (早上7点, 7 pm, 16:00), the
  time written on the 24-hour clock with a leading zero (02:00), or a part of the day said on its side that holds its
  hour ("half past nine in the morning", 十点前 ... 早上);
* one thing named by both besides the value (`one_thing`): the tier's premise is one subject, and two texts that share
  the amount and no other word may state two attributes that happen to be equal (a security deposit of one month's
  rent: "Rent is $2,150 and due on the 1st" / "Security deposit was $2,150", stored one after the other in r15:41,
  r7:231, r10T1:51).

`tier_reads(old, new)` is the three together with `specific_value`.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from hindsight.write.analysis import analyse, content_diff
from hindsight.write.end_cues import _SWITCH_EN, _SWITCH_ZH, end_cue, moved_value
from hindsight.write.endings import voided
from hindsight.write.evidence import WHO_WORDS
from hindsight.write.state_change import state_change
from hindsight.write.value_canon import canonical_values, part_hours, value_spans

#: Value kinds (`value_canon`'s prefixes) that are an amount with a unit or a time of day.
MEASURED_KINDS = frozenset({"money", "clock", "mass", "Mbps", "MB", "M", "G", "GB", "Gbps", "freq"})
#: p(merge) from which a pair the gate opens is merged where the tier reads it (`tier_reads`); None: off (the one
#: tier of round 22). Round 26 measured 0.75 but merged a change and touched an other (off); round 27, with
#: `change_read`, `_said_alike` and `one_thing`, chose 0.70 in every leave-one-round-out fold over the 40 sets: held
#: out +55 restatements through the engine, no change, distinct fact, supplement or other moved (docs/benchmarks.md
#: "Hygiene, round 27").
SPECIFIC_MERGE_P: float | None = 0.70


@lru_cache(maxsize=4096)
def specific_value(old: str, new: str) -> str | None:
    """The kind of the first value both texts state that two facts of one subject rarely share by chance
    ("money", "clock", ..., "phone"); None if they share none."""
    a, b = canonical_values(old), canonical_values(new)
    shared = {v for vs in a for v in vs} & {v for vs in b for v in vs}
    for value in sorted(shared):
        kind, _, rest = value.partition(":")
        if kind == "clock" and not _said_alike(old, a, new, b, value):
            continue  # a bare hour read as one of its two times: maybe not the time its text means
        if kind in MEASURED_KINDS:
            return kind
        if kind == "digits" and len(rest) >= 7:
            return "phone"
    return None


def _said_alike(old: str, a: tuple[frozenset[str], ...], new: str, b: tuple[frozenset[str], ...], value: str) -> bool:
    """Whether both texts say the time of day `value` alike: mentions of it that read the same times on both sides
    (8:15 / "a quarter past eight": both bare), or one time on each side (`_one_time`)."""
    if any(x == y for x in a if value in x for y in b if value in y):
        return True
    return _one_time(old, a, value) and _one_time(new, b, value)


def _one_time(text: str, mentions: tuple[frozenset[str], ...], value: str) -> bool:
    """Whether `text` says the time of day `value` ("clock:07:00") as one time: a mention that reads it alone, the time
    written on the 24-hour clock with a leading zero, or a part of the day said on its side that holds its hour."""
    if frozenset({value}) in mentions:
        return True
    hhmm = value.removeprefix("clock:")
    if hhmm.startswith("0") and re.search(rf"(?<![\d:]){hhmm}(?!\d)", unicodedata.normalize("NFKC", text)):
        return True
    return int(hhmm[:2]) in part_hours(mentions)


def change_read(old: str, new: str) -> str | None:
    """A change or an ending of the old text's fact that the engine reads in the new one (the cue), or None: an end
    cue or an ending (`end_cues.end_cue`), a switch cue, a value moved (`end_cues.moved_value`), a change told
    without a cue (`state_change`), the analysis' strong cue, a line or record voided (`endings.voided`)."""
    return (analyse(old, new).strong_cue or end_cue(old, new) or end_cue(old, new, (_SWITCH_EN, _SWITCH_ZH))
            or moved_value(old, new) or state_change(old, new) or (None if voided(old) else voided(new)))


def _without_values(text: str) -> str:
    """`text` (NFKC) with its value mentions (`value_canon.value_spans`: "$1,640", "30 元", 五五五 零一二六) blanked."""
    text = unicodedata.normalize("NFKC", text)
    for start, end in sorted(value_spans(text), reverse=True):
        text = f"{text[:start]} {text[end:]}"
    return text


def one_thing(old: str, new: str) -> bool:
    """Whether the texts name one thing besides their values: a content word of the old text outside its value
    mentions, not a number nor a whose-memory word (`evidence.WHO_WORDS`: user, 用户, team), that the new text keeps."""
    old_content, _, lost, _ = content_diff(analyse(_without_values(old), _without_values(new)))
    return any(not u.number and u.text not in WHO_WORDS for u in old_content if u not in lost)


def tier_reads(old: str, new: str) -> bool:
    """Whether the tier may lower p(merge) for the pair: a specific value shared, no change read in the new text
    (`change_read`), one thing named by both (`one_thing`: "Rent is $2,150" / "Security deposit was $2,150" share the
    amount and nothing else - two attributes that happen to be equal)."""
    return specific_value(old, new) is not None and not change_read(old, new) and one_thing(old, new)


def merge_p(old: str, new: str, base: float) -> float:
    """The p(merge) from which a pair the value gate opens is merged: `SPECIFIC_MERGE_P` where the tier reads the pair
    (`tier_reads`) and it is lower than `base`, else `base`."""
    if SPECIFIC_MERGE_P is None or SPECIFIC_MERGE_P >= base or not tier_reads(old, new):
        return base
    return SPECIFIC_MERGE_P
