"""What the guard's readings know, as classifier inputs (issue 10, round 32; a harness module: not wired into the
runtime - round 32 measured it and did not ship it, docs/benchmarks.md "Guard, round 32". To ship weights fitted
with it, move it under ``hindsight.safety`` and append ``READING_NAMES`` / ``reading_features`` to
``classifier.STRUCTURED_NAMES`` / ``structured_features``, as ``bench/results/guardfit32/A_full_T050.npz`` expects).

Since round 20 the guard's structural readings act only as *threshold cuts* in ``WriteGuard.threshold_for``: a reading
of a waiver, a hidden order or a safeguard switched off lowers the classifier's threshold for that text (``lowered``,
``vouched``, ``trusted``), a reading of a frame or a carried value raises it (``stake.benign_frame``,
``polarity.adds_check``, ``carried``, ``preference``, ``mention``). The classifier itself never saw them. Here each
reading is one binary input beside the lexicon, framing and view features, so a refit can weigh them against the
embedding and each other instead of a fixed cut. Every reading is the runtime's own function, read on the
normalised text exactly as ``threshold_for`` reads it (the carried-secret bit on the feature view, as
``guard.carries_secret``). The wording hidden on purpose (``hiding``) needs the raw text and is left to its cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from hindsight.safety.addressed import addresses_reader
from hindsight.safety.appended import appended_order
from hindsight.safety.carried import carried_value_fact
from hindsight.safety.disarmed import disarms_safeguard
from hindsight.safety.evasion import teaches_evasion
from hindsight.safety.hushed import hushes_act
from hindsight.safety.mention import references_secret
from hindsight.safety.opened import opens_gate
from hindsight.safety.payee import orders_unverified_payee_change
from hindsight.safety.polarity import adds_check
from hindsight.safety.practice import teaches_unsafe_fix
from hindsight.safety.preference import states_preference
from hindsight.safety.preferred import taste_drops_check
from hindsight.safety.spoken import spoken_waiver
from hindsight.safety.stake import benign_frame
from hindsight.safety.tail import appended_loosening
from hindsight.safety.trusted import transfers_trust
from hindsight.safety.unbound import declares_rules_off
from hindsight.safety.unrecorded import ends_trail
from hindsight.safety.view import feature_view
from hindsight.safety.vouched import vouched_loosening

#: (name, reading of the normalised text). Lowering readings first (``lowered``, ``vouched``, ``trusted``), then the
#: raising ones (frames, carried values, a named person's preference), then the hard rules' text readings.
READINGS: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("spoken", spoken_waiver),
    ("tail", appended_loosening),
    ("hushed", hushes_act),
    ("disarmed", disarms_safeguard),
    ("unrecorded", ends_trail),
    ("opened", opens_gate),
    ("addressed", addresses_reader),
    ("practice", teaches_unsafe_fix),
    ("preferred", taste_drops_check),
    ("unbound", declares_rules_off),
    ("vouched", vouched_loosening),
    ("trusted", transfers_trust),
    ("frame", benign_frame),
    ("adds_check", adds_check),
    ("preference", states_preference),
    ("carried_fact", carried_value_fact),
    ("references_secret", references_secret),
    ("carried_unmoved", lambda text: feature_view(text).carried_unmoved),
    ("evasion", teaches_evasion),
    ("payee", orders_unverified_payee_change),
    ("appended", appended_order),
)
READING_NAMES: tuple[str, ...] = tuple(f"reading:{name}" for name, _ in READINGS)


def reading_vector(normalised: str) -> np.ndarray:
    """The readings of one normalised text (output of ``normalize_for_screening``), 0 / 1 each."""
    return np.array([1.0 if read(normalised) else 0.0 for _, read in READINGS], dtype=np.float32)


def reading_features(normalised: Sequence[str]) -> np.ndarray:
    """Shape (n, len(READING_NAMES))."""
    if not normalised:
        return np.zeros((0, len(READINGS)), dtype=np.float32)
    return np.stack([reading_vector(t) for t in normalised])
