"""Attack round 26 (docs/security.md "Attack round 26"): round 25's leftovers, and what an outside attacker found.

- Two namespaces of one lock bucket in one process waited on the bucket's `flock` with the busy timeout meant for
  another process: a consolidation pass longer than it made a same-bucket writer fail with `storage_busy`.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from hindsight.storage.file_lock import NamespaceFileLocks


def _same_bucket(locks: NamespaceFileLocks, namespace: str) -> str:
    bucket = locks._bucket(namespace)
    return next(f"ns{i}" for i in range(10_000) if f"ns{i}" != namespace and locks._bucket(f"ns{i}") == bucket)


def test_a_thread_waiting_for_its_own_process_on_a_bucket_waits_past_the_busy_timeout(tmp_path: Path) -> None:
    locks = NamespaceFileLocks(str(tmp_path / "m.db"), 0.1)
    other = _same_bucket(locks, "ops")
    held, errors, done = threading.Event(), [], threading.Event()

    def long_pass() -> None:  # a consolidation pass of `ops` longer than the busy timeout
        with locks.hold("ops"):
            held.set()
            time.sleep(0.4)

    def writer() -> None:
        try:
            with locks.hold(other):
                done.set()
        except Exception as exc:  # noqa: BLE001 - on main: StorageBusyError after 0.1 s
            errors.append(exc)

    first = threading.Thread(target=long_pass)
    first.start()
    assert held.wait(5)
    second = threading.Thread(target=writer)
    second.start()
    first.join(5)
    second.join(5)
    assert errors == [] and done.is_set(), errors
