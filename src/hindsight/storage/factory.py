"""Open the one store a URL names: every persistent thing hindsight keeps lives behind it.

`HINDSIGHT_DB` / `--db` is a file path or `sqlite:///path` (the embedded SQLite store, with the vector
index the settings ask for), or `postgresql://...` (PostgreSQL + pgvector, for several servers). The
store comes back wrapped in `EncryptedStore`, which seals private memories with the configured key.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.native_order import before_usearch
from hindsight.security.crypto import MemoryCipher, load_cipher
from hindsight.security.key_check import refuse_wrong_key
from hindsight.security.rotate import seal_once_on_open
from hindsight.storage.base import MemoryStore
from hindsight.storage.encrypted import EncryptedStore
from hindsight.storage.vector_index import ExactVectorIndex, VectorIndex

#: `auto` switches from exact search to the HNSW graph at this many stored vectors (docs/benchmarks.md: exact
#: search over 100k vectors of dim 384 takes ~15 ms on one core, over 1M ~150 ms; HNSW stays ~1 ms).
AUTO_HNSW_AT = 100_000


def _stored_vectors(db_path: Path) -> int:
    if str(db_path) == ":memory:" or not Path(db_path).exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])
    except sqlite3.Error:  # an older schema (migrated on open) or a busy file: decide as for a small store
        return 0


def _usearch_available() -> bool:
    before_usearch()
    try:
        import usearch.index  # noqa: F401
    except ImportError:
        return False
    return True


POSTGRES_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")


def is_postgres(url: str | Path) -> bool:
    return isinstance(url, str) and url.startswith(POSTGRES_SCHEMES)


def sqlite_path(url: str | Path) -> Path:
    """The file a SQLite URL or plain path names. As in SQLAlchemy, `sqlite:///memory.db` is relative and
    `sqlite:////var/lib/memory.db` absolute; a plain path (`~/x.db`) is used as it is."""
    text = str(url)
    text = text.removeprefix("sqlite:///")
    return Path(text).expanduser()


def describe(url: str | Path) -> str:
    """The URL without its password, for logs and `stats`."""
    if is_postgres(url):
        from hindsight.storage.postgres_store import redacted

        return redacted(str(url))
    return str(sqlite_path(url))


def open_raw_store(url: str | Path, settings: HindsightSettings | None = None) -> MemoryStore:
    """The backend itself (no encryption wrapper): what `hindsight migrate` copies sealed records between."""
    settings = settings or HindsightSettings()
    if is_postgres(url):
        from hindsight.storage.postgres_store import PostgresStore

        return PostgresStore(str(url).replace("postgresql+psycopg://", "postgresql://", 1))
    from hindsight.storage.sqlite_store import SQLiteStore

    path = sqlite_path(url)
    return SQLiteStore(path, vector_index=create_vector_index(settings, path), busy_timeout=settings.busy_timeout)


def open_store(url: str | Path | None = None, settings: HindsightSettings | None = None,
               cipher: MemoryCipher | None = None, verify_key: bool = True) -> EncryptedStore:
    """The store `url` (default: the settings' `db`) names, sealing private memories with `cipher`
    (default: the key from HINDSIGHT_ENCRYPTION_KEY / HINDSIGHT_KEY_FILE, if any). `verify_key`: refuse a key that
    does not open the store's private memories (security/key_check.py); off for the store-only commands."""
    settings = settings or HindsightSettings()
    inner = open_raw_store(url if url is not None else settings.db, settings)
    try:
        key = cipher if cipher is not None else load_cipher()
        if verify_key:
            refuse_wrong_key(inner, key)  # a wrong key would split the store (attack round 35)
        seal_once_on_open(inner, key)  # what an older version left in clear (attack round 27)
        return EncryptedStore(inner, key, check_key=verify_key)
    except Exception:
        inner.close()
        raise


def create_vector_index(settings: HindsightSettings, db_path: Path) -> VectorIndex:
    """`exact`: in process, rebuilt on open. `hnsw`: usearch graph persisted in `<db>.ann/`. `qdrant`: a Qdrant
    server at `qdrant_url`, or qdrant-client's local mode in `qdrant_path` (default: next to the database).
    `auto` (default): exact below AUTO_HNSW_AT vectors, hnsw from there when usearch is installed."""
    backend = settings.vector_backend
    if backend == "auto":
        big = _stored_vectors(db_path) >= AUTO_HNSW_AT
        backend = "hnsw" if big and _usearch_available() else "exact"
    if backend == "exact":
        return ExactVectorIndex()
    if backend == "hnsw":
        from hindsight.storage.ann_hnsw import HnswVectorIndex

        return HnswVectorIndex(None if str(db_path) == ":memory:" else Path(f"{db_path}.ann"))
    from hindsight.storage.qdrant_index import QdrantVectorIndex

    local = settings.qdrant_path or Path(f"{db_path}.qdrant")
    return QdrantVectorIndex(collection=settings.qdrant_collection, url=settings.qdrant_url,
                             path=None if settings.qdrant_url else str(local), api_key=settings.qdrant_api_key)
