"""Embedding providers behind one interface; see factory.create_embedder."""
from hindsight.embeddings.base import CachedEmbedder, Embedder
from hindsight.embeddings.factory import DEFAULT_EMBEDDER, create_embedder

__all__ = ["Embedder", "CachedEmbedder", "create_embedder", "DEFAULT_EMBEDDER"]
