"""After a hard delete on PostgreSQL: the dead row versions that still hold the erased text are reclaimed.

PostgreSQL's MVCC keeps a deleted (or updated) row's old version in the table's pages until VACUUM; overwriting
the row's text before deleting it does not help (the overwrite is itself a new version, the old one stays). So
after `write/erase.py` removes a memory, the store vacuums the tables the erase touched (`memories` with its
TOAST table and indexes, `history`, `proposals`, `edges`), on a connection of its own (VACUUM cannot run in a
transaction). `HINDSIGHT_PG_ERASE` chooses how far:

* `vacuum` (default): plain VACUUM. The dead versions become unused line pointers and their index entries
  (the HNSW vector copy included) are removed: no SQL, not even a superuser's page-inspection extension, reads
  them any more, and the space is reused by later writes. The bytes can stay in the data files until then.
* `full`: VACUUM FULL. The tables and their indexes are rewritten and the old files unlinked, so the text leaves
  the data files too. It takes an exclusive lock on each table for the rewrite (reads and writes wait): the
  cost grows with the store, so it is for deployments that must guarantee erasure on disk.
* `off`: leave it to autovacuum.

Either way the write-ahead log, replicas and base backups keep what they already hold (docs/security.md).
Best effort: a vacuum that cannot take its lock within `HINDSIGHT_PG_ERASE_LOCK_TIMEOUT_MS` (default 5000) is
skipped, logged, and left to autovacuum; the delete itself has already committed.
"""

from __future__ import annotations

import logging
import os
from typing import Any

log = logging.getLogger(__name__)

#: the tables a hard delete changes (write/erase.py): the memory row, its history, proposals naming it, edges
ERASED_TABLES = ("memories", "history", "proposals", "edges")
MODES = ("vacuum", "full", "off")


def erase_mode() -> str:
    mode = os.environ.get("HINDSIGHT_PG_ERASE", "vacuum").strip().lower() or "vacuum"
    if mode not in MODES:
        from hindsight.errors import InvalidInputError

        raise InvalidInputError(f"HINDSIGHT_PG_ERASE: '{mode}' is not one of {', '.join(MODES)}")
    return mode


def vacuum_erased(connect: Any) -> str:
    """Vacuum the erased tables as `erase_mode()` says; `connect()` opens an autocommit connection. Returns the
    mode that ran ('' when skipped)."""
    mode = erase_mode()
    if mode == "off":
        return ""
    timeout = int(os.environ.get("HINDSIGHT_PG_ERASE_LOCK_TIMEOUT_MS", "5000") or 5000)
    statement = "VACUUM (FULL) " if mode == "full" else "VACUUM "
    try:
        with connect() as conn:
            conn.execute(f"SET lock_timeout = {max(1, timeout)}")
            conn.execute(statement + ", ".join(ERASED_TABLES))
    except Exception as exc:  # the delete has committed; autovacuum reclaims the versions later
        log.warning("hard delete: %s after the erase did not run (%s); autovacuum will reclaim the dead row "
                    "versions", statement.strip(), type(exc).__name__)
        return ""
    return mode
