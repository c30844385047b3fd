"""One slot, a new value: the newer memory keeps what the older one is about and gives it another value.

Round 21's missed changes were mostly one value replaced by another - a phone number, a rate, a fee, a day and time,
a place, a supplier ("Hale Bright's flat fee for our personal return: $950." / "This season Hale Bright's flat fee
for the personal return is $1,050.", "Travel insurance policy: TravelSafe #TS-44810." / "Travel insurance: Wayfarer
Cover, policy #WC-90215.", "Low Tide edit is happening at Finch Post in Leeds." / "Low Tide edit: Harrow Lane
Studios, Manchester.") - kept apart by the judge as "different numbers about a different subject", "same statement
about something else" or a merge blocker. What tells such a pair from two facts is what each text is *about*: the
subject and the attribute (the older text's words that are not values) and whether the newer one gives that same
attribute a different value.

`replaced_value(old, new)` reads it lexically, on the judge's own units (`analysis.content_diff`, after
`conversions.written_alike`), with positive evidence only:

* what the older text is about is kept: every content word of it that is not a value (a number, a name, an
  identifier) is in the newer text (`FRAME_LOST` 0), and at least one is;
* its value is replaced: the values of the older text the newer one lacks are one stretch of it (nothing the newer
  text keeps stands between them: "Piano lessons for Ivy: Wednesdays 4:30" / "... for Theo: Wednesdays 5:15" are
  two items), the newer text gives values it lacks, of the same kinds (a clock time for a clock time, an amount
  for an amount, a name for a name: `value_align.number_kind`), and not the same value written shorter (Road / Rd,
  1988 / 88, 090-5512-7730 / 09055127730);
* no other attribute: no new word of the newer text stands among the words it keeps of the older one and the
  values it gives ("Passport *card* expires", "office *guest* Wi-Fi SSID", "10 days of *sick leave* per year",
  "Staging *cluster runs* Kubernetes 1.28" after "Staging is in us-east-2"), nor right next to them ("*target*
  weight", "*Seat* 14A", "6 *data nodes*");
* no other owner or item: no person or owner on one side only (`slots.other_entity`, `currency.other_owners`, a
  possessive only the newer text names: "Jonah's Global Entry", 老张的邻居), no `currency.ADDITIVE` cue ("also"),
  and not a dated reading (a date or month replaced together with a measured amount: two blood-pressure readings
  are two occurrences, not a fact and its update);
* one script (a translation across scripts is no evidence of a value).

Whether the two memories are one slot in the store (the new memory's nearest active neighbour, mutual nearest, the
newer one written later, not a dated episode) is the caller's part (`slot_change`'s sixth tier).
"""

from __future__ import annotations

import re
from functools import lru_cache

from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.slot_cues import _OWNER, ADDITIVE, CHANGE_CUE, other_owners
from hindsight.write.analysis import Unit, analyse, content_diff
from hindsight.write.conversions import written_alike
from hindsight.write.slots import other_entity
from hindsight.write.value_align import number_kind

__all__ = ["FRAME_LOST", "replaced_value"]

#: content words of the older text, values aside, the newer one may leave out: none (the attribute is kept whole)
FRAME_LOST = 0

_MONTHS = frozenset(["jan", "januari", "january", "feb", "februari", "february", "march", "mar", "april", "apr", "may", "jun", "june",
                     "jul", "juli", "july", "aug", "august", "sep", "sept", "septemb", "oct", "octob", "nov",
                     "novemb", "dec", "decemb", "月"])
_MEASURED = frozenset(["amount", "percent"])
_COPULAS = frozenset(["is", "are", "was", "were", "be", "been", "是", "为", "在"])
_DIGITS = re.compile(r"\D")


def _value(u: Unit) -> bool:
    return u.number or u.entity


def _kind(u: Unit) -> str:
    if u.number:
        return number_kind(u.text)
    return "month" if u.text in _MONTHS else "name"


def _owners(text: str) -> set[str]:
    return {a or b for a, b in _OWNER.findall(text)}


