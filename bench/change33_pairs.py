"""change33 (issue 10): the retirements the write path makes, as text pairs, and their replay under a gate on the
change verdict (`change33_loro.py` reads them).

    PYTHONPATH=src:bench python bench/change33_pairs.py dump OUT.jsonl --hyg HYGDIR LOGROOT...

A LOGROOT holds ROUND/write_log.json (`supersede24_stores.py`); a round found under several roots is read from the
last. A retirement (the log's `supersedes`) is right when the retired memory is one the set says some write replaces;
wrong otherwise. `kind`: for a wrong one, whether the write replaces nothing, replaces a judged candidate, or another.
The hygiene sets (`supwrite32_hygiene.py`) are read the way `veto33_fit.hyg_replay` reads them.
Offline replay: a gated retirement is dropped and the write keeps no other (as `verdict_fold.VETO_HOLDS`).
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from blind_store import rows
from currency19_read import set_dir
from supwrite32_hyg_read import _records


def _logs(args: list[str]) -> tuple[dict[str, Path], Path | None]:
    hyg = None
    if "--hyg" in args:
        k = args.index("--hyg")
        hyg, args = Path(args[k + 1]), args[:k] + args[k + 2:]
    logs = {}
    for root in args:
        for f in sorted(Path(root).glob("*/write_log.json")):
            logs[f.parent.name] = f
    return logs, hyg


_P = re.compile(r"p\(change\)=([0-9.]+)")


def _p(reason: str) -> float | None:
    """The judge's p(change) as its reason gives it (None where it gives none: an LLM verdict, a long text)."""
    m = _P.search(reason)
    return float(m.group(1)) if m else None


def store_pairs(rnd: str, log_path: Path) -> tuple[list[dict], int]:
    mems = {m["id"]: m for m in rows(set_dir(rnd) / "retrieval/memories.jsonl")}
    replaced: set[str] = set()
    for m in mems.values():
        r = m.get("replaces")
        replaced |= set([r] if isinstance(r, str) else r or [])
    out = []
    for wid, e in json.loads(log_path.read_text()).items():
        if wid not in mems or e.get("duplicate_of"):
            continue
        reps = mems[wid].get("replaces")
        reps = set([reps] if isinstance(reps, str) else reps or [])
        judged = {j["old"]: j for j in e["judged"]}
        for old in e["supersedes"]:
            j = judged.get(old, {})

            right = old in replaced
            kind = "right" if right else ("nothing" if not reps else
                                         "pick" if reps & set(judged) else "outside")
            out.append({"src": "store", "round": rnd, "write": wid, "old_id": old, "right": right, "kind": kind,
                        "own": old in reps, "old": mems[old]["content"], "new": mems[wid]["content"],
                        "reason": j.get("reason", ""), "p": _p(j.get("reason", ""))})
    return out, len(replaced)


def hyg_rows(path: Path) -> list[dict]:
    rows_ = [json.loads(x) for x in open(set_dir(path.stem) / "hygiene/set.jsonl", encoding="utf-8") if x.strip()]
    out = []
    for entry in json.loads(path.read_text()):
        recs = _records(rows_[entry["i"]])
        writes = [(w["role"], set(w["supersedes"]), w["duplicate_of"]) for w in entry["writes"]]
        ps = {(w["role"], j["old"]): _p(j["reason"]) for w in entry["writes"] for j in w["judged"]}
        out.append({"i": entry["i"], "label": entry["label"], "lang": entry.get("lang"), "outcome": entry["outcome"],
                    "others_ok": entry["others_ok"], "writes": writes,
                    "texts": {k: r.content for k, r in recs.items()}, "p": ps})
    return out


def load(args: list[str]) -> tuple[dict[str, tuple[list[dict], int]], dict[str, list[dict]]]:
    """The stores' retirement pairs with their count of replaced memories, and the hygiene sets' rows."""
    logs, hyg = _logs(args)
    stores = {r: store_pairs(r, f) for r, f in sorted(logs.items())}
    hygs = {f.stem: hyg_rows(f) for f in sorted(hyg.glob("*.json"))} if hyg else {}
    return stores, hygs


def main() -> None:
    out, args = sys.argv[2], sys.argv[3:]
    stores, hygs = load(args)
    with open(out, "w", encoding="utf-8") as fh:
        for pairs, _ in stores.values():
            for p in pairs:
                fh.write(json.dumps(p, ensure_ascii=False) + "\n")
        for h, rows_ in hygs.items():
            for row in rows_:
                for role, mine, dup in row["writes"]:
                    for m in mine if not dup else []:
                        right = role == "new" and m == "existing" and row["label"] == "change"
                        fh.write(json.dumps({"src": "hyg", "round": h, "i": row["i"], "label": row["label"],
                                             "right": right, "old": row["texts"][m], "new": row["texts"][role],
                                             "p": row["p"].get((role, m))}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
