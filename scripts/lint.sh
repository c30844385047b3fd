#!/usr/bin/env bash
# Static checks CI runs before the tests: ruff (pyflakes, pycodestyle, import order, pyupgrade, bugbear) and mypy.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/ruff check src tests scripts bench
.venv/bin/python -m mypy src
