"""The small tables every SQL backend keeps next to the memories: tokens, audit, proposals, idempotency records.

They are part of the one store (one URL, one owner of the data): the token store, the audit log and the
review queue call these methods instead of opening connections of their own, so they work on SQLite and
PostgreSQL alike. The SQL is written once with `?` placeholders; a backend supplies `_aux_rows` and
`_aux_exec` (PostgreSQL rewrites the placeholders) and `_json_namespace`, the one dialect difference.
"""

from __future__ import annotations

import builtins
import json
import secrets
from typing import Any

#: Columns of the `proposals` table, in the order `proposal_rows` returns them.
PROPOSAL_COLUMNS = ("id", "namespace", "action", "memory_id", "payload", "reason", "proposed_by", "proposed_at",
                    "status", "reviewed_by", "reviewed_at", "review_note", "result_memory_id")

#: The small tables `hindsight migrate` copies row by row, with the columns it copies.
COPY_TABLES: dict[str, tuple[str, ...]] = {
    "tokens": ("id", "name", "token_hash", "scopes", "namespaces", "created_at", "revoked_at"),
    "proposals": PROPOSAL_COLUMNS,
    "idempotency": ("namespace", "key", "result", "created_at", "request_hash"),
    "audit": ("at", "principal", "action", "namespace", "memory_id", "outcome", "detail"),
}
#: The per-store secrets in the meta table (`kept_secret`): the console's CSRF key, the key of session-id pseudonyms
#: (write/labels.py), the key of redacted values' digests (write/value_digests.py). `hindsight migrate` copies them,
#: so forms, sessions and session filters of the old store keep working on the new one, and its digests compare.
KEPT_SECRETS: tuple[str, ...] = ("console_secret", "label_secret", "value_secret")


