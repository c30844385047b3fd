"""Supersede round 24: the write-side note tier held out by round (leave-one-round-out over off / on).

    PYTHONPATH=src:bench python bench/supersede24_loro.py AFTER_ROOT ROWS_OFF.json ROWS_NOTE.json OUT.json

Per round: the retrieval store written by the branch (AFTER_ROOT, `supersede24_stores.py`, with its write log): the
memories the note tier retired, replaced ones (gained) and kept ones (wrong); and the round's hygiene rows the tier can
move
(`supersede24_rows.py`, replayed off / note): changes retired, wrong deprecations (a restatement, distinct or
supplement pair retired), distinct kept apart, others untouched. A fold takes "on" when, over the other rounds, gains
(replaced retired + changes retired) - 5 x (kept retired + wrong deprecations + distinct lost + others touched) > 0,
ties to off (the rule of currency rounds 17-19). Training rounds count in the folds' choice, never in the blind rows.
"""
import json
import sys
from collections import defaultdict
from pathlib import Path

from blind_store import rows
from currency19_read import set_dir


def note_retired(store: Path, rnd: str) -> dict[str, int]:
    """The memories the write log says the note tier retired: replaced by the writer, or kept."""
    log = json.loads((store / "write_log.json").read_text())
    replaced = {(x, m["id"]) for m in rows(set_dir(rnd) / "retrieval/memories.jsonl")
                for x in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])}
    fired = [(old, new) for new, e in log.items() if "in a note" in e.get("reason", "") for old in e["supersedes"]]
    return {"replaced": sum(p in replaced for p in fired), "kept": sum(p not in replaced for p in fired)}


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
    after, off_rows, on_rows, outp = Path(sys.argv[1]), *sys.argv[2:5]
    h0, h1 = hygiene(off_rows), hygiene(on_rows)
    rounds = sorted({p.name for p in after.iterdir() if (p / "write_log.json").exists()} | set(h0))
    res = {}
    for r in rounds:
        store = note_retired(after / r, r) if (after / r / "write_log.json").exists() else None
        res[r] = {"store": store, "rows_off": dict(h0.get(r, {})), "rows_on": dict(h1.get(r, {}))}

    def gain(r: str) -> int:
        d = res[r]
        g = (d["rows_on"].get("changes", 0) - d["rows_off"].get("changes", 0))
        bad = (d["rows_on"].get("wrong", 0) - d["rows_off"].get("wrong", 0)
               + d["rows_off"].get("distinct_kept", 0) - d["rows_on"].get("distinct_kept", 0)
               + d["rows_off"].get("others_ok", 0) - d["rows_on"].get("others_ok", 0))
        if d["store"] is not None:
            g += d["store"]["replaced"]
            bad += d["store"]["kept"]
        return g - 5 * bad
    folds = {r: int(sum(gain(x) for x in rounds if x != r) > 0) for r in rounds}
    out = {"rounds": res, "gain": {r: gain(r) for r in rounds}, "folds": folds}
    Path(outp).write_text(json.dumps(out, indent=1))
    print(json.dumps({"gain": out["gain"], "folds": folds}))


if __name__ == "__main__":
    main()
