"""Every recall7 attempt at the parameter chosen on dev (best dev R@10 among its grid), on any split, one line
each (recall7; measurement only; the test split was scored once with these fixed choices).

    PYTHONPATH=../../src python report.py COL CONVS...      (from this folder)
"""
import fuse
import own

CHOSEN = [
    ("main's top 10", lambda q: q["base"]),
    ("session cap 4", lambda q: fuse.v_sesscap(q, 4)),
    ("topic split 3 of 3", lambda q: fuse.v_topic_more(q, (3, 3))),
    ("topic places from new sessions, 1", lambda q: fuse.v_topic_newsess(q, 1)),
    ("per speaker, 2 places each", lambda q: fuse.v_each(q, (2, 50))),
    ("BM25 topic words, own text, 1 place", lambda q: fuse.v_kw_topic(q, 1)),
    ("list-shaped: 4 of 5 topic places", lambda q: fuse.v_list_topic(q, (4, 5))),
    ("list-shaped: topic RRF 0.3", lambda q: fuse.v_list_rrf(q, 0.3)),
    ("by shape: list 5 of 6 + per speaker 2", lambda q: fuse.v_shape(q, (5, 6, 2))),
    ("topic + 0.5 x query vector", lambda q: fuse.v_mix(q, 0.5)),
    ("demote the other speaker 1", lambda q: fuse.v_demote(q, 1)),
    ("own text: topic places 1 of 1", lambda q: own.own_topic(q, (1, 1))),
    ("own text: whole store 1 of 1", lambda q: own.own_all(q, (1, 1))),
    ("own text: RRF 0.5", lambda q: own.own_rrf(q, 0.5)),
    ("own text: RRF 0.5, list-shaped only", lambda q: own.own_rrf(q, 0.5) if fuse.LIST.search(q["q"]) else q["base"]),
]
print(f"{len(fuse.data)} questions; R@10 all / multi-hop / temporal / open-domain / single-hop")
for name, fn in CHOSEN:
    print(f"{name:42s}", fuse.fmt(fuse.table(fn)))
