"""Offline replay of the round-46 reading (`asked_slot` with the asked value's kind, `retrieval/asked_kind.py`) on
the pools `currency37_causes.py` dumped - stale45's replay (`stale45_replay.SlotRound`) with its own grid.

    python bench/stale46_replay.py OUT.json r16 ... [--only SETTING[,SETTING]] [--trace FLAGS.jsonl]

Stores and dumps: stale40's (r16 - r37), miss41's r38, miss44's r39, miss45's r40 (`LOCATIONS`). Ship rule:
bench/results/stale46/ship_rule.md (dev r16 - r28, held out r29 - r39, r40 in sample apart).
"""
import argparse
import json
import sys
from pathlib import Path

from stale45_replay import LOCATIONS as L45
from stale45_replay import SlotRound

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("rounds", nargs="+")
    ap.add_argument("--only", default=None, help="one setting name of GRID, or several joined by commas (and main)")
    ap.add_argument("--trace", default=None)
    args = ap.parse_args()
    only = None if args.only is None else args.only.split(",")
    grid = [g for g in GRID if only is None or g[0] == "main" or g[0] in only]
    if only and len(grid) != len(only) + 1:
        sys.exit(f"no setting {args.only}")
    res: dict[str, dict[str, dict]] = {}
    trace: list = []
    for r in args.rounds:
        st, du = LOCATIONS[r]
        rd = SlotRound(Path(st), Path(du), r)
        res[r] = {name: rd.score(rule, trace if args.trace and rule is not None and args.only else None)
                  for name, rule in grid}
        base = res[r]["main"]
        print(r, base["strict"], base["flag"], base["false_flag_memories"], flush=True)
        Path(args.out).write_text(json.dumps(res, indent=1))
    if args.trace:
        Path(args.trace).write_text("\n".join(json.dumps(t, ensure_ascii=False) for t in trace) + "\n")


if __name__ == "__main__":
    main()
