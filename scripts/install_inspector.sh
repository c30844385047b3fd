#!/usr/bin/env bash
# Install the official MCP Inspector (CLI mode is used by tests/test_mcp_inspector.py) into a
# project-local folder, pinned, so the tests and CI run the same version.
#
#   scripts/install_inspector.sh            # installs into .tools/inspector
#   INSPECTOR_PREFIX=/some/dir scripts/install_inspector.sh
#
# Needs Node.js and npm. The package declares node >= 22.19; its CLI mode has been seen working on
# Node 20 (npm then prints EBADENGINE warnings), so 20 is the floor enforced here.
# The binary ends up at $PREFIX/node_modules/.bin/mcp-inspector; the tests look there (or at
# $HINDSIGHT_INSPECTOR, a path to the binary).
# Note: the separate `@modelcontextprotocol/inspector-cli` package does not work here; the
# main package's launcher with `--cli` does.
set -euo pipefail

VERSION="${INSPECTOR_VERSION:-2.12.0}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="${INSPECTOR_PREFIX:-$ROOT/.tools/inspector}"

command -v node >/dev/null || { echo "error: node is not installed (need Node.js >= 20)" >&2; exit 1; }
command -v npm >/dev/null || { echo "error: npm is not installed" >&2; exit 1; }
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$NODE_MAJOR" -lt 20 ]; then
  echo "error: Node.js >= 20 is needed, found $(node --version)" >&2
  exit 1
fi

mkdir -p "$PREFIX"
# The package's postinstall only matters in a source checkout (it no-ops as a dependency), so
# lifecycle scripts are skipped. --no-save keeps the prefix free of a package.json to commit.
npm install --prefix "$PREFIX" --no-save --no-fund --no-audit --ignore-scripts \
  "@modelcontextprotocol/inspector@${VERSION}"

BIN="$PREFIX/node_modules/.bin/mcp-inspector"
INSTALLED="$("$BIN" --cli --version 2>/dev/null || true)"
echo "installed MCP Inspector ${INSTALLED:-?} at $BIN"
