"""Round 45 amendment: a list question's top 10 keeps at most C turns of one session (measurement only).

    python bench/recall45/cap.py COL CONVS... [--pick FILE] [--apply FILE] [--out FILE.json]

Baseline and rows as `routes.py` (today's order: round 38's top 50 with step 6d). Variants (declared in
bench/results/recall45/ship_rule.md, amendment): C in {1, 2, 3} x gate {`asks_list`; `asks_list` or the question
names two speakers of the store}. The turns over the cap move just below place 10, in their order.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import evaluate  # noqa: E402
from routes import asks_list, fmt, prepare, summary  # noqa: E402

CAPS = (1, 2, 3)
GATES = ("list", "list-or-two")
VARIANTS = [(c, g) for g in GATES for c in CAPS]


def capped(order: list[str], session: dict[str, str], cap: int, head: int = 10) -> list[str]:
    """`order` with at most `cap` turns of one session among the first `head`; the others just below them."""
    top: list[str] = []
    held: list[str] = []
    seen: dict[str, int] = {}
    rest = iter(order)
    for d in rest:
        s = session.get(d, d)
        if seen.get(s, 0) >= cap:
            held.append(d)
            continue
        seen[s] = seen.get(s, 0) + 1
        top.append(d)
        if len(top) == head:
            break
    return top + held + list(rest)


def gate(q: dict, store: dict, how: str) -> bool:
    if asks_list(q["q"]):
        return True
    return how == "list-or-two" and len(set(q["names"]) & set(store["speaker"])) >= 2


def run(q: dict, store: dict, sessions: dict, variant: tuple) -> list[str]:
    cap, how = variant
    return capped(q["today"], sessions[q["conv"]], cap) if gate(q, store, how) else q["today"]


def main() -> None:
    col = Path(sys.argv[1])
    convs = [int(x) for x in sys.argv[2:] if x.isdigit()]
    rows = prepare(col, convs)
    sessions = {}
    for q, store in rows:
        sessions.setdefault(q["conv"], dict(zip(store["dia"], store["session"], strict=False)))
    print("today's top 10:", fmt(summary([(q, q["today"]) for q, _ in rows])))
    evaluate(rows, convs, VARIANTS, lambda q, s, v: run(q, s, sessions, v), lambda v: -v[0], sys.argv)


if __name__ == "__main__":
    main()
