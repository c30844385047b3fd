"""The CLI as a new user meets it (issue 13): whole ids or unique prefixes everywhere, human times, tables with
--json for machines, a confirmation on delete, redactions shown on add, --version."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from hindsight import __version__
from hindsight.cli import app
from hindsight.review.queue import ReviewQueue


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for key in list(os.environ):
        if key.startswith("HINDSIGHT_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("COLUMNS", "250")
    yield


def run(db: Path, *args: str, stdin: str | None = None) -> Result:
    result = CliRunner().invoke(app, [*args, "--db", str(db)], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def ok(db: Path, *args: str, stdin: str | None = None) -> Result:
    result = run(db, *args, stdin=stdin)
    assert result.exit_code == 0, f"{args}: {result.stderr}"
    return result


def add(db: Path, content: str) -> str:
    return str(json.loads(ok(db, "add", content, "--json").stdout)["memory_id"])


def test_version_flag() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"hindsight {__version__}"


def test_list_and_search_show_whole_ids_that_get_accepts(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mid = add(db, "The release checklist lives in docs/release.md")
    listing = ok(db, "list").stdout
    assert mid in listing
    found = ok(db, "search", "release checklist").stdout
    assert mid in found
    shown = re.search(r"mem_[0-9a-f]+", found)
    assert shown is not None and ok(db, "get", shown.group(0)).exit_code == 0


def test_any_unique_prefix_works_everywhere(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    first = add(db, "Staging runs on Kubernetes 1.29")
    second = add(db, "Grafana dashboards are provisioned from git")
    prefix = next(first[:n] for n in range(5, len(first)) if not second.startswith(first[:n]))
    assert json.loads(ok(db, "get", prefix, "--json").stdout)["id"] == first
    updated = json.loads(ok(db, "update", prefix, "--content", "Staging runs on Kubernetes 1.30", "--json").stdout)
    assert updated["id"] == first and updated["content"].endswith("1.30")
    history = json.loads(ok(db, "history", prefix, "--json").stdout)
    assert [e["action"] for e in history] == ["create", "update"]
    assert json.loads(ok(db, "forget", prefix, "--json").stdout)["status"] == "forgotten"
    ok(db, "delete", prefix, "--yes")
    assert run(db, "get", first).exit_code == 1
    # a prefix shared by several memories is refused, naming the rule
    add(db, "a third memory")
    ambiguous = run(db, "get", "mem_")
    assert ambiguous.exit_code == 2 and "several memories" in ambiguous.stderr


def test_history_audit_and_tokens_are_tables_with_human_times(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mid = add(db, "Backups rotate weekly")
    ok(db, "update", mid, "--content", "Backups rotate daily")
    history = ok(db, "history", mid).stdout
    assert "update" in history and "content" in history and "UTC" in history
    assert len(history.splitlines()) < 20 and "{" not in history
    audit = ok(db, "audit").stdout
    assert "UTC" in audit and mid in audit and not re.search(r"\d{10}\.\d+", audit)
    assert isinstance(json.loads(ok(db, "audit", "--json").stdout), list)
    ok(db, "token", "create", "ci-bot", "-s", "read", "-n", "*")
    tokens = ok(db, "token", "list").stdout
    assert "ci-bot" in tokens and "UTC" in tokens and "live" in tokens and not re.search(r"\d{10}\.\d+", tokens)
    assert json.loads(ok(db, "token", "list", "--json").stdout)[0]["name"] == "ci-bot"


def test_delete_asks_for_confirmation(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mid = add(db, "Old VPN endpoint is vpn1.example.com")
    refused = run(db, "delete", mid, stdin="n\n")
    assert refused.exit_code == 1 and "not deleted" in refused.stderr
    assert ok(db, "get", mid).exit_code == 0
    ok(db, "delete", mid, stdin="y\n")
    assert run(db, "get", mid).exit_code == 1


def test_add_shows_redactions(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = ok(db, "add", "The deploy key is AKIAIOSFODNN7EXAMPLE, mail ops@example.com for access").stdout
    assert "redacted" in out.lower()
    assert "AKIAIOSFODNN7EXAMPLE" not in out


def test_review_accepts_a_proposal_prefix(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    add(db, "seed")  # creates the file and schema
    queue = ReviewQueue.open(db)
    proposal = queue.add("kb", "store", {"content": "Wiki pages need an owner", "namespace": "kb"}, "token:agent")
    queue.close()
    listing = ok(db, "review", "list").stdout
    assert proposal.id in listing and "UTC" in listing
    decided = json.loads(ok(db, "review", "reject", proposal.id[:12], "--note", "dup").stdout)
    assert decided["proposal"]["status"] == "rejected" and decided["proposal"]["id"] == proposal.id


def test_terminal_escapes_in_content_are_shown_not_run(tmp_path: Path) -> None:
    """Attack finding D: stored ESC/BEL/NUL and bidi overrides reached the operator's terminal raw."""
    db = tmp_path / "m.db"
    # NUL itself is refused on input since attack round 5 (invalid_input on every backend); the rest is stored
    hostile = "\x07\x1b[31mred\x1b[0m note \u202eevil\u2066 done"
    mid = add(db, hostile)
    shown = "\\x07\\x1b[31mred\\x1b[0m note \\u202eevil\\u2066 done"
    # Whether the guard passes an escape-laden edit is not what is tested here (a content edit is screened again and
    # a quarantined memory leaves `list`; the round-6 guard scores the " v2" form 0.88): this edit stays stored.
    ok(db, "update", mid, "--content", hostile + " (edited)")
    assert json.loads(ok(db, "get", mid, "--json").stdout)["status"] == "active"
    outputs = {"get": ok(db, "get", mid).stdout, "list": ok(db, "list").stdout,
               "search": ok(db, "search", "red note").stdout, "history": ok(db, "history", mid).stdout}
    for command, text in outputs.items():
        for raw in ("\x1b", "\x07", "\x00", "\u202e", "\u2066"):
            assert raw not in text, (command, raw)
        assert "\\x1b[31mred" in text, command
    assert shown in outputs["get"]
    listed = json.loads(ok(db, "get", mid, "--json").stdout)  # JSON keeps the exact value, escaped
    assert listed["content"] == hostile + " (edited)"
    raw_json = ok(db, "list", "--json").stdout
    assert "\u202e" not in raw_json and "\x1b" not in raw_json


