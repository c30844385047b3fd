"""The quantity readings hygiene and currency run on a memory's text stay linear in a crafted run of digits.

Attack round 7's crafted memories (20,000 characters of one digit) reached the value readings added in round 22
(`value_canon`, `slot_value`, the read-side `SlotRule.values`): their unit patterns started a match at every digit
and scanned the rest of the run, so one search over such memories ran for minutes. CPU time of this process at n
and 10n, compared within one run (linear: about 10x), as tests/test_attack_round7.py does; no wall-clock budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from hindsight.write.conversions import amounts
from hindsight.write.quantity_forms import EVERY_FAMILY, mentions
from hindsight.write.slot_value import replaced_value


def _cpu(fn: Callable[[str], object], text: str) -> float:
    best = float("inf")
    for i in range(2):
        start = time.process_time()
        fn(text + " " * (i + 1))  # another text each time: the readers cache by text (one text twice timed the cache)
        best = min(best, time.process_time() - start)
    return best


def test_quantity_readings_are_linear_in_a_digit_run() -> None:
    for fn in (lambda t: mentions(t, EVERY_FAMILY), amounts):
        small = _cpu(fn, "Scratch files note 0: " + "7" * 1_000 + " (end)")
        big = _cpu(fn, "Scratch files note 0: " + "7" * 10_000 + " (end)")
        assert big <= 30 * small + 0.05, (small, big)


def test_a_long_run_still_leaves_the_quantities_around_it_read() -> None:
    found = mentions("It costs $40 per person; " + "7" * 100 + "; the call is at 3 pm.", EVERY_FAMILY)
    assert any("money" in str(m.values) or "40" in str(m.values) for m in found)
    assert not any(m.start >= 25 and m.end <= 125 for m in found)  # nothing read inside the run


def test_a_long_text_is_read_as_one_slot_in_linear_time() -> None:
    """The 2,000-character bound `slot_value.replaced_value` had is gone (the readings are linear now: tests/
    test_number_reader_cost.py); the write side still reads no text over `slot_change.VALUE_MAX_CHARS`."""
    assert replaced_value("The gate code is 1234.", "The gate code is 5678.")  # a short pair still reads
    small = _cpu(lambda t: replaced_value("The gate code is 1234.", t), "The gate code is " + "7" * 2_000 + ".")
    big = _cpu(lambda t: replaced_value("The gate code is 1234.", t), "The gate code is " + "7" * 20_000 + ".")
    assert big <= 30 * small + 0.05, (small, big)
