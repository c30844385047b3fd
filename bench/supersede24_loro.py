"""Supersede round 24: the write-side note tier held out by round (leave-one-round-out over off / on).

    PYTHONPATH=src:bench python bench/supersede24_loro.py BEFORE_ROOT AFTER_ROOT ROWS_OFF.json ROWS_NOTE.json OUT.json

Per round: the retrieval store written by main (BEFORE_ROOT) and by the branch (AFTER_ROOT, `supersede24_stores.py`):
replaced memories deprecated and kept ones retired; and the round's hygiene rows the tier can move
(`supersede24_rows.py`, replayed off / note): changes retired, wrong deprecations (a restatement, distinct or
supplement pair retired), distinct kept apart, others untouched. A fold takes "on" when, over the other rounds, gains
(replaced retired + changes retired) - 5 x (kept retired + wrong deprecations + distinct lost + others touched) > 0,
ties to off (the rule of currency rounds 17-19). Training rounds count in the folds' choice, never in the blind rows.
"""
import json
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path

from blind_store import rows
from currency19_read import set_dir


def statuses(store: Path, rnd: str) -> dict[str, int]:
    ids = json.loads((store / "ids.json").read_text())
    st = dict(sqlite3.connect(store / "m.db").execute("select id, status from memories").fetchall())
    replaced = {x for m in rows(set_dir(rnd) / "retrieval/memories.jsonl")
                for x in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])}
    return {"replaced_deprecated": sum(st.get(ids.get(x)) == "deprecated" for x in replaced),
            "replaced": len(replaced),
            "kept_retired": sum(st.get(v) == "deprecated" for k, v in ids.items() if k not in replaced)}


def hygiene(path: str) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for key, v in json.load(open(path)).items():
        d = out[key.split(":")[0]]
        d["changes"] += v["label"] == "change" and v["verdict"] == "change"
        d["wrong"] += v["label"] in ("restatement", "distinct", "supplement") and v["verdict"] == "change"
        d["distinct_kept"] += v["label"] == "distinct" and v["verdict"] == "kept"
        d["others_ok"] += sum(v["others_ok"])
    return out


def main() -> None:
    before, after, off_rows, on_rows, outp = Path(sys.argv[1]), Path(sys.argv[2]), *sys.argv[3:6]
    h0, h1 = hygiene(off_rows), hygiene(on_rows)
    rounds = sorted({p.name for p in after.iterdir() if (p / "ids.json").exists()} | set(h0))
    res = {}
    for r in rounds:
        s0 = statuses(before / r, r) if (before / r / "ids.json").exists() and (after / r / "ids.json").exists() else None
        s1 = statuses(after / r, r) if s0 is not None else None
        a, b = h0.get(r, {}), h1.get(r, {})
        res[r] = {"store_off": s0, "store_on": s1, "rows_off": dict(a), "rows_on": dict(b)}

    def gain(r: str) -> int:
        d = res[r]
        g = (d["rows_on"].get("changes", 0) - d["rows_off"].get("changes", 0))
        bad = (d["rows_on"].get("wrong", 0) - d["rows_off"].get("wrong", 0)
               + d["rows_off"].get("distinct_kept", 0) - d["rows_on"].get("distinct_kept", 0)
               + d["rows_off"].get("others_ok", 0) - d["rows_on"].get("others_ok", 0))
        if d["store_on"] is not None:
            g += d["store_on"]["replaced_deprecated"] - d["store_off"]["replaced_deprecated"]
            bad += d["store_on"]["kept_retired"] - d["store_off"]["kept_retired"]
        return g - 5 * bad
    folds = {r: int(sum(gain(x) for x in rounds if x != r) > 0) for r in rounds}
    out = {"rounds": res, "gain": {r: gain(r) for r in rounds}, "folds": folds}
    Path(outp).write_text(json.dumps(out, indent=1))
    print(json.dumps({"gain": out["gain"], "folds": folds}))


if __name__ == "__main__":
    main()
