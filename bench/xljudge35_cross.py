"""xljudge35 (issue 10; measured, NOT shipped): the judge's reading of a pair whose two texts are in different scripts,
kept here for its replay (`xljudge35_replay.py`), its hygiene view and its cost check; `src/` is main's.

multilingual-e5-small scores an English note and its Chinese update lower than two texts of one script: over the
released retrieval stores a replaced cross-script pair sits at median cosine 0.84 (same-script replaced pairs: 0.91 EN,
0.95 ZH; docs/benchmarks.md "Hygiene, round 35b"), and `thresholds.for_pair` applies the English band (`conflict_low`
0.84) to any pair with an English side. Three readings, each a knob of the replay's grid:

* `cross_thresholds(base, low, needs_value)`: the band's floor `low` for a cross-script pair (not under the hygiene
  floor `judge.CUE_FLOOR`, so no candidate the search would not judge is read); with `needs_value`, only where both
  texts state a value or a name in common across languages (`shares_value`: `value_canon.value_match` pairs a mention -
  8 点 / 8pm, 周二 / Tuesday - or a Latin name, code or number is on both sides, `pair_features.anchor_terms`);
* `with_change_p(thresholds, c)`: the pair model's change threshold at c (0.99 on main) - the replay judges only
  cross-script pairs with it, so it reads as a cross-script threshold;
* `value_change(old, new)`: a kept cross-script pair read as a change when the new text signals one, the texts share
  a value or a name, and their values pair up but for one on each side, of one kind ("AP-3 经销商价 1450 欧元" /
  "AP-3 dealer price drops to EUR 1,390") - the lexical rules cannot align words across scripts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace

from hindsight.text.script import script_of
from hindsight.write.pair_features import anchor_terms
from hindsight.write.state_change import _MOVED_EN, _MOVED_ZH
from hindsight.write.supersede import change_signalled
from hindsight.write.thresholds import Band, HygieneThresholds
from hindsight.write.value_canon import canonical_values, value_match

#: the lowest floor that needs no wider search (the hygiene floor, `judge.CUE_FLOOR`)
LOWEST = 0.80
#: present-tense moves of a value the cue lists read only in the past ("drops to EUR 1,390", "slips to May")
_MOVES_NOW = re.compile(r"\b(?:drops|falls|rises|slips|slipped|shifts|shifted|goes (?:up|down)) to\b", re.IGNORECASE)


def crosses(old: str, new: str) -> bool:
    """Whether the two texts are in different scripts (one Chinese, one English-like)."""
    return script_of(old) != script_of(new)


def shares_value(old: str, new: str) -> bool:
    """Whether the two texts state a value (a number, date, time, amount, weekday) or a Latin name, code or number in
    common, in whatever language each says it."""
    return bool(anchor_terms(old) & anchor_terms(new)) or value_match(old, new).paired >= 1


@dataclass(frozen=True)
class CrossThresholds(HygieneThresholds):
    """`HygieneThresholds` whose band for a cross-script pair has the floor `cross_low` (where `needs_value` asks it,
    only for a pair whose texts state a value in common)."""

    cross_low: float = 0.84
    needs_value: bool = True

    def for_pair(self, old: str, new: str) -> Band:
        band = super().for_pair(old, new)
        if self.cross_low >= band.conflict_low or not crosses(old, new):
            return band
        if self.needs_value and not shares_value(old, new):
            return band
        return replace(band, conflict_low=self.cross_low)


def cross_thresholds(base: HygieneThresholds, low: float, needs_value: bool) -> HygieneThresholds:
    """`base` with the cross-script floor `low` (a typed error under `LOWEST`)."""
    if not LOWEST <= low <= 1.0:
        raise ValueError(f"the cross-script band's conflict_low must lie in [{LOWEST}, 1], got {low}")
    return CrossThresholds(**{f.name: getattr(base, f.name) for f in fields(HygieneThresholds)}, cross_low=low,
                           needs_value=needs_value)


def with_change_p(thresholds: HygieneThresholds, c: float) -> HygieneThresholds:
    """`thresholds` whose pair model changes from p(change) c (the rules' own changes are not touched)."""
    model = thresholds.pair_model
    return thresholds if model is None else replace(thresholds, pair_model=replace(model, t_change=c))


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