def _one_stretch(units: tuple[Unit, ...], gone: set[str]) -> bool:
    """The units whose text is in `gone` stand together in `units`: between the first and the last of them only
    function words, and no copula ("Home NAS (Synology DS920+) *is at* 192.168.1.20": a subject and a value)."""
    marks = [u.text in gone for u in units]
    if True not in marks:
        return False
    first, last = marks.index(True), len(marks) - 1 - marks[::-1].index(True)
    return all(m or (u.stop and u.text not in _COPULAS) for m, u in zip(marks[first:last + 1], units[first:last + 1]))


def _shorter_form(lost: list[Unit], novel: list[Unit]) -> bool:
    """The same value written shorter or longer (Road / Rd, 1988 / 88, a phone number's digits run together)."""
    a, b = "".join(u.text for u in lost), "".join(u.text for u in novel)
    digits_a, digits_b = _DIGITS.sub("", a), _DIGITS.sub("", b)
    return a.startswith(b) or b.startswith(a) or bool(digits_a and digits_a == digits_b)


def _other_attribute(new_units: tuple[Unit, ...], novel: list[Unit]) -> bool:
    """A new word of the newer text (not a value, not a change word) stands among what it shares with the older one
    and the values it gives, or right next to them: another attribute ("passport *card* expires", "office *guest*
    Wi-Fi SSID", "*target* weight 65 kg", "*Seat* 14A on the outbound flight", "employer *matches* 401(k)", 三点半开
    *技术分享*会). Read on the newer text's own units (a word is a value where it is written as one)."""
    fresh = {u.text for u in novel}
    at = [i for i, u in enumerate(new_units) if not u.stop and (u.text not in fresh or _value(u))]
    if not at:
        return False

    def new_word(u: Unit) -> bool:
        return not u.stop and not _value(u) and u.text in fresh and not CHANGE_CUE.fullmatch(u.text)
    if any(new_word(u) for u in new_units[max(0, at[0] - 1):at[-1] + 2]):
        return True
    # a new verb governing the span across function words: another relation ("*Staying* at the Hilton")
    before = [u for u in new_units[:at[0]] if not u.stop][-1:]
    after = [u for u in new_units[at[-1] + 1:] if not u.stop][:1]
    if any(u.verb and new_word(u) for u in before + after):
        return True
    # the span made the modifier of a new head (节点*的高可用架构*): another thing
    return new_units[at[-1] + 1:at[-1] + 2] != () and new_units[at[-1] + 1].text == "的" and any(
        new_word(u) for u in after)


@lru_cache(maxsize=4096)
def replaced_value(old: str, new: str) -> str:
    """Why `new` gives the attribute `old` states another value ("<old values> -> <new values>"), or "" (module doc)."""
    if bias_group(old) != bias_group(new) or ADDITIVE.search(new):
        return ""
    o, n = written_alike(old, new)
    pair = analyse(o, n)
    old_content, _, lost, novel = content_diff(pair)
    lost_values = [u for u in lost if _value(u)]
    novel_values = [u for u in novel if _value(u)]
    if not lost_values or not novel_values:
        return ""
    kinds = {_kind(u) for u in lost_values}
    if kinds != {_kind(u) for u in novel_values} or ("month" in kinds and kinds & _MEASURED):
        return ""
    frame = [u for u in old_content if not _value(u)]
    gone = {u.text for u in lost}
    kept = [u for u in frame if u.text not in gone]
    if not kept or len(frame) - len(kept) > FRAME_LOST:
        return ""
    if not _one_stretch(pair.old_units, {u.text for u in lost}) or _shorter_form(lost_values, novel_values):
        return ""
    if _other_attribute(pair.new_units, novel):
        return ""
    if other_owners(old, new) or any(o_ not in old for o_ in _owners(new)) or other_entity(old, new):
        return ""
    return f"{' '.join(u.text for u in lost_values)} -> {' '.join(u.text for u in novel_values)}"
