"""Hygiene round 24b: value forms said rather than written (`write/value_spoken.py`, 15w / 5千) through the engine.

    PYTHONPATH=src:bench python bench/hygiene_spoken.py pairs --out PAIRS.json   # rows the new forms reach
    PYTHONPATH=/work/main/src:bench python bench/hygiene_funnel.py --pairs PAIRS.json --out MAIN.json   # main's library
    PYTHONPATH=src:bench python bench/hygiene_funnel.py --pairs PAIRS.json --out BRANCH.json
    PYTHONPATH=src:bench python bench/hygiene_spoken.py merge MAIN_A.json MAIN_B.json --out MAIN.json   # replays of parts
    PYTHONPATH=src:bench python bench/hygiene_alias.py compare MAIN.json BRANCH.json --out REPORT.json

`pairs`: every row of the hygiene rounds (`hygiene_funnel.ROUNDS`, released and training) where some text (others,
existing, new) has a mention of a form this round reads (a spoken digit run, a fraction of a unit, a calendar name,
a number scaled by w / 千) or a change verb it adds to `end_cues` (退休, 调去, 延到, "slipped to", "done with"). Every other row reads as on main (`value_canon` gives their texts the same values), so
replaying only these rows on main and on the branch gives the whole before -> after. The forms have no fitted
parameter: leave-one-round-out equals the in-sample run. docs/benchmarks.md "Hygiene, round 24b".
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from hygiene_funnel import ROUNDS
from hygiene_stack import _set_rows

from hindsight.write.value_spoken import EARLY

_DIGIT = "zero|oh|one|two|three|four|five|six|seven|eight|nine"
#: a superset of the forms the digit readers (`value_forms.spelled_digits`, `quantity_kinds.zh_digit_groups`) now
#: take besides what they took: digit words parted by commas, three or four Chinese digits, 幺
SELECT = [
    ("scaled", re.compile(r"\d\s*(?:w(?![A-Za-z])|千(?![克米瓦卡字帕焦赫伏兆]))|[^\x00-\x7f]\d[\d,]*(?:\.\d+)?\s*[kK万亿]")),
    ("en_digits", re.compile(rf"\b(?:{_DIGIT})(?:[\s,-]+(?:{_DIGIT})){{2,}}\b", re.IGNORECASE)),
    ("change_verb", re.compile(r"\b(?:retired|(?:is|are|'s|'re|was|were) done with|(?:slipped|slid|pushed(?: back| out)?|"
                               r"delayed|postponed|moved back|bumped(?: up)?|raised|lowered|relaxed|tightened|extended|"
                               r"cut|transferred|reassigned) to)\b|退休|先停了|停掉了|不学了|不上了|调去|调往|调任|延到|升到|"
                               r"延期到|延后到|推到|放宽到|收紧到|缩短到|延长到|涨到|降到|改由|现在由|现由|现在是\w{1,4}在管",
                               re.IGNORECASE)),
    ("zh_digits", re.compile(r"(?<![周期拜十百千万亿零〇幺一二两三四五六七八九])(?:[零〇幺一二三四五六七八九]{3,}"
                             r"|[〇幺一二三四五六七八九]*[零〇幺][零〇幺一二三四五六七八九]+)(?![十百千万亿零〇幺一二两三四五六七八九])")),
]


def reached(text: str) -> list[str]:
    """The kinds of new form `text` mentions."""
    return [kind for kind, pattern in (*EARLY, *SELECT) if pattern.search(text)]


def pairs(out: Path) -> None:
    found: list[str] = []
    for rnd in ROUNDS:
        for i, row in enumerate(_set_rows(rnd)):
            kinds = sorted({k for t in [*row.get("others", []), row["existing"], row["new"]] for k in reached(t)})
            if kinds:
                found.append(f"{rnd}:{i}")
                print(f"{rnd}:{i}", row["label"], kinds)
    out.write_text(json.dumps(found) + "\n", encoding="utf-8")
    print(len(found), "rows the forms reach")


def merge(parts: list[Path], out: Path) -> None:
    """`hygiene_funnel.py --pairs` replays of disjoint row sets as one: each round's decided rows together."""
    merged: dict[str, dict[str, list[dict[str, object]]]] = {}
    for part in parts:
        for rnd, report in json.loads(part.read_text(encoding="utf-8")).items():
            if rnd in ROUNDS:
                merged.setdefault(rnd, {"decided": []})["decided"].extend(report.get("decided", []))
    out.write_text(json.dumps(merged, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cmd", choices=["pairs", "merge"])
    parser.add_argument("parts", type=Path, nargs="*")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.cmd == "merge":
        merge(args.parts, args.out)
    else:
        pairs(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
