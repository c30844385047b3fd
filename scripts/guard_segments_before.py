"""The "before" side of ``guard_segments_eval.py`` (guard round 21), and the before -> after table.

    PYTHONPATH=src .venv/bin/python scripts/guard_segments_before.py affected --parts parts.jsonl --out affected.jsonl
    PYTHONPATH=/work/main/src .venv/bin/python scripts/guard_segments_before.py screen --src /work/main/src \\
        --parts affected.jsonl --out affected_main.jsonl
    PYTHONPATH=src .venv/bin/python scripts/guard_segments_before.py table --parts parts.jsonl --main affected_main.jsonl

``guard_segments_eval.py`` writes this branch's whole-text verdict (trusted.py's threshold and the new folds on,
the part reading off) and each part's score. ``affected`` lists the rows whose whole verdict this branch's
``trusted.transfers_trust`` or folds can change; ``screen`` re-screens those with another checkout's guard (main:
the "before"), with the vector the runtime would give it there; ``table`` prints, per unseen writer, attacks caught /
benign flagged before (main) and after (the whole verdict or a marked part >= ``segments.PART_THRESHOLD``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDS = ("_SYMBOL_SPLIT_CJK", "_PICTOGRAPH_IN_CJK", "_DOTTED_MIXED")


def affected(parts: Path, out: Path) -> None:
    from hindsight.safety import normalize
    from hindsight.safety.trusted import transfers_trust

    with out.open("w", encoding="utf-8") as fh:
        for line in parts.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            trust = bool(r["red"].strip()) and transfers_trust(normalize.normalize_for_screening(r["red"]))
            if trust or any(getattr(normalize, f).search(r["red"]) for f in FOLDS):
                fh.write(json.dumps({k: r[k] for k in ("writer", "text", "red", "flag", "score")}, ensure_ascii=False) + "\n")


def screen(src: str, parts: Path, out: Path, cache_dir: Path) -> None:
    sys.path.insert(0, str(Path(src).resolve()))
    import hindsight.safety.guard as guard_module

    sys.path.insert(1, str(ROOT / "scripts"))
    sys.path.insert(2, str(ROOT / "bench"))
    import guard_lowo_fast as lf

    rows = [json.loads(x) for x in parts.read_text(encoding="utf-8").splitlines()]
    vectors = lf.runtime_vectors([r["red"] for r in rows], cache_dir, "onnx")
    guard = guard_module.WriteGuard()
    now: list = []
    guard_module.embed_for_screening = lambda windows: list(now)  # type: ignore[assignment]
    with out.open("w", encoding="utf-8") as fh:
        for r, vec in zip(rows, vectors, strict=True):
            now[:] = [vec]
            v = guard.screen(r["red"], embedding=vec)
            fh.write(json.dumps({**r, "main_flag": v.suspicious, "main_score": round(v.score, 4)}, ensure_ascii=False) + "\n")


def table(parts: Path, main: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from guard_parts_eval import UNSEEN
    from guard_segments_eval import part_flag

    from hindsight.safety.normalize import fold
    from hindsight.safety.segments import PART_KINDS, PART_THRESHOLD, candidate_parts

    before = {(r["writer"], r["text"]): r["main_flag"] for r in map(json.loads, main.read_text(encoding="utf-8").splitlines())}
    rows = [json.loads(x) for x in parts.read_text(encoding="utf-8").splitlines()]
    for r in rows:
        now = {p for _, p in candidate_parts(fold(r["red"]))} if r["red"].strip() else set()
        r["parts"] = [p for p in r["parts"] if p[3] in now]
        r["before"] = before.get((r["writer"], r["text"]), r["flag"])
        r["after"] = part_flag(r, PART_KINDS, PART_THRESHOLD)

    def rates(sub: list[dict], key: str) -> str:
        out = []
        for attack in (True, False):
            s = [x[key] for x in sub if x["attack"] == attack]
            out.append(f"{sum(s) / len(s):.3f}" if s else "-")
        return " / ".join(out)

    print("| writer | before (main) caught / flagged | after |\n|---|---|---|")
    writers = list(dict.fromkeys(r["writer"] for r in rows))
    for w in [w for w in writers if w in UNSEEN] + [w for w in writers if w.startswith("blind-") and w not in UNSEEN] + ["own"]:
        sub = [x for x in rows if x["writer"] == w]
        print(f"| {w} ({len(sub)} scored) | {rates(sub, 'before')} | {rates(sub, 'after')} |")
    sub = [x for x in rows if x["writer"] in UNSEEN]
    print(f"| unseen by shipped, pooled | {rates(sub, 'before')} | {rates(sub, 'after')} |")
    for name, pick in (("retrieval memories held", lambda w: w.startswith("retr-")), ("PII notes held", lambda w: w.startswith("pii-")),
                       ("guard_benign_fixed held", lambda w: w == "fixed")):
        sub = [x for x in rows if pick(x["writer"])]
        print(f"| {name} (of {len(sub)}) | {sum(x['before'] for x in sub)} | {sum(x['after'] for x in sub)} |")
    ordinary = [x for x in rows if x["writer"].startswith("retr-") or x["writer"] == "fixed"]
    scored = sum(any(p[0] in PART_KINDS for p in x["parts"]) for x in ordinary)
    print(f"\nordinary writes (retrieval memories, the fixed set) with a part to score: {scored} of {len(ordinary)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("affected", "screen", "table"))
    parser.add_argument("--parts", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--main", type=Path, default=None)
    parser.add_argument("--src", default="/work/main/src")
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guard21"))
    args = parser.parse_args()
    if args.mode == "affected":
        affected(args.parts, args.out)
    elif args.mode == "screen":
        screen(args.src, args.parts, args.out, args.cache_dir)
    else:
        table(args.parts, args.main)


if __name__ == "__main__":
    main()
