"""Round 45 amendment 2: a list question's top 10 without turns that do not speak of its topic (measurement only).

    python bench/recall45/topical.py COL CONVS... [--pick FILE] [--apply FILE] [--out FILE.json]

Baseline and rows as `routes.py` (today's order). A question that passes the gate (`cap.gate`): a turn of today's
top 10 whose own text holds none of the question's content stems (`turn_features.stems`, the named speakers'
names left out) - or, in the "short" variant, only such a turn of at most 20 words - moves just below place 10;
the next turns of today's order that hold a stem fill the places, in their order; when too few do, the moved
turns come back in theirs. Variants declared in bench/results/recall45/ship_rule.md (amendment 2).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cap import gate  # noqa: E402
from harness import evaluate  # noqa: E402
from routes import fmt, prepare, summary  # noqa: E402

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
    print("today's top 10:", fmt(summary([(q, q["today"]) for q, _ in rows])))
    evaluate(rows, convs, VARIANTS, lambda q, s, v: run(q, s, owns, v), lambda v: v[0] != "short", sys.argv)


if __name__ == "__main__":
    main()
