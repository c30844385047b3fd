"""Positive evidence that lifts a value merge blocker: the two sides state the same values once read in one form.

`evidence.merge_blocker` keeps a pair apart when its amounts differ (`amounts.quantities_differ`: 30 minutes / 30
days) or its numbers differ (the analysis' numbers of one side only). Some restatements are held there only because
one value is written in a form the blocker's reading does not match: "six months" / "half a year", "a fortnight" /
"14 days", 一个半小时 / 90 分钟, a phone read digit by digit (hygiene round 19: the released restatements that main
keeps with these blockers). `value_forms.read_values` reads those forms for the same-fact agreement; here the
blocker's own reading is asked again of both texts so read. The block is lifted only on positive evidence: both
sides still state values after the reading and none is left over on either side. A text whose values vanish in the
reading (a weekday list read as "weekdays") lifts nothing, and neither does a number read alike in another unit
(300 seconds / 300 milliseconds stay two amounts: the units are part of the quantity).
"""

from __future__ import annotations

from functools import lru_cache

from hindsight.write.amounts import quantities, quantities_differ
from hindsight.write.analysis import analyse
from hindsight.write.conversions import written_alike
from hindsight.write.value_forms import read_values, span_clashes

#: Which value blockers the reading may lift ("amounts", "numbers"); a switch so any setting can be replayed.
LIFTS: frozenset[str] = frozenset({"amounts", "numbers"})


def _read(old: str, new: str) -> tuple[str, str]:
    read_old, read_new = read_values(old), read_values(new)
    if (read_old, read_new) == (old, new):
        return old, new
    return written_alike(read_old, read_new)


@lru_cache(maxsize=4096)
def amounts_read_alike(old: str, new: str) -> bool:
    """Both texts state amounts and, with `value_forms`' readings, the same ones (no span of time in two units)."""
    if "amounts" not in LIFTS:
        return False
    old, new = _read(old, new)
    return (bool(quantities(old)) and bool(quantities(new)) and not quantities_differ(old, new)
            and not span_clashes(old, new))


@lru_cache(maxsize=4096)
def numbers_read_alike(old: str, new: str) -> bool:
    """Both texts state numbers and, with `value_forms`' readings, the same ones."""
    if "numbers" not in LIFTS:
        return False
    read_old, read_new = _read(old, new)
    a = analyse(read_old, read_new)
    return (bool(a.old_numbers) and bool(a.new_numbers) and not (a.old_numbers ^ a.new_numbers) - {"1"}
            and not quantities_differ(read_old, read_new))
