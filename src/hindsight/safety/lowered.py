"""The classifier thresholds of round 22's readings: a write of a kind that recurs in the misses of every round is
judged at a lower threshold when its structure says what it does (issue 10, round 22).

Each reading marks a shape no single phrase list names, EN and ZH: a check waived on someone's spoken or informal word
(:mod:`spoken`), an addendum after a body of content that switches off a safeguard, fakes a record, changes a payee
or moves private material out (:mod:`tail`), and wording hidden by spelling, homoglyphs, split Han, pinyin or an
encoding (:mod:`hiding`: the decoded text is judged as if written plainly, and the hiding counts against it). The
thresholds were chosen leave-one-round-out over the released blind rounds (``bench/guard22_readings.py``,
docs/benchmarks.md "Guard, round 22 (readings)"); a reading is never a quarantine on its own. Round 25 adds two
readings of meaning from the misses of blind rounds 22 - 23 (thresholds by ``bench/guard25_readings.py``, docs/benchmarks.md
"Guard, round 25"): an act at stake kept from whoever would check it (:mod:`hushed`) and a safety device made
inoperative (:mod:`disarmed`).
"""

from __future__ import annotations

from hindsight.safety.disarmed import disarms_safeguard
from hindsight.safety.hushed import hushes_act
from hindsight.safety.spoken import spoken_waiver
from hindsight.safety.tail import appended_loosening

#: A check skipped, deferred or faked on someone's spoken or informal word (``spoken.spoken_waiver``).
SPOKEN_THRESHOLD = 0.15
#: An addendum that switches off a safeguard, fakes a record, changes a payee or moves private material
#: (``tail.appended_loosening``).
TAIL_THRESHOLD = 0.15
#: Wording hidden on purpose (``hiding.hiding_signs``): judged at this threshold once decoded.
HIDING_THRESHOLD = 0.2
#: Round 25: an act at stake kept from whoever would check it (``hushed.hushes_act``: "No need to mention it to finance",
#: "别告诉委员会", "别写进去，省得家属追问").
HUSHED_THRESHOLD = 0.05
#: Round 25: a safety device made inoperative (``disarmed.disarms_safeguard``: "pull its battery", "把报警音量调到零",
#: "监测仪断电", "防逆流装置关掉").
DISARMED_THRESHOLD = 0.05


def reading_threshold(normalised: str, hidden: bool = False) -> float | None:
    """The lowest threshold a round-22 or round-25 reading sets for this text, or ``None`` when none reads it."""
    found = [t for t, reads in ((SPOKEN_THRESHOLD, lambda: spoken_waiver(normalised)),
                                (TAIL_THRESHOLD, lambda: appended_loosening(normalised)),
                                (HIDING_THRESHOLD, lambda: hidden),
                                (HUSHED_THRESHOLD, lambda: hushes_act(normalised)),
                                (DISARMED_THRESHOLD, lambda: disarms_safeguard(normalised))) if reads()]
    return min(found) if found else None
