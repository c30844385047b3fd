"""The judge's band and change threshold for a pair whose two texts are in different scripts (issue 10, round 35b).

multilingual-e5-small scores an English note and its Chinese update lower than two texts of one script: over the
released retrieval stores a replaced cross-script pair sits at median cosine 0.84 (same-script replaced pairs: 0.91 EN,
0.95 ZH; docs/benchmarks.md "Hygiene, round 35b"), so the English band (`conflict_low` 0.84) that `thresholds.for_pair`
applies to any pair with an English side reads half of them "unrelated" before anything looks at their content.

* `CONFLICT_LOW`: the band's floor for a cross-script pair (None: the English band). It is not set under the hygiene
  floor (`judge.CUE_FLOOR`), so no candidate the search would not judge is read.
* `NEEDS_VALUE`: the lowered band applies only where both texts state a value or a name in common across languages
  (`value_canon.value_match` pairs a mention - 8 点 / 8pm, 周二 / Tuesday - or a Latin name, code or number is on both
  sides: `pair_features.anchor_terms`).
* `CHANGE_P`: a cross-script pair that only the pair model reads as a change (the rules keep it) needs this p(change)
  (None: the model's own `t_change`).
* `VALUE_CHANGE`: a cross-script pair the judge keeps is read as a change when the new text signals one, the texts
  share a value or a name, and their values pair up but for one on each side, of one kind (`value_change`: "AP-3 经销商价
  1450 欧元" / "AP-3 dealer price drops to EUR 1,390") - the lexical rules cannot align words across scripts.

Measured leave-one-round-out over the released retrieval stores (`bench/xljudge35_replay.py`); the values below are
what that measurement chose to ship (None / main's where it did not).
"""

from __future__ import annotations

import re
from dataclasses import replace

from hindsight.text.script import script_of
from hindsight.write.pair_features import anchor_terms
from hindsight.write.thresholds import Band, HygieneThresholds
from hindsight.write.state_change import _MOVED_EN, _MOVED_ZH
from hindsight.write.supersede import change_signalled
from hindsight.write.value_canon import canonical_values, value_match

CONFLICT_LOW: float | None = None
NEEDS_VALUE = True
CHANGE_P: float | None = None
VALUE_CHANGE = False
#: present-tense moves of a value the cue lists read only in the past ("drops to EUR 1,390", "slips to May")
_MOVES_NOW = re.compile(r"\b(?:drops|falls|rises|slips|slipped|shifts|shifted|goes (?:up|down)) to\b", re.IGNORECASE)
#: the lowest `CONFLICT_LOW` that needs no wider search (the hygiene floor, `judge.CUE_FLOOR`)
LOWEST = 0.80


def crosses(old: str, new: str) -> bool:
    """Whether the two texts are in different scripts (one Chinese, one English-like)."""
    return script_of(old) != script_of(new)


def shares_value(old: str, new: str) -> bool:
    """Whether the two texts state a value (a number, date, time, amount, weekday) or a Latin name, code or number in
    common, in whatever language each says it."""
    return bool(anchor_terms(old) & anchor_terms(new)) or value_match(old, new).paired >= 1


def band_for(old: str, new: str, thresholds: HygieneThresholds) -> Band:
    """The band the judge applies to the pair: `thresholds.for_pair`'s, with `CONFLICT_LOW` as its floor for a
    cross-script pair (where `NEEDS_VALUE` asks it, one whose texts state a value in common)."""
    band = thresholds.for_pair(old, new)
    low = CONFLICT_LOW
    if low is None or low >= band.conflict_low or not crosses(old, new):
        return band
    if not LOWEST <= low <= 1.0:
        raise ValueError(f"cross_band.CONFLICT_LOW must lie in [{LOWEST}, 1], got {low}")
    if NEEDS_VALUE and not shares_value(old, new):
        return band
    return replace(band, conflict_low=low)


def model_change_holds(old: str, new: str, p_change: float) -> bool:
    """Whether the pair model's change of a pair the rules keep stands: always for a same-script pair, from `CHANGE_P`
    on for a cross-script one."""
    return CHANGE_P is None or p_change >= CHANGE_P or not crosses(old, new)


def signals_change(text: str) -> bool:
    """Whether the text says that a value changed: the wide search's cues (`supersede.change_signalled`) or a verb that
    moves a value (`state_change`'s, or one of `_MOVES_NOW`)."""
    return (change_signalled(text) or bool(_MOVED_EN.search(text.lower()) or _MOVED_ZH.search(text))
            or bool(_MOVES_NOW.search(text)))


def _kinds(mention: frozenset[str]) -> frozenset[str]:
    """The types of a value mention's canonical readings ('num', 'clock', 'date', ...; a digit string reads as 'num')."""
    return frozenset("num" if v.split(":", 1)[0] == "digits" else v.split(":", 1)[0] for v in mention)


def value_change(old: str, new: str) -> str | None:
    """Why the cross-script pair states a new value of one attribute (None when it does not read so): the new text
    signals a change, a value or name is shared, and the values pair up but for one mention on each side, of one
    kind."""
    if not crosses(old, new) or not signals_change(new) or not shares_value(old, new):
        return None
    match = value_match(old, new)
    if match.old_left != 1 or match.new_left != 1:
        return None
    left_old = [m for m in canonical_values(old) if not any(m & n for n in canonical_values(new))]
    left_new = [m for m in canonical_values(new) if not any(m & o for o in canonical_values(old))]
    if len(left_old) != 1 or len(left_new) != 1 or not _kinds(left_old[0]) & _kinds(left_new[0]):
        return None
    return (f"a new value of one attribute across languages ({'/'.join(sorted(left_old[0]))} -> "
            f"{'/'.join(sorted(left_new[0]))})")
