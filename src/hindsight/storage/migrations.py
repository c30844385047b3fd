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

_V5 = """
CREATE TABLE IF NOT EXISTS vectors (
    vkey INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_rowid INTEGER NOT NULL UNIQUE REFERENCES memories(rowid) ON DELETE CASCADE,
    vector BLOB NOT NULL
);
INSERT INTO vectors(memory_rowid, vector) SELECT memory_rowid, vector FROM embeddings ORDER BY memory_rowid;
DROP TABLE embeddings;
CREATE TABLE IF NOT EXISTS vector_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    vkey INTEGER NOT NULL,
    op INTEGER NOT NULL
);
CREATE TRIGGER vectors_added AFTER INSERT ON vectors BEGIN
    INSERT INTO vector_log(vkey, op) VALUES (NEW.vkey, 1);
END;
CREATE TRIGGER vectors_removed AFTER DELETE ON vectors BEGIN
    INSERT INTO vector_log(vkey, op) VALUES (OLD.vkey, 0);
END;
CREATE TRIGGER memories_scope_changed
AFTER UPDATE OF namespace, status, type, source, importance, created_at, event_time, session_id, source_task_id
ON memories BEGIN
    INSERT INTO vector_log(vkey, op) SELECT vkey, 2 FROM vectors WHERE memory_rowid = NEW.rowid;
END;
INSERT INTO meta(key, value) SELECT 'store_uuid', lower(hex(randomblob(16)))
    WHERE NOT EXISTS (SELECT 1 FROM meta WHERE key = 'store_uuid')
"""

_V6 = """
ALTER TABLE idempotency ADD COLUMN request_hash TEXT NOT NULL DEFAULT ''
"""

_V7 = """
CREATE INDEX IF NOT EXISTS idx_memories_session ON memories(namespace, session_id, created_at)
"""

_V8 = """
CREATE INDEX IF NOT EXISTS idx_memories_scope_time
    ON memories(namespace, status, type, COALESCE(event_time, created_at), event_time, created_at);
DROP INDEX IF EXISTS idx_memories_scope;
CREATE TABLE IF NOT EXISTS tag_scope (
    namespace TEXT NOT NULL,
    tag TEXT NOT NULL,
    status TEXT NOT NULL,
    type TEXT NOT NULL,
    t REAL NOT NULL,
    memory_rowid INTEGER NOT NULL,
    PRIMARY KEY (namespace, tag, status, type, t, memory_rowid)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idx_tag_scope_memory ON tag_scope(memory_rowid, tag);
INSERT OR IGNORE INTO tag_scope(namespace, tag, status, type, t, memory_rowid)
    SELECT m.namespace, g.tag, m.status, m.type, COALESCE(m.event_time, m.created_at), g.memory_rowid
    FROM tags g JOIN memories m ON m.rowid = g.memory_rowid;
CREATE TRIGGER tag_scope_tag_added AFTER INSERT ON tags BEGIN
    INSERT OR IGNORE INTO tag_scope(namespace, tag, status, type, t, memory_rowid)
        SELECT m.namespace, NEW.tag, m.status, m.type, COALESCE(m.event_time, m.created_at), m.rowid
        FROM memories m WHERE m.rowid = NEW.memory_rowid;
END;
CREATE TRIGGER tag_scope_tag_removed AFTER DELETE ON tags BEGIN
    DELETE FROM tag_scope WHERE memory_rowid = OLD.memory_rowid AND tag = OLD.tag;
END;
CREATE TRIGGER tag_scope_memory_changed
AFTER UPDATE OF namespace, status, type, event_time, created_at ON memories BEGIN
    UPDATE tag_scope SET namespace = NEW.namespace, status = NEW.status, type = NEW.type,
        t = COALESCE(NEW.event_time, NEW.created_at)
    WHERE memory_rowid = NEW.rowid;
END;
CREATE TRIGGER tag_scope_memory_removed AFTER DELETE ON memories BEGIN
    DELETE FROM tag_scope WHERE memory_rowid = OLD.rowid;
END
"""

_V9 = """
CREATE TABLE IF NOT EXISTS console_sessions (
    id_hash TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_console_sessions_expiry ON console_sessions(expires_at)
"""

_V10 = """
CREATE TABLE IF NOT EXISTS keyword_stats (
    namespace TEXT PRIMARY KEY,
    docs INTEGER NOT NULL,
    tokens INTEGER NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts_v USING fts5vocab(memories_fts, instance)
"""

#: MIGRATIONS[i] upgrades a database from version i to i + 1.
#: V5: vectors keyed by `vkey`, a number SQLite never hands out twice (AUTOINCREMENT), instead of the memory's
#: reusable rowid; `vector_log` is the change counter every vector index catches up from (filled by triggers, so
#: every writer bumps it in the same transaction as the change, whatever code path or process made it).
#: V6: `idempotency.request_hash`, the fingerprint of the request a key was first used for ('' for keys recorded
#: before V6), so a key reused for a different request is refused (write/idempotency.py).
#: V7: `idx_memories_session`, so the memories around one in its session are read from an index
#: (`session_neighbours`, the second retrieval step) instead of by reading the whole session.
#: V8: scope indexes whose cost follows the scope, not the store (storage/sqlite_scope.py): memories by
#: (namespace, status, type, event time else creation time), which supersedes idx_memories_scope (the raw time
#: columns ride along so the index covers the time condition: sizing a scope reads no table rows); and `tag_scope`,
#: one row per (memory, tag) carrying the memory's namespace, status, type and time, kept by triggers (so every
#: writer and process keeps it in step), so a tag filter reads exactly the tagged rows in scope.
#: V9: `console_sessions`, the sign-ins of the web console and /review: the SHA-256 of an opaque session id (the
#: cookie holds the id, never the bearer token) and the hash of the token it was opened with (security/sessions.py).
#: V10: `keyword_stats`, per namespace the memories and FTS tokens BM25 reads (storage/keyword_stats.py), so a
#: keyword score reads no other namespace's statistics; filled on open from the FTS index (`keyword_stats.ensure`);
#: `memories_fts_v`, FTS5's instance view, where BM25 reads a query token's positions.
MIGRATIONS: list[str] = [_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8, _V9, _V10]


def _statements(script: str) -> list[str]:
    """Split a migration on `;`, keeping trigger bodies (which contain `;`) whole."""
    out: list[str] = []
    buffer = ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if buffer.strip(" \n;"):
                out.append(buffer.strip())
            buffer = ""
    if buffer.strip(" \n;"):
        out.append(buffer.strip())
    return out


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
            # read again under the write lock (attack round 36): two processes opening a new or older file at once
            # both read the version above, and the second ran the first's migration again after it ("trigger
            # vectors_added already exists": the second server, or an import beside it, failed to start)
            if int(db.execute("PRAGMA user_version").fetchone()[0]) > version:
                db.execute("COMMIT")
                continue
            for statement in _statements(MIGRATIONS[version]):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {version + 1}")
            db.execute("COMMIT")
        except Exception:
            db.execute("ROLLBACK")
            raise
    return current
