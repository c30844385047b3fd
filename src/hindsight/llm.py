"""One client for OpenAI-compatible chat endpoints (OpenAI, DeepSeek, Qwen/DashScope, Ollama, vLLM).

Every caller treats a failure as "no LLM": the deterministic fallback runs
instead, so an outage degrades quality, never availability.

A slow endpoint must not take the server with it (attack round 21): tool calls run on the server's worker threads
(40 of them), and 45 `memory_summarize` calls of a `read` token against an endpoint that answered only at the timeout
held every other principal's tool call 22 s. So at most :data:`MAX_CONCURRENT_CALLS` calls of one client wait on
the endpoint at once (a call that finds them all busy falls back at once), the timeout bounds the whole call (an
endpoint that sends its reply a byte at a time within the read timeout was read for minutes), and a reply is read
up to :data:`MAX_REPLY_BYTES` (a 50 MB "summary" was read whole and handed to the caller).
"""

from __future__ import annotations

import json
import logging
import threading
import time

import httpx

from hindsight.url_secrets import scrubbed, shown_url

log = logging.getLogger(__name__)

#: calls of one client waiting on the endpoint at once; a further call falls back without waiting
MAX_CONCURRENT_CALLS = 4
#: bytes of a reply read at most (a summary or a label is a few KB; max_tokens is at most a few hundred)
MAX_REPLY_BYTES = 256 * 1024


class _ReplyRefused(Exception):
    """The reply passed the byte bound or the call's deadline."""


class LLMClient:
    """Minimal `/chat/completions` client with a timeout and no retries (callers fall back)."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None, timeout: float = 20.0,
                 max_concurrent: int = MAX_CONCURRENT_CALLS) -> None:
        self.model = model
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._timeout = timeout
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout, headers=headers)
        self._slots = threading.BoundedSemaphore(max_concurrent)

    def complete(self, system: str, user: str, max_tokens: int = 400) -> str | None:
        """The assistant's reply text, or None when the endpoint fails in any way (or every slot is busy)."""
        payload = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "temperature": 0,
            "max_tokens": max_tokens,
        }
        if not self._slots.acquire(blocking=False):
            log.warning("LLM endpoint %s busy (%d calls waiting on it), using the fallback", shown_url(self._url),
                        MAX_CONCURRENT_CALLS)
            return None
        try:
            text = json.loads(self._post(payload))["choices"][0]["message"]["content"]
        except (httpx.HTTPError, _ReplyRefused, KeyError, IndexError, ValueError, TypeError) as exc:
            log.warning("LLM call to %s failed, using the fallback: %s", shown_url(self._url), scrubbed(str(exc)))
            return None
        finally:
            self._slots.release()
        return text.strip() if isinstance(text, str) and text.strip() else None

    def _post(self, payload: dict[str, object]) -> bytes:
        """The reply's body, read within the call's deadline and byte bound."""
        deadline = time.monotonic() + self._timeout
        with self._client.stream("POST", self._url, json=payload) as response:
            response.raise_for_status()
            body = bytearray()
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) > MAX_REPLY_BYTES:
                    raise _ReplyRefused(f"reply over {MAX_REPLY_BYTES} bytes")
                if time.monotonic() > deadline:
                    raise _ReplyRefused(f"reply not read within {self._timeout} s")
            return bytes(body)


def create_llm(base_url: str | None, model: str | None, api_key: str | None, timeout: float) -> LLMClient | None:
    """An LLM client when both URL and model are configured, else None (no-LLM mode)."""
    if not base_url or not model:
        return None
    return LLMClient(base_url, model, api_key, timeout)
