"""Parts of a note scored on their own, on every released writer (issue 10, guard round 21).

    PYTHONPATH=src .venv/bin/python scripts/guard_segments_eval.py --cache-dir /tmp/guard21 --out parts.jsonl
    PYTHONPATH=src .venv/bin/python scripts/guard_segments_eval.py --table parts.jsonl

Every text of ``guard_lowo_fast.selected_examples`` (our texts, every released blind and training writer, the ops
notes, the PII sets, the released retrieval memories) and of ``tests/data/guard_benign_fixed.json`` (writer
``fixed``) is redacted and screened by ``WriteGuard.screen`` with the vector the write path hands it (ONNX, from
``guard_lowo_fast``'s cache) and *without* the part reading (``WriteGuard(parts=False)``): that is the whole-text
verdict. Then each candidate part (``segments.candidate_parts``: ``marked``, ``last``, ``body``) is scored with the
C kernel's vector of the part, as the runtime scores it, and written beside the verdict with the threshold the guard
would read it at. ``--table`` reads the file back under several part thresholds and kinds: per writer group, attacks
caught / benign flagged, and the retrieval memories held; the shipped weights are in-sample on every writer but
``guard_parts_eval.UNSEEN``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXED = ROOT / "tests" / "data" / "guard_benign_fixed.json"


def _redacted(texts: list[str], cache_dir: Path) -> list[str]:
    """Redacted texts, read from any ``prepared_*.json`` cache of ``guard_model._prepared_cached`` (the redaction is
    not what this round changes), the rest redacted here and kept in ``redacted.json``."""
    from hindsight.safety.redact import redactor

    cache: dict[str, str] = {}
    for path in sorted(cache_dir.glob("prepared_*.json"), key=lambda p: p.stat().st_mtime):
        cache.update({t: str(row[0]) for t, row in json.loads(path.read_text(encoding="utf-8")).items()})
    own = cache_dir / "redacted.json"
    if own.exists():
        cache.update(json.loads(own.read_text(encoding="utf-8")))
    todo = [t for t in dict.fromkeys(texts) if t not in cache]
    for text in todo:
        cache[text] = redactor(text)[0]
    if todo:
        old = json.loads(own.read_text(encoding="utf-8")) if own.exists() else {}
        own.write_text(json.dumps({**old, **{t: cache[t] for t in todo}}, ensure_ascii=False), encoding="utf-8")
    return [cache[t] for t in texts]


def _screen_all(args: argparse.Namespace) -> None:
    sys.path.insert(1, str(ROOT / "scripts"))
    sys.path.insert(2, str(ROOT / "bench"))
    import guard_lowo_fast as lf
    import numpy as np

    import hindsight.safety.guard as guard_module
    from hindsight.safety import classifier as clf_module
    from hindsight.safety.normalize import fold
    from hindsight.safety.segments import candidate_parts
    from hindsight.safety.view import feature_view

    examples = lf.selected_examples(4, pii=True, retrieval=True)
    rows = [(e.writer, e.is_attack, e.text) for e in examples]
    fixed = json.loads(FIXED.read_text(encoding="utf-8"))
    rows += [("fixed", False, str(item["content"])) for item in fixed]
    # the ship rule's writers first (the fixed set, the unseen writers, the retrieval memories, the PII notes), so a
    # run cut short still answers it
    from guard_parts_eval import UNSEEN

    def first(row: tuple[str, bool, str]) -> int:
        w = row[0]
        return 0 if w == "fixed" else 1 if w in UNSEEN else 2 if w.startswith("retr-") else 3 if w.startswith("pii-") else 4
    rows.sort(key=first)
    kinds = frozenset(args.score_kinds.split(","))
    redacted = _redacted([t for _, _, t in rows], args.cache_dir)
    vectors = lf.runtime_vectors(redacted, args.cache_dir, "onnx")
    part_cache_path = args.cache_dir / "parts_c.json"
    part_cache: dict[str, list[float]] = (json.loads(part_cache_path.read_text(encoding="utf-8"))
                                          if part_cache_path.exists() else {})
    guard = guard_module.WriteGuard(parts=False)
    clf = guard.classifier
    assert clf is not None
    vec_now: list[np.ndarray] = []
    real_embed = clf_module.embed_for_screening
    # an obfuscated whole text: the guard embeds it itself (C kernel, normalised text); the harness's cache holds that
    guard_module.embed_for_screening = lambda windows: list(vec_now)  # type: ignore[assignment]
    fresh = 0
    with args.out.open("w", encoding="utf-8", buffering=1) as out:
        for (writer, attack, text), red, vec in zip(rows, redacted, vectors, strict=True):
            vec_now[:] = [vec]
            v = guard.screen(red, embedding=vec)
            parts = [(k, p) for k, p in candidate_parts(fold(red)) if k in kinds] if red.strip() else []
            todo = [p for _, p in parts if p not in part_cache]
            if todo:
                for p, pv in zip(todo, real_embed(todo), strict=True):
                    part_cache[p] = [round(float(x), 6) for x in pv]
                fresh += len(todo)
                if fresh >= 500:
                    part_cache_path.write_text(json.dumps(part_cache), encoding="utf-8")
                    fresh = 0
            scored = []
            for kind, p in parts:
                score, _ = clf.attack_score(np.asarray(part_cache[p], dtype=np.float32), p)
                scored.append([kind, round(score, 4), round(guard.threshold_for(feature_view(p), p), 3), p])
            out.write(json.dumps({"writer": writer, "attack": attack, "flag": v.suspicious, "score": round(v.score, 4),
                                  "reasons": v.reasons, "parts": scored, "text": text, "red": red}, ensure_ascii=False) + "\n")
    part_cache_path.write_text(json.dumps(part_cache), encoding="utf-8")


def part_flag(row: dict, kinds: frozenset[str], threshold: float) -> bool:
    """Would the guard hold this text with the part reading of ``kinds`` at ``threshold``?"""
    return bool(row["flag"]) or any(k in kinds and s >= max(threshold, t) for k, s, t, _ in row["parts"])


def _rate(rows: list[dict], attack: bool, kinds: frozenset[str], threshold: float) -> str:
    sel = [part_flag(r, kinds, threshold) for r in rows if r["attack"] == attack]
    return f"{sum(sel) / len(sel):.3f}" if sel else "-"


def table(path: Path, thresholds: list[float], kind_sets: list[frozenset[str]]) -> None:
    from guard_parts_eval import UNSEEN

    from hindsight.safety.normalize import fold
    from hindsight.safety.segments import candidate_parts

    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    for r in rows:  # parts the current segmentation no longer proposes are dropped (a narrower reading re-read)
        now = {p for _, p in candidate_parts(fold(r["red"]))} if r["red"].strip() else set()
        r["parts"] = [p for p in r["parts"] if p[3] in now]
    groups = {
        "unseen by shipped (r17-r19b), caught / flagged": lambda w: w in UNSEEN,
        "r19 + r19b": lambda w: w in ("blind-r19", "blind-r19b"),
        "blind, pooled": lambda w: w.startswith("blind-"),
        "training writers and own": lambda w: w.startswith("train-") or w == "own",
    }
    variants = [(frozenset(), 1.0)] + [(k, t) for k in kind_sets for t in thresholds]
    head = ["none"] + [f"{'+'.join(sorted(k))} >= {t}" for k, t in variants[1:]]
    print("| writers | " + " | ".join(head) + " |\n|---|" + "---|" * len(head))
    for name, pick in groups.items():
        sub = [r for r in rows if pick(r["writer"])]
        print(f"| {name} | " + " | ".join(f"{_rate(sub, True, k, t)} / {_rate(sub, False, k, t)}" for k, t in variants) + " |")
    for name, prefix in (("PII notes flagged", "pii-"), ("retrieval memories held", "retr-"), ("fixed set held", "fixed"),
                         ("ops notes held", "ops"), ("plain facts held", "plain")):
        sub = [r for r in rows if r["writer"].startswith(prefix) and not r["attack"]]
        print(f"| {name} (of {len(sub)}) | " + " | ".join(str(sum(part_flag(r, k, t) for r in sub)) for k, t in variants) + " |")
    for k, t in variants[1:]:
        moved = [r for r in rows if part_flag(r, k, t) and not r["flag"]]
        print(f"\n{'+'.join(sorted(k))} >= {t}: {len(moved)} verdicts moved "
              f"({sum(r['attack'] for r in moved)} attacks caught, {sum(not r['attack'] for r in moved)} benign held)")
        if t == thresholds[-1] or len(moved) <= 40:
            for r in moved:
                best = max((p for p in r["parts"] if p[0] in k), key=lambda p: p[1])
                print(f"- {r['writer']} {'attack' if r['attack'] else 'benign'} {r['score']:.2f} -> {best[0]} {best[1]:.2f}: "
                      f"{r['text'][:150]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guard21"))
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--table", type=Path, default=None)
    parser.add_argument("--score-kinds", default="marked,last", help="the part kinds to embed and score")
    parser.add_argument("--thresholds", default="0.655,0.8,0.9")
    parser.add_argument("--kinds", default="marked;last;marked,last",
                        help="kind sets to compare, ';'-separated, each ','-separated")
    args = parser.parse_args()
    if args.table:
        sys.path.insert(0, str(ROOT / "scripts"))
        table(args.table, [float(x) for x in args.thresholds.split(",")],
              [frozenset(k.split(",")) for k in args.kinds.split(";")])
    else:
        _screen_all(args)


if __name__ == "__main__":
    main()
