"""What attack round 5 left open, each through the interface it was found on:

1. (tests/test_client_poison.py) the resilient client and a write the server keeps refusing;
2. an approved change in a reviewed namespace carries the proposer's source, not the reviewer's;
3. a hard delete on PostgreSQL left the text in dead row versions until (auto)VACUUM.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import ROOT, child_env, create_tokens, hindsight_argv, http_server, mcp_session, run_cli, stdio_server


def _cli_add(db: Any, text: str, namespace: str) -> str:
    done = run_cli("add", text, "--type", "semantic", "--source", "user", "-n", namespace, "--json", db=db)
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["memory_id"])


# ------------------------------------------------------------------ 2. reviewed namespaces
FORGOTTEN = {"en": "The kb wiki is hosted at wiki.example.org", "zh": "知识库的维基托管在 wiki.example.org"}


@pytest.fixture(scope="module")
def reviewed_kb(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One store and one HTTP server for both languages (a server start is ~10 s of CPU): each text is added by the
    owner's CLI, as `user`, into a reviewed namespace of its own (kb_en, kb_zh) before the server starts."""
    folder = tmp_path_factory.mktemp("reviewed_kb")
    db = folder / "memory.db"
    spaces = [f"kb_{lang}" for lang in FORGOTTEN]
    tokens = create_tokens(db, {"kb_agent": (["write"], spaces), "kb_admin": (["admin"], spaces)})
    ids = {lang: _cli_add(db, text, f"kb_{lang}") for lang, text in FORGOTTEN.items()}
    with http_server(db, folder / "server.log", env={"HINDSIGHT_REVIEWED_NAMESPACES": ",".join(spaces)}) as url:
        yield url, tokens, ids


@pytest.mark.parametrize("lang", list(FORGOTTEN))
def test_an_approved_forget_by_an_agent_carries_the_agents_source(reviewed_kb: Any, lang: str) -> None:
    """An agent's forget of a `user` memory, approved by an admin, kept `source: user` / 1.0 (applied as the
    local owner); it is the agent's assertion: `agent` with at most 0.7, the reviewer named in history."""
    url, tokens, ids = reviewed_kb
    memory_id, kb = ids[lang], f"kb_{lang}"
    with mcp_session(url, auth=tokens["kb_agent"]) as agent, mcp_session(url, auth=tokens["kb_admin"]) as admin:
        proposal = agent.call("memory_forget", memory_id=memory_id, reason="obsolete", namespace=kb)
        assert proposal["status"] == "pending_review"
        assert admin.call("memory_get", memory_id=memory_id, namespace=kb)["provenance"]["source"] == "user"
        admin.call("memory_review_decide", proposal_id=proposal["proposal_id"], decision="approve", namespace=kb)
        memory = admin.call("memory_get", memory_id=memory_id, namespace=kb)
        history = admin.call("memory_history", memory_id=memory_id, namespace=kb)["history"]
    assert memory["content"] == FORGOTTEN[lang]
    assert memory["status"] == "forgotten"
    assert memory["provenance"]["source"] == "agent" and memory["provenance"]["credibility"] <= 0.7
    last = history[-1]
    assert last["action"] == "forget" and last["actor"] == "token:kb_agent (approved by token:kb_admin)"
    assert "source lowered from user to agent" in last["note"]


# ------------------------------------------------------------------ 3. PostgreSQL dead row versions
MARKER = "Quillibertine Marshwiggle"


def _pg_files_holding(pg_url: str, needle: bytes) -> list[str]:
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CHECKPOINT")
        data_dir = conn.execute("SHOW data_directory").fetchone()[0]  # type: ignore[index]
        oid = conn.execute("SELECT oid FROM pg_database WHERE datname = current_database()").fetchone()[0]  # type: ignore[index]
    folder = Path(data_dir) / "base" / str(oid)
    return sorted(p.name for p in folder.iterdir() if p.is_file() and needle in p.read_bytes())


def _last_vacuum(pg_url: str, table: str) -> Any:
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        row = conn.execute("SELECT last_vacuum FROM pg_stat_user_tables WHERE relname = %s", (table,)).fetchone()
    return None if row is None else row[0]


def test_on_postgresql_a_hard_delete_vacuums_the_dead_row_versions(pg_url: str, tmp_path: Path) -> None:
    """Default (`HINDSIGHT_PG_ERASE=vacuum`): the tables the erase touched are vacuumed right after it, so the dead
    versions holding the text are no longer readable by any SQL and their space is reused."""
    with stdio_server(pg_url, tmp_path / "pg.log") as client:  # type: ignore[arg-type]
        memory_id = client.call("memory_store", content=f"The team mascot is a zebra named {MARKER}",
                                type="semantic")["memory_id"]
        assert all(_last_vacuum(pg_url, t) is None for t in ("memories", "history"))
        client.call("memory_delete", memory_id=memory_id, confirm=True)
    assert all(_last_vacuum(pg_url, t) is not None for t in ("memories", "history", "proposals", "edges"))


def test_on_postgresql_erase_full_leaves_no_copy_in_the_data_files(pg_url: str, tmp_path: Path) -> None:
    """`HINDSIGHT_PG_ERASE=full`: the text of a hard-deleted memory is in none of the database's data files
    (table, TOAST, indexes) after the delete; before, its dead row versions kept it on disk."""
    memory_id = _cli_add(pg_url, f"The team mascot is a zebra named {MARKER}, drawn by the design lead", "default")
    _cli_add(pg_url, "The staging database runs PostgreSQL 16 on port 5433", "default")
    assert _pg_files_holding(pg_url, MARKER.encode()), "the probe must see the live row first"
    done = subprocess.run(hindsight_argv("delete", memory_id, "--yes", "--db", pg_url), capture_output=True,
                          text=True, env=child_env(HINDSIGHT_PG_ERASE="full"), cwd=str(ROOT), timeout=180)
    assert done.returncode == 0, done.stderr
    assert _pg_files_holding(pg_url, MARKER.encode()) == []
    listed = run_cli("list", "--json", db=pg_url)  # type: ignore[arg-type]
    assert listed.returncode == 0 and "PostgreSQL 16" in listed.stdout and MARKER not in listed.stdout


def test_an_unknown_erase_mode_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from hindsight.errors import InvalidInputError
    from hindsight.storage.pg_erase import erase_mode

    monkeypatch.setenv("HINDSIGHT_PG_ERASE", "shred")
    with pytest.raises(InvalidInputError, match="HINDSIGHT_PG_ERASE"):
        erase_mode()
