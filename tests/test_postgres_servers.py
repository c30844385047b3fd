"""Several `hindsight serve` processes on one PostgreSQL database are correct together.

Real parts only: a PostgreSQL 16 + pgvector server (pgserver wheel), `hindsight serve --transport http`
subprocesses, MCP clients over HTTP. Done-when of issue 11: every acknowledged write is visible and
searchable through the other server, also after one server is SIGKILLed mid-stream; two servers cannot
both create the "same" memory.
"""

from __future__ import annotations

import signal
import subprocess
import threading
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import ROOT, child_env, free_port, mcp_session, serve_argv, stop_process, wait_for_port

pytestmark = pytest.mark.slow


@contextmanager
def server(url: str, log_file: Path, **env: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`hindsight serve --transport http --db postgresql://...`; yields (MCP URL, process)."""
    port = free_port()
    with ExitStack() as stack:
        log = stack.enter_context(log_file.open("wb"))
        proc = subprocess.Popen(serve_argv(url, "http", port), stdin=subprocess.DEVNULL, stdout=log,  # type: ignore[arg-type]
                                stderr=subprocess.STDOUT, env=child_env(**env), cwd=str(ROOT))
        stack.callback(stop_process, proc)
        wait_for_port(port, proc, log_file)
        yield f"http://127.0.0.1:{port}/mcp", proc


def _fact(server_name: str, i: int) -> tuple[str, str]:
    """(content, codeword): unrelated facts in English and Chinese, each with a unique keyword."""
    code = f"kw{uuid.uuid4().hex[:10]}"
    if i % 2:
        return f"服务器{server_name}的第{i}条笔记：示例单词是 {code}", code
    return f"Server {server_name} note {i}: the example word is {code}", code


class Writer(threading.Thread):
    """Stores facts through one server until told to stop or the server dies; keeps what was acknowledged."""

    def __init__(self, url: str, name: str, count: int, start_at: int = 0) -> None:
        super().__init__(daemon=True)
        self.url, self.name, self.count, self.start_at = url, name, count, start_at
        self.acked: list[tuple[str, str, str]] = []  # (memory_id, content, codeword)
        self.failed: Exception | None = None

    def run(self) -> None:
        try:
            with mcp_session(self.url) as client:
                for i in range(self.start_at, self.start_at + self.count):
                    content, code = _fact(self.name, i)
                    result = client.call("memory_store", content=content, type="semantic")
                    assert result["action"] == "created", result
                    self.acked.append((result["memory_id"], content, code))
        except Exception as exc:  # the killed server's writer ends here
            self.failed = exc


def _assert_visible(client: Any, acked: list[tuple[str, str, str]]) -> None:
    for memory_id, content, code in acked:
        assert client.call("memory_get", memory_id=memory_id)["content"] == content
        hits = client.call("memory_search", query=code, top_k=3)["results"]
        assert memory_id in [h["id"] for h in hits], (content, hits)


def test_two_servers_see_each_others_writes_also_after_a_sigkill(pg_url: str, tmp_path: Path) -> None:
    # hygiene off: these unrelated facts share a template, and this test is about visibility, not dedup
    with server(pg_url, tmp_path / "a.log", HINDSIGHT_HYGIENE="false") as (url_a, _), \
            server(pg_url, tmp_path / "b.log", HINDSIGHT_HYGIENE="false") as (url_b, proc_b):
        first = [Writer(url_a, "A", 8), Writer(url_b, "B", 8)]
        for w in first:
            w.start()
        for w in first:
            w.join(timeout=240)
            assert w.failed is None and len(w.acked) == 8, w.failed
        with mcp_session(url_a) as a, mcp_session(url_b) as b:
            _assert_visible(b, first[0].acked)
            _assert_visible(a, first[1].acked)
        # again at once, and server B dies (SIGKILL, no shutdown) in the middle of its stream
        a_writer, b_writer = Writer(url_a, "A", 12, start_at=100), Writer(url_b, "B", 40, start_at=100)
        a_writer.start()
        b_writer.start()
        while len(b_writer.acked) < 4 and b_writer.is_alive():
            threading.Event().wait(0.05)
        proc_b.send_signal(signal.SIGKILL)
        proc_b.wait(timeout=30)
        b_writer.join(timeout=120)
        a_writer.join(timeout=240)
        assert a_writer.failed is None and len(a_writer.acked) == 12, a_writer.failed
        assert b_writer.failed is not None and 4 <= len(b_writer.acked) < 40
        with mcp_session(url_a) as a:
            _assert_visible(a, first[1].acked + b_writer.acked)
            total = a.call("memory_stats")["total"]
            # nothing half-written either: what B did not acknowledge is at most the one write in flight
            assert 8 + 8 + 12 + len(b_writer.acked) <= total <= 8 + 8 + 12 + len(b_writer.acked) + 1
    # a server started afterwards sees everything every server acknowledged
    with server(pg_url, tmp_path / "c.log", HINDSIGHT_HYGIENE="false") as (url_c, _), mcp_session(url_c) as c:
        _assert_visible(c, first[0].acked + first[1].acked + a_writer.acked + b_writer.acked)


def test_two_servers_cannot_both_create_the_same_memory(pg_url: str, tmp_path: Path) -> None:
    """Hygiene on: the same fact sent to both servers at the same moment is stored once, the other is a duplicate."""
    facts = ["预发布环境的数据库密码每周一上午九点轮换。", "The staging cluster is upgraded on the first Friday of each month.",
             "用户希望所有的代码评审意见都用中文写。", "Nightly backups of the billing database are kept for 35 days."]
    with server(pg_url, tmp_path / "a.log") as (url_a, _), server(pg_url, tmp_path / "b.log") as (url_b, _), \
            mcp_session(url_a) as a, mcp_session(url_b) as b:
        for client in (a, b):  # warm both servers up, so their writes reach the hygiene check at the same time
            client.call("memory_store", content=f"warm-up {uuid.uuid4().hex}", namespace="warmup")
        for fact in facts:
            results: list[dict[str, Any]] = []
            barrier = threading.Barrier(2)

            def send(client: Any, text: str = fact, out: list[dict[str, Any]] = results,
                     gate: threading.Barrier = barrier) -> None:
                gate.wait(timeout=60)
                out.append(client.call("memory_store", content=text, type="semantic", source="user"))

            threads = [threading.Thread(target=send, args=(client,)) for client in (a, b)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=240)
            assert sorted(r["action"] for r in results) == ["created", "duplicate"], (fact, results)
            assert len({r["memory_id"] for r in results}) == 1
        active = b.call("memory_list", filters={"statuses": ["active"]}, limit=50)["memories"]
        assert sorted(m["content"] for m in active) == sorted(facts)
