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
# Both of CI's cores: pytest-xdist (the test extra) runs the suite in HINDSIGHT_TEST_WORKERS worker processes
# (default 2; 0 runs it in this one process, as does passing `-p no:xdist`). --dist loadfile hands a worker whole
# files: a file's module fixtures (servers, the browser, a store several tests share) live in one process, built once.
workers=${HINDSIGHT_TEST_WORKERS:-2}
xdist=()
if [ "$workers" != 0 ] && [[ " $* " != *" no:xdist "* && " $* " != *" -pno:xdist "* ]]; then
  if .venv/bin/python -c "import xdist" 2>/dev/null; then
    xdist=(-n "$workers" --dist loadfile)
  else
    echo "warning: pytest-xdist is not installed; the suite runs on one core" >&2
  fi
fi
exec .venv/bin/python -m pytest ${xdist[@]+"${xdist[@]}"} "$@"