class AuxTables:
    """Tokens, audit, proposals and idempotency records over a backend's `_aux_rows` / `_aux_exec`."""

    #: SQL that extracts the namespace from a history snapshot column `col` (JSON text).
    def _json_namespace(self, col: str) -> str:
        raise NotImplementedError

    def _aux_rows(self, sql: str, params: tuple[Any, ...] = ()) -> builtins.list[tuple[Any, ...]]:
        raise NotImplementedError

    def _aux_exec(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        """Run one statement in its own (or the current) transaction; returns the rows it changed."""
        raise NotImplementedError

    def _meta_table(self) -> str:
        """The backend's key/value table of per-store settings (`meta` on SQLite)."""
        return "meta"

    # ------------------------------------------------------------------ per-store secrets
    def kept_secret(self, key: str) -> str:
        """A random secret kept once per store under `key`: the first caller creates it, every server of the
        store (and every later run) reads the same one. Never logged; it travels with the store's backups."""
        table = self._meta_table()
        rows = self._aux_rows(f"SELECT value FROM {table} WHERE key = ?", (key,))
        if not rows:  # read first: a server starting while another process holds the write lock need not wait
            self.keep_secrets({key: secrets.token_hex(32)})
            rows = self._aux_rows(f"SELECT value FROM {table} WHERE key = ?", (key,))
        return str(rows[0][0])

    def kept_secrets(self) -> dict[str, str]:
        """The per-store secrets that exist (of KEPT_SECRETS), for `hindsight migrate` to carry over."""
        marks = ", ".join("?" * len(KEPT_SECRETS))
        rows = self._aux_rows(f"SELECT key, value FROM {self._meta_table()} WHERE key IN ({marks})", KEPT_SECRETS)
        return {str(k): str(v) for k, v in rows}

    def keep_secrets(self, values: dict[str, str]) -> None:
        """Keep secrets under their keys; a key the store already holds keeps its value (the first one wins)."""
        for key, value in values.items():
            self._aux_exec(f"INSERT INTO {self._meta_table()}(key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                           (key, value))

    # ------------------------------------------------------------------ tokens
    def token_add(self, token_id: str, name: str, token_hash: str, scopes_json: str, namespaces_json: str,
                  created_at: float) -> None:
        self._aux_exec("INSERT INTO tokens(id, name, token_hash, scopes, namespaces, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                       (token_id, name, token_hash, scopes_json, namespaces_json, created_at))

    def token_revoke(self, token_id: str, at: float) -> bool:
        return self._aux_exec("UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", (at, token_id)) > 0

    def token_delete_all(self) -> int:
        return self._aux_exec("DELETE FROM tokens")

    def token_rows(self) -> builtins.list[tuple[Any, ...]]:
        """(id, name, scopes_json, namespaces_json, created_at, revoked_at), oldest first."""
        return self._aux_rows("SELECT id, name, scopes, namespaces, created_at, revoked_at FROM tokens ORDER BY created_at")

    def token_by_hash(self, token_hash: str) -> tuple[Any, ...] | None:
        """(name, scopes_json, namespaces_json) of a live token with that hash."""
        rows = self._aux_rows("SELECT name, scopes, namespaces FROM tokens WHERE token_hash = ? AND revoked_at IS NULL",
                              (token_hash,))
        return rows[0] if rows else None

    # ------------------------------------------------------------ console sessions
    def session_add(self, id_hash: str, token_hash: str, created_at: float, expires_at: float, keep: int) -> None:
        """A sign-in of the console or /review: the hash of its opaque id, for the token it was opened with. Only
        the token's `keep` newest sessions stay (signing in again and again cannot grow the table)."""
        self._aux_exec("INSERT INTO console_sessions(id_hash, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?)",
                       (id_hash, token_hash, created_at, expires_at))
        self._aux_exec("DELETE FROM console_sessions WHERE token_hash = ? AND id_hash NOT IN (SELECT id_hash FROM "
                       "console_sessions WHERE token_hash = ? ORDER BY created_at DESC, id_hash LIMIT ?)",
                       (token_hash, token_hash, keep))

    def session_token(self, id_hash: str, now: float) -> tuple[Any, ...] | None:
        """(name, scopes_json, namespaces_json) of the live token behind an unexpired session, else None."""
        rows = self._aux_rows("SELECT t.name, t.scopes, t.namespaces FROM console_sessions s JOIN tokens t "
                              "ON t.token_hash = s.token_hash WHERE s.id_hash = ? AND s.expires_at > ? "
                              "AND t.revoked_at IS NULL", (id_hash, now))
        return rows[0] if rows else None

    def session_delete(self, id_hash: str | None = None, expired_before: float | None = None) -> int:
        """End one session (sign-out), or drop every session that expired before a time."""
        if id_hash is not None:
            return self._aux_exec("DELETE FROM console_sessions WHERE id_hash = ?", (id_hash,))
        return self._aux_exec("DELETE FROM console_sessions WHERE expires_at <= ?", (expired_before or 0.0,))

    # ------------------------------------------------------------------- audit
    def audit_add(self, at: float, principal: str, action: str, outcome: str, namespace: str | None,
                  memory_id: str | None, detail: str) -> None:
        self._aux_exec("INSERT INTO audit(at, principal, action, namespace, memory_id, outcome, detail) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", (at, principal, action, namespace, memory_id, outcome, detail))

    def audit_count(self, at: float, principal: str, action: str, detail: str) -> int:
        """Rewrite the detail of the denial row written at `at` by `principal` for `action` (a coalesced count)."""
        return self._aux_exec("UPDATE audit SET detail = ? WHERE at = ? AND principal = ? AND action = ? "
                              "AND outcome = 'denied'", (detail, at, principal, action))

    def audit_rows(self, limit: int) -> builtins.list[tuple[Any, ...]]:
        """Newest first: audit entries and every history entry, as (at, principal, action, namespace,
        memory_id, outcome, detail)."""
        return self._aux_rows(
            "SELECT at, principal, action, namespace, memory_id, outcome, detail FROM audit "
            f"UNION ALL SELECT h.at, h.actor, h.action, {self._json_namespace('COALESCE(h.after, h.before)')}, "
            "h.memory_id, 'ok', h.note FROM history h ORDER BY 1 DESC LIMIT ?", (limit,))

    # --------------------------------------------------------------- proposals
    def proposal_add(self, values: dict[str, Any], keep_existing: bool = False) -> bool:
        """Insert a pending proposal; `values` holds id .. proposed_at of PROPOSAL_COLUMNS. `keep_existing`: a
        proposal with that id already stored stays as it is (False is returned) instead of raising."""
        cols = PROPOSAL_COLUMNS[:8]
        keep = " ON CONFLICT (id) DO NOTHING" if keep_existing else ""
        return self._aux_exec(f"INSERT INTO proposals({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))}){keep}",
                              tuple(values[c] for c in cols)) > 0

    def proposal_rows(self, proposal_id: str | None = None, namespace: str | None = None, status: str | None = None,
                      limit: int = 50, offset: int = 0) -> builtins.list[dict[str, Any]]:
        """One proposal by id, or a page: oldest pending first (a queue), decided ones newest first."""
        where: builtins.list[str] = []
        params: builtins.list[Any] = []
        for col, value in (("id", proposal_id), ("namespace", namespace), ("status", status)):
            if value is not None:
                where.append(f"{col} = ?")
                params.append(value)
        order = "proposed_at ASC" if status == "pending" else "COALESCE(reviewed_at, proposed_at) DESC"
        sql = (f"SELECT {', '.join(PROPOSAL_COLUMNS)} FROM proposals {'WHERE ' + ' AND '.join(where) if where else ''} "
               f"ORDER BY {order}, id LIMIT ? OFFSET ?")
        return [dict(zip(PROPOSAL_COLUMNS, row)) for row in self._aux_rows(sql, (*params, limit, offset))]

    def proposal_count(self, namespace: str | None, status: str) -> int:
        sql, params = "SELECT COUNT(*) FROM proposals WHERE status = ?", (status,)
        if namespace is not None:
            sql, params = sql + " AND namespace = ?", (status, namespace)  # type: ignore[assignment]
        return int(self._aux_rows(sql, params)[0][0])

    def proposal_transition(self, proposal_id: str, expected: str, new: str, *, reviewer: str | None = None,
                            at: float | None = None, note: str = "", result_memory_id: str | None = None) -> bool:
        """Compare-and-set the status (two reviewers cannot both apply one proposal); True when it moved."""
        if new in ("approved", "rejected"):
            return self._aux_exec(
                "UPDATE proposals SET status = ?, reviewed_by = ?, reviewed_at = ?, review_note = ?, "
                "result_memory_id = ? WHERE id = ? AND status = ?",
                (new, reviewer, at, note, result_memory_id, proposal_id, expected)) > 0
        # a claim ('applying') keeps its time in reviewed_at, so a claim whose server died can be taken over
        return self._aux_exec("UPDATE proposals SET status = ?, reviewed_at = ? WHERE id = ? AND status = ?",
                              (new, at if new == "applying" else None, proposal_id, expected)) > 0

    def proposal_release_stale(self, stale_before: float, proposal_id: str | None = None,
                               namespace: str | None = None) -> int:
        """Claims ('applying') made before `stale_before`, or by a version that kept no time, are pending again: the
        server that made them died applying them. Compare-and-set on the claim time, so a fresh claim stays."""
        params: builtins.list[Any]
        where, params = "", [stale_before]
        for column, value in (("id", proposal_id), ("namespace", namespace)):
            if value is not None:
                where += f" AND {column} = ?"
                params.append(value)
        return self._aux_exec("UPDATE proposals SET status = 'pending', reviewed_at = NULL WHERE status = 'applying' "
                              f"AND (reviewed_at IS NULL OR reviewed_at < ?){where}", tuple(params))

    # ----------------------------------------------------------- raw copying
    def history_add(self, memory_id: str, action: str, actor: str, at: float, before_json: str | None,
                    after_json: str | None, note: str) -> None:
        """Append one history entry as it was (used by `hindsight migrate`, never by the write path)."""
        self._aux_exec("INSERT INTO history(memory_id, action, actor, at, before, after, note) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (memory_id, action, actor, at, before_json, after_json, note))

    def history_snapshots(self, memory_id: str) -> builtins.list[tuple[Any, ...]]:
        """(seq, before JSON, after JSON, note) of every history entry of a memory, oldest first (write/erase.py)."""
        return self._aux_rows("SELECT seq, before, after, note FROM history WHERE memory_id = ? ORDER BY seq",
                              (memory_id,))

    def history_rewrite(self, seq: int, before_json: str | None, after_json: str | None, note: str) -> None:
        """Overwrite one history entry's snapshots and note (only hard-delete erasure does this)."""
        self._aux_exec("UPDATE history SET before = ?, after = ?, note = ? WHERE seq = ?",
                       (before_json, after_json, note, seq))

    def proposals_erase(self, memory_id: str) -> int:
        """Proposals that named a hard-deleted memory keep only that they existed (write/erase.py)."""
        return self._aux_exec("UPDATE proposals SET payload = ? WHERE memory_id = ? OR result_memory_id = ?",
                              ('{"erased": true}', memory_id, memory_id))

    def proposals_naming(self, memory_id: str) -> builtins.list[str]:
        """Ids of the proposals that changed `memory_id` or whose approval wrote it."""
        return [str(r[0]) for r in self._aux_rows("SELECT id FROM proposals WHERE memory_id = ? OR result_memory_id = ?",
                                                  (memory_id, memory_id))]

    def idempotency_naming(self, namespace: str, ident: str) -> builtins.list[tuple[str, str]]:
        """(key, result JSON) of the keyed requests of `namespace` whose recorded result names `ident` (a memory or
        proposal id)."""
        pattern = "%" + json.dumps(ident).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        return [(str(k), str(r)) for k, r in self._aux_rows(
            "SELECT key, result FROM idempotency WHERE namespace = ? AND result LIKE ? ESCAPE '\\'",
            (namespace, pattern))]

    def idempotency_erase(self, namespace: str, key: str, result_json: str) -> int:
        """A keyed request whose memory was hard-deleted: its fingerprint goes, its result says so (write/erase.py)."""
        return self._aux_exec("UPDATE idempotency SET result = ?, request_hash = '' WHERE namespace = ? AND key = ?",
                              (result_json, namespace, key))

    def orphan_history_ids(self) -> builtins.list[str]:
        """Memories that were hard-deleted: their history stays and is copied by `hindsight migrate` too."""
        return [str(r[0]) for r in self._aux_rows(
            "SELECT DISTINCT memory_id FROM history WHERE memory_id NOT IN (SELECT id FROM memories) ORDER BY memory_id")]

    def table_rows(self, table: str) -> tuple[builtins.tuple[str, ...], builtins.list[tuple[Any, ...]]]:
        """(columns, rows) of one small table, for `hindsight migrate`."""
        columns = COPY_TABLES[table]
        return columns, self._aux_rows(f"SELECT {', '.join(columns)} FROM {table}")

    def load_rows(self, table: str, rows: builtins.list[tuple[Any, ...]]) -> None:
        """Insert rows copied by `table_rows`; rows already there (same key) are kept as they are."""
        columns = COPY_TABLES[table]
        conflict = " ON CONFLICT DO NOTHING" if table != "audit" else ""
        for row in rows:
            self._aux_exec(f"INSERT INTO {table}({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))}){conflict}",
                           tuple(row))

    # ------------------------------------------------------------- idempotency
    def get_idempotent(self, namespace: str, key: str) -> tuple[str, str] | None:
        """(result JSON, request hash) recorded for (namespace, key), or None when that request never completed."""
        rows = self._aux_rows("SELECT result, request_hash FROM idempotency WHERE namespace = ? AND key = ?",
                              (namespace, key))
        return None if not rows else (str(rows[0][0]), str(rows[0][1] or ""))

    def put_idempotent(self, namespace: str, key: str, result_json: str, at: float,
                       request_hash: str = "") -> tuple[str, str]:
        """Record the result of a keyed request and its fingerprint; the first record wins. Returns the recorded
        (result, request hash).

        Call it inside `transaction()` with the write it describes, so both commit together or neither does.
        """
        self._aux_exec("INSERT INTO idempotency(namespace, key, result, created_at, request_hash) "
                       "VALUES (?, ?, ?, ?, ?) ON CONFLICT (namespace, key) DO NOTHING",
                       (namespace, key, result_json, at, request_hash))
        return self.get_idempotent(namespace, key) or (result_json, request_hash)

    def idempotency_settle(self, namespace: str, key: str, pending: str, result_json: str,
                           request_hash: str) -> tuple[str, str]:
        """A claimed key's result (write/idempotency.py): the row still pending under this fingerprint takes it;
        returns the recorded (result, request hash), which another identical request may have settled first."""
        self._aux_exec("UPDATE idempotency SET result = ? WHERE namespace = ? AND key = ? AND result = ? "
                       "AND request_hash = ?", (result_json, namespace, key, pending, request_hash))
        return self.get_idempotent(namespace, key) or (result_json, request_hash)

    def idempotency_release(self, namespace: str, key: str, pending: str, request_hash: str) -> int:
        """A claimed key whose write failed is free again (only while still pending under this fingerprint)."""
        return self._aux_exec("DELETE FROM idempotency WHERE namespace = ? AND key = ? AND result = ? "
                              "AND request_hash = ?", (namespace, key, pending, request_hash))
