#!/usr/bin/env bash
# One command: set up everything the tests need (venv, test extras, MCP Inspector), lint, and run the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
if [ -x scripts/install_inspector.sh ]; then
  scripts/install_inspector.sh || echo "warning: MCP Inspector could not be installed; its test will skip" >&2
fi
scripts/lint.sh
# Byte-compile the package once: with PYTHONDONTWRITEBYTECODE set (CI images often set it) every server / CLI process a
# test starts would compile hindsight again (~0.6 s CPU each); compileall writes the .pyc files regardless.
.venv/bin/python -m compileall -q -j 0 src >/dev/null
exec .venv/bin/python -m pytest "$@"
