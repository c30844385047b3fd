"""Round 41: blind round 38's hygiene and retrieval misses laid out pair by pair, from the existing tools' outputs
(no search or write of its own).

    PYTHONPATH=src:bench python bench/miss41_rows.py HYG.json XMISSES.json CUR_DIR STORES OUT_DIR [ROUND] > rows.json
    PYTHONPATH=src:bench python bench/miss41_rows.py redacted HYG.json > redacted.json   # any rounds of `hyg38 misses`

HYG.json: `hyg38.py misses r38`; XMISSES.json: `xling40_misses.py STORES O r38`; CUR_DIR: `currency37_causes.py`'s
out dir (r38.json); STORES/r38: the harness's store (`blind_store.build`), read for each missed answer's status and
the memory that retired it; OUT_DIR/main_r38.jsonl: `xling32_eval.py`'s rows (every missed question of the round); OUT_DIR/sup_r38.jsonl, when
there: the same run with "superseded" in `DEEP_CATS` (its misses get `recall34_causes.cause` too). ROUND (default r38;
miss44 read r39) replaces r38 in every name above.
"""

import json
import sqlite3
import sys
from pathlib import Path

from hyg38 import EXPECTED, kind_of, stage_of
from recall34_causes import cause

BLIND = Path(__file__).resolve().parent / "data" / "blind"


def hygiene(report: dict) -> dict:
    """Every missed change / restatement with its stage (hyg38's), the rules' own keep reason, the head's p, and the
    pairs that disturbed something they should not have (distinct read as a change, an `others` memory touched)."""
    missed, wrong = [], []
    for d in report["decided"]:
        row = {"pair": d["pair"], "label": d["label"], "lang": d["lang"], "actual": d["actual"],
               "decider": d["decider"], "q_keep_merge_change": d.get("decision_q"),
               "final": d["final"], "existing": d["existing"], "new": d["new"]}
        if d["label"] in ("change", "restatement") and d["actual"] != EXPECTED[d["label"]]:
            stage = stage_of(d)
            missed.append({**row, "stage": stage, "kind": kind_of(stage)})
        if d["actual"] != EXPECTED.get(d["label"], d["actual"]) and d["label"] == "distinct" or not all(d["others_ok"]):
            wrong.append({**row, "others_ok": d["others_ok"], "others": d["others"]})
    return {"missed": missed, "disturbed": wrong}


def retrieval(xmisses: dict, cur: dict, stores: Path, out: Path, rnd: str = "r38") -> dict:
    ids = json.loads((stores / rnd / "ids.json").read_text())
    inv = {v: k for k, v in ids.items()}
    db = sqlite3.connect(stores / rnd / "m.db")

    def memory(sid: str) -> dict:
        status, reason, meta, text = db.execute(
            "SELECT status, status_reason, metadata, content FROM memories WHERE id = ?", (ids[sid],)).fetchone()
        row = {"id": sid, "status": status, "text": text}
        by = json.loads(meta).get("superseded_by")
        if by:
            row["retired_by"] = {"id": inv.get(by), "text": db.execute(
                "SELECT content FROM memories WHERE id = ?", (by,)).fetchone()[0]}
        elif reason:
            row["reason"] = reason
        return row

    causes = {(m["line"]): m for m in xmisses["misses"]}
    deep = out / f"sup_{rnd}.jsonl"  # the superseded questions' deep readings, when that variant was run
    if deep.exists():
        for line in open(deep, encoding="utf-8"):
            r = json.loads(line)
            if r["cat"] == "superseded" and not r["hit"] and "where" in r:
                kind, info = cause(r)
                causes[r["line"]] = {"cause": kind, **info}
    rows = []
    for line in open(out / f"main_{rnd}.jsonl", encoding="utf-8"):
        r = json.loads(line)
        if r["hit"]:
            continue
        info = {k: v for k, v in causes.get(r["line"], {}).items() if k not in ("round", "line", "cat", "query")}
        rows.append({"line": r["line"], "cat": r["cat"], "query": r["query"], **info,
                     "relevant": [memory(s) for s in r["relevant"]], "returned": r["returned"]})
    stale = [{k: v for k, v in s.items() if k != "round"} for s in cur["rows"]]
    quarantined = [memory(s) for s, mid in ids.items()
                   if db.execute("SELECT status FROM memories WHERE id = ?", (mid,)).fetchone()[0] == "quarantined"]
    mems = [json.loads(x) for x in open(BLIND / rnd / "retrieval" / "memories.jsonl", encoding="utf-8") if x.strip()]
    replaced = {s for m in mems for s in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])}
    kept_retired = [{**memory(s), "writer_replaced": s in replaced} for s, mid in ids.items()
                    if db.execute("SELECT status FROM memories WHERE id = ?", (mid,)).fetchone()[0] == "deprecated"]
    return {"missed_questions": rows, "stale_as_current": stale, "quarantined": quarantined,
            "retired_on_write": kept_retired}


def redacted(report: dict) -> dict:
    """Per label: the pairs with a value the write path redacts (`redactor` on either text) and their outcomes,
    against all pairs - the value the hygiene judge reads is the stored, redacted one."""
    from hindsight.safety.redact import redactor

    out: dict = {}
    for entry in report.values():
        for d in entry["decided"]:
            c = out.setdefault(d["label"], {"pairs": 0, "right": 0, "redacted": 0, "redacted_right": 0,
                                            "redacted_outcomes": {}, "redacted_pairs": []})
            right = d["actual"] == EXPECTED.get(d["label"], "kept")
            c["pairs"] += 1
            c["right"] += right
            old, new = redactor(d["existing"]), redactor(d["new"])
            if old[1] or new[1]:
                c["redacted"] += 1
                c["redacted_right"] += right
                c["redacted_outcomes"][d["actual"]] = c["redacted_outcomes"].get(d["actual"], 0) + 1
                c["redacted_pairs"].append({"pair": d["pair"], "actual": d["actual"], "stored": [old[0], new[0]]})
    return out


def main() -> None:
    if sys.argv[1] == "redacted":
        print(json.dumps(redacted(json.loads(Path(sys.argv[2]).read_text(encoding="utf-8"))), ensure_ascii=False,
                         indent=1))
        return
    hyg, xm, cur_dir, stores, out = (Path(a) for a in sys.argv[1:6])
    rnd = sys.argv[6] if len(sys.argv) > 6 else "r38"
    report = json.loads(hyg.read_text(encoding="utf-8"))[rnd]
    result = {"hygiene": hygiene(report),
              "retrieval": retrieval(json.loads(xm.read_text(encoding="utf-8")),
                                     json.loads((cur_dir / f"{rnd}.json").read_text(encoding="utf-8")), stores, out, rnd)}
    print(json.dumps(result, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
