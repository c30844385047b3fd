"""Issue 9 item 2: a killed `hindsight import` leaves only whole lines (status included); a re-run resumes."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from mcp_helpers import ROOT, child_env, hindsight_argv, run_cli

TOPICS = ["kernel", "garden", "violin", "tax form", "bicycle", "recipe", "telescope", "passport", "aquarium",
          "chess opening", "router", "pottery"]


def _lines(n: int) -> list[dict]:
    out = []
    for i in range(n):
        status = "forgotten" if i % 3 == 0 else "deprecated" if i % 7 == 0 else "active"
        out.append({"id": f"mem_export_{i:04d}", "content": f"Note {i} about the {TOPICS[i % len(TOPICS)]}: "
                    f"reference code {i * 7919 % 100000:05d}.", "type": "semantic", "status": status,
                    "status_reason": "user asked" if status != "active" else ""})
    return out


def _stored(db: Path) -> dict[str, str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT json_extract(metadata, '$.imported_from'), status FROM memories").fetchall()
    return {key: status for key, status in rows}


def _rerun(src: Path, db: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(hindsight_argv("import", str(src), "--db", str(db)), env=env, cwd=str(ROOT),
                          capture_output=True, text=True, timeout=600, check=False)


def test_killed_import_keeps_whole_lines_and_a_rerun_resumes_exactly(tmp_path: Path) -> None:
    lines = _lines(240)
    src, db = tmp_path / "export.jsonl", tmp_path / "memory.db"
    src.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    expected = {line["id"]: line["status"] for line in lines}
    env = child_env(HINDSIGHT_HYGIENE="false")  # distinct notes; dedup is not what this test is about
    proc = subprocess.Popen(hindsight_argv("import", str(src), "--db", str(db)), env=env, cwd=str(ROOT),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if len(_stored(db)) >= 20:
                    break
            except sqlite3.OperationalError:
                pass  # the file or table does not exist yet
            time.sleep(0.02)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    partial = _stored(db)
    assert 0 < len(partial) < len(lines), "the import was not interrupted mid-way"
    assert {k: expected[k] for k in partial} == partial  # every stored line is whole, status included

    result = _rerun(src, db, env)
    assert result.returncode == 0, result.stderr
    assert f"skipped {len(partial)} already imported" in result.stderr
    assert _stored(db) == expected  # exact counts, no forgotten memory resurrected
    again = _rerun(src, db, env)
    assert f"skipped {len(lines)} already imported" in again.stderr and _stored(db) == expected


def test_a_non_utf8_import_is_a_typed_error_and_stores_nothing(tmp_path: Path) -> None:
    src, db = tmp_path / "bad.jsonl", tmp_path / "memory.db"
    src.write_bytes(b'{"content": "fine line"}\n{"content": "caf\xe9 latin-1"}\n')
    result = run_cli("import", str(src), db=db)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "line 2" in result.stderr and "UTF-8" in result.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM memories").fetchone()[0] == 0
