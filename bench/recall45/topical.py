"""Round 45 amendment 2: a list question's top 10 without turns that do not speak of its topic (measurement only).

    python bench/recall45/topical.py COL CONVS... [--pick FILE] [--apply FILE] [--out FILE.json]

Baseline and rows as `routes.py` (today's order). A question that passes the gate (`cap.gate`): a turn of today's
top 10 whose own text holds none of the question's content stems (`turn_features.stems`, the named speakers'
names left out) - or, in the "short" variant, only such a turn of at most 20 words - moves just below place 10;
the next turns of today's order that hold a stem fill the places, in their order; when too few do, the moved
turns come back in theirs. Variants declared in bench/results/recall45/ship_rule.md (amendment 2).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cap import gate  # noqa: E402
from routes import eligible, fmt, prepare, summary  # noqa: E402

from hindsight.retrieval.turn_features import stems  # noqa: E402

RULES = ("any", "short")
GATES = ("list", "list-or-two")
VARIANTS = [(r, g) for g in GATES for r in RULES]
SHORT = 20


def topical(q: dict, own: dict[str, str], rule: str) -> list[str]:
    wanted = stems(q["q"]) - {n[:5] for n in q["names"]}
    if not wanted:
        return q["today"]
    on = {d: bool(stems(own.get(d, "")) & wanted) for d in q["today"][:50]}

    def moves(d: str) -> bool:
        return not on[d] and (rule == "any" or len(own.get(d, "").split()) <= SHORT)

    head = q["today"][:10]
    kept = [d for d in head if not moves(d)]
    moved = [d for d in head if moves(d)]
    fill = [d for d in q["today"][10:50] if on.get(d)][: len(moved)]
    top = kept + fill
    top += moved[: 10 - len(top)]
    return top + [d for d in q["today"] if d not in top]


def run(q: dict, store: dict, owns: dict, variant: tuple) -> list[str]:
    rule, how = variant
    return topical(q, owns[q["conv"]], rule) if gate(q, store, how) else q["today"]


def main() -> None:
    col = Path(sys.argv[1])
    convs = [int(x) for x in sys.argv[2:] if x.isdigit()]
    rows = prepare(col, convs)
    owns: dict[int, dict[str, str]] = {}
    for q, store in rows:
        owns.setdefault(q["conv"], dict(zip(store["dia"], store["own"], strict=False)))
    base = summary([(q, q["today"]) for q, _ in rows])
    print("today's top 10:", fmt(base))
    out = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else None
    if "--apply" in sys.argv:
        variant = tuple(json.loads(Path(sys.argv[sys.argv.index("--apply") + 1]).read_text()))
        applied = summary([(q, run(q, s, owns, variant)) for q, s in rows])
        changed = sum(1 for q, s in rows if run(q, s, owns, variant)[:10] != q["today"][:10])
        print("applied", variant, fmt(applied), "top 10 changed:", changed)
        if out:
            Path(out).write_text(json.dumps({"conversations": convs, "questions": len(rows), "variant": variant,
                                             "today": base, "applied": applied, "top10_changed": changed}, indent=1))
        return
    table = {v: {c: [(q, run(q, s, owns, v)) for q, s in rows if q["conv"] == c] for c in convs} for v in VARIANTS}
    scores = {v: summary([r for c in convs for r in table[v][c]]) for v in VARIANTS}
    for v in VARIANTS:
        print(v, fmt(scores[v]), "eligible" if eligible(scores[v], base) else "")

    def pick(cs: list[int]) -> tuple | None:
        b = summary([(q, q["today"]) for q, _ in rows if q["conv"] in cs])
        sc = {v: summary([r for c in cs for r in table[v][c]]) for v in VARIANTS}
        ok = [v for v in VARIANTS if eligible(sc[v], b)]
        return min(ok, key=lambda v: (-round(sc[v][0], 9), v[0] != "short")) if ok else None  # ties: the lighter

    best = pick(convs)
    loco = []
    for held in convs:
        p = pick([c for c in convs if c != held])
        loco += table[p][held] if p else [(q, q["today"]) for q, _ in rows if q["conv"] == held]
        print("LOCO held", held, "pick", p)
    print("pick:", best, "LOCO:", fmt(summary(loco)))
    if out:
        Path(out).write_text(json.dumps({
            "conversations": convs, "questions": len(rows), "today": base,
            "variants": [{"variant": v, "r10": scores[v], "eligible": eligible(scores[v], base)} for v in VARIANTS],
            "loco": summary(loco), "pick": best}, indent=1))
    if "--pick" in sys.argv:
        Path(sys.argv[sys.argv.index("--pick") + 1]).write_text(json.dumps(best))


if __name__ == "__main__":
    main()
