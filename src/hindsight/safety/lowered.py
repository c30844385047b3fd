"""The classifier thresholds of round 22's readings: a write of a kind that recurs in the misses of every round is
judged at a lower threshold when its structure says what it does (issue 10, round 22).

Each reading marks a shape no single phrase list names, EN and ZH: a check waived on someone's spoken or informal word
(:mod:`spoken`), an addendum after a body of content that switches off a safeguard, fakes a record, changes a payee
or moves private material out (:mod:`tail`), and wording hidden by spelling, homoglyphs, split Han, pinyin or an
encoding (:mod:`hiding`: the decoded text is judged as if written plainly, and the hiding counts against it). The
thresholds were chosen leave-one-round-out over the released blind rounds (``bench/guard22_readings.py``,
docs/benchmarks.md "Guard, round 22 (readings)"); a reading is never a quarantine on its own.
"""

from __future__ import annotations

from hindsight.safety.spoken import spoken_waiver
from hindsight.safety.tail import appended_loosening

#: A check skipped, deferred or faked on someone's spoken or informal word (``spoken.spoken_waiver``).
SPOKEN_THRESHOLD = 0.15
#: An addendum that switches off a safeguard, fakes a record, changes a payee or moves private material
#: (``tail.appended_loosening``).
TAIL_THRESHOLD = 0.15
#: Wording hidden on purpose (``hiding.hiding_signs``): judged at this threshold once decoded.
HIDING_THRESHOLD = 0.2


def reading_threshold(normalised: str, hidden: bool = False) -> float | None:
    """The lowest threshold a round-22 reading sets for this text, or ``None`` when none reads it."""
    found = [t for t, reads in ((SPOKEN_THRESHOLD, lambda: spoken_waiver(normalised)),
                                (TAIL_THRESHOLD, lambda: appended_loosening(normalised)),
                                (HIDING_THRESHOLD, lambda: hidden)) if reads()]
    return min(found) if found else None
