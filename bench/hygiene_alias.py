"""Hygiene round 23: one person or thing named two ways (`write/name_alias.py`) through the engine.

    PYTHONPATH=src:bench python bench/hygiene_alias.py pairs --out PAIRS.json   # rows where the reading fires
    PYTHONPATH=src:bench python bench/hygiene_alias.py compare MAIN.json BRANCH.json --out REPORT.json

`pairs`: every row of the released hygiene rounds (`hygiene_funnel.ROUNDS` and the round-22 training sets r22T41, r22T42, r22T46) where
`name_alias.aliases` reads a name of one text as another text's form of it, for some two of its texts (others,
existing, new, in the order they are stored); every other row is judged as on main (the reading returns the new text
unchanged there), so running only these rows through `hygiene_funnel.py --pairs` on main and on the branch gives the
whole before -> after. `compare`: both runs side by side: the confusion of those rows before -> after, per round,
and each row whose outcome or others moved. The reading has no fitted parameter: leave-one-round-out equals the
in-sample run. docs/benchmarks.md "Hygiene, round 23: names".
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from hygiene_funnel import ROUNDS
from hygiene_stack import _set_rows

from hindsight.write.name_alias import aliases

ALL_ROUNDS = tuple(dict.fromkeys((*ROUNDS, "r22T41", "r22T42", "r22T46")))
TRAINING = frozenset(r for r in ALL_ROUNDS if "T" in r)


def pairs(out: Path) -> None:
    found: list[str] = []
    for rnd in ALL_ROUNDS:
        for i, row in enumerate(_set_rows(rnd)):
            texts = [*row.get("others", []), row["existing"], row["new"]]
            hits = [(x, y, aliases(texts[x], texts[y])) for y in range(1, len(texts)) for x in range(y)]
            hits = [h for h in hits if h[2]]
            if hits:
                found.append(f"{rnd}:{i}")
                print(f"{rnd}:{i}", row["label"], [h[2] for h in hits])
    out.write_text(json.dumps(found) + "\n", encoding="utf-8")
    print(len(found), "rows the reading can reach")


def compare(main_path: Path, branch_path: Path, out: Path) -> None:
    runs = [json.loads(p.read_text(encoding="utf-8")) for p in (main_path, branch_path)]
    before, after = Counter[str](), Counter[str]()
    moved: list[dict[str, Any]] = []
    for rnd in ALL_ROUNDS:
        mine = [{d["pair"]: d for d in run.get(rnd, {}).get("decided", [])} for run in runs]
        for key, m in mine[0].items():
            b = mine[1][key]
            for c, x in ((before, m), (after, b)):
                c[f"{x['label']}->{x['actual']}"] += 1
                c["others"] += len(x["others_ok"])
                c["others_ok"] += sum(x["others_ok"])
            if (m["actual"], list(m["others_ok"])) != (b["actual"], list(b["others_ok"])):
                moved.append({"pair": key, "training": rnd in TRAINING, "label": m["label"], "main": m["actual"],
                              "branch": b["actual"], "others_main": m["others_ok"], "others_branch": b["others_ok"],
                              "rules_main": m["rules"], "rules_branch": b["rules"]})
    result = {"before": dict(sorted(before.items())), "after": dict(sorted(after.items())), "moved": moved}
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for x in moved:
        print(x["pair"], "(training)" if x["training"] else "", x["label"], x["main"], "->", x["branch"],
              "others", x["others_main"], "->", x["others_branch"])
    print(json.dumps({"before": result["before"], "after": result["after"]}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pairs")
    p.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare")
    c.add_argument("main", type=Path)
    c.add_argument("branch", type=Path)
    c.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.cmd == "pairs":
        pairs(args.out)
    else:
        compare(args.main, args.branch, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
