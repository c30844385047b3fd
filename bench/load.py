"""Load on loopback: N concurrent MCP clients, mixed store/search, against a real `hindsight serve` process.

    .venv/bin/python bench/load.py [--clients 32] [--duration 60] [--write-ratio 0.3] [--seed 200]
                                   [--out bench/results/load.json]

Bounded in time (--duration, then in-flight calls finish within --timeout) and in data (the store is seeded with
--seed memories, each client writes unique short texts). Reports throughput, p50/p95/p99 per operation, errors,
and, read back from the SQLite file after the server stops: lost writes (acknowledged but not stored) and
duplicated writes (one idempotency key, more than one memory). Every store carries an idempotency key.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastmcp import Client

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import QUERIES, corpus, percentile

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(db: Path, port: int, log: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "hindsight.cli", "serve", "--transport", "http", "--db", str(db),
            "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(argv, stdout=log.open("wb"), stderr=subprocess.STDOUT, cwd=str(ROOT),
                            env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE", **env})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise TimeoutError("server did not start")


async def worker(number: int, url: str, deadline: float, ratio: float, timeout: float,
                 out: dict[str, Any]) -> None:
    rng = random.Random(number)
    async with Client(url, timeout=timeout, init_timeout=timeout) as client:
        count = 0
        while time.monotonic() < deadline:
            write = rng.random() < ratio
            start = time.perf_counter()
            try:
                if write:
                    key = f"load-{number}-{count}"
                    text = f"client {number} note {count}: {rng.choice(QUERIES)} -> checked at step {rng.randint(1, 10**6)}"
                    result = await client.call_tool("memory_store", {"content": text, "idempotency_key": key})
                    out["acked"].append((key, (result.structured_content or {}).get("memory_id"), text))
                else:
                    await client.call_tool("memory_search", {"query": rng.choice(QUERIES), "top_k": 5})
            except Exception as exc:  # noqa: BLE001 - every failure is counted, by kind
                out["errors"].append(f"{'store' if write else 'search'}: {type(exc).__name__}: {str(exc)[:120]}")
            else:
                out["store" if write else "search"].append(time.perf_counter() - start)
            count += 1


def summary(latencies: list[float]) -> dict[str, float | int]:
    if not latencies:
        return {"count": 0}
    return {"count": len(latencies), "p50_ms": round(1000 * percentile(latencies, 0.5), 1),
            "p95_ms": round(1000 * percentile(latencies, 0.95), 1),
            "p99_ms": round(1000 * percentile(latencies, 0.99), 1)}


def check_writes(db: Path, acked: list[tuple[str, str | None, str]]) -> dict[str, int]:
    """Lost: an acknowledged write whose memory is not in the file. Duplicated: a text written once, stored twice."""
    with sqlite3.connect(db) as conn:
        ids = {row[0] for row in conn.execute("SELECT id FROM memories")}
        counts = dict(conn.execute("SELECT content, COUNT(*) FROM memories WHERE content LIKE 'client %' "
                                   "GROUP BY content"))
    lost = sum(1 for _, memory_id, _ in acked if memory_id not in ids)
    twins = sum(1 for _, _, text in acked if counts.get(text, 0) > 1)
    return {"acknowledged": len(acked), "lost": lost, "duplicated": twins}


async def drive(url: str, clients: int, duration: float, ratio: float, timeout: float) -> dict[str, Any]:
    out: dict[str, Any] = {"store": [], "search": [], "errors": [], "acked": []}
    deadline = time.monotonic() + duration
    start = time.perf_counter()
    await asyncio.gather(*(worker(i, url, deadline, ratio, timeout, out) for i in range(clients)))
    out["elapsed_s"] = time.perf_counter() - start
    return out


def seed_store(db: Path, n: int) -> None:
    from hindsight.config import HindsightSettings
    from hindsight.engine import MemoryEngine

    engine = MemoryEngine.open(db, HindsightSettings(db=db))
    try:
        engine.store_many([{"content": text} for text in corpus(n)])
    finally:
        engine.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--write-ratio", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=200, help="memories stored before the run")
    parser.add_argument("--timeout", type=float, default=60.0, help="per-call client timeout (s)")
    parser.add_argument("--label", default="")
    parser.add_argument("--out", default="bench/results/load.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db, port, log = Path(tmp) / "load.db", free_port(), Path(tmp) / "server.log"
        seed_store(db, args.seed)
        server = start_server(db, port, log, {})
        try:
            run = asyncio.run(drive(f"http://127.0.0.1:{port}/mcp", args.clients, args.duration,
                                    args.write_ratio, args.timeout))
        finally:
            server.terminate()
            server.wait(timeout=30)
        writes = check_writes(db, run["acked"])
    ops = len(run["store"]) + len(run["search"])
    errors: dict[str, int] = {}
    for e in run["errors"]:
        errors[e] = errors.get(e, 0) + 1
    result = {"label": args.label, "clients": args.clients, "duration_s": args.duration,
              "write_ratio": args.write_ratio, "seeded": args.seed, "elapsed_s": round(run["elapsed_s"], 1),
              "throughput_ops_s": round(ops / run["elapsed_s"], 2), "store": summary(run["store"]),
              "search": summary(run["search"]), "errors": errors, "writes": writes,
              "machine": f"{platform.machine()} {os.cpu_count()} cpus python {platform.python_version()}"}
    print(json.dumps(result, indent=2))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    previous = json.loads(out.read_text()) if out.exists() else []
    previous = previous if isinstance(previous, list) else [previous]
    out.write_text(json.dumps([*previous, result], indent=2) + "\n")


if __name__ == "__main__":
    main()
