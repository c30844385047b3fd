"""One client for OpenAI-compatible chat endpoints (OpenAI, DeepSeek, Qwen/DashScope, Ollama, vLLM).

Every caller treats a failure as "no LLM": the deterministic fallback runs
instead, so an outage degrades quality, never availability.
"""

from __future__ import annotations

import logging

import httpx

log = logging.getLogger(__name__)


class LLMClient:
    """Minimal `/chat/completions` client with a timeout and no retries (callers fall back)."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None, timeout: float = 20.0) -> None:
        self.model = model
        self._url = base_url.rstrip("/") + "/chat/completions"
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout, headers=headers)

    def complete(self, system: str, user: str, max_tokens: int = 400) -> str | None:
        """The assistant's reply text, or None when the endpoint fails in any way."""
        payload = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "temperature": 0,
            "max_tokens": max_tokens,
        }
        try:
            response = self._client.post(self._url, json=payload)
            response.raise_for_status()
            text = response.json()["choices"][0]["message"]["content"]
        except (httpx.HTTPError, KeyError, IndexError, ValueError, TypeError) as exc:
            log.warning("LLM call to %s failed, using the fallback: %s", self._url, exc)
            return None
        return text.strip() if isinstance(text, str) and text.strip() else None


def create_llm(base_url: str | None, model: str | None, api_key: str | None, timeout: float) -> LLMClient | None:
    """An LLM client when both URL and model are configured, else None (no-LLM mode)."""
    if not base_url or not model:
        return None
    return LLMClient(base_url, model, api_key, timeout)
