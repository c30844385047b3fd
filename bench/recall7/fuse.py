"""Offline re-orderings of the shipped top 50 (recall7; measurement only): R@10 by category and leave-one-
conversation-out choice of each variant's parameter.

    python bench/recall7/fuse.py COL CONVS...
"""
import pickle
import re
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

CATS = ["multi-hop", "temporal", "open-domain", "single-hop"]
DIR = Path(sys.argv[1])
CONVS = [int(x) for x in sys.argv[2:]]
data = []
for c in CONVS:
    blob = pickle.load(open(DIR / f"conv{c}.pkl", "rb"))
    st = blob["store"]
    st["sp"] = np.array(st["speaker"])
    st["sess_of"] = dict(zip(st["dia"], st["session"]))
    for q in blob["questions"]:
        q["store"] = st
        data.append(q)


def R(ev, lst, k=10):
    return len(set(ev) & set(lst[:k])) / len(set(ev))


def table(fn, qs=None):
    by = defaultdict(list)
    for q in qs if qs is not None else data:
        r = R(q["evidence"], fn(q))
        by["all"].append(r)
        by[q["cat"]].append(r)
    return {c: statistics.fmean(by[c]) if by[c] else float("nan") for c in ["all"] + CATS}


def fmt(t):
    return " ".join(f"{t[c]:.3f}" for c in ["all"] + CATS)


def in_scope(q, st):
    lo, hi = q["scope"]
    mask = np.ones(len(st["dia"]), bool)
    if lo is not None or hi is not None:
        mask = np.array([(lo is None or t >= lo) and (hi is None or t <= hi) for t in st["time"]])
    return mask


def ranked(q, vec, mask, n=50):
    st = q["store"]
    s = st["matrix"] @ (vec / np.linalg.norm(vec))
    s = np.where(mask, s, -9)
    o = np.argsort(-s)[:n]
    return [st["dia"][i] for i in o if s[i] > -9]


def spk_mask(q, names=None):
    st = q["store"]
    names = q["names"] if names is None else names
    return np.isin(st["sp"], names) & in_scope(q, st)


def place(base, extra, head_n, n):
    head = base[:head_n]
    chosen = [x for x in extra if x not in head][:n]
    out = head + chosen
    return out + [x for x in base if x not in out]


# ---- variants -------------------------------------------------------------------------------------------
def v_base(q, p):
    return q["base"]


def v_sesscap(q, p):
    """at most p turns of one session in the top 10; the overflow moves below."""
    st = q["store"]
    seen = defaultdict(int)
    top, rest = [], []
    for x in q["base"]:
        s = st["sess_of"].get(x)
        if len(top) < 10 and seen[s] < p:
            top.append(x)
            seen[s] += 1
        else:
            rest.append(x)
    return top + rest


def topic_list(q, names=None, depth=None):
    if q["tv"] is None:
        return []
    m = spk_mask(q, names)
    return ranked(q, q["tv"], m) if m.any() else []


def v_topic_more(q, p):
    """topic-split places: p = (slots, from_best) on top of the shipped 2-of-3."""
    slots, best = p
    lst = topic_list(q)[:best]
    return place(q["base"], lst, 10 - slots, slots)


def v_topic_newsess(q, p):
    """p places for the named speaker's topic turns from sessions the first 10-p places lack (best first, one per session)."""
    st = q["store"]
    lst = topic_list(q)
    head = q["base"][: 10 - p]
    have = {st["sess_of"].get(x) for x in head}
    extra = []
    for x in lst[:15]:
        s = st["sess_of"].get(x)
        if s not in have:
            extra.append(x)
            have.add(s)
    return place(q["base"], extra, 10 - p, p)


def v_per_speaker(q, p):
    """two or more named speakers: each one's best topic turn (by rank among their own) takes a place (p = places each)."""
    if len(set(q["names"])) < 2 or q["tv"] is None:
        return q["base"]
    lists = [topic_list(q, [n]) for n in sorted(set(q["names"]))]
    extra = []
    for _i in range(p):
        for lst in lists:
            cand = [x for x in lst if x not in extra and x not in q["base"][: 10 - p * len(lists)]]
            if cand:
                extra.append(cand[0])
    return place(q["base"], extra, 10 - len(extra), len(extra))


def v_kw_topic(q, p):
    """BM25 of the topic words among the named speaker's turns: its best p not in the head take the last places."""
    st = q["store"]
    sp = dict(zip(st["dia"], st["speaker"]))
    lst = [x for x in q["kw_topic_own"] if sp.get(x) in q["names"]]
    return place(q["base"], lst[:3], 10 - p, p)


VARIANTS = {
    "base": (v_base, [None]),
    "session cap": (v_sesscap, [2, 3, 4]),
    "topic slots/from": (v_topic_more, [(2, 3), (3, 3), (3, 4), (3, 5), (4, 5)]),
    "topic new sessions": (v_topic_newsess, [1, 2, 3]),
    "per speaker": (v_per_speaker, [1, 2]),
    "kw topic own": (v_kw_topic, [1, 2]),
}

LIST = re.compile(
    r"\b(what|which)\b.*\b(activities|events|things|books|ways|types|kinds|places|items|hobbies|sports|instruments|"
    r"pets|games|countries|cities|states|artists|bands|songs|movies|shows|foods|desserts|classes|subjects|symbols|"
    r"causes|exercises|people|areas|changes|interests|names|shelters|attributes|damages|writings)\b"
    r"|\bboth\b|\bhave\b.*\b(done|made|read|visited|tried|painted|taken|seen|attended|participated|met)\b"
    r"|\bhas\b.*\b(done|made|read|visited|tried|painted|taken|seen|attended|participated|met|been)\b", re.I)


