"""Attack round 40b (docs/benchmarks.md "Attack round 40b: ..."): store attack notes through the real MCP server.

    PYTHONPATH=src .venv/bin/python scripts/guardatk40_mcp.py on  --out on.json    # the switches as shipped
    PYTHONPATH=src .venv/bin/python scripts/guardatk40_mcp.py off --out off.json   # CARRIED / DESTINATION False

Starts ``hindsight serve --transport stdio`` on a fresh SQLite file (``off``: the same server with
``claimed.CARRIED_NOT_AT_STAKE`` and ``claimed.DESTINATION_AT_STAKE`` set False first), stores each note of
``bench/results/guardatk40/attack_notes.json`` with ``memory_store`` (source ``agent``, one namespace per note so no
note dedups or supersedes another) and writes each note's ``action`` / ``status``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parent.parent
NOTES = ROOT / "bench/results/guardatk40/attack_notes.json"
_SERVE = "import sys; from hindsight.cli import app; sys.argv = ['hindsight', *sys.argv[1:]]; app()"
_OFF = "import hindsight.safety.claimed as c; c.CARRIED_NOT_AT_STAKE = False; c.DESTINATION_AT_STAKE = False; "


async def store_all(mode: str, notes: list[str]) -> list[dict[str, object]]:
    db = Path(tempfile.mkdtemp(prefix=f"guardatk40-{mode}-")) / "memory.db"
    code = (_OFF if mode == "off" else "") + _SERVE
    params = StdioServerParameters(command=sys.executable, args=["-c", code, "serve", "--transport", "stdio", "--db", str(db)],
                                   env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, cwd=str(ROOT))
    out: list[dict[str, object]] = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for i, text in enumerate(notes):
            res = await session.call_tool("memory_store", {"content": text, "source": "agent", "namespace": f"n{i}"})
            body = json.loads(res.content[0].text)  # type: ignore[union-attr]
            out.append({"i": i, "action": body.get("action"), "status": body.get("status"), "text": text})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("on", "off"))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    notes = json.loads(NOTES.read_text(encoding="utf-8"))
    rows = asyncio.run(store_all(args.mode, notes))
    args.out.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    held = sum(1 for r in rows if r["action"] == "quarantined")
    print(f"{args.mode}: {len(rows)} notes, {len(rows) - held} stored, {held} quarantined")


if __name__ == "__main__":
    main()
