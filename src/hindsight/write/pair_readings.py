"""The newer readings of a pair as pair-model inputs (issue 10, hygiene round 24).

The value gate (`write.value_gate`: the same canonical values in other forms, `write.value_canon`; one noun phrase
apart, `write.phrase_swap`; "also", a change cue, negation, an appended clause) merges a pair the judge keeps from the
pair model's p(merge), but the pair model was fitted before those readings existed and never saw them. Here they are a
small block of numbers the pair model may be fitted on beside `pair_features.FEATURES` (`PairModel.readings`): how
many values pair across and how many are left on each side, whether the gate is open and, if shut, the kind of reason,
and whether the two texts are one noun phrase apart. The block is repeated for Chinese pairs (values and phrases read
differently there). Names (`write.name_alias`) need no block: `evidence.merge_blocker`, a `pair_features` input,
reads them already.
"""

from __future__ import annotations

import numpy as np

from hindsight.write.pair_features import script_pair
from hindsight.write.phrase_swap import one_phrase_apart
from hindsight.write.value_canon import value_match
from hindsight.write.value_gate import gate_reason

#: `value_gate.gate_reason` by the start of its reason (None: open).
GATE_KINDS: tuple[tuple[str, str], ...] = (
    ("values", "values differ"),
    ("script", "another script"),
    ("adds", "the new text adds"),
    ("negation", "negation"),
    ("cue", "a change cue"),
    ("clause", "adds a clause"),
    ("phrase", "one noun phrase apart"),
)
_BASE: tuple[str, ...] = (
    "values_paired", "values_old_left", "values_new_left", "values_equal", "values_none",
    "gate_open", *(f"gate_{name}" for name, _ in GATE_KINDS), "phrase_swap",
)
READING_FEATURES: tuple[str, ...] = (*(f"read_{n}" for n in _BASE), *(f"read_zh_{n}" for n in _BASE))


def reading_features(old: str, new: str) -> np.ndarray:
    """The row of one pair in the order of `READING_FEATURES` (texts as the judge reads them)."""
    match = value_match(old, new)
    reason = gate_reason(old, new)
    none = match.paired + match.old_left + match.new_left == 0
    row = [
        float(min(3, match.paired)), float(min(3, match.old_left)), float(min(3, match.new_left)),
        float(match.equal), float(none), float(reason is None),
        *(float(reason is not None and reason.startswith(prefix)) for _, prefix in GATE_KINDS),
        float(one_phrase_apart(old, new) is not None),
    ]
    base = np.asarray(row, dtype=np.float64)
    return np.concatenate([base, base * float(script_pair(old, new) == "zh")])
