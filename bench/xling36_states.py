"""Last-layer token states of every question and top-30 candidate memory in the released blind rounds (issue 10,
round 36: late interaction, `xling36_maxsim.py` reads them).

    PYTHONPATH=src:bench python bench/xling36_states.py OUT.pkl DIR [DIR ...]

DIR holds `xling32_sim.py --cands 30` rows (main_ROUND.jsonl). Each question text is encoded as E5 expects a query
("query: " + text), each candidate memory's text as a passage ("passage: " + text), by the shipped encoder
(`OnnxE5`, q4, the runner the store uses by default), one forward pass per text, the whole row kept: <s>, the
prefix's tokens, the text's tokens, </s>. Per text OUT.pkl keeps the states ([positions, 384] float16, not
normalised) and a kind per position: 0 <s> / </s>, 1 the prefix, 2 a punctuation or bare-metaspace token of the
text, 3 a word token of the text. Texts already in OUT.pkl are not encoded again (the run can be resumed).
"""

import json
import pickle
import sys
import time
import unicodedata
from pathlib import Path

import numpy as np

from hindsight.embeddings.e5_numpy import META, bundled_model_path
from hindsight.embeddings.e5_onnx import OnnxE5


def is_punct(piece: str) -> bool:
    core = piece.replace(META, "")
    return not core or all(unicodedata.category(ch)[0] in "PSZ" for ch in core)


def texts_of(dirs: list[Path]) -> list[tuple[str, bool]]:
    """(text, is a question) round by round (r1, r2, ...): a partial run holds whole rounds."""
    files = sorted((p for folder in dirs for p in folder.glob("main_r*.jsonl")), key=lambda p: int(p.stem[6:]))
    todo: dict[tuple[str, bool], None] = {}
    for p in files:
        for line in open(p, encoding="utf-8"):
            q = json.loads(line)
            if q["cands"]:
                todo[(q["text"], True)] = None
                todo.update({(c["text"], False): None for c in q["cands"][:30]})
    return list(todo)


def encode(model: OnnxE5, text: str, is_query: bool) -> tuple[np.ndarray, np.ndarray]:
    ids = model.content_ids(text, is_query)[: model.MAXP - 2]
    prefix = len(model.tokenizer.content_ids("query:" if is_query else "passage:"))
    if prefix < len(ids) and model.tokenizer.piece(ids[prefix]) == META:
        prefix += 1  # a lone metaspace before text that starts with a CJK character (as `token_states`)
    seq = np.array([[model.tokenizer.bos, *ids, model.tokenizer.eos]], dtype=np.int64)
    states = model._forward(seq, np.array([seq.shape[1]]), pool=False)[0]
    kinds = [0] + [1] * prefix + [2 if is_punct(model.tokenizer.piece(i)) else 3 for i in ids[prefix:]] + [0]
    return states.astype(np.float16), np.asarray(kinds, dtype=np.int8)


def main() -> None:
    out = Path(sys.argv[1])
    every = texts_of([Path(d) for d in sys.argv[2:]])
    done: dict = pickle.loads(out.read_bytes()) if out.exists() else {"query": {}, "passage": {}}
    model = OnnxE5(bundled_model_path())
    todo = [(t, q) for t, q in every if t not in done["query" if q else "passage"]]
    print(f"{len(every)} texts, {len(todo)} to encode", flush=True)
    start = time.time()
    for n, (text, is_query) in enumerate(todo, start=1):
        done["query" if is_query else "passage"][text] = encode(model, text, is_query)
        if n % 1000 == 0 or n == len(todo):
            tmp = out.with_suffix(".tmp")
            tmp.write_bytes(pickle.dumps(done, protocol=pickle.HIGHEST_PROTOCOL))
            tmp.replace(out)
            print(f"{n} / {len(todo)}  {(time.time() - start) / n * 1000:.0f} ms a text", flush=True)


if __name__ == "__main__":
    main()
