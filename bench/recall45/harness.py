"""The declared protocol shared by `routes.py`, `cap.py` and `topical.py` (measurement only): score every variant
on the given conversations, pick the best pooled R@10 that lowers no category with a leave-one-conversation-out
figure (`--pick FILE`, `--out FILE.json`), or score one variant once (`--apply FILE`: test)."""
from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "recall38"))
from fuse import CATS, fmt, summary  # noqa: E402

Run = Callable[[dict, dict, tuple], list[str]]


def eligible(score: tuple, base: tuple) -> bool:
    return all(not score[1][c] < base[1][c] - 1e-9 for c in CATS)


def evaluate(rows: list, convs: list[int], variants: Sequence[tuple], run: Run, tie: Callable[[tuple], Any],
             argv: list[str]) -> None:
    """`run(q, store, variant)` gives a question's order; ties between equal R@10 go to the smallest `tie(v)`."""
    base = summary([(q, q["today"]) for q, _ in rows])
    out = argv[argv.index("--out") + 1] if "--out" in argv else None
    if "--apply" in argv:
        variant = tuple(json.loads(Path(argv[argv.index("--apply") + 1]).read_text()))
        orders = [(q, run(q, s, variant)) for q, s in rows]
        applied = summary(orders)
        changed = sum(1 for q, order in orders if order[:10] != q["today"][:10])
        print("applied", variant, fmt(applied), "top 10 changed:", changed)
        if out:
            Path(out).write_text(json.dumps({"conversations": convs, "questions": len(rows), "variant": variant,
                                             "today": base, "applied": applied, "top10_changed": changed}, indent=1))
        return
    table = {v: {c: [(q, run(q, s, v)) for q, s in rows if q["conv"] == c] for c in convs} for v in variants}
    scores = {v: summary([r for c in convs for r in table[v][c]]) for v in variants}
    ranked = sorted(variants, key=lambda v: -scores[v][0])
    for v in ranked[:25]:
        print(v, fmt(scores[v]), "eligible" if eligible(scores[v], base) else "")

    def pick(cs: list[int]) -> tuple | None:
        b = summary([(q, q["today"]) for q, _ in rows if q["conv"] in cs])
        sc = {v: summary([r for c in cs for r in table[v][c]]) for v in variants}
        ok = [v for v in variants if eligible(sc[v], b)]
        return min(ok, key=lambda v: (-round(sc[v][0], 9), tie(v))) if ok else None

    best = pick(convs)
    print("eligible:", sum(eligible(scores[v], base) for v in variants), "of", len(variants), "pick:", best)
    loco = []
    for held in convs:
        p = pick([c for c in convs if c != held])
        loco += table[p][held] if p else [(q, q["today"]) for q, _ in rows if q["conv"] == held]
        print("LOCO held", held, "pick", p)
    print("LOCO:", fmt(summary(loco)))
    if out:
        Path(out).write_text(json.dumps({
            "conversations": convs, "questions": len(rows), "today": base,
            "variants": [{"variant": v, "r10": scores[v], "eligible": eligible(scores[v], base)} for v in ranked],
            "loco": summary(loco), "pick": best}, indent=1))
    if "--pick" in argv:
        Path(argv[argv.index("--pick") + 1]).write_text(json.dumps(best))
