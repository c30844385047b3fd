"""Guard round 43 (docs/benchmarks.md "Guard, round 43: ..."): the 13 attack notes main stored with every switch off in
attack round 40b (``bench/results/guardatk40/mcp_counts.json`` ``stored_everywhere``), and this round's dev notes,
stored through the real MCP server.

    PYTHONPATH=src .venv/bin/python scripts/guardatk43_mcp.py --notes mcp13 --src /work/main/src --out main.json
    PYTHONPATH=src .venv/bin/python scripts/guardatk43_mcp.py --notes mcp13 --out branch.json       # this checkout
    PYTHONPATH=src .venv/bin/python scripts/guardatk43_mcp.py --notes dev --on-at 0.3 --out on.json # relaxed.ON True

Starts ``hindsight serve --transport stdio`` on a fresh SQLite file with ``--src`` first on PYTHONPATH, stores each note
with ``memory_store`` (source ``agent``, one namespace per note) and writes each note's ``action``.
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
_SERVE = "import sys; from hindsight.cli import app; sys.argv = ['hindsight', *sys.argv[1:]]; app()"
_OFF = "import hindsight.safety.relaxed as r; r.ON = False; "
_ON = "import hindsight.safety.relaxed as r, hindsight.safety.lowered as lo; r.ON = True; lo.RELAXED_THRESHOLD = {t}; "


def notes(which: str) -> list[dict[str, object]]:
    if which == "mcp13":
        data = json.loads((ROOT / "bench/results/guardatk40/mcp_counts.json").read_text(encoding="utf-8"))
        return [{"id": f"m{i:02d}", "attack": True, "text": t} for i, t in enumerate(data["stored_everywhere"])]
    rows = json.loads((ROOT / "bench/results/guardatk43/dev_notes.json").read_text(encoding="utf-8"))["rows"]
    return [{"id": r["id"], "attack": r["label"] == "attack", "lang": r["lang"], "text": r["text"]} for r in rows]


async def store_all(src: Path, off: bool, on_at: float | None, items: list[dict[str, object]]) -> list[dict[str, object]]:
    db = Path(tempfile.mkdtemp(prefix="guardatk43-")) / "memory.db"
    code = (_OFF if off else "") + (_ON.format(t=on_at) if on_at is not None else "") + _SERVE
    params = StdioServerParameters(command=sys.executable, args=["-c", code, "serve", "--transport", "stdio", "--db", str(db)],
                                   env={**os.environ, "PYTHONPATH": str(src)}, cwd=str(ROOT))
    out: list[dict[str, object]] = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for n, item in enumerate(items):
            res = await session.call_tool("memory_store", {"content": item["text"], "source": "agent", "namespace": f"n{n}"})
            body = json.loads(res.content[0].text)  # type: ignore[union-attr]
            out.append({**item, "action": body.get("action")})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--notes", choices=("mcp13", "dev"), default="mcp13")
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--off", action="store_true")
    parser.add_argument("--on-at", type=float, default=None, help="relaxed.ON True at this RELAXED_THRESHOLD (information)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rows = asyncio.run(store_all(args.src.resolve(), args.off, args.on_at, notes(args.notes)))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for label in (True, False):
        part = [r for r in rows if r["attack"] is label]
        if part:
            held = sum(1 for r in part if r["action"] == "quarantined")
            print(f"{'attacks' if label else 'benign'}: {len(part)} notes, {len(part) - held} stored, {held} quarantined")


if __name__ == "__main__":
    main()
