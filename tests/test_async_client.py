"""AsyncResilientClient used directly from asyncio code against a real server that comes up late."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

from mcp_helpers import (
    ROOT,
    child_env,
    free_port,
    serve_argv,
    stop_process,
    wait_for_port,
)

from hindsight.client import AsyncResilientClient


def test_async_client_queues_then_its_worker_delivers_once(tmp_path: Path) -> None:
    db, log, port = tmp_path / "memory.db", tmp_path / "server.log", free_port()

    async def scenario() -> tuple[dict, dict, int, int]:
        async with AsyncResilientClient(f"http://127.0.0.1:{port}/mcp", tmp_path / "queue.db", timeout=3.0,
                                        backoff_base=0.2, backoff_max=1.0) as client:
            queued = await client.store("异步客户端：服务器晚启动时写入先排队。", idempotency_key="async-1")
            status = client.status().as_dict()
            handle = log.open("ab")
            proc = subprocess.Popen(serve_argv(db, "http", port), stdin=subprocess.DEVNULL, stdout=handle,  # noqa: ASYNC220
                                    stderr=subprocess.STDOUT, env=child_env(), cwd=str(ROOT))
            try:
                await asyncio.to_thread(wait_for_port, port, proc, log)
                for _ in range(600):
                    if not client.pending():
                        break
                    await asyncio.sleep(0.2)
                pending = client.pending()
                again = await client.store("异步客户端：服务器晚启动时写入先排队。", idempotency_key="async-1")
                stats = await client.call("memory_stats", {"namespace": "default"})
            finally:
                stop_process(proc)
            return queued, status, pending, stats["total"] if again.get("replayed") else -1

    queued, status, pending, total = asyncio.run(scenario())
    assert queued["queued"] is True and queued["idempotency_key"] == "async-1"
    assert status["degraded"] and status["queue_length"] == 1 and status["last_error"]
    assert pending == 0 and total == 1
