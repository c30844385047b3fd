"""Hygiene round 12b: every merge blocker a hygiene write can ask for, per pair of the released rounds.

    PYTHONPATH=SRC python bench/hygiene_names_pairs.py OUT.json

For each pair ("round:index") the `evidence.merge_blocker` reasons of existing/new, others/new and
others/existing, raw and as `conversions.written_alike` rewrites them. Run with main's src and a branch's; the
pairs whose lists differ are the only ones the branch's blocker can move (`bench/hygiene_funnel.py --pairs`).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from hindsight.write.analysis import analyse
from hindsight.write.conversions import written_alike
from hindsight.write.evidence import merge_blocker

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = ("r1", "r2", "r4", "r5", "r6", "r7", "r8", "r8T1", "r9", "r9T1", "r10", "r10T1", "r11", "r11T1", "r13", "r15", "r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31", "r32", "r33", "r34", "r35", "r36", "r37", "r38", "r39", "r40", "r41")


def blockers(old: str, new: str) -> list[str]:
    out = [merge_blocker(analyse(old, new), None, old, new) or ""]
    o2, n2 = written_alike(old, new)
    if (o2, n2) != (old, new):
        out.append(merge_blocker(analyse(o2, n2), None, o2, n2) or "")
    return out


def main() -> int:
    res: dict[str, list[str]] = {}
    for rnd in ROUNDS:
        base = ROOT / "bench" / "data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
        lines = (base / "hygiene" / "set.jsonl").read_text(encoding="utf-8").splitlines()
        for i, row in enumerate(json.loads(x) for x in lines if x.strip()):
            texts = (row.get("others") or []) + [row["existing"]]
            got: list[str] = []
            for j, text in enumerate(texts):
                got += blockers(text, row["new"])
                for later in texts[j + 1:]:
                    got += blockers(text, later)
            res[f"{rnd}:{i}"] = got
    Path(sys.argv[1]).write_text(json.dumps(res, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
