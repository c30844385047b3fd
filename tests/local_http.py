"""A loopback HTTP server for tests that need a real OpenAI-compatible peer (embeddings, chat)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

#: Given the parsed JSON body and the path, return (status, JSON payload).
Responder = Callable[[dict[str, Any], str], tuple[int, dict[str, Any] | None]]


@contextmanager
def json_endpoint(respond: Responder) -> Iterator[str]:
    """Serve `respond` on 127.0.0.1 (a free port) and yield the base URL ending in /v1."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server API
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            status, payload = respond(body, self.path)
            data = json.dumps(payload).encode() if payload is not None else b""
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