def test_token_list_keeps_whole_ids_on_an_80_column_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ux round 33: at 80 columns the table cut the id to `tok_d7fdb35a…`, and `token revoke` takes only a whole id
    (no live token with id tok_d7fdb35a3), so the id a user copied from the table revoked nothing."""
    monkeypatch.setenv("COLUMNS", "80")
    db = tmp_path / "m.db"
    made = json.loads(ok(db, "token", "create", "a-rather-long-agent-name", "-s", "read", "-s", "write",
                         "-n", "team-alpha", "-n", "team-beta").stdout)
    listed = ok(db, "token", "list").stdout
    assert made["id"] in listed
    ok(db, "token", "revoke", made["id"])
    assert json.loads(ok(db, "token", "list", "--json").stdout)[0]["revoked"]


def test_search_table_shows_the_calibrated_relevance(tmp_path: Path) -> None:
    """ux round 33: the table showed only `score` (0.930 for the best hit whatever it was); the number that says
    whether a hit is relevant is the calibrated `relevance` the --json output carries."""
    db = tmp_path / "m.db"
    add(db, "The user prefers TypeScript")
    hits = json.loads(ok(db, "search", "what language", "--json").stdout)
    table = ok(db, "search", "what language").stdout
    assert "relevance" in table and f"{hits[0]['relevance']:.2f}" in table
