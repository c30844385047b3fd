"""Offline replay of the round-46 reading (`asked_slot` with the asked value's kind, `retrieval/asked_kind.py`) on
the pools `currency37_causes.py` dumped - stale45's replay (`stale45_replay.SlotRound`) with its own grid.

    python bench/stale46_replay.py OUT.json r16 ... [--only SETTING[,SETTING]] [--trace FLAGS.jsonl]

Stores and dumps: stale40's (r16 - r37), miss41's r38, miss44's r39, miss45's r40 (`LOCATIONS`). Ship rule:
bench/results/stale46/ship_rule.md (dev r16 - r28, held out r29 - r39, r40 in sample apart).
"""
from stale45_replay import LOCATIONS as L45
from stale45_replay import main

from hindsight.retrieval.asked_slot import AskedSlotRule

LOCATIONS = {**L45, "r40": ("/tmp/miss45/st", "/tmp/miss45/cur")}

GRID = [("main", None)] + [
    (f"en{en}/zh{zh}/{kind}/{'both' if both else 'newer'}/{'demote' if dm else 'flag'}{'/store' if sn else ''}"
     f"{'' if gated else '/ungated'}{'' if subj else '/nosubj'}{'' if units else '/nounits'}",
     AskedSlotRule(on=True, same_slot={"en": en, "zh": zh}, kind=kind, kind_both=both, demote=dm, head=5,
                   store_nearest=sn, gated=gated, subject=subj, kind_units=units))
    for en in (0.84, 0.88) for zh in (0.89,) for kind in ("and", "only") for both in (True, False)
    for dm in (False, True) for sn in (False, True) for gated in (True, False) for subj in (True, False)
    for units in (True, False)]


if __name__ == "__main__":
    main(GRID, LOCATIONS)
