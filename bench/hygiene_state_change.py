"""Hygiene round 25b (`write.state_change`): the rows its readings reach, and main against the branch on them.

    PYTHONPATH=src:bench python bench/hygiene_state_change.py pairs --out PAIRS.json
    PYTHONPATH=src:bench python bench/hygiene_state_change.py compare MAIN.json BRANCH.json --out RESULT.json

`pairs`: every row of `hygiene_funnel.ROUNDS` where `state_change` fires on an ordered pair of its texts (the
others, the existing memory, the new one; as written and as `conversions.written_alike` rewrites them). Elsewhere
the judge reads as on main, so replaying these rows with `hygiene_funnel.py --pairs` on both sides is the whole
before -> after. `compare`: the two replays' confusion and others untouched, held out (blind r1 - r22) and design
(r23 and the training sets), and every row that moved.
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import hygiene_funnel as funnel

from hindsight.write.conversions import written_alike
from hindsight.write.state_change import state_change


def design(pair: str) -> bool:
    """r23 and the training sets were read while designing the readings; the other blind rounds were not."""
    return pair.startswith("r23:") or "T" in pair.split(":")[0]


def pairs() -> list[str]:
    found = []
    for rnd in funnel.ROUNDS:
        base = funnel.ROOT / "bench/data" / ("blind" if (funnel.ROOT / "bench/data/blind" / rnd).exists() else "train")
        for i, line in enumerate((base / rnd / "hygiene/set.jsonl").read_text(encoding="utf-8").splitlines()):
            row = json.loads(line)
            texts = [*(row.get("others") or []), row["existing"], row["new"]]
            if any(state_change(*forms) for j, old in enumerate(texts) for new in texts[j + 1:]
                   for forms in ((old, new), written_alike(old, new))):
                found.append(f"{rnd}:{i}")
    return found


def compare(main: dict[str, Any], branch: dict[str, Any]) -> dict[str, Any]:
    def rows(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {x["pair"]: x for rnd, v in report.items() if rnd != "pooled_funnel" for x in v["decided"]}
    a, b = rows(main), rows(branch)
    both = sorted(set(a) & set(b))
    table: dict[str, Any] = {}
    for side, got in (("main", a), ("branch", b)):
        for part in ("held_out", "design"):
            picked = [got[p] for p in both if design(p) == (part == "design")]
            table[f"{side}/{part}"] = {
                "confusion": dict(sorted(Counter(f"{x['label']}->{x['actual']}" for x in picked).items())),
                "others_untouched": f"{sum(sum(x['others_ok']) for x in picked)}/{sum(len(x['others_ok']) for x in picked)}"}
    moved = [{"pair": p, "label": a[p]["label"], "main": a[p]["actual"], "branch": b[p]["actual"],
              "others_main": a[p]["others_ok"], "others_branch": b[p]["others_ok"], "design": design(p)}
             for p in both if a[p]["actual"] != b[p]["actual"] or a[p]["others_ok"] != b[p]["others_ok"]]
    return {"pairs": len(both), "table": table, "moved": moved}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("pairs").add_argument("--out", type=Path, required=True)
    cmp = sub.add_parser("compare")
    cmp.add_argument("main", type=Path)
    cmp.add_argument("branch", type=Path)
    cmp.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "pairs":
        found = pairs()
        args.out.write_text(json.dumps(found) + "\n", encoding="utf-8")
        print(len(found), "rows")
        return 0
    load = lambda p: json.loads(p.read_text(encoding="utf-8"))  # noqa: E731
    result = compare(load(args.main), load(args.branch))
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result["table"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
