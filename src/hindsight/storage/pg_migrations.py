"""Versioned schema migrations for the PostgreSQL store.

Same contract as the SQLite migrations: MIGRATIONS[i] upgrades version i to i + 1 in one transaction,
the version lives in `hindsight_meta` ('schema_version'), a newer database than this code understands
is refused. Servers starting together take a session advisory lock, so exactly one of them migrates.

Times are epoch seconds (double precision) as in the SQLite schema; `metadata` and history snapshots
are JSON text. The `embedding` column gets its dimension (and its HNSW index) from the first vector
written, because the embedder is chosen at run time (postgres_store.ensure_dimension).
"""

from __future__ import annotations

from typing import Any

from hindsight.errors import StorageError

#: Advisory lock key for migrations and dimension changes (any constant no other hindsight lock uses).
SCHEMA_LOCK = 7_345_118_001

_V1 = """
CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE IF NOT EXISTS memories (
    seq BIGSERIAL UNIQUE,
    id TEXT PRIMARY KEY,
    namespace TEXT NOT NULL,
    content TEXT NOT NULL,
    type TEXT NOT NULL,
    context TEXT NOT NULL DEFAULT '',
    importance DOUBLE PRECISION NOT NULL,
    source TEXT NOT NULL,
    credibility DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    status_reason TEXT NOT NULL DEFAULT '',
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    event_time DOUBLE PRECISION,
    last_accessed_at DOUBLE PRECISION,
    access_count INTEGER NOT NULL DEFAULT 0,
    source_task_id TEXT,
    session_id TEXT,
    created_by TEXT NOT NULL DEFAULT 'local',
    encrypted INTEGER NOT NULL DEFAULT 0,
    metadata TEXT NOT NULL DEFAULT '{}',
    tags TEXT[] NOT NULL DEFAULT '{}',
    fts TSVECTOR NOT NULL DEFAULT ''::tsvector,
    embedding VECTOR
);
CREATE INDEX IF NOT EXISTS idx_memories_scope ON memories(namespace, status, type);
CREATE INDEX IF NOT EXISTS idx_memories_created ON memories(namespace, created_at);
CREATE INDEX IF NOT EXISTS idx_memories_time ON memories(namespace, (COALESCE(event_time, created_at)));
CREATE INDEX IF NOT EXISTS idx_memories_task ON memories(source_task_id);
CREATE INDEX IF NOT EXISTS idx_memories_session ON memories(namespace, session_id);
CREATE INDEX IF NOT EXISTS idx_memories_tags ON memories USING GIN (tags);
CREATE INDEX IF NOT EXISTS idx_memories_fts ON memories USING GIN (fts);
CREATE TABLE IF NOT EXISTS history (
    seq BIGSERIAL PRIMARY KEY,
    memory_id TEXT NOT NULL,
    action TEXT NOT NULL,
    actor TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    before TEXT,
    after TEXT,
    note TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_history_memory ON history(memory_id);
CREATE INDEX IF NOT EXISTS idx_history_at ON history(at);
CREATE TABLE IF NOT EXISTS edges (
    src TEXT NOT NULL,
    dst TEXT NOT NULL,
    kind TEXT NOT NULL,
    weight DOUBLE PRECISION NOT NULL DEFAULT 1.0,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (src, dst, kind)
);
CREATE INDEX IF NOT EXISTS idx_edges_dst ON edges(dst);
CREATE TABLE IF NOT EXISTS tokens (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    scopes TEXT NOT NULL,
    namespaces TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    revoked_at DOUBLE PRECISION
);
CREATE TABLE IF NOT EXISTS audit (
    seq BIGSERIAL PRIMARY KEY,
    at DOUBLE PRECISION NOT NULL,
    principal TEXT NOT NULL,
    action TEXT NOT NULL,
    namespace TEXT,
    memory_id TEXT,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_audit_at ON audit(at);
CREATE TABLE IF NOT EXISTS proposals (
    id TEXT PRIMARY KEY,
    namespace TEXT NOT NULL,
    action TEXT NOT NULL,
    memory_id TEXT,
    payload TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    proposed_by TEXT NOT NULL,
    proposed_at DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    reviewed_by TEXT,
    reviewed_at DOUBLE PRECISION,
    review_note TEXT NOT NULL DEFAULT '',
    result_memory_id TEXT
);
CREATE INDEX IF NOT EXISTS idx_proposals_queue ON proposals(status, namespace, proposed_at);
CREATE TABLE IF NOT EXISTS idempotency (
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    result TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (namespace, key)
)
"""

_V2 = """
ALTER TABLE idempotency ADD COLUMN IF NOT EXISTS request_hash TEXT NOT NULL DEFAULT ''
"""

_V3 = """
CREATE INDEX IF NOT EXISTS idx_memories_session_order ON memories(namespace, session_id, created_at, seq);
DROP INDEX IF EXISTS idx_memories_session
"""

_V4 = """
CREATE TABLE IF NOT EXISTS console_sessions (
    id_hash TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_console_sessions_expiry ON console_sessions(expires_at)
"""

#: MIGRATIONS[i] upgrades a database from version i to i + 1.
#: V2: `idempotency.request_hash` (as SQLite's V6).
#: V3: the session index also orders by write time, so `session_neighbours` is two index range reads (as SQLite's
#: V7); it replaces the (namespace, session_id) index, whose prefix it covers.
#: V4: `console_sessions` (as SQLite's V9).
MIGRATIONS: list[str] = [_V1, _V2, _V3, _V4]

SCHEMA_VERSION = len(MIGRATIONS)


def migrate(conn: Any) -> int:
    """Bring the database behind `conn` (psycopg, autocommit) to SCHEMA_VERSION; returns the version it started at."""
    conn.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS hindsight_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        row = conn.execute("SELECT value FROM hindsight_meta WHERE key = 'schema_version'").fetchone()
        current = int(row[0] if not isinstance(row, dict) else row["value"]) if row else 0
        if current > SCHEMA_VERSION:
            raise StorageError(f"database schema version {current} is newer than this hindsight understands "
                               f"({SCHEMA_VERSION}); upgrade hindsight")
        for version in range(current, SCHEMA_VERSION):
            with conn.transaction():
                for statement in filter(str.strip, MIGRATIONS[version].split(";\n")):
                    conn.execute(statement)
                conn.execute("INSERT INTO hindsight_meta(key, value) VALUES ('schema_version', %s) "
                             "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", (str(version + 1),))
        return current
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))
