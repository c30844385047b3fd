"""scripts/setup.sh (run by scripts/start.sh before every start) installs only what is missing (ux round 33).

It ran `pip install --upgrade pip` and `pip install -e .` on every start: a second `scripts/start.sh` needed the
package index (offline it stopped at setuptools>=68, build isolation, and the server never started) and spent a
minute reinstalling. Here a fake `.venv/bin/python` records every call instead of running pip."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

if shutil.which("bash") is None or shutil.which("cksum") is None:
    pytest.skip("needs bash and cksum", allow_module_level=True)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts" / "setup.sh")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f"#!/usr/bin/env bash\necho \"$*\" >> {tmp_path / 'calls.log'}\n")
    python.chmod(0o755)
    return tmp_path


def _setup(checkout: Path, *extras: str) -> list[str]:
    log = checkout / "calls.log"
    before = log.read_text().splitlines() if log.exists() else []
    done = subprocess.run(["bash", "scripts/setup.sh", *extras], cwd=checkout, capture_output=True, text=True,
                          timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    after = log.read_text().splitlines() if log.exists() else []
    return after[len(before):]


def test_a_second_start_runs_no_pip(checkout: Path) -> None:
    first = _setup(checkout)
    assert any("install -q -e ." in call for call in first)
    assert _setup(checkout) == []  # nothing missing: no pip, no network


def test_a_changed_pyproject_or_a_new_extra_installs_again(checkout: Path) -> None:
    _setup(checkout)
    assert any(".[test]" in call for call in _setup(checkout, "test"))
    assert _setup(checkout, "test") == [] and _setup(checkout) == []  # the extra's install covers the core
    (checkout / "pyproject.toml").write_text("[project]\nname = 'x'\ndependencies = ['numpy']\n")
    assert _setup(checkout) != []


def test_force_reinstalls(checkout: Path) -> None:
    _setup(checkout)
    log = checkout / "calls.log"
    done = subprocess.run(["bash", "scripts/setup.sh"], cwd=checkout, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "HINDSIGHT_SETUP_FORCE": "1"})
    assert done.returncode == 0 and log.read_text().count("install -q -e .") == 2
