"""Attack round 21 (docs/security.md "Attack round 21"): what an outside attacker found on the running server.

- A slow LLM endpoint took the server with it: tool calls run on the server's worker threads, and 45
  `memory_summarize` calls of a `read` token against an endpoint that answered only at its timeout held another
  principal's `memory_get` 22 s (every worker thread waited on the endpoint). An endpoint that sent its reply a byte
  at a time was read for as long as it kept sending (the timeout is per read), and a 50 MB reply was read whole.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import hindsight.llm as llm_module
from hindsight.llm import LLMClient

#: the slots of one client (4; read so that the test also runs, and fails, where the bound does not exist)
MAX_CONCURRENT_CALLS = getattr(llm_module, "MAX_CONCURRENT_CALLS", 4)

# --- the LLM endpoint: slots, deadline, byte bound ----------------------------------------------------------------


def _reply(text: str) -> bytes:
    return json.dumps({"choices": [{"message": {"role": "assistant", "content": text}}]}).encode()


@contextmanager
def _endpoint(serve: Callable[[BaseHTTPRequestHandler], None]) -> Iterator[str]:
    """A loopback chat endpoint whose handler `serve` writes the whole response itself."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server API
            self.rfile.read(int(self.headers["Content-Length"]))
            serve(self)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()


def _send(handler: BaseHTTPRequestHandler, body: bytes, byte_delay: float = 0.0) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    if not byte_delay:
        handler.wfile.write(body)
        return
    for i in range(len(body)):
        handler.wfile.write(body[i:i + 1])
        handler.wfile.flush()
        time.sleep(byte_delay)


def test_a_hanging_llm_endpoint_holds_a_bounded_number_of_calls() -> None:
    """More calls than the slots while the endpoint hangs: the extra ones fall back without reaching it."""
    reached, release = [], threading.Event()

    def hang(handler: BaseHTTPRequestHandler) -> None:
        reached.append(1)
        release.wait(timeout=30)
        _send(handler, _reply("late"))

    with _endpoint(hang) as url:
        llm = LLMClient(url, "scripted", timeout=30)
        waiting = [threading.Thread(target=llm.complete, args=("s", "u")) for _ in range(MAX_CONCURRENT_CALLS)]
        for worker in waiting:
            worker.start()
        for _ in range(3000):  # until each of them reached the endpoint
            if len(reached) >= MAX_CONCURRENT_CALLS:
                break
            time.sleep(0.01)
        extra = threading.Thread(target=lambda: extra_out.append(llm.complete("s", "u")))
        extra_out: list[str | None] = []
        extra.start()
        extra.join(timeout=10)
        seen = len(reached)
        release.set()
        for worker in waiting:
            worker.join(timeout=30)
        extra.join(timeout=30)
        assert seen == MAX_CONCURRENT_CALLS, "a call past the slots waited on the hanging endpoint too"
        assert extra_out == [None], "the call that found every slot busy falls back (None)"
        assert llm.complete("s", "u") == "late", "the slots are given back"


def test_a_reply_sent_a_byte_at_a_time_is_cut_at_the_calls_deadline() -> None:
    """The timeout bounds the whole call, not each read: a reply dripping within the read timeout is given up."""
    with _endpoint(lambda h: _send(h, _reply("x" * 60), byte_delay=0.1)) as url:
        assert LLMClient(url, "scripted", timeout=1).complete("s", "u") is None


def test_a_reply_past_the_byte_bound_is_not_read_whole() -> None:
    with _endpoint(lambda h: _send(h, _reply("A" * 5_000_000))) as url:
        assert LLMClient(url, "scripted", timeout=10).complete("s", "u") is None
    with _endpoint(lambda h: _send(h, _reply("a short summary"))) as url:
        assert LLMClient(url, "scripted", timeout=10).complete("s", "u") == "a short summary"
