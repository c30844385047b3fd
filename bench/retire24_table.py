"""Retire round 24b: before (main's stores, `bench/results/supersede24_read_on.json`) -> after (the stores written
with `write.retire_veto`, `supersede24_read.py measure`), per round, main's read (setting "0").

    PYTHONPATH=src:bench python bench/retire24_table.py BEFORE.json AFTER.json
"""
import json
import sys

KEYS = ("stale_as_current", "stale_as_current_flag", "replaced_deprecated", "kept_retired", "false_flag_memories")


def row(d: dict) -> list[int]:
    return [d[k] for k in KEYS] + [sum(d["hit@5"].values()), d["hit@5"]["superseded"]]


def main(before_path: str, after_path: str) -> None:
    before, after = json.load(open(before_path)), json.load(open(after_path))
    print("| round | " + " | ".join((*KEYS, "hit@5 (all)", "hit@5 superseded")) + " |")
    for group in ("blind", "train"):
        rounds = [r for r in after if ("T" in r) == (group == "train") and r in before]
        tot_b, tot_a = [0] * (len(KEYS) + 2), [0] * (len(KEYS) + 2)
        for r in rounds:
            b, a = row(before[r]["0"]), row(after[r]["0"])
            tot_b, tot_a = [x + y for x, y in zip(tot_b, b)], [x + y for x, y in zip(tot_a, a)]
            print(f"| {r} | " + " | ".join(f"{x}" if x == y else f"{x} -> {y}" for x, y in zip(b, a)) + " |")
        print(f"| **{len(rounds)} {group}** | " + " | ".join(f"{x}" if x == y else f"**{x} -> {y}**"
                                                         for x, y in zip(tot_b, tot_a)) + " |")


def loro(before_path: str, after_path: str) -> None:
    """Each round with the veto on or off as the other rounds choose: kept retirements avoided - 2 x replaced ones
    lost (ties to off)."""
    before, after = json.load(open(before_path)), json.load(open(after_path))
    rounds = [r for r in after if r in before]

    def gain(r: str) -> int:
        b, a = before[r]["0"], after[r]["0"]
        return (b["kept_retired"] - a["kept_retired"]) - 2 * (b["replaced_deprecated"] - a["replaced_deprecated"])
    folds = {r: sum(gain(x) for x in rounds if x != r) > 0 for r in rounds}
    print("folds choosing on:", sum(folds.values()), "of", len(folds), "; pooled gain", sum(gain(r) for r in rounds))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
    loro(sys.argv[1], sys.argv[2])
