"""Supersede round 24: before -> after per round, and the read reading held out by round.

    PYTHONPATH=src:bench python bench/supersede24_table.py READ_ON.json READ_OFF.json

READ_ON: `supersede24_read.py measure` over the stores the branch wrote; READ_OFF: the same over the stores main's
write path wrote (`supersede24_stores.py --off`) for the rounds where the note tier retired something - elsewhere the
branch's store is main's. Before = main's store, read "0" (main's read); after = the branch's store, read "1".
The read reading's LORO is `supersede24_read.py --loro READ_ON` (both readings over the branch's stores).
"""
import json
import sys
from collections import Counter


def main() -> None:
    on, off = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
    keys = ("stale_as_current", "stale_as_current_flag", "stale_queries", "false_flag_memories",
            "replaced_deprecated", "replaced", "kept_retired")
    tot = {"before": Counter(), "after": Counter()}
    cats = {"before": Counter(), "after": Counter()}
    print("| round | superseded as current | read flag | replaced retired on write | kept ones retired | false-flag memories | hit@5 (all) |")
    print("|---|---|---|---|---|---|---|")
    for r in on:
        b = (off.get(r) or on[r])["0"]
        a = on[r][sys.argv[3] if len(sys.argv) > 3 else "0"]
        if "T" not in r:
            for name, d in (("before", b), ("after", a)):
                tot[name].update({k: d[k] for k in keys})
                cats[name].update(d["hit@5"])
        f = lambda k, b=b, a=a: f"{b[k]} -> {a[k]}" if b[k] != a[k] else f"{b[k]}"  # noqa: E731
        hb, ha = sum(b["hit@5"].values()), sum(a["hit@5"].values())
        print(f"| {r} | {f('stale_as_current')} of {a['stale_queries']} | {f('stale_as_current_flag')} | "
              f"{f('replaced_deprecated')} of {a['replaced']} | {f('kept_retired')} | {f('false_flag_memories')} | "
              f"{hb if hb == ha else f'{hb} -> {ha}'} |")
    print(json.dumps({k: dict(v) for k, v in tot.items()}))
    print(json.dumps({k: dict(v) for k, v in cats.items()}))


if __name__ == "__main__":
    main()
