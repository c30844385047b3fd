#!/usr/bin/env bash
# One command: set up everything the tests need (venv, test extras, MCP Inspector), lint, and run the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
if [ -x scripts/install_inspector.sh ]; then
  scripts/install_inspector.sh || echo "warning: MCP Inspector could not be installed; its test will skip" >&2
fi
scripts/lint.sh
exec .venv/bin/python -m pytest "$@"
