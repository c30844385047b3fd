"""Versioned schema migrations for the SQLite store.

Each entry upgrades the schema by one version inside one transaction; the
version lives in `PRAGMA user_version`, so an old file opens and upgrades in
place and a newer file than this code understands is refused, not damaged.
"""

from __future__ import annotations

import sqlite3

from hindsight.errors import StorageError

_V1 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS memories (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    namespace TEXT NOT NULL,
    content TEXT NOT NULL,
    type TEXT NOT NULL,
    context TEXT NOT NULL DEFAULT '',
    importance REAL NOT NULL,
    source TEXT NOT NULL,
    credibility REAL NOT NULL,
    status TEXT NOT NULL,
    status_reason TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    event_time REAL,
    last_accessed_at REAL,
    access_count INTEGER NOT NULL DEFAULT 0,
    source_task_id TEXT,
    session_id TEXT,
    created_by TEXT NOT NULL DEFAULT 'local',
    encrypted INTEGER NOT NULL DEFAULT 0,
    metadata TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS idx_memories_scope ON memories(namespace, status, type);
CREATE INDEX IF NOT EXISTS idx_memories_time ON memories(namespace, event_time);
CREATE INDEX IF NOT EXISTS idx_memories_created ON memories(namespace, created_at);
CREATE INDEX IF NOT EXISTS idx_memories_task ON memories(source_task_id);
CREATE TABLE IF NOT EXISTS tags (
    memory_rowid INTEGER NOT NULL REFERENCES memories(rowid) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (memory_rowid, tag)
);
CREATE INDEX IF NOT EXISTS idx_tags_tag ON tags(tag);
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(body, neighbours, tokenize = "porter unicode61 remove_diacritics 2 tokenchars '._-'");
CREATE TABLE IF NOT EXISTS embeddings (
    memory_rowid INTEGER PRIMARY KEY REFERENCES memories(rowid) ON DELETE CASCADE,
    vector BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS history (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id TEXT NOT NULL,
    action TEXT NOT NULL,
    actor TEXT NOT NULL,
    at REAL NOT NULL,
    before TEXT,
    after TEXT,
    note TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_history_memory ON history(memory_id);
CREATE TABLE IF NOT EXISTS edges (
    src TEXT NOT NULL,
    dst TEXT NOT NULL,
    kind TEXT NOT NULL,
    weight REAL NOT NULL DEFAULT 1.0,
    created_at REAL NOT NULL,
    PRIMARY KEY (src, dst, kind)
);
CREATE INDEX IF NOT EXISTS idx_edges_dst ON edges(dst);
"""

_V2 = """
CREATE TABLE IF NOT EXISTS tokens (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    scopes TEXT NOT NULL,
    namespaces TEXT NOT NULL,
    created_at REAL NOT NULL,
    revoked_at REAL
);
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,
    principal TEXT NOT NULL,
    action TEXT NOT NULL,
    namespace TEXT,
    memory_id TEXT,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_audit_at ON audit(at)
"""

_V3 = """
CREATE TABLE IF NOT EXISTS proposals (
    id TEXT PRIMARY KEY,
    namespace TEXT NOT NULL,
    action TEXT NOT NULL,
    memory_id TEXT,
    payload TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    proposed_by TEXT NOT NULL,
    proposed_at REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    reviewed_by TEXT,
    reviewed_at REAL,
    review_note TEXT NOT NULL DEFAULT '',
    result_memory_id TEXT
);
CREATE INDEX IF NOT EXISTS idx_proposals_queue ON proposals(status, namespace, proposed_at)
"""

_V4 = """
CREATE TABLE IF NOT EXISTS idempotency (
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    result TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (namespace, key)
)
"""

#: MIGRATIONS[i] upgrades a database from version i to i + 1.
MIGRATIONS: list[str] = [_V1, _V2, _V3, _V4]

SCHEMA_VERSION = len(MIGRATIONS)


def migrate(db: sqlite3.Connection) -> int:
    """Bring `db` to SCHEMA_VERSION; returns the version it started at."""
    current = int(db.execute("PRAGMA user_version").fetchone()[0])
    if current > SCHEMA_VERSION:
        raise StorageError(
            f"database schema version {current} is newer than this hindsight understands ({SCHEMA_VERSION}); upgrade hindsight"
        )
    for version in range(current, SCHEMA_VERSION):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in filter(str.strip, MIGRATIONS[version].split(";")):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {version + 1}")
            db.execute("COMMIT")
        except Exception:
            db.execute("ROLLBACK")
            raise
    return current
