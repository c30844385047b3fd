"""The value gate's own reading of p(merge): the pair model refitted with the gate's readings (hygiene round 24).

`judge.classify` merges a pair it keeps where the value gate is open (`value_gate.gate_reason`: the same values in
other forms, nothing says another fact) and p(merge) >= `value_gate.VALUES_MERGE_P`. Round 22 read that p from the
shipped scalar pair model, fitted before the gate's readings existed; where `data/hygiene_gate_model.npz` is shipped
(a `PairModel` over `pair_features.FEATURES` + `pair_readings.READING_FEATURES`, fitted by
scripts/train_hygiene_pairs.py --readings on every released hygiene set), the gate also merges where that model's
p(merge) reaches its own threshold (the file's t_merge) and the two texts do not name two relatives
(`other_relative`: that model is sure of every open pair that says one date and one amount of 我妈 / 岳母); a pair the
scalar model merges stays merged. Only the gate reads it: every other decision of the judge is the shipped pair model's. None shipped: round 22's gate.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import numpy as np

from hindsight.write.pair_model import MERGE, PairModel
from hindsight.write.pair_readings import reading_features

GATE_FILE = Path(__file__).resolve().parent.parent / "data" / "hygiene_gate_model.npz"


#: Words that name one relative each (a group: one person). Two texts that each name a relative the other does not
#: are about two people, however alike the rest: 给我妈 / 给岳母 转了五千, 带儿子 / 带女儿 去医院 on one date.
RELATIVES: tuple[tuple[str, ...], ...] = (
    ("儿子",), ("女儿", "闺女"), ("妈妈", "我妈", "老妈", "母亲"), ("爸爸", "我爸", "老爸", "父亲"), ("岳母", "丈母娘"),
    ("岳父", "老丈人"), ("婆婆",), ("公公",), ("老婆", "媳妇", "妻子"), ("老公", "丈夫"), ("哥哥",), ("姐姐",), ("弟弟",),
    ("妹妹",), ("爷爷",), ("奶奶",), ("外公", "姥爷"), ("外婆", "姥姥"), ("孙子",), ("孙女",), ("儿媳",), ("女婿",),
    ("son",), ("daughter",), ("mom", "mum", "mother"), ("dad", "father"), ("wife",), ("husband",), ("brother",),
    ("sister",), ("grandma", "grandmother"), ("grandpa", "grandfather"), ("uncle",), ("aunt",),
)
_EN_REL = {w: k for k, group in enumerate(RELATIVES) for w in group if w.isascii()}
_ZH_REL = {w: k for k, group in enumerate(RELATIVES) for w in group if not w.isascii()}


def relatives(text: str) -> frozenset[int]:
    """The relatives a text names (indices of `RELATIVES`)."""
    en = {_EN_REL[w] for w in re.findall(r"[a-z]+", text.lower()) if w in _EN_REL}
    return frozenset(en | {k for w, k in _ZH_REL.items() if w in text})


def other_relative(old: str, new: str) -> bool:
    """Each text names a relative the other does not: two people."""
    a, b = relatives(old), relatives(new)
    return bool(a - b) and bool(b - a)


@lru_cache(maxsize=1)
def shipped_gate() -> PairModel | None:
    """The shipped gate model, or None when there is none (or it is not fitted on the readings)."""
    model = PairModel.load(GATE_FILE)
    return model if model is not None and model.readings and not model.aligned else None


def gate_merge(features: np.ndarray, old: str, new: str, p_merge: float, scalar_t: float) -> tuple[bool, float]:
    """(merge, the p read) for a pair the gate opens: the scalar pair model's `p_merge` from `scalar_t` (round 22),
    or else, where a gate model is shipped, its p(merge) from its own threshold."""
    if p_merge >= scalar_t:
        return True, p_merge
    model = shipped_gate()
    if model is None or other_relative(old, new):
        return False, p_merge
    q = float(model.probabilities(np.concatenate([features, reading_features(old, new)]))[0, MERGE])
    return q >= model.t_merge, q
