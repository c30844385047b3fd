"""Context echoes in the shipped top 10 (recall9; measurement only).

    PYTHONPATH=../../src python echo.py COL CONVS... [--test COLT CONVS...]

Stored vectors carry each turn's two preceding turns, so a reply ("Wow, that's great!") right after an evidence turn
matches the question through its context. An echo = a top-10 turn one or two turns after a turn already placed above
it in the same session whose own text does not match the question (own-text cosine below T, or no query word: the
"lex" rule, which needs nothing but the text). Echoes move to just below place 10; the places they free go to the
next turns of the shipped order. T is chosen leave-one-conversation-out.
"""
import argparse
import statistics

import numpy as np
from lists import load
from ltr import R, table

from hindsight.retrieval.turn_features import own_text, stems


def demote(q, rule, t, window=2, head=10):
    st = q["store"]
    qv = q["qv"] / np.linalg.norm(q["qv"])
    want = stems(q["residual"] or q["q"])
    placed, echoes = [], []
    for d in q["base"]:
        if len(placed) >= head:
            break
        i = st["idx"].get(d)
        above = {st["dia"][j] for j in range(max(0, i - window), i) if st["session"][j] == st["session"][i]} if i is not None else set()
        if above & set(placed):
            weak = (float(st["own"][i] @ qv) < t) if rule == "cos" else not (stems(own_text(st["content"][i])) & want)
            if weak:
                echoes.append(d)
                continue
        placed.append(d)
    return placed + echoes + [d for d in q["base"] if d not in placed and d not in echoes]


GRID = {"cos": [0.70, 0.75, 0.80, 0.82, 0.84, 0.86, 0.88, 0.90, 1.1], "lex": [None]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("col")
    ap.add_argument("convs", type=int, nargs="+")
    ap.add_argument("--test", nargs="+")
    ap.add_argument("--window", type=int, default=2)
    a = ap.parse_args()
    qs = load(a.col, a.convs)
    print("dev shipped top 10:", table(qs, [q["base"] for q in qs]))
    for rule, grid in GRID.items():
        for t in grid:
            print(f"dev {rule} T {t} window {a.window} (in-sample):", table(qs, [demote(q, rule, t, a.window) for q in qs]))
    chosen = {}
    orders = [None] * len(qs)
    for held in a.convs:
        train = [q for q in qs if q["conv"] != held]
        best = max(GRID["cos"], key=lambda t: statistics.fmean(R(q["evidence"], demote(q, "cos", t, a.window)) for q in train))
        chosen[held] = best
        for i, q in enumerate(qs):
            if q["conv"] == held:
                orders[i] = demote(q, "cos", best, a.window)
    print("dev cos, T chosen LOCO", chosen, ":", table(qs, orders))
    if a.test:
        tq = load(a.test[0], [int(x) for x in a.test[1:]])
        best = max(GRID["cos"], key=lambda t: statistics.fmean(R(q["evidence"], demote(q, "cos", t, a.window)) for q in qs))
        print("test shipped top 10:", table(tq, [q["base"] for q in tq]))
        print(f"test cos T {best} (chosen on all of dev):", table(tq, [demote(q, "cos", best, a.window) for q in tq]))
        print("test lex:", table(tq, [demote(q, "lex", None, a.window) for q in tq]))


if __name__ == "__main__":
    main()
