"""Where the missed evidence of the shipped top 10 sits in candidate lists (recall7; measurement only).

    python bench/recall7/where.py COL CONVS...
"""
from collections import Counter, defaultdict

from fuse import data, in_scope, ranked, spk_mask, topic_list  # reads COL CONVS... from the command line


def bucket(r):
    return "none" if r is None else "1-10" if r <= 10 else "11-20" if r <= 20 else "21-50" if r <= 50 else "50+"


tallies = defaultdict(Counter)
for q in data:
    st = q["store"]
    missed = [e for e in set(q["evidence"]) if e not in q["base"][:10]]
    if not missed:
        continue
    lists = {"base50": q["base"], "first": q["first"], "kw": q["kw"],
             "q_spk": ranked(q, q["qv"], spk_mask(q), 200) if q["names"] and spk_mask(q).any() else [],
             "q_all": ranked(q, q["qv"], in_scope(q, st), 500),
             "topic_spk": topic_list(q), "kw_topic_own": q["kw_topic_own"]}
    for e in missed:
        tallies["_n"][q["cat"]] += 1
        if e not in st["sess_of"]:
            tallies["_nostore"][q["cat"]] += 1
            continue
        for name, lst in lists.items():
            r = lst.index(e) + 1 if e in lst else None
            tallies[name + ":" + bucket(r)][q["cat"]] += 1
for key in sorted(tallies):
    print(f"{key:24s}", dict(tallies[key]))
