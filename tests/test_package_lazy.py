"""`import hindsight` (or one submodule) does not import the engine: the public names load on first use.

Every child process a test or a user starts for one light submodule (a hash-seed probe, `hindsight.errors`) paid ~3 s
of CPU for the engine, the guard and the redaction patterns that `hindsight/__init__.py` imported eagerly.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import hindsight

SRC = Path(__file__).resolve().parents[1] / "src"

PROBE = """
import sys
import hindsight, hindsight.errors
print(sorted(m for m in ("hindsight.engine", "hindsight.api", "hindsight.safety.guard") if m in sys.modules))
from hindsight import Status
print("hindsight.model" in sys.modules, Status.__module__)
"""


def test_importing_the_package_does_not_import_the_engine() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], env={"PYTHONPATH": str(SRC), "PATH": ""},
                          capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["[]", "True hindsight.model"], done.stdout + done.stderr


def test_every_public_name_resolves() -> None:
    for name in hindsight.__all__:
        assert getattr(hindsight, name) is not None
        assert name in dir(hindsight)
    from hindsight import HindsightSettings, MemoryEngine, Status, WriteOutcome
    from hindsight.config import HindsightSettings as settings_class
    from hindsight.engine import MemoryEngine as engine_class
    from hindsight.model import Status as status_class
    from hindsight.write.pipeline import WriteOutcome as outcome_class

    assert (HindsightSettings, MemoryEngine, Status, WriteOutcome) == (
        settings_class, engine_class, status_class, outcome_class)
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        hindsight.Nope  # noqa: B018
