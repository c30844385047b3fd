"""The `hindsight` command line: round trips with --json, export/import, and bad input.

Most commands run in-process through typer's CliRunner (fast); a few run as
real `python -m hindsight.cli` / `hindsight` processes to check the entry
points, clean stdout and that errors never print a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import child_env, hindsight_argv, run_cli
from typer.testing import CliRunner, Result

from hindsight.cli import app


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Defaults only: no HINDSIGHT_* from the developer's shell leaks into the in-process CLI."""
    for key in list(os.environ):
        if key.startswith("HINDSIGHT_"):
            monkeypatch.delenv(key)
    yield


def invoke(db: Path, *args: str) -> Result:
    result = CliRunner().invoke(app, [*args, "--db", str(db)])
    # every outcome is a deliberate exit, never an escaped exception (which would be a traceback)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{args} raised {result.exception!r}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    )
    return result


def ok_json(db: Path, *args: str) -> Any:
    result = invoke(db, *args)
    assert result.exit_code == 0, f"{args} failed ({result.exit_code}): {result.stderr}"
    return json.loads(result.stdout)


def one_line(text: str) -> str:
    """Rich wraps at the console width; join the lines to compare the message itself."""
    return " ".join(line.strip() for line in text.strip().splitlines())


# ------------------------------------------------------------------ entry points
def test_module_and_console_script_entry_points() -> None:
    proc = subprocess.run(hindsight_argv("--help"), capture_output=True, text=True, env=child_env(COLUMNS="200"),
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    for command in ("serve", "add", "search", "get", "list", "forget", "delete", "stats", "export", "import"):
        assert command in proc.stdout
    script = Path(sys.executable).with_name("hindsight")
    assert script.exists(), f"console script missing next to {sys.executable} (is the package installed?)"
    proc = subprocess.run([str(script), "add", "--help"], capture_output=True, text=True,
                          env=child_env(COLUMNS="200"), timeout=120)
    assert proc.returncode == 0 and "--importance" in proc.stdout, proc.stderr


def test_real_process_round_trip(tmp_path: Path) -> None:
    """stdout of a real process is exactly the JSON document (no logs mixed in), UTF-8 included."""
    db = tmp_path / "proc.db"
    add = run_cli("add", "数据库连接池上限是 50，超过会排队", "--tag", "数据库", "--json", db=db)
    assert add.returncode == 0, add.stderr
    stored = json.loads(add.stdout)
    assert stored["action"] == "created"
    search = run_cli("search", "连接池上限是多少", "--json", "-k", "1", db=db)
    assert search.returncode == 0, search.stderr
    hits = json.loads(search.stdout)
    assert [h["id"] for h in hits] == [stored["memory_id"]]
    assert hits[0]["content"] == "数据库连接池上限是 50，超过会排队" and hits[0]["tags"] == ["数据库"]
    assert "Traceback" not in add.stderr + search.stderr


# --------------------------------------------------------------------- round trip
def test_json_round_trip(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    en = ok_json(db, "add", "Use uv to manage Python virtual environments", "--type", "semantic",
                 "--tag", "python", "--tag", "Tooling", "--importance", "0.9", "--context", "all repos", "--json")
    assert en["action"] == "created" and en["status"] == "active"
    zh = ok_json(db, "add", "周报每周五下午五点前发到团队群里", "--source", "agent", "--json")
    en_id, zh_id = en["memory_id"], zh["memory_id"]

    hits = ok_json(db, "search", "how should I manage python environments", "--json")
    top = hits[0]
    assert top["id"] == en_id
    assert {"id", "content", "type", "status", "score", "why"} <= set(top)
    assert top["type"] == "semantic" and top["tags"] == ["python", "tooling"]
    assert top["importance"] == pytest.approx(0.9) and top["context"] == "all repos"
    assert top["provenance"]["source"] == "user"  # the CLI's default source
    assert ok_json(db, "search", "周报什么时候发", "--json", "-k", "1")[0]["id"] == zh_id
    assert [h["id"] for h in ok_json(db, "search", "weekly report", "--type", "semantic", "--json")] == [en_id]
    assert [h["id"] for h in ok_json(db, "search", "anything", "--tag", "tooling", "--json")] == [en_id]

    got = ok_json(db, "get", zh_id, "--json")
    assert got["id"] == zh_id and got["content"] == "周报每周五下午五点前发到团队群里"
    assert got["provenance"]["source"] == "agent"
    listing = ok_json(db, "list", "--json")
    assert listing["total"] == 2 and [m["id"] for m in listing["memories"]] == [zh_id, en_id]
    assert [m["id"] for m in ok_json(db, "list", "--limit", "1", "--offset", "1", "--json")["memories"]] == [en_id]

    forgotten = ok_json(db, "forget", zh_id, "--reason", "moved to Thursdays", "--json")
    assert forgotten["id"] == zh_id and forgotten["status"] == "forgotten"
    assert forgotten["status_reason"] == "moved to Thursdays"
    assert zh_id not in [h["id"] for h in ok_json(db, "search", "周报什么时候发", "--json")]
    assert {m["id"]: m["status"] for m in ok_json(db, "list", "--json")["memories"]} == \
        {en_id: "active", zh_id: "forgotten"}
    history = ok_json(db, "history", zh_id, "--json")
    assert [e["action"] for e in history] == ["create", "forget"]

    stats = ok_json(db, "stats")
    assert stats["total"] == 2 and stats["by_status"] == {"active": 1, "forgotten": 1}
    assert stats["by_type"] == {"semantic": 1, "episodic": 1} and stats["path"] == str(db)

    refused = invoke(db, "delete", en_id)  # no answer to the confirmation: nothing happens
    assert refused.exit_code == 1 and "--yes" in one_line(refused.stderr)
    assert ok_json(db, "get", en_id, "--json")["status"] == "active"
    deleted = ok_json(db, "delete", en_id, "--yes", "--json")
    assert deleted["id"] == en_id
    gone = invoke(db, "get", en_id)
    assert gone.exit_code == 1 and en_id in one_line(gone.stderr)
    assert ok_json(db, "stats")["total"] == 1
    assert ok_json(db, "history", en_id, "--json")[-1]["action"] == "delete"

    plain = invoke(db, "list")  # the table view works too
    assert plain.exit_code == 0 and "1 memories" in plain.stdout


def test_export_import_round_trip(tmp_path: Path) -> None:
    src, dst = tmp_path / "src.db", tmp_path / "dst.db"
    contents = {
        "Prefer small pull requests under 300 lines": ("semantic", ["review"], 0.8),
        "部署前先在预发环境验证数据库迁移": ("warning", ["部署", "数据库"], 0.9),
        "The team standup moved to 9:30": ("episodic", [], 0.5),
    }
    for text, (kind, tags, importance) in contents.items():
        args = ["add", text, "--type", kind, "--importance", str(importance), "--json"]
        for tag in tags:
            args += ["--tag", tag]
        ok_json(src, *args)

    out = tmp_path / "export.jsonl"
    exported = invoke(src, "export", str(out))
    assert exported.exit_code == 0 and "exported 3 memories" in exported.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 and all(json.loads(line)["content"] in contents for line in lines)
    to_stdout = invoke(src, "export", "-")
    assert sorted(to_stdout.stdout.splitlines()) == sorted(lines)

    imported = invoke(dst, "import", str(out))
    assert imported.exit_code == 0, imported.stderr
    assert "imported 3 lines" in imported.stderr
    memories = ok_json(dst, "list", "--json")["memories"]
    assert {m["content"]: (m["type"], m["tags"], m["importance"]) for m in memories} == \
        {k: (t, tags, pytest.approx(i)) for k, (t, tags, i) in contents.items()}
    hits = ok_json(dst, "search", "上线前要验证什么", "--json", "-k", "1")
    assert hits[0]["content"] == "部署前先在预发环境验证数据库迁移"
    assert ok_json(dst, "stats")["total"] == 3


# ---------------------------------------------------------------------- bad input
BAD = [
    pytest.param(["add", "   "], 2, ["content", "non-whitespace"], id="add-whitespace"),
    pytest.param(["add", "x" * 20_001], 2, ["content", "20000"], id="add-huge"),
    pytest.param(["add", "x", "--importance", "2"], 2, ["--importance"], id="add-importance-2"),
    pytest.param(["add", "x", "--importance", "high"], 2, ["--importance"], id="add-importance-word"),
    pytest.param(["add", "x", "--type", "longterm"], 2, ["--type"], id="add-bad-type"),
    pytest.param(["add", "x", "--event-time", "yesterday-ish"], 2, ["--event-time"], id="add-bad-time"),
    pytest.param(["add", "x", "--namespace", "bad ns!"], 2, ["namespace"], id="add-bad-namespace"),
    pytest.param(["add"], 2, ["content"], id="add-missing-content"),
    pytest.param(["search", "   "], 2, ["query"], id="search-whitespace"),
    pytest.param(["search", "x", "--top-k", "0"], 2, ["--top-k"], id="search-top-k-0"),
    pytest.param(["search", "x", "--top-k", "1000"], 2, ["--top-k"], id="search-top-k-1000"),
    pytest.param(["get", "mem_nope"], 1, ["mem_nope", "not found"], id="get-unknown"),
    pytest.param(["forget", "mem_nope"], 1, ["mem_nope", "not found"], id="forget-unknown"),
    pytest.param(["history", "mem_nope"], 1, ["mem_nope", "not found"], id="history-unknown"),
    pytest.param(["delete", "{seed}"], 1, ["--yes"], id="delete-without-yes"),
    pytest.param(["delete", "mem_nope", "--yes"], 1, ["mem_nope", "not found"], id="delete-unknown"),
    pytest.param(["list", "--limit", "0"], 2, ["--limit"], id="list-limit-0"),
    pytest.param(["import", "{tmp}/missing.jsonl"], 2, ["no such file"], id="import-missing-file"),
    pytest.param(["import", "{tmp}/bad_json.jsonl"], 2, ["line 2", "JSON"], id="import-bad-json"),
    pytest.param(["import", "{tmp}/bad_field.jsonl"], 2, ["line 2", "importance"], id="import-bad-field"),
    pytest.param(["import", "{tmp}/not_object.jsonl"], 2, ["line 1", "object"], id="import-not-object"),
    pytest.param(["serve", "--transport", "ftp"], 2, ["--transport"], id="serve-bad-transport"),
]


@pytest.fixture(scope="module")
def bad_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A store with one memory, plus the broken import files the bad cases read."""
    folder = tmp_path_factory.mktemp("cli_bad")
    db = folder / "memory.db"
    result = CliRunner().invoke(app, ["add", "The VPN config lives in the IT wiki", "--json", "--db", str(db)])
    assert result.exit_code == 0, result.stderr
    (folder / "bad_json.jsonl").write_text('{"content": "fine"}\nnot json\n', encoding="utf-8")
    (folder / "bad_field.jsonl").write_text('{"content": "fine"}\n{"content": "x", "importance": 5}\n',
                                            encoding="utf-8")
    (folder / "not_object.jsonl").write_text("[1, 2]\n", encoding="utf-8")
    return db, json.loads(result.stdout)["memory_id"]


@pytest.mark.parametrize(("args", "code", "expect"), BAD)
def test_bad_input_exits_with_a_readable_error(bad_db: tuple[Path, str], args: list[str], code: int,
                                               expect: list[str]) -> None:
    db, seed = bad_db
    args = [a.replace("{seed}", seed).replace("{tmp}", str(db.parent)) for a in args]
    before = ok_json(db, "list", "--json")
    result = invoke(db, *args)
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    message = one_line(result.stderr)
    for needle in expect:
        assert needle.lower() in message.lower(), f"{args}: error does not mention {needle!r}: {message}"
    assert "Traceback" not in result.stderr + result.stdout
    assert result.stdout == "", "errors go to stderr"
    assert ok_json(db, "list", "--json") == before, "a failed command changed the store"


@pytest.mark.parametrize(("args", "code", "needle"), [
    pytest.param(["add", "   "], 2, "content", id="invalid-input"),
    pytest.param(["get", "mem_nope"], 1, "mem_nope", id="not-found"),
    pytest.param(["delete", "mem_nope"], 1, "mem_nope", id="delete-unknown"),
    pytest.param(["import", "{tmp}/bad_json.jsonl"], 2, "line 2", id="bad-import"),
])
def test_bad_input_in_a_real_process_is_one_line(bad_db: tuple[Path, str], args: list[str], code: int,
                                                 needle: str) -> None:
    db, _ = bad_db
    args = [a.replace("{tmp}", str(db.parent)) for a in args]
    proc = run_cli(*args, db=db)
    assert proc.returncode == code, proc.stderr
    assert proc.stdout == ""
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line, got:\n{proc.stderr}"
    assert lines[0].startswith("error") and needle in lines[0]
    assert "Traceback" not in proc.stderr


# ------------------------------------------------------------ regressions of fixed bugs
def test_brackets_in_content_and_ids_are_printed_verbatim(tmp_path: Path) -> None:
    db = tmp_path / "markup.db"
    mid = ok_json(db, "add", "[/draft] regex [a-z]+ matches [bold]words[/bold]", "--json")["memory_id"]
    for args in (["get", mid], ["list"], ["search", "regex words"]):
        result = CliRunner().invoke(app, [*args, "--db", str(db)], env={"COLUMNS": "300"})
        assert result.exception is None, f"{args}: {result.exception!r}"
        assert "[/draft]" in result.stdout
    result = CliRunner().invoke(app, ["get", "[/x]", "--db", str(db)])
    assert isinstance(result.exception, SystemExit) and result.exit_code == 1
    assert "[/x]" in result.stderr


def test_long_error_stays_on_one_line_without_a_terminal(tmp_path: Path) -> None:
    env = {k: v for k, v in child_env().items() if k != "COLUMNS"}
    proc = subprocess.run(hindsight_argv("add", "   ", "--db", str(tmp_path / "w.db")), capture_output=True,
                          text=True, env=env, timeout=120)
    assert proc.returncode == 2
    assert len([line for line in proc.stderr.splitlines() if line.strip()]) == 1, proc.stderr


@pytest.mark.parametrize("kind", ["not-a-database", "uncreatable-folder"])
def test_unusable_db_path_is_a_one_line_error(tmp_path: Path, kind: str) -> None:
    if kind == "not-a-database":
        db = tmp_path / "garbage.db"
        db.write_bytes(b"this is not sqlite" * 100)
    else:
        blocker = tmp_path / "file"
        blocker.write_text("a file where a folder should be")
        db = blocker / "sub" / "memory.db"
    result = CliRunner().invoke(app, ["stats", "--db", str(db)])
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1
    assert "cannot open database" in one_line(result.stderr) and db.name in result.stderr


def test_export_import_keeps_forgotten_memories_forgotten(tmp_path: Path) -> None:
    src, dst = tmp_path / "src.db", tmp_path / "dst.db"
    mid = ok_json(src, "add", "The old API key rotation schedule was quarterly", "--json")["memory_id"]
    ok_json(src, "forget", mid, "--json")
    out = tmp_path / "export.jsonl"
    assert invoke(src, "export", str(out)).exit_code == 0
    assert invoke(dst, "import", str(out)).exit_code == 0
    assert ok_json(dst, "stats")["by_status"] == {"forgotten": 1}
