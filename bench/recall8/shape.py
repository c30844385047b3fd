"""What gate.py and poolgate.py share (recall8; measurement only): a question's shape as model inputs and the
R@10 table by category."""
import statistics
from collections import defaultdict

import numpy as np

CATS = ["multi-hop", "temporal", "open-domain", "single-hop"]


def feats(qs, kind):
    """"vec": the unit query vector; "num": each row's numeric shape features (q["num"]); "both"."""
    vec = np.array([q["qv"] / np.linalg.norm(q["qv"]) for q in qs])
    num = np.array([q["num"] for q in qs])
    return {"vec": vec, "num": num, "both": np.hstack([vec, num])}[kind]


def table(qs, rs):
    by = defaultdict(list)
    for q, r in zip(qs, rs):
        by["all"].append(r)
        by[q["cat"]].append(r)
    return " ".join(f"{statistics.fmean(by[c]):.3f}" if by[c] else "  -  " for c in ["all"] + CATS)
