#!/usr/bin/env bash
# One command: set up, show a demo, then run the MCP server on the embedded store.
#   scripts/start.sh            -> streamable HTTP on 127.0.0.1:8765 (override with HINDSIGHT_HTTP_PORT)
#   scripts/start.sh stdio      -> stdio (what Claude Desktop / Cursor launch themselves)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >&2
DB=${HINDSIGHT_DB:-$HOME/.hindsight/memory.db}
PORT=${HINDSIGHT_HTTP_PORT:-8765}
HINDSIGHT=$(pwd)/.venv/bin/hindsight
if [ "${1:-http}" = "stdio" ]; then
  exec "$HINDSIGHT" serve --transport stdio --db "$DB"
fi
echo "== demo (namespace 'demo' in $DB) ==" >&2
"$HINDSIGHT" demo --db "$DB" >&2
cat >&2 <<MSG

== connect an MCP client ==
Streamable HTTP endpoint: http://127.0.0.1:$PORT/mcp
Claude Desktop / Cursor (stdio) config snippet:
{
  "mcpServers": {
    "hindsight": {
      "command": "$HINDSIGHT",
      "args": ["serve", "--transport", "stdio", "--db", "$DB"]
    }
  }
}
MSG
exec "$HINDSIGHT" serve --transport http --db "$DB" --port "$PORT"
