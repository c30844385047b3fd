"""How to install what an error says is missing, in the words README uses (round 34).

hindsight is installed from its checkout: it is not on PyPI, the PyPI project named `hindsight` is another one, and
`hindsight-memory` (pyproject's name) is not there. Error messages named `hindsight-memory[st]` to install; every
hint now names the checkout's own commands, as README's install lines do (`scripts/setup.sh langgraph`, or
`.venv/bin/pip install -e ".[langgraph]"` in the checkout). `tests/test_install_hints.py` reads every hint in src.
"""

from __future__ import annotations


def extra_hint(extra: str) -> str:
    """The command that installs the optional dependency group `extra` (a key of pyproject's
    `[project.optional-dependencies]`)."""
    return f'in the hindsight checkout run scripts/setup.sh {extra} (or .venv/bin/pip install -e ".[{extra}]")'


def core_hint() -> str:
    """The command that (re)installs hindsight's core dependencies."""
    return "in the hindsight checkout run scripts/setup.sh (or .venv/bin/pip install -e .)"
