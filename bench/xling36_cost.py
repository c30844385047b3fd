"""What MaxSim over the top 30 would cost at read (issue 10, round 36), on real pools.

    PYTHONPATH=src:bench python bench/xling36_cost.py ROWS.jsonl [QUESTIONS]

For the first QUESTIONS (default 20) questions with candidates in ROWS (`xling32_sim.py --cands 30` rows): (a) the
question's token states (one forward pass, pool=False: the pass the query vector already takes), (b) MaxSim (QDP)
against 30 memories' float16 states as they would be stored (one padded [30, L, 384] array), (c) recomputing the 30
memories' states at read (one batched forward pass). Wall and CPU seconds (this host is shared: CPU is the steadier
figure); ms per candidate; bytes per memory of float16 text-token states.
"""

import json
import sys
import time

import numpy as np
from xling36_states import encode

from hindsight.embeddings.e5_numpy import bundled_model_path
from hindsight.embeddings.e5_onnx import OnnxE5


def clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def main() -> None:
    rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    model = OnnxE5(bundled_model_path())
    qs = [q for q in rows if q["cands"]][:count]
    stored = {}
    for q in qs:
        for c in q["cands"][:30]:
            if c["text"] not in stored:
                states, kinds = encode(model, c["text"], False)
                stored[c["text"]] = states[kinds == 3]
    spent = {"query_states": [0.0, 0.0], "maxsim_stored": [0.0, 0.0], "recompute_30": [0.0, 0.0]}
    cands = 0
    for q in qs:
        texts = [c["text"] for c in q["cands"][:30]]
        cands += len(texts)
        w, c = clock()
        states, kinds = encode(model, q["text"], True)
        w2, c2 = clock()
        spent["query_states"][0] += w2 - w
        spent["query_states"][1] += c2 - c
        w, c = clock()
        a = states[kinds == 3].astype(np.float32)
        a /= np.linalg.norm(a, axis=1, keepdims=True)
        longest = max(len(stored[t]) for t in texts)
        pad = np.zeros((len(texts), longest, a.shape[1]), dtype=np.float16)
        mask = np.zeros((len(texts), longest), dtype=bool)
        for i, t in enumerate(texts):
            pad[i, : len(stored[t])] = stored[t]
            mask[i, : len(stored[t])] = True
        b = pad.astype(np.float32)
        b /= np.maximum(np.linalg.norm(b, axis=2, keepdims=True), 1e-6)
        sims = np.einsum("qh,nlh->nql", a, b)
        sims[~np.broadcast_to(mask[:, None, :], sims.shape)] = -2.0
        _ = sims.max(axis=2).mean(axis=1)
        w2, c2 = clock()
        spent["maxsim_stored"][0] += w2 - w
        spent["maxsim_stored"][1] += c2 - c
        w, c = clock()
        ids = [model.content_ids(t, False) for t in texts]
        for _bucket, arr, lengths in model._buckets(ids):
            model._forward(arr, lengths, pool=False)
        w2, c2 = clock()
        spent["recompute_30"][0] += w2 - w
        spent["recompute_30"][1] += c2 - c
    tokens = [len(s) for s in stored.values()]
    out = {"questions": len(qs), "candidates": cands,
           "ms_per_question": {k: {"wall": round(1000 * v[0] / len(qs), 2), "cpu": round(1000 * v[1] / len(qs), 2)}
                               for k, v in spent.items()},
           "ms_per_candidate": {k: {"wall": round(1000 * v[0] / cands, 3), "cpu": round(1000 * v[1] / cands, 3)}
                                for k, v in spent.items() if k != "query_states"},
           "memory_word_tokens_mean": round(float(np.mean(tokens)), 1),
           "bytes_per_memory_fp16": round(float(np.mean(tokens)) * 384 * 2)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