def v_list_topic(q, p):
    """list-shaped questions only: (slots, from_best) of the named speaker's topic turns."""
    if not LIST.search(q["q"]):
        return q["base"]
    return v_topic_more(q, p)


def v_list_rrf(q, p):
    """list-shaped questions only: the topic list fused into the top 50 by RRF (k 10) with weight p."""
    if not LIST.search(q["q"]):
        return q["base"]
    s = defaultdict(float)
    for i, m in enumerate(q["base"]):
        s[m] += 1 / (10 + i + 1)
    for i, m in enumerate(topic_list(q)[:50]):
        s[m] += p / (10 + i + 1)
    return sorted(s, key=lambda m: -s[m])


VARIANTS.update({
    "list topic slots/from": (v_list_topic, [(3, 4), (4, 5), (4, 6), (5, 6), (5, 8), (6, 8)]),
    "list topic rrf": (v_list_rrf, [0.3, 0.5, 0.7, 1.0, 1.5]),
})
if __name__ == "__main__":
    gate = [q for q in data if LIST.search(q["q"])]
    print("list-shaped:", len(gate), "of", len(data), dict(Counter(q["cat"] for q in gate)))


def v_shape(q, p):
    """by question shape: two+ named speakers -> each one's best topic turns (p[2] places each); list-shaped ->
    (p[0] places, from the topic list's best p[1]); otherwise the shipped order."""
    slots, best, each = p
    if each and len(set(q["names"])) >= 2:
        return v_per_speaker(q, each)
    if slots and LIST.search(q["q"]):
        return v_topic_more(q, (slots, best))
    return q["base"]


VARIANTS.update({
    "shape (list s/f, each)": (v_shape, [(s, f, e) for s, f in [(0, 0), (3, 4), (4, 5), (4, 6), (5, 6)] for e in (0, 1, 2)]),
})


def v_each(q, p):
    """shipped semantics of the per-speaker split: one topic search (the 50 nearest in scope), split by named
    speaker (query order, at most 2); each speaker's best `from_best` not in the first 10 - each*n places take
    `each` places, round-robin. p = (each, from_best)."""
    each, from_best = p
    st = q["store"]
    order = []
    for n in q["names"]:
        if n not in order and n in set(st["speaker"]):
            order.append(n)
    order = order[:2]
    if len(order) < 2 or q["tv"] is None:
        return q["base"]
    near = ranked(q, q["tv"], in_scope(q, st), 50)
    sp = dict(zip(st["dia"], st["speaker"]))
    lists = [[x for x in near if sp.get(x) == n][:from_best] for n in order]
    head = q["base"][: 10 - each * len(order)]
    chosen = []
    for _i in range(each):
        for lst in lists:
            cand = [x for x in lst if x not in head and x not in chosen]
            if cand:
                chosen.append(cand[0])
    out = head + chosen
    return out + [x for x in q["base"] if x not in out]


VARIANTS.update({"each (each, from)": (v_each, [(1, 3), (2, 3), (2, 4), (2, 50), (3, 4), (3, 50)])})


def v_mix(q, p):
    """the shipped 2-of-3 topic places, but the topic list from (topic vector + a x query vector); p = a."""
    if q["tv"] is None:
        return q["base"]
    m = spk_mask(q)
    if not m.any():
        return q["base"]
    v = q["tv"] / np.linalg.norm(q["tv"]) + p * q["qv"] / np.linalg.norm(q["qv"])
    return place(q["base"], ranked(q, v, m)[:3], 8, 2)


VARIANTS.update({"mix topic+a*query": (v_mix, [0.0, 0.25, 0.5, 1.0])})


def v_demote(q, p):
    """questions naming exactly one speaker: turns of other speakers move p places down (stable)."""
    st = q["store"]
    named = set(q["names"]) & set(st["speaker"])
    if len(named) != 1:
        return q["base"]
    sp = dict(zip(st["dia"], st["speaker"]))
    key = {x: i + (p if sp.get(x) not in named else 0) for i, x in enumerate(q["base"])}
    return sorted(q["base"], key=lambda x: (key[x], 0 if sp.get(x) in named else 1))


VARIANTS.update({"demote other speaker": (v_demote, [1, 2, 3, 5, 10])})


if __name__ == "__main__":
    print(f"{len(data)} questions; columns: all / multi-hop / temporal / open-domain / single-hop")
    for name, (fn, grid) in VARIANTS.items():
        for p in grid:
            print(f"{name:22s} {str(p):8s}", fmt(table(lambda q, fn=fn, p=p: fn(q, p))))
        if len(CONVS) > 1 and len(grid) > 1:
            held = []
            for c in CONVS:
                train = [q for q in data if q["conv"] != c]
                best = max(grid, key=lambda p, fn=fn, train=train: table(lambda q, fn=fn, p=p: fn(q, p), train)["all"])
                held += [(q, best) for q in data if q["conv"] == c]
                print(f"   LOCO conv {c}: chose {best}")
            by = defaultdict(list)
            for q, p in held:
                r = R(q["evidence"], fn(q, p))
                by["all"].append(r)
                by[q["cat"]].append(r)
            print(f"{name:22s} {'LOCO':8s}", " ".join(f"{statistics.fmean(by[c]):.3f}" for c in ["all"] + CATS))

