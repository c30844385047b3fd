"""Round 40 offline fusion of the class -> instance lists into the shipped top 50 (measurement only).

    python bench/recall40/fuse.py COL CONVS... [--pick FILE] [--apply FILE] [--out FILE.json]

COL holds `collect.py`'s rows. Variants (declared in bench/results/recall40/ship_rule.md): list {inst, instc} x
RRF weight {0.1, 0.2, 0.35, 0.5} x kept to {the named speaker's turns, those in the first person} x gate
{every question with a class word, a question asking for a list of a class} (the gate: the amendment); recall38's
`fuse.apply` does the fusion (1/(10+base rank) + w/(10+list rank)). `--pick` writes the best pooled R@10 among
variants that lower no category (ties: the lighter weight) with a leave-one-conversation-out figure; `--apply`
scores one variant (test, once).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "recall38"))
from fuse import CATS, apply, fmt, load, summary  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from hindsight.retrieval.class_lexicon import asks_list  # noqa: E402

WEIGHTS = (0.1, 0.2, 0.35, 0.5)
GATES = ("class", "list")
VARIANTS = [(name, "rrf", w, restrict, gate) for gate in GATES for name in ("inst", "instc")
            for restrict in ("speaker", "speaker-fp") for w in WEIGHTS]


def run(q: dict, store: dict, variant: tuple) -> list[str]:
    """recall38's fusion of the variant's list; gate 'list' leaves a question that asks for no list of a class
    (`class_lexicon.asks_list`) as shipped."""
    if variant[4] == "list" and not asks_list(q["q"]):
        return q["base"]
    return apply(q, store, variant[:4])


def eligible(score: tuple[float, dict[str, float]], base: tuple[float, dict[str, float]]) -> bool:
    return all(not score[1][c] < base[1][c] - 1e-9 for c in CATS)


def pick(table: dict, rows: list, convs: list[int]) -> tuple | None:
    base = summary([(q, q["base"]) for q, _ in rows if q["conv"] in convs])
    scores = {v: summary([r for c in convs for r in table[v][c]]) for v in table}
    ok = [v for v in scores if eligible(scores[v], base)]
    return min(ok, key=lambda v: (-round(scores[v][0], 9), v[2])) if ok else None


def main() -> None:
    col = Path(sys.argv[1])
    convs = [int(x) for x in sys.argv[2:] if x.isdigit()]
    rows = load(col, convs)
    base = summary([(q, q["base"]) for q, _ in rows])
    print("shipped top 10:", fmt(base))
    if "--apply" in sys.argv:
        variant = tuple(json.loads(Path(sys.argv[sys.argv.index("--apply") + 1]).read_text()))
        applied = summary([(q, run(q, s, variant)) for q, s in rows])
        changed = sum(1 for q, s in rows if run(q, s, variant)[:10] != q["base"][:10])
        print("applied", variant, fmt(applied), "questions whose top 10 changed:", changed)
        if "--out" in sys.argv:
            Path(sys.argv[sys.argv.index("--out") + 1]).write_text(json.dumps({
                "conversations": convs, "questions": len(rows), "variant": variant, "shipped": base,
                "applied": applied, "top10_changed": changed}, indent=1))
        return
    table = {v: {c: [(q, run(q, s, v)) for q, s in rows if q["conv"] == c] for c in convs} for v in VARIANTS}
    scores = {v: summary([r for c in convs for r in table[v][c]]) for v in VARIANTS}
    for v in sorted(VARIANTS, key=lambda v: -scores[v][0]):
        print(v, fmt(scores[v]), "eligible" if eligible(scores[v], base) else "")
    best = pick(table, rows, convs)
    print("pick:", best)
    loco = []
    for held in convs:
        p = pick(table, rows, [c for c in convs if c != held])
        loco += table[p][held] if p else [(q, q["base"]) for q, _ in rows if q["conv"] == held]
        print("LOCO held", held, "pick", p)
    print("LOCO:", fmt(summary(loco)))
    if "--out" in sys.argv:
        Path(sys.argv[sys.argv.index("--out") + 1]).write_text(json.dumps({
            "conversations": convs, "questions": len(rows), "shipped": base,
            "variants": [{"variant": v, "r10": scores[v], "eligible": eligible(scores[v], base)} for v in
                         sorted(VARIANTS, key=lambda v: -scores[v][0])],
            "loco": summary(loco), "pick": best}, indent=1))
    if "--pick" in sys.argv:
        Path(sys.argv[sys.argv.index("--pick") + 1]).write_text(json.dumps(best))


if __name__ == "__main__":
    main()
