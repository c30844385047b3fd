#!/usr/bin/env bash
# Create .venv and install hindsight (idempotent). Usage: scripts/setup.sh [extra,...]
# pip runs only when something is missing: a stamp per extra ("core" for the package itself) holds the checksum of
# pyproject.toml it was installed from, so a second start needs no network (it used to reinstall every time, and an
# offline `scripts/start.sh` stopped there). HINDSIGHT_SETUP_FORCE=1 reinstalls anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
extras=${1:-}
stamps=.venv/.hindsight-setup
sum=$(cksum < pyproject.toml)
wanted=(core)
if [ -n "$extras" ]; then
  IFS=, read -r -a named <<< "$extras"
  wanted+=("${named[@]}")
fi
missing=${HINDSIGHT_SETUP_FORCE:-}
for name in "${wanted[@]}"; do
  if [ ! -f "$stamps/$name" ] || [ "$(cat "$stamps/$name")" != "$sum" ]; then
    missing=1
  fi
done
if [ -x .venv/bin/python ] && [ -z "$missing" ]; then
  exit 0
fi
echo "setting up .venv (pip install${extras:+ with $extras}; the first run downloads the dependencies and takes a few minutes)" >&2
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
if [ -n "$extras" ]; then
  .venv/bin/python -m pip install -q -e ".[$extras]"
else
  .venv/bin/python -m pip install -q -e .
fi
mkdir -p "$stamps"
for name in "${wanted[@]}"; do
  printf '%s' "$sum" > "$stamps/$name"
done
