"""Round 45 amendment: a list question's top 10 keeps at most C turns of one session (measurement only).

    python bench/recall45/cap.py COL CONVS... [--pick FILE] [--apply FILE] [--out FILE.json]

Baseline and rows as `routes.py` (today's order: round 38's top 50 with step 6d). Variants (declared in
bench/results/recall45/ship_rule.md, amendment): C in {1, 2, 3} x gate {`asks_list`; `asks_list` or the question
names two speakers of the store}. The turns over the cap move just below place 10, in their order.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from routes import asks_list, eligible, fmt, prepare, summary  # noqa: E402

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
    base = summary([(q, q["today"]) for q, _ in rows])
    print("today's top 10:", fmt(base))
    out = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else None
    if "--apply" in sys.argv:
        variant = tuple(json.loads(Path(sys.argv[sys.argv.index("--apply") + 1]).read_text()))
        applied = summary([(q, run(q, s, sessions, variant)) for q, s in rows])
        changed = sum(1 for q, s in rows if run(q, s, sessions, variant)[:10] != q["today"][:10])
        print("applied", variant, fmt(applied), "top 10 changed:", changed)
        if out:
            Path(out).write_text(json.dumps({"conversations": convs, "questions": len(rows), "variant": variant,
                                             "today": base, "applied": applied, "top10_changed": changed}, indent=1))
        return
    table = {v: {c: [(q, run(q, s, sessions, v)) for q, s in rows if q["conv"] == c] for c in convs}
             for v in VARIANTS}
    scores = {v: summary([r for c in convs for r in table[v][c]]) for v in VARIANTS}
    for v in VARIANTS:
        print(v, fmt(scores[v]), "eligible" if eligible(scores[v], base) else "")

    def pick(cs: list[int]) -> tuple | None:
        b = summary([(q, q["today"]) for q, _ in rows if q["conv"] in cs])
        sc = {v: summary([r for c in cs for r in table[v][c]]) for v in VARIANTS}
        ok = [v for v in VARIANTS if eligible(sc[v], b)]
        return min(ok, key=lambda v: (-round(sc[v][0], 9), -v[0])) if ok else None  # ties: the looser cap

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
