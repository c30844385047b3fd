"""Offline replay of the round-45 read reading (`retrieval/asked_slot.py`) on the pools `currency37_causes.py` dumped.

    python bench/stale45_replay.py OUT.json r16 ... [--only SETTING] [--trace FLAGS.jsonl]

Each question's dumped 12-hit list (main's order, flags and currency; stale40's stores and dumps for r16 - r37,
miss41's for r38, miss44's for r39 - `LOCATIONS`) is read again by `mark_asked_slot` itself on SearchHit objects
rebuilt from the store, the store's own vectors for the cosines, and the head of 5 scored as `blind_eval.py
retrieval` scores it (`currency37_replay.Round.score`). The setting is chosen on the development rounds (r16 - r28)
pooled (`currency37_replay.gain`), then read once on the held-out ones (bench/results/stale45/ship_rule.md).
"""
import argparse
import json
import sys
from pathlib import Path

from currency37_replay import Round, gain

from hindsight.read_model import SearchHit
from hindsight.retrieval.asked_slot import AskedSlotRule, mark_asked_slot

#: (stores, dumps) per round: where the earlier branches left them on this machine
LOCATIONS = {**{f"r{n}": ("/tmp/stale40/st", "/tmp/stale40/main") for n in range(16, 38)},
             "r38": ("/tmp/miss41/st", "/tmp/miss41/cur"), "r39": ("/tmp/miss44/st", "/tmp/miss44/cur")}

GRID = [("main", None)] + [
    (f"en{en}/zh{zh}/{'val' if val else 'noval'}/{'demote' if dm else 'flag'}/h{hd}"
     f"{'/slot' if st else ''}{'/store' if sn else ''}",
     AskedSlotRule(on=True, same_slot={"en": en, "zh": zh}, values=val, demote=dm, head=hd, slot_term=st,
                   store_nearest=sn))
    for en in (0.86, 0.88, 0.90) for zh in (0.89, 0.92, 0.94) for val in (True, False) for dm in (False, True)
    for hd in (3, 5) for st in (False, True) for sn in (False, True)]


class SlotRound(Round):
    def read(self, pool: list[SearchHit], rule, question: str) -> list[SearchHit]:  # type: ignore[no-untyped-def]
        return mark_asked_slot(question, pool, self.embeddings, rule, self.neighbours)

    def score(self, rule, trace: list | None = None) -> dict:  # type: ignore[no-untyped-def]
        """`Round.score`, and every memory the reading flags that the writer never replaced, in the head or moved
        out of it (`wrong_flags_all`: a demoted memory leaves the harness's false-flag count, not the result)."""
        mine: list = []
        d = super().score(rule, mine)
        if trace is not None:
            trace.extend(mine)
        d["wrong_flags_all"] = sorted({t["old"] for t in mine if not t["replaced"]})
        d["right_flags_all"] = sorted({t["old"] for t in mine if t["replaced"]})
        return d

    def why(self, old: str, new: str) -> str:
        return ""


def main(grid_all: list | None = None, locations: dict | None = None) -> None:
    """Run the grid (`GRID`, or round 46's) on the rounds named, over `LOCATIONS` (or round 46's)."""
    grid_all = GRID if grid_all is None else grid_all
    locations = LOCATIONS if locations is None else locations
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("rounds", nargs="+")
    ap.add_argument("--only", default=None, help="one setting name of GRID, or several joined by commas (and main)")
    ap.add_argument("--trace", default=None)
    args = ap.parse_args()
    only = None if args.only is None else args.only.split(",")  # one setting, or several joined by commas
    grid = [g for g in grid_all if only is None or g[0] == "main" or g[0] in only]
    if only and len(grid) != len(only) + 1:
        sys.exit(f"no setting {args.only}")
    res: dict[str, dict[str, dict]] = {}
    trace: list = []
    for r in args.rounds:
        st, du = locations[r]
        rd = SlotRound(Path(st), Path(du), r)
        res[r] = {name: rd.score(rule, trace if args.trace and rule is not None and args.only else None)
                  for name, rule in grid}
        base = res[r]["main"]
        best = max(grid[1:], key=lambda g: gain(res[r][g[0]], base, 2))[0]  # a round's own best: printed only
        print(r, base["strict"], base["flag"], base["false_flag_memories"], "| best", best, res[r][best]["strict"],
              res[r][best]["flag"], res[r][best]["false_flag_memories"], flush=True)
    Path(args.out).write_text(json.dumps(res, indent=1))
    if args.trace:
        Path(args.trace).write_text("\n".join(json.dumps(t, ensure_ascii=False) for t in trace) + "\n")


if __name__ == "__main__":
    main()
